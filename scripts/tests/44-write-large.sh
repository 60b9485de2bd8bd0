#!/bin/sh
# desc: large and irregular writes on our module match the same operations on tmpfs: a 200 MiB sequential file, seeded random overwrites and extends (with holes) of several files, mmap writes (new files, an inline file, into a hole, at the last partial page, after ftruncate grow/shrink, into the 200 MiB file), sparse files up to the indirect-node range and truncates with partial pages, short writes from a faulting buffer (nothing left reserved past EOF); sha256 of everything live, after sync, after remount and through the stock module; fsck.f2fs clean after every umount
# disks: 512M
# timeout: 420
# mem: 2G
#
# Bytes written stay near 300 MiB (no GC yet: overwrites leave dirty
# segments only a cleaner could reclaim).  The seed of the random part is
# printed; replay with GUEST_ARGS=seed=N scripts/check.sh 44.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs REF=/tmp/ref
SEED=$(test_seed)
now() { cut -d' ' -f1 /proc/uptime; }
T0=$(now)
lap() { note "[$(awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')s] $*"; }

use_module ours
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs.f2fs failed"
mount -t f2fs /dev/vda $MNT || fail "mount failed"
mkdir -p $REF
head -c 4194304 /dev/urandom > /tmp/rand	# source of all written data

# ---- (a) 200 MiB written sequentially --------------------------------------
head -c 209715200 /dev/urandom > $REF/big
dd if=$REF/big of=$MNT/big bs=1M 2>/dev/null || fail "sequential write of 200 MiB failed"
lap "200 MiB written"

# ---- (b) seeded random overwrites and extends ------------------------------
# Ops "FILE OFFSET LENGTH SRC": write LENGTH bytes of /tmp/rand from SRC at
# OFFSET.  An offset up to 1 MiB past EOF extends the file over a hole.
awk -v seed="$SEED" 'BEGIN {
	srand(seed)
	for (f = 0; f < 5; f++) size[f] = 0
	for (i = 0; i < 160; i++) {
		f = int(rand() * 5)
		r = rand()
		if (size[f] == 0 || r < 0.2)		# extend past EOF
			off = size[f] + int(rand() * 1048576)
		else if (r < 0.35)			# append
			off = size[f]
		else					# overwrite inside
			off = int(rand() * size[f])
		len = 1 + int(rand() * (rand() < 0.5 ? 4096 : 262144))
		if (off + len > 12582912) { off = int(rand() * size[f]); if (off + len > 12582912) len = 12582912 - off }
		printf "r%d %d %d %d\n", f, off, len, int(rand() * (4194304 - len))
		if (off + len > size[f]) size[f] = off + len
	}
}' > /tmp/ops
random_ops() {
	while read -r f off len src; do
		dd if=/tmp/rand of="$1/$f" bs=65536 skip="$src" count="$len" seek="$off" \
			iflag=skip_bytes,count_bytes oflag=seek_bytes conv=notrunc 2>/dev/null
	done < /tmp/ops
}
on_both random_ops
lap "$(wc -l < /tmp/ops) random writes: $(awk '{ n += $3 } END { print n }' /tmp/ops) bytes"

# ---- (c) mmap writes ---------------------------------------------------------
mmap_ops() {
	D=$1
	# a new file, written whole, then a partial last page
	mmapwrite -t 300000 "$D/m_new" 0 300000 1
	mmapwrite -t 5000 "$D/m_new2" 100 4900 2
	# an inline file (a few bytes) modified through the mapping
	echo "tiny inline file" > "$D/m_inline"
	mmapwrite "$D/m_inline" 2 5 3
	# into a hole, across the data/hole edge, into a page past old data
	dd if=/tmp/rand of="$D/m_hole" bs=8192 count=1 2>/dev/null
	truncate -s 1048576 "$D/m_hole"
	mmapwrite "$D/m_hole" 500000 10000 4 8000 400 5 1048000 576 6
	# the last partial page, up to EOF, then grown and shrunk by ftruncate
	head -c 10000 /tmp/rand > "$D/m_tail"
	mmapwrite "$D/m_tail" 8192 1808 7 9999 1 8
	mmapwrite -t 20000 "$D/m_tail" 12000 100 9 9990 20 10
	mmapwrite -t 6000 "$D/m_tail" 5000 1000 11
	# existing files: a random-ops file and the 200 MiB one
	mmapwrite "$D/r0" 0 10 12 4096 4096 13 4095 2 14
	mmapwrite "$D/big" 0 10 15 104857000 9000 16 209715190 10 17
}
on_both mmap_ops
lap "mmap writes done"

# ---- (d) sparse files and truncates ----------------------------------------
sparse_ops() {
	D=$1
	# data in the inode, in a direct node and in the indirect-node range
	dd if=/tmp/rand of="$D/sparse" bs=4096 count=2 2>/dev/null
	dd if=/tmp/rand of="$D/sparse" bs=4096 skip=10 seek=1500 count=3 conv=notrunc 2>/dev/null
	dd if=/tmp/rand of="$D/sparse" bs=1 skip=7 seek=41943033 count=20000 conv=notrunc 2>/dev/null
	truncate -s 50000000 "$D/sparse"
	# shrink into a partial page, grow: the tail of that page must read 0
	head -c 100000 /tmp/rand > "$D/t1"
	truncate -s 5000 "$D/t1"
	truncate -s 30000 "$D/t1"
	dd if=/tmp/rand of="$D/t1" bs=1 skip=3 seek=29000 count=500 conv=notrunc 2>/dev/null
	# shrink across node boundaries and regrow, then append
	head -c 16777216 /dev/zero | tr '\0' 'z' > "$D/t2"
	dd if=/tmp/rand of="$D/t2" bs=65536 count=40 seek=100 conv=notrunc 2>/dev/null
	truncate -s 9000001 "$D/t2"
	truncate -s 3781 "$D/t2"
	truncate -s 12000000 "$D/t2"
	cat /tmp/rand >> "$D/t2"
	# the sparse file shrinks out of the indirect range
	truncate -s 6144123 "$D/sparse"
	# random files: a shrink, a grow, to zero and rewritten
	truncate -s 4097 "$D/r1"
	truncate -s 8000000 "$D/r2"
	truncate -s 0 "$D/r3"
	head -c 7777 /tmp/rand >> "$D/r3"
}
on_both sparse_ops
lap "sparse writes and truncates done"

# ---- (e) short writes: the user buffer faults part way ---------------------
# A write of more than a page reserves all its blocks before copying; what
# a short write leaves reserved past the new EOF must be freed (i_blocks,
# the valid block count and fsck see a leak).  shortwrite prints "wrote N".
short_ops() {
	D=$1
	shortwrite "$D/s1" 0 12288 40960 21 > /dev/null
	head -c 8192 /tmp/rand > "$D/s2"
	shortwrite "$D/s2" 1048676 20480 1048576 22 > /dev/null
	head -c 40960 /tmp/rand > "$D/s3"
	shortwrite "$D/s3" 32768 16384 40960 23 > /dev/null
	shortwrite "$D/s4" 0 0 65536 24 > /dev/null
	# 3,000 blocks reach past the inode's 923 addresses and both direct
	# nodes into the indirect range; cut at 1,100, all but the first
	# direct node must go again
	shortwrite "$D/s5" 0 4505600 12288000 25 > /dev/null
}
on_both short_ops
sync
# FILE SECTORS (i_blocks counts data blocks and the nodes past the inode):
# s2 is 2 blocks, a hole, then bytes 1048676..1069155 (pages 256-261, in
# the inode's own 923 addresses); s5 is 1,100 blocks plus the first
# direct node.
for fb in s1:24 s2:64 s3:96 s4:0 s5:8808; do
	got=$(stat -c %b "$MNT/${fb%%:*}")
	[ "$got" = "${fb#*:}" ] ||
		fail "short write: ${fb%%:*} holds $got sectors, want ${fb#*:} (blocks reserved past EOF were not freed)"
done
lap "short writes: sizes $(stat -c %s $MNT/s1 $MNT/s2 $MNT/s3 $MNT/s4 $MNT/s5 | paste -sd' ')"

treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man || fail "treesum of the reference"
lap "reference manifest: $(cut -f1,5 /tmp/ref.man | tr '\t\n' '= ')"
same_tree /tmp/ref.man $MNT "live"
sync
same_tree /tmp/ref.man $MNT "after sync"
df -k $MNT | sed 's/^/  /'
umount $MNT || fail "umount failed"
fsck_clean /dev/vda
lap "first umount"

mount -t f2fs /dev/vda $MNT || fail "remount failed"
same_tree /tmp/ref.man $MNT "after remount"
# one more round of changes on the remounted filesystem
more_ops() {
	D=$1
	mmapwrite "$D/sparse" 6144000 123 18 3000000 5000 19
	truncate -s 1 "$D/m_new"
	rm "$D/r4"
	dd if=/tmp/rand of="$D/big" bs=4096 count=256 seek=25000 conv=notrunc 2>/dev/null
}
on_both more_ops
treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man || fail "treesum of the reference"
same_tree /tmp/ref.man $MNT "second round, live"
umount $MNT || fail "second umount failed"
fsck_clean /dev/vda
lap "second umount"

mount -t f2fs /dev/vda $MNT || fail "third mount failed"
same_tree /tmp/ref.man $MNT "second round, after remount"
umount $MNT
fsck_clean /dev/vda
stock_unchanged /dev/vda
use_module stock
mount -t f2fs -o ro /dev/vda $MNT || fail "the stock module cannot mount our image"
same_tree /tmp/ref.man $MNT "read by the stock module"
umount $MNT
use_module ours
lap "done"
