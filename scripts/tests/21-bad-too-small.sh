#!/bin/sh
# desc: bad input: a device smaller than the filesystem on it (a truncated copy of an image, and a 4 KiB device) fails to mount cleanly
# disks: 256M 128M 4K
# timeout: 180
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
dd if=/dev/vda of=/dev/vdb bs=1M count=128 2>/dev/null || fail "copy failed"
bad_mount /dev/vdb 'device is smaller than the filesystem'
bad_mount /dev/vdc 'cannot read superblock|bad magic'
# the full-size original still mounts
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "the intact image does not mount"
umount /mnt/f2fs
fsck_clean /dev/vda
