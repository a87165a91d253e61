#!/bin/sh
# tty-bandwidth.sh - what the live screens cost a serial console (115200
# baud carries about 11.5 kB/s): every byte evmbench writes to an 80x24
# terminal, with the time it was written, and the most bytes in any one
# second (a sliding window), after the first full paint (the frame that
# clears the screen).
#
#   configuration   what runs                               limit per second
#   vt100           --run lmbench --quick, TERM=vt100 NO_COLOR     1500 B
#   linux           --run lmbench --quick, TERM=linux, colour      1500 B
#   demo-vt100      --demo (the quick profile), vt100 NO_COLOR     1500 B
#   demo-linux      --demo (the quick profile), linux, colour      1500 B
#   slow            --run lmbench --quick --slow-tty, vt100         750 B,
#                   and no two frames less than 2 s apart (1.8 s allowed
#                   for the time between writing and recording)
#
# script(1) -T records the bytes in a tmux pane; the configurations run at
# the same time. A run is watched until it finished ("finished in"), the
# demo until its third benchmark has been live for 3 s, each at most
# TTYBW_MAX_S seconds (default 300): a slow machine is judged on what it
# showed by then. The limits are bytes, not rates of the machine.
#
#   tests/tty-bandwidth.sh [CONFIGURATION...]     default: all five
#
# Environment: EVMBENCH_BIN (default ./evmbench), TMUX_BIN (default tmux),
# EVMBENCH_WRAPPER (set by 'make check' of a cross build: qemu-aarch64).
# Prints the figures; exit 0 when every limit holds, 1 when one does not,
# 77 when tmux or script is missing, or for a cross build: the bytes on
# the line come from the same code on every architecture, and a foreign
# binary's line is measured where it runs as on a board, over the emulated
# board's serial console (make check-board).
set -u
if [ -n "${EVMBENCH_WRAPPER:-}" ]; then
    echo "tty-bandwidth: a cross build (runs under $EVMBENCH_WRAPPER): measured natively" \
        "and over the emulated board's serial line (make check-board); skipped"
    exit 77
fi
BIN=${EVMBENCH_BIN:-./evmbench}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
TMUX_BIN=${TMUX_BIN:-$(command -v tmux || true)}
SCRIPT_BIN=$(command -v script || true)
MAX_S=${TTYBW_MAX_S:-300}
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ] || [ -z "$SCRIPT_BIN" ]; then
    echo "tty-bandwidth: tmux or script (util-linux) not found; skipped"
    exit 77
fi
[ $# -gt 0 ] || set -- vt100 linux demo-vt100 demo-linux slow
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/tty_bw.XXXXXX") || exit 1
chmod 755 "$tmpdir"
tm() { sock=$1; shift; "$TMUX_BIN" -L "evmbench-bw-$$-$sock" -f /dev/null "$@"; }
# stop NAME: ends the program of NAME's pane (SIGTERM, which it answers
# by restoring the terminal and cancelling its run), then script and tmux.
# script outlives a closed pane: it is ended by its process id.
stop() {
    spid=$(cat "$tmpdir/$1/pid" 2>/dev/null)
    if [ -n "$spid" ]; then
        for p in $(ps -o pid= --ppid "$spid" 2>/dev/null); do
            kill -TERM "$p" 2>/dev/null
        done
        i=0
        while kill -0 "$spid" 2>/dev/null && [ "$i" -lt 25 ]; do
            sleep 0.2
            i=$((i + 1))
        done
        kill -TERM "$spid" 2>/dev/null
        rm -f "$tmpdir/$1/pid"
    fi
    tm "$1" kill-server >/dev/null 2>&1
}
# shellcheck disable=SC2317  # called by the trap
cleanup() {
    for c in vt100 linux demo-vt100 demo-linux slow; do
        stop "$c"
    done
    rm -rf "$tmpdir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# record NAME TERM COLOUR(0|1) MODE(run|demo) ARGS...: the run in a pane
# of its own until MODE says it is over; leaves NAME/timing (script's
# classic timing: "delay bytes" a write), NAME/out and NAME/screen.
record() {
    name=$1 term=$2 colour=$3 mode=$4
    shift 4
    d=$tmpdir/$name
    mkdir -p "$d/config"
    nc="NO_COLOR=1"
    [ "$colour" = 1 ] && nc=""
    tm "$name" new-session -d -s bw -x 80 -y 24 \
        "exec env -u NO_COLOR -u ENV TERM=$term $nc LC_ALL=C HOME='$d' \
         XDG_CONFIG_HOME='$d/config' \
         '$SCRIPT_BIN' -f -q -T '$d/timing' -c \"'$BIN' --no-save $*\" '$d/out'" ||
        { echo "$name: cannot start tmux" >"$d/error"; return; }
    tm "$name" set-option -g remain-on-exit on >/dev/null
    tm "$name" display-message -p -t bw '#{pane_pid}' >"$d/pid"
    t=0 titles="" seen="" after=0
    while [ "$t" -lt $((MAX_S * 2)) ]; do
        sleep 0.5
        t=$((t + 1))
        screen=$(tm "$name" capture-pane -p -t bw 2>/dev/null) || break
        if [ "$(tm "$name" display-message -p -t bw '#{pane_dead}')" = 1 ]; then
            echo "the program ended by itself" >"$d/note"
            seen=1
            break
        fi
        if [ "$mode" = run ]; then
            case $screen in *"finished in"*|*"cancelled after"*) seen=1 ;; esac
        else
            title=$(printf '%s\n' "$screen" | sed -n '2{/ - kernel /p}')
            if [ -n "$title" ] && ! printf '%s\n' "$titles" | grep -qxF -- "$title"; then
                titles="$titles
$title"
            fi
            [ "$(printf '%s\n' "$titles" | grep -c .)" -ge 3 ] && seen=1
        fi
        # what follows the end: the last frames the scheduler held back
        [ -n "$seen" ] && after=$((after + 1))
        [ "$after" -ge 6 ] && break
    done
    cp "$d/timing" "$d/timing.stop" 2>/dev/null || : >"$d/timing.stop"
    printf '%s\n' "$screen" >"$d/screen"
    [ -n "$seen" ] || echo "watched for ${MAX_S} s; judged on what it showed by then" >"$d/note"
    stop "$name"
}

# judge NAME LIMIT MIN_GAP: the figures of one recording; 0 when the
# limits hold.
judge() {
    name=$1 limit=$2 min_gap=$3
    d=$tmpdir/$name
    if [ -f "$d/error" ]; then
        echo "  $name: $(cat "$d/error")"
        return 1
    fi
    # where the first full paint clears the screen (home, clear to the
    # end: vt100 and linux alike), from the first byte the program wrote
    # (the log starts with script's own line)
    clear=$(printf '\033[H\033[J')
    head_len=$(head -n 1 "$d/out" | wc -c)
    at=$(grep -obaF -- "$clear" "$d/out" 2>/dev/null | head -n 1 | cut -d: -f1)
    if [ -z "$clear" ] || [ -z "$at" ]; then
        echo "  $name: FAIL: no first full paint (no clear screen) in the recording"
        sed 's/^/    screen: /' "$d/screen"
        return 1
    fi
    awk -v clear_at="$((at - head_len))" -v limit="$limit" -v min_gap="$min_gap" \
        -v name="$name" -v note="$(cat "$d/note" 2>/dev/null)" '
    { t += $1; n++; T[n] = t; B[n] = $2; end[n] = off += $2 }
    END {
        # the first paint: the write holding the clear and the writes that
        # follow it closely (one frame); everything before is set-up
        for (i = 1; i <= n && end[i] <= clear_at; i++) ;
        while (i < n && T[i + 1] - T[i] < 0.2) i++
        first = i; fp = end[i]
        # frames: writes less than 0.2 s apart belong together
        gap = -1; start = T[first]
        total = peak = win = 0; j = first + 1
        for (k = first + 1; k <= n; k++) {
            total += B[k]
            if (T[k] - T[k - 1] >= 0.2) {
                if (gap < 0 || T[k] - start < gap) gap = T[k] - start
                start = T[k]
            }
        }
        for (k = first + 1; k <= n; k++) {
            while (j <= n && T[j] < T[k] + 1.0) { win += B[j]; j++ }
            if (win > peak) { peak = win; peak_at = T[k] - T[first] }
            win -= B[k]
        }
        dur = T[n] - T[first]
        ok = peak <= limit && total > 0 && (min_gap == 0 || gap < 0 || gap >= min_gap)
        printf "  %-10s first paint %5d B; then %6d B in %5.1f s = %4.0f B/s; " \
               "busiest second %4d B (limit %d)", name, fp, total, dur,
               (dur > 0 ? total / dur : 0), peak, limit
        if (min_gap > 0)
            printf "; frames >= %.2f s apart (limit %.1f)", gap, min_gap
        printf " %s\n", ok ? "ok" : "FAIL"
        if (peak > limit)
            printf "    the busiest second starts %.1f s after the first paint\n", peak_at
        if (total == 0)
            printf "    nothing was drawn after the first paint\n"
        if (note != "")
            printf "    %s\n", note
        exit !ok
    }' "$d/timing.stop"
}

quick="--board am62xx_sk-fs --run lmbench --quick"
for c in "$@"; do
    case $c in
    vt100) record vt100 vt100 0 run "$quick" & ;;
    linux) record linux linux 1 run "$quick" & ;;
    demo-vt100) record demo-vt100 vt100 0 demo --board am62xx_sk-fs --demo & ;;
    demo-linux) record demo-linux linux 1 demo --board am62xx_sk-fs --demo & ;;
    slow) record slow vt100 0 run "$quick --slow-tty" & ;;
    *) echo "tty-bandwidth: no configuration named '$c'" >&2; exit 2 ;;
    esac
done
wait

echo "tty-bandwidth: bytes evmbench wrote to an 80x24 terminal after the first full paint"
rc=0
for c in "$@"; do
    case $c in
    slow) judge "$c" 750 1.8 || rc=1 ;;
    *) judge "$c" 1500 0 || rc=1 ;;
    esac
done
exit $rc
