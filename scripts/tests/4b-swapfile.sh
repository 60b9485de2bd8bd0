#!/bin/sh
# desc: a swapfile on our f2fs: written interleaved with files that are then deleted (so its segments are half valid, the cleaner's favourite victims), mkswap, swapon, a memory hog larger than the guest's memory checks every page it gets back while files are written to ENOSPC with SSR off (the cleaner must pick victims); writes and fallocate on the active swapfile are refused; the swapfile's blocks (FIBMAP) never move while swap is on and do move under GC after swapoff (so the check can fail); swapoff, fsck.f2fs clean; a preallocated (unwritten) swapfile is refused with a kernel message; a sparse swapfile dirtied through a shared mapping is written back by swapon and mapped in full, a later write through a mapping is refused (SIGBUS), its blocks stay; the stock module runs the same swap workloads as a control; stock_unchanged at the end
# disks: 256M 256M
# mem: 256M
# timeout: 1500
set -eu
. /tests/lib.sh

SEED=$(test_seed)
M=/mnt/f2fs
mkdir -p $M
SWAP_MB=96
# The hog takes this much more than MemAvailable, and walks its pages this
# many times.  On the debug kernel (KASAN, lockdep, kmemleak under TCG)
# every swapped page costs many times more, and 3 rounds 48 MiB over ran
# past 90 minutes (the normal kernel takes under 2): there it goes 16 MiB
# over, twice, which still swaps out thousands of pages.  The debug kernel
# is told by its release suffix (CONFIG_LOCALVERSION in
# qemu/debug-kernel.config).
HOG_OVER=48 HOG_ROUNDS=3
case $(uname -r) in
*-f2fs-debug) HOG_OVER=16 HOG_ROUNDS=2 ;;
esac

# make_swapfile: 1 MiB of swapfile, then 512 KiB of filler, synced each
# time so that they share segments; the fillers are deleted afterwards.
make_swapfile() {
	i=0
	while [ $i -lt $SWAP_MB ]; do
		dd if=/dev/zero of=$M/swap bs=1M count=1 seek=$i conv=notrunc 2>/dev/null
		dd if=/dev/zero of=$M/fill$i bs=512k count=1 2>/dev/null
		sync
		i=$((i + 1))
	done
	rm -f $M/fill*
	sync
	chmod 600 $M/swap
	mkswap $M/swap > /dev/null
	sync
}

# pressure MOD: make the cleaner work.  Our module has no GC ioctl: with
# SSR off, files are written until ENOSPC, so that writers must clean, and
# the sections with room to gain are the swapfile's half-valid ones; then
# they are deleted.  The stock module gets background GC passes
# (F2FS_IOC_GARBAGE_COLLECT) besides.
pressure() {
	[ "$1" = ours ] && echo N > /sys/module/f2fs/parameters/ssr
	[ "$1" = stock ] && { gcioctl bg $M 20 > /dev/null 2>&1 || true; }
	j=0
	while [ $j -lt 40 ] && dd if=/dev/zero of=$M/press$j bs=1M count=8 2>/dev/null; do
		j=$((j + 1))
	done
	sync || true
	rm -f $M/press*
	sync
	[ "$1" = ours ] && echo Y > /sys/module/f2fs/parameters/ssr
	note "$1: pressure: $j files of 8 MiB written before ENOSPC"
}
# unmoved BEFORE AFTER MSG: two FIBMAP maps must be equal
unmoved() {
	if ! cmp -s "$1" "$2"; then
		diff "$1" "$2" | head -10
		fail "$3"
	fi
}
remount_clean() { umount $M; fsck_clean "$1"; mount -t f2fs "$1" $M; }
victims() { awk '$1 ~ /^gc_victims_/ { n += $2 } END { print n + 0 }' /sys/kernel/debug/f2fs/vda/stats; }

# swap_run MOD DEV: the swap workload; prints the block map checks
swap_run() {
	use_module "$1"
	mkfs.f2fs -q -f "$2"
	mount -t f2fs "$2" $M
	make_swapfile
	filefrag -B -e $M/swap | grep -E '^ *[0-9]+:' > /tmp/map.before
	note "$1: swapfile of $SWAP_MB MiB in $(wc -l < /tmp/map.before) extents"
	swapon $M/swap || fail "$1: swapon of a fully written swapfile failed: $(dmesg | tail -3)"
	grep -q "^$M/swap " /proc/swaps || fail "$1: /proc/swaps does not list the swapfile"
	# The stock module moves the blocks into pinned sections at swapon;
	# ours keeps them where they are.
	filefrag -B -e $M/swap | grep -E '^ *[0-9]+:' > /tmp/map.swapon
	if [ "$1" = ours ] && ! cmp -s /tmp/map.before /tmp/map.swapon; then
		fail "ours: swapon moved the swapfile's blocks"
	fi
	note "$1: mapped at swapon in $(wc -l < /tmp/map.swapon) extents"
	if dd if=/dev/zero of=$M/swap bs=4k count=1 conv=notrunc 2>/tmp/dd.err; then
		fail "$1: a write to the active swapfile succeeded"
	fi
	note "$1: write to the active swapfile refused: $(cat /tmp/dd.err)"
	xfs_io -c "falloc 0 4k" $M/swap 2>/tmp/fa.err || true
	[ -s /tmp/fa.err ] || fail "$1: fallocate on the active swapfile succeeded"
	note "$1: fallocate on the active swapfile refused: $(head -1 /tmp/fa.err)"
	out0=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	avail=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
	hog=$((avail + HOG_OVER))
	note "$1: $avail MiB available; memory hog of $hog MiB, $HOG_ROUNDS rounds"
	[ "$1" = ours ] && v0=$(victims)
	rc=0
	memhog $hog "$SEED" $HOG_ROUNDS > /tmp/hog.out 2>&1 &
	hogpid=$!
	pressure "$1"
	wait $hogpid || rc=$?
	cat /tmp/hog.out
	if [ "$1" = ours ]; then
		v1=$(victims)
		[ "$v1" -gt "$v0" ] || fail "ours: the cleaner picked no victim while swap was on: pinning not exercised"
		note "ours: the cleaner picked $((v1 - v0)) victims while swap was on"
	fi
	[ $rc = 0 ] || fail "$1: the memory hog got pages back wrong (exit $rc)"
	out1=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	[ $((out1 - out0)) -gt 1000 ] || fail "$1: only $((out1 - out0)) pages swapped out: swap was not exercised"
	note "$1: $((out1 - out0)) pages swapped out and read back intact"
	filefrag -B -e $M/swap | grep -E '^ *[0-9]+:' > /tmp/map.during
	swapoff $M/swap || fail "$1: swapoff failed"
	unmoved /tmp/map.swapon /tmp/map.during "$1: the swapfile's blocks moved while swap was on"
	note "$1: the swapfile's blocks stayed where swapon mapped them"
	remount_clean "$2"
}

# mmap_swap MOD DEV: a sparse file, mkswap'd, whose other pages a shared
# writable mapping then dirtied (over holes: no block written yet), and
# swapon at once, with periodic writeback off and the background threshold
# raised so that the pages are still dirty: swapon must see the final layout (ours writes the pages
# back, then maps them, and would refuse any block still unwritten).  A
# second mapping, made before swapon, writes after it: ours refuses that
# (SIGBUS: our writeback would move the block under swap; the stock
# module gave SIGBUS too when this was written, shown, not required).
# The blocks stay where swapon mapped them; swapoff, fsck clean.
mmap_swap() {
	f=$M/mswap
	rm -f $f
	xfs_io -f -c "truncate 16m" $f
	chmod 600 $f
	mkswap $f > /dev/null
	sync
	wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)
	echo 0 > /proc/sys/vm/dirty_writeback_centisecs
	# and background writeback out of reach of 16 MiB (in this 256 MiB
	# guest the default 10% is about that much: how many pages were still
	# dirty depended on how fast the flusher wrote)
	bgr=$(cat /proc/sys/vm/dirty_background_ratio)
	dr=$(cat /proc/sys/vm/dirty_ratio)
	echo 134217728 > /proc/sys/vm/dirty_bytes
	echo 67108864 > /proc/sys/vm/dirty_background_bytes
	xfs_io -c "mmap -w 4096 16773120" -c "mwrite -S 0x11 4096 16773120" $f ||
		fail "$1: mwrite over the sparse swapfile failed"
	dirty=$(awk '$1 == "Dirty:" { print $2 }' /proc/meminfo)
	note "$1: mapping dirtied 4095 pages of a sparse swapfile; $dirty KiB dirty before swapon"
	[ "$dirty" -ge 8192 ] || fail "$1: only $dirty KiB dirty before swapon: the pages were written back already, the step proves nothing"
	rm -f /tmp/go
	mkfifo /tmp/go
	{ echo "mmap -w 8192 4096"; cat /tmp/go > /dev/null; echo "mwrite -S 0x22 8192 4096"; } |
		xfs_io $f > /tmp/mw.out 2>&1 &
	mwpid=$!
	sleep 1
	swapon $f 2> /tmp/swapon.err || rc=$?
	echo 1000 > /proc/sys/vm/dirty_writeback_centisecs
	echo "$bgr" > /proc/sys/vm/dirty_background_ratio
	echo "$dr" > /proc/sys/vm/dirty_ratio
	if ! grep -q "^$f " /proc/swaps; then
		echo go > /tmp/go
		wait $mwpid || true
		echo "$wb" > /proc/sys/vm/dirty_writeback_centisecs
		fail "$1: swapon of a swapfile dirtied through a mapping failed: $(cat /tmp/swapon.err) $(dmesg | tail -3)"
	fi
	filefrag -B -e $f | grep -E '^ *[0-9]+:' > /tmp/mmap.swapon
	blocks=$(awk '{ n += $6 } END { print n + 0 }' /tmp/mmap.swapon)
	[ "$blocks" = 4096 ] || fail "$1: at swapon FIBMAP maps $blocks of the 4096 blocks"
	echo go > /tmp/go
	mrc=0
	wait $mwpid || mrc=$?
	note "$1: a write through a mapping made before swapon, after it: exit $mrc $(tr '\n' ' ' < /tmp/mw.out)"
	if [ "$1" = ours ] && [ $mrc = 0 ]; then
		fail "ours: a write through a shared mapping of the active swapfile succeeded"
	fi
	sync
	filefrag -B -e $f | grep -E '^ *[0-9]+:' > /tmp/mmap.after
	swapoff $f || fail "$1: swapoff of $f failed"
	echo "$wb" > /proc/sys/vm/dirty_writeback_centisecs
	unmoved /tmp/mmap.swapon /tmp/mmap.after "$1: the blocks of the swapfile dirtied through a mapping moved while swap was on"
	note "$1: swapon wrote the mapped pages first: all 4096 blocks mapped ($(wc -l < /tmp/mmap.swapon) extents), unmoved"
	remount_clean "$2"
}

# --- ours ----------------------------------------------------------------------
swap_run ours /dev/vda
# After swapoff the cleaner may move the blocks again: the same pressure
# moves part of them, so the check above can fail.
pressure ours
filefrag -B -e $M/swap | grep -E '^ *[0-9]+:' > /tmp/map.after
if cmp -s /tmp/map.before /tmp/map.after; then
	fail "ours: background GC moved none of the swapfile's blocks after swapoff: the pinning check above proves nothing"
fi
note "ours: after swapoff GC moved the swapfile's blocks ($(wc -l < /tmp/map.after) extents now)"
# a preallocated swapfile: its blocks are NEW_ADDR, swap could not write them
xfs_io -f -c "falloc 0 16m" $M/prealloc
chmod 600 $M/prealloc
mkswap $M/prealloc > /dev/null
sync
k=$(dmesg | wc -l)
if swapon $M/prealloc 2>/tmp/swapon.err; then
	swapoff $M/prealloc
	fail "ours: swapon of a preallocated, unwritten swapfile succeeded"
fi
dmesg | tail -n +$((k + 1)) | grep -q 'swapon: inode .* preallocated, unwritten' ||
	fail "ours: swapon of a preallocated swapfile failed without our message: $(dmesg | tail -n +$((k + 1)))"
note "ours: preallocated swapfile refused: $(dmesg | tail -n +$((k + 1)) | grep -o 'swapon: inode.*' | head -1)"
mmap_swap ours /dev/vda
umount $M
fsck_clean /dev/vda

# --- the stock module, the same workload ------------------------------------------
swap_run stock /dev/vdb
mmap_swap stock /dev/vdb
umount $M

use_module ours
stock_unchanged /dev/vda swapfile
echo "PASS: swapfile"
