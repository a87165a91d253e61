#!/bin/sh
# evmbench-lava.sh - the run step of contrib/lava/evmbench.yaml: runs
# evmbench headless on the device under test so that each metric becomes a
# LAVA test case (UNITS and MEASUREMENT; RESULT=fail for a metric beyond
# --fail-on-deviation), plus the case evmbench-exit for the exit status.
#
# The test definition's parameters arrive as environment variables:
#   PROFILE            a profile (quick, full, a .profile file); used when
#                      BENCHMARKS is empty
#   BENCHMARKS         benchmark or category names, space-separated
#   BOARD              board key (--board), empty to detect the board
#   REFS               a reference JSON file or folder (--refs)
#   BASELINE           a baseline saved earlier (--baseline)
#   SAVE_BASELINE      save this run as a baseline of that name
#   FAIL_ON_DEVIATION  PCT: a metric more than PCT % worse fails
#   LAVA_KMSG          auto|yes|no: the signal lines through /dev/kmsg
#   EVMBENCH           the program (default: evmbench from PATH)
#   EVMBENCH_URL       where to fetch a static evmbench when it is missing
#   RESULTS_DIR        the results store (--results-dir)
#   EXTRA_ARGS         further options, split on spaces
#
# /dev/kmsg: the signal lines are written to the kernel log, one write each,
# so kernel messages printed on the same serial console cannot split them.
# Only useful when the kernel log reaches that console: LAVA_KMSG=auto uses
# it when /dev/kmsg is writable, userspace writes are not switched off
# (printk.devkmsg=off) and the console shows messages of the default level
# (not booted with "quiet" or loglevel<=4); otherwise the lines go to stdout.
set -u

say() { printf 'evmbench-lava: %s\n' "$*" >&2; }

# A result this script records (evmbench-exit, or the setup failing).
record() {
    if command -v lava-test-case >/dev/null 2>&1; then
        lava-test-case "$1" --result "$2"
    else
        printf '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>\n' "$1" "$2"
    fi
}

# Whether kernel messages of the default level reach the console:
# /proc/sys/kernel/printk holds console_loglevel and default_message_loglevel,
# and a message is printed when its level is below console_loglevel.
kmsg_reaches_console() {
    [ -w /dev/kmsg ] || return 1
    mode=$(cat /proc/sys/kernel/printk_devkmsg 2>/dev/null || echo ratelimit)
    [ "$mode" != off ] || return 1
    # shellcheck disable=SC2046
    set -- $(cat /proc/sys/kernel/printk 2>/dev/null || echo 0 0)
    [ "${1:-0}" -gt "${2:-9}" ]
}

prog=${EVMBENCH:-evmbench}
if ! command -v "$prog" >/dev/null 2>&1; then
    if [ -n "${EVMBENCH_URL:-}" ]; then
        prog=/tmp/evmbench
        say "fetching $EVMBENCH_URL"
        if command -v wget >/dev/null 2>&1; then
            wget -q -O "$prog" "$EVMBENCH_URL"
        else
            curl -fsSL -o "$prog" "$EVMBENCH_URL"
        fi || { say "cannot fetch $EVMBENCH_URL"; record evmbench-exit fail; exit 0; }
        chmod 755 "$prog"
    else
        say "$prog is not on this board (set EVMBENCH or EVMBENCH_URL)"
        record evmbench-exit fail
        exit 0
    fi
fi

set -- run
if [ -n "${BENCHMARKS:-}" ]; then
    # shellcheck disable=SC2086
    set -- "$@" $BENCHMARKS
else
    set -- "$@" --profile "${PROFILE:-quick}"
fi
[ -z "${BOARD:-}" ] || set -- "$@" --board "$BOARD"
[ -z "${REFS:-}" ] || set -- "$@" --refs "$REFS"
[ -z "${BASELINE:-}" ] || set -- "$@" --baseline "$BASELINE"
[ -z "${SAVE_BASELINE:-}" ] || set -- "$@" --save-baseline "$SAVE_BASELINE" --replace-baseline
[ -z "${FAIL_ON_DEVIATION:-}" ] || set -- "$@" --fail-on-deviation "$FAIL_ON_DEVIATION"
[ -z "${RESULTS_DIR:-}" ] || set -- "$@" --results-dir "$RESULTS_DIR"
case "${LAVA_KMSG:-auto}" in
yes) set -- "$@" --lava-kmsg ;;
auto) if kmsg_reaches_console; then set -- "$@" --lava-kmsg; else set -- "$@" --format lava; fi ;;
no) set -- "$@" --format lava ;;
*) say "LAVA_KMSG is auto, yes or no, not '$LAVA_KMSG'"; record evmbench-exit fail; exit 0 ;;
esac
# shellcheck disable=SC2086
set -- "$@" --quiet ${EXTRA_ARGS:-}

say "$prog $*"
"$prog" "$@"
rc=$?
# 0: every metric passed; 1: a metric beyond --fail-on-deviation (its case
# failed) or an error; 2: usage; 3: a benchmark did not run. The metrics
# are the cases above; this case says whether the run as a whole passed.
say "exit status $rc"
if [ "$rc" -eq 0 ]; then record evmbench-exit pass; else record evmbench-exit fail; fi
# The test shell goes on to the next definition whatever happened here:
# the cases carry the verdict.
exit 0
