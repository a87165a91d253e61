#!/bin/sh
# readme-captures.sh [README] - regenerates the README's captures from the
# real program, so that what the README shows is what evmbench prints.
#
# A capture is a fenced block right after a marker line
#     <!-- capture: NAME -->
# and NAME is one of:
#     run-stream     `evmbench run stream --board am62xx_lp_sk-fs --quick`
#                    (its standard output, with the command line above it)
#     category       the screens at 80x24, TERM=vt100, NO_COLOR: the System
#                    Benchmarks category of the AM62x SK
#     home           the home screen, same terminal
# Every such block is replaced in place; the rest of the file is kept.
# Environment: EVMBENCH_BIN (default ./evmbench), TMUX_BIN (default tmux).
# Numbers measured on this machine differ from run to run; that is expected.
set -u
readme=${1:-README.md}
BIN=${EVMBENCH_BIN:-./evmbench}
TMUX_BIN=${TMUX_BIN:-$(command -v tmux || true)}
[ -f "$readme" ] || { echo "readme-captures: $readme: no such file" >&2; exit 1; }
[ -x "$BIN" ] || { echo "readme-captures: $BIN: not an executable" >&2; exit 1; }
[ -n "$TMUX_BIN" ] || { echo "readme-captures: tmux not found" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/readme-captures.XXXXXX") || exit 1
sock=evmbench-readme-$$
tm() { "$TMUX_BIN" -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"

# screen ERE KEYS...: starts the screens at 80x24 vt100 on the AM62x SK,
# sends KEYS one by one, waits until ERE is on the screen, prints it with
# trailing blanks, runs of empty lines and the empty bottom lines removed.
screen() {
    want=$1
    shift
    tm kill-server >/dev/null 2>&1
    tm new-session -d -s cap -x 80 -y 24 \
        "env TERM=vt100 NO_COLOR=1 LC_ALL=C '$BIN' --board am62xx_sk-fs" || return 1
    for key in "$@"; do
        sleep 0.5
        tm send-keys -t cap "$key"
    done
    i=0
    while [ "$i" -lt 100 ]; do
        tm capture-pane -p -t cap >"$work/screen"
        grep -Eq -- "$want" "$work/screen" && break
        sleep 0.2
        i=$((i + 1))
    done
    grep -Eq -- "$want" "$work/screen" ||
        { echo "readme-captures: the screen never showed /$want/" >&2; return 1; }
    tm send-keys -t cap q
    sed -e 's/[[:space:]]*$//' "$work/screen" | cat -s |
        awk '{ line[NR] = $0 } END { n = NR; while (n > 0 && line[n] == "") n--;
               for (i = 1; i <= n; i++) print line[i] }'
}

capture() {
    case $1 in
        run-stream)
            echo '$ evmbench run stream --board am62xx_lp_sk-fs --quick'
            "$BIN" run stream --board am62xx_lp_sk-fs --quick 2>/dev/null ;;
        category)
            screen '^ System Benchmarks: ' Enter ;;
        home)
            screen 'Performance Guide categories' ;;
        *)
            echo "readme-captures: unknown capture '$1'" >&2
            return 1 ;;
    esac
}

# Replace each marked block. awk reads the captures from files named by
# the marker so the README itself is only read once.
names=$(sed -n 's/^<!-- capture: \([a-z-]*\) -->$/\1/p' "$readme")
[ -n "$names" ] || { echo "readme-captures: $readme has no capture markers" >&2; exit 1; }
for name in $names; do
    capture "$name" >"$work/$name.txt" || exit 1
    [ -s "$work/$name.txt" ] || { echo "readme-captures: $name is empty" >&2; exit 1; }
done
awk -v dir="$work" '
    /^<!-- capture: [a-z-]* -->$/ {
        print; name = $3; getline
        if ($0 != "```") { printf "%s: no fenced block after the %s marker\n", FILENAME, name > "/dev/stderr"; bad = 1; exit 1 }
        print
        while ((getline line < (dir "/" name ".txt")) > 0) print line
        while ((getline) > 0 && $0 != "```") ;
        print "```"
        next
    }
    { print }
    END { if (bad) exit 1 }' "$readme" >"$work/README.new" || exit 1
cat "$work/README.new" >"$readme"
echo "readme-captures: $(echo $names | wc -w) captures written to $readme"
