#!/bin/sh
# desc: a read-only mount never writes (EROFS, image byte-identical); a read-write mount that changes nothing leaves the image byte-identical; remount ro/rw works; an image we cannot write yet (inode checksums) is served read-only with a message saying why
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh

F=/mnt/f2fs
mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
before=$(sumdev /dev/vda)

mount -t f2fs -o ro /dev/vda $F || fail "mount -o ro failed"
if touch $F/newfile 2>/tmp/err; then fail "creating a file on a ro mount succeeded"; fi
grep -q 'Read-only file system' /tmp/err || fail "create failed with '$(cat /tmp/err)', not EROFS"
ls -la $F > /dev/null
umount $F
[ "$(sumdev /dev/vda)" = "$before" ] || fail "a read-only mount changed the image"

# noatime: reading the root directory would otherwise update its atime
mount -t f2fs -o noatime /dev/vda $F || fail "rw mount failed"
grep -q " $F f2fs rw" /proc/mounts || fail "not mounted read-write: $(grep $F /proc/mounts)"
ls -la $F > /dev/null
umount $F
[ "$(sumdev /dev/vda)" = "$before" ] || fail "a read-write mount without changes changed the image"

mount -t f2fs /dev/vda $F || fail "rw mount failed"
echo one > $F/one || fail "write failed"
mount -o remount,ro $F || fail "remount ro failed"
if touch $F/two 2>/dev/null; then fail "write after remount ro succeeded"; fi
mount -o remount,rw $F || fail "remount rw failed"
echo two > $F/two || fail "write after remount rw failed"
umount $F
fsck_clean /dev/vda
mount -t f2fs -o ro /dev/vda $F
[ "$(cat $F/one $F/two)" = "$(printf 'one\ntwo')" ] || fail "contents lost across remounts"
umount $F
stock_unchanged /dev/vda

mkfs.f2fs -q -f -O extra_attr,inode_checksum /dev/vda || fail "mkfs with inode_checksum failed"
before=$(sumdev /dev/vda)
mount -t f2fs /dev/vda $F || fail "mount of an inode_checksum image failed"
grep -q " $F f2fs ro" /proc/mounts || fail "inode_checksum image not served read-only"
dmesg | grep -q 'f2fs (vda): cannot write this image: inode checksums' || fail "no message saying why the mount is read-only"
umount $F
[ "$(sumdev /dev/vda)" = "$before" ] || fail "the inode_checksum image changed"
