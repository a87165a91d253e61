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
# WRAPPER runs a foreign binary (qemu-aarch64); empty for a native one.
# Prints the sizes. Exit 0 pass, 1 fail.
set -u
bin=${1:?usage: check-static.sh BINARY [WRAPPER]}
wrap=${2:-}
fail() { echo "check-static: FAIL: $*" >&2; exit 1; }
ok() { echo "check-static: ok - $*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/evmbench-static.XXXXXX") || exit 1
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

# --- the commands, nothing installed ---------------------------------------------
# Only the binary's own directory; no data directory, empty library paths.
board() {
    (cd "$work/board" && env -i PATH=/usr/bin:/bin HOME="$work/home" TMPDIR="$work/tmp" \
        XDG_DATA_HOME="$work/home/data" QEMU_LD_PREFIX=/nonexistent LD_LIBRARY_PATH= \
        LC_ALL=C ${wrap:+$wrap} ./evmbench "$@")
}
board list >"$work/out" 2>&1 || { cat "$work/out"; fail "evmbench list"; }
if ! grep -q 'System Benchmarks' "$work/out" || ! grep -q '^  stream .* refs$' "$work/out"; then
    cat "$work/out"; fail "list shows the built-in categories and references"
fi
ok "list uses the built-in reference data"
board run stream --quick --size 1000000 --board am62xx_sk-fs >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "evmbench run stream --quick"; }
grep -Eq '^triad +[0-9.]+ mb/s' "$work/out" || { cat "$work/out"; fail "run stream prints triad"; }
ok "run stream --quick"
board sysinfo >"$work/out" 2>&1 || { cat "$work/out"; fail "evmbench sysinfo"; }
ok "sysinfo"
[ -z "$(ls -A "$work/tmp")" ] || { ls -la "$work/tmp"; fail "a temporary directory was left behind"; }
ok "no temporary files left"

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
