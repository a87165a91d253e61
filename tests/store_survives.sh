#!/bin/sh
# store_survives.sh - the results store keeps every finished metric:
#   1. the program killed with SIGKILL in the middle of a run: the rows of
#      the benchmark that finished are on disk, the run is listed as
#      incomplete, no worker is left;
#   2. a full disk (a 16 KiB tmpfs when this user may mount one, else a
#      file-size limit): a clear message, the run itself goes on, and the
#      earlier run in the same store is intact.
# Environment (set by 'make check'): EVMBENCH_BIN, EVMBENCH_WRAPPER (the
# emulator when cross-compiling, may be empty). Prints TAP.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

BIN=${EVMBENCH_BIN:-./evmbench}
WRAP=${EVMBENCH_WRAPPER:-}
prog="${WRAP:+$WRAP }$BIN"
make_tmp store_survives
mounted=
at_exit() { [ -n "$mounted" ] && umount "$tmp/full" 2>/dev/null; }
# The waits below are hang detectors, not speed budgets: each ends as soon
# as what it waits for is there, so $limit s suit a slow emulated run.
limit=${STORE_SURVIVES_TIMEOUT:-300}
now() { date +%s; }
# runs PROGRAM-ARGS... under timeout(1) ($limit s, then KILL): a hang (124,
# 137) is reported as a failure of its own; the status in $status.
run_limited() {
    # shellcheck disable=SC2086  # prog is the wrapper and the binary
    timeout -k 10 "$limit" $prog "$@"
    status=$?
    case $status in 124 | 137) check 1 "evmbench $* hung: stopped after $limit s" ;; esac
}

# --- 1. SIGKILL after the first benchmark finished -------------------------
$prog run lat_syscall stream --quick --results-dir "$tmp/s1" --format csv \
    >/dev/null 2>"$tmp/err1" &
pid=$!
deadline=$(($(now) + limit))
until grep -q '"metric":"lat_syscall-open"' "$tmp"/s1/runs/*.evmrun 2>/dev/null; do
    [ "$(now)" -lt "$deadline" ] || break
    sleep 0.1
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
# the worker, killed with its parent, is reaped soon (a loaded machine is slow)
deadline=$(($(now) + limit))
while ps -eo pid,args | grep -v grep | grep -q "$tmp/s1" && [ "$(now)" -lt "$deadline" ]; do
    sleep 0.2
done
run_limited results list --results-dir "$tmp/s1" >"$tmp/list1" 2>&1
grep -Eq ' incomplete ' "$tmp/list1"
check $? "a run killed by SIGKILL is listed as incomplete"
rows=$(grep -c '"metric":"lat_syscall-' "$tmp"/s1/runs/*.evmrun)
[ "$rows" = 6 ]
check $? "the six lat_syscall rows that finished before the kill are on disk ($rows)"
run_limited results show latest --results-dir "$tmp/s1" --format csv >"$tmp/show1" 2>&1
grep -q '^lmbench,lat_syscall-null,' "$tmp/show1"
check $? "results show reads the interrupted run"
ps -eo pid,args | grep -v grep | grep -q "$tmp/s1"
[ $? != 0 ]
check $? "no process of the killed run is left"

# --- 2. a full disk -----------------------------------------------------------
run_limited run lat_syscall --quick --results-dir "$tmp/full" --format csv >/dev/null 2>&1
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=16k tmpfs "$tmp/full" 2>/dev/null; then
    mounted=1
    how="a 16 KiB tmpfs"
    # the earlier run lives on the small file system too, then it fills up
    run_limited run lat_syscall --quick --results-dir "$tmp/full" --format csv >/dev/null 2>&1
    dd if=/dev/zero of="$tmp/full/filler" bs=1k count=64 2>/dev/null
    run_limited run lat_syscall --quick --results-dir "$tmp/full" --format csv \
        >/dev/null 2>"$tmp/err2"
else
    how="a file-size limit"
    # shellcheck disable=SC2086  # prog is the wrapper and the binary
    (ulimit -f 1; exec timeout -k 10 "$limit" $prog run lat_syscall --quick \
        --results-dir "$tmp/full" --format csv >/dev/null 2>"$tmp/err2")
    status=$?
    case $status in 124 | 137) check 1 "the run with a file-size limit hung: stopped after $limit s" ;; esac
fi
echo "# full disk: $how"
grep -Eq 'warning: (results not saved: )?cannot (write|create) .*(No space left on device|File too large)' "$tmp/err2"
check $? "a full disk is reported clearly ($how)"
[ "$status" = 0 ]
check $? "the run goes on and exits 0 when the store is full"
run_limited results list --results-dir "$tmp/full" >"$tmp/list2" 2>&1
grep -Eq ' complete ' "$tmp/list2"
check $? "the earlier run in the full store is intact"

finish store_survives
