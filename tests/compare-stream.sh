#!/bin/sh
# Measures the STREAM kernel against a STREAM binary built elsewhere:
#   sh tests/compare-stream.sh /path/to/stream_c [runs] [evmbench]
# Runs both alternately, each pinned to the same CPU as the kernel's
# worker (the last one), and prints the median kernel/STREAM ratio of each
# metric. The STREAM binary must use the same array size as the kernel
# (the kernel prints its size as a note); nothing here builds it.
set -eu

stream=${1:?usage: compare-stream.sh STREAM_BINARY [RUNS] [EVMBENCH]}
runs=${2:-5}
evm=${3:-./evmbench}
cpu=$(($(nproc) - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

i=0
while [ "$i" -lt "$runs" ]; do
    # STREAM prints "Copy:  12345.6  ..." with the best rate in MB/s.
    taskset -c "$cpu" "$stream" |
        awk '/^(Copy|Scale|Add|Triad):/ { sub(":", "", $1); print tolower($1), $2 }' >>"$tmp/tool"
    # evmbench's text table: metric, measured (best rate), unit ...
    "$evm" run stream --ui=line 2>/dev/null |
        awk '$1 ~ /^(copy|scale|add|triad)$/ && $3 == "MB/s" { print $1, $2 }' >>"$tmp/kernel"
    i=$((i + 1))
done

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-6s %12s %12s %7s   (median of %d runs, MB/s)\n' metric kernel stream ratio "$runs"
for m in copy scale add triad; do
    k=$(awk -v m="$m" '$1 == m { print $2 }' "$tmp/kernel" | median)
    s=$(awk -v m="$m" '$1 == m { print $2 }' "$tmp/tool" | median)
    awk -v m="$m" -v k="$k" -v s="$s" 'BEGIN { printf "%-6s %12.1f %12.1f %7.3f\n", m, k, s, k / s }'
done
