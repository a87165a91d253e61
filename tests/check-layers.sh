#!/bin/sh
# check-layers.sh - the #include lines follow the layers, one way.
#
#   src/cli/  ->  screens/  ->  core (the rest of src/)  ->  benches/kernels/
#                                                           ->  src/kernel/
#
# A file may include headers of its own layer and of the layers below it:
#   cli       src/cli/*             main() and the commands
#   screens   screens/*             the ncurses screens
#   core      src/* but src/cli and src/kernel
#                                   app, data, board, run, recipe, store, guide
#   kernels   benches/kernels/*     the embedded benchmark kernels
#   kernel    src/kernel/*          the contract: what a kernel implements
#                                   (kernel.h, report.h) and uses (cpuclock.h,
#                                   cpucheck.h); includes only base headers
#   base      src/common/*          used by every layer
# The core never includes a benches/kernels header: those are private to
# the kernels, but for registry.h, the list of the built-in kernels, which
# the commands (src/cli) hand to app_init(); the core knows kernels only
# as the list it is given.
# Only the screens include curses (<curses.h>, <term.h> ...): the core is
# a library without ncurses.
#
# It also fails when folders include each other, directly or around a
# longer cycle (src/ itself, with app.h, is a folder).
#
# Usage: check-layers.sh [SRCDIR]   (default: the directory above this script)
set -u

top=${1:-$(dirname "$0")/..}
cd "$top" || exit 1

files=$(find src screens benches/kernels -type f -name '*.[ch]' 2>/dev/null |
        grep -v '^src/data/embedded_data\.c$' | LC_ALL=C sort)
test -n "$files" || { echo "check-layers: no sources under $top" >&2; exit 1; }

# FILE <tab> q|s <tab> HEADER <tab> LINE for every #include "..." and <...>
for f in $files; do
    awk -v f="$f" '
        /^[ \t]*#[ \t]*include[ \t]*["<]/ {
            h = $0; sub(/^[^"<]*["<]/, "", h)
            kind = ($0 ~ /include[ \t]*"/) ? "q" : "s"
            sub(/[">].*$/, "", h)
            if (h != "config.h") printf "%s\t%s\t%s\t%d\n", f, kind, h, FNR
        }' "$f"
done | awk -F '\t' '
function layer(p) {
    if (p ~ /^src\/common\//) return "base"
    if (p ~ /^src\/kernel\//) return "kernel"
    if (p ~ /^src\/cli\//) return "cli"
    if (p ~ /^screens\//) return "screens"
    if (p ~ /^benches\/kernels\//) return "kernels"
    if (p ~ /^src\//) return "core"
    return ""
}
function folder(p) {
    sub(/\/[^\/]*$/, "", p); return p
}
function exists(p,    r, l) {
    if (p in known) return known[p]
    r = ((getline l < p) >= 0); close(p)
    return known[p] = r
}
function problem(msg) { print msg; bad++ }
BEGIN {
    rank["base"] = 0; rank["kernel"] = 1; rank["kernels"] = 2
    rank["core"] = 3; rank["screens"] = 4; rank["cli"] = 5
    bad = 0; n = 0; ncurses = 0
}
$2 == "s" {
    if ($3 ~ /^(n?curses|term|panel|menu|form)\.h$|^ncursesw?\//) {
        ncurses++
        if (layer($1) != "screens")
            problem($1 ":" $4 ": includes <" $3 ">: only the screens use curses")
    }
    next
}
{
    file = $1; inc = $3; line = $4
    # as the compiler searches: beside the file, then src/, then the top
    if (exists(folder(file) "/" inc))   hdr = folder(file) "/" inc
    else if (exists("src/" inc))        hdr = "src/" inc
    else                                hdr = inc
    if (inc ~ /^\.\.?\// || !exists(hdr)) {
        problem(file ":" line ": includes \"" inc "\", not a header of the tree by its folder")
        next
    }
    n++
    lf = layer(file); lh = layer(hdr)
    if (lf == "" || lh == "") {
        problem(file ":" line ": \"" inc "\" is outside the layers"); next
    }
    counted[lf]++
    if (rank[lh] > rank[lf])
        problem(file ":" line ": includes \"" inc "\": layer " lh " is above " lf)
    else if (lh == "kernels" && lf != "kernels" &&
             !(hdr == "benches/kernels/registry.h" && lf == "cli"))
        problem(file ":" line ": includes \"" inc "\": the kernels headers are theirs alone (the core uses kernel/kernel.h and the list app_init is given)")
    a = folder(file); b = folder(hdr)
    node[a]; node[b]
    if (a != b && !((a, b) in edge))
        edge[a, b] = file ":" line " \"" inc "\""
}
END {
    # reach[x, y]: y is reached from x through includes (Warshall)
    for (k in edge) reach[k]
    for (m in node) for (x in node) if ((x, m) in reach) for (y in node)
        if ((m, y) in reach) reach[x, y]
    # each cycle once, named by its first folder
    for (x in node) {
        first = x
        for (y in node)
            if ((x, y) in reach && (y, x) in reach && y < first) first = y
        if (first != x || !((x, x) in reach)) continue
        members = ""; links = ""
        for (y in node) if ((x, y) in reach && (y, x) in reach) members = members " " y
        for (k in edge) {
            split(k, e, SUBSEP)
            if ((x, e[1]) in reach && (e[1], x) in reach &&
                (x, e[2]) in reach && (e[2], x) in reach)
                links = links "\n    " e[1] " -> " e[2] ": " edge[k]
        }
        problem("folders include each other:" members links)
    }
    nf = 0; for (x in node) nf++
    printf "check-layers: %d includes in %d folders (cli %d, screens %d, core %d, " \
        "kernels %d, kernel %d, base %d), %d of curses: ", n, nf, counted["cli"], \
        counted["screens"], counted["core"], counted["kernels"], counted["kernel"], \
        counted["base"], ncurses
    if (bad) { printf "%d problem(s)\n", bad; exit 1 }
    printf "every include goes down the layers, no folder cycle\n"
    # the folders in an order where each includes only folders after it
    for (k in edge) { split(k, e, SUBSEP); indeg[e[2]]++ }
    order = ""
    for (i = 0; i < nf; i++) {
        pick = ""
        for (x in node)
            if (!(x in done) && !indeg[x] && (pick == "" || x < pick)) pick = x
        done[pick]; order = order " " pick
        for (k in edge) { split(k, e, SUBSEP); if (e[1] == pick) indeg[e[2]]-- }
    }
    printf "check-layers: folders, each including only those after it:%s\n", order
}'
