#!/bin/sh
# desc: fsync waits for the blocks of the warm node chain that recovery follows, and for nothing else (issue 17): with the writes of the cold data log's segment held back ten seconds by dm-delay, twenty fsyncs of appends to another file all return while a cold file's writeback is still held (before, every fsync waited for every block in flight, and beside a creator of small files a directory block held in the flusher's plug made fsyncs wait up to 700 ms); a copy of the device taken then is rolled forward to every fsynced append by our module and by the stock module; with the warm node log's segment held back instead, an fsync returns only once its record is written; fsck clean
# disks: 256M 256M 256M
# timeout: 300
#
# vda: the filesystem, under the dm device "slow" (dm-delay on one segment,
# linear elsewhere); vdb and vdc: copies of vda taken while the cold writes
# are held (recovered by ours and by stock).  /tmp/ref: the reference.
set -eu
. /tests/lib.sh

M=/mnt/f2fs
HOLD=10000	# ms the delayed segment's writes are held
export DM_DISABLE_UDEV=1
modprobe dm-delay || fail "modprobe dm-delay"
SZ=$(blockdev --getsz /dev/vda)
# held: write bios dm-delay holds now (its status: reads, writes, flushes)
held() { dmsetup status slow | awk '$3 == "delay" { w += $5 } END { print w + 0 }'; }

# slow_table SEG MAIN: the dm table that holds back for HOLD ms the writes
# to segment SEG of the main area, which starts at sector MAIN
slow_table() {
	_s=$(($1 * 4096))	# sectors: 512-block segments of 8 sectors
	_main=$2
	_a=$((_main + _s))
	echo "0 $_a linear /dev/vda 0"
	echo "$_a 4096 delay /dev/vda $_a 0 /dev/vda $_a $HOLD /dev/vda $_a 0"
	echo "$((_a + 4096)) $((SZ - _a - 4096)) linear /dev/vda $((_a + 4096))"
}

echo 0 > /sys/module/f2fs/parameters/cp_interval
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs"
# main_blkaddr: the superblock's word at byte 92 (as test 66 reads it)
main=$(od -An -tu4 -j $((1024 + 92)) -N4 /dev/vda | tr -d ' ')
[ "${main:-0}" -gt 0 ] || fail "no main_blkaddr in the superblock"
mount -t f2fs /dev/vda $M || fail "mount"
cold=$(stat_of vda curseg_cold_data)
warm=$(stat_of vda curseg_warm_node)
umount $M
note "main area at block $main; cold data log in segment $cold, warm node log in segment $warm"

# ---- the cold data log held back: fsyncs of another file do not wait -------------
slow_table "$cold" $((main * 8)) > /tmp/table
dmsetup create slow < /tmp/table || fail "dmsetup create (cold data segment delayed)"
mount -t f2fs -o background_gc_off /dev/mapper/slow $M || fail "mount over dm-delay"
mkdir -p /tmp/ref /mnt/b
head -c 65536 /dev/urandom > $M/log
fsyncbench -a $M/log 1 > /dev/null || fail "first fsync of log"
head -c 65536 /dev/urandom > /tmp/movie
cp /tmp/movie $M/movie.mp4
xfs_io -c "sync_range -w 0 0" $M/movie.mp4 || fail "starting the writeback of movie.mp4"
i=0
while [ "$(held)" = 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
h0=$(held)
[ "$h0" -gt 0 ] || fail "the writes of movie.mp4 (cold data log, segment $cold) never reached the delay"
dev=dm-$(dmsetup info -c --noheadings -o minor slow | tr -d " ")
r0=$(stat_of "$dev" fsync_record)
fsyncbench -a $M/log 20 > /tmp/fsb || fail "fsyncs of appends to log"
h1=$(held)
r1=$(stat_of "$dev" fsync_record)
note "20 fsyncs of log while $h0 write bios of movie.mp4 were held: $((r1 - r0)) records; $h1 bios still held when they returned ($(cut -d' ' -f5-8 /tmp/fsb))"
[ $((r1 - r0)) = 20 ] || fail "$((r1 - r0)) of the 20 fsyncs wrote records"
[ "$h1" -gt 0 ] || fail "the fsyncs of log returned only after the held cold writes of another file"
# the device as a power cut now would leave it: the cold writes not there
cp $M/log /tmp/ref/log
dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null || fail "copying vda"
dd if=/dev/vdb of=/dev/vdc bs=1M 2>/dev/null || fail "copying vdb"
umount $M
[ "$(held)" = 0 ] || fail "umount left writes held"
dmsetup remove slow || fail "dmsetup remove"
fsck_clean /dev/vda
mount -t f2fs -o ro /dev/vda $M || fail "mount of vda after the run"
cmp $M/movie.mp4 /tmp/movie || fail "movie.mp4 differs after its held writes"
cmp $M/log /tmp/ref/log || fail "log differs after the run"
umount $M
for m in ours stock; do
	d=/dev/vdb
	[ $m = ours ] || d=/dev/vdc
	use_module $m
	mount -t f2fs $d /mnt/b ||
		fail "$m module cannot mount the copy $d"
	cmp /mnt/b/log /tmp/ref/log || fail "$m module: log in the copy is not as fsynced"
	umount /mnt/b
	fsck_clean $d
	note "$m module rolls the copy $d forward to every fsynced append of log"
done
use_module ours
echo 0 > /sys/module/f2fs/parameters/cp_interval

# ---- the warm node log held back: an fsync waits for its record -------------------
mount -t f2fs /dev/vda $M || fail "mount vda again"
warm=$(stat_of vda curseg_warm_node)
umount $M
HOLD=2000
slow_table "$warm" $((main * 8)) > /tmp/table
dmsetup create slow < /tmp/table || fail "dmsetup create (warm node segment delayed)"
mount -t f2fs -o background_gc_off /dev/mapper/slow $M || fail "mount over dm-delay (warm node)"
dev=dm-$(dmsetup info -c --noheadings -o minor slow | tr -d " ")
r0=$(stat_of "$dev" fsync_record)
n=0
for i in 1 2 3; do
	fsyncbench -a $M/log 1 > /dev/null || fail "fsync of log (warm node held)"
	n=$((n + $(held)))
done
r1=$(stat_of "$dev" fsync_record)
note "3 fsyncs of log with the warm node log held $HOLD ms: $((r1 - r0)) records, $n write bios held when they returned"
[ $((r1 - r0)) = 3 ] || fail "$((r1 - r0)) of 3 fsyncs wrote records"
[ "$n" = 0 ] || fail "an fsync returned while its record was held"
cp $M/log /tmp/ref/log
umount $M
dmsetup remove slow || fail "dmsetup remove"
fsck_clean /dev/vda
mount -t f2fs -o ro /dev/vda $M || fail "mount of vda after the warm node run"
cmp $M/log /tmp/ref/log || fail "log differs after the warm node run"
umount $M

# ---- a block of the same file, outside an O_SYNC write's range -------------------
# Page 1 of f goes to writeback first and takes the warm data log's next
# block, whose write dm-delay holds; then an O_SYNC write of page 0 (a
# ranged fsync, which waits for page 0 only) writes a record of f's inode
# block, which points at both pages' new blocks.  The write must not return
# before page 1's block is written, or a power cut would leave the record
# pointing at a block never written (page 1 read back as neither its old
# nor its new content).
mount -t f2fs /dev/vda $M || fail "mount vda for the O_SYNC case"
head -c 8192 /dev/urandom > /tmp/f.old
cp /tmp/f.old $M/f
sync
wseg=$(stat_of vda curseg_warm_data)
woff=$(stat_of vda blkoff_warm_data)
umount $M
blk=$((main + wseg * 512 + woff))
{
	echo "0 $((blk * 8)) linear /dev/vda 0"
	echo "$((blk * 8)) 8 delay /dev/vda $((blk * 8)) 0 /dev/vda $((blk * 8)) 10000 /dev/vda $((blk * 8)) 0"
	echo "$((blk * 8 + 8)) $((SZ - blk * 8 - 8)) linear /dev/vda $((blk * 8 + 8))"
} > /tmp/table
dmsetup create slow < /tmp/table || fail "dmsetup create (one block delayed)"
mount -t f2fs -o background_gc_off /dev/mapper/slow $M || fail "mount over dm-delay (one block)"
dev=dm-$(dmsetup info -c --noheadings -o minor slow | tr -d " ")
head -c 4096 /dev/urandom > /tmp/p0
head -c 4096 /dev/urandom > /tmp/p1
dd if=/tmp/p1 of=$M/f bs=4096 seek=1 conv=notrunc 2>/dev/null || fail "writing page 1 of f"
xfs_io -c "sync_range -w 4096 4096" $M/f || fail "starting the writeback of page 1"
i=0
while [ "$(held)" = 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(held)" -gt 0 ] || fail "page 1's write (block $blk) never reached the delay"
r0=$(stat_of "$dev" fsync_record)
xfs_io -s -c "pwrite -i /tmp/p0 0 4096" $M/f > /dev/null || fail "O_SYNC write of page 0"
h=$(held)
r1=$(stat_of "$dev" fsync_record)
note "O_SYNC write of page 0 while page 1's block was held: $((r1 - r0)) records, $h bios still held when it returned"
[ $((r1 - r0)) -ge 1 ] || fail "the O_SYNC write wrote no record"
[ "$h" = 0 ] || fail "the O_SYNC write returned while its record pointed at page 1's block, still held"
dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null || fail "copying vda (O_SYNC case)"
umount $M
dmsetup remove slow || fail "dmsetup remove"
fsck_clean /dev/vda
mount -t f2fs /dev/vdb /mnt/b || fail "mounting the copy (O_SYNC case)"
dd if=/mnt/b/f of=/tmp/g0 bs=4096 count=1 2>/dev/null
dd if=/mnt/b/f of=/tmp/g1 bs=4096 skip=1 count=1 2>/dev/null
cmp /tmp/g0 /tmp/p0 || fail "the copy lost page 0's O_SYNC write"
dd if=/tmp/f.old of=/tmp/o1 bs=4096 skip=1 count=1 2>/dev/null
cmp -s /tmp/g1 /tmp/p1 || cmp -s /tmp/g1 /tmp/o1 ||
	fail "page 1 in the copy is neither its old nor its new content"
umount /mnt/b
fsck_clean /dev/vdb
note "the copy has page 0's O_SYNC write, and page 1 old or new"
echo "fsync waits for the chain only ok"
