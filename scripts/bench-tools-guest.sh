#!/bin/sh
# bench-tools-guest.sh - guest side of scripts/bench-tools.sh: the same
# write workload with no tool attached, with "f2fs-top -j 1" attached and
# with "f2fs-hotcold -j 1" (top files and extensions on) attached, three
# rounds alternating, a fresh filesystem each time.  Prints "MODE WALL_MS
# CPU_TICKS TOOL_TICKS" lines: the workload's wall time, the CPU time of the
# whole guest (user+nice+system+irq+softirq from /proc/stat, in ticks of
# 10 ms, which includes the BPF programs run in the writers' context) over
# the workload, and the tool's own user+system ticks.
set -u
. /lib/harness.sh
F=/mnt/f2fs
use_module ours
workload() {
	mkdir $F/d
	i=0
	while [ $i -lt 1500 ]; do echo "file $i" > $F/d/s$i; i=$((i + 1)); done
	dd if=/dev/zero of=$F/big bs=1M count=64 2>/dev/null
	dd if=/dev/zero of=$F/clip.mp4 bs=1M count=32 2>/dev/null
	sync
	rm -rf $F/d
	sync
}
cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
for _ in 1 2 3; do
	for mode in none top hotcold; do
		mkfs.f2fs -q -f -e mp4 /dev/vda
		mount -t f2fs /dev/vda $F
		pid=
		case $mode in
		top) f2fs-top -j 1 > /tmp/tool.out 2>&1 & pid=$! ;;
		hotcold) f2fs-hotcold -j 1 > /tmp/tool.out 2>&1 & pid=$! ;;
		esac
		[ -z "$pid" ] || until grep -q "Hit Ctrl-C" /tmp/tool.out 2>/dev/null; do sleep 0.2; done
		c0=$(cpu)
		t0=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		workload
		t1=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		c1=$(cpu)
		tt=0
		if [ -n "$pid" ]; then
			tt=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
			kill -INT $pid
			wait $pid
		fi
		echo "$mode $((t1 - t0)) $((c1 - c0)) $tt" | tee -a /host/results.raw
		umount $F
	done
done
