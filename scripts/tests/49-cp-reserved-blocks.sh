#!/bin/sh
# desc: a checkpoint taken while file data is still dirty in memory (its blocks reserved as NEW_ADDR in the direct nodes, counted in the checkpoint's valid blocks but in no SIT entry) leaves an image that fsck.f2fs passes; our module must mount it read-write (the crash image, copied while mounted), read the unwritten blocks as zeros, write, truncate and delete them with the counts right (fsck clean), and the stock module must mount the same image too
# disks: 256M 256M
# timeout: 400
#
# vda: the live filesystem; vdb: its copy right after the checkpoint (what
# a power cut at that moment leaves).  Periodic writeback is held off so
# that the dirty data stays in memory across the checkpoint.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
sum() { md5sum < "$1" | cut -d' ' -f1; }
use_module ours
echo 0 > /proc/sys/vm/dirty_writeback_centisecs
echo 360000 > /proc/sys/vm/dirty_expire_centisecs
echo 50 > /proc/sys/vm/dirty_background_ratio
echo 80 > /proc/sys/vm/dirty_ratio

head -c 409600 /dev/urandom > /tmp/synced
head -c 2097152 /dev/urandom > /tmp/big
head -c 100000 /dev/urandom > /tmp/small

mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $MNT || fail "mount failed"
mkdir $MNT/d
cp /tmp/synced $MNT/synced
sync
# Dirty data, never written: 2 MiB in a new file, 100 kB appended to the
# synced file (reserved blocks past the old end), and a sparse tail.
cp /tmp/big $MNT/d/big
cat /tmp/small >> $MNT/synced
dd if=/tmp/small of=$MNT/d/sparse bs=4096 seek=3000 2>/dev/null
# A directory fsync writes a checkpoint, which writes the direct nodes
# (with the reserved NEW_ADDR entries) and the inodes, but not the data.
cp0=$(stat_of vda cp_calls)
mkdir $MNT/d/sub
sync $MNT/d || fail "fsync of directory d"
[ "$(stat_of vda cp_calls)" -gt "$cp0" ] || fail "the directory fsync wrote no checkpoint"
dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null || fail "copy of vda"
note "crash image copied after checkpoint $(stat_of vda cp_ver)"
umount $MNT
fsck_clean /dev/vda
fsck_clean /dev/vdb
stock_unchanged /dev/vda live
dd if=/dev/vdb of=/tmp/crash.img bs=1M 2>/dev/null

head -c 4096 /dev/zero > /tmp/zero4k
# zeros_or FILE REF: every 4 KiB block of FILE (whole blocks long) is REF's
# block or zeros
zeros_or() {
	_n=$(( ($(wc -c < "$1") + 4095) / 4096 ))
	_i=0 _data=0 _zero=0
	while [ $_i -lt $_n ]; do
		_a=$(dd if="$1" bs=4096 skip=$_i count=1 2>/dev/null | md5sum)
		_b=$(dd if="$2" bs=4096 skip=$_i count=1 2>/dev/null | md5sum)
		if [ "$_a" = "$_b" ]; then
			_data=$((_data + 1))
		elif dd if="$1" bs=4096 skip=$_i count=1 2>/dev/null | cmp -s - /tmp/zero4k; then
			_zero=$((_zero + 1))
		else
			fail "$1 block $_i is neither its data nor zeros"
		fi
		_i=$((_i + 1))
	done
	note "$1: $_data blocks of data, $_zero of zeros"
}

# ---- our module on the crash image -------------------------------------
mount -t f2fs /dev/vdb $MNT || { dmesg | tail -5; fail "our module refuses the crash image read-write"; }
head -c 409600 $MNT/synced > /tmp/got
[ "$(sum /tmp/got)" = "$(sum /tmp/synced)" ] || fail "the synced part of synced changed"
[ "$(stat -c %s $MNT/d/big)" = 2097152 ] || fail "d/big has size $(stat -c %s $MNT/d/big), the checkpoint's inode 2097152"
zeros_or $MNT/d/big /tmp/big
[ -d $MNT/d/sub ] || fail "d/sub (made before the checkpoint) is missing"
# Write over reserved blocks, cut into them, and free the rest.
dd if=/tmp/small of=$MNT/d/big bs=4096 seek=100 conv=notrunc 2>/dev/null || fail "overwrite of reserved blocks"
truncate -s 1000000 $MNT/d/big || fail "truncate into reserved blocks"
rm $MNT/d/sparse || fail "unlink of a file with reserved blocks"
sync
head -c 409600 $MNT/synced > /tmp/got
[ "$(sum /tmp/got)" = "$(sum /tmp/synced)" ] || fail "synced lost its content"
dd if=$MNT/d/big bs=4096 skip=100 count=25 2>/dev/null | head -c 100000 > /tmp/got
[ "$(sum /tmp/got)" = "$(sum /tmp/small)" ] || fail "the overwrite of reserved blocks did not stick"
umount $MNT
fsck_clean /dev/vdb
mount -t f2fs /dev/vdb $MNT || fail "remount of the crash image"
[ "$(stat -c %s $MNT/d/big)" = 1000000 ] || fail "d/big size after remount"
rm -r $MNT/d
umount $MNT
fsck_clean /dev/vdb
stock_unchanged /dev/vdb crash-image

# The stock module's run below writes vdb itself: not checked.
# ---- the stock module on the same crash image (reference) --------------
dd if=/tmp/crash.img of=/dev/vdb bs=1M 2>/dev/null
use_module stock
mount -t f2fs /dev/vdb $MNT || fail "the stock module refuses the crash image"
[ "$(stat -c %s $MNT/d/big)" = 2097152 ] || fail "stock: d/big size"
zeros_or $MNT/d/big /tmp/big
umount $MNT
fsck_clean /dev/vdb
use_module ours
