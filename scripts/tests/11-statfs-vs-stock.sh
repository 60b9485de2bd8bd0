#!/bin/sh
# desc: statfs (df) of a fresh image reports the same blocks, free, avail, files and ffree as the stock f2fs module on an identical image
# disks: 256M 1G
# timeout: 240
set -eu
. /tests/lib.sh

statfs_of() {  # statfs_of DEV VARIANT -> "blocks free avail files ffree bsize"
	use_module "$2" >&2 || fail "cannot load the $2 module"
	mount -t f2fs -o ro "$1" /mnt/f2fs || fail "mount of $1 with $2 failed"
	stat -f -c '%b %f %a %c %d %S' /mnt/f2fs
	umount /mnt/f2fs || fail "umount with $2 failed"
}

for dev in /dev/vda /dev/vdb; do
	mkfs.f2fs -q -f "$dev" || fail "mkfs.f2fs $dev failed"
	ours=$(statfs_of "$dev" ours)
	stock=$(statfs_of "$dev" stock)
	note "$dev: ours  = $ours"
	note "$dev: stock = $stock"
	[ "$ours" = "$stock" ] || fail "statfs of $dev differs from the stock module"
done
# Reference figures for a 256 MiB image (from the stock module).
use_module ours
mount -t f2fs -o ro /dev/vda /mnt/f2fs
got=$(stat -f -c '%b %f %a %c %d' /mnt/f2fs)
df -k /mnt/f2fs
umount /mnt/f2fs
[ "$got" = "65024 43518 43518 43520 43518" ] || fail "256 MiB image: statfs '$got' is not the reference '65024 43518 43518 43520 43518'"
fsck_clean /dev/vda
fsck_clean /dev/vdb
