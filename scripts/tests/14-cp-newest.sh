#!/bin/sh
# desc: checkpoint choice: of two valid packs the newer is used; a torn newer pack (bad last block) or a bad CRC in one pack falls back to the other
# disks: 256M
# timeout: 240
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
use_module stock
mount -t f2fs /dev/vda /mnt/f2fs || fail "stock mount failed"
echo data > /mnt/f2fs/file
umount /mnt/f2fs
use_module "$F2FS_VARIANT"

cp=$(get_le32 /dev/vda $((SB1 + SB_CP_BLKADDR)))
ver() { od -A n -t u8 -j $(($1 * 4096)) -N 8 /dev/vda | tr -d ' '; }
v1=$(ver "$cp"); v2=$(ver $((cp + 512)))
note "pack 1 at $cp: version $v1; pack 2 at $((cp + 512)): version $v2"
if [ "$v1" -gt "$v2" ]; then new=$cp; newv=$v1; oldv=$v2; newpack=1; oldpack=2
else new=$((cp + 512)); newv=$v2; oldv=$v1; newpack=2; oldpack=1; fi

mounted_version() {
	dmesg -c >/dev/null
	mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount failed"
	[ -f /mnt/f2fs/file ] || [ "$1" = old ] || fail "file written by the stock module missing"
	umount /mnt/f2fs
	dmesg | sed -n 's/.*f2fs (vda): mounted, checkpoint version \([0-9]*\) (pack \([12]\)).*/\1 \2/p'
}
if [ "$F2FS_VARIANT" = ours ]; then
	got=$(mounted_version new)
	[ "$got" = "$newv $newpack" ] || fail "mounted '$got', expected the newer pack '$newv $newpack'"
fi

# Tear the newer pack: corrupt its last block.
total=$(get_le32 /dev/vda $((new * 4096 + 136)))
note "newer pack has $total blocks"
printf 'XXXX' | dd of=/dev/vda bs=1 seek=$(((new + total - 1) * 4096 + 200)) conv=notrunc 2>/dev/null
if [ "$F2FS_VARIANT" = ours ]; then
	got=$(mounted_version old)
	[ "$got" = "$oldv $oldpack" ] || fail "after tearing: mounted '$got', expected the older pack '$oldv $oldpack'"
	dmesg -c >/dev/null
else
	mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount failed"
	umount /mnt/f2fs
fi
