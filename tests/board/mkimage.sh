#!/bin/sh
# mkimage.sh OUTDIR [am625|j721e]
# Builds an emulated TI board for qemu-system-aarch64 from Debian's
# packages, nothing else downloaded, nothing prebuilt committed.
#
# Needs: $EVMBENCH_STATIC_BIN, a static aarch64 evmbench (configure
# --host=aarch64-linux-gnu --enable-static-binary); qemu-system-aarch64,
# dtc and fdtget, cpio, gzip, dpkg-deb, tar, apt-get with the arm64 package lists
# (sh .ci/deps board installs them all).
#
# Writes into OUTDIR (made if missing):
#   Image           the arm64 kernel: Debian's linux-image-*-cloud-arm64
#                   (the generic linux-image-arm64 flavour when the cloud
#                   one cannot be had), uncompressed; PL011 console built in
#   initrd.cpio.gz  the initramfs (newc, gzip): busybox-static:arm64, /init,
#                   /bin/evmbench; no terminfo, no /usr/share
#   board.dtb       qemu's own virt device tree (-machine virt,dumpdtb=),
#                   round-tripped through dtc (the raw dump is padded to
#                   1 MiB, which hangs the kernel silently), with the root
#                   compatible and model of the board:
#                     am625: "ti,am625-sk", "ti,am625"  "Texas Instruments AM625 SK"
#                     j721e: "ti,j721e-evm", "ti,j721e" "Texas Instruments J721e EVM"
#   qemu-args       the qemu-system-aarch64 options the device tree was made
#                   for, one per line: -M virt, -cpu (cortex-a53 for am625,
#                   cortex-a72 for j721e), -smp 2, -m 512M, -nic none. Boot
#                   with the same -cpu and -smp (memory is rewritten by qemu):
#     qemu-system-aarch64 $(cat OUTDIR/qemu-args) -nographic \
#         -kernel OUTDIR/Image -initrd OUTDIR/initrd.cpio.gz \
#         -dtb OUTDIR/board.dtb -append "console=ttyAMA0 quiet"
#   cmdline         that kernel command line
#
# The initramfs: /init (PID 1) mounts proc, sysfs, devtmpfs, devpts,
# tmpfs on /tmp, /run and /dev/shm, then runs a login shell on /dev/ttyAMA0
# as its controlling terminal (so ^C, job control and SIGHUP work as on a
# board's serial console), started again when it exits. HOME=/root,
# PATH=/bin:/sbin, no TERM set (the caller sets it, as a person does).
# The shell prints "evmbench-board: ready" before its first prompt.
#
# The Debian packages are kept in $EVMBENCH_BOARD_CACHE (default
# OUTDIR/cache) and reused when there: a second run needs no network.
# Exit 0 built, 1 failed (with what and why on stderr), 2 usage.
set -eu

usage() { echo "usage: mkimage.sh OUTDIR [am625|j721e]" >&2; exit 2; }
die() { echo "mkimage.sh: $*" >&2; exit 1; }

if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
out=$1
variant=${2:-am625}
case "$variant" in
am625)
    cpu=cortex-a53
    compat='"ti,am625-sk", "ti,am625"'
    model='Texas Instruments AM625 SK' ;;
j721e)
    cpu=cortex-a72
    compat='"ti,j721e-evm", "ti,j721e"'
    model='Texas Instruments J721e EVM' ;;
*) usage ;;
esac

bin=${EVMBENCH_STATIC_BIN:-}
[ -n "$bin" ] || die "set EVMBENCH_STATIC_BIN to a static aarch64 evmbench"
[ -f "$bin" ] || die "$bin: no such file (EVMBENCH_STATIC_BIN)"
for tool in qemu-system-aarch64 dtc fdtget cpio gzip dpkg-deb apt-get tar; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (sh .ci/deps board installs it)"
done
hdr=$(od -An -tx1 -N20 "$bin" | tr -d ' \n')
case "$hdr" in
7f454c46020101*) ;;
*) die "$bin: not a 64-bit little-endian ELF file" ;;
esac
[ "$(od -An -tx1 -j18 -N2 "$bin" | tr -d ' \n')" = b700 ] || die "$bin: not an aarch64 binary"

mkdir -p "$out"
out=$(cd "$out" && pwd)
cache=${EVMBENCH_BOARD_CACHE:-$out/cache}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/evmbench-mkimage.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- the packages ---------------------------------------------------------------
# fetch PATTERN PACKAGE...: the cached .deb matching PATTERN, else the
# first PACKAGE apt-get download brings. Prints the file's path.
fetch() {
    pattern=$1
    shift
    for deb in "$cache"/$pattern; do
        [ -f "$deb" ] && { echo "$deb"; return 0; }
    done
    for pkg in "$@"; do
        # a partial download never reaches the cache: fetched in $work, moved
        rm -f "$work"/*.deb
        if (cd "$work" && apt-get download -q "$pkg" >"$work/apt.log" 2>&1); then
            for deb in "$work"/*.deb; do
                [ -f "$deb" ] || continue
                mv "$deb" "$cache/"
                echo "$cache/$(basename "$deb")"
                return 0
            done
        fi
    done
    sed 's/^/  /' "$work/apt.log" >&2
    die "cannot download any of: $* (is arm64 a dpkg architecture with its package lists? sh .ci/deps board)"
}

# The kernel metapackages depend on the versioned image package: the
# versioned name is what apt-get download needs (asked only when the
# cache holds no kernel package).
kernel_pkgs=
cached_kernel() {
    for deb in "$cache"/linux-image-[0-9]*-arm64*_arm64.deb; do
        [ -f "$deb" ] && return 0
    done
    return 1
}
if ! cached_kernel; then
    for meta in linux-image-cloud-arm64 linux-image-arm64; do
        dep=$(apt-cache depends "$meta:arm64" 2>/dev/null |
            sed -n 's/^ *Depends: \(linux-image-[0-9][^ :]*\).*/\1/p' | head -n 1)
        [ -z "$dep" ] || kernel_pkgs="$kernel_pkgs $dep:arm64"
    done
fi
# shellcheck disable=SC2086
kdeb=$(fetch 'linux-image-[0-9]*-arm64*_arm64.deb' $kernel_pkgs)
bdeb=$(fetch 'busybox-static_*_arm64.deb' busybox-static:arm64)

# --- the kernel -------------------------------------------------------------------
# only /boot: the modules are not needed (PL011, devtmpfs, initrd: built
# in). The unpacked kernel is cached beside its package.
kimage=$cache/$(basename "$kdeb" .deb).Image
kconfig=$cache/$(basename "$kdeb" .deb).config
if [ ! -s "$kimage" ] || [ ! -s "$kconfig" ]; then
    mkdir -p "$work/kernel"
    dpkg-deb --fsys-tarfile "$kdeb" | (cd "$work/kernel" && tar -x --wildcards './boot/*') ||
        die "$kdeb: cannot unpack /boot"
    vmlinuz=
    for f in "$work"/kernel/boot/vmlinuz-*; do
        [ -f "$f" ] && vmlinuz=$f
    done
    [ -n "$vmlinuz" ] || die "$kdeb holds no /boot/vmlinuz-*"
    config=
    for f in "$work"/kernel/boot/config-*; do
        [ -f "$f" ] && config=$f
    done
    [ -n "$config" ] || die "$kdeb holds no /boot/config-*"
    # Debian's arm64 image is a plain Image; an older one is gzip-compressed.
    if [ "$(od -An -tx1 -N2 "$vmlinuz" | tr -d ' \n')" = 1f8b ]; then
        gzip -dc "$vmlinuz" >"$work/Image.part"
    else
        cp "$vmlinuz" "$work/Image.part"
    fi
    cp "$config" "$kconfig.part"
    mv "$kconfig.part" "$kconfig"
    mv "$work/Image.part" "$kimage"
fi
for opt in CONFIG_SERIAL_AMBA_PL011_CONSOLE CONFIG_DEVTMPFS CONFIG_BLK_DEV_INITRD CONFIG_RD_GZIP; do
    grep -q "^$opt=y" "$kconfig" || die "$(basename "$kdeb"): $opt is not built in"
done
cp "$kimage" "$work/Image"

# --- the initramfs --------------------------------------------------------------------
root=$work/root
dpkg -x "$bdeb" "$work/busybox"
mkdir -p "$root/bin" "$root/sbin" "$root/etc" "$root/proc" "$root/sys" "$root/dev" \
    "$root/tmp" "$root/run" "$root/root" "$root/mnt"
cp "$work/busybox/bin/busybox" "$root/bin/busybox"
# /init makes a link for every applet (busybox --install): only sh is
# needed before it runs
ln -s busybox "$root/bin/sh"
cp "$bin" "$root/bin/evmbench"
chmod 755 "$root/bin/evmbench"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
    >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
echo "$variant" >"$root/etc/hostname"
cat >"$root/init" <<'EOF'
#!/bin/sh
# PID 1 of the evmbench emulated board (tests/board/mkimage.sh)
export PATH=/bin:/sbin HOME=/root
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
hostname -F /etc/hostname
exec 0<>/dev/console 1>&0 2>&0
echo "evmbench-board: ready"
# A login shell with the serial line as its controlling terminal, as a
# getty gives one; PID 1 must not exit, so it is started again.
while :; do
    setsid sh -c 'exec sh -l 0<>/dev/ttyAMA0 1>&0 2>&0'
    echo "evmbench-board: shell exited, starting another"
done
EOF
chmod 755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -9 >"$work/initrd.cpio.gz"

# --- the device tree -------------------------------------------------------------------
printf '%s\n' -M virt -cpu "$cpu" -smp 2 -m 512M -nic none >"$work/qemu-args"
qemu-system-aarch64 -M "virt,dumpdtb=$work/raw.dtb" -cpu "$cpu" -smp 2 -m 512M -nic none \
    -display none >"$work/qemu.log" 2>&1 || true
[ -s "$work/raw.dtb" ] || { cat "$work/qemu.log" >&2; die "qemu-system-aarch64 did not dump its device tree"; }
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/raw.dtb" ||
    die "dtc cannot read qemu's device tree"
# The root node's own properties are the lines indented by one tab; the
# root compatible and model are replaced (qemu says "linux,dummy-virt").
awk -v compat="$compat" -v model="$model" '
    /^\/ \{$/ { inroot = 1; print; next }
    inroot && /^\t[a-z#]/ && /^\tcompatible = / { next }
    inroot && /^\tmodel = / { next }
    inroot && /^\t[a-z#].*\{$/ && !done {
        printf "\tcompatible = %s;\n\tmodel = \"%s\";\n", compat, model
        done = 1
    }
    { print }
    END { if (!done) exit 1 }
' "$work/virt.dts" >"$work/board.dts" || die "no node under the root of qemu's device tree"
dtc -q -I dts -O dtb -o "$work/board.dtb" "$work/board.dts" ||
    die "dtc cannot compile the board's device tree"
want=$(echo "$compat" | sed 's/", "/ /g; s/"//g')
if [ "$(fdtget "$work/board.dtb" / compatible)" != "$want" ] ||
    [ "$(fdtget "$work/board.dtb" / model)" != "$model" ]; then
    die "board.dtb does not carry the root compatible $compat and model \"$model\""
fi

echo "console=ttyAMA0 quiet" >"$work/cmdline"
for f in Image initrd.cpio.gz board.dtb qemu-args cmdline; do
    mv "$work/$f" "$out/$f"
done
echo "mkimage.sh: $variant board in $out: kernel $(basename "$kdeb"), busybox $(basename "$bdeb")," \
    "initrd $(wc -c <"$out/initrd.cpio.gz") bytes"
