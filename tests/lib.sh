# shellcheck shell=sh
# lib.sh - what the shell tests share: a temporary directory removed at
# exit, numbered "ok N - ..." lines with their count and a closing summary,
# and a runner of the program under test with the helpers that judge its
# status and output. POSIX sh: make check runs the tests with $(SHELL)
# (bash where configure finds it), CI and a run by hand with sh (dash).
#
# A test sources it from its own directory, which holds for an in-tree
# build, a VPATH build (make distcheck) and a run by hand:
#     . "$(dirname "$0")/lib.sh" || exit 1
#
# Sourcing defines the functions below and sets three variables:
#   n       the checks counted so far (ok, fail, not_ok, skip, check), 0
#   failed  the checks that failed without ending the script (not_ok), 0
#   limit   seconds a run of ev or ev_user may take before it counts as
#           hung, 300; a test may set it after sourcing. It detects a
#           hang, it is not a speed budget: every run takes seconds, also
#           under qemu or a sanitizer.
# Names a test uses of its own: $tmp (from make_tmp); $st, $tmp/out and
# $tmp/err (from ev and ev_user); BIN, WRAP, DATA (from program_env).

n=0
failed=0
limit=300

# --- the temporary directory ------------------------------------------------

# make_tmp NAME: creates the directory $tmp (under $TMPDIR, else /tmp, its
# name from NAME) or ends the script with status 1. It is mode 755, so a
# case run as uid 65534 (as_user) can reach what is under it. XDG_DATA_HOME
# and XDG_CONFIG_HOME are exported under it: the program never reads or
# writes the results store or settings of the user running the tests. At
# exit the function at_exit runs, then $tmp is removed, also what was made
# read-only in it; INT, TERM and HUP end the script with status 1 (and so
# go the same way).
make_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    chmod 755 "$tmp"
    export XDG_DATA_HOME="$tmp/xdg-data" XDG_CONFIG_HOME="$tmp/xdg-config"
    trap lib_cleanup EXIT
    trap 'exit 1' INT TERM HUP
}

# at_exit: what a test undoes before $tmp is removed (a mount, a server).
# This one does nothing; a test that needs more defines its own after
# sourcing this file. Its status is not looked at.
at_exit() { :; }

# lib_cleanup: the EXIT trap of make_tmp (at_exit, then $tmp removed).
# shellcheck disable=SC2317  # called by the trap
lib_cleanup() {
    at_exit
    chmod -R u+rwx "$tmp" 2>/dev/null
    rm -rf "$tmp"
}

# --- checks and their count ---------------------------------------------------

# ok DESCRIPTION: counts a check that passed and prints "ok N - DESCRIPTION".
ok() {
    n=$((n + 1))
    echo "ok $n - $1"
}

# skip DESCRIPTION: counts a check that could not run here and prints it as
# TAP's "ok N - # SKIP DESCRIPTION".
skip() {
    n=$((n + 1))
    echo "ok $n - # SKIP $1"
}

# fail DESCRIPTION: counts a check that failed, prints "not ok N -
# DESCRIPTION", then show_failure, and ends the script with status 1: the
# checks after it would read a state that is not what they expect.
fail() {
    n=$((n + 1))
    echo "not ok $n - $1"
    show_failure
    exit 1
}

# not_ok DESCRIPTION: counts a check that failed and prints "not ok N -
# DESCRIPTION"; the script goes on, and finish ends it with status 1.
not_ok() {
    n=$((n + 1))
    failed=$((failed + 1))
    echo "not ok $n - $1"
}

# check STATUS DESCRIPTION: ok DESCRIPTION when STATUS is 0, else not_ok
# DESCRIPTION (the script goes on). STATUS is usually $? of a test command.
check() {
    if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi
}

# show_failure: what fail prints after its "not ok" line to tell why: the
# first 4000 bytes of each non-empty $tmp/out and $tmp/err (the last run of
# ev). A test whose evidence lies elsewhere (a captured screen) defines its
# own after sourcing this file.
show_failure() {
    for f in "$tmp/out" "$tmp/err"; do
        [ -s "$f" ] && { echo "--- $(basename "$f"):"; head -c 4000 "$f"; echo; }
    done
}

# finish NAME: ends the script: prints the TAP plan "1..N", then "NAME: all
# N checks passed" and exits 0, or "NAME: F of N checks failed" and exits 1
# when not_ok (or check) counted a failure.
finish() {
    echo "1..$n"
    if [ "$failed" -eq 0 ]; then
        echo "$1: all $n checks passed"
        exit 0
    fi
    echo "$1: $failed of $n checks failed"
    exit 1
}

# --- the program under test ---------------------------------------------------

# program_env: BIN (the program), WRAP (the emulator a cross build runs it
# with, maybe empty) and DATA (tests/data of the source tree) from the
# environment make check gives (Makefile.am, AM_TESTS_ENVIRONMENT); an unset
# EVMBENCH_BIN or TESTS_DATA ends the script with a message.
# shellcheck disable=SC2034  # set for the test that sources this file
program_env() {
    BIN=${EVMBENCH_BIN:?EVMBENCH_BIN is not set}
    WRAP=${EVMBENCH_WRAPPER:-}
    DATA=${TESTS_DATA:?TESTS_DATA is not set}
}

# hung STATUS WHAT: fails (fail) when STATUS is timeout(1)'s, 124, or 137
# when it had to kill: WHAT did not end within $limit s.
hung() {
    case $1 in 124 | 137) fail "$2 hung: stopped after $limit s (status $1)" ;; esac
}

# ev ARGS...: runs "$WRAP $BIN ARGS..." with no input; its status in $st,
# its stdout in $tmp/out, its stderr in $tmp/err. A run that does not end
# within $limit s is stopped (TERM, then KILL 10 s later) and fails (hung).
ev() {
    # shellcheck disable=SC2086  # WRAP is a command, maybe empty
    timeout -k 10 "$limit" $WRAP "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    hung "$st" "evmbench $*"
}

# as_user CMD...: runs CMD as an unprivileged user, for the cases root would
# pass by its override of file permissions (CI runs as root): as uid and
# gid 65534 with no groups (setpriv) when the script runs as root, else as
# the user it runs as. Without setpriv as root it fails (fail): such a case
# is never skipped. What CMD uses must be reachable by uid 65534.
as_user() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
        return
    fi
    command -v setpriv >/dev/null 2>&1 ||
        fail "setpriv (util-linux) is missing: the permission cases cannot run as uid 65534"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# ev_user ARGS...: ev as the user of as_user. It runs a copy of the program,
# $tmp/bin/evmbench (made on the first call): the build tree may be where
# uid 65534 cannot go (a clone in root's home).
ev_user() {
    [ -x "$tmp/bin/evmbench" ] || { mkdir -p "$tmp/bin" && cp "$BIN" "$tmp/bin/evmbench" &&
        chmod 755 "$tmp/bin" "$tmp/bin/evmbench"; } || fail "cannot copy $BIN to $tmp/bin"
    # shellcheck disable=SC2086  # WRAP is a command, maybe empty
    as_user timeout -k 10 "$limit" $WRAP "$tmp/bin/evmbench" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    hung "$st" "evmbench $* (as uid $(as_user id -u))"
}

# has TEXT: true when $tmp/out (the last run's stdout) holds TEXT, a fixed
# string.
has() { grep -qF -- "$1" "$tmp/out"; }

# expect_ok DESCRIPTION: ok when the last run exited 0, else fail with its
# status.
expect_ok() {
    if [ "$st" -eq 0 ]; then ok "$1"; else fail "$1 (status $st)"; fi
}

# expect_fail STATUS ERE DESCRIPTION: ok when the last run exited STATUS and
# its stderr matches the extended regular expression ERE, else fail.
expect_fail() {
    if [ "$st" -eq "$1" ] && grep -Eq -- "$2" "$tmp/err"; then ok "$3"; else
        fail "$3 (status $st, wanted $1 and /$2/)"; fi
}
