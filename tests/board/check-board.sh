#!/bin/sh
# check-board.sh DIR - `make check-board`: evmbench on two emulated TI
# boards, driven over their serial console.
#   - DIR/am625: an AM625 SK (Cortex-A53) - every step of serial.py:
#     sysinfo, list, the quick profile's LAVA signals, the screens, SIGHUP,
#     a read-only TMPDIR, and the bytes of a live lmbench run on the line
#   - DIR/j721e: a J721E EVM (Cortex-A72) - sysinfo and list: the same
#     binary detects the other board from its device tree
# The boards are made by mkimage.sh from Debian's packages (kept in
# $EVMBENCH_BOARD_CACHE, default DIR/cache). Needs $EVMBENCH_STATIC_BIN (a
# static aarch64 evmbench) and what `sh .ci/deps board` installs.
# Prints serial.py's lines and a closing "N passed, N failed" for both.
# Exit 0 pass, 1 fail.
set -u
dir=${1:?usage: check-board.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" || exit 1
export EVMBENCH_BOARD_CACHE="${EVMBENCH_BOARD_CACHE:-$dir/cache}"

# the first python3 with pexpect and pyte (Debian's, where another python3
# comes first in PATH)
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import pexpect, pyte' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "check-board: no python3 with pexpect and pyte (sh .ci/deps board installs them)" >&2
    exit 1
fi

start=$(date +%s)
passed=0 failed=0
for variant in am625 j721e; do
    echo "==== $variant"
    sh "$here/mkimage.sh" "$dir/$variant" "$variant" || exit 1
    case $variant in
    am625) steps=sysinfo,list,lava,screens,hangup,tmpdir,line ;;
    j721e) steps=sysinfo,list ;;
    esac
    "$py" "$here/serial.py" "$dir/$variant" --variant "$variant" --steps "$steps" \
        --log "$dir/$variant/serial.log" | tee "$dir/$variant/serial.out"
    counts=$(tail -n 1 "$dir/$variant/serial.out")
    p=$(echo "$counts" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$counts" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    [ -n "$p" ] || { p=0; f=$((f + 1)); }
    passed=$((passed + p))
    failed=$((failed + ${f:-1}))
done
echo "check-board: both boards in $(($(date +%s) - start)) s; the bytes read are in $dir/*/serial.log"
grep -h '^# line TERM=' "$dir/am625/serial.out" | sed 's/^# /check-board: /'
echo "check-board: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
