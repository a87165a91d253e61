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
BIN=${EVMBENCH_BIN:-./evmbench}
WRAP=${EVMBENCH_WRAPPER:-}
prog="${WRAP:+$WRAP }$BIN"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/store_survives.XXXXXX") || exit 1
mounted=
cleanup() {
    [ -n "$mounted" ] && umount "$tmp/full" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
n=0
failed=0
check() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}

# --- 1. SIGKILL after the first benchmark finished -------------------------
$prog run lat_syscall stream --quick --results-dir "$tmp/s1" --format csv \
    >/dev/null 2>"$tmp/err1" &
pid=$!
i=0
while [ $i -lt 600 ]; do
    grep -q '"metric":"lat_syscall-open"' "$tmp"/s1/runs/*.evmrun 2>/dev/null && break
    sleep 0.1
    i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
sleep 0.5
$prog results list --results-dir "$tmp/s1" >"$tmp/list1" 2>&1
grep -Eq ' incomplete ' "$tmp/list1"
check $? "a run killed by SIGKILL is listed as incomplete"
rows=$(grep -c '"metric":"lat_syscall-' "$tmp"/s1/runs/*.evmrun)
[ "$rows" = 6 ]
check $? "the six lat_syscall rows that finished before the kill are on disk ($rows)"
$prog results show latest --results-dir "$tmp/s1" --format csv >"$tmp/show1" 2>&1
grep -q '^lmbench,lat_syscall-null,' "$tmp/show1"
check $? "results show reads the interrupted run"
ps -eo pid,args | grep -v grep | grep -q "$tmp/s1"
[ $? != 0 ]
check $? "no process of the killed run is left"

# --- 2. a full disk -----------------------------------------------------------
$prog run lat_syscall --quick --results-dir "$tmp/full" --format csv >/dev/null 2>&1
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=16k tmpfs "$tmp/full" 2>/dev/null; then
    mounted=1
    how="a 16 KiB tmpfs"
    # the earlier run lives on the small file system too, then it fills up
    $prog run lat_syscall --quick --results-dir "$tmp/full" --format csv >/dev/null 2>&1
    dd if=/dev/zero of="$tmp/full/filler" bs=1k count=64 2>/dev/null
    $prog run lat_syscall --quick --results-dir "$tmp/full" --format csv \
        >/dev/null 2>"$tmp/err2"
    status=$?
else
    how="a file-size limit"
    (ulimit -f 1; exec $prog run lat_syscall --quick --results-dir "$tmp/full" \
        --format csv >/dev/null 2>"$tmp/err2")
    status=$?
fi
echo "# full disk: $how"
grep -Eq 'warning: (results not saved: )?cannot (write|create) .*(No space left on device|File too large)' "$tmp/err2"
check $? "a full disk is reported clearly ($how)"
[ "$status" = 0 ]
check $? "the run goes on and exits 0 when the store is full"
$prog results list --results-dir "$tmp/full" >"$tmp/list2" 2>&1
grep -Eq ' complete ' "$tmp/list2"
check $? "the earlier run in the full store is intact"

echo "1..$n"
exit $failed
