#!/bin/sh
# desc: checkpoint packs of equal version (sload.f2fs 1.15 leaves mkfs's pack 2 at the version of the pack it rewrote): pack 1 is used, as by f2fs-tools and the stock module, so the loaded tree is there and the mount is read-write; our writes on top of it stay fsck-clean and the stock module reads them
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

MNT=/mnt/f2fs
use_module ours
# A small tree for sload: files, a subdirectory, a symlink.
mkdir -p /tmp/src/sub
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 1000 + 17)) /dev/urandom > /tmp/src/f$i
	i=$((i + 1))
done
head -c 300000 /dev/urandom > /tmp/src/sub/big
ln -s f3 /tmp/src/link
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs failed"
sload.f2fs -f /tmp/src -t / /dev/vda > /tmp/sload.log 2>&1 || { cat /tmp/sload.log; fail "sload.f2fs failed"; }
fsck_clean /dev/vda

cp=$(get_le32 /dev/vda $((SB1 + SB_CP_BLKADDR)))
ver() { od -A n -t u8 -j $(($1 * 4096)) -N 8 /dev/vda | tr -d ' '; }
v1=$(ver "$cp"); v2=$(ver $((cp + 512)))
note "pack 1: version $v1; pack 2: version $v2"
# The case this test is about (if sload ever bumps the version, it is moot).
[ "$v1" = "$v2" ] || note "sload.f2fs left the packs at different versions: no tie to break"

dmesg -c > /dev/null
mount -t f2fs /dev/vda $MNT || { dmesg | tail -3; fail "our module refuses the sload image read-write"; }
dmesg | grep -q "mounted, checkpoint version $v1 (pack 1)" || { dmesg | tail -3; fail "pack 1 (the one sload wrote) was not chosen"; }
grep -q " $MNT f2fs rw" /proc/mounts || fail "mounted read-only"
for f in $(cd /tmp/src && find . -type f); do
	cmp -s "/tmp/src/$f" "$MNT/$f" || fail "$f differs from the loaded tree"
done
[ "$(readlink $MNT/link)" = f3 ] || fail "symlink"
# Write on top of it.
cp /tmp/src/sub/big $MNT/sub/big2
rm $MNT/f7
mv $MNT/f8 $MNT/sub/f8
umount $MNT
fsck_clean /dev/vda
stock_unchanged /dev/vda
use_module stock
mount -t f2fs -o ro /dev/vda $MNT || fail "the stock module refuses the image"
cmp -s /tmp/src/sub/big $MNT/sub/big2 || fail "stock: sub/big2 differs"
cmp -s /tmp/src/f8 $MNT/sub/f8 || fail "stock: sub/f8 differs"
[ ! -e $MNT/f7 ] || fail "stock: f7 still there"
umount $MNT
use_module ours
