#!/bin/sh
# make check-lava: evmbench in LAVA, proven without a LAVA server. Builds
# the emulated AM625 SK (tests/board/mkimage.sh) around the static aarch64
# evmbench, runs the job tests/lava/qemu-job.yaml with Debian's lava-run on
# the device tests/lava/qemu-arm64.yaml, and checks the test cases LAVA
# recorded (tests/lava/check.py says which).
#
# Needs root (lava-run), `sh .ci/deps lava` (lava-dispatcher, qemu, the
# arm64 packages), a git checkout (the job clones contrib/lava/evmbench.yaml
# from it: what is committed at HEAD) and:
#   EVMBENCH_BIN         the native evmbench (for the quick profile's metrics)
#   EVMBENCH_STATIC_BIN  a static aarch64 evmbench; unset: built from HEAD
#                        in $LAVA_BUILD (default ./lava-build), which also
#                        keeps the Debian packages of the board for next time
#   LAVA_WORK            keep the images, jobs and logs there (default: a
#                        temporary folder, removed afterwards)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "check-lava: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "lava-run runs as root: run make check-lava as root"
command -v lava-run >/dev/null 2>&1 || die "lava-run is missing: sh .ci/deps lava"
git -C "$src" rev-parse --verify -q HEAD >/dev/null ||
    die "$src is not a git checkout: the job clones the test definition from it"
if [ -n "$(git -C "$src" status --porcelain -- contrib/lava)" ]; then
    echo "check-lava: warning: contrib/lava has uncommitted changes; the job runs HEAD's" >&2
fi
native=${EVMBENCH_BIN:-./evmbench}
[ -x "$native" ] || die "$native: no native evmbench (set EVMBENCH_BIN)"
native=$(cd "$(dirname "$native")" && pwd)/$(basename "$native")

if [ -n "${LAVA_WORK:-}" ]; then
    mkdir -p "$LAVA_WORK"
    work=$(cd "$LAVA_WORK" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/evmbench-lava.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    trap 'exit 1' HUP INT TERM
fi

build=${LAVA_BUILD:-lava-build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
bin=${EVMBENCH_STATIC_BIN:-}
if [ -z "$bin" ]; then
    # from HEAD, as the job's test definition; in a folder of its own, as
    # the source tree may be configured in place
    echo "check-lava: building the static aarch64 evmbench in $build"
    rm -rf "$build/src" && mkdir -p "$build/src/static"
    git -C "$src" archive HEAD | tar -x -C "$build/src"
    (cd "$build/src" && autoreconf -fi >"$build/autoreconf.log" 2>&1 && cd static &&
        PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
            ../configure --host=aarch64-linux-gnu --enable-static-binary >"$build/configure.log" 2>&1 &&
        make -j"$(nproc 2>/dev/null || echo 2)" evmbench >"$build/make.log" 2>&1) ||
        die "the static build failed (see $build/*.log)"
    bin=$build/src/static/evmbench
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

EVMBENCH_STATIC_BIN=$bin EVMBENCH_BOARD_CACHE=${EVMBENCH_BOARD_CACHE:-$build/debs} \
    sh "$src/tests/board/mkimage.sh" "$work/images" am625
# Debian's python3: lava-dispatcher's modules and python3-yaml are its own
/usr/bin/python3 "$src/tests/lava/check.py" --src "$src" --images "$work/images" --work "$work" \
    --evmbench "$native"
