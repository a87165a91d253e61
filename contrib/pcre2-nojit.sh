#!/bin/sh
# Builds libpcre2-8 without its JIT compiler, as a static library for a
# cross host, from Debian's own source package, for the static binaries:
# Debian's libpcre2-8.a has the JIT in one object that pcre2_match always
# pulls in (about 200 KB of aarch64 code that evmbench never runs; README,
# "Build for the board").
#   sh contrib/pcre2-nojit.sh HOST PREFIX [VERSION]
# HOST: the cross compiler's triplet (aarch64-linux-gnu, arm-linux-gnueabihf);
# PREFIX: where include/pcre2.h, lib/libpcre2-8.a and
# lib/pkgconfig/libpcre2-8.pc go (point PKG_CONFIG_LIBDIR at the latter);
# VERSION: of Debian's source package pcre2, by default that of the installed
# libpcre2-dev. The downloaded source stays in PCRE2_NOJIT_CACHE (default:
# pcre2-src beside PREFIX), shared by the hosts; a second run for the same
# host, version and PREFIX does nothing.
# apt-get source needs deb-src entries and dpkg-dev: sh .ci/deps pcre2-src.
# When the mirror lacks the source of VERSION (a security update's source
# may be missing where its .deb is not), the script fails; with
# PCRE2_NOJIT_ANY_VERSION=yes it builds the newest version it can fetch
# instead and says so.
set -eu
[ $# -ge 2 ] || { echo "usage: sh contrib/pcre2-nojit.sh HOST PREFIX [VERSION]" >&2; exit 2; }
host=$1
version=${3:-$(dpkg-query -W -f='${source:Version}' "libpcre2-dev:$(dpkg --print-architecture)" 2>/dev/null || true)}
[ -n "$version" ] ||
    { echo "pcre2-nojit.sh: libpcre2-dev is not installed: name the VERSION to build" >&2; exit 1; }
command -v "$host-gcc" >/dev/null ||
    { echo "pcre2-nojit.sh: no $host-gcc (sh .ci/deps aarch64, or armhf)" >&2; exit 1; }
mkdir -p "$2"
prefix=$(cd "$2" && pwd)
cache=${PCRE2_NOJIT_CACHE:-$(dirname "$prefix")/pcre2-src}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# The stamp names what PREFIX holds; the same request again is done.
stamp="$prefix/pcre2-nojit.stamp"
built() { echo "pcre2 $1 for $host, --disable-jit, static"; }
if [ -f "$stamp" ] && [ -f "$prefix/lib/libpcre2-8.a" ] &&
    { [ "$(cat "$stamp")" = "$(built "$version")" ] ||
        { [ "${PCRE2_NOJIT_ANY_VERSION:-}" = yes ] && grep -q "for $host, " "$stamp"; }; }; then
    echo "pcre2-nojit.sh: $(cat "$stamp") is in $prefix"
    exit 0
fi

# The source package: .dsc, upstream tarball, Debian's changes (apt checks
# them against the signed index). Kept in the cache for the next host.
fetch() {
    dsc="$cache/pcre2_${1#*:}.dsc"
    [ -f "$dsc" ] && return 0
    (cd "$cache" && apt-get source -q --download-only "pcre2=$1" >/dev/null 2>"$cache/apt.log") &&
        [ -f "$dsc" ]
}
if ! fetch "$version"; then
    sed -n 's/^E: /pcre2-nojit.sh: /p' "$cache/apt.log" >&2
    if [ "${PCRE2_NOJIT_ANY_VERSION:-}" != yes ]; then
        echo "pcre2-nojit.sh: cannot fetch the source of pcre2 $version (deb-src entries: sh .ci/deps pcre2-src; another version: name it, or PCRE2_NOJIT_ANY_VERSION=yes)" >&2
        exit 1
    fi
    wanted=$version
    version=""
    for v in $(apt-cache showsrc pcre2 2>/dev/null | sed -n 's/^Version: //p' | sort -u -r -V); do
        [ "$v" != "$wanted" ] || continue
        if fetch "$v"; then version=$v; break; fi
    done
    [ -n "$version" ] || { echo "pcre2-nojit.sh: no source of pcre2 can be fetched" >&2; exit 1; }
    echo "pcre2-nojit.sh: WARNING: building pcre2 $version, not $wanted (the installed libpcre2-dev), whose source cannot be fetched: Debian's changes between the two are missing" >&2
fi

build="$prefix/build"
rm -rf "$build"
mkdir -p "$build"
# (checksums checked again; the signature, when gpgv has no Debian keys,
# only reported in the log: apt checked the files against the signed index)
dpkg-source -x "$dsc" "$build/src" >"$build/unpack.log" 2>&1 ||
    { cat "$build/unpack.log" >&2; exit 1; }
cd "$build/src"
# Only libpcre2-8 (and the POSIX wrapper the install rule of the library
# brings with it), static, no JIT; the rest as upstream's defaults, as
# Debian's build (it adds the 16- and 32-bit libraries and --enable-jit).
# -ffunction-sections and -fdata-sections let the program's
# -Wl,--gc-sections drop the functions it never calls.
./configure -q --host="$host" --prefix="$prefix" --disable-jit --disable-shared \
    --enable-static --enable-pcre2-8 --disable-pcre2-16 --disable-pcre2-32 \
    --disable-pcre2grep-libz --disable-pcre2grep-libbz2 --disable-pcre2test-libreadline \
    CFLAGS="-O2 -ffunction-sections -fdata-sections" >/dev/null
make -s -j"$(nproc 2>/dev/null || echo 2)" libpcre2-8.la >/dev/null
make -s install-nodist_includeHEADERS >/dev/null
mkdir -p "$prefix/lib/pkgconfig"
cp .libs/libpcre2-8.a "$prefix/lib/"
cp libpcre2-8.pc "$prefix/lib/pkgconfig/"
cd "$prefix"
rm -rf "$build"
built "$version" >"$stamp"
echo "pcre2-nojit.sh: $(cat "$stamp") is in $prefix"
