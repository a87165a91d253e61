#!/bin/sh
# check-docs.sh - the documentation stays for its readers:
#   1. README.md has at most 200 lines and man/evmbench-methodology.7 at
#      most 400 source lines (history and before/after figures go to NEWS);
#   2. the README's test command is the one .ci/run runs in its step
#      "README test command", less the flags CI adds (--enable-werror,
#      -j"$jobs");
#   3. each README capture marker (<!-- capture: NAME -->) is followed by a
#      fenced block, as contrib/readme-captures.sh needs;
#   4. NEWS exists, is in EXTRA_DIST of Makefile.am, and its entries (lines
#      starting with a date, YYYY-MM-DD) are newest first.
# Usage: tests/check-docs.sh (reads the source tree it lies in). Prints TAP;
# exits 1 when a check fails.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
readme=$top/README.md
methodology=$top/man/evmbench-methodology.7
news=$top/NEWS
readme_limit=200
methodology_limit=400

# at_most FILE LIMIT: one check, FILE has at most LIMIT lines.
at_most() {
    lines=$(wc -l <"$1")
    if [ "$lines" -le "$2" ]; then
        ok "${1#"$top"/} has $lines lines, at most $2"
    else
        not_ok "${1#"$top"/} has $lines lines, more than $2: history and figures belong in NEWS"
    fi
}
at_most "$readme" "$readme_limit"
at_most "$methodology" "$methodology_limit"

# The command of .ci/run's step, then the same without CI's own flags.
ci=$(sed -n '/^step "README test command"$/{n;p;q;}' "$top/.ci/run")
# shellcheck disable=SC2016  # the literal -j"$jobs" of .ci/run
plain=$(printf '%s\n' "$ci" | sed -e 's/ --enable-werror//' -e 's/ -j"\$jobs"//')
if [ -z "$ci" ]; then
    not_ok ".ci/run has a step \"README test command\" followed by its command"
elif grep -qxF "    $plain" "$readme"; then
    ok "README.md shows .ci/run's test command: $plain"
else
    not_ok "README.md has no line '    $plain' (the command of .ci/run's \"README test command\" step)"
fi

# Every marker line is followed by an opening fence.
bad=$(awk '/^<!-- capture: [a-z-]* -->$/ { name = $3; if ((getline) <= 0 || $0 != "```") print name }' "$readme")
if [ -z "$bad" ]; then
    ok "every README capture marker is followed by a fenced block"
else
    not_ok "README capture markers without a fenced block after them: $bad"
fi

if [ -s "$news" ]; then ok "NEWS exists"; else not_ok "NEWS is missing or empty"; fi
# EXTRA_DIST with its continuation lines joined
if sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$top/Makefile.am" |
        grep -E '^EXTRA_DIST[[:space:]]*\+?=' | tr -s '[:blank:]' '\n' | grep -qx NEWS; then
    ok "NEWS is in EXTRA_DIST (make dist ships it)"
else
    not_ok "NEWS is not in EXTRA_DIST of Makefile.am"
fi
dates=$(grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}' "$news" 2>/dev/null)
if [ -z "$dates" ]; then
    not_ok "NEWS has no dated entries (lines starting with YYYY-MM-DD)"
elif [ "$dates" = "$(printf '%s\n' "$dates" | sort -r)" ]; then
    ok "NEWS: $(printf '%s\n' "$dates" | wc -l) dated entries, newest first"
else
    not_ok "NEWS: the entries are not newest first"
fi
finish check-docs
