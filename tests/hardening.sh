#!/bin/sh
# hardening.sh - the bad-input catalogue and the signals of a command-line
# run (the TUI's signals are in tui_e2e.sh). Every case: a clear message
# naming the file, a non-zero exit where the input was needed, no crash
# (no exit by a signal the program did not get), no worker left, finished
# results kept in the store.
#
# Environment (set by 'make check'): EVMBENCH_BIN, EVMBENCH_WRAPPER (e.g.
# qemu-aarch64, may be empty), EVMBENCH_DATADIR, TESTS_DATA.
# Exit: 0 pass, 1 fail.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

program_env
make_tmp hardening
# a case that does not end within $limit s hung (ev, ev_user): the whole
# script fails, whatever the case expected
limit=${HARDENING_TIMEOUT:-300}
root=no
[ "$(id -u)" -eq 0 ] && root=yes

# --- guide files ----------------------------------------------------------
# evg ARGS...: ev for one import-guide case: the output removed first, so a
# check never reads what an earlier case wrote, and a hang (ev) or a crash
# is a failure.
evg() {
    rm -f "$tmp/o.json"
    ev import-guide "$@"
    [ "$st" -lt 128 ] || fail "import-guide $* crashed (status $st)"
}
: >"$tmp/empty.txt"
# cut in the middle of the UDP table's last row: "1518 957.07 34.40"
head -c 590 "$DATA/guides/rows.txt" >"$tmp/truncated.txt"
# random bytes without a line end: the refusal names line 1 whatever the draw
head -c 65536 /dev/urandom | tr -d '\n' >"$tmp/binary.txt"
# a 1 GB sparse file: refused at once, never read into memory
dd if=/dev/zero of="$tmp/huge.txt" bs=1 count=0 seek=1G 2>/dev/null
evg "$tmp/empty.txt" -o "$tmp/o.json"
expect_fail 1 "empty.txt:1: empty file; not a guide" "an empty guide is refused"
evg "$tmp/truncated.txt" -o "$tmp/o.json"
expect_ok "a truncated guide is imported as far as it goes"
rows=$(grep -c '"key": \[' "$tmp/o.json" 2>/dev/null)
[ "${rows:-0}" -eq 5 ] && ok "... its 5 rows before the cut are in the output" ||
    fail "a truncated guide: ${rows:-no} rows imported, wanted 5"
grep -q 'truncated.txt:34: the file ends without a line end inside table .*looks truncated; its last row may be incomplete and the rows after it are missing' "$tmp/err" &&
    grep -q 'truncated.txt:34: table "UDP Throughput": row .*: a guess: 1 of 2 value cells, in the first column; check the guide' "$tmp/err" &&
    ok "... and the cut row and the missing rows are reported" || fail "a truncated guide: the cut is not reported"
evg "$tmp/binary.txt" -o "$tmp/o.json"
expect_fail 1 "binary.txt:1: binary data .*not a guide" "a binary file is refused as a guide"
evg "$tmp/huge.txt" -o "$tmp/o.json"
expect_fail 1 "huge.txt: larger than 64 MB; not a guide" "a 1 GB sparse guide is refused"
# Not read: the bytes read (rchar) by a shell and the program it waited
# for, from the kernel's I/O accounting, stay far below the file's size,
# however fast the machine reads.
# shellcheck disable=SC2016  # expanded by the inner shell
rchar=$(sh -c '"$@" >/dev/null 2>&1 </dev/null
    while read -r k v; do [ "$k" = rchar: ] && echo "$v"; done </proc/$$/io' \
    sh timeout -k 10 "$limit" $WRAP "$BIN" import-guide "$tmp/huge.txt" -o "$tmp/o.json" 2>/dev/null)
if [ -z "$rchar" ]; then
    skip "... without reading it: no /proc/PID/io (I/O accounting) in this kernel"
elif [ "$rchar" -lt 8388608 ]; then
    ok "... without reading it ($rchar bytes read in all)"
else
    fail "the 1 GB guide was read: $rchar bytes read"
fi
# 100 000 board columns ("b-N: perf"), as rows and as a Markdown table:
# real guides, so the wide header reaches each reader, and each keeps them.
awk 'BEGIN {
    printf "3.1. Benchmarks\n\n";
    printf "Benchmarks";  for (i = 0; i < 100000; i++) printf " b-%d: perf", i; printf "\n";
    printf "copy (MB/s)"; for (i = 0; i < 100000; i++) printf " %d.5", i; printf "\n\nTable: Wide\n";
}' >"$tmp/wide.txt"
awk 'BEGIN {
    printf "# Guide\n\n## Stream\n\n|Benchmarks|";
    for (i = 0; i < 100000; i++) printf " b-%d: perf |", i; printf "\n|---|";
    for (i = 0; i < 100000; i++) printf "---|"; printf "\n| copy (MB/s) |";
    for (i = 0; i < 100000; i++) printf " %d.5 |", i; printf "\n";
}' >"$tmp/wide.md"
evg "$tmp/wide.txt" -o "$tmp/o.json"
expect_ok "a rows guide of 100 000 board columns is imported (no hang)"
[ "$(grep -c '"board": "b-[0-9]*"' "$tmp/o.json")" -eq 100000 ] &&
    grep -q '"header": "b-99999: perf"' "$tmp/o.json" && grep -q '"avg": 99999.5' "$tmp/o.json" &&
    ok "... and this run's output keeps all 100 000 columns and their values" ||
    fail "the wide rows table lost columns or values"
evg "$tmp/wide.md" -o "$tmp/o.json"
expect_ok "a Markdown table of 100 000 columns is imported"
[ "$(grep -c '"header": "b-[0-9]*: perf"' "$tmp/o.json")" -eq 100000 ] && grep -q '"b-99999: perf"' "$tmp/o.json" &&
    ok "... and this run's output keeps all 100 000 columns" || fail "the wide table lost columns"
# Setext headings ("---" underlines) with pipe tables: Markdown, not rst
printf 'Gadget Performance Guide\n========================\n\nStream\n------\n\n| Benchmarks | a-b: perf |\n|---|---|\n| copy (MB/s) | 1.5 |\n\nDhrystone\n---------\n\nNone yet.\n' >"$tmp/setext.md"
evg "$tmp/setext.md" -o "$tmp/o.json"
expect_ok "a setext Markdown guide is imported"
grep -q '"layout": "markdown"' "$tmp/o.json" && grep -q '"copy"' "$tmp/o.json" &&
    ok "... as Markdown, with its table" || fail "a setext Markdown guide was not read as Markdown"
# a guide whose headings are all there but that has no table: exit 1, why
printf 'Gadget Performance Guide\n========================\n\nStream\n------\n\nText.\n\nDhrystone\n---------\n' >"$tmp/notables.md"
evg "$tmp/notables.md" -o "$tmp/o.json"
expect_fail 1 "notables.md:1: no tables imported: layout rst \(detected from .*\) found no table" \
    "a guide with no table is an error that names the layout and why"
[ ! -e "$tmp/o.json" ] && ok "... and no file is written" || fail "an import of no table wrote a file"

# --- reference files: named; fatal for `refs`, not for the benchmarks -----
printf '{"format": "evmbench-refs/1", "tables": [' >"$tmp/nested.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' \
    >>"$tmp/nested.json"
printf ']}\n' >>"$tmp/nested.json"
head -c 300 "$DATA/refs/good.json" >"$tmp/truncated.json"
cp "$tmp/empty.txt" "$tmp/empty.json"
cp "$tmp/binary.txt" "$tmp/binary.json"
dd if=/dev/zero of="$tmp/huge.json" bs=1 count=0 seek=1G 2>/dev/null
for f in empty truncated binary nested huge; do
    ev refs --refs "$tmp/$f.json"
    expect_fail 1 "$f.json:.*" "a bad reference file ($f) is named"
    grep -q "no reference file could be loaded from $tmp/$f.json" "$tmp/err" ||
        fail "a bad reference file ($f) is fatal"
    ok "... and fatal, with a clear message ($f)"
done
ev refs --refs "$tmp/nested.json"
expect_fail 1 "nested.json:1:[0-9]+: maximum parsing depth reached" \
    "deeply nested JSON is reported with its position"
ev refs --refs "$tmp/huge.json"
expect_fail 1 "huge.json: larger than 64 MB; not a reference file" "a 1 GB reference file is refused unread"
ev list --refs "$tmp/binary.json"
expect_fail 1 "no reference file could be loaded from .*binary.json" \
    "list with no loadable --refs fails (its categories are the guides')"
if grep -Eq "binary.json:[0-9]+:[0-9]+: " "$tmp/err"; then ok "... and names the bad file"; else
    fail "list --refs bad: file not named"; fi
ev sysinfo --refs "$tmp/binary.json"
expect_ok "sysinfo with a bad --refs still works (the board needs no references)"
if grep -q "binary.json:" "$tmp/err"; then ok "... and names the bad file"; else
    fail "sysinfo --refs bad: file not named"; fi

# --- result files in the store --------------------------------------------
mkdir -p "$tmp/runs-bad/runs"
dd if=/dev/zero of="$tmp/runs-bad/runs/huge.evmrun" bs=1 count=0 seek=1G 2>/dev/null
head -c 4096 /dev/urandom >"$tmp/runs-bad/runs/binary.evmrun"
: >"$tmp/runs-bad/runs/empty.evmrun"
# a run cut short: two sound rows, one broken line between them, and a
# last line cut in the middle
row='{"row":{"bench":"lmbench","metric":"%s","unit":"us","samples":11,"min":%s,"max":%s,"avg":%s,"stddev":0.01,"median":%s,"value":%s,"summary":"median","ref_avg":null,"ref_min":null,"ref_max":null,"ref_source":null,"deviation_pct":null,"better":null,"verdict":"none","status":"ok","error":null,"provider":"kernel:lat_syscall"}}\n'
{
    printf '{"format": "evmbench-run/1", "id": "x", "started": "2026-01-01T00:00:00Z"}\n'
    # shellcheck disable=SC2059  # the format is $row
    printf "$row" lat_syscall-null 0.16 0.19 0.17 0.171 0.171
    printf '{"row":{"bench":"lmbench","metric":"lat_sysc\n'
    # shellcheck disable=SC2059
    printf "$row" lat_syscall-read 0.21 0.54 0.3 0.257 0.257
    printf '{"bench": "str'
} >"$tmp/runs-bad/runs/20260101-000000-truncated.evmrun"
ev results list --results-dir "$tmp/runs-bad"
expect_ok "a store with bad run files still lists"
for m in "huge.evmrun: larger than 64 MB; not a run file" "binary.evmrun: not a run file \(binary data\)" \
         "empty.evmrun: empty, not a run file" "truncated.evmrun:3:[0-9]+: skipped" \
         "truncated.evmrun:5:[0-9]+: skipped"; do
    grep -Eq "$m" "$tmp/err" || fail "bad run file not reported: /$m/"
done
ok "... each bad run file is named with the reason (1 GB sparse, binary, empty, truncated)"
grep -Eq '^20260101-000000-truncated +incomplete +- +2$' "$tmp/out" ||
    fail "the truncated run is not listed as incomplete with its 2 sound rows"
ev results show 20260101-000000-truncated --results-dir "$tmp/runs-bad" --format csv
expect_ok "the truncated run can be shown"
grep -q '^lmbench,lat_syscall-null,us,0.171,11,' "$tmp/out" &&
    grep -q '^lmbench,lat_syscall-read,us,0.257,11,' "$tmp/out" &&
    [ "$(grep -c '^lmbench,' "$tmp/out")" -eq 2 ] ||
    fail "the sound rows of the truncated run are not all shown, or a broken one is"
grep -Eq "truncated.evmrun:3:[0-9]+: skipped" "$tmp/err" && grep -Eq "truncated.evmrun:5:[0-9]+: skipped" "$tmp/err" ||
    fail "results show does not report the broken lines 3 and 5 of the truncated run"
ok "... and the sound lines of a truncated run are kept (2 rows; lines 3 and 5 reported)"

# --- sysfs and the device tree --------------------------------------------
mkdir -p "$tmp/sys-nul/proc/device-tree" "$tmp/sys-empty"
printf 'Texas\000Instruments\001\033[2J AM62x\000' >"$tmp/sys-nul/proc/device-tree/model"
printf 'ti,am625-sk\000\000\377ti,am625\000' >"$tmp/sys-nul/proc/device-tree/compatible"
for fmt in text json; do
    ev sysinfo --sysroot "$tmp/sys-nul" --format "$fmt"
    expect_ok "NUL and control bytes in device-tree strings ($fmt)"
    if LC_ALL=C grep -q '[^[:print:][:space:]]' "$tmp/out" || tr -d '\n\t ' <"$tmp/out" | LC_ALL=C grep -q "$(printf '\033')"; then
        fail "sysinfo printed a control byte from the device tree ($fmt)"
    fi
    ok "... only printable text reaches the output ($fmt)"
done
ev sysinfo --sysroot "$tmp/sys-empty"
expect_ok "missing sysfs, /proc and device tree files"
grep -q 'unknown' "$tmp/out" && ok "... the board is reported unknown" || fail "an empty sysroot is not reported unknown"

# --- unreadable files (permission denied) ---------------------------------
# As an unprivileged user (as_user), also when the tests run as root.
as_user test -r "$tmp" -a -x "$tmp" ||
    fail "uid $(as_user id -u) cannot read $tmp: the permission cases need it (a directory on its path is not searchable)"
cp "$DATA/guides/rows.txt" "$tmp/noperm.txt"
cp "$DATA/refs/good.json" "$tmp/noperm.json"
chmod 000 "$tmp/noperm.txt" "$tmp/noperm.json"
mkdir -p "$tmp/user" && chmod 777 "$tmp/user"
ev_user import-guide "$tmp/noperm.txt" -o "$tmp/user/o.json"
expect_fail 1 "noperm.txt: Permission denied" "an unreadable guide is named with the reason (uid $(as_user id -u))"
ev_user refs --refs "$tmp/noperm.json"
expect_fail 1 "noperm.json: Permission denied" "an unreadable reference file is named and fatal (uid $(as_user id -u))"

# --- a results directory that cannot be written ---------------------------
# The results are printed all the same; the store is a warning, not fatal.
touch "$tmp/in-the-way"
mkdir -p "$tmp/readonly" && chmod 555 "$tmp/readonly"
for dir in "$tmp/in-the-way" /proc/evmbench-results "$tmp/readonly/sub"; do
    case $dir in
    */readonly/*) ev_user run lat_syscall --quick --provider kernel --results-dir "$dir" ;;
    *) ev run lat_syscall --quick --provider kernel --results-dir "$dir" ;;
    esac
    expect_ok "a results directory that cannot be written ($dir) does not stop the run"
    grep -q "warning: results not saved: cannot create $dir" "$tmp/err" ||
        fail "the unwritable results directory $dir is not named"
    grep -Eq '^lat_syscall-null +[0-9.]+ us' "$tmp/out" ||
        fail "the results are lost when $dir cannot be written"
    ok "... it is named, and the results are printed all the same"
done

# --- the TUI without a usable terminal ------------------------------------
ev
expect_fail 1 "the TUI needs a terminal" "stdin not a terminal: a clear message, exit 1, no hang"
if command -v script >/dev/null 2>&1 && [ -z "$WRAP" ]; then
    # script(1) gives the program a terminal; -e passes its exit status on
    timeout -k 10 "$limit" script -eqc "env -u TERM '$BIN'" /dev/null </dev/null >"$tmp/err" 2>&1
    st=$?
    hung "$st" "evmbench with TERM unset"
    expect_fail 1 "TERM is not set; set it \(e\.g\. TERM=vt100\)" "TERM unset: a clear message and exit 1"
    timeout -k 10 "$limit" script -eqc "env TERM=no-such-terminal '$BIN'" /dev/null </dev/null >"$tmp/err" 2>&1
    st=$?
    hung "$st" "evmbench with TERM=no-such-terminal"
    expect_fail 1 "need a terminfo entry for TERM=no-such-terminal" "an invalid TERM: a clear message and exit 1"
else
    skip "TERM unset or invalid: needs script(1) and a native binary"
fi

# --- signals at random points of a command-line run -----------------------
# The program runs in a session of its own, so every worker it started can
# be found afterwards. Each finished benchmark's rows must be in the store:
# as many as were printed, or more (a row is stored before it is printed).
rand_ms() { awk -v s="$1" -v max="$2" 'BEGIN { srand(s); printf "%d", rand() * max }'; }
# A background job of a script starts with SIGINT ignored; a user's Ctrl-C
# reaches a program that has it at the default: env restores that.
nointr=""
env --default-signal=INT true 2>/dev/null && nointr="env --default-signal=INT"
# Live processes only: a killed worker whose parent has exited is a zombie
# until PID 1 reaps it, which in a container may be never.
session_left() { ps -eo sid=,stat=,pid= | awk -v s="$1" '$1 == s && $2 !~ /^Z/ { n++ } END { print n + 0 }'; }
printed_rows() { awk '/^METRIC /{t=1; next} /^$/{t=0} t && /^[^ ]/{n++} END{print n+0}' "$1"; }
# wait_bg PID WHAT: waits for the background job PID, status in $st; one
# still running after $limit s hung: it is killed and the script fails.
wait_bg() {
    end=$(($(date +%s) + limit))
    while ps -o stat= -p "$1" 2>/dev/null | grep -q '^[^Z]'; do
        if [ "$(date +%s)" -ge "$end" ]; then
            kill -KILL "$1" 2>/dev/null
            wait "$1"
            fail "$2 hung: still running after $limit s"
        fi
        sleep 0.1
    done
    wait "$1" 2>/dev/null           # not the shell's word on the signal
    st=$?
}
# gone CMD...: polls CMD, which prints a count, until it prints 0 ($limit s
# at most: a loaded machine is slow to reap); the last count in $left.
gone() {
    end=$(($(date +%s) + limit))
    while left=$("$@") && [ "$left" -ne 0 ] && [ "$(date +%s)" -lt "$end" ]; do
        sleep 0.2
    done
}
marked() { pgrep -f -- "$1" | wc -l; }
seed=$(($(date +%s) % 100000))
k=0
for sig in INT TERM HUP; do
    [ "$sig" = INT ] && [ -z "$nointr" ] && { skip "SIGINT: env --default-signal is missing"; continue; }
    for round in 1 2; do
        k=$((k + 1))
        ms=$(rand_ms $((seed * 7 + k)) 4000)
        rm -rf "$tmp/store"
        # shellcheck disable=SC2086
        setsid $nointr $WRAP "$BIN" run stream dhrystone whetstone --quick --provider kernel \
            --results-dir "$tmp/store" >"$tmp/out" 2>"$tmp/err" </dev/null &
        pid=$!
        sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
        kill -"$sig" "$pid" 2>/dev/null
        wait_bg "$pid" "the run after SIG$sig at ${ms} ms"
        case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
        # finished before the signal: 0, or 3 when a benchmark failed
        case $st in "$want" | 0 | 3) ;; *) fail "SIG$sig after ${ms} ms: status $st (wanted $want)" ;; esac
        run_st=$st
        gone session_left "$pid"
        [ "$left" -eq 0 ] || fail "SIG$sig after ${ms} ms: $left processes of the run are left"
        printed=$(printed_rows "$tmp/out")
        ev results list --results-dir "$tmp/store"
        stored=$(awk 'NR > 1 { print $NF }' "$tmp/out")
        [ "${stored:-0}" -ge "$printed" ] ||
            fail "SIG$sig after ${ms} ms: $printed rows printed, ${stored:-none} stored"
        echo "# seed $seed" >&2
        ok "SIG$sig after ${ms} ms: status $run_st, no process left, $printed printed rows stored (${stored:-0})"
    done
done

# --- SIGPIPE: stdout piped to head ----------------------------------------
# A reader that has gone ends the program as it ends `ls`: killed by
# SIGPIPE (status 141) at its next write, with nothing on stderr about
# it - no "Broken pipe", no write error. The finished rows are kept.
# Noise: a line on stderr about the closed output.
pipe_noise() { grep -Ei 'error|broken pipe|EPIPE|cannot write|write failed' "$1"; }
rm -rf "$tmp/store"
# head exits after the first line (the board line, printed before the
# first benchmark); the next write, after the STREAM run, finds no reader.
# shellcheck disable=SC2086
{ timeout -k 10 "$limit" setsid $WRAP "$BIN" run stream dhrystone --quick --provider kernel \
    --results-dir "$tmp/store" 2>"$tmp/err" </dev/null; echo $? >"$tmp/status"; } | head -n 1 >/dev/null
st=$(cat "$tmp/status")
hung "$st" "run | head -n 1"
[ "$st" -eq 141 ] || fail "run | head -n 1: status $st, wanted 141 (killed by SIGPIPE)"
! pipe_noise "$tmp/err" || fail "run | head -n 1: stderr speaks of the closed output"
ok "run | head -n 1 ends by SIGPIPE (status 141), nothing on stderr about it"
gone marked "$tmp/store"
[ "$left" -eq 0 ] || fail "$left processes of the run are left after SIGPIPE"
ok "... and no worker is left"
ev results list --results-dir "$tmp/store"
stored=$(awk 'NR > 1 { print $NF }' "$tmp/out")
[ "${stored:-0}" -ge 4 ] && ok "... the finished STREAM rows are in the store ($stored rows)" ||
    fail "SIGPIPE lost the finished rows (${stored:-none} stored)"
# list: its whole output may fit in the pipe before head has read a line,
# so the reader closes first, and says so through a FIFO before list starts.
mkfifo "$tmp/sync"
# shellcheck disable=SC2086
{ read -r _ <"$tmp/sync"; timeout -k 10 "$limit" $WRAP "$BIN" list 2>"$tmp/err"; echo $? >"$tmp/status"; } |
    { exec <&-; echo closed >"$tmp/sync"; }
st=$(cat "$tmp/status")
hung "$st" "list | (a reader that has gone)"
[ "$st" -eq 141 ] || fail "list into a pipe without reader: status $st, wanted 141 (killed by SIGPIPE)"
[ ! -s "$tmp/err" ] || fail "list into a pipe without reader: stderr is not empty"
ok "list into a pipe without reader ends by SIGPIPE (status 141), stderr empty"
{ timeout -k 10 "$limit" $WRAP "$BIN" list 2>"$tmp/err"; echo $? >"$tmp/status"; } | head -n 1 >/dev/null
st=$(cat "$tmp/status")
hung "$st" "list | head -n 1"
# whether list had written all before head exited decides 0 or 141
case $st in 0 | 141) ;; *) fail "list | head -n 1: status $st, wanted 141 or 0 (all written before head exited)" ;; esac
[ ! -s "$tmp/err" ] || fail "list | head -n 1: stderr is not empty"
ok "list | head -n 1 ends quietly (status $st: SIGPIPE, or all written first), stderr empty"

# --- signals while a tool runs: nothing of it is left -----------------------
# evmbench(1), SIGNALS: each stop signal ends the worker's process group (the
# tool and its children), removes the run's work directory and the -o
# temporary, keeps the finished rows, and the program dies of that signal.
# lx_ok finishes first; the stand-in lx_linger (tests/data/tools/linger)
# leaves a read-only directory in its work directory, starts a child and
# waits. TMPDIR is a fresh directory, on the command line of every process
# of the tool: it marks them. The signal is sent once the tool says it is
# running. One case runs as uid 65534, who cannot empty that read-only
# directory without opening it first (root can).
dflt=""
env --default-signal true 2>/dev/null && dflt="env --default-signal"
if [ "$root" = yes ] && ! command -v setpriv >/dev/null 2>&1; then
    fail "setpriv (util-linux) is missing: the signal case cannot run as uid 65534"
fi
L="$tmp/linger"
mkdir -p "$L/data/tools" "$L/bin"
cp "$DATA/tools/linger/linger.json" "$L/data/tools/"
cp "$DATA/refs/good.json" "$L/"
cp "$DATA/tools/linger/lx_ok" "$DATA/tools/linger/lx_linger" "$L/bin/"
chmod -R a+rX "$L"
ev_user --version                   # the copy of the program uid 65534 runs
linger_sids=""
# at exit, after a failed case: what a run left in its session goes
# shellcheck disable=SC2317  # called by lib.sh's trap
at_exit() {
    for s in $linger_sids; do
        ps -eo sid=,pid= | awk -v s="$s" '$1 == s { print $2 }' | xargs -r kill -KILL 2>/dev/null
    done
}
# linger_case SIG NUMBER [user]: a run stopped by SIG while lx_linger runs
linger_case() {
    c="$L/$1${3:+-$3}"
    mkdir -p "$c/tmp" "$c/out"
    echo "old report" >"$c/out/report.txt"
    prog=$BIN asu=""
    if [ -n "${3:-}" ]; then
        prog=$tmp/bin/evmbench
        [ "$root" = yes ] && chown -R 65534:65534 "$c" &&
            asu="setpriv --reuid=65534 --regid=65534 --clear-groups"
    fi
    # shellcheck disable=SC2086  # the commands before the program, maybe empty
    TMPDIR="$c/tmp" EVMBENCH_DATADIR="$L/data" $asu setsid $dflt $WRAP "$prog" run lx_ok \
        lx_linger --provider tool --tools-dir "$L/bin" --refs "$L/good.json" \
        --results-dir "$c/store" -o "$c/out/report.txt" >"$tmp/out" 2>"$tmp/err" </dev/null &
    pid=$!
    linger_sids="$linger_sids $pid"
    end=$(($(date +%s) + limit))
    while [ -z "$(find "$c/tmp" -name running 2>/dev/null)" ] && [ "$(date +%s)" -lt "$end" ] &&
        ps -p "$pid" >/dev/null; do
        sleep 0.05
    done
    [ -n "$(find "$c/tmp" -name running)" ] || fail "SIG$1${3:+ as $3}: lx_linger did not start"
    kill -"$1" "$pid"
    wait_bg "$pid" "the run after SIG$1"
    [ "$st" -eq $(($2 + 128)) ] || fail "SIG$1 while a tool runs: status $st, wanted $(($2 + 128))"
    cp "$tmp/err" "$c/err"
    gone marked "$c/tmp"
    [ "$left" -eq 0 ] || fail "SIG$1 left $left processes of the tool: $(pgrep -af -- "$c/tmp")"
    gone session_left "$pid"
    [ "$left" -eq 0 ] || fail "SIG$1 left $left processes of the run"
    [ -z "$(ls -A "$c/tmp")" ] || fail "SIG$1 left in TMPDIR: $(find "$c/tmp" | head -n 5)"
    [ "$(cat "$c/out/report.txt")" = "old report" ] && [ "$(ls -A "$c/out")" = report.txt ] ||
        fail "SIG$1: -o FILE changed or has a temporary beside it: $(ls -A "$c/out")"
    ev results show latest --results-dir "$c/store"
    [ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && has "incomplete" && grep -q '^bw  .* 12\.50 ' "$tmp/out" ||
        fail "SIG$1: the run file is not a readable unfinished run with lx_ok's row"
    if [ "$1" = PIPE ]; then
        ! pipe_noise "$c/err" && grep -q 'cancelled: stopped: the reader of the output went away' "$c/err" ||
            fail "SIGPIPE: stderr speaks of a write error, or not of the reader"
    else
        grep -q "lx_linger cancelled: stopped by signal $2 " "$c/err" &&
            grep -q "^evmbench: stopped by signal $2 " "$c/err" ||
            fail "SIG$1: stderr does not say that it stopped the run"
    fi
    ok "SIG$1${3:+ as $3} while a tool runs: status $(($2 + 128)), no process, TMPDIR empty, -o FILE as it was, the finished row stored"
}
for sig in TERM:15 INT:2 HUP:1 QUIT:3 USR1:10 USR2:12 PIPE:13 ALRM:14; do
    case $sig in INT:* | QUIT:*) [ -n "$dflt" ] || { skip "SIG${sig%:*}: env --default-signal is missing"; continue; } ;; esac
    linger_case "${sig%:*}" "${sig#*:}"
done
linger_case TERM 15 nobody

# --- non-regular files and UTF-8 ---------------------------------------------
# A FIFO (or a directory) where a file is read is never opened for a
# blocking read: skipped with its name in a listing, refused when named.
# A hang (timeout's 124 or 137 after $limit s) is a failure.
# nr EXPECTED-STATUS ARGS...: the program (ev); status in $st.
nr() {
    want=$1
    shift
    ev "$@"
    [ "$st" -eq "$want" ] || fail "evmbench $*: status $st, wanted $want"
}
mkdir -p "$tmp/odd/runs/dir.evmrun" "$tmp/odd-sys/proc/device-tree" "$tmp/odd-cfg/evmbench"
printf '{"format": "evmbench-run/1", "id": "a", "started": "2026-01-01T00:00:00Z"}\n{"end": "2026-01-01T00:00:01Z"}\n' \
    >"$tmp/odd/runs/20260101-000000-a.evmrun"
mkfifo "$tmp/odd/runs/x.evmrun" "$tmp/fifo.txt" "$tmp/fifo.json" "$tmp/fifo.log" \
    "$tmp/fifo.profile" "$tmp/odd-cfg/evmbench/config" "$tmp/odd-sys/proc/cpuinfo" \
    "$tmp/odd-sys/proc/device-tree/model" "$tmp/odd-sys/proc/device-tree/compatible"
nr 0 results list --results-dir "$tmp/odd"
if grep -q "x.evmrun: not a regular file (a FIFO); skipped" "$tmp/err" &&
    grep -q "dir.evmrun: not a regular file (a directory); skipped" "$tmp/err" &&
    grep -q '^20260101-000000-a ' "$tmp/out"; then
    ok "results list: a FIFO and a directory named *.evmrun are skipped and named"
else
    fail "results list: the FIFO or the directory in the store is not reported"
fi
nr 0 results prune --keep 0 --results-dir "$tmp/odd"
if [ -p "$tmp/odd/runs/x.evmrun" ] && [ -d "$tmp/odd/runs/dir.evmrun" ] &&
    [ ! -e "$tmp/odd/runs/20260101-000000-a.evmrun" ] &&
    grep -q "x.evmrun: not a regular file (a FIFO); skipped" "$tmp/err"; then
    ok "results prune: the run is pruned, the FIFO and the directory are named and left"
else
    fail "results prune with a FIFO in the store"
fi
nr 1 results show "$tmp/odd/runs/x.evmrun" --results-dir "$tmp/odd"
expect_fail 1 "x.evmrun: not a regular file \(a FIFO\)" "results show FIFO is refused"
nr 1 import-guide "$tmp/fifo.txt" -o "$tmp/o.json"
expect_fail 1 "fifo.txt: not a regular file \(a FIFO\)" "import-guide FIFO is refused"
nr 1 results import "$tmp/fifo.log" --tool stream --results-dir "$tmp/odd"
expect_fail 1 "fifo.log: not a regular file \(a FIFO\)" "results import FIFO is refused"
nr 1 refs --refs "$tmp/fifo.json"
expect_fail 1 "fifo.json: not a regular file \(a FIFO\)" "refs --refs FIFO is refused"
nr 2 run --profile "$tmp/fifo.profile" --no-save
expect_fail 2 "fifo.profile: .*not a regular file \(a FIFO\)" "run --profile FIFO is refused"
nr 0 sysinfo --sysroot "$tmp/odd-sys"
if grep -q 'unknown' "$tmp/out"; then
    ok "sysinfo: FIFOs for /proc/cpuinfo and the device tree are not read; the board is unknown"
else
    fail "sysinfo with FIFOs in the sysroot does not report an unknown board"
fi
# shellcheck disable=SC2086
XDG_CONFIG_HOME="$tmp/odd-cfg" timeout -k 10 "$limit" $WRAP "$BIN" >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
hung "$st" "the screens with a settings file that is a FIFO"
expect_fail 1 "config: .*not a regular file \(a FIFO\)" "a settings file that is a FIFO is named"
# --- command line ---------------------------------------------------------
# Started with stdout or stderr closed, the program opens /dev/null onto
# them first: the store's run file never becomes fd 1 or 2 and never holds
# the table or progress lines. Output meant for a closed stdout is an error.
# store_sound DIR: DIR holds run files, each line of each a JSON object
# with no table or progress text.
store_sound() {
    set -- "$1"/runs/*.evmrun
    [ -f "$1" ] || return 1
    for f in "$@"; do
        grep -qv '^{' "$f" && return 1
        grep -q '"row"' "$f" || return 1
    done
    return 0
}
# shellcheck disable=SC2086
timeout -k 10 "$limit" $WRAP "$BIN" run stream --quick --provider kernel --results-dir "$tmp/fd2" \
    </dev/null >"$tmp/out" 2>&-
st=$?
hung "$st" "run with stderr closed"
if [ "$st" -ne 0 ] || ! grep -q '^copy ' "$tmp/out"; then
    fail "2>&-: run status $st, or no table on stdout"; fi
if store_sound "$tmp/fd2"; then ok "stderr closed: the run file holds only rows, no progress lines"
else fail "stderr closed: progress lines went into the run file: $(head -c 300 "$tmp"/fd2/runs/*)"; fi
# shellcheck disable=SC2086
timeout -k 10 "$limit" $WRAP "$BIN" run stream --quick --provider kernel --results-dir "$tmp/fd0" \
    -o "$tmp/fd0.txt" <&- >&- 2>&-
st=$?
hung "$st" "run with stdin, stdout and stderr closed"
if [ "$st" -ne 0 ] || ! grep -q '^copy ' "$tmp/fd0.txt"; then
    fail "<&- >&- 2>&- -o FILE: status $st, or no table in FILE"; fi
if store_sound "$tmp/fd0"; then ok "stdin, stdout and stderr closed, -o FILE: the table in FILE, the run file sound"
else fail "all three closed: the run file is not sound: $(head -c 300 "$tmp"/fd0/runs/*)"; fi
for args in "run stream --quick --provider kernel --results-dir $tmp/fd1" "list --format json" \
           "refs" "--version"; do
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" $WRAP "$BIN" $args </dev/null >&- 2>"$tmp/err"
    st=$?
    hung "$st" "'$args' with stdout closed"
    expect_fail 1 "standard output is closed" "stdout closed: '$args' says so and exits 1"
done
if [ -d "$tmp/fd1/runs" ] && grep -rqv '^{' "$tmp/fd1/runs"; then
    fail "stdout closed: the table went into the run file: $(head -c 300 "$tmp"/fd1/runs/*)"
fi
ok "... and no table went into the results store"

# --- output files -----------------------------------------------------------
# Nothing but the target is written: a link planted at the temporary's
# old name is not followed, device nodes and FIFOs stay what they are, a
# directory is refused; no temporary is left, a signal or a write error
# leaves the old file; output that cannot be written is an error.
od="$tmp/outdir"
mkdir -p "$od"
# leftovers: the names in $od other than the expected ones ($@)
leftovers() {
    for f in "$od"/* "$od"/.[!.]*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        case " $* " in *" ${f##*/} "*) ;; *) printf '%s ' "${f##*/}" ;; esac
    done
}
guide="$DATA/guides/rows.txt"
echo "victim" >"$od/victim"
# the link is planted at OUT.tmp<PID>, the PID the program will have
# shellcheck disable=SC2016,SC2086
timeout -k 10 "$limit" sh -c 'ln -s "$1" "$2.tmp$$" && shift 2 && exec "$@"' sh "$od/victim" \
    "$od/o.json" $WRAP "$BIN" import-guide "$guide" -o "$od/o.json" >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
hung "$st" "import-guide -o with a link planted at a temporary's name"
[ "$st" -eq 0 ] || fail "import-guide -o with a link planted at a temporary's name: status $st"
[ "$(cat "$od/victim")" = victim ] || fail "the link planted at the temporary's name was followed"
rm -f "$od"/o.json.tmp*             # the planted link, if it is still there
if [ ! -f "$od/o.json" ] || [ -L "$od/o.json" ] || ! grep -q '"tables"' "$od/o.json"; then
    fail "-o is not the imported guide"; fi
[ -z "$(leftovers victim o.json)" ] || fail "a temporary is left after success: $(leftovers victim o.json)"
ok "import-guide -o: a link planted at a temporary's name is not followed, no temporary is left"
# a FIFO and a character device receive the output and stay nodes
mkfifo "$od/fifo"
timeout 30 cat "$od/fifo" >"$od/from-fifo" &
reader=$!
ev import-guide "$guide" -o "$od/fifo"
wait "$reader"                      # at most 30 s when the FIFO was replaced
if [ "$st" -eq 0 ] && [ -p "$od/fifo" ] && grep -q '"tables"' "$od/from-fifo"; then
    ok "import-guide -o FIFO: the FIFO gets the guide and stays a FIFO"
else
    fail "import-guide -o FIFO: status $st, or the FIFO did not get the guide or is no FIFO now"
fi
if [ "$root" = yes ]; then
    if ! mknod "$od/null" c 1 3 || ! mknod "$od/full" c 1 7; then fail "mknod as root failed"; fi
    null="$od/null" full="$od/full"
else
    # not root: the system's nodes, whose directory the program cannot write
    null=/dev/null full=/dev/full
fi
ev import-guide "$guide" -o "$null"
if [ "$st" -eq 0 ] && [ -c "$null" ]; then
    ok "import-guide -o a null device: it stays a character device"
else
    fail "import-guide -o $null: status $st, or it is no character device now"
fi
ev import-guide "$guide" -o "$full"
[ -c "$full" ] || fail "import-guide -o $full: it is no character device now"
expect_fail 1 "$full: No space left on device" "import-guide -o a full device: the reason, and it stays a device"
rm -f "$od/null" "$od/full" "$od/fifo" "$od/from-fifo"
mkdir "$od/adir"
ev list -o "$od/adir"
expect_fail 1 "adir: is a directory; only a regular file" "list -o a directory is refused"
rmdir "$od/adir"
# a write that fails (the file-size limit) leaves the old file, no temporary
echo "old list" >"$od/list.txt"
# shellcheck disable=SC2086
(ulimit -f 1 && exec timeout -k 10 "$limit" $WRAP "$BIN" list -o "$od/list.txt") >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
hung "$st" "list -o beyond the file-size limit"
if [ "$(cat "$od/list.txt")" != "old list" ] || [ -n "$(leftovers victim o.json list.txt)" ]; then
    fail "a failed write lost the old file or left a temporary: $(leftovers victim o.json list.txt)"
fi
expect_fail 1 "list.txt: File too large" "list -o beyond the file-size limit: the reason, the old file kept"
# run -o FILE ended by a signal once a benchmark has finished: FILE is as it was
for sig in INT TERM; do
    [ "$sig" = INT ] && [ -z "$nointr" ] && { skip "SIGINT -o: env --default-signal is missing"; continue; }
    echo "old report" >"$od/report.txt"
    : >"$tmp/err"                   # not the last round's "finished in"
    # shellcheck disable=SC2086
    setsid $nointr $WRAP "$BIN" run stream dhrystone whetstone lat_syscall --quick --provider kernel \
        --results-dir "$tmp/ostore" -o "$od/report.txt" >"$tmp/out" 2>"$tmp/err" </dev/null &
    pid=$!
    for _ in $(seq 300); do         # up to 30 s for the first benchmark to end
        grep -q "finished in" "$tmp/err" 2>/dev/null && break
        sleep 0.1
    done
    kill -"$sig" "$pid" 2>/dev/null
    wait_bg "$pid" "run -o after SIG$sig"
    case $sig in INT) want=130 ;; TERM) want=143 ;; esac
    [ "$st" -eq "$want" ] || fail "run -o killed by SIG$sig: status $st (wanted $want)"
    [ "$(cat "$od/report.txt")" = "old report" ] ||
        fail "run -o killed by SIG$sig: the file now holds $(wc -c <"$od/report.txt") other bytes"
    [ -z "$(leftovers victim o.json list.txt report.txt)" ] ||
        fail "run -o killed by SIG$sig left $(leftovers victim o.json list.txt report.txt)"
    ok "run -o FILE killed by SIG$sig: FILE keeps its old content, no temporary is left"
done
# output that cannot be written is an error with the reason
ev run lat_syscall --quick --provider kernel --results-dir "$tmp/ostore"
[ "$st" -eq 0 ] || fail "a run to export: status $st"
for cmd in "run lat_syscall --quick --provider kernel --no-save" "refs" "list" \
           "results export latest --results-dir $tmp/ostore" "import-guide $guide" \
           "--help" "--version"; do
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" $WRAP "$BIN" $cmd >/dev/full 2>"$tmp/err" </dev/null
    st=$?
    hung "$st" "$cmd >/dev/full"
    expect_fail 1 "standard output: No space left on device" "${cmd%% [-/]*} >/dev/full fails with the reason"
done
# --- import: JUnit that Jenkins' xunit plugin accepts ---------------------
# `run` and `results export` as JUnit, validated against tests/data/junit.xsd
# (the plugin's "JUnit 10" rules): a benchmark that fails (an <error>, its
# tool printing invalid UTF-8 and control bytes), a metric beyond
# --fail-on-deviation (a <failure>), names with characters XML must escape.
command -v xmllint >/dev/null 2>&1 || fail "xmllint is missing (sh .ci/deps installs libxml2-utils)"
XSD="$DATA/junit.xsd"
j="$tmp/junit"
mkdir -p "$j/data/tools" "$j/bin"
cat >"$j/data/tools/junit.json" <<'EOF'
{
  "format": "evmbench-tools/1", "tool": "junit", "description": "JUnit schema check",
  "provided_by": "tests/hardening.sh",
  "benchmarks": [
    { "name": "jx_ok", "section": "junit", "binaries": ["jx_ok"], "stream": "stdout", "timeout": 10,
      "patterns": [ { "regex": "^bw: (?<value>[0-9.]+)$", "metric": "bw<&\"q'", "unit": "mb/s" } ] },
    { "name": "jx_bad", "section": "junit", "binaries": ["jx_bad"], "stream": "stdout", "timeout": 10,
      "patterns": [ { "regex": "^bw: (?<value>[0-9.]+)$", "metric": "bw", "unit": "mb/s" } ] }
  ]
}
EOF
printf '#!/bin/sh\necho "bw: 12.5"\n' >"$j/bin/jx_ok"
printf '#!/bin/sh\nprintf "broken \\377\\001 <&\\"\\n" >&2\nexit 3\n' >"$j/bin/jx_bad"
chmod +x "$j/bin/jx_ok" "$j/bin/jx_bad"
# shellcheck disable=SC2086
EVMBENCH_DATADIR="$j/data" timeout -k 10 "$limit" $WRAP "$BIN" run jx_ok jx_bad --provider tool \
    --tools-dir "$j/bin" --refs "$DATA/refs/good.json" --format junit --no-save \
    >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
hung "$st" "run --format junit"
expect_fail 3 "jx_bad" "run --format junit with a failed benchmark exits 3"
grep -q '<error ' "$tmp/out" && grep -q 'name="bw&lt;&amp;&quot;q' "$tmp/out" &&
    ok "... with an <error> and the escaped name" || fail "run --format junit: no <error> or name not escaped"
xmllint --noout --schema "$XSD" "$tmp/out" 2>"$tmp/err" && ok "... and validates against junit.xsd" ||
    fail "run --format junit does not validate against junit.xsd"
# a stored run: a row off its reference, a failed one, and names and an
# error message with markup, control characters and non-ASCII text
mkdir -p "$j/store/runs"
{
    echo '{"format":"evmbench-run/1","id":"20260101-000000-junit","started":"2026-01-01T00:00:00Z","version":"0","board":null,"board_name":null,"quick":true,"tolerance_pct":10.0,"provider":"tool","benchmarks":["x"]}'
    echo '{"row":{"bench":"st<r>&\"m","metric":"copy\u0001\u001b[2J","unit":"mb/s","samples":3,"min":1.0,"max":1.0,"avg":1.0,"stddev":0.0,"median":1.0,"value":1.0,"summary":"median","ref_avg":100.0,"ref_min":null,"ref_max":null,"ref_source":null,"deviation_pct":-99.0,"better":false,"verdict":"off","status":"ok","error":null,"provider":"tool"}}'
    echo '{"row":{"bench":"lm","metric":"lat_tcp","unit":"us","samples":0,"min":null,"max":null,"avg":null,"stddev":null,"median":null,"value":null,"summary":"median","ref_avg":null,"ref_min":null,"ref_max":null,"ref_source":null,"deviation_pct":null,"better":null,"verdict":"none","status":"failed","error":"exit 3: \u00e9\u0002 <&> \ufffe done","provider":"tool"}}'
} >"$j/store/runs/20260101-000000-junit.evmrun"
ev results export 20260101-000000-junit --results-dir "$j/store" --format junit \
    --fail-on-deviation 50
expect_ok "results export --format junit of a run with a failure and an error"
grep -q '<failure ' "$tmp/out" && grep -q '<error ' "$tmp/out" && grep -q 'errors="1"' "$tmp/out" &&
    ok "... has a <failure>, an <error> and counts the error" || fail "results export --format junit: failure/error missing"
LC_ALL=C grep -q "$(printf '[\001\002\033]')" "$tmp/out" && fail "a control character reached the JUnit file"
xmllint --noout --schema "$XSD" "$tmp/out" 2>"$tmp/err" && ok "... and validates against junit.xsd" ||
    fail "results export --format junit does not validate against junit.xsd"

# --- cli: the command table -------------------------------------------------
# --help is the synopsis the dispatcher's command table generates: 80
# columns, every command in it one the dispatcher knows by that name, and
# the pointer to the manual; --ui line runs `list` or `run` in place of
# the screens.
ev --help
expect_ok "--help"
awk 'length($0) > 79 { bad = 1 } END { exit bad }' "$tmp/out" &&
    ok "... fits 80 columns" || fail "--help has lines over 79 columns"
grep -q '^man evmbench$' "$tmp/out" && ok "... points to man evmbench" ||
    fail "--help does not point to man evmbench"
sed 's/^Usage://' "$tmp/out" >"$tmp/help"
cmds=0
while read -r first cmd; do
    [ "$first" = evmbench ] || continue
    # the words of the command: up to its first argument or option, or
    # the two spaces before the summary
    words=$(printf '%s\n' "$cmd" | awk '{ sub(/  .*/, ""); n = split($0, w, " ")
        for (i = 1; i <= n && w[i] ~ /^[a-z][a-z-]*$/; i++) printf "%s%s", (i > 1 ? " " : ""), w[i] }')
    [ -n "$words" ] || continue
    opt="--keep 1"; [ "$words" = "results prune" ] && opt="--layout auto"
    # shellcheck disable=SC2086  # the words and the option are the command line
    ev $words $opt
    grep -q "is for .*, not for '$words'" "$tmp/err" ||
        fail "--help shows 'evmbench $words', which the dispatcher does not know by that name"
    cmds=$((cmds + 1))
done <"$tmp/help"
[ "$cmds" -ge 13 ] && ok "... its $cmds commands are the dispatcher's" ||
    fail "--help shows $cmds commands, wanted at least 13"
ev list
cp "$tmp/out" "$tmp/list"
ev --ui line
expect_ok "--ui line without --run"
cmp -s "$tmp/out" "$tmp/list" && ok "... prints what list prints" ||
    fail "--ui line without --run differs from list"
ev --ui line --run lat_syscall --quick --provider kernel --no-save
expect_ok "--ui line --run lat_syscall"
grep -q '^Board: ' "$tmp/out" && grep -q 'lat_syscall' "$tmp/out" &&
    ok "... prints the run's report as run does" || fail "--ui line --run: no report on stdout"

# --- guide layouts ----------------------------------------------------------
# The error for an unknown layout names the layouts of the guide importer's
# table, built-ins first, and --layout takes each name it gives.
ev import-guide "$DATA/guides/cells.txt" --layout html -o "$tmp/o.json"
expect_fail 2 "unknown layout 'html' \(auto, cells, rows, markdown, rst[,)]" \
    "an unknown --layout is a usage error that names the layouts"
listed=$(sed -n "s/.*unknown layout 'html' (\([^)]*\)).*/\1/p" "$tmp/err")
for l in $(echo "$listed" | tr ',' ' '); do
    evg "$DATA/guides/rows.txt" --layout "$l" -o "$tmp/o.json"
    [ "$st" -ne 2 ] || fail "the error names layout $l, but --layout $l is a usage error"
done
evg "$DATA/guides/rows.txt" --layout rows -o "$tmp/o.json"
expect_ok "... and --layout takes each name it gives"
grep -q '"layout": "rows"' "$tmp/o.json" && ok "... and records the one it used" ||
    fail "--layout rows: the output does not record layout rows"

# --- recipe ---------------------------------------------------------------
# A benchmark a tool recipe gets wrong is skipped, each mistake named with
# its file and JSON path, and what was read of it is freed exactly once: a
# variable's field that is not a template (it leaked), a binary dropped
# after its arguments were read (the next binary reused the slot with the
# freed arguments: a double free). The good benchmark beside them stays.
# Under --enable-sanitizers a leak fails here too.
r="$tmp/recipe"
mkdir -p "$r/data/tools"
cat >"$r/data/tools/bad.json" <<'EOF'
{ "format": "evmbench-tools/1", "tool": "hx",
  "benchmarks": [
    { "name": "hx_field", "section": "hx", "binaries": ["hx"],
      "vars": { "fmt": [ { "value": "a", "bits": "{bad" } ] },
      "patterns": [ { "regex": "^v: (?<value>[0-9]+)$", "metric": "v", "unit": "s" } ] },
    { "name": "hx_bins", "section": "hx",
      "binaries": [ { "name": "a/b", "args": ["-x", ["-y", "{z}"]] }, "hx" ],
      "patterns": [ { "regex": "^v: (?<value>[0-9]+)$", "metric": "v", "unit": "s" } ] },
    { "name": "hx_good", "section": "hx", "binaries": ["hx"],
      "patterns": [ { "regex": "^v: (?<value>[0-9]+)$", "metric": "v", "unit": "s" } ] }
  ] }
EOF
mkdir -p "$r/bin"
printf '#!/bin/sh\necho "v: 5"\n' >"$r/bin/hx"
chmod +x "$r/bin/hx"
# shellcheck disable=SC2086  # WRAP is a command, maybe empty
EVMBENCH_DATADIR="$r/data" timeout -k 10 "$limit" $WRAP "$BIN" run hx_good --provider tool \
    --tools-dir "$r/bin" --refs "$DATA/refs/good.json" --quick --no-save \
    >"$tmp/out" 2>"$tmp/err" </dev/null
st=$?
hung "$st" "run beside a bad tool recipe"
expect_ok "run beside a bad tool recipe: no crash, the good benchmark of the file runs"
if grep -q 'tools/bad.json: benchmarks\[0\].vars.fmt\[0\].bits: unclosed' "$tmp/err" &&
    grep -q 'tools/bad.json: benchmarks\[1\].binaries\[0\]: must be a file name without' "$tmp/err" &&
    [ "$(grep -c 'skipped' "$tmp/err")" -eq 2 ]; then
    ok "... each mistake named with its JSON path, both bad benchmarks skipped"
else
    fail "a bad tool recipe: the mistakes are not named or not skipped"
fi

# --- verdict ---------------------------------------------------------------
# --fail-on-deviation PCT end to end, on a fake tool whose numbers a file
# sets (nothing depends on this machine's speed): identical runs never
# fail, even at the smallest PCT and with the guide's number far off; 0.6 %
# better than the baseline passes; a metric 50 % worse fails at PCT 20 and
# passes at PCT 80, with a baseline and without one (against the guide);
# text (FAIL and the reason), JUnit, LAVA, JSON, stderr and the exit status
# name the same metrics. --save-baseline refuses an existing name (exit 2,
# before the run, naming the file) unless --replace-baseline, which keeps
# the old one as NAME.prev.
v="$tmp/verdict"
mkdir -p "$v/data/tools" "$v/bin" "$v/store"
cat >"$v/data/tools/vd.json" <<'JSON'
{ "format": "evmbench-tools/1", "tool": "vd", "description": "fail-on-deviation check",
  "provided_by": "tests/hardening.sh",
  "benchmarks": [
    { "name": "vd_check", "section": "vdcheck", "binaries": ["vd"], "stream": "stdout", "timeout": 10,
      "patterns": [ { "regex": "^bw: (?<value>[0-9.]+)$", "metric": "bw", "unit": "mb/s" },
                    { "regex": "^lat: (?<value>[0-9.]+)$", "metric": "lat", "unit": "microsec" } ] }
  ] }
JSON
# guide: bw a single number, lat a band; "far" puts bw's guide number
# three times above what the fake board measures (the guide's "off")
vd_refs() {
    cat >"$v/$1.json" <<JSON
{"format": "evmbench-refs/1",
 "source": {"file": "vd.txt", "title": "Verdict fixture guide", "sdk": "linux", "version": "11.00.00", "layout": "cells"},
 "boards": [{"key": "vd_board", "name": "VD board", "description": "fixture", "cpu_mhz": null, "ddr_type": null, "ddr_mts": null}],
 "tables": [
  {"section": ["Verdict", "vdcheck"], "title": "vd", "line": 1, "command": "vd", "context": [], "keys": ["Benchmarks"],
   "columns": [{"header": "vd_board: perf", "board": "vd_board", "name": "perf", "unit": null}],
   "rows": [
    {"key": ["bw"], "unit": "mb/s", "line": 2, "values": [{"avg": $2}]},
    {"key": ["lat"], "unit": "microsec", "line": 3, "values": [{"avg": 40, "min": 38, "max": 42}]}
   ]}
 ]}
JSON
}
vd_refs guide 100
vd_refs far 300
printf '#!/bin/sh\ncat "%s/values"\n' "$v" >"$v/bin/vd"
chmod +x "$v/bin/vd"
# vd BW LAT REFS ARGS...: the fake board measures BW and LAT; run with ARGS
# (on an empty sysroot: the load on this machine's cores is not read, so
# no verdict depends on what else runs here)
mkdir -p "$v/root"
vd() {
    printf 'bw: %s\nlat: %s\n' "$1" "$2" >"$v/values"
    refs=$3
    shift 3
    # shellcheck disable=SC2086  # WRAP is a command, maybe empty
    EVMBENCH_DATADIR="$v/data" timeout -k 10 "$limit" $WRAP "$BIN" run vd_check --provider tool \
        --tools-dir "$v/bin" --refs "$v/$refs.json" --board vd_board --results-dir "$v/store" \
        --sysroot "$v/root" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    hung "$st" "run vd_check $*"
}
# failing METRIC...: the rows text, JUnit, LAVA and stderr name as failing
# are exactly these (the last run's $tmp/out in FORMAT $1)
failed_in() {
    case $1 in
    text) awk '$NF == "FAIL" { print $1 }' "$tmp/out" ;;
    junit) awk '/<testcase/ { sub(/.* name="/, ""); sub(/".*/, ""); n = $0 }
                /<failure/ { print n }' "$tmp/out" ;;
    lava) sed -n 's/.*TEST_CASE_ID=vdcheck\.\([^ ]*\) RESULT=fail.*/\1/p' "$tmp/out" ;;
    err) sed -n 's/^evmbench: FAIL vdcheck \([^:]*\):.*/\1/p' "$tmp/err" ;;
    esac | sort -u | tr '\n' ' '
}

vd 100 40 far --save-baseline before
expect_ok "verdict: the baseline before the change is saved"
for pct in 0.000001 5 80 1000000; do
    vd 100 40 far --baseline before --fail-on-deviation "$pct"
    [ "$st" -eq 0 ] && ! grep -q FAIL "$tmp/out" || fail "identical runs fail at PCT $pct (status $st)"
done
ok "... identical runs pass at PCT 0.000001, 5, 80 and 1000000, the guide's number 3 times off"
vd 100.6 40 far --baseline before --fail-on-deviation 80
expect_ok "... 0.6 % better than the baseline passes at PCT 80 (the guide says off)"
vd 50 40 far --baseline before --fail-on-deviation 20
[ "$st" -eq 1 ] && grep -q '^  FAIL: -50.0% (-50.0 .. -50.0%) against the baseline.s 100, [0-9]* runs against [0-9]*: slower beyond the limit 20%$' "$tmp/out" &&
    [ "$(failed_in text)" = "bw " ] && [ "$(failed_in err)" = "bw " ] &&
    ok "... 50 % worse than the baseline fails at PCT 20: exit 1, FAIL and the reason" ||
    fail "50 % worse than the baseline at PCT 20 (status $st)"
vd 50 40 far --baseline before --fail-on-deviation 80
expect_ok "... and passes at PCT 80"
vd 100 60 far --baseline before --fail-on-deviation 20
[ "$st" -eq 1 ] && [ "$(failed_in err)" = "lat " ] &&
    ok "... a latency 50 % higher than the baseline fails at PCT 20" ||
    fail "a latency 50 % worse than the baseline at PCT 20 (status $st)"
for fmt in text junit lava; do
    vd 50 60 guide --baseline before --fail-on-deviation 20 --format "$fmt"
    got=$(failed_in "$fmt")
    [ "$st" -eq 1 ] && [ "$got" = "bw lat " ] && [ "$(failed_in err)" = "bw lat " ] ||
        fail "--format $fmt does not fail bw and lat alone (status $st, got '$got')"
done
vd 50 60 guide --baseline before --fail-on-deviation 20 --format json
got=$(grep -c '"fail": "[-+]50.0% ([-+]50.0 .. [-+]50.0%) against the baseline' "$tmp/out")
[ "$st" -eq 1 ] && [ "$got" -eq 2 ] ||
    fail "--format json does not give bw and lat their reason (status $st, $got)"
ok "... text, JUnit, LAVA, JSON, stderr and the exit status name the same metrics"
vd 50 40 guide --baseline before --fail-on-deviation 20 --format junit
grep -q '<failure message="-50.0% (-50.0 .. -50.0%) against the baseline.s 100, [0-9]* runs against [0-9]*: slower beyond the limit 20%"' "$tmp/out" &&
    ok "... the JUnit failure says why" || fail "the JUnit failure does not say why"

# without a baseline: against the guide
vd 50 40 guide --fail-on-deviation 20
[ "$st" -eq 1 ] && grep -q '^  FAIL: 50.0% worse than the guide.s 100 (limit 20%)$' "$tmp/out" &&
    [ "$(failed_in text)" = "bw " ] &&
    ok "verdict: 50 % worse than the guide fails at PCT 20 without a baseline" ||
    fail "50 % worse than the guide at PCT 20 (status $st)"
vd 50 40 guide --fail-on-deviation 80
[ "$st" -eq 0 ] && grep -q '^bw .* off$' "$tmp/out" &&
    ok "... passes at PCT 80, the guide's off a warning" || fail "50 % worse than the guide at PCT 80 (status $st)"
vd 50 40 guide --format junit
[ "$st" -eq 0 ] && grep -q 'failures="0"' "$tmp/out" &&
    ok "... and without --fail-on-deviation nothing fails" ||
    fail "off fails without --fail-on-deviation (status $st)"
vd 40 63 guide --fail-on-deviation 20
[ "$st" -eq 1 ] && [ "$(failed_in text)" = "bw lat " ] &&
    grep -q '^  FAIL: 50.0% above the guide.s band (max 42, limit 20%)$' "$tmp/out" &&
    ok "... beyond the guide's band by 50 % fails at PCT 20, the band's edge named" ||
    fail "beyond the guide's band at PCT 20 (status $st)"

# baselines are never lost
cp "$v/store/baselines/before.json" "$v/before.kept"
vd 1 1 guide --save-baseline before
expect_fail 2 "baseline 'before' exists \\($v/store/baselines/before.json\\).*--replace-baseline" \
    "verdict: --save-baseline with an existing name is refused (exit 2, the file named)"
cmp -s "$v/store/baselines/before.json" "$v/before.kept" && ! grep -q 'running' "$tmp/err" &&
    ok "... before the run, the baseline untouched" || fail "a refused --save-baseline ran or changed the baseline"
vd 1 1 guide --replace-baseline
expect_fail 2 "--replace-baseline goes with --save-baseline" "... --replace-baseline alone is a usage error"
vd 70 40 guide --save-baseline before --replace-baseline --baseline before
expect_ok "... --replace-baseline replaces it"
grep -q '"baseline_' "$v/store/baselines/before.json" &&
    fail "a baseline saved during a --baseline run keeps the comparison with the old one"
cmp -s "$v/store/baselines/before.prev.json" "$v/before.kept" &&
    ok "... and keeps the previous one as before.prev" || fail "--replace-baseline lost the previous baseline"
vd 70 40 guide --baseline before --fail-on-deviation 1
expect_ok "... the new baseline is the one compared with"
vd 70 40 guide --baseline before.prev --fail-on-deviation 20
[ "$st" -eq 1 ] && grep -q -- "-30.0% (-30.0 .. -30.0%) against the baseline's 100" "$tmp/out" &&
    ok "... and before.prev loads as a baseline" || fail "--baseline before.prev (status $st)"

# --- guide ---
# a toctree-only rst file (TI's Release_Specific_Kernel_Performance_Guide)
evg --layout rst "$DATA/guides/toctree-only.rst" -o "$tmp/o.json"
expect_fail 1 "toctree-only.rst:1: no tables imported: layout rst" \
    "guide: a toctree-only rst file with --layout rst is an error (no tables)"
[ ! -e "$tmp/o.json" ] && ok "... and no file is written" || fail "a toctree-only import wrote a file"
# a short row whose placement is a guess: warned with file:line, marked by refs
evg "$DATA/guides/am62x-gfxbench.txt" -o "$tmp/o.json"
[ "$st" -eq 0 ] && grep -q 'am62x-gfxbench.txt:21: table "GFXBench Performance": row "GFXBench 3.x gl_manhattan_off": a guess: 2 of 4 value cells, in the first 2 columns; check the guide' "$tmp/err" &&
    ok "guide: a short row placed by a guess is warned with file:line" ||
    fail "a short row's guessed placement was not warned (status $st)"
ev refs --refs "$tmp/o.json" --board am62xx_lp_sk-fs --section GFXBench
[ "$st" -eq 0 ] && grep -Eq '^GFXBench 3.x gl_manhattan_off +Score +81.53 \(81.16-82.23\) \?$' "$tmp/out" &&
    grep -q '^  ? line 21: a guess: 2 of 4 value cells, in the first 2 columns$' "$tmp/out" &&
    ok "... refs shows LP SK Score 81.53 marked as a guess, with its line" ||
    fail "refs does not mark the guessed GFXBench value (status $st)"
# a run compared with such a reference says so below the row, and in JSON
sed 's/{"key": \["copy"\], "unit": "mb\/s", "line": 12,/&"note": "a guess: 1 of 2 value cells, in the first column",/' \
    "$DATA/refs/good.json" >"$tmp/guess.json"
ev run stream --board am62xx_sk-fs --quick --size 100000 --iterations 1 --refs "$tmp/guess.json"
grep -A2 '^copy ' "$tmp/out" | grep -q '^  reference, guide line 12: a guess: 1 of 2 value cells, in the first column$' &&
    ! grep -A1 '^scale ' "$tmp/out" | grep -q 'reference, guide line' &&
    ok "guide: a run names a reference placed by a guess below its row" ||
    fail "a run's reference placed by a guess is not named (status $st)"

# --- profiles ---
# A profile's metric list is what runs: an id its benchmark cannot produce
# is refused at its file and line before anything runs (it used to run the
# whole of bw_mem and print an empty table), and a line naming a section
# starts only the kernels that measure what it lists.
printf 'bench stream copy\n# a size bw_mem has not\nbench bw_mem bw_mem-rd-32mb\n' \
    >"$tmp/bad.profile"
ev run --profile "$tmp/bad.profile" --no-save
expect_fail 2 "bad.profile:3: bw_mem cannot measure 'bw_mem-rd-32mb'" \
    "a profile metric its benchmark cannot produce is a usage error at its line"
if grep -q finished "$tmp/err"; then fail "... and nothing ran"; else ok "... and nothing ran"; fi
printf 'budget quick\nbench lmbench lat_syscall-null\n' >"$tmp/one.profile"
ev run --profile "$tmp/one.profile" --iterations 1 --no-save --provider kernel
expect_ok "a profile line naming a section runs"
if [ "$(grep -c 'finished in' "$tmp/err")" -eq 1 ] && grep -q 'lat_syscall finished' "$tmp/err" &&
    [ "$(grep -c '^lat_syscall-' "$tmp/out")" -eq 1 ]; then
    ok "... only the kernel of the metric it lists, one row"
else
    fail "a profile line naming a section started kernels it lists no metric of"
fi

finish hardening
