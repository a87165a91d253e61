#!/bin/sh
# tui-vs-headless.sh - does the live screen disturb the measurement? Runs
# the STREAM kernel alternately in the TUI (an 80x24 vt100 tmux pane,
# 4 redraws/s) and headless ('evmbench run stream'), ROUNDS times each,
# the order swapped every round, and prints per metric the median of each
# side and their ratio (TUI / headless). Target (issue 7): within 2 %.
#
#   tests/tui-vs-headless.sh [ROUNDS] [-- EXTRA EVMBENCH OPTIONS]
#
# Both sides save their runs to their own results store (a temporary
# directory); the values are read back from the run files, so both are the
# same statistic (STREAM's best rate). Environment: EVMBENCH_BIN (default
# ./evmbench), TMUX_BIN (default tmux). Exit 0 when every ratio is within
# 2 %, 1 when not, 77 when tmux is missing.
set -u
ROUNDS=${1:-5}
[ $# -ge 1 ] && shift
[ "${1:-}" = "--" ] && shift
BIN=${EVMBENCH_BIN:-./evmbench}
TMUX_BIN=${TMUX_BIN:-$(command -v tmux || true)}
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
    echo "tui-vs-headless: tmux not found; skipped"
    exit 77
fi
SOCK=evmbench-tvh-$$
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/tui_vs_headless.XXXXXX") || exit 1
tm() { "$TMUX_BIN" -L "$SOCK" -f /dev/null "$@"; }
# shellcheck disable=SC2317  # called by the trap
cleanup() { tm kill-server >/dev/null 2>&1; rm -rf "$tmpdir"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

tm new-session -d -s tvh -x 80 -y 24 \
    "env -u ENV TERM=vt100 NO_COLOR=1 LC_ALL=C XDG_CONFIG_HOME='$tmpdir/config' XDG_DATA_HOME='$tmpdir/tui' PS1='tvh\$ ' /bin/sh" ||
    { echo "tui-vs-headless: cannot start tmux"; exit 1; }
sleep 0.5

# metric value pairs of the newest run file of store $1, appended to $2
values() {
    f=$(ls -t "$1"/evmbench/runs/*.evmrun 2>/dev/null | head -n 1)
    [ -n "$f" ] || return 1
    sed -n 's/.*"metric":"\([a-z]*\)".*"value":\([-0-9.e+]*\),.*/\1 \2/p' "$f" >>"$2"
    rm -f "$f"
}

tui_once() {
    tm send-keys -t tvh -l "clear; '$BIN' --board am62xx_sk-fs --run stream $*; echo tvh-exit=\$?"
    tm send-keys -t tvh Enter
    i=0
    until tm capture-pane -p -t tvh | grep -Eq 'finished in|^ (failed|crashed|timeout)'; do
        sleep 0.2
        i=$((i + 1))
        [ "$i" -gt 1500 ] && { echo "tui-vs-headless: the TUI run did not end"; exit 1; }
    done
    tm send-keys -t tvh q
    sleep 0.3
    tm send-keys -t tvh q
    until tm capture-pane -p -t tvh | grep -q '^tvh-exit='; do sleep 0.2; done
    values "$tmpdir/tui" "$tmpdir/tui.values" || { echo "tui-vs-headless: no TUI run saved"; exit 1; }
}

cli_once() {
    XDG_DATA_HOME="$tmpdir/cli" "$BIN" run stream --board am62xx_sk-fs "$@" \
        >/dev/null 2>&1
    values "$tmpdir/cli" "$tmpdir/cli.values" || { echo "tui-vs-headless: no headless run saved"; exit 1; }
}

r=0
while [ "$r" -lt "$ROUNDS" ]; do
    if [ $((r % 2)) = 0 ]; then tui_once "$@"; cli_once "$@"; else cli_once "$@"; tui_once "$@"; fi
    r=$((r + 1))
done

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# spread: (max - min) / median of one side, in %: the noise of the machine
spread() {
    sort -n | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.1f", m ? (v[NR] - v[1]) / m * 100 : 0 }'
}
printf 'tui-vs-headless: STREAM, %d rounds each, alternating (median MB/s)\n' "$ROUNDS"
printf '  %-6s %12s %12s %8s %12s %12s\n' metric tui headless ratio "tui spread" "cli spread"
rc=0
for m in copy scale add triad; do
    t=$(awk -v m="$m" '$1 == m { print $2 }' "$tmpdir/tui.values" | median)
    c=$(awk -v m="$m" '$1 == m { print $2 }' "$tmpdir/cli.values" | median)
    ts=$(awk -v m="$m" '$1 == m { print $2 }' "$tmpdir/tui.values" | spread)
    cs=$(awk -v m="$m" '$1 == m { print $2 }' "$tmpdir/cli.values" | spread)
    awk -v m="$m" -v t="$t" -v c="$c" -v ts="$ts" -v cs="$cs" 'BEGIN {
        q = t / c
        printf "  %-6s %12.1f %12.1f %8.3f %11s%% %11s%%\n", m, t, c, q, ts, cs
        exit !(q >= 0.98 && q <= 1.02) }' || rc=1
done
echo "  target: every ratio within 0.98-1.02; a spread above 2 % means the"
echo "  machine itself varies more than that (other load) and the figure is noise"
exit $rc
