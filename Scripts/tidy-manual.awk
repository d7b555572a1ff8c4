# Tidies the mdoc that swift-argument-parser's generate-manual writes (used by Scripts/generate-docs).
#
# The tool copies each `discussion:` string into the page verbatim, so what reads well in `--help`
# is wrong in mdoc: a blank line is an "Empty input line" warning for man(1), indented blocks
# (EXAMPLE, tables) are filled into running text, and the root command's ENVIRONMENT and
# EXIT STATUS tables sit inside DESCRIPTION while the real EXIT STATUS section says only
# "exits >0 if an error occurs" (.Ex -std). This filter, line by line:
#   - turns each blank line into .Pp (a paragraph break), never two in a row;
#   - wraps each run of lines indented by two spaces in a literal display (.Bd -literal);
#   - moves the ENVIRONMENT and EXIT STATUS tables into their own sections, as .Bl -tag lists,
#     and drops .Ex -std.

# A table row is "  NAME  description"; a deeper-indented line continues the row above it.
function table_row(line, rows, n,    name, text) {
    if (line ~ /^    /) { sub(/^ +/, "", line); rows[n] = rows[n] " " line; return n }
    sub(/^  /, "", line)
    name = line; sub(/  .*/, "", name)
    text = substr(line, length(name) + 1); sub(/^ +/, "", text)
    rows[n + 1] = name SUBSEP text
    return n + 1
}

function print_list(rows, n, macro, style,    i, parts, name) {
    print ".Bl -tag " style
    for (i = 1; i <= n; i++) {
        split(rows[i], parts, SUBSEP)
        name = parts[1]; gsub(/, /, " , ", name)  # "VISUAL, EDITOR": mdoc separates the commas
        print ".It " macro name
        print parts[2]
    }
    print ".El"
}

function close_literal() { if (literal) { print ".Ed"; literal = 0 } }

BEGIN { table = ""; literal = 0; last_pp = 0; nenv = 0; nexit = 0 }

# Inside a table: rows until the first line that is not indented.
table != "" {
    if ($0 ~ /^  /) {
        if (table == "env") nenv = table_row($0, env, nenv); else nexit = table_row($0, exits, nexit)
        next
    }
    table = ""
    if ($0 == "") next  # the blank line after a table: the paragraph break before it is enough
}

$0 == "ENVIRONMENT" { close_literal(); table = "env"; next }
$0 == "EXIT STATUS" { close_literal(); table = "exit"; next }

/^  / {
    if (!literal) { print ".Bd -literal -offset indent -compact"; literal = 1 }
    line = substr($0, 3)
    if (line ~ /^[.']/) line = "\\&" line  # a literal line must not read as a macro
    print line
    next
}

{ close_literal() }

$0 == "" { if (!last_pp) print ".Pp"; last_pp = 1; next }

$0 == ".Sh \"EXIT STATUS\"" {
    if (nenv > 0) { print ".Sh ENVIRONMENT"; print_list(env, nenv, "Ev ", "-width Ds") }
    print
    if (nexit > 0) {
        print ".Nm"
        print "exits with one of these statuses:"
        print_list(exits, nexit, "", "-width 4n -compact")
    }
    next
}

$0 == ".Ex -std" && nexit > 0 { next }

{ print; last_pp = ($0 == ".Pp") }

END { close_literal() }
