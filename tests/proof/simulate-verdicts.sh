#!/bin/sh
# simulate-verdicts.sh - the full count of the verdict simulation
# (tests/sim_verdicts.c): every scenario of the grid (a rate and a time;
# a budget of 64 runs a side or 10; CV 2, 5, 10 and 20 %; no outliers, 5 %
# of the runs slowed x1.5 or x3; no change and 10, 15, 20 % worse), lognormal
# and normal noise, at PCT 10, SIM_TRIALS trials each (1000), on the fixed
# seeds the program prints. Figures for methodology(7) and the notes; not
# part of `make check` (tests/sim_verdicts.sh is the small count there).
# The figures are the same on any machine: nothing is timed.
#
# Usage: tests/proof/simulate-verdicts.sh [SIM_VERDICTS-OPTIONS...]
#   (e.g. --pct 5,10,20) from a built tree; SIM_VERDICTS names the program
#   when it is not tests/sim_verdicts of this tree.
# Exit: the program's: 0 the claims hold, 1 they do not.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
sim=${SIM_VERDICTS:-$top/tests/sim_verdicts}
[ -x "$sim" ] || { echo "simulate-verdicts: no $sim: build it with 'make tests/sim_verdicts'" >&2; exit 2; }
trials=${SIM_TRIALS:-1000}
echo "simulate-verdicts: $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$top" describe --always --dirty 2>/dev/null || echo 'no git'), $trials trials a scenario"
"$sim" --trials "$trials" --dist both "$@"
