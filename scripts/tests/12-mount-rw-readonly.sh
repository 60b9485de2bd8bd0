#!/bin/sh
# desc: until writing exists, a read-write mount is served read-only: writes fail with EROFS, remount rw is refused, the image is byte-identical and fsck-clean
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
before=$(md5dev /dev/vda)

mount -t f2fs /dev/vda /mnt/f2fs || fail "mount without -o ro failed"
grep -q ' /mnt/f2fs f2fs ro' /proc/mounts || fail "rw mount is not read-only: $(grep /mnt/f2fs /proc/mounts)"
dmesg | grep -q 'f2fs (vda): write support is not available yet' || fail "no notice that the mount is read-only"
if touch /mnt/f2fs/newfile 2>/tmp/err; then fail "creating a file succeeded"; fi
grep -q 'Read-only file system' /tmp/err || fail "create failed with '$(cat /tmp/err)', not EROFS"
if mkdir /mnt/f2fs/d 2>/dev/null; then fail "mkdir succeeded"; fi
if mount -o remount,rw /mnt/f2fs 2>/tmp/err; then fail "remount rw succeeded"; fi
note "remount rw refused: $(cat /tmp/err)"
mount -o remount,ro /mnt/f2fs || fail "remount ro failed"
umount /mnt/f2fs || fail "umount failed"

after=$(md5dev /dev/vda)
[ "$before" = "$after" ] || fail "image changed ($before -> $after)"
fsck_clean /dev/vda
