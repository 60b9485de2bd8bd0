#!/bin/bash
# mkinitramfs.sh - build build/initramfs.cpio for the test guest.
#
#   qemu/mkinitramfs.sh            (env: OURS=path/to/f2fs.ko, optional;
#                                   KERNEL=debug for the debug kernel)
#
# Contents: busybox (all applets), f2fs-tools + mkfs.ext4 + dmsetup + xfs_io +
# filefrag + mkfs.btrfs + mkfs.nilfs2 (make bench) with their shared
# libraries, the guest kernel modules the harness
# needs (never f2fs.ko!)
# under /lib/modules/KVER, our module at /opt/f2fs/ours/f2fs.ko (if built),
# the stock one at /opt/f2fs/stock/f2fs.ko, qemu/guest-tools/*.c compiled
# statically into /usr/local/bin, build/bpf/f2fs-* (make bpf-tools) into
# /usr/local/bin, qemu/f2fs-record too, qemu/init as /init, qemu/guest-lib.sh as
# /lib/harness.sh and scripts/tests/* under /tests.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
# KERNEL=debug: the debug kernel's modules, our module built against it,
# build/initramfs-debug.cpio (qemu/kernel.sh)
# shellcheck source=qemu/kernel.sh
. "$ROOT/qemu/kernel.sh"
KMOD=$KMODDIR
OURS=${OURS:-$KOURS}
STOCK=$KMOD/kernel/fs/f2fs/f2fs.ko
OUT=${OUT:-$KINITRD}
ST=$KSTAGE

die() { echo "mkinitramfs: ERROR: $*" >&2; exit 1; }
[ -f "$STOCK" ] || die "stock module $STOCK missing (run scripts/setup.sh)"

rm -rf "$ST"
mkdir -p "$ST"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib,lib64,etc,proc,sys,dev,tmp,run,mnt/f2fs,host,work,root,opt/f2fs/stock,opt/f2fs/ours,tests,var/tmp}
ln -s lib "$ST/usr/lib" 2>/dev/null || true

# --- busybox with every applet as a symlink ------------------------------
BB=$(command -v busybox)
cp "$BB" "$ST/bin/busybox"
"$BB" --list-full | while read -r app; do
	[ -e "$ST/$app" ] || [ -L "$ST/$app" ] || ln -s /bin/busybox "$ST/$app"
done

# --- dynamic binaries with their libraries --------------------------------
copy_libs() {
	ldd "$1" 2>/dev/null | grep -oE '(/[^ ]+\.so[^ ]*)' | while read -r lib; do
		[ -e "$ST$lib" ] && continue
		mkdir -p "$ST$(dirname "$lib")"
		cp -L "$lib" "$ST$lib"
	done
}
install_bin() {  # install_bin NAME [DESTDIR]
	local src dst
	src=$(PATH=/usr/sbin:/sbin:/usr/bin:/bin command -v "$1") || die "$1 not found on host"
	dst=$ST${2:-/usr/sbin}/$1
	rm -f "$dst"                  # replace a busybox applet link if any
	cp -L "$src" "$dst"
	copy_libs "$src"
}
for t in mkfs.f2fs fsck.f2fs dump.f2fs f2fstat sload.f2fs defrag.f2fs resize.f2fs f2fs_io parse.f2fs fibmap.f2fs f2fslabel; do
	if PATH=/usr/sbin:/sbin command -v "$t" >/dev/null; then install_bin "$t"; fi
done
for t in mkfs.f2fs fsck.f2fs dump.f2fs f2fstat sload.f2fs defrag.f2fs resize.f2fs; do
	[ -x "$ST/usr/sbin/$t" ] || die "f2fs-tools binary $t missing"
done
install_bin mke2fs
# xfs_io (fallocate, SEEK_DATA/HOLE maps, fiemap) and filefrag for the falloc tests
install_bin xfs_io
install_bin filefrag
# mkfs.btrfs and mkfs.nilfs2 (btrfs-progs, nilfs-tools) for make bench
install_bin mkfs.btrfs
install_bin mkfs.nilfs2
# dmsetup for the dm-log-writes replay tests (guest runs it with DM_DISABLE_UDEV=1)
install_bin dmsetup
# getfattr/setfattr (attr) and getfacl/setfacl (acl) for the xattr tests
for t in getfattr setfattr getfacl setfacl; do install_bin "$t" /usr/bin; done
# chattr/lsattr of e2fsprogs (busybox's lack -v and flags such as D)
install_bin chattr /usr/bin
install_bin lsattr /usr/bin
for l in mkfs.ext4 mkfs.ext2; do rm -f "$ST/sbin/$l" "$ST/usr/sbin/$l"; ln -s mke2fs "$ST/usr/sbin/$l"; done
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$ST/etc/"
# the dynamic loader (ldd lists it, but make sure it is at the ABI path)
[ -e "$ST/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$ST/lib64/"

# --- kernel modules (never f2fs.ko) ---------------------------------------
MODS="virtio_pci virtio_blk crc32_generic crc32c_generic crc32-pclmul 9p 9pnet_virtio
dm-mod dm-log-writes dm-flakey dm-snapshot dm-delay ext4 loop"
# the debug kernel has the rest built in (qemu/debug-kernel.config), and no
# crc32-pclmul at all (the generic crc32 is enough there)
if [ -n "${KERNEL:-}" ]; then MODS=${MODS/crc32-pclmul/}; fi
# btrfs and nilfs2 for make bench (Debian's kernel only: the debug kernel
# is not for benchmarks and may not have them)
if [ -z "${KERNEL:-}" ]; then MODS="$MODS btrfs nilfs2"; fi
# plus whatever either f2fs.ko depends on (zstd/lz4 compressors ...)
for ko in "$STOCK" "$OURS"; do
	[ -f "$ko" ] || continue
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do MODS="$MODS $d"; done
done
mkdir -p "$ST/lib/modules/$KVER"
for m in $MODS; do
	modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" >/dev/null 2>&1 \
		|| die "module $m not found in $KMOD"
	modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}' | while read -r f; do
		rel=${f#"$KMOD"/}
		case "$rel" in */f2fs.ko*) die "refusing to put $rel into the guest /lib/modules" ;; esac
		mkdir -p "$ST/lib/modules/$KVER/$(dirname "$rel")"
		cp "$f" "$ST/lib/modules/$KVER/$rel"
	done
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -f "$KMOD/$f" ] && cp "$KMOD/$f" "$ST/lib/modules/$KVER/"
done
depmod -b "$ST" "$KVER"
if find "$ST/lib/modules" -name 'f2fs.ko*' | grep -q .; then
	die "an f2fs.ko ended up under /lib/modules in the guest"
fi
echo "$KVER" > "$ST/etc/kver"

# --- the two f2fs modules -------------------------------------------------
cp "$STOCK" "$ST/opt/f2fs/stock/f2fs.ko"
if [ -f "$OURS" ]; then
	cp "$OURS" "$ST/opt/f2fs/ours/f2fs.ko"
	# the debug kernel's modules carry DWARF (tens of MB): the guest needs
	# none of it (kallsyms names the stack frames); .BTF stays
	if [ -n "${KERNEL:-}" ]; then strip --strip-debug "$ST/opt/f2fs/ours/f2fs.ko"; fi
	vm=$(modinfo -F vermagic "$OURS" | awk '{print $1}')
	[ "$vm" = "$KVER" ] || die "$OURS was built for '$vm', guest kernel is $KVER"
fi
for w in stock ours; do
	ko=$ST/opt/f2fs/$w/f2fs.ko
	[ -f "$ko" ] && modinfo -F depends "$ko" | tr ',' ' ' > "$ST/opt/f2fs/$w/depends"
done

# --- static guest tools -----------------------------------------------------
for c in "$ROOT"/qemu/guest-tools/*.c; do
	[ -f "$c" ] || continue
	name=$(basename "$c" .c)
	gcc -static -O2 -Wall -o "$ST/usr/local/bin/$name" "$c" \
		|| die "guest tool $c failed to compile"
done

# --- the libbpf tools (make bpf-tools), static -----------------------------
for b in "$BUILD"/bpf/f2fs-*; do
	[ -f "$b" ] && cp "$b" "$ST/usr/local/bin/"
done

# --- init, harness library, tests -----------------------------------------
cp "$ROOT/qemu/init" "$ST/init"
chmod 0755 "$ST/init"
cp "$ROOT/qemu/guest-lib.sh" "$ST/lib/harness.sh"
cp "$ROOT/qemu/kernel-bad" "$ST/lib/kernel-bad"
cp "$ROOT/qemu/demo.sh" "$ST/lib/demo.sh"
# the recorder of the tools' JSON lines (dashboards/, make record)
install -m 0755 "$ROOT/qemu/f2fs-record" "$ST/usr/local/bin/f2fs-record"
cp -r "$ROOT"/scripts/tests/. "$ST/tests/"
chmod -R a+rX "$ST/tests"
echo 'root:x:0:0:root:/root:/bin/sh' > "$ST/etc/passwd"
echo 'root:x:0:' > "$ST/etc/group"
printf '%s\n' 'export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
	'export PS1="guest:\w# "' > "$ST/etc/profile"

# --- pack -----------------------------------------------------------------
mkdir -p "$(dirname "$OUT")"
# Uncompressed: the guest kernel unpacks a 60 MB cpio in 0.7 s under TCG,
# where gunzip of the same took 2.2 s, at every boot of make check.
(cd "$ST" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkinitramfs: $(du -h "$OUT" | cut -f1) $OUT (ours: $([ -f "$ST/opt/f2fs/ours/f2fs.ko" ] && echo yes || echo no))" >&2
