#!/bin/sh
# desc: bad input: a checkpoint CRC error in both packs fails the mount with -EUCLEAN and a reason naming the device
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
# The stock module writes both packs at its first unmount.
use_module stock
mount -t f2fs /dev/vda /mnt/f2fs && umount /mnt/f2fs || fail "stock mount/umount failed"
use_module "$F2FS_VARIANT"
cp=$(get_le32 /dev/vda $((SB1 + SB_CP_BLKADDR)))
v1=$(od -A n -t u8 -j $((cp * 4096)) -N 8 /dev/vda | tr -d ' ')
v2=$(od -A n -t u8 -j $(((cp + 512) * 4096)) -N 8 /dev/vda | tr -d ' ')
note "pack versions: $v1 $v2"
[ "$v1" != 0 ] && [ "$v2" != 0 ] || fail "expected two written packs"

printf 'XXXX' | dd of=/dev/vda bs=1 seek=$((cp * 4096 + 200)) conv=notrunc 2>/dev/null
printf 'XXXX' | dd of=/dev/vda bs=1 seek=$(((cp + 512) * 4096 + 200)) conv=notrunc 2>/dev/null
bad_mount /dev/vda 'no valid checkpoint pack \(pack 1: CRC mismatch, pack 2: CRC mismatch\)'
grep -q 'Structure needs cleaning' /tmp/mount.err || fail "mount error is not EUCLEAN"
