#!/bin/sh
# check-options.sh - the OPTIONS of man/evmbench.1 are the options the
# program accepts, no more and no fewer.
#
# The program's side is the parser's own getopt table, printed by
# tests/option_table (cli_options_describe(), src/cli/cli_options.h:
# "--NAME -L ARG" a line, from src/cli/cli_options.def). The page's side is
# its OPTIONS section, read in two parts:
#   - the list of which commands take which options (the .TP list between
#     .RS and .RE): every option is named there, by its long name or its
#     short letter, and only options are;
#   - the entries (every other .TP tag): each option has exactly one, whose
#     tag shows its short letter when it has one ("-o FILE, --output FILE")
#     and whether it takes a value: none, a word after it ("--timeout
#     SECS", "--ui tui|line"), or "[=VALUE]" when it may take one; and
#     there is no entry for an option the program lacks.
# Usage: tests/check-options.sh [PAGE]   (default: man/evmbench.1 of the
# source tree). EVMBENCH_OPTION_TABLE is the program (default: option_table
# beside this script, as in an in-tree build), run through EVMBENCH_WRAPPER
# when set. Prints TAP; exits 1 when a check fails.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
page=${1:-$top/man/evmbench.1}
table=${EVMBENCH_OPTION_TABLE:-$(dirname "$0")/option_table}
make_tmp check-options

# shellcheck disable=SC2086  # the wrapper is a command, maybe empty
${EVMBENCH_WRAPPER:-} "$table" >"$tmp/table" 2>"$tmp/err" ||
    fail "$table prints the parser's options (status $?)"
[ -s "$tmp/table" ] || fail "$table prints the parser's options (it printed nothing)"
[ -r "$page" ] || fail "$page is readable"

# The page's options: "entry NAME LETTER ARG" for each option of an entry
# tag (LETTER "-" or "-o", NAME "?" for a short option with no long name
# after it), "named NAME" for each one the list of commands names.
awk '
function clean(s) {
    sub(/^\.[A-Z]+[ \t]*/, "", s)           # the macro: .B, .BI, .BR ...
    gsub(/\\f[BIRP]/, "", s)                # font changes
    gsub(/\\-/, "-", s)
    gsub(/"/, "", s)
    gsub(/,/, " , ", s)
    return s
}
# The tag s as items: name[k], takes[k] (none, required, optional).
function items(s,    t, n, i, k) {
    n = split(clean(s), t, /[ \t]+/); k = 0
    for (i = 1; i <= n; i++) {
        if (t[i] ~ /^-/) { name[++k] = t[i]; takes[k] = "none" }
        else if (t[i] != "" && t[i] != "," && k && takes[k] == "none")
            takes[k] = t[i] ~ /^\[=/ ? "optional" : "required"
    }
    return k
}
function entry(s,    n, k, letter) {
    n = items(s)
    for (k = 1; k <= n; k++) {
        if (name[k] ~ /^--/) { print "entry", name[k], "-", takes[k]; continue }
        letter = name[k]
        if (k < n && name[k + 1] ~ /^--/) {
            k++
            print "entry", name[k], letter, takes[k - 1] == takes[k] ? takes[k] : "inconsistent"
        } else {
            print "entry ?", letter, takes[k]
        }
    }
}
function named(s,    n, k) {
    n = items(s)
    for (k = 1; k <= n; k++) print "named", name[k]
}
/^\.SH/ { opts = $0 ~ /^\.SH "?OPTIONS"?[ \t]*$/; depth = 0; tag = 0; next }
!opts { next }
/^\.RS/ { depth++; next }
/^\.RE/ { if (depth) depth--; next }
/^\.TP/ { tag = 1; next }
tag { tag = 0; if (depth) named($0); else entry($0) }
' "$page" >"$tmp/man"

# The option with short letter $1 ("-o"), or nothing.
long_of() {
    awk -v l="$1" '$2 == l { print $1 }' "$tmp/table"
}

# Each option of the program: one entry that shows it as the parser takes
# it, and a place in the list of commands.
while read -r name letter takes rest; do
    shown=$(awk -v n="$name" '$1 == "entry" && $2 == n { $1 = ""; print substr($0, 2) }' "$tmp/man")
    count=$(printf '%s' "$shown" | grep -c .)
    if [ "$count" = 0 ]; then
        not_ok "$name: evmbench(1) OPTIONS has no entry for it"
        continue
    elif [ "$count" -gt 1 ]; then
        not_ok "$name: evmbench(1) OPTIONS has $count entries for it"
        continue
    elif [ "$shown" != "$name $letter $takes" ]; then
        not_ok "$name: evmbench(1) shows it as '$shown', the parser takes '$name $letter $takes'"
        continue
    fi
    if grep -qx -e "named $name" -e "named $letter" "$tmp/man"; then
        ok "$name${rest:+ ($rest)}: in evmbench(1) as '$shown', and in its list of commands"
    else
        not_ok "$name: not in the list of which commands take which options of evmbench(1)"
    fi
done <"$tmp/table"

# Each option of the page: one the program has.
extra=0
while read -r kind name letter takes; do
    if [ "$kind" = entry ] && [ "$name" = "?" ]; then
        not_ok "evmbench(1) OPTIONS has an entry for $letter without its long name"
        extra=$((extra + 1))
    elif [ "$kind" = entry ] && ! awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' "$tmp/table"; then
        not_ok "evmbench(1) OPTIONS describes $name, which the parser does not take"
        extra=$((extra + 1))
    elif [ "$kind" = named ] && case $name in --*) false ;; *) true ;; esac &&
        [ -z "$(long_of "$name")" ]; then
        not_ok "evmbench(1) lists $name among the options of the commands; the parser has no such letter"
        extra=$((extra + 1))
    elif [ "$kind" = named ] && case $name in --*) true ;; *) false ;; esac &&
        ! awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' "$tmp/table"; then
        not_ok "evmbench(1) lists $name among the options of the commands; the parser does not take it"
        extra=$((extra + 1))
    fi
done <"$tmp/man"
[ "$extra" = 0 ] && ok "every option evmbench(1) describes or lists is one the parser takes"
finish check-options
