#!/bin/sh
# tty-bandwidth.sh - what the live screen costs a serial console: the bytes
# evmbench writes to an 80x24 vt100 terminal during a ~30 s live run, and
# the CPU time the UI process itself uses meanwhile (the worker that runs
# the kernel is a separate process and not counted).
#
#   tests/tty-bandwidth.sh [BENCH] [SECONDS] [-- EXTRA EVMBENCH OPTIONS]
#
# BENCH defaults to bw_mem (LMBench memory bandwidth, ~35 s at the full
# budget), SECONDS to 30. Targets (issue 7): at most 1500 bytes/s on
# average (115200 baud carries ~11.5 kB/s) and under 1 % of one core.
# The bytes are recorded with tmux pipe-pane from the pseudo-terminal.
# Environment: EVMBENCH_BIN (default ./evmbench), TMUX_BIN (default tmux).
# Prints the figures; exit 0 when both targets are met, 1 when not, 77
# when tmux is missing.
set -u
BENCH=${1:-bw_mem}
SECS=${2:-30}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
BIN=${EVMBENCH_BIN:-./evmbench}
TMUX_BIN=${TMUX_BIN:-$(command -v tmux || true)}
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
    echo "tty-bandwidth: tmux not found; skipped"
    exit 77
fi
SOCK=evmbench-bw-$$
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/tty_bw.XXXXXX") || exit 1
tm() { "$TMUX_BIN" -L "$SOCK" -f /dev/null "$@"; }
# shellcheck disable=SC2317  # called by the trap
cleanup() { tm kill-server >/dev/null 2>&1; rm -rf "$tmpdir"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

tm new-session -d -s bw -x 80 -y 24 \
    "env -u ENV TERM=vt100 NO_COLOR=1 LC_ALL=C XDG_CONFIG_HOME='$tmpdir/config' PS1='bw\$ ' /bin/sh" ||
    { echo "tty-bandwidth: cannot start tmux"; exit 1; }
sleep 0.5
out="$tmpdir/tty.bytes"
: >"$out"
tm pipe-pane -t bw -o "cat >>'$out'"
tm send-keys -t bw -l "exec '$BIN' --board am62xx_sk-fs --run $BENCH $*"
tm send-keys -t bw Enter

# the UI process: the pane's process once exec'ed
pid=$(tm display-message -p -t bw '#{pane_pid}')
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null; }
hz=$(getconf CLK_TCK)
sleep 1     # start-up and the first full paint are not the steady state
b0=$(wc -c <"$out")
c0=$(ticks)
t0=$(date +%s.%N)
i=0
while [ "$i" -lt "$SECS" ] && [ -d "/proc/$pid" ]; do
    sleep 1
    i=$((i + 1))
    grep -q 'finished in' "$out" 2>/dev/null && break
done
c1=$(ticks)
t1=$(date +%s.%N)
b1=$(wc -c <"$out")
screen=$(tm capture-pane -p -t bw)
tm send-keys -t bw q
sleep 0.5
tm send-keys -t bw q

awk -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" -v c0="${c0:-0}" -v c1="${c1:-0}" \
    -v hz="$hz" -v total="$b1" -v bench="$BENCH" 'BEGIN {
    dt = t1 - t0
    rate = b / dt
    cpu = (c1 - c0) / hz / dt * 100
    printf "tty-bandwidth: %s live for %.1f s at 80x24 vt100\n", bench, dt
    printf "  bytes to the terminal: %d in the window (%d with the first paint)\n", b, total
    printf "  average: %.0f bytes/s (target <= 1500; 115200 baud ~ 11520)\n", rate
    printf "  UI process CPU: %.2f %% of one core (target < 1 %%)\n", cpu
    exit !(rate <= 1500 && cpu < 1)
}'
rc=$?
echo "$screen" | grep -E 'running|finished|elapsed' | head -3 | sed 's/^/  screen: /'
exit $rc
