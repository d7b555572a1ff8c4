function __diary_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __diary_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __diary_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __diary_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __diary_parse_tokens -S
    set -l unparsed_tokens (__diary_tokens -pc)
    switch $unparsed_tokens[1]
    case 'diary'
        __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'init'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'new-passphrase-file=' 'allow-weak-passphrase' 'store=' 'kdf=' 'version' 'h/help'
        case 'unlock'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'timeout=' 'max=' 'version' 'h/help'
        case 'lock'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'all' 'version' 'h/help'
        case 'status'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'new'
            __diary_parse_subcommand -r 1 'vault=' 'j/journal=' 'passphrase-file=' 'edit' 'date=' 'tag=+' 'star' 'template=' 'attach=+' 'keep-metadata' 'no-dedup' 'version' 'h/help'
        case 'list'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'starred' 'tag=' 'from=' 'to=' 'on=' 'n/limit=' 'json' 'on-this-day' 'reverse' 'no-pager' 'version' 'h/help'
        case 'show'
            __diary_parse_subcommand -r 1 'vault=' 'j/journal=' 'passphrase-file=' 'n/limit=' 'json' 'raw' 'reverse' 'no-pager' 'version' 'h/help'
        case 'read'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'starred' 'tag=' 'from=' 'to=' 'on=' 'n/limit=' 'reverse' 'no-pager' 'version' 'h/help'
        case 'pick'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'starred' 'tag=' 'from=' 'to=' 'on=' 'n/limit=' 'version' 'h/help'
        case 'edit'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'date=' 'yes' 'version' 'h/help'
        case 'delete'
            __diary_parse_subcommand -r 1 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
        case 'template'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'list'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'show'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'edit'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'remove'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
            end
        case 'star'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'unstar'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'tag'
            __diary_parse_subcommand -r 2 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'search'
            __diary_parse_subcommand -r 1 'vault=' 'j/journal=' 'passphrase-file=' 'starred' 'tag=' 'from=' 'to=' 'on=' 'n/limit=' 'json' 'version' 'h/help'
        case 'attach'
            __diary_parse_subcommand -r 2 'vault=' 'j/journal=' 'passphrase-file=' 'name=' 'keep-metadata' 'no-dedup' 'version' 'h/help'
        case 'detach'
            __diary_parse_subcommand 2 'vault=' 'j/journal=' 'passphrase-file=' 'y/yes' 'version' 'h/help'
        case 'attachments'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'version' 'h/help'
        case 'open'
            __diary_parse_subcommand 2 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'extract'
            __diary_parse_subcommand 2 'vault=' 'j/journal=' 'passphrase-file=' 'o/output=' 'yes' 'force' 'version' 'h/help'
        case 'calendar'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'ascii' 'version' 'h/help'
        case 'stats'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'version' 'h/help'
        case 'passwd'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'new-passphrase-file=' 'allow-weak-passphrase' 'kdf=' 'no-rekey' 'version' 'h/help'
        case 'rekey'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'attachments' 'version' 'h/help'
        case 'recovery-key'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'replace' 'output=' 'shares=' 'threshold=' 'version' 'h/help'
            case 'status'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'remove'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
            end
        case 'reset-passphrase'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'new-passphrase-file=' 'allow-weak-passphrase' 'recovery-key-file=' 'share-file=+' 'kdf=' 'accept-older' 'version' 'h/help'
        case 'backup'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'verify'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
        case 'restore'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'to=' 'store=' 'salvage' 'version' 'h/help'
        case 'reindex'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'accept-older' 'version' 'h/help'
        case 'import'
            __diary_parse_subcommand -r 1 'vault=' 'j/journal=' 'passphrase-file=' 'from=' 'keep-metadata' 'version' 'h/help'
        case 'export'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'format=' 'o/output=' 'starred' 'tag=' 'from=' 'to=' 'on=' 'reverse' 'yes' 'version' 'h/help'
        case 'audit'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'version' 'h/help'
        case 'recover'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'discard' 'yes' 'version' 'h/help'
        case 'sync'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'now'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'no-attachments' 'version' 'h/help'
            case 'init'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'folder=' 'name=' 'invite=' 'version' 'h/help'
            case 'join'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'folder=' 'name=' 'to=' 'store=' 'invite=' 'version' 'h/help'
            case 'invite'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'name=' 'version' 'h/help'
            case 'members'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'status'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'version' 'h/help'
            case 'remove'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
            case 'stop'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
            case 'upgrade'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'name=' 'yes' 'version' 'h/help'
            end
        case 'conflicts'
            __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'version' 'h/help'
        case 'resolve'
            __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'keep=' 'edit' 'version' 'h/help'
        case 'capture'
            __diary_parse_subcommand -r 1 'key=' 'to=' 'date=' 'tag=+' 'star' 'edit' 'version' 'h/help'
        case 'capture-key'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'output=' 'version' 'h/help'
            case 'list'
                __diary_parse_subcommand 0 'vault=' 'j/journal=' 'passphrase-file=' 'json' 'version' 'h/help'
            case 'revoke'
                __diary_parse_subcommand 1 'vault=' 'j/journal=' 'passphrase-file=' 'yes' 'version' 'h/help'
            end
        case 'config'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __diary_parse_subcommand 1 'version' 'h/help'
            case 'set'
                __diary_parse_subcommand 2 'version' 'h/help'
            case 'unset'
                __diary_parse_subcommand 1 'version' 'h/help'
            case 'list'
                __diary_parse_subcommand 0 'version' 'h/help'
            end
        case 'journal'
            __diary_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __diary_parse_subcommand 2 'version' 'h/help'
            case 'list'
                __diary_parse_subcommand 0 'version' 'h/help'
            case 'remove'
                __diary_parse_subcommand 1 'version' 'h/help'
            case 'default'
                __diary_parse_subcommand 1 'version' 'h/help'
            end
        case 'help'
            __diary_parse_subcommand -r 1 'version'
        end
    end
end

function __diary_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __diary_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __diary_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __diary_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__diary_tokens -p)
    if test -z "$(__diary_tokens -t)"
        set -l index (count (__diary_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'diary' -f
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'init' -d 'Create a new vault.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'unlock' -d 'Unlock the vault for a while.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'lock' -d 'Lock the vault now (every unlocked vault with --all).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'status' -d 'Say which vaults are unlocked, and for how long.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'new' -d 'Write a new entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'list' -d 'List entries, newest first (--reverse: oldest first).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'show' -d 'Show entries (the newest without an id).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'read' -d 'Read the diary as a book, oldest first.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'pick' -d 'Pick an entry interactively (with fzf) and print its id.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'edit' -d 'Edit an entry in your editor (the newest without an id).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'delete' -d 'Delete entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'template' -d 'Keep templates (with prompts) for new entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'star' -d 'Star an entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'unstar' -d 'Remove an entry\'s star.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'tag' -d 'Add or remove an entry\'s tags.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'search' -d 'Find entries containing every word or phrase given.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'attach' -d 'Attach files to an entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'detach' -d 'Remove an attachment from an entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'attachments' -d 'List an entry\'s attachments (without an id: every entry\'s).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'open' -d 'Open an attachment in a viewer.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'extract' -d 'Write an attachment to a file, as plaintext.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'calendar' -d 'Show a year\'s calendar, the days you wrote marked by how much.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'stats' -d 'Show totals, streaks, the busiest weekday and the tags.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'passwd' -d 'Change the passphrase.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'rekey' -d 'Rotate the vault key and re-encrypt every entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'recovery-key' -d 'Make, check or remove the key that resets a forgotten passphrase.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'reset-passphrase' -d 'Set a new passphrase with the recovery key (the old one forgotten).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'backup' -d 'Write a backup of the vault to one file.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'verify' -d 'Check a vault or a backup file for damage.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'restore' -d 'Restore a backup into a new vault.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'reindex' -d 'Rebuild the index from the entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'import' -d 'Import entries from jrnl, Day One, Markdown or a diary export.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'export' -d 'Export entries as plaintext JSON, Markdown or HTML.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'audit' -d 'Show what someone who copies the vault can learn, and warn about weak settings.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'recover' -d 'Store the text of an edit that was not saved (a failed save, a killed diary).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'sync' -d 'Sync this vault with a git remote or a synced folder.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'conflicts' -d 'List entries changed on two machines (after `diary sync`).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'resolve' -d 'End a conflict: keep one version, both, or a text merged in the editor.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'capture' -d 'Add an entry with a capture key, without the passphrase (write-only).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'capture-key' -d 'Enrol, list and revoke write-only capture devices.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'config' -d 'Read or change the settings in the config file.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'journal' -d 'Name vaults, to choose one with -j NAME.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion init -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" new-passphrase-file' -l 'new-passphrase-file' -d 'Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" allow-weak-passphrase' -l 'allow-weak-passphrase' -d 'Use the new passphrase even if the strength check calls it weak.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" store' -l 'store' -d 'How entries are stored: sqlite or files (default: the config\'s store, else sqlite).' -rfka 'sqlite files'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" kdf' -l 'kdf' -d 'Argon2id cost: interactive, moderate or sensitive.' -rfka 'interactive moderate sensitive'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion unlock -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" timeout' -l 'timeout' -d 'Lock after this long without use; else the config\'s unlock.timeout (default: 15m).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" max' -l 'max' -d 'Lock after this long in any case; else the config\'s unlock.max (default: 8h).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion lock -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" all' -l 'all' -d 'Lock every vault of yours that is unlocked, not only this one.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary lock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary status" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary status" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion status -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary status" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary status" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion new -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" edit' -l 'edit' -d 'Open the editor even when text or stdin is given.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" date' -l 'date' -d 'The entry\'s date: 2024-02-22, 2024-02-22T15:00, yesterday 9pm, 2 days ago, last monday, Feb 22; default now. A date without a time is that calendar day in every time zone.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new"' -l 'tag' -d 'Tag the entry (repeatable).' -rfka '(__diary_custom_completion ---completion new -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" star' -l 'star' -d 'Star the entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" template' -l 'template' -d 'Start in the editor from this template (`diary template list`).' -rfka '(__diary_custom_completion ---completion new -- --template (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new"' -l 'attach' -d 'Attach a file (repeatable).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" keep-metadata' -l 'keep-metadata' -d 'Store a JPEG exactly as it is, its EXIF (GPS position included), XMP, IPTC and comments kept.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" no-dedup' -l 'no-dedup' -d 'Store the file even when an identical one is stored already (see SECURITY.md on what sharing reveals).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary new" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion list -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" starred' -l 'starred' -d 'Only starred entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" tag' -l 'tag' -d 'Only entries with this tag.' -rfka '(__diary_custom_completion ---completion list -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" from' -l 'from' -d 'Only entries dated on or after this date.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" to' -l 'to' -d 'Only entries dated on or before this date (a day counts whole).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" on' -l 'on' -d 'Only entries dated on this day (in your time zone).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" limit n' -s 'n' -l 'limit' -d 'At most this many entries.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" json' -l 'json' -d 'Print JSON (an array of objects with sorted keys) instead of lines.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" on-this-day' -l 'on-this-day' -d 'Only entries dated on today\'s month and day in earlier years.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" reverse' -l 'reverse' -d 'Oldest first (-n still picks the newest n).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" no-pager' -l 'no-pager' -d 'Print straight to the terminal, without $PAGER.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion show -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary show" -ge 1' -fka '(__diary_custom_completion ---completion show -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" limit n' -s 'n' -l 'limit' -d 'Show the newest n entries.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" json' -l 'json' -d 'Print JSON.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" raw' -l 'raw' -d 'Print the title, tags and text unchanged, control characters included.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" reverse' -l 'reverse' -d 'With -n: oldest first.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" no-pager' -l 'no-pager' -d 'Print straight to the terminal, without $PAGER.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion read -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" starred' -l 'starred' -d 'Only starred entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" tag' -l 'tag' -d 'Only entries with this tag.' -rfka '(__diary_custom_completion ---completion read -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" from' -l 'from' -d 'Only entries dated on or after this date.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" to' -l 'to' -d 'Only entries dated on or before this date (a day counts whole).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" on' -l 'on' -d 'Only entries dated on this day (in your time zone).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" limit n' -s 'n' -l 'limit' -d 'Only the newest n entries (still oldest first).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" reverse' -l 'reverse' -d 'Newest first.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" no-pager' -l 'no-pager' -d 'Print straight to the terminal, without $PAGER.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary read" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion pick -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" starred' -l 'starred' -d 'Only starred entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" tag' -l 'tag' -d 'Only entries with this tag.' -rfka '(__diary_custom_completion ---completion pick -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" from' -l 'from' -d 'Only entries dated on or after this date.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" to' -l 'to' -d 'Only entries dated on or before this date (a day counts whole).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" on' -l 'on' -d 'Only entries dated on this day (in your time zone).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" limit n' -s 'n' -l 'limit' -d 'Only the newest n entries.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary pick" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion edit -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary edit" -eq 1' -fka '(__diary_custom_completion ---completion edit -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" date' -l 'date' -d 'A new date for the entry (as for new: 2024-02-22, yesterday 9pm, last monday, Feb 22).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" yes' -l 'yes' -d 'Delete without asking if the text is emptied.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion delete -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary delete" -ge 1' -fka '(__diary_custom_completion ---completion delete -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template" -eq 1' -fa 'add' -d 'Add a template, from stdin or your editor.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template" -eq 1' -fa 'list' -d 'List the templates\' names.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template" -eq 1' -fa 'show' -d 'Print a template\'s text, placeholders and prompt list as written.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template" -eq 1' -fa 'edit' -d 'Change a template\'s text in your editor.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template" -eq 1' -fa 'remove' -d 'Delete a template.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template add" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template add" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion template add -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template add" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template add" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template list" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template list" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion template list -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template list" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template list" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template show" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template show" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion template show -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template show" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template show" -eq 1' -fka '(__diary_custom_completion ---completion template show -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template show" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template edit" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template edit" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion template edit -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template edit" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template edit" -eq 1' -fka '(__diary_custom_completion ---completion template edit -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template edit" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion template remove -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary template remove" -eq 1' -fka '(__diary_custom_completion ---completion template remove -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary template remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary star" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary star" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion star -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary star" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary star" -eq 1' -fka '(__diary_custom_completion ---completion star -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary star" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary star" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unstar" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unstar" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion unstar -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unstar" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary unstar" -eq 1' -fka '(__diary_custom_completion ---completion unstar -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unstar" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary unstar" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary tag" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary tag" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion tag -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary tag" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary tag" -eq 1' -fka '(__diary_custom_completion ---completion tag -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary tag" -ge 2' -fka '(__diary_custom_completion ---completion tag -- positional@1 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary tag" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary tag" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion search -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" starred' -l 'starred' -d 'Only starred entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" tag' -l 'tag' -d 'Only entries with this tag.' -rfka '(__diary_custom_completion ---completion search -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" from' -l 'from' -d 'Only entries dated on or after this date.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" to' -l 'to' -d 'Only entries dated on or before this date (a day counts whole).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" on' -l 'on' -d 'Only entries dated on this day (in your time zone).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" limit n' -s 'n' -l 'limit' -d 'At most this many entries.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" json' -l 'json' -d 'Print JSON (an array of objects with sorted keys) instead of lines.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion attach -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary attach" -eq 1' -fka '(__diary_custom_completion ---completion attach -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary attach" -ge 2' -F
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" name' -l 'name' -d 'The attachment\'s name (only with one file).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" keep-metadata' -l 'keep-metadata' -d 'Store a JPEG exactly as it is, its EXIF (GPS position included), XMP, IPTC and comments kept.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" no-dedup' -l 'no-dedup' -d 'Store the file even when an identical one is stored already (see SECURITY.md on what sharing reveals).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attach" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion detach -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary detach" -eq 1' -fka '(__diary_custom_completion ---completion detach -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" y yes' -s 'y' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary detach" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion attachments -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary attachments" -eq 1' -fka '(__diary_custom_completion ---completion attachments -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" json' -l 'json' -d 'Print JSON.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary attachments" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary open" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary open" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion open -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary open" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary open" -eq 1' -fka '(__diary_custom_completion ---completion open -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary open" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary open" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion extract -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary extract" -eq 1' -fka '(__diary_custom_completion ---completion extract -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" o output' -s 'o' -l 'output' -d 'The file to write (\'-\': stdout).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" yes' -l 'yes' -d 'Do not ask: consent to writing plaintext.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" force' -l 'force' -d 'Replace PATH if it exists (only a regular file).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary extract" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion calendar -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" json' -l 'json' -d 'Print JSON instead of the calendar.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" ascii' -l 'ascii' -d 'Mark days with ASCII characters (: + # @, * for a star) for fonts without block characters.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary calendar" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion stats -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" json' -l 'json' -d 'Print JSON instead of lines.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary stats" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion passwd -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" new-passphrase-file' -l 'new-passphrase-file' -d 'Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" allow-weak-passphrase' -l 'allow-weak-passphrase' -d 'Use the new passphrase even if the strength check calls it weak.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" kdf' -l 'kdf' -d 'Also change the Argon2id cost: interactive, moderate or sensitive.' -rfka 'interactive moderate sensitive'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" no-rekey' -l 'no-rekey' -d 'On a vault that syncs: change the passphrase only, not the vault key.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary passwd" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion rekey -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" attachments' -l 'attachments' -d 'Also re-encrypt every attachment under a new key.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary rekey" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary recovery-key" -eq 1' -fa 'create' -d 'Make a recovery key and show it once.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary recovery-key" -eq 1' -fa 'status' -d 'Say whether the vault has a recovery key.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary recovery-key" -eq 1' -fa 'remove' -d 'Remove the recovery key: it stops working.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion recovery-key create -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" replace' -l 'replace' -d 'Replace the vault\'s recovery key: the old one stops working.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" output' -l 'output' -d 'Write the key to this new file (0600) instead of showing it; with --shares, the shares into this new or empty directory.' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" shares' -l 'shares' -d 'Split the key into this many shares (2 to 16) instead.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" threshold' -l 'threshold' -d 'With --shares: how many of them rebuild the key.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key status" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key status" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion recovery-key status -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key status" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key status" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion recovery-key remove -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" yes' -l 'yes' -d 'Do not ask for confirmation.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recovery-key remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion reset-passphrase -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" new-passphrase-file' -l 'new-passphrase-file' -d 'Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" allow-weak-passphrase' -l 'allow-weak-passphrase' -d 'Use the new passphrase even if the strength check calls it weak.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" recovery-key-file' -l 'recovery-key-file' -d 'Read the recovery key from this file.' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase"' -l 'share-file' -d 'Rebuild the recovery key from this share file (repeat it for each share).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" kdf' -l 'kdf' -d 'Also change the Argon2id cost: interactive, moderate or sensitive.' -rfka 'interactive moderate sensitive'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" accept-older' -l 'accept-older' -d 'Reset even when entries this machine saw are missing or older (then accept the loss with `diary reindex --accept-older` and the new passphrase).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reset-passphrase" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary backup" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary backup" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion backup -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary backup" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary backup" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'diarybak\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary backup" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary backup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary verify" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary verify" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion verify -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary verify" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary verify" -eq 1' -F
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary verify" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion restore -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary restore" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'diarybak\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" to' -l 'to' -d 'The new vault directory.' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" store' -l 'store' -d 'Store shape of the restored vault (default: as in the backup).' -rfka 'sqlite files'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" salvage' -l 'salvage' -d 'Restore every intact entry of a damaged backup and list what was lost.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary restore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion reindex -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" accept-older' -l 'accept-older' -d 'Accept that entries this machine saw are missing or older, and continue from the vault as it is.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary reindex" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion import -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" from' -l 'from' -d 'What the files are: jrnl, dayone, markdown or diary.' -rfka 'jrnl dayone markdown diary'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary import" -ge 1' -F
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" keep-metadata' -l 'keep-metadata' -d 'Keep photos\' metadata (EXIF with GPS, XMP, IPTC): store imported files exactly as they are.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion export -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" format' -l 'format' -d 'What to write: json (lossless), markdown or html.' -rfka 'json markdown html'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" o output' -s 'o' -l 'output' -d 'Where to write (a file; for markdown also a directory; - for stdout); default stdout.' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" starred' -l 'starred' -d 'Only starred entries.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" tag' -l 'tag' -d 'Only entries with this tag.' -rfka '(__diary_custom_completion ---completion export -- --tag (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" from' -l 'from' -d 'Only entries dated on or after this date.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" to' -l 'to' -d 'Only entries dated on or before this date (a day counts whole).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" on' -l 'on' -d 'Only entries dated on this day (in your time zone).' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" reverse' -l 'reverse' -d 'Oldest entry first (html: newest first).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" yes' -l 'yes' -d 'Do not ask: consent to writing plaintext.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion audit -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" json' -l 'json' -d 'Print JSON (one object with sorted keys) instead of lines.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary audit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion recover -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" discard' -l 'discard' -d 'Wipe the leftover texts instead of storing them.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" yes' -l 'yes' -d 'With --discard: do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary recover" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'now' -d 'Publish this machine\'s changes and take in the others\' (the default).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'init' -d 'Start syncing this vault with a remote.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'join' -d 'Build a local vault on this machine from a remote.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'invite' -d 'Print a one-time code that lets another machine join.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'members' -d 'List the machines that are members of this vault\'s sync.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'status' -d 'Show the remote, the members and when each was last heard from.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'remove' -d 'Remove a machine from this vault\'s sync, and rotate the key.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'stop' -d 'Stop syncing this vault on this machine.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary sync" -eq 1' -fa 'upgrade' -d 'Move this vault\'s remote from sync format 1 to format 2.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync now -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" no-attachments' -l 'no-attachments' -d 'Do not fetch attachments now: they stay pending until a later sync.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync now" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync init -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" folder' -l 'folder' -d 'A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" name' -l 'name' -d 'This machine\'s name in conflicts and messages (default: the host name).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" invite' -l 'invite' -d 'For a remote that already holds this vault: the code `diary sync invite` printed there.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync join -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" folder' -l 'folder' -d 'A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" name' -l 'name' -d 'This machine\'s name in conflicts and messages (default: the host name).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" to' -l 'to' -d 'Where to create the local vault.' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" store' -l 'store' -d 'How entries are stored here: sqlite or files (each machine chooses; default: the config\'s store, else sqlite).' -rfka 'sqlite files'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" invite' -l 'invite' -d 'The code `diary sync invite` printed on a machine that syncs.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync join" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync invite -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" name' -l 'name' -d 'What the invite is for (shown when it is used).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync invite" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync members" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync members" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync members -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync members" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync members" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync members" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync status" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync status" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync status -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync status" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync status" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync remove -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync stop -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync stop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion sync upgrade -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" name' -l 'name' -d 'This machine\'s name in conflicts and messages (default: the host name).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary sync upgrade" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion conflicts -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" json' -l 'json' -d 'Print JSON (one object per conflict, with every version\'s text).'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary conflicts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion resolve -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary resolve" -eq 1' -fka '(__diary_custom_completion ---completion resolve -- positional@0 (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" keep' -l 'keep' -d 'Which version to keep: mine, theirs or both.' -rfka 'mine theirs both'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" edit' -l 'edit' -d 'Merge the texts in the editor.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary resolve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" key' -l 'key' -d 'The capture key file.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" to' -l 'to' -d 'The vault directory or folder sync remote to drop the entry into.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" date' -l 'date' -d 'The entry\'s date: 2024-02-22, 2024-02-22T15:00, yesterday 9pm; default now.' -rfka 'now today yesterday tomorrow'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture"' -l 'tag' -d 'Tag the entry (repeatable).' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" star' -l 'star' -d 'Star the entry.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" edit' -l 'edit' -d 'Open the editor even when text or stdin is given.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary capture-key" -eq 1' -fa 'create' -d 'Enrol a capture device and write its key.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary capture-key" -eq 1' -fa 'list' -d 'List the enrolled capture devices.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary capture-key" -eq 1' -fa 'revoke' -d 'Revoke a capture device: its captures are refused from now on.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion capture-key create -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" output' -l 'output' -d 'Write the key to this new file.' -rfka ''
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion capture-key list -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" json' -l 'json' -d 'Print JSON.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" vault' -l 'vault' -d 'The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).' -rfa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" j journal' -s 'j' -l 'journal' -d 'The vault of this named journal (`diary journal list`); not with --vault.' -rfka '(__diary_custom_completion ---completion capture-key revoke -- --journal (count (__diary_tokens -pc)) (__diary_tokens -tC))'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" passphrase-file' -l 'passphrase-file' -d 'Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).' -rF
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" yes' -l 'yes' -d 'Do not ask.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary capture-key revoke" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary config" -eq 1' -fa 'get' -d 'Print a setting\'s value.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary config" -eq 1' -fa 'set' -d 'Set a setting.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary config" -eq 1' -fa 'unset' -d 'Remove a setting, so its default applies.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary config" -eq 1' -fa 'list' -d 'Print every setting that is set, as `key = value` lines.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config get" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config set" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config unset" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config unset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config list" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary config list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary journal" -eq 1' -fa 'add' -d 'Name a vault directory.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary journal" -eq 1' -fa 'list' -d 'List the named journals.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary journal" -eq 1' -fa 'remove' -d 'Forget a journal\'s name (its vault is kept).'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary journal" -eq 1' -fa 'default' -d 'Make a journal the default.'
complete -c 'diary' -n '__diary_should_offer_completions_for_positional "diary journal add" -eq 1' -fa '(__diary_complete_directories)'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal add" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal list" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal remove" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal default" version' -l 'version' -d 'Show the version.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary journal default" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'diary' -n '__diary_should_offer_completions_for_flags_or_options "diary help" version' -l 'version' -d 'Show the version.'
