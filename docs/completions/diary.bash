#!/bin/bash

__diary_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__diary_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__diary_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__diary_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_diary() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    init|unlock|lock|status|new|list|show|read|pick|edit|delete|template|star|unstar|tag|search|attach|detach|attachments|open|extract|calendar|stats|passwd|rekey|recovery-key|reset-passphrase|backup|verify|restore|reindex|import|export|audit|recover|sync|conflicts|resolve|capture|capture-key|config|journal|help)
        # Offer subcommand argument completions
        "_diary_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'init unlock lock status new list show read pick edit delete template star unstar tag search attach detach attachments open extract calendar stats passwd rekey recovery-key reset-passphrase backup verify restore reindex import export audit recover sync conflicts resolve capture capture-key config journal help' -- "${cur}"))
        ;;
    esac
}

_diary_init() {
    repeating_flags=()
    non_repeating_flags=(--allow-weak-passphrase --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --new-passphrase-file --store --kdf)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion init -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--new-passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--store')
        __diary_add_completions -W 'sqlite'$'\n''files'
        return
        ;;
    '--kdf')
        __diary_add_completions -W 'interactive'$'\n''moderate'$'\n''sensitive'
        return
        ;;
    esac
}

_diary_unlock() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --timeout --max)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion unlock -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max')
        return
        ;;
    esac
}

_diary_lock() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion lock -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_status() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion status -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_new() {
    repeating_flags=()
    non_repeating_flags=(--edit --star --keep-metadata --no-dedup --version -h --help)
    repeating_options=(--tag --attach)
    non_repeating_options=(--vault -j --journal --passphrase-file --date --template)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion new -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--date')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion new -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--template')
        __diary_add_completions -W "$(__diary_custom_complete ---completion new -- --template "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--attach')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_list() {
    repeating_flags=()
    non_repeating_flags=(--starred --json --on-this-day --reverse --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --tag --from --to --on -n --limit)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion list -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion list -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--from')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--to')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--on')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    esac
}

_diary_show() {
    repeating_flags=()
    non_repeating_flags=(--json --raw --reverse --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file -n --limit)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion show -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __diary_add_completions -W "$(__diary_custom_complete ---completion show -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_read() {
    repeating_flags=()
    non_repeating_flags=(--starred --reverse --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --tag --from --to --on -n --limit)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion read -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion read -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--from')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--to')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--on')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    esac
}

_diary_pick() {
    repeating_flags=()
    non_repeating_flags=(--starred --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --tag --from --to --on -n --limit)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion pick -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion pick -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--from')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--to')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--on')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    esac
}

_diary_edit() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --date)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion edit -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--date')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion edit -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_delete() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion delete -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __diary_add_completions -W "$(__diary_custom_complete ---completion delete -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_template() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|edit|remove)
        # Offer subcommand argument completions
        "_diary_template_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show edit remove' -- "${cur}"))
        ;;
    esac
}

_diary_template_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion template add -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_template_list() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion template list -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_template_show() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion template show -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion template show -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_template_edit() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion template edit -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion template edit -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_template_remove() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion template remove -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion template remove -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_star() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion star -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion star -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_unstar() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion unstar -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion unstar -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_tag() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion tag -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion tag -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    *)
        __diary_add_completions -W "$(__diary_custom_complete ---completion tag -- positional@1 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_search() {
    repeating_flags=()
    non_repeating_flags=(--starred --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --tag --from --to --on -n --limit)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion search -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion search -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--from')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--to')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--on')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    esac
}

_diary_attach() {
    repeating_flags=()
    non_repeating_flags=(--keep-metadata --no-dedup --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --name)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion attach -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--name')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion attach -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    *)
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_detach() {
    repeating_flags=()
    non_repeating_flags=(-y --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion detach -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion detach -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_attachments() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion attachments -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion attachments -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_open() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion open -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion open -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_extract() {
    repeating_flags=()
    non_repeating_flags=(--yes --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file -o --output)
    __diary_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion extract -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '-o'|'--output')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion extract -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_calendar() {
    repeating_flags=()
    non_repeating_flags=(--json --ascii --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion calendar -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_stats() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion stats -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_passwd() {
    repeating_flags=()
    non_repeating_flags=(--allow-weak-passphrase --no-rekey --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --new-passphrase-file --kdf)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion passwd -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--new-passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--kdf')
        __diary_add_completions -W 'interactive'$'\n''moderate'$'\n''sensitive'
        return
        ;;
    esac
}

_diary_rekey() {
    repeating_flags=()
    non_repeating_flags=(--attachments --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion rekey -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_recovery-key() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|status|remove)
        # Offer subcommand argument completions
        "_diary_recovery-key_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create status remove' -- "${cur}"))
        ;;
    esac
}

_diary_recovery-key_create() {
    repeating_flags=()
    non_repeating_flags=(--replace --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --output --shares --threshold)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion recovery-key create -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--output')
        __diary_add_completions -f
        return
        ;;
    '--shares')
        return
        ;;
    '--threshold')
        return
        ;;
    esac
}

_diary_recovery-key_status() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion recovery-key status -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_recovery-key_remove() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion recovery-key remove -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_reset-passphrase() {
    repeating_flags=()
    non_repeating_flags=(--allow-weak-passphrase --accept-older --version -h --help)
    repeating_options=(--share-file)
    non_repeating_options=(--vault -j --journal --passphrase-file --new-passphrase-file --recovery-key-file --kdf)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion reset-passphrase -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--new-passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--recovery-key-file')
        __diary_add_completions -f
        return
        ;;
    '--share-file')
        __diary_add_completions -f
        return
        ;;
    '--kdf')
        __diary_add_completions -W 'interactive'$'\n''moderate'$'\n''sensitive'
        return
        ;;
    esac
}

_diary_backup() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion backup -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -o plusdirs -fX '!*.@(diarybak)'
        return
        ;;
    esac
}

_diary_verify() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion verify -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_restore() {
    repeating_flags=()
    non_repeating_flags=(--salvage --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --to --store)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion restore -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--to')
        __diary_add_completions -d
        return
        ;;
    '--store')
        __diary_add_completions -W 'sqlite'$'\n''files'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -o plusdirs -fX '!*.@(diarybak)'
        return
        ;;
    esac
}

_diary_reindex() {
    repeating_flags=()
    non_repeating_flags=(--accept-older --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion reindex -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_import() {
    repeating_flags=()
    non_repeating_flags=(--keep-metadata --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --from)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion import -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--from')
        __diary_add_completions -W 'jrnl'$'\n''dayone'$'\n''markdown'$'\n''diary'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_export() {
    repeating_flags=()
    non_repeating_flags=(--starred --reverse --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --format -o --output --tag --from --to --on)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion export -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--format')
        __diary_add_completions -W 'json'$'\n''markdown'$'\n''html'
        return
        ;;
    '-o'|'--output')
        __diary_add_completions -f
        return
        ;;
    '--tag')
        __diary_add_completions -W "$(__diary_custom_complete ---completion export -- --tag "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--from')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--to')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--on')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    esac
}

_diary_audit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion audit -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_recover() {
    repeating_flags=()
    non_repeating_flags=(--discard --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion recover -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    now|init|join|invite|members|status|remove|stop|upgrade)
        # Offer subcommand argument completions
        "_diary_sync_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'now init join invite members status remove stop upgrade' -- "${cur}"))
        ;;
    esac
}

_diary_sync_now() {
    repeating_flags=()
    non_repeating_flags=(--no-attachments --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync now -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync_init() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --folder --name --invite)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync init -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--folder')
        __diary_add_completions -d
        return
        ;;
    '--name')
        return
        ;;
    '--invite')
        return
        ;;
    esac
}

_diary_sync_join() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --folder --name --to --store --invite)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync join -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--folder')
        __diary_add_completions -d
        return
        ;;
    '--name')
        return
        ;;
    '--to')
        __diary_add_completions -d
        return
        ;;
    '--store')
        __diary_add_completions -W 'sqlite'$'\n''files'
        return
        ;;
    '--invite')
        return
        ;;
    esac
}

_diary_sync_invite() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --name)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync invite -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--name')
        return
        ;;
    esac
}

_diary_sync_members() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync members -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync_status() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync status -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync_remove() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync remove -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync_stop() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync stop -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_sync_upgrade() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --name)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion sync upgrade -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--name')
        return
        ;;
    esac
}

_diary_conflicts() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion conflicts -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_resolve() {
    repeating_flags=()
    non_repeating_flags=(--edit --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --keep)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion resolve -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--keep')
        __diary_add_completions -W 'mine'$'\n''theirs'$'\n''both'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __diary_add_completions -W "$(__diary_custom_complete ---completion resolve -- positional@0 "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_diary_capture() {
    repeating_flags=()
    non_repeating_flags=(--star --edit --version -h --help)
    repeating_options=(--tag)
    non_repeating_options=(--key --to --date)
    __diary_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--key')
        return
        ;;
    '--to')
        return
        ;;
    '--date')
        __diary_add_completions -W 'now'$'\n''today'$'\n''yesterday'$'\n''tomorrow'
        return
        ;;
    '--tag')
        return
        ;;
    esac
}

_diary_capture-key() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|revoke)
        # Offer subcommand argument completions
        "_diary_capture-key_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list revoke' -- "${cur}"))
        ;;
    esac
}

_diary_capture-key_create() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file --output)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion capture-key create -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    '--output')
        return
        ;;
    esac
}

_diary_capture-key_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion capture-key list -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_capture-key_revoke() {
    repeating_flags=()
    non_repeating_flags=(--yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--vault -j --journal --passphrase-file)
    __diary_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--vault')
        __diary_add_completions -d
        return
        ;;
    '-j'|'--journal')
        __diary_add_completions -W "$(__diary_custom_complete ---completion capture-key revoke -- --journal "${COMP_CWORD}" "$(__diary_cursor_index_in_current_word)")"
        return
        ;;
    '--passphrase-file')
        __diary_add_completions -f
        return
        ;;
    esac
}

_diary_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|set|unset|list)
        # Offer subcommand argument completions
        "_diary_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get set unset list' -- "${cur}"))
        ;;
    esac
}

_diary_config_get() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 1
}

_diary_config_set() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 2
}

_diary_config_unset() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 1
}

_diary_config_list() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0
}

_diary_journal() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|remove|default)
        # Offer subcommand argument completions
        "_diary_journal_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list remove default' -- "${cur}"))
        ;;
    esac
}

_diary_journal_add() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    2)
        __diary_add_completions -d
        return
        ;;
    esac
}

_diary_journal_list() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 0
}

_diary_journal_remove() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 1
}

_diary_journal_default() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options 1
}

_diary_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __diary_offer_flags_options -1
}

complete -o filenames -F _diary diary
