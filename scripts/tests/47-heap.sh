#!/bin/sh
# desc: where logs open sections: alloc_mode=reuse (the default, as stock) takes the first free section from the start for every log; alloc_mode=default goes right from where the log is (no wrap on a fresh device), and after deletions heap keeps the node log going right while no_heap takes it from the first free section; each mode shown in /proc/mounts, fsck clean, stock-canonical
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

for mode in reuse heap no_heap; do
	mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
	case $mode in
	reuse)
		mount -t f2fs /dev/vda $F || fail "mount failed"
		want=",no_heap,alloc_mode=reuse," ;;
	heap)
		mount -t f2fs -o heap,alloc_mode=default /dev/vda $F || fail "mount -o heap,alloc_mode=default failed"
		want=",heap,alloc_mode=default," ;;
	no_heap)
		mount -t f2fs -o alloc_mode=default /dev/vda $F || fail "mount -o alloc_mode=default failed"
		want=",no_heap,alloc_mode=default," ;;
	esac
	grep " $F " /proc/mounts | grep -q -- "$want" || fail "$mode: /proc/mounts lacks $want: $(grep " $F " /proc/mounts)"
	main=$(stat_of main_segs)
	n0=$(stat_of curseg_warm_node) d0=$(stat_of curseg_warm_data)
	work
	n1=$(stat_of curseg_warm_node) d1=$(stat_of curseg_warm_data)
	note "$mode: main area $main segments; warm node log $n0 -> $n1 ($(stat_of segs_opened_warm_node_lfs) opened), warm data log $d0 -> $d1 ($(stat_of segs_opened_warm_data_lfs) opened)"
	[ "$(stat_of segs_opened_warm_node_lfs)" -gt 1 ] || fail "$mode: the warm node log did not move on"
	[ "$(stat_of segs_opened_warm_data_lfs)" -gt 1 ] || fail "$mode: the warm data log did not move on"
	# No node log wraps on a fresh device (mkfs.f2fs puts the node logs and
	# hot data at the first segments, cold data at a quarter, warm data at
	# half); reuse takes warm data to the start too.
	[ "$n1" -gt "$n0" ] && [ "$n1" -lt $((main / 2)) ] ||
		fail "$mode: the warm node log did not go right from its first segment ($n0 -> $n1)"
	if [ $mode = reuse ]; then
		[ "$d1" -lt "$d0" ] || fail "reuse: the warm data log did not take the first free sections ($d0 -> $d1)"
	else
		[ "$d1" -gt "$d0" ] || fail "$mode: the warm data log did not go right from its first segment ($d0 -> $d1)"
	fi
	# Free the first half's segments (two checkpoints: freed, then reusable),
	# then make the node log open more sections.
	rm -r $F/d0 $F/d1 $F/d2 $F/d3
	sync
	sync
	o1=$(stat_of segs_opened_warm_node_lfs)
	# Nodes reach their log at writeback: sync every 200 files and note
	# the lowest segment the log stood in.
	mkdir $F/e
	i=0 low=$n1 dlow=$d1
	while [ $i -lt 1200 ]; do
		echo "$i" > $F/e/f$i
		i=$((i + 1))
		if [ $((i % 200)) -eq 0 ]; then
			head -c 1500000 /dev/urandom > $F/e/big$i
			sync
			c=$(stat_of curseg_warm_node)
			[ "$c" -lt "$low" ] && low=$c
			c=$(stat_of curseg_warm_data)
			[ "$c" -lt "$dlow" ] && dlow=$c
		fi
	done
	n2=$(stat_of curseg_warm_node) d2=$(stat_of curseg_warm_data)
	note "$mode: after freeing d0-d3 the warm node log went $n1 -> $n2, lowest $low ($(($(stat_of segs_opened_warm_node_lfs) - o1)) opened); warm data $d1 -> $d2, lowest $dlow"
	[ "$(stat_of segs_opened_warm_node_lfs)" -gt "$o1" ] || fail "$mode: the warm node log opened no section for 1200 inodes"
	if [ $mode = heap ]; then
		[ "$low" -ge "$n1" ] && [ "$n2" -gt "$n1" ] ||
			fail "heap: the warm node log went back to a freed section (from $n1, lowest $low, now $n2) with free ones to its right"
	else
		[ "$low" -lt "$n1" ] || fail "$mode: the warm node log did not reuse a freed section near the start (from $n1, lowest $low, now $n2)"
	fi
	if [ $mode = reuse ]; then
		[ "$dlow" -lt "$d1" ] || fail "reuse: the warm data log did not reuse a freed section near the start (from $d1, lowest $dlow, now $d2)"
	else
		[ "$dlow" -ge "$d1" ] || fail "$mode: the warm data log went back to a freed section (from $d1, lowest $dlow, now $d2)"
	fi
	umount $F
	fsck_clean /dev/vda
	stock_unchanged /dev/vda $mode
done
