#!/bin/sh
# desc: /proc/fs/f2fs/<dev>/segment_info and segment_bits in the stock module's layout: a 2 MiB .mp4 (cold data) fills one segment (type 2, 512 valid blocks, bitmap all ones), truncated to 1 MiB it shows 256 valid blocks and half a bitmap; after umount the stock module's files for the same image read the same, byte for byte; the folder comes and goes with the mount
# disks: 256M
# timeout: 240
set -eu
. /tests/lib.sh

F=/mnt/f2fs
P=/proc/fs/f2fs/vda
use_module ours
mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs failed"
mount -t f2fs /dev/vda $F || fail "mount failed"
[ -f $P/segment_info ] && [ -f $P/segment_bits ] || fail "no $P/segment_info or segment_bits"
head -2 $P/segment_info > /tmp/h1
head -2 $P/segment_bits > /tmp/h2
printf 'format: segment_type|valid_blocks\nsegment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n' | cmp -s - /tmp/h1 ||
	{ cat /tmp/h1; fail "segment_info header differs from the stock layout"; }
printf 'format: segment_type|valid_blocks|bitmaps\nsegment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n' | cmp -s - /tmp/h2 ||
	{ cat /tmp/h2; fail "segment_bits header differs from the stock layout"; }
main=$(awk '$1 == "main_segs" { print $2 }' /sys/kernel/debug/f2fs/vda/stats)
[ "$(tail -n +3 $P/segment_bits | wc -l)" = "$main" ] || fail "segment_bits has not one line per main segment ($main)"

# seg_with TYPE VALID: segment numbers of that type and valid count (bits)
seg_with() { tail -n +3 $P/segment_bits | awk -v t="$1|$2" '{ split($2, a, "|"); if (a[1] "|" a[2] == t) print $1 }'; }
# info_of SEGNO: "type|valid" of SEGNO in segment_info (ten to a line)
info_of() {
	tail -n +3 $P/segment_info | awk -v s="$1" '{ base = $1; for (i = 2; i <= NF; i++) if (base + i - 2 == s) print $i }'
}
head -c 2097152 /dev/urandom > $F/movie.mp4
sync
segs=$(seg_with 2 512)
[ "$(echo "$segs" | wc -w)" = 1 ] || fail "not exactly one full cold data segment: '$segs'"
s=$segs
[ "$(info_of "$s")" = "2|512" ] || fail "segment_info says '$(info_of "$s")' for segment $s"
line=$(tail -n +3 $P/segment_bits | awk -v s="$s" '$1 == s')
[ "$(echo "$line" | tr ' ' '\n' | grep -c '^ff$')" = 64 ] || fail "segment $s bitmap not all ones: $line"
note "segment $s: cold data, 512 valid, bitmap full"
truncate -s 1048576 $F/movie.mp4
sync
[ "$(info_of "$s")" = "2|256" ] || fail "after truncating to half: '$(info_of "$s")'"
line=$(tail -n +3 $P/segment_bits | awk -v s="$s" '$1 == s')
[ "$(echo "$line" | tr ' ' '\n' | grep -c '^ff$')" = 32 ] &&
	[ "$(echo "$line" | tr ' ' '\n' | grep -c '^00$')" = 32 ] || fail "half bitmap expected: $line"
note "segment $s after truncation: 256 valid (50%), half the bitmap"
cp $P/segment_info /tmp/ours.info
cp $P/segment_bits /tmp/ours.bits
umount $F
[ ! -e $P ] || fail "$P still there after umount"
fsck_clean /dev/vda

use_module stock
mount -t f2fs -o ro /dev/vda $F || fail "stock mount failed"
cmp -s /proc/fs/f2fs/vda/segment_info /tmp/ours.info ||
	{ diff /tmp/ours.info /proc/fs/f2fs/vda/segment_info | head; fail "segment_info differs from the stock module's"; }
cmp -s /proc/fs/f2fs/vda/segment_bits /tmp/ours.bits ||
	{ diff /tmp/ours.bits /proc/fs/f2fs/vda/segment_bits | head; fail "segment_bits differs from the stock module's"; }
note "the stock module's segment_info and segment_bits of the image match ours byte for byte"
umount $F
use_module ours
