#!/bin/sh
# sysstate_e2e.sh - the before/after check of a DDR change, end to end, on
# fixture trees (tests/data/sysroots-sys): a run saved as baseline on a
# tree at 1600 MT/s, a run against it on the same board at 1333 MT/s, and
# `results compare` of the two say the DDR change first; the bandwidth
# rows show their share of the DDR peak only where it is known; a debugfs
# the user may not read is said, as uid 65534 when this runs as root.
#
# Environment (set by 'make check'): EVMBENCH_BIN, EVMBENCH_WRAPPER (may be
# empty), EVMBENCH_DATADIR, TESTS_DATA. Exit: 0 pass, 1 fail.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh" || exit 1

program_env
SYS="$DATA/sysroots-sys"
make_tmp sysstate
store="--results-dir=$tmp/store"

# --- before: DDR at 1600 MT/s, saved as the baseline -----------------------
ev run stream --quick --sysroot "$SYS/am62x-ddr1600" "$store" --save-baseline before-ddr
[ "$st" -eq 0 ] || fail "run before the change: status $st"
if has "% of the DDR peak, 3200 MB/s" &&
    [ "$(grep -c '% of the DDR peak' "$tmp/out")" -eq 4 ]; then
    ok "before: each STREAM row shows its share of the 3200 MB/s peak (1600 MT/s x 16 bit)"
else
    fail "before: the STREAM rows lack the share of the DDR peak"
fi

ev results show latest "$store"
if has "System: DDR 1600 MT/s (clk_summary), CPU " && has "U-Boot 2024.04-ti-g29d0c23b9a12" &&
    has "% of the DDR peak, 3200 MB/s"; then
    ok "results show: the run's system in one line, and the share of the peak"
else
    fail "results show: no system line"
fi

# --- after: the same board with its DDR at 1333 MT/s ------------------------
ev run stream --quick --sysroot "$SYS/am62x-ddr1333" "$store" --baseline before-ddr
[ "$st" -eq 0 ] || fail "run after the change: status $st"
first=$(grep -n 'System, baseline before-ddr (A) -> this run (B): DDR 1600 -> 1333 MT/s (clk_summary)' \
    "$tmp/out" | cut -d: -f1)
metrics=$(grep -n '^copy ' "$tmp/out" | head -1 | cut -d: -f1)
if [ -n "$first" ] && [ -n "$metrics" ] && [ "$first" -lt "$metrics" ] && has "kernel unchanged"; then
    ok "run --baseline says the DDR change (1600 -> 1333 MT/s, clk_summary) before the metrics"
else
    fail "run --baseline: no DDR change said before the metrics"
fi
has "% of the DDR peak, 2667 MB/s" || fail "after: the peak does not follow the new rate"
ok "after: the peak follows the rate (1333.3 MT/s x 16 bit = 2667 MB/s)"

ev results compare before-ddr latest "$store"
[ "$st" -eq 0 ] || fail "results compare: status $st"
sysline=$(grep -n '^System: DDR 1600 -> 1333 MT/s (clk_summary), ' "$tmp/out" | cut -d: -f1)
metric=$(grep -n '^stream.copy ' "$tmp/out" | cut -d: -f1)
if [ -n "$sysline" ] && [ -n "$metric" ] && [ "$sysline" -lt "$metric" ]; then
    ok "results compare A B: the system's difference first, then the metrics"
else
    fail "results compare: the DDR change is not said first"
fi
ev results compare before-ddr latest "$store" --format json
if has '"change": "DDR 1600 -> 1333 MT/s (clk_summary)' && has '"mts_source": "clk_summary"'; then
    ok "results compare --format json: both systems and the change"
else
    fail "results compare --format json: no system"
fi

# the same DDR on both sides is said as unchanged
ev run stream --quick --sysroot "$SYS/am62x-ddr1333" "$store" --baseline latest --format json
if [ "$st" -eq 0 ] && has '"system_change": "DDR 1333 MT/s unchanged' && has '"mts": 1333'; then
    ok "run --format json: the system record and an unchanged DDR"
else
    fail "run --format json: no system record or change (status $st)"
fi

# --- a run file from before the system was recorded ------------------------
old="$tmp/store/runs/20250101-000000-am62xx_sk-fs.evmrun"
printf '%s\n' '{"format":"evmbench-run/1","id":"20250101-000000-am62xx_sk-fs","started":"2025-01-01T00:00:00Z","board":"am62xx_sk-fs"}' \
    '{"row":{"bench":"stream","metric":"copy","unit":"mb/s","value":1500,"status":"ok","provider":"kernel:stream"}}' \
    '{"end":"2025-01-01T00:01:00Z"}' >"$old"
ev results compare 20250101-000000-am62xx_sk-fs before-ddr "$store"
if [ "$st" -eq 0 ] && has "System: not recorded in A (a run from before evmbench recorded the system)" &&
    has "stream.copy"; then
    ok "an old run file still loads and compares; its system is said to be not recorded"
else
    fail "an old run file: status $st"
fi

# --- where the rate is not known, no peak -----------------------------------
ev run stream --quick --sysroot "$SYS/am62x-no-ddr-clock" --no-save
if [ "$st" -eq 0 ] && ! has "DDR peak" && has "copy"; then
    ok "no DDR clock in clk_summary: no share of a peak is shown"
else
    fail "no DDR clock: a peak was shown (status $st)"
fi
ev sysinfo --sysroot "$SYS/j721e-dt-ddr"
if has "DDR clock:    1066.5 MHz (device tree: /bus@100000/memorycontroller@2990000" &&
    has "DDR rate:     not readable" && has "DDR peak:     unknown"; then
    ok "J721E: the device tree's DDR clock is shown, no rate or peak is guessed"
else
    fail "J721E sysinfo"
fi

# --- k3conf, read-only -------------------------------------------------------
EVMBENCH_K3CONF="$SYS/k3conf-fake" K3CONF_FAKE_LOG="$tmp/k3conf.log" \
    ev sysinfo --sysroot "$SYS/am62x-no-ddr-clock"
if has "DDR rate:     1600 MT/s (k3conf: device 170 clock 1" &&
    [ "$(cat "$tmp/k3conf.log")" = "dump clock 170" ]; then
    ok "k3conf is asked to dump the DDR device's clocks, and nothing else"
else
    fail "k3conf: rate not read, or asked something else"
fi

# --- debugfs the user may not read -------------------------------------------
mkdir -p "$tmp/tree" && cp -R "$SYS/am62x-ddr1600/." "$tmp/tree/" && chmod -R a+rX "$tmp/tree" ||
    fail "cannot copy the fixture tree"
if [ "$(id -u)" -eq 0 ]; then
    chmod 700 "$tmp/tree/sys/kernel/debug"      # as the kernel mounts it
else
    chmod 000 "$tmp/tree/sys/kernel/debug"
fi
ev_user sysinfo --sysroot "$tmp/tree"
if [ "$st" -eq 0 ] && has "DDR rate:     not readable" &&
    tr '\n' ' ' <"$tmp/out" | tr -s ' ' | grep -q "Permission denied (debugfs is readable by root only)"; then
    ok "debugfs unreadable (uid $(as_user id -u)): the DDR rate is not readable, and why"
else
    fail "debugfs unreadable: status $st, no reason"
fi

finish sysstate_e2e
