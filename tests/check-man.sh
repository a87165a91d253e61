#!/bin/sh
# check-man.sh - every manual page in man/ renders without a warning and is
# installed:
#   1. `groff -ww -z -t` prints nothing and exits 0: with the man and the
#      mandoc macros on the terminal device `man -l` uses (utf8, where
#      tbl says when a table is wider than the line), and with the man
#      macros on groff's default device;
#   2. the page is in dist_man_MANS of Makefile.am (`make install` puts it
#      in place);
#   3. every evmbench page another page names (`evmbench-recipe (5)`) exists.
# Usage: tests/check-man.sh [PAGE...]   (default: man/*.[1-9] of the source
# tree). Prints TAP; exits 1 when a check fails.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
if ! command -v groff >/dev/null 2>&1; then
    not_ok "groff is missing (sh .ci/deps installs groff-base)"
    finish check-man
fi

[ $# -gt 0 ] || set -- "$top"/man/*.[1-9]
make_tmp check-man

# dist_man_MANS with its continuation lines joined
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$top/Makefile.am" |
    sed -n 's/^dist_man_MANS[ 	]*+*=//p' | tr ' \t' '\n\n' | sed '/^$/d' >"$tmp/installed"

for page in "$@"; do
    name=${page##*/}
    # the terminal device man(1) uses, with both macro packages, and
    # groff's default (typesetter) device
    for how in "man utf8" "mandoc utf8" "man ps"; do
        set -- $how
        LC_ALL=C groff -ww -z -t -"$1" -T"$2" "$page" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ]; then
            check 0 "$name renders with -$1 -T$2 without warnings"
        else
            check 1 "$name renders with -$1 -T$2 without warnings (status $rc)"
            sed 's/^/# /' "$tmp/err" "$tmp/out"
        fi
    done
    if LC_ALL=C grep -n '[^ -~	]' "$page" >"$tmp/err"; then
        check 1 "$name is ASCII (use groff escapes such as \\(mu)"
        sed 's/^/# /' "$tmp/err"
    else
        check 0 "$name is ASCII"
    fi
    if grep -qx "man/$name" "$tmp/installed"; then
        check 0 "$name is in dist_man_MANS"
    else
        check 1 "$name is in dist_man_MANS (make install would leave it out)"
    fi
    # references such as ".BR evmbench\-recipe (5)"
    sed -n 's/.*\(evmbench[-a-z\\]*\) *(\([1-9]\)).*/\1.\2/p' "$page" | sed 's/\\//g' |
        sort -u >"$tmp/refs"
    while read -r ref; do
        if [ -f "$top/man/$ref" ]; then
            check 0 "$name: the page it names, $ref, exists"
        else
            check 1 "$name: the page it names, $ref, exists"
        fi
    done <"$tmp/refs"
done
finish check-man
