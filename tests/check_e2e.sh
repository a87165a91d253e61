#!/bin/sh
# check_e2e.sh - the before/after check of man evmbench ("The check after a
# DDR or clock change"), run as the page writes it: its command lines are
# read from the page (the lines after '.\" check-example:') and run with
# only --sysroot added, on fixture trees whose DDR runs at 1600 and 1333
# MT/s (tests/data/sysroots-sys). The profile "quick" is the fixture's
# (tests/data/check): one benchmark of a fake tool whose numbers a file
# sets, each run drawn round them with a seeded spread (CV 3 %: a board is
# never exactly the same twice), so nothing depends on this machine's
# speed and every run of the test draws the same numbers. Checks the verdict in
# words at the end of `run` (as fast as before, slower and which metrics
# which way, better, against the guide), that it agrees with the FAIL
# marks and the exit status, the system's change, the screens' --check as
# lines, and `results compare`.
#
# Environment (set by 'make check'): EVMBENCH_BIN, EVMBENCH_WRAPPER (may be
# empty), EVMBENCH_DATADIR (the source tree), TESTS_DATA. Exit: 0 pass, 1 fail.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

program_env
SRC=${EVMBENCH_DATADIR:?EVMBENCH_DATADIR is not set}
SYS="$DATA/sysroots-sys"
MAN="$SRC/man/evmbench.1"
make_tmp check_e2e

# --- the fixture: the data folders, the fake tool, its numbers -------------
mkdir -p "$tmp/data" "$tmp/bin" || exit 1
if ! cp -R "$DATA/check/data/." "$tmp/data/" || ! cp -R "$SRC/benches/soc" "$tmp/data/soc"; then
    fail "cannot copy the fixture data"
fi
# shellcheck disable=SC2016  # the fake tool expands it when it runs
# With EVMBENCH_CHECK_BUSY=DIR it also plays other processes busy on every
# core: while it runs, DIR/proc/stat gains 1000 ticks of busy time a CPU.
# Each run draws every value from a normal distribution round the file's
# number, with the CV EVMBENCH_CHECK_CV; run n of the test uses seed n.
cat >"$tmp/bin/chk" <<'EOF'
#!/bin/sh
n=$(cat "$EVMBENCH_CHECK_SEQ" 2>/dev/null || echo 0)
echo $((n + 1)) >"$EVMBENCH_CHECK_SEQ"
awk -v seed=$((n + 1)) -v cv="${EVMBENCH_CHECK_CV:-0}" '
    BEGIN { srand(seed) }
    { z = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())
      printf "%s %.6g\n", $1, $2 * (1 + cv * z) }' "$EVMBENCH_CHECK_VALUES"
if [ -n "${EVMBENCH_CHECK_BUSY:-}" ]; then
    sleep 0.3
    awk '/^cpu/ { $2 += 1000 } { print }' "$EVMBENCH_CHECK_BUSY/proc/stat" >"$EVMBENCH_CHECK_BUSY/stat.new" &&
        mv "$EVMBENCH_CHECK_BUSY/stat.new" "$EVMBENCH_CHECK_BUSY/proc/stat"
fi
EOF
chmod 755 "$tmp/bin/chk"
export EVMBENCH_DATADIR="$tmp/data" EVMBENCH_CHECK_VALUES="$tmp/values"
export EVMBENCH_CHECK_SEQ="$tmp/seq" EVMBENCH_CHECK_CV=0.03
export PATH="$tmp/bin:$PATH"
# board COPY TRIAD LAT: what the fake board measures from now on
board() { printf 'copy: %s\ntriad: %s\nlat: %s\n' "$1" "$2" "$3" >"$tmp/values"; }

# --- the page's command lines ----------------------------------------------
# example NAME: the line after '.\" check-example: NAME', as a shell reads it
example() {
    awk -v want="$1" 'take { print; exit } $0 == ".\\\" check-example: " want { take = 1 }' "$MAN" |
        sed 's/\\-/-/g'
}
# command NAME: that line without its leading "evmbench "
command_of() {
    line=$(example "$1")
    case $line in
    "evmbench "*) echo "${line#evmbench }" ;;
    *) echo "man evmbench: no command line for check-example '$1' (got '$line')" >"$tmp/err"
       return 1 ;;
    esac
}
if ! { cmd_before=$(command_of before) && cmd_after=$(command_of after) &&
        cmd_screens=$(command_of screens) && cmd_compare=$(command_of compare); }; then
    fail "man evmbench lacks a line of the procedure"
fi
ok "man evmbench has the procedure's four command lines"

# ev_page CMD MORE...: ev of the page's command CMD, word-split as a shell
# would, with MORE added.
ev_page() {
    cmd=$1
    shift
    # shellcheck disable=SC2086  # the page's command is split on purpose
    ev $cmd "$@"
}
verdict() { grep '^Verdict: ' "$tmp/out"; }

# --- before the change: DDR at 1600 MT/s ------------------------------------
board 1500 1400 40
ev_page "$cmd_before" --sysroot "$SYS/am62x-ddr1600"
if [ "$st" -eq 0 ] && grep -qF "saved as baseline before-ddr" "$tmp/err" && has " MB/s "; then
    ok "before: '$cmd_before' saves the baseline"
else
    fail "before: status $st, or no baseline saved"
fi

# --- nothing changed: as fast as before ------------------------------------
ev_page "$cmd_after" --sysroot "$SYS/am62x-ddr1600"
if [ "$st" -eq 0 ] &&
    verdict | grep -q '^Verdict: AS FAST AS BEFORE: all 3 metrics compared with baseline before-ddr are unchanged within 10% or faster (95% intervals)\.' &&
    has "System: DDR 1600 MT/s unchanged" && ! grep -q 'FAIL' "$tmp/out"; then
    ok "unchanged: status 0, AS FAST AS BEFORE, the DDR unchanged"
else
    fail "unchanged board: status $st, verdict '$(verdict)'"
fi

# --- the change: DDR at 1333 MT/s, the bandwidth down about 17 % -------------
board 1250 1160 43
ev_page "$cmd_after" --sysroot "$SYS/am62x-ddr1333"
[ "$st" -eq 1 ] || fail "after the change: status $st, want 1 (a metric beyond 10%)"
# a move: "  ddrcheck copy: -16.4% (-18.0 .. -14.9) at 1251.3 MB/s, was 1497.2;
# 8 runs against 8: slower"
# (the estimate starts with $2; the bounds of its interval with a sign only:
# the seeded runs put them either side of 20 %)
moved_re() { echo "^  ddrcheck $1: $2[0-9.]+% \\([-+][0-9.]+ \\.\\. [-+][0-9.]+\\) at [0-9.]+ $3, was [0-9.]+; [0-9]+ runs against [0-9]+: $4"; }
if verdict | grep -q '^Verdict: SLOWER THAN BEFORE: 2 of 3 metrics compared with baseline before-ddr are slower by more than 10% (the whole 95% interval beyond it)\.' &&
    grep -Eq "$(moved_re copy -1 MB/s slower)\$" "$tmp/out" &&
    grep -Eq "$(moved_re triad -1 MB/s slower)\$" "$tmp/out" &&
    grep -Eq "$(moved_re lat "[+]" us "a small, real change, within 10%")\$" "$tmp/out" &&
    has "Tolerance: 10% (--fail-on-deviation); compared with baseline before-ddr." &&
    grep -q '^System: DDR 1600 -> 1333 MT/s (clk_summary), ' "$tmp/out"; then
    ok "after: SLOWER THAN BEFORE, copy and triad worse (how far, from what), the DDR change"
else
    fail "after the change: the verdict in words"
fi
# the verdict is the text's end, after every table row
last_row=$(grep -n '^lat ' "$tmp/out" | tail -1 | cut -d: -f1)
at=$(grep -n '^Verdict: ' "$tmp/out" | cut -d: -f1)
if [ -n "$last_row" ] && [ -n "$at" ] && [ "$at" -gt "$last_row" ] &&
    [ "$(tail -n 1 "$tmp/out" | cut -c1-8)" = "System: " ]; then
    ok "after: the verdict ends the text, after the tables"
else
    fail "after: the verdict is not at the end"
fi
# the metrics the verdict calls worse are those FAIL marks and stderr name
moved=$(sed -n 's/^  ddrcheck \([a-z]*\): .*: slower$/\1/p' "$tmp/out" | sort | tr '\n' ' ')
marked=$(awk '$NF == "FAIL" { print $1 }' "$tmp/out" | sort -u | tr '\n' ' ')
named=$(sed -n 's/^evmbench: FAIL ddrcheck \([a-z]*\): .*/\1/p' "$tmp/err" | sort | tr '\n' ' ')
if [ "$moved" = "copy triad " ] && [ "$marked" = "$moved" ] && [ "$named" = "$moved" ]; then
    ok "after: the verdict, the FAIL marks and stderr name the same metrics"
else
    fail "after: verdict '$moved', FAIL marks '$marked', stderr '$named'"
fi

# --- the screens' check, as lines ------------------------------------------
ev_page "$cmd_screens" --ui line --sysroot "$SYS/am62x-ddr1333"
if [ "$st" -eq 1 ] && verdict | grep -q '^Verdict: SLOWER THAN BEFORE: 2 of 3 metrics' &&
    grep -Eq "$(moved_re copy -1 MB/s slower)" "$tmp/out"; then
    ok "'evmbench $cmd_screens --ui line': the same verdict, status 1"
else
    fail "--check --ui line: status $st, verdict '$(verdict)'"
fi

# --- the likely cause: a bandwidth that fell with the DDR rate ---------------
# stream_check is the fake board's STREAM copy (section "stream": DDR-bound)
board 1500 1400 40
ev run stream_check --save-baseline ddr-cause --sysroot "$SYS/am62x-ddr1600"
[ "$st" -eq 0 ] || fail "cause: the baseline at 1600 MT/s: status $st"
cause_re() { echo "^  stream copy: $1[0-9.]+% \\($1[0-9.]+ \\.\\. $1[0-9.]+\\) at .* runs against [0-9]+: [a-z ,0-9%]+; $2\$"; }
consistent='consistent with the DDR rate change \(1600 -> 1333 MT/s, -16\.7%\)'
# 12 % down with the DDR 16.7 % down: within the bound, named as its cause
board 1320 1400 40
ev run stream_check --baseline ddr-cause --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1333"
if grep -Eq "$(cause_re -1 "$consistent")" "$tmp/out"; then
    ok "cause: copy 12% down with the DDR 16.7% down is named as consistent with it (status $st)"
else
    fail "cause 12%: status $st, $(grep '^  stream' "$tmp/out")"
fi
board 1260 1400 40
ev run stream_check --baseline ddr-cause --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1333"
if [ "$st" -eq 1 ] && grep -Eq "$(cause_re -1 "$consistent")" "$tmp/out" &&
    grep -q ': slower; consistent' "$tmp/out"; then
    ok "cause: copy 16% down is slower, and consistent with the DDR change"
else
    fail "cause 16%: status $st, $(grep '^  stream' "$tmp/out")"
fi
board 1050 1400 40
ev run stream_check --baseline ddr-cause --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1333" --format json
if [ "$st" -eq 1 ] && grep -q '"explained_by": "more than the DDR rate change (1600 -> 1333 MT/s, -16.7%) explains"' "$tmp/out" &&
    grep -q '"outcome": "slower"' "$tmp/out"; then
    ok "cause: copy 30% down is slower, more than the DDR change explains (JSON explained_by)"
else
    fail "cause 30%: JSON status $st, $(grep -E 'explained_by|outcome"' "$tmp/out")"
fi
board 1500 1400 40
ev run stream_check --baseline ddr-cause --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1600" --format json
if [ "$st" -eq 0 ] && grep -q '"explained_by": null' "$tmp/out" &&
    for k in change_pct change_low change_high samples baseline_samples outcome; do
        grep -q "\"$k\": " "$tmp/out" || exit 1
    done; then
    ok "cause: nothing changed in the system, no cause named; JSON has the change's fields"
else
    fail "cause: the same system: status $st, $(grep explained_by "$tmp/out")"
fi
board 1250 1160 43                  # the changed board again, for the screens' check

# --- load is evidence: worse while other processes had the core -----------
# A copy of the 1600 MT/s tree with a proc/stat that the fake tool makes
# busy during its run: copy and triad 17% down are not "slower", the
# verdict says the load can explain them, nothing fails, status 0.
busy="$tmp/busy-sys"
cp -R "$SYS/am62x-ddr1600" "$busy" && mkdir -p "$busy/proc" || fail "load: cannot copy the tree"
awk 'BEGIN { print "cpu  100 0 100 10000 0 0 0 0 0 0";
             for (i = 0; i < 64; i++) print "cpu" i " 100 0 100 10000 0 0 0 0 0 0" }' >"$busy/proc/stat"
board 1250 1160 43
EVMBENCH_CHECK_BUSY=$busy ev_page "$cmd_after" --sysroot "$busy"
# (lat, 7.5 % up, may be inconclusive too: how many runs fit in its time
# depends on this machine, so only the two are named)
if [ "$st" -eq 0 ] && verdict | grep -q "^Verdict: COULD NOT TELL: .* compared with baseline before-ddr could .*be told at 10% (.*2 worse while other processes took CPU time on the worker's core, which can make it slower by any amount)" &&
    grep -Eq "$(moved_re copy -1 MB/s "slower, but other processes took 100% of the worker's core meanwhile: could not tell")\$" "$tmp/out" &&
    ! grep -q 'FAIL' "$tmp/out"; then
    ok "load: worse while other processes had the core is COULD NOT TELL, status 0, no FAIL"
else
    fail "load: status $st, verdict '$(verdict)'"
fi
EVMBENCH_CHECK_BUSY=$busy ev_page "$cmd_after" --sysroot "$busy" --format json
if [ "$st" -eq 0 ] && grep -q '"other_cpu_pct": 100' "$tmp/out"; then
    ok "load: JSON says how much of the core other processes took (other_cpu_pct)"
else
    fail "load: JSON status $st, $(grep other_cpu_pct "$tmp/out" | head -1)"
fi

# --- the screens' check in a terminal: it ends as run does --------------------
# tm_check ERE ARGS...: the screens with ARGS (--sysroot added) in tmux at
# 80x24, TERM=vt100; waits for ERE on the screen (kept in $tmp/screen),
# leaves with q; the exit status in $st (empty when it never ended).
tm_check() {
    want=$1
    shift
    sock=evmbench-check-$$
    rm -f "$tmp/tm-status"
    # shellcheck disable=SC2086  # WRAP is a command, maybe empty
    "$TMUX_BIN" -L "$sock" -f /dev/null new-session -d -s chk -x 80 -y 24 \
        "env TERM=vt100 NO_COLOR=1 $WRAP '$BIN' $* --sysroot '$SYS/am62x-ddr1333'; \
         echo \$? >'$tmp/tm-status'" || fail "tmux cannot start a session"
    deadline=$(($(date +%s) + limit))
    while ! "$TMUX_BIN" -L "$sock" capture-pane -p -t chk >"$tmp/screen" 2>/dev/null ||
        ! grep -Eq -- "$want" "$tmp/screen"; do
        [ "$(date +%s)" -ge "$deadline" ] || [ -f "$tmp/tm-status" ] && break
        sleep 0.2
    done
    # the screens redraw a little at a time (a serial line's budget, counted
    # over PACE_WINDOW_S = 1.1 s in screens/ui.c): a frame may wait that long
    # for room, so wait until two looks 1.5 s apart agree
    while [ "$(date +%s)" -lt "$deadline" ] && [ ! -f "$tmp/tm-status" ]; do
        sleep 1.5
        "$TMUX_BIN" -L "$sock" capture-pane -p -t chk >"$tmp/screen2" 2>/dev/null || break
        cmp -s "$tmp/screen" "$tmp/screen2" && break
        mv "$tmp/screen2" "$tmp/screen"
    done
    # q leaves each screen down to home, then the program
    while [ ! -f "$tmp/tm-status" ] && [ "$(date +%s)" -lt "$deadline" ]; do
        "$TMUX_BIN" -L "$sock" send-keys -t chk q 2>/dev/null
        sleep 0.5
    done
    "$TMUX_BIN" -L "$sock" kill-server >/dev/null 2>&1
    st=$(cat "$tmp/tm-status" 2>/dev/null)
}
runs_saved() { find "$XDG_DATA_HOME/evmbench/runs" -name '*.evmrun' 2>/dev/null | wc -l; }
if [ -n "${TMUX_BIN:-}" ] && [ -x "${TMUX_BIN:-}" ]; then
    tm_check 'Tolerance: ' "$cmd_screens"
    if [ "$st" = 1 ] && grep -q 'SLOWER THAN BEFORE' "$tmp/screen"; then
        ok "'evmbench $cmd_screens' in a terminal: SLOWER THAN BEFORE, status 1 as run"
    else
        fail "--check in a terminal: status '$st' after the verdict (want 1), screen: $(cat "$tmp/screen")"
    fi
    before=$(runs_saved)
    [ "$before" -gt 0 ] || fail "the runs before --no-save are not in the store: nothing to count"
    tm_check 'Tolerance: ' "$cmd_screens" --no-save
    if [ "$st" = 1 ] && grep -q 'SLOWER THAN BEFORE' "$tmp/screen" &&
        grep -q 'before-ddr' "$tmp/screen" && [ "$(runs_saved)" -eq "$before" ]; then
        ok "--check --no-save: checked against the baseline all the same, nothing saved, status 1"
    else
        fail "--check --no-save --baseline: status '$st', runs $before -> $(runs_saved), screen: $(cat "$tmp/screen")"
    fi
    tm_check 'no-such-baseline' --check --baseline no-such-baseline
    if [ "$st" = 1 ]; then
        ok "--check with a baseline that does not exist: status 1"
    else
        fail "--check --baseline no-such-baseline: status '$st' (want 1)"
    fi
else
    skip "the screens' --check in a terminal: tmux not found"
fi

# --- the two runs side by side ---------------------------------------------
ev_page "$cmd_compare"
sysline=$(grep -n '^System: DDR 1600 -> 1333 MT/s (clk_summary)' "$tmp/out" | cut -d: -f1)
metric=$(grep -n 'copy' "$tmp/out" | head -1 | cut -d: -f1)
if [ "$st" -eq 0 ] && [ -n "$sysline" ] && [ -n "$metric" ] && [ "$sysline" -lt "$metric" ]; then
    ok "'evmbench $cmd_compare': the DDR change first, then the metrics"
else
    fail "results compare: status $st"
fi

# --- better is said, and never fails -----------------------------------------
board 1500 1400 30
ev_page "$cmd_after" --sysroot "$SYS/am62x-ddr1600"
if [ "$st" -eq 0 ] && verdict | grep -q '^Verdict: AS FAST AS BEFORE: all 3 metrics .* 1 is faster\.' &&
    grep -Eq "$(moved_re lat -2 us faster)\$" "$tmp/out"; then
    ok "a latency 25% lower: as fast as before, and said to be better"
else
    fail "better: status $st, verdict '$(verdict)'"
fi

# --- without a baseline: against the guide ---------------------------------
# one run, no spread: the guide's words exactly
export EVMBENCH_CHECK_CV=0
board 1250 1160 43
ev run --profile quick --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1333"
if [ "$st" -eq 1 ] &&
    [ "$(verdict)" = "Verdict: SLOWER THAN THE GUIDE: 2 of 3 metrics compared with the guide are worse by more than 10%." ] &&
    has "  ddrcheck copy: 16.7% worse than the guide (1250 MB/s, guide 1500)" &&
    has "  ddrcheck triad: 10.8% worse than the guide (1160 MB/s, its band from 1300)" &&
    grep -q '^System: DDR 1333 MT/s (clk_summary), ' "$tmp/out"; then
    ok "no baseline: SLOWER THAN THE GUIDE, against its number and its band, and the system"
else
    fail "no baseline: status $st, verdict '$(verdict)'"
fi
board 1500 1400 40
ev run --profile quick --fail-on-deviation 10 --sysroot "$SYS/am62x-ddr1600"
if [ "$st" -eq 0 ] &&
    [ "$(verdict)" = "Verdict: AS FAST AS THE GUIDE: all 3 metrics compared with the guide are within 10% of it or better." ]; then
    ok "no baseline, the guide's numbers met: AS FAST AS THE GUIDE, status 0"
else
    fail "no baseline, as the guide: status $st, verdict '$(verdict)'"
fi

# --- what does not go with --check -----------------------------------------
for bad in "--check --demo" "--check --run stream" "--fail-on-deviation 10"; do
    ev_page "$bad"
    if [ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -q -- "--check\|--fail-on-deviation" "$tmp/err"; then
        ok "'evmbench $bad' is a usage error (status 2), said in one line"
    else
        fail "'evmbench $bad': status $st"
    fi
done

finish check_e2e
