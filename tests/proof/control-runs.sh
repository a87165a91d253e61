#!/bin/sh
# control-runs.sh - does the before/after check cry wolf on this machine?
#
# With the real kernels of the quick profile (not fakes), on whatever
# machine runs it (not in CI: it takes about ten minutes and measures the
# machine, so it belongs in a person's hands):
#
#   1. saves a baseline (`run --profile quick --save-baseline`);
#   2. runs CONTROLS (default 10) control checks against it with nothing
#      changed (`run --profile quick --baseline B --fail-on-deviation 10`),
#      every second one with a busy loop pinned to the worker's core; the
#      claim: no run exits 1 (a false "slower"), and every busy run's
#      verdict names the other processes' load;
#   3. runs the check once more inside a CPU quota (cgroup v2 cpu.max, or
#      v1 cpu.cfs_quota_us: QUOTA % of one CPU in 10 ms periods), a real
#      slowdown that shows as no other process's CPU time; the claim: the
#      verdict is SLOWER THAN BEFORE and the exit status 1. Needs root;
#      skipped (and said) without it.
#
# Prints each run's exit status, its verdict's first line, whether it
# named the load, and its time, then the counts. Exit: 0 when the claims
# hold, 1 when not, 2 on a usage error.
#
# Usage: tests/proof/control-runs.sh [CONTROLS] [QUOTA]
#   EVMBENCH_BIN  the program (default ./evmbench)
set -u
controls=${1:-10}
quota=${2:-50}
bin=${EVMBENCH_BIN:-./evmbench}
case $controls$quota in *[!0-9]*) echo "usage: $0 [CONTROLS] [QUOTA]" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "$0: $bin is not a program (set EVMBENCH_BIN)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evmbench-proof.XXXXXX") || exit 2
busy=
cg=
cleanup() {
    [ -n "$busy" ] && kill "$busy" 2>/dev/null
    [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# the worker's core: the highest this process may use (runner_default_cpu)
cpu=$(taskset -cp $$ 2>/dev/null | sed 's/.*: //; s/.*[,-]//')
[ -n "$cpu" ] || cpu=$(($(nproc) - 1))
cores=$(grep -c '^processor' /proc/cpuinfo)
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "machine: ${model:-unknown CPU}, $cores CPUs; the worker runs on CPU $cpu"
echo "program: $bin ($("$bin" --version 2>/dev/null | head -1))"

check() {       # check TAG: one control check; prints its line, sets rc
    start=$(date +%s)
    "$bin" --results-dir "$tmp/store" run --profile quick --baseline ctl \
        --fail-on-deviation 10 >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    secs=$(($(date +%s) - start))
    first=$(grep -m1 '^Verdict: ' "$tmp/out" | cut -c10-70)
    load=no
    grep -q "other processes took" "$tmp/out" && load=yes
    printf '%-9s exit %d  %3d s  load named: %-3s  %s\n' "$1" "$rc" "$secs" "$load" "$first"
    # what was called slower, and what could not be told
    grep -E '^  .*(: slower|could not tell)' "$tmp/out" | cut -c1-150 | sed 's/^/            /'
    # and what did not run, with why
    grep -E 'did not run|not runnable|timed out|crashed|failed' "$tmp/err" | head -3 |
        cut -c1-150 | sed 's/^/            /'
}

start=$(date +%s)
"$bin" --results-dir "$tmp/store" run --profile quick --save-baseline ctl \
    >"$tmp/out" 2>"$tmp/err" </dev/null || { cat "$tmp/err" >&2; exit 1; }
echo "baseline: saved in $(($(date +%s) - start)) s"

ones=0 busy_runs=0 busy_named=0 slowest=0
i=1
while [ "$i" -le "$controls" ]; do
    tag="quiet"
    if [ $((i % 2)) -eq 0 ]; then
        tag="busy"
        taskset -c "$cpu" sh -c 'while :; do :; done' &
        busy=$!
    fi
    check "$i $tag"
    [ "$rc" -eq 1 ] && ones=$((ones + 1))
    [ "$secs" -gt "$slowest" ] && slowest=$secs
    if [ -n "$busy" ]; then
        kill "$busy" 2>/dev/null
        wait "$busy" 2>/dev/null
        busy=
        busy_runs=$((busy_runs + 1))
        [ "$load" = yes ] && busy_named=$((busy_named + 1))
    fi
    i=$((i + 1))
done
echo "controls: $controls, exit 1 (a false slower): $ones; busy runs naming the load: $busy_named of $busy_runs; slowest check: $slowest s"
ok=0
[ "$ones" -eq 0 ] && [ "$busy_named" -eq "$busy_runs" ] || ok=1

# --- a real slowdown: a CPU quota --------------------------------------------
period=10000
limit=$((period * quota / 100))
if [ "$(id -u)" -ne 0 ]; then
    echo "quota: skipped (needs root to make a cgroup)"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
    echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
    cg=/sys/fs/cgroup/evmbench-proof-$$
    mkdir "$cg" && echo "$limit $period" >"$cg/cpu.max" || { echo "quota: cannot set cpu.max"; exit 1; }
elif [ -d /sys/fs/cgroup/cpu ]; then
    cg=/sys/fs/cgroup/cpu/evmbench-proof-$$
    mkdir "$cg" && echo "$period" >"$cg/cpu.cfs_period_us" && echo "$limit" >"$cg/cpu.cfs_quota_us" ||
        { echo "quota: cannot set cpu.cfs_quota_us"; exit 1; }
else
    echo "quota: skipped (no cgroup cpu controller)"
fi
if [ -n "$cg" ]; then
    procs=$cg/cgroup.procs
    [ -f "$procs" ] || procs=$cg/tasks
    # a child shell joins the cgroup, then runs the check
    sh -c "echo \$\$ >'$procs' && exec \"\$0\" --results-dir '$tmp/store' run --profile quick \
        --baseline ctl --fail-on-deviation 10" "$bin" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    echo "quota $quota%: exit $rc  $(grep -m1 '^Verdict: ' "$tmp/out" | cut -c1-100)"
    grep '^  .*: slower' "$tmp/out" | head -5
    [ "$rc" -eq 1 ] && grep -q '^Verdict: SLOWER THAN BEFORE' "$tmp/out" || ok=1
fi
[ "$ok" -eq 0 ] && echo "control-runs: the claims hold" || echo "control-runs: a claim does not hold"
exit "$ok"
