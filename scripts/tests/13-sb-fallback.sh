#!/bin/sh
# desc: superblock fallback: with the first copy bad the mount uses the second (and says so); with the second bad it uses the first; the image is not modified
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
# Break only the first copy's magic.
put_le32 /dev/vda $SB1 0x12345678
before=$(sumdev /dev/vda)
dmesg -c >/dev/null
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount with a bad first superblock failed"
ls -la /mnt/f2fs >/dev/null || fail "ls failed"
umount /mnt/f2fs
dmesg | tee /tmp/d
if [ "$F2FS_VARIANT" = ours ]; then
	grep -q 'f2fs (vda): first superblock invalid, using the second copy' /tmp/d ||
		fail "no message about using the second superblock"
fi
[ "$(sumdev /dev/vda)" = "$before" ] || fail "the read-only mount modified the image"

# Now the second copy bad, the first good.
mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
put_le32 /dev/vda $((SB2 + SB_LOG_BLOCKS_PER_SEG)) 3
dmesg -c >/dev/null
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount with a bad second superblock failed"
umount /mnt/f2fs
if dmesg | grep -q 'using the second copy'; then fail "used the second copy although the first is good"; fi
