#!/bin/sh
# check-functions.sh - no function of the program or its tests is longer
# than a screen: 100 lines from its signature to its closing brace.
#
# The code's own style makes functions easy to find: a definition starts
# at column 0 with its return type and name, its body opens with "{" alone
# at column 0 and closes with "}" at column 0. Anything else at column 0
# inside a body (a #if, a label) does not end it.
#
# Environment: EVMBENCH_SRCDIR (the source tree; default: this script's
# parent directory), MAX_FUNCTION_LINES (default 100).
# Exit: 0 pass, 1 fail.
set -u
top=${EVMBENCH_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
max=${MAX_FUNCTION_LINES:-100}
cd "$top" || exit 1

files=$(find src screens benches tests -name '*.c' ! -name 'embedded_data.c' | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-functions: no C files under $top" >&2; exit 1; }

# shellcheck disable=SC2086  # one word per file name, none has spaces
awk -v max="$max" '
    FNR == 1 { sig = ""; body = 0 }
    # a signature line: an identifier at column 0, a "(", no ";" at the end
    !body && /^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(typedef|struct [a-z_]+ *\{)/ {
        sig = $0; sigline = FNR
    }
    !body && /^\{/ && sig != "" { body = 1; start = sigline; name = sig; next }
    body && /^\}/ {
        n = FNR - start + 1; count++
        if (n > max) {
            if (name ~ /^START_TEST\(/) { sub(/^START_TEST\(/, "", name); sub(/\).*/, "", name) }
            else { sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
            printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, n, max
            bad++
        }
        body = 0; sig = ""
    }
    END {
        printf "check-functions: %d functions, %d over %d lines\n", count, bad + 0, max
        exit bad > 0
    }
' $files
