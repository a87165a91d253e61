#!/bin/sh
# The LAVA test definition without LAVA (make check; make check-lava runs it
# in a LAVA job): contrib/lava/evmbench.yaml is a Lava-Test Test Definition
# 1.0 whose every parameter reaches contrib/lava/evmbench-lava.sh, and the
# script turns a run into signal lines, one per metric, plus evmbench-exit,
# and an error into a failed evmbench-exit (exit 0: the cases carry it).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

src=$(cd "$(dirname "$0")/.." && pwd)
def=$src/contrib/lava/evmbench.yaml
script=$src/contrib/lava/evmbench-lava.sh
make_tmp lava-definition

if grep -q '^  format: Lava-Test Test Definition 1.0$' "$def"; then ok "the format line"
else not_ok "no 'format: Lava-Test Test Definition 1.0' in metadata"; fi
# the parameters: the keys under params:, the export step, the script's list
params=$(sed -n '/^params:/,/^run:/s/^  \([A-Z_][A-Z_]*\):.*/\1/p' "$def" | sort)
exported=$(sed -n 's/^    - export //p' "$def" | tr ' ' '\n' | sort)
documented=$(sed -n 's/^#   \([A-Z_][A-Z_]*\)  .*/\1/p' "$script" | sort)
words() { echo "$1" | tr '\n' ' '; }
if [ -n "$params" ] && [ "$params" = "$exported" ]; then ok "every parameter is exported"
else not_ok "parameters [$(words "$params")] but exported [$(words "$exported")]"; fi
if [ "$params" = "$documented" ]; then ok "every parameter is documented in the script"
else not_ok "parameters [$(words "$params")] but the script documents [$(words "$documented")]"; fi
for p in $params; do
    grep -q "\${${p}[:}]" "$script" || not_ok "the script never reads $p"
done

# the program as the board has it: one command (cross builds: through the emulator)
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${EVMBENCH_WRAPPER:-}" "$EVMBENCH_BIN" >"$tmp/evmbench"
chmod 755 "$tmp/evmbench"
signal='^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=[A-Za-z0-9._-]+ RESULT=(pass|fail)( UNITS=[A-Za-z0-9._-]+ MEASUREMENT=-?[0-9.e+-]+)?>$'

run() {
    (cd "$src" && env -i PATH="$PATH" HOME="$tmp" "$@" sh "$script") >"$tmp/out" 2>"$tmp/err"
}

run EVMBENCH="$tmp/evmbench" BENCHMARKS=lat_syscall LAVA_KMSG=no \
    RESULTS_DIR="$tmp/store" EXTRA_ARGS="--quick --iterations 2"
rc=$?
metrics=$(grep -c '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=lmbench\.lat_syscall-.* UNITS=us MEASUREMENT=' "$tmp/out")
if [ "$rc" -eq 0 ] && [ "$metrics" -ge 1 ] && ! grep -Evq "$signal" "$tmp/out" &&
    [ "$(tail -n 1 "$tmp/out")" = "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=evmbench-exit RESULT=pass>" ]; then
    ok "a run: $metrics metric cases and evmbench-exit pass"
else
    not_ok "a run: exit $rc, output:"; cat "$tmp/out" "$tmp/err"
fi
if grep -q "run lat_syscall --results-dir $tmp/store --format lava --quiet --quick --iterations 2" "$tmp/err"
then ok "the parameters become options"
else not_ok "the command line:"; cat "$tmp/err"; fi

# an error of evmbench (a usage error here), a bad LAVA_KMSG, no program:
# a failed evmbench-exit and exit 0
for case in "FAIL_ON_DEVIATION=abc" "LAVA_KMSG=maybe" "EVMBENCH=$tmp/none"; do
    run EVMBENCH="$tmp/evmbench" BENCHMARKS=lat_syscall "$case"
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=evmbench-exit RESULT=fail>" ]; then
        ok "$case: evmbench-exit fail"
    else
        not_ok "$case: exit $rc, output:"; cat "$tmp/out" "$tmp/err"
    fi
done

finish lava-definition
