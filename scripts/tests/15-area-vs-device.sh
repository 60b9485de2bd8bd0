#!/bin/sh
# desc: area validation against the device: a superblock claiming more blocks than the device has, or segments past its block count, is refused
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
blocks=$(get_le32 /dev/vda $((SB1 + SB_BLOCK_COUNT)))
note "block_count $blocks"
sb_set $SB_BLOCK_COUNT $((blocks * 2))
bad_mount /dev/vda 'device is smaller than the filesystem'

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
segs=$(get_le32 /dev/vda $((SB1 + SB_SEGMENT_COUNT)))
sb_set $SB_SEGMENT_COUNT $((segs + 4))
bad_mount /dev/vda 'segments extend past the block count'

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "the intact image does not mount"
umount /mnt/f2fs
fsck_clean /dev/vda
