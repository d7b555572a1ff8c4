#compdef diary

__diary_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__diary_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __diary_complete "${completions[@]:0:-1}"
    fi
}

__diary_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_diary() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'init:Create a new vault.'
            'unlock:Unlock the vault for a while.'
            'lock:Lock the vault now (every unlocked vault with --all).'
            'status:Say which vaults are unlocked, and for how long.'
            'new:Write a new entry.'
            'list:List entries, newest first (--reverse: oldest first).'
            'show:Show entries (the newest without an id).'
            'read:Read the diary as a book, oldest first.'
            'pick:Pick an entry interactively (with fzf) and print its id.'
            'edit:Edit an entry in your editor (the newest without an id).'
            'delete:Delete entries.'
            'template:Keep templates (with prompts) for new entries.'
            'star:Star an entry.'
            'unstar:Remove an entry'\''s star.'
            'tag:Add or remove an entry'\''s tags.'
            'search:Find entries containing every word or phrase given.'
            'attach:Attach files to an entry.'
            'detach:Remove an attachment from an entry.'
            'attachments:List an entry'\''s attachments (without an id: every entry'\''s).'
            'open:Open an attachment in a viewer.'
            'extract:Write an attachment to a file, as plaintext.'
            'calendar:Show a year'\''s calendar, the days you wrote marked by how much.'
            'stats:Show totals, streaks, the busiest weekday and the tags.'
            'passwd:Change the passphrase.'
            'rekey:Rotate the vault key and re-encrypt every entry.'
            'recovery-key:Make, check or remove the key that resets a forgotten passphrase.'
            'reset-passphrase:Set a new passphrase with the recovery key (the old one forgotten).'
            'backup:Write a backup of the vault to one file.'
            'verify:Check a vault or a backup file for damage.'
            'restore:Restore a backup into a new vault.'
            'reindex:Rebuild the index from the entries.'
            'import:Import entries from jrnl, Day One, Markdown or a diary export.'
            'export:Export entries as plaintext JSON, Markdown or HTML.'
            'audit:Show what someone who copies the vault can learn, and warn about weak settings.'
            'recover:Store the text of an edit that was not saved (a failed save, a killed diary).'
            'sync:Sync this vault with a git remote or a synced folder.'
            'conflicts:List entries changed on two machines (after `diary sync`).'
            'resolve:End a conflict: keep one version, both, or a text merged in the editor.'
            'capture:Add an entry with a capture key, without the passphrase (write-only).'
            'capture-key:Enrol, list and revoke write-only capture devices.'
            'config:Read or change the settings in the config file.'
            'journal:Name vaults, to choose one with -j NAME.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        init|unlock|lock|status|new|list|show|read|pick|edit|delete|template|star|unstar|tag|search|attach|detach|attachments|open|extract|calendar|stats|passwd|rekey|recovery-key|reset-passphrase|backup|verify|restore|reindex|import|export|audit|recover|sync|conflicts|resolve|capture|capture-key|config|journal|help)
            "_diary_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_init() {
    local -i ret=1
    local -ar ___store=('sqlite' 'files')
    local -ar ___kdf=('interactive' 'moderate' 'sensitive')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion init -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--new-passphrase-file[Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).]:file:_files'
        '--allow-weak-passphrase[Use the new passphrase even if the strength check calls it weak.]'
        '--store[How entries are stored\: sqlite or files (default\: the config'\''s store, else sqlite).]:store:{__diary_complete "${___store[@]}"}'
        '--kdf[Argon2id cost\: interactive, moderate or sensitive.]:kdf:{__diary_complete "${___kdf[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_unlock() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion unlock -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--timeout[Lock after this long without use; else the config'\''s unlock.timeout (default\: 15m).]:duration:'
        '--max[Lock after this long in any case; else the config'\''s unlock.max (default\: 8h).]:duration:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_lock() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion lock -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--all[Lock every vault of yours that is unlocked, not only this one.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion status -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_new() {
    local -i ret=1
    local -ar ___date=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion new -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '*:words:'
        '--edit[Open the editor even when text or stdin is given.]'
        '--date[The entry'\''s date\: 2024-02-22, 2024-02-22T15\:00, yesterday 9pm, 2 days ago, last monday, Feb 22; default now. A date without a time is that calendar day in every time zone.]:date:{__diary_complete "${___date[@]}"}'
        '*--tag[Tag the entry (repeatable).]:tag:{__diary_custom_complete ---completion new -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--star[Star the entry.]'
        '--template[Start in the editor from this template (`diary template list`).]:name:{__diary_custom_complete ---completion new -- --template "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '*--attach[Attach a file (repeatable).]:file:_files'
        '--keep-metadata[Store a JPEG exactly as it is, its EXIF (GPS position included), XMP, IPTC and comments kept.]'
        '--no-dedup[Store the file even when an identical one is stored already (see SECURITY.md on what sharing reveals).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_list() {
    local -i ret=1
    local -ar ___from=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___to=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___on=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion list -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--starred[Only starred entries.]'
        '--tag[Only entries with this tag.]:tag:{__diary_custom_complete ---completion list -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--from[Only entries dated on or after this date.]:date:{__diary_complete "${___from[@]}"}'
        '--to[Only entries dated on or before this date (a day counts whole).]:date:{__diary_complete "${___to[@]}"}'
        '--on[Only entries dated on this day (in your time zone).]:date:{__diary_complete "${___on[@]}"}'
        '(-n --limit)'{-n,--limit}'[At most this many entries.]:n:'
        '--json[Print JSON (an array of objects with sorted keys) instead of lines.]'
        '--on-this-day[Only entries dated on today'\''s month and day in earlier years.]'
        '--reverse[Oldest first (-n still picks the newest n).]'
        '--no-pager[Print straight to the terminal, without $PAGER.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion show -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '*:ids:{__diary_custom_complete ---completion show -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '(-n --limit)'{-n,--limit}'[Show the newest n entries.]:n:'
        '--json[Print JSON.]'
        '--raw[Print the title, tags and text unchanged, control characters included.]'
        '--reverse[With -n\: oldest first.]'
        '--no-pager[Print straight to the terminal, without $PAGER.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_read() {
    local -i ret=1
    local -ar ___from=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___to=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___on=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion read -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--starred[Only starred entries.]'
        '--tag[Only entries with this tag.]:tag:{__diary_custom_complete ---completion read -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--from[Only entries dated on or after this date.]:date:{__diary_complete "${___from[@]}"}'
        '--to[Only entries dated on or before this date (a day counts whole).]:date:{__diary_complete "${___to[@]}"}'
        '--on[Only entries dated on this day (in your time zone).]:date:{__diary_complete "${___on[@]}"}'
        '(-n --limit)'{-n,--limit}'[Only the newest n entries (still oldest first).]:n:'
        '--reverse[Newest first.]'
        '--no-pager[Print straight to the terminal, without $PAGER.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_pick() {
    local -i ret=1
    local -ar ___from=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___to=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___on=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion pick -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--starred[Only starred entries.]'
        '--tag[Only entries with this tag.]:tag:{__diary_custom_complete ---completion pick -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--from[Only entries dated on or after this date.]:date:{__diary_complete "${___from[@]}"}'
        '--to[Only entries dated on or before this date (a day counts whole).]:date:{__diary_complete "${___to[@]}"}'
        '--on[Only entries dated on this day (in your time zone).]:date:{__diary_complete "${___on[@]}"}'
        '(-n --limit)'{-n,--limit}'[Only the newest n entries.]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_edit() {
    local -i ret=1
    local -ar ___date=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion edit -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion edit -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--date[A new date for the entry (as for new\: 2024-02-22, yesterday 9pm, last monday, Feb 22).]:date:{__diary_complete "${___date[@]}"}'
        '--yes[Delete without asking if the text is emptied.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion delete -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '*:ids:{__diary_custom_complete ---completion delete -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_template() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add a template, from stdin or your editor.'
            'list:List the templates'\'' names.'
            'show:Print a template'\''s text, placeholders and prompt list as written.'
            'edit:Change a template'\''s text in your editor.'
            'remove:Delete a template.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|show|edit|remove)
            "_diary_template_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_template_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion template add -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_template_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion template list -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_template_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion template show -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:{__diary_custom_complete ---completion template show -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_template_edit() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion template edit -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:{__diary_custom_complete ---completion template edit -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_template_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion template remove -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:{__diary_custom_complete ---completion template remove -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_star() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion star -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion star -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_unstar() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion unstar -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion unstar -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_tag() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion tag -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion tag -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '*:change:{__diary_custom_complete ---completion tag -- positional@1 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_search() {
    local -i ret=1
    local -ar ___from=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___to=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___on=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion search -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '*:text:'
        '--starred[Only starred entries.]'
        '--tag[Only entries with this tag.]:tag:{__diary_custom_complete ---completion search -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--from[Only entries dated on or after this date.]:date:{__diary_complete "${___from[@]}"}'
        '--to[Only entries dated on or before this date (a day counts whole).]:date:{__diary_complete "${___to[@]}"}'
        '--on[Only entries dated on this day (in your time zone).]:date:{__diary_complete "${___on[@]}"}'
        '(-n --limit)'{-n,--limit}'[At most this many entries.]:n:'
        '--json[Print JSON (an array of objects with sorted keys) instead of lines.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_attach() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion attach -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion attach -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '*:files:_files'
        '--name[The attachment'\''s name (only with one file).]:name:'
        '--keep-metadata[Store a JPEG exactly as it is, its EXIF (GPS position included), XMP, IPTC and comments kept.]'
        '--no-dedup[Store the file even when an identical one is stored already (see SECURITY.md on what sharing reveals).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_detach() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion detach -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion detach -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        ':name:'
        '(-y --yes)'{-y,--yes}'[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_attachments() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion attachments -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion attachments -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--json[Print JSON.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_open() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion open -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion open -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_extract() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion extract -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion extract -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        ':name:'
        '(-o --output)'{-o,--output}'[The file to write ('\''-'\''\: stdout).]:path:_files'
        '--yes[Do not ask\: consent to writing plaintext.]'
        '--force[Replace PATH if it exists (only a regular file).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_calendar() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion calendar -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':year:'
        '--json[Print JSON instead of the calendar.]'
        '--ascii[Mark days with ASCII characters (\: + # @, * for a star) for fonts without block characters.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_stats() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion stats -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--json[Print JSON instead of lines.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_passwd() {
    local -i ret=1
    local -ar ___kdf=('interactive' 'moderate' 'sensitive')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion passwd -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--new-passphrase-file[Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).]:file:_files'
        '--allow-weak-passphrase[Use the new passphrase even if the strength check calls it weak.]'
        '--kdf[Also change the Argon2id cost\: interactive, moderate or sensitive.]:kdf:{__diary_complete "${___kdf[@]}"}'
        '--no-rekey[On a vault that syncs\: change the passphrase only, not the vault key.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_rekey() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion rekey -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--attachments[Also re-encrypt every attachment under a new key.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_recovery-key() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Make a recovery key and show it once.'
            'status:Say whether the vault has a recovery key.'
            'remove:Remove the recovery key: it stops working.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|status|remove)
            "_diary_recovery-key_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_recovery-key_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion recovery-key create -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--replace[Replace the vault'\''s recovery key\: the old one stops working.]'
        '--output[Write the key to this new file (0600) instead of showing it; with --shares, the shares into this new or empty directory.]:path:_files'
        '--shares[Split the key into this many shares (2 to 16) instead.]:n:'
        '--threshold[With --shares\: how many of them rebuild the key.]:k:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_recovery-key_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion recovery-key status -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_recovery-key_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion recovery-key remove -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--yes[Do not ask for confirmation.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_reset-passphrase() {
    local -i ret=1
    local -ar ___kdf=('interactive' 'moderate' 'sensitive')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion reset-passphrase -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--new-passphrase-file[Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).]:file:_files'
        '--allow-weak-passphrase[Use the new passphrase even if the strength check calls it weak.]'
        '--recovery-key-file[Read the recovery key from this file.]:file:_files'
        '*--share-file[Rebuild the recovery key from this share file (repeat it for each share).]:file:_files'
        '--kdf[Also change the Argon2id cost\: interactive, moderate or sensitive.]:kdf:{__diary_complete "${___kdf[@]}"}'
        '--accept-older[Reset even when entries this machine saw are missing or older (then accept the loss with `diary reindex --accept-older` and the new passphrase).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_backup() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion backup -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':path:_files -g '\''*.diarybak'\'''
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_verify() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion verify -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_restore() {
    local -i ret=1
    local -ar ___store=('sqlite' 'files')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion restore -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':backup:_files -g '\''*.diarybak'\'''
        '--to[The new vault directory.]:path:_files -/'
        '--store[Store shape of the restored vault (default\: as in the backup).]:store:{__diary_complete "${___store[@]}"}'
        '--salvage[Restore every intact entry of a damaged backup and list what was lost.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_reindex() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion reindex -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--accept-older[Accept that entries this machine saw are missing or older, and continue from the vault as it is.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_import() {
    local -i ret=1
    local -ar ___from=('jrnl' 'dayone' 'markdown' 'diary')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion import -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--from[What the files are\: jrnl, dayone, markdown or diary.]:format:{__diary_complete "${___from[@]}"}'
        '*:file:_files'
        '--keep-metadata[Keep photos'\'' metadata (EXIF with GPS, XMP, IPTC)\: store imported files exactly as they are.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_export() {
    local -i ret=1
    local -ar ___format=('json' 'markdown' 'html')
    local -ar ___from=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___to=('now' 'today' 'yesterday' 'tomorrow')
    local -ar ___on=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion export -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--format[What to write\: json (lossless), markdown or html.]:format:{__diary_complete "${___format[@]}"}'
        '(-o --output)'{-o,--output}'[Where to write (a file; for markdown also a directory; - for stdout); default stdout.]:path:_files'
        '--starred[Only starred entries.]'
        '--tag[Only entries with this tag.]:tag:{__diary_custom_complete ---completion export -- --tag "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--from[Only entries dated on or after this date.]:date:{__diary_complete "${___from[@]}"}'
        '--to[Only entries dated on or before this date (a day counts whole).]:date:{__diary_complete "${___to[@]}"}'
        '--on[Only entries dated on this day (in your time zone).]:date:{__diary_complete "${___on[@]}"}'
        '--reverse[Oldest entry first (html\: newest first).]'
        '--yes[Do not ask\: consent to writing plaintext.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_audit() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion audit -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--json[Print JSON (one object with sorted keys) instead of lines.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_recover() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion recover -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--discard[Wipe the leftover texts instead of storing them.]'
        '--yes[With --discard\: do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'now:Publish this machine'\''s changes and take in the others'\'' (the default).'
            'init:Start syncing this vault with a remote.'
            'join:Build a local vault on this machine from a remote.'
            'invite:Print a one-time code that lets another machine join.'
            'members:List the machines that are members of this vault'\''s sync.'
            'status:Show the remote, the members and when each was last heard from.'
            'remove:Remove a machine from this vault'\''s sync, and rotate the key.'
            'stop:Stop syncing this vault on this machine.'
            'upgrade:Move this vault'\''s remote from sync format 1 to format 2.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        now|init|join|invite|members|status|remove|stop|upgrade)
            "_diary_sync_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_sync_now() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync now -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--no-attachments[Do not fetch attachments now\: they stay pending until a later sync.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_init() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync init -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':git-remote:'
        '--folder[A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.]:path:_files -/'
        '--name[This machine'\''s name in conflicts and messages (default\: the host name).]:name:'
        '--invite[For a remote that already holds this vault\: the code `diary sync invite` printed there.]:code:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_join() {
    local -i ret=1
    local -ar ___store=('sqlite' 'files')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync join -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':git-remote:'
        '--folder[A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.]:path:_files -/'
        '--name[This machine'\''s name in conflicts and messages (default\: the host name).]:name:'
        '--to[Where to create the local vault.]:path:_files -/'
        '--store[How entries are stored here\: sqlite or files (each machine chooses; default\: the config'\''s store, else sqlite).]:store:{__diary_complete "${___store[@]}"}'
        '--invite[The code `diary sync invite` printed on a machine that syncs.]:code:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_invite() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync invite -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--name[What the invite is for (shown when it is used).]:name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_members() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync members -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync status -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync remove -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_stop() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync stop -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_sync_upgrade() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion sync upgrade -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--name[This machine'\''s name in conflicts and messages (default\: the host name).]:name:'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_conflicts() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion conflicts -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--json[Print JSON (one object per conflict, with every version'\''s text).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_resolve() {
    local -i ret=1
    local -ar ___keep=('mine' 'theirs' 'both')
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion resolve -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':id:{__diary_custom_complete ---completion resolve -- positional@0 "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--keep[Which version to keep\: mine, theirs or both.]:keep:{__diary_complete "${___keep[@]}"}'
        '--edit[Merge the texts in the editor.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_capture() {
    local -i ret=1
    local -ar ___date=('now' 'today' 'yesterday' 'tomorrow')
    local -ar arg_specs=(
        '--key[The capture key file.]:file:'
        '--to[The vault directory or folder sync remote to drop the entry into.]:dir:'
        '*:words:'
        '--date[The entry'\''s date\: 2024-02-22, 2024-02-22T15\:00, yesterday 9pm; default now.]:date:{__diary_complete "${___date[@]}"}'
        '*--tag[Tag the entry (repeatable).]:tag:'
        '--star[Star the entry.]'
        '--edit[Open the editor even when text or stdin is given.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_capture-key() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Enrol a capture device and write its key.'
            'list:List the enrolled capture devices.'
            'revoke:Revoke a capture device: its captures are refused from now on.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|revoke)
            "_diary_capture-key_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_capture-key_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion capture-key create -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:'
        '--output[Write the key to this new file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_capture-key_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion capture-key list -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        '--json[Print JSON.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_capture-key_revoke() {
    local -i ret=1
    local -ar arg_specs=(
        '--vault[The vault directory (default\: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).]:path:_files -/'
        '(-j --journal)'{-j,--journal}'[The vault of this named journal (`diary journal list`); not with --vault.]:name:{__diary_custom_complete ---completion capture-key revoke -- --journal "${current_word_index}" "$(__diary_cursor_index_in_current_word)"}'
        '--passphrase-file[Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).]:file:_files'
        ':name:'
        '--yes[Do not ask.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_config() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'get:Print a setting'\''s value.'
            'set:Set a setting.'
            'unset:Remove a setting, so its default applies.'
            'list:Print every setting that is set, as `key = value` lines.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        get|set|unset|list)
            "_diary_config_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_config_get() {
    local -i ret=1
    local -ar arg_specs=(
        ':key:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_config_set() {
    local -i ret=1
    local -ar arg_specs=(
        ':key:'
        ':value:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_config_unset() {
    local -i ret=1
    local -ar arg_specs=(
        ':key:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_config_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_journal() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Name a vault directory.'
            'list:List the named journals.'
            'remove:Forget a journal'\''s name (its vault is kept).'
            'default:Make a journal the default.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|remove|default)
            "_diary_journal_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_diary_journal_add() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        ':path:_files -/'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_journal_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_journal_remove() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_journal_default() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_diary_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _diary ]]; then
    _diary "${@}"
else
    compdef _diary diary
fi
