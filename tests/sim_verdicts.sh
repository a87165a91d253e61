#!/bin/sh
# sim_verdicts.sh - the before/after verdict rule, against a seeded fake
# tool (tests/sim_verdicts.c), in a small count: SIM_TRIALS trials (100) of
# each scenario, the same fixed seeds every time, so the outcome is the
# same on every machine and nothing is timed. Two checks, each read from
# the program's "claim:" lines:
#   1. no control comparison (no true change) at CV <= 10 % is slower, and
#      at CV 20 % at most 0.5 % of them are;
#   2. a true 20 % slowdown at PCT 10 with CV <= 10 % (outliers or not) is
#      slower in >= 95 % of the trials of each scenario;
# and its exit status agrees with them. The full count, with the figures
# for the documentation, is tests/proof/simulate-verdicts.sh.
# Environment (set by 'make check'): EVMBENCH_SIM_VERDICTS (the program),
# EVMBENCH_WRAPPER (the emulator when cross-compiling, may be empty),
# SIM_TRIALS. Prints TAP.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

sim=${EVMBENCH_SIM_VERDICTS:-$(dirname "$0")/sim_verdicts}
wrap=${EVMBENCH_WRAPPER:-}
trials=${SIM_TRIALS:-100}
make_tmp sim_verdicts

# shellcheck disable=SC2086  # wrap is the emulator and its arguments
$wrap "$sim" --trials "$trials" >"$tmp/out" 2>"$tmp/err"
status=$?
cat "$tmp/out"
[ -s "$tmp/err" ] && cat "$tmp/err"
case $status in 0 | 1) ;; *) fail "sim_verdicts ended with status $status" ;; esac

grep -q '^claim: no control comparison at CV <= 10 % is slower: .*: holds$' "$tmp/out"
check $? "no control comparison at CV <= 10 % is slower ($trials trials a scenario)"
grep -q '^claim: control comparisons at a larger CV are slower in at most 0.5 % .*: holds$' "$tmp/out"
check $? "control comparisons at CV 20 % are slower in at most 0.5 % of the trials"
grep -q '^claim: 20 % worse at PCT 10, .*: holds$' "$tmp/out"
check $? "a 20 % slowdown at PCT 10, CV <= 10 %, is slower in >= 95 % of the trials"
[ "$status" = "$((failed > 0))" ]
check $? "the exit status ($status) says what the claims say"
finish sim_verdicts
