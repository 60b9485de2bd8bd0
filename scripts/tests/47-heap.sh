#!/bin/sh
# desc: heap allocation (default) sends node logs towards the start of the main area (wrapping to its end) and warm data towards its end; no_heap sends every log towards the end; both fsck clean and shown in /proc/mounts
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
	if [ $mode = heap ]; then
		# mkfs starts the node logs at the first segments: going left
		# wraps them to the end of the main area.
		[ "$n1" -gt $((main / 2)) ] || fail "heap: the warm node log went right ($n0 -> $n1)"
	else
		[ "$n1" -lt $((main / 2)) ] || fail "no_heap: the warm node log went left ($n0 -> $n1)"
	fi
	[ "$d1" -gt "$d0" ] || fail "$mode: the warm data log did not go right ($d0 -> $d1)"
	umount $F
	fsck_clean /dev/vda
	stock_unchanged /dev/vda $mode
done
