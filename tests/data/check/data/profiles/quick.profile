# quick.profile - the check's fixture profile (tests/check_e2e.sh,
# tests/tui_e2e.sh): in place of the shipped quick profile, one benchmark
# of the fake tool "chk", whose numbers a file sets, so that no check
# depends on this machine's speed.
description The before/after check on a fake board
budget quick
bench ddr_check
