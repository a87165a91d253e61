#!/bin/sh
# run.sh - builds the seed corpora and runs libFuzzer targets (make fuzz).
#   sh run.sh SRCDIR SECONDS JOBS NAME...
# Each target fuzz_NAME (in tests/fuzz/ of the build directory) runs for
# SECONDS, JOBS of them at a time. The corpus grows in tests/fuzz/corpus/NAME
# (kept between runs), a crash, leak or hang is saved in tests/fuzz/crashes/
# and fails the run. The last line of each log gives the executions.
set -eu
src=$1 secs=$2 jobs=$3
shift 3
here=tests/fuzz
mkdir -p "$here/seed-corpus" "$here/corpus" "$here/crashes"

seeds() {
    name=$1 dir="$here/seed-corpus/$1"
    rm -rf "$dir"
    mkdir -p "$dir" "$here/corpus/$name"
    case $name in
    guide)      # every fixture guide in every layout (first byte)
        for f in "$src"/tests/data/guides/*; do
            for l in 0 1 2 3 4; do
                { printf "\\00$l"; cat "$f"; } > "$dir/$(basename "$f").$l"
            done
        done ;;
    refdb)
        for f in "$src"/tests/data/refs/*.json "$src"/tests/data/refs-bad/*.json \
                 "$src"/benches/refs/*.json; do
            cp "$f" "$dir/"
        done ;;
    theme)
        for f in "$src"/themes/*.theme; do
            { printf '\000'; cat "$f"; } > "$dir/$(basename "$f").color"
            { printf '\001'; cat "$f"; } > "$dir/$(basename "$f").mono"
        done ;;
    recipe)     # each captured output, for its tool's benchmarks
        EVMFUZZ_LIST=1 "$here/fuzz_recipe" 2>/dev/null > "$here/recipes.txt"
        for out in "$src"/tests/data/tools/*/*/output; do
            case_dir=$(dirname "$out")
            case_name=$(basename "$case_dir")
            tool_dir=$(basename "$(dirname "$case_dir")")
            while read -r tool bench; do
                case $case_name in
                "$bench"*) ;;
                *) [ "$tool" = "$tool_dir" ] || continue ;;
                esac
                for i in 0 1 2 3; do
                    { printf '%s %s\n' "$bench" $i; cat "$out"; } \
                        > "$dir/$tool_dir.$case_name.$bench.$i"
                done
            done < "$here/recipes.txt"
        done ;;
    tooldef)    # the shipped tool definitions and the broken fixtures
        cp "$src"/benches/tools/*.json "$src"/tests/data/tools/bad/*.json "$dir/" ;;
    socdata)    # each shipped file as what it is, and as the other kind
        for f in "$src"/benches/soc/*.json; do
            { printf '\000'; cat "$f"; } > "$dir/$(basename "$f").ddr"
            { printf '\001'; cat "$f"; } > "$dir/$(basename "$f").cpu"
        done ;;
    store)
        cp "$src"/tests/fuzz/seeds/store/* "$dir/" ;;
    profile)
        cp "$src"/benches/profiles/*.profile "$dir/" ;;
    settings)
        printf 'theme mono\nupdates 2\nprovider kernel\n' > "$dir/config" ;;
    gunzip)     # the data files as the build packs them, and a stored block
        for f in "$src"/benches/profiles/*.profile "$src"/themes/*.theme \
                 "$src"/benches/soc/*.json; do
            gzip -9 -n -c "$f" > "$dir/$(basename "$f").gz"
        done
        head -c 3000 /dev/urandom | gzip -9 -n -c > "$dir/noise.gz" ;;
    board)
        for d in "$src"/tests/data/sysroots/*/; do
            EVMFUZZ_ENCODE="$d" EVMFUZZ_OUT="$dir/$(basename "$d")" "$here/fuzz_board"
        done ;;
    esac
}

run_one() {
    name=$1
    log="$here/$name.log"
    if "$here/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$here/crashes/$name-" \
        "$here/corpus/$name" "$here/seed-corpus/$name" >"$log" 2>&1; then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz $name: $execs executions in ${secs} s, no crash"
    else
        tail -n 40 "$log"
        # the input too, so that a run on a machine that is gone (CI) can be
        # replayed: base64 -d > input; tests/fuzz/fuzz_NAME input
        for f in "$here/crashes/$name-"*; do
            [ -f "$f" ] || continue
            echo "input $(basename "$f"), $(wc -c < "$f") bytes, base64:"
            head -c 8192 "$f" | base64
        done
        echo "fuzz $name: FAILED (log $log, input in $here/crashes/)"
        return 1
    fi
}

for n in "$@"; do seeds "$n"; done
# JOBS targets at a time; any failure fails the whole run.
status=0
set -- "$@"
while [ $# -gt 0 ]; do
    pids=""
    i=0
    while [ $i -lt "$jobs" ] && [ $# -gt 0 ]; do
        run_one "$1" & pids="$pids $!"
        shift
        i=$((i + 1))
    done
    for p in $pids; do wait "$p" || status=1; done
done
exit $status
