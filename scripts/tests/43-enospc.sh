#!/bin/sh
# desc: filling the filesystem ends in ENOSPC with nothing lost: files written before keep their content across remount, df matches, deleting them returns the space after a checkpoint, and fsck.f2fs is clean
# disks: 256M
# timeout: 400
set -eu
. /tests/lib.sh

F=/mnt/f2fs
use_module ours
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs /dev/vda $F || fail "mount failed"
head -c 2000000 /dev/urandom > /tmp/chunk
i=0
while cp /tmp/chunk $F/f$i 2>/tmp/err; do i=$((i + 1)); [ $i -lt 500 ] || fail "never ran out of space"; done
grep -q 'No space left' /tmp/err || fail "fill ended with '$(cat /tmp/err)', not ENOSPC"
note "ENOSPC after $i full files"
rm -f $F/f$i
sync
want=$(md5sum < /tmp/chunk)
j=0
while [ $j -lt $i ]; do
	[ "$(md5sum < $F/f$j)" = "$want" ] || fail "f$j lost its content"
	j=$((j + 1))
done
used=$(df -k $F | awk 'NR == 2 { print $3 }')
[ "$used" -ge $((i * 1953)) ] || fail "df shows $used KiB used for $i files of 1953 KiB"
umount $F
fsck_clean /dev/vda

mount -t f2fs /dev/vda $F || fail "remount failed"
j=0
while [ $j -lt $i ]; do
	[ "$(md5sum < $F/f$j)" = "$want" ] || fail "f$j lost its content after remount"
	j=$((j + 1))
done
rm -f $F/f*
sync
free=$(df -k $F | awk 'NR == 2 { print $4 }')
[ "$free" -ge $((i * 1953)) ] || fail "deleting did not return the space (free $free KiB)"
cp /tmp/chunk $F/again || fail "cannot write after freeing space"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda
