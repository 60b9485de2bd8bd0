#!/bin/sh
# desc: every log opens its sections to the right of where it is (as stock: the logs advance together, a checkpoint touches few SIT blocks); after deletions heap keeps the node log going right while no_heap takes the first free section from the start; both fsck clean and shown in /proc/mounts
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh

F=/mnt/f2fs
S=/sys/kernel/debug/f2fs/vda/stats
use_module ours
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $S; }

# Enough node blocks (small files) and data for every log to open segments.
work() {
	i=0
	while [ $i -lt 8 ]; do
		mkdir $F/d$i
		j=0
		while [ $j -lt 300 ]; do echo "$i $j" > $F/d$i/f$j; j=$((j + 1)); done
		head -c 3000000 /dev/urandom > $F/d$i/big
		sync
		i=$((i + 1))
	done
}

for mode in heap no_heap; do
	mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
	if [ $mode = heap ]; then
		mount -t f2fs /dev/vda $F || fail "mount failed"
		grep -q no_heap /proc/mounts && fail "no_heap shown for a default mount"
	else
		mount -t f2fs -o no_heap /dev/vda $F || fail "mount -o no_heap failed"
		grep -q no_heap /proc/mounts || fail "no_heap not shown in /proc/mounts"
	fi
	main=$(stat_of main_segs)
	n0=$(stat_of curseg_warm_node) d0=$(stat_of curseg_warm_data)
	work
	n1=$(stat_of curseg_warm_node) d1=$(stat_of curseg_warm_data)
	note "$mode: main area $main segments; warm node log $n0 -> $n1 ($(stat_of segs_opened_warm_node_lfs) opened), warm data log $d0 -> $d1 ($(stat_of segs_opened_warm_data_lfs) opened)"
	[ "$(stat_of segs_opened_warm_node_lfs)" -gt 1 ] || fail "$mode: the warm node log did not move on"
	[ "$(stat_of segs_opened_warm_data_lfs)" -gt 1 ] || fail "$mode: the warm data log did not move on"
	# No log wraps on a fresh device (mkfs.f2fs puts the node logs and hot
	# data at the first segments, cold data at a quarter, warm data at half).
	[ "$n1" -gt "$n0" ] && [ "$n1" -lt $((main / 2)) ] ||
		fail "$mode: the warm node log did not go right from its first segment ($n0 -> $n1)"
	[ "$d1" -gt "$d0" ] ||
		fail "$mode: the warm data log did not go right from its first segment ($d0 -> $d1)"
	# Free the first half's segments (two checkpoints: freed, then reusable),
	# then make the node log open more sections.
	rm -r $F/d0 $F/d1 $F/d2 $F/d3
	sync
	sync
	o1=$(stat_of segs_opened_warm_node_lfs)
	# Nodes reach their log at writeback: sync every 200 files and note
	# the lowest segment the log stood in.
	mkdir $F/e
	i=0 low=$n1
	while [ $i -lt 1200 ]; do
		echo "$i" > $F/e/f$i
		i=$((i + 1))
		if [ $((i % 200)) -eq 0 ]; then
			sync
			c=$(stat_of curseg_warm_node)
			[ "$c" -lt "$low" ] && low=$c
		fi
	done
	n2=$(stat_of curseg_warm_node)
	note "$mode: after freeing d0-d3 the warm node log went $n1 -> $n2, lowest $low ($(($(stat_of segs_opened_warm_node_lfs) - o1)) opened)"
	[ "$(stat_of segs_opened_warm_node_lfs)" -gt "$o1" ] || fail "$mode: the warm node log opened no section for 1200 inodes"
	if [ $mode = heap ]; then
		[ "$low" -ge "$n1" ] && [ "$n2" -gt "$n1" ] ||
			fail "heap: the warm node log went back to a freed section (from $n1, lowest $low, now $n2) with free ones to its right"
	else
		[ "$low" -lt "$n1" ] || fail "no_heap: the warm node log did not reuse a freed section near the start (from $n1, lowest $low, now $n2)"
	fi
	umount $F
	fsck_clean /dev/vda
	stock_unchanged /dev/vda $mode
done
