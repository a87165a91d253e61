#!/bin/sh
# Times the work evmbench does with regular expressions, for two or more
# builds of it (one with PCRE2's JIT, one without), so that what the JIT
# buys can be weighed against the ~200 KB it adds to the static binary.
#   sh contrib/measure-jit.sh [-n REPS] EVMBENCH...
# One round, run by each binary in turn: every tool recipe in benches/tools
# loaded (evmbench list --all), every captured tool output of
# tests/data/tools/*/*/output read as a log (results import --tool, the
# bench named by the case's `expected`), and every seed guide in
# $EVMBENCH_SEEDS (default ../shared/seeds beside the clone) imported.
# Prints each binary's median CPU time (user + system, all processes of the
# round) over REPS rounds (default 15), and its lowest and highest. Needs
# python3 (the CPU time of finished children). Run from the source tree.
set -eu
reps=15
if [ "${1:-}" = -n ]; then
    reps=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: sh contrib/measure-jit.sh [-n REPS] EVMBENCH..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
seeds=${EVMBENCH_SEEDS:-$(cd "$top/.." && pwd)/shared/seeds}
command -v python3 >/dev/null || { echo "measure-jit.sh needs python3" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The round, as a script of its own: the binary is its argument; each round
# starts from an empty store, so that every import does the same work.
{
    echo 'set -u'
    echo 'bin=$1'
    echo 'home=$(mktemp -d)'
    echo 'export HOME="$home" XDG_DATA_HOME="$home/d" XDG_CONFIG_HOME="$home/c" XDG_STATE_HOME="$home/s"'
    echo "export EVMBENCH_DATADIR='$top'"
    echo '"$bin" list --all >/dev/null 2>&1'
    n=0
    for exp in "$top"/tests/data/tools/*/*/expected; do
        d=$(dirname "$exp")
        [ -f "$d/output" ] || continue
        bench=$(sed -n 's/^bench //p' "$exp" | head -n 1)
        [ -n "$bench" ] || continue
        echo "\"\$bin\" results import '$d/output' --tool '$bench' >/dev/null 2>&1"
        n=$((n + 1))
    done
    g=0
    for s in "$seeds"/*.txt; do
        [ -f "$s" ] || continue
        echo "\"\$bin\" import-guide '$s' >/dev/null 2>&1"
        g=$((g + 1))
    done
    echo 'rm -rf "$home"'
    echo "# $n tool outputs, $g guides"
} >"$work/round.sh"
tail -n 1 "$work/round.sh" | sed 's/^# /one round: evmbench list --all, /'

for bin in "$@"; do
    [ -x "$bin" ] || { echo "$bin: not an executable" >&2; exit 1; }
done

# Rounds interleave the binaries, so that a slow spell of the machine
# weighs on each alike.
python3 - "$reps" "$work/round.sh" "$@" <<'EOF'
import os, resource, statistics, subprocess, sys
reps, round_sh, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = {b: [] for b in bins}
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
for i in range(reps + 1):
    for b in bins:
        t0 = cpu()
        subprocess.run(["sh", round_sh, os.path.abspath(b)], check=True)
        if i:  # the first round only warms the page cache
            times[b].append((cpu() - t0) * 1000)
for b in bins:
    t = times[b]
    print("%-40s median %7.1f ms CPU  (min %.1f, max %.1f, %d rounds)"
          % (b, statistics.median(t), min(t), max(t), len(t)))
EOF
