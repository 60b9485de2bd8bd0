#!/bin/sh
# desc: fsync records of appends past the inode's own addresses (issue 17): an fdatasync of a whole-block append writes the data block and the direct node only (16 sectors and three requests with the cache flush, as stock) (stock f2fs also leaves the inode block out there), while unaligned appends, a fallocate or truncate that grows the size, and a mode change still write the inode block; records find the file's dirty direct nodes in the index by inode (no scan of the mount's dirty nodes): appends, a record of four blocks under the inode and three direct nodes, and appends within the inode beside 400 dirty inodes; a copy of the device taken after the fsyncs is rolled forward by our module and by the stock module to every fsynced size and content (recovery extends the size over the blocks the direct nodes hold); then the stock module writes the same appends (its records leave the inode block out when the times did not change) and both modules roll its copy forward; the records again with the index lost after their first checkpoint (one injected failed insert): every fsync scans the dirty nodes, and both modules roll the copy forward the same; fsck clean, our images canonical
# disks: 128M 128M 128M 128M 128M 128M 128M 128M 128M
# timeout: 600
#
# vda: written by our module, copied (crash images) to vdb (recovered by
# ours) and vdc (by stock); vdd: written by the stock module, copied to vde
# (recovered by ours) and vdf (by stock); vdg: the records of vda again,
# with the index of dirty nodes lost (an injected failed insert), copied
# to vdh (recovered by ours) and vdi (by stock).  /tmp/ref is the tmpfs reference:
# the same operations on the same starting files.
set -eu
. /tests/lib.sh

M=/mnt/f2fs
R=/tmp/ref
BASE=950	# blocks per starting file: past the 873 addresses of an inode
		# (923 less the inline xattr area, on by default)
N=300		# whole-block appends, one fdatasync each
mkdir -p $R /mnt/b
mount -t tmpfs -o size=200m tmpfs $R
head -c $((BASE * 4096)) /dev/urandom > /tmp/base
# m: 3,000 blocks, in the inode, two direct nodes and one under the first
# indirect node; one fdatasync rewrites a block in each
head -c $((3000 * 4096)) /dev/urandom > /tmp/big
head -c 4096 /dev/urandom > /tmp/patch
FILES="a a2 b c d e n m"

dstat() { awk '{ print $5, $7 }' /sys/block/$1/stat; }

# start DIR: the starting files, each BASE blocks (n is made later)
start() {
	for f in $FILES; do
		case $f in
		n) ;;
		m) cp /tmp/big "$1/m" ;;
		*) cp /tmp/base "$1/$f" ;;
		esac
	done
}

# records DIR WHOLE: the fsynced operations (WHOLE: only the appends of
# whole blocks, a and a2).  On f2fs each runs after a checkpoint.
records() {
	# first: an fsync after fallocate writes a checkpoint (a record
	# cannot replay preallocation), which would retire the others
	if [ "$2" = all ]; then
		xfs_io -c "falloc 0 $(((BASE + 50) * 4096))" -c fdatasync "$1/c" ||
			fail "fallocate past the end of $1/c"
	fi
	after_cp
	fsyncbench -a -d "$1/a" $N > /dev/null || fail "fdatasync appends to $1/a"
	fsyncbench -a "$1/a2" 100 > /dev/null || fail "fsync appends to $1/a2"
	[ "$2" = all ] || return 0
	# a file the checkpoint does not have, fdatasynced from its first
	# block: its first record carries the inode with the dentry mark, the
	# later ones past the inode's addresses leave it out
	fsyncbench -d "$1/n" 1000 > /dev/null || fail "fdatasync appends to the new $1/n"
	fsyncbench -a -d "$1/b" 40 1000 > /dev/null || fail "unaligned appends to $1/b"
	truncate -s $(((BASE + 60) * 4096)) "$1/d"
	xfs_io -c fdatasync "$1/d" || fail "fdatasync of $1/d"
	chmod 600 "$1/e"
	fsyncbench -a -d "$1/e" 10 > /dev/null || fail "appends to $1/e"
	# one record of four direct nodes' worth: the inode and three direct
	# nodes, which the fsync must all find (nm.fsync_nodes)
	for blk in 10 1000 2500 2990; do
		dd if=/tmp/patch of="$1/m" bs=4096 seek=$blk count=1 conv=notrunc 2>/dev/null ||
			fail "overwriting block $blk of $1/m"
	done
	xfs_io -c fdatasync "$1/m" || fail "fdatasync of $1/m"
}

# after_cp: runs in records() after its checkpoint (the lossy run injects
# its failure there)
after_cp() { :; }

# expect_ref DIR WHOLE: every file as in the reference (size, content,
# mode)
expect_ref() {
	for f in $FILES; do
		[ "$2" = all ] || case $f in a|a2) ;; *) continue ;; esac
		[ -f "$1/$f" ] || fail "$1/$f is missing"
		rs=$(stat -c %s "$R/$f")
		gs=$(stat -c %s "$1/$f")
		[ "$gs" = "$rs" ] || fail "$1/$f: size $gs, fsynced $rs"
		[ "$(md5sum < "$1/$f")" = "$(md5sum < "$R/$f")" ] ||
			fail "$1/$f: content differs from the fsynced one"
	done
	[ "$2" != all ] || [ "$(stat -c %a "$1/e")" = 600 ] ||
		fail "$1/e: mode $(stat -c %a "$1/e"), fsynced 600"
}

# recover DEV MODULE WHOLE [FILES]: roll the crash image forward (with our
# module: FILES fsynced files in its chain), compare, fsck
recover() {
	use_module "$2"
	mount -t f2fs "$1" /mnt/b || fail "$2 module cannot mount the crash image $1"
	dmesg | grep "f2fs ($(basename "$1")).*roll-forward" | tail -1 | sed 's/^/  /' || true
	if [ -n "${4:-}" ]; then
		dmesg | grep -q "f2fs ($(basename "$1")).*roll-forward recovery: $4 fsynced files" ||
			fail "recovery of $1 did not replay the records of $4 files"
	fi
	expect_ref /mnt/b "$3"
	umount /mnt/b
	fsck_clean "$1"
	mount -t f2fs -o ro "$1" /mnt/b || fail "$2: second mount of $1"
	expect_ref /mnt/b "$3"
	umount /mnt/b
	note "$2 module rolls $1 forward to every fsynced state"
}

# crash_copy LIVE COPY1 COPY2: two crash images of the mounted LIVE (the
# fsynced state), then unmount LIVE and check it
crash_copy() {
	dd if="$1" of="$2" bs=1M iflag=direct 2>/dev/null || fail "copying the mounted $1"
	dd if="$2" of="$3" bs=1M 2>/dev/null || fail "copying $2"
	umount $M
	fsck_clean "$1"
}

start $R
records $R all

# ---- our module writes ----------------------------------------------------------
use_module ours
# No periodic checkpoint in the middle of the records: it would retire the
# earlier ones (which the counts of replayed files below assume), as it did
# on the debug kernel, where the records take over a minute.
echo 0 > /sys/module/f2fs/parameters/cp_interval
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs"
mount -t f2fs -o background_gc_off /dev/vda $M || fail "mount"
start $M
sync
s0=$(dstat vda)
k0=$(stat_of vda fsync_no_inode)
r0=$(stat_of vda fsync_record)
n0=$(stat_of vda fsync_no_scan)
fsyncbench -a -d $M/a $N > /dev/null || fail "fdatasync appends"
set -- $s0 $(dstat vda)
req=$(($3 - $1))
sect=$(($4 - $2))
k1=$(stat_of vda fsync_no_inode)
# each append dirties a's direct node, which each record found in the
# index of dirty nodes by inode (nm.fsync_nodes; it carries the mark above),
# without scanning the mount's dirty nodes
[ "$(stat_of vda fsync_no_scan)" = $((n0 + N)) ] ||
	fail "$(($(stat_of vda fsync_no_scan) - n0)) of $N records found their direct node without a scan of all dirty nodes"
note "$N fdatasyncs of whole-block appends past the inode's addresses: $req write requests, $sect sectors, $((k1 - k0)) records without the inode block"
[ "$(stat_of vda fsync_record)" = $((r0 + N)) ] || fail "the fdatasyncs did not all write records"
[ $((k1 - k0)) = $N ] || fail "$((k1 - k0)) of $N records left the inode block out"
# One data block and one direct node per fdatasync, plus the cache flush
# (an empty write request): three requests and 16 sectors, as stock.  The
# inode block would add 8 sectors each, and a request each as a bio of its
# own.
[ "$sect" -le $((N * 16 + 64)) ] || fail "$sect sectors written, more than data + direct node ($((N * 16)))"
[ "$req" -le $((N * 3 + 8)) ] || fail "$req write requests, more than data, node and flush per fdatasync"
# A file whose only dirty node is its inode block (appends within the
# inode's own addresses), beside 400 new files whose inode blocks are
# dirty: no scan of the mount's dirty nodes either.
mkdir $M/busy
i=0
while [ $i -lt 400 ]; do echo $i > $M/busy/f$i; i=$((i + 1)); done
n0=$(stat_of vda fsync_no_scan)
r0=$(stat_of vda fsync_record)
fsyncbench -a -d $M/small 40 > /dev/null || fail "fdatasync appends within the inode"
n1=$(stat_of vda fsync_no_scan)
r1=$(stat_of vda fsync_record)
note "40 fdatasyncs of appends within the inode's addresses, 400 dirty inodes beside: $((r1 - r0)) records, $((n1 - n0)) of them skipped the scan for dirty nodes"
# (the first may be a checkpoint, should the file start inline)
[ $((r1 - r0)) -ge 39 ] || fail "only $((r1 - r0)) of the 40 fdatasyncs of small wrote records"
[ $((n1 - n0)) = $((r1 - r0)) ] || fail "$((n1 - n0)) of $((r1 - r0)) records of a file without dirty direct nodes skipped the scan"
# Nothing changed since that record: fsync and fdatasync write nothing,
# not even a cache flush; a change after them is recorded again.
u0=$(stat_of vda fsync_unchanged)
set -- $(awk '{ print $5, $16 }' /sys/block/vda/stat)
xfs_io -c fsync -c fdatasync -c fsync $M/small || fail "fsyncs of the unchanged small"
set -- "$@" $(awk '{ print $5, $16 }' /sys/block/vda/stat)
u1=$(stat_of vda fsync_unchanged)
note "3 fsyncs of small, unchanged since its record: $((u1 - u0)) found nothing to write; $(($3 - $1)) write requests, $(($4 - $2)) cache flushes"
[ $((u1 - u0)) = 3 ] || fail "$((u1 - u0)) of 3 fsyncs of an unchanged file found nothing to write"
[ $(($3 - $1)) = 0 ] && [ $(($4 - $2)) = 0 ] ||
	fail "fsyncs of an unchanged file wrote $(($3 - $1)) requests and $(($4 - $2)) flushes"
r0=$(stat_of vda fsync_record)
fsyncbench -a $M/small 1 > /dev/null || fail "fsync of an append to small"
[ "$(stat_of vda fsync_record)" = $((r0 + 1)) ] || fail "an append after unchanged fsyncs was not recorded"
u2=$(stat_of vda fsync_unchanged)
[ "$u2" = "$u1" ] || fail "an fsync after an append found nothing to write"
rm -r $M/small $M/busy
# The rest of the records, from a fresh checkpoint (the appends above are
# checkpointed: a's starting point is then BASE + N blocks, as in /tmp/ref
# after its first step, so redo a's appends on the reference's copy too).
sync
truncate -s $((BASE * 4096)) $M/a
sync
k0=$(stat_of vda fsync_no_inode)
records $M all
k1=$(stat_of vda fsync_no_inode)
note "records without the inode block in the mixed run: $((k1 - k0)) (a: $N; n: 126, its appends past the inode's 873 addresses but the first; a2 and e: as the times allow, e after its first; b, c, d: none)"
[ $((k1 - k0)) -ge $((N + 126)) ] || fail "only $((k1 - k0)) records left the inode block out"
[ $((k1 - k0)) -le $((N + 126 + 100 + 10)) ] || fail "$((k1 - k0)) records left the inode block out: more than a, n, a2 and e could"
expect_ref $M all
cps=$(grep -E '^fsync_(record|cp_)' /sys/kernel/debug/f2fs/vda/stats | tr '\n' ' ')
note "fsync kinds: $cps"
crash_copy /dev/vda /dev/vdb /dev/vdc
recover /dev/vdb ours all 7
recover /dev/vdc stock all
use_module ours
stock_unchanged /dev/vda live
stock_unchanged /dev/vdb recovered

# ---- our module, the index of dirty nodes lost --------------------------------
# One insert into the index fails as if out of memory (fail_fsync_index),
# right after the records' first checkpoint: until the next checkpoint
# every fsync must scan all dirty node pages instead (fsync_no_scan stays)
# and write a record every time; recovery must see the same files.
echo 0 > /sys/module/f2fs/parameters/cp_interval	# reloaded: as above
mkfs.f2fs -q -f /dev/vdg > /dev/null || fail "mkfs (lossy run)"
mount -t f2fs -o background_gc_off /dev/vdg $M || fail "mount (lossy run)"
start $M
sync
after_cp() {
	[ "$(stat_of vdg fsync_index_lossy)" = 0 ] || fail "the index is lossy before the failure"
	echo 1 > /sys/kernel/debug/f2fs/vdg/fail_fsync_index
}
n0=$(stat_of vdg fsync_no_scan)
records $M all
n1=$(stat_of vdg fsync_no_scan)
lossy=$(stat_of vdg fsync_index_lossy)
cps=$(grep -E '^fsync_(record|cp_)' /sys/kernel/debug/f2fs/vdg/stats | tr '\n' ' ')
note "index lost after the first checkpoint: fsync_index_lossy $lossy, $((n1 - n0)) records from the index; fsync kinds: $cps"
[ "$lossy" = 1 ] || fail "an injected failed insert did not make the index lossy"
[ "$(cat /sys/kernel/debug/f2fs/vdg/fail_fsync_index)" = 0 ] || fail "the injected failure was not consumed"
[ $((n1 - n0)) = 0 ] || fail "$((n1 - n0)) records used the index after it was lost"
expect_ref $M all
crash_copy /dev/vdg /dev/vdh /dev/vdi
recover /dev/vdh ours all 7
recover /dev/vdi stock all
use_module ours
mount -t f2fs /dev/vdg $M || fail "remount of the lossy run's device"
[ "$(stat_of vdg fsync_index_lossy)" = 0 ] || fail "the index is lossy after a new mount"
umount $M
after_cp() { :; }

# ---- the stock module writes ------------------------------------------------------
use_module stock
mkfs.f2fs -q -f /dev/vdd > /dev/null || fail "mkfs (stock)"
mount -t f2fs /dev/vdd $M || fail "mount (stock)"
echo 3600 > /sys/fs/f2fs/vdd/cp_interval || fail "stock: cannot set cp_interval"
start $M
sync
records $M whole
crash_copy /dev/vdd /dev/vde /dev/vdf
recover /dev/vde ours whole 2
recover /dev/vdf stock whole
use_module ours
echo "fsync append records ok"
