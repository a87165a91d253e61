#!/bin/sh
# check-static.sh BINARY [WRAPPER]
# Checks a --enable-static-binary build the way it is used: copied alone
# into an empty directory, run with nothing else installed.
#   - the ELF file has no program interpreter and no shared libraries
#   - `list`, `run stream --quick`, `sysinfo` work with an empty library
#     path (QEMU_LD_PREFIX, LD_LIBRARY_PATH) and no data directory, so the
#     data come from the binary itself
#   - the TUI starts in tmux at 80x24 with TERM=vt100 while the system
#     terminfo directories are hidden (a private mount namespace, as root;
#     otherwise that part says so and runs with them visible)
#   - no temporary directory is left behind
#   - without a writable $TMPDIR (TMPDIR=/nonexistent; a read-only
#     TMPDIR, run as uid 65534 when root) the built-in data are still
#     there: list shows the categories, sysinfo finds the guide of the board
#     it detects, refs prints numbers, run compares with the guide
#   - the TUI writes its terminfo entry to the first of $TMPDIR, /tmp,
#     /dev/shm, /run/user/UID that takes it, removes it, and when none does
#     says so plainly and exits 1 (private mount namespaces, as root)
# WRAPPER runs a foreign binary (qemu-aarch64); empty for a native one.
# Prints the sizes; the stripped binary must be at most 2 MiB (2097152
# bytes). Exit 0 pass, 1 fail.
set -u
bin=${1:?usage: check-static.sh BINARY [WRAPPER]}
wrap=${2:-}
fail() { echo "check-static: FAIL: $*" >&2; exit 1; }
ok() { echo "check-static: ok - $*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/evmbench-static.XXXXXX") || exit 1
chmod 755 "$work"       # the unprivileged cases read the binary in it
data=$(cd "$(dirname "$0")/../tests/data" && pwd) || exit 1
sock=evmbench-static-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$work"' EXIT

# --- the file itself ---------------------------------------------------------
readelf=readelf
if ! command -v readelf >/dev/null 2>&1; then
    for r in aarch64-linux-gnu-readelf arm-linux-gnueabihf-readelf; do
        command -v "$r" >/dev/null 2>&1 && { readelf=$r; break; }
    done
fi
if "$readelf" -lW "$bin" | grep -q 'INTERP'; then fail "$bin asks for a program interpreter"; fi
if "$readelf" -dW "$bin" | grep -q 'NEEDED'; then fail "$bin needs shared libraries"; fi
ok "no interpreter, no shared libraries"
mkdir "$work/board" "$work/tmp" "$work/home"
cp "$bin" "$work/board/evmbench"
size=$(wc -c <"$work/board/evmbench")
strip=
for s in strip aarch64-linux-gnu-strip arm-linux-gnueabihf-strip; do
    "$s" -o "$work/stripped" "$bin" 2>/dev/null && { strip=$(wc -c <"$work/stripped"); break; }
done
echo "check-static: size $size bytes, stripped ${strip:-?} bytes"
# What goes onto the board is small: at most 2 MiB stripped (HACKING.md,
# "The static binary").
limit=2097152
[ -n "$strip" ] || fail "no strip program for $bin (binutils for its architecture)"
[ "$strip" -le "$limit" ] ||
    fail "stripped $strip bytes, above the limit of $limit bytes (2 MiB)"
ok "stripped size $strip bytes, within $limit bytes ($((limit - strip)) to spare)"

# --- the commands, nothing installed ---------------------------------------------
# Only the binary's own directory; no data directory, empty library paths.
# board_tmp, board_user and board_home change TMPDIR, the user, HOME.
board_tmp=$work/tmp board_user='' board_home=$work/home
board() {
    (cd "$work/board" && $board_user env -i PATH=/usr/bin:/bin HOME="$board_home" \
        TMPDIR="$board_tmp" XDG_DATA_HOME="$board_home/data" QEMU_LD_PREFIX=/nonexistent \
        LD_LIBRARY_PATH= LC_ALL=C ${wrap:+$wrap} ./evmbench "$@")
}
board list >"$work/out" 2>&1 || { cat "$work/out"; fail "evmbench list"; }
if ! grep -q 'System Benchmarks' "$work/out" || ! grep -q '^  stream .* refs$' "$work/out"; then
    cat "$work/out"; fail "list shows the built-in categories and references"
fi
ok "list uses the built-in reference data"
board run stream --quick --size 1000000 --board am62xx_sk-fs >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "evmbench run stream --quick"; }
grep -Eqi '^triad +[0-9.]+ mb/s' "$work/out" || { cat "$work/out"; fail "run stream prints triad"; }
ok "run stream --quick"
board sysinfo >"$work/out" 2>&1 || { cat "$work/out"; fail "evmbench sysinfo"; }
ok "sysinfo"
[ -z "$(ls -A "$work/tmp")" ] || { ls -la "$work/tmp"; fail "a temporary directory was left behind"; }
ok "no temporary files left"

# --- damaged built-in data -----------------------------------------------------------
# The data are one gzip member (gzip -9 -n: flags 0, time 0, XFL 2, OS 3);
# a byte changed inside it must stop the program with exit 70 and say so,
# never give half a table. GNU grep finds the member's header.
gzoff=$(LC_ALL=C grep -obUaP '\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03' "$work/board/evmbench" |
    head -n 1 | cut -d: -f1)
[ -n "$gzoff" ] || fail "the packed built-in data are not in $bin"
cp "$work/board/evmbench" "$work/evmbench.good"
printf '\377' | dd of="$work/board/evmbench" bs=1 seek=$((gzoff + 1000)) conv=notrunc 2>/dev/null
board list >"$work/out" 2>&1
rc=$?
mv "$work/evmbench.good" "$work/board/evmbench"
[ "$rc" -eq 70 ] || { cat "$work/out"; fail "damaged built-in data: exit $rc, not 70"; }
grep -q 'the built-in data are damaged (' "$work/out" ||
    { cat "$work/out"; fail "damaged built-in data: the message says so"; }
ok "damaged built-in data stop the program with exit 70 and say why"

# --- no writable temporary directory: the data come from memory ----------------------
# The commands need no directory to write to: the built-in data are read
# where they are. Checks that the data really are there, not just exit 0.
cp -R "$data/sysroots/am62xx_sk-fs" "$work/sysroot"
chmod -R a+rX "$work/sysroot"
without_tmp() {     # what: the case, for the messages
    what=$1
    board list >"$work/out" 2>&1 || { cat "$work/out"; fail "list ($what)"; }
    if ! grep -q '^System Benchmarks' "$work/out" || ! grep -Eq '^  stream .* [1-9][0-9]* refs$' "$work/out"; then
        cat "$work/out"; fail "list shows the built-in categories and references ($what)"
    fi
    board sysinfo --sysroot "$work/sysroot" >"$work/out" 2>&1 ||
        { cat "$work/out"; fail "sysinfo ($what)"; }
    if ! grep -Eq '^Board: +AM62x SK \(am62xx_sk-fs\)' "$work/out" ||
        ! grep -Eq '^Guide EVM: +AM62x SK, ' "$work/out"; then
        cat "$work/out"; fail "sysinfo finds the guide of the board it detects ($what)"
    fi
    board refs --board am62xx_sk-fs --section stream >"$work/out" 2>&1 ||
        { cat "$work/out"; fail "refs ($what)"; }
    grep -Eqi '^triad +perf +mb/s +[0-9]+\.[0-9]+ \(' "$work/out" ||
        { cat "$work/out"; fail "refs prints the guide's numbers ($what)"; }
    board run stream --quick --size 1000000 --board am62xx_sk-fs >"$work/out" 2>&1 ||
        { cat "$work/out"; fail "run stream --quick ($what)"; }
    grep -Eqi '^triad +[0-9.]+ mb/s +[0-9.]+ ' "$work/out" ||
        { cat "$work/out"; fail "run compares with the guide's reference ($what)"; }
    ok "list, sysinfo, refs and run have the built-in data ($what)"
}
board_tmp=/nonexistent
without_tmp "TMPDIR=/nonexistent"
mkdir "$work/ro" "$work/nobody"
chmod 555 "$work/ro"
board_tmp=$work/ro
if [ "$(id -u)" -eq 0 ]; then
    # root writes anywhere: the read-only TMPDIR is tried as nobody
    command -v setpriv >/dev/null 2>&1 || fail "setpriv (util-linux) is needed to run as uid 65534"
    chown 65534:65534 "$work/nobody"
    board_user="setpriv --reuid=65534 --regid=65534 --clear-groups" board_home=$work/nobody
    without_tmp "read-only TMPDIR, uid 65534"
else
    board_home=$work/nobody
    without_tmp "read-only TMPDIR"
fi
[ -z "$(ls -A "$work/ro")" ] || { ls -la "$work/ro"; fail "something was written into TMPDIR"; }
board_tmp=$work/tmp board_user='' board_home=$work/home

# --- the TUI, terminfo hidden ------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
    echo "check-static: tmux not found; the TUI check is skipped"
    exit 0
fi
hide=
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    for d in /etc/terminfo /lib/terminfo /usr/share/terminfo /usr/lib/terminfo; do
        [ -d "$d" ] && hide="$hide mount -t tmpfs none $d &&"
    done
    hide="unshare -m sh -c '$hide exec \"\$0\" \"\$@\"'"
else
    echo "check-static: not root or no unshare: the TUI runs with the system terminfo visible"
fi
cat >"$work/tui.sh" <<EOT
cd "$work/board" || exit 1
env -i PATH=/usr/bin:/bin HOME="$work/home" TMPDIR="$work/tmp" XDG_DATA_HOME="$work/home/data" \
    XDG_CONFIG_HOME="$work/home/config" QEMU_LD_PREFIX=/nonexistent LD_LIBRARY_PATH= \
    TERM=vt100 NO_COLOR=1 LC_ALL=C $hide ${wrap:+$wrap} ./evmbench --board am62xx_sk-fs
echo "tui-exit=\$?"
sleep 30
EOT
tm new-session -d -s st -x 80 -y 24 "sh '$work/tui.sh'" || fail "cannot start tmux"
seen=
for _ in $(seq 1 100); do
    tm capture-pane -p -t st >"$work/screen" 2>/dev/null
    if grep -q 'Performance Guide categories' "$work/screen"; then seen=yes; break; fi
    sleep 0.2
done
[ -n "$seen" ] || { cat "$work/screen"; fail "the TUI home screen opens at 80x24, TERM=vt100"; }
grep -Eq '^> System Benchmarks' "$work/screen" || { cat "$work/screen"; fail "home lists the categories"; }
ok "the TUI opens at 80x24 with TERM=vt100${hide:+ and no terminfo directories}"
tm send-keys -t st q
for _ in $(seq 1 50); do
    tm capture-pane -p -t st >"$work/screen" 2>/dev/null
    grep -q '^tui-exit=' "$work/screen" && break
    sleep 0.2
done
grep -q '^tui-exit=0' "$work/screen" || { cat "$work/screen"; fail "q quits the TUI with status 0"; }
ok "q quits the TUI"
[ -z "$(ls -A "$work/tmp")" ] || { ls -la "$work/tmp"; fail "the TUI left a temporary directory"; }
ok "the TUI removed its temporary files"

# --- the TUI without a writable TMPDIR ------------------------------------------------
# In a private mount namespace: no terminfo directories, fresh /tmp and
# /dev/shm (read-only where the case says). The entry for vt100 must go
# to the first directory that takes it and be removed at exit; when none
# takes it the TUI says which directories failed and why, and exits 1.
if [ -z "$hide" ]; then
    echo "check-static: not root or no unshare: the TUI cases without a writable TMPDIR are skipped"
    exit 0
fi
hide_terminfo=
for d in /etc/terminfo /lib/terminfo /usr/share/terminfo /usr/lib/terminfo; do
    [ -d "$d" ] && hide_terminfo="$hide_terminfo mount -t tmpfs none $d || exit 1;"
done
# ns_tui NAME TMPDIR USER MOUNTS: starts the TUI in tmux session NAME; its
# stderr goes to $work/NAME.err; the pane ends with tui-exit= and left=
# (what is in /tmp and /dev/shm afterwards, TMPDIR itself aside).
ns_tui() {
    cat >"$work/$1.sh" <<EOT
cd "$work/board" || exit 1
exec 3>"$work/$1.err"
$hide_terminfo
$4
$3 env -i PATH=/usr/bin:/bin HOME=/nonexistent TMPDIR="$2" XDG_CONFIG_HOME=/nonexistent \
    QEMU_LD_PREFIX=/nonexistent LD_LIBRARY_PATH= TERM=vt100 NO_COLOR=1 LC_ALL=C \
    ${wrap:+$wrap} ./evmbench --board am62xx_sk-fs --no-save 2>&3
echo "tui-exit=\$?"
echo "left=[\$(find /tmp /dev/shm -mindepth 1 ! -path "$2" | tr '\n' ' ')]"
sleep 30
EOT
    tm new-session -d -s "$1" -x 80 -y 24 "unshare -m sh '$work/$1.sh'" || fail "cannot start tmux"
}
# tui_opens NAME WHAT: the home screen opens, q quits with 0, nothing left.
tui_opens() {
    seen=
    for _ in $(seq 1 100); do
        tm capture-pane -p -t "$1" >"$work/screen" 2>/dev/null
        if grep -q 'Performance Guide categories' "$work/screen"; then seen=yes; break; fi
        grep -q '^tui-exit=' "$work/screen" && break
        sleep 0.2
    done
    [ -n "$seen" ] || { cat "$work/screen" "$work/$1.err"; fail "the TUI opens ($2)"; }
    tm send-keys -t "$1" q
    for _ in $(seq 1 50); do
        tm capture-pane -p -t "$1" >"$work/screen" 2>/dev/null
        grep -q '^left=' "$work/screen" && break
        sleep 0.2
    done
    grep -q '^tui-exit=0' "$work/screen" || { cat "$work/screen"; fail "q quits the TUI with status 0 ($2)"; }
    grep -q '^left=\[\]' "$work/screen" || { cat "$work/screen"; fail "the TUI removed its terminfo copy ($2)"; }
    ok "the TUI opens and cleans up ($2)"
}
fresh_tmp="mount -t tmpfs -o mode=1777 none /tmp || exit 1; mount -t tmpfs -o mode=1777 none /dev/shm || exit 1;"
ro_tmp="mount -t tmpfs -o ro none /tmp || exit 1;"
ro_run=
[ -d /run/user ] && ro_run="mount -t tmpfs -o ro none /run/user || exit 1;"

ns_tui nstmp /nonexistent "" "$fresh_tmp $ro_tmp $ro_run"
tui_opens nstmp "TMPDIR=/nonexistent, /tmp read-only: /dev/shm"

ns_tui rotmp /tmp/ro "setpriv --reuid=65534 --regid=65534 --clear-groups" \
    "$fresh_tmp $ro_run mkdir -m 555 /tmp/ro || exit 1;"
tui_opens rotmp "read-only TMPDIR, uid 65534: /tmp"

ns_tui notmp /nonexistent "" "$fresh_tmp $ro_tmp mount -t tmpfs -o ro none /dev/shm || exit 1; $ro_run"
for _ in $(seq 1 100); do
    tm capture-pane -p -t notmp >"$work/screen" 2>/dev/null
    grep -q '^left=' "$work/screen" && break
    sleep 0.2
done
err=$work/notmp.err
grep -q '^tui-exit=1' "$work/screen" || { cat "$work/screen" "$err"; fail "no writable directory: the TUI exits 1"; }
for want in 'need a terminfo entry for TERM=vt100' \
    '^  /nonexistent/evmbench-.*No such file or directory' \
    '^  /tmp/evmbench-.*Read-only file system' '^  /dev/shm/evmbench-.*Read-only file system' \
    '^  /run/user/0/evmbench-'; do
    grep -q -- "$want" "$err" ||
        { cat "$err"; fail "no writable directory: the TUI names each directory and its error (/$want/)"; }
done
if grep -q 'try TERM=vt100' "$err"; then cat "$err"; fail "the message contradicts itself"; fi
ok "no writable directory: the TUI says which directories failed and why, exit 1"
