#!/bin/sh
# bench-tools-guest.sh - guest side of scripts/bench-tools.sh: the same
# write workload with no tool attached ("none": f2fs_block_write off),
# with "f2fs-top -j 1", with "f2fs-hotcold -j 1 -E" (top files from
# extent growth: f2fs_block_write stays off), with "f2fs-hotcold -j 1" (top
# files from f2fs_block_write: on), with "f2fs-frag -j 1" (on), and with
# f2fs_block_write enabled in tracefs, recording into the ring buffer
# ("trace"), five rounds alternating, a fresh filesystem each time.
# Prints "MODE WALL_MS CPU_TICKS TOOL_TICKS WRITE_IOS WRITE_SECTORS" lines:
# the workload's wall time, the CPU time of the whole guest
# (user+nice+system+irq+softirq from /proc/stat, in ticks of 10 ms, which
# includes the BPF programs run in the writers' context) over the workload,
# the tool's own user+system ticks, and the writes the device completed
# (/sys/block/vda/stat) over the workload; then BPF_NS BPF_RUNS: the run
# time and runs of the tool's BPF programs (kernel.bpf_stats_enabled, from
# the fdinfo of its program descriptors), the direct cost of the events.
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
dio() { awk -v f="$1" '{ print $f }' /sys/block/vda/stat; }	# 5 write IOs, 7 sectors
bpfrun() { cat /proc/"$1"/fdinfo/* 2> /dev/null | awk '/^run_time_ns:/ { t += $2 } /^run_cnt:/ { c += $2 } END { print t + 0, c + 0 }'; }
echo 1 > /proc/sys/kernel/bpf_stats_enabled
T=/sys/kernel/tracing
grep -q " $T " /proc/mounts || mount -t tracefs none $T
for _ in 1 2 3 4 5; do
	for mode in none top hotcold-E hotcold frag trace; do
		mkfs.f2fs -q -f -e mp4 /dev/vda
		mount -t f2fs /dev/vda $F
		pid=
		case $mode in
		top) f2fs-top -j 1 > /tmp/tool.out 2>&1 & pid=$! ;;
		hotcold-E) f2fs-hotcold -j 1 -E > /tmp/tool.out 2>&1 & pid=$! ;;
		hotcold) f2fs-hotcold -j 1 > /tmp/tool.out 2>&1 & pid=$! ;;
		frag) f2fs-frag -j 1 > /tmp/tool.out 2>&1 & pid=$! ;;
		trace) echo 1 > $T/events/f2fs/f2fs_block_write/enable ;;
		esac
		[ -z "$pid" ] || until grep -q "Hit Ctrl-C" /tmp/tool.out 2>/dev/null; do sleep 0.2; done
		w0=$(dio 5) s0=$(dio 7)
		c0=$(cpu)
		t0=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		workload
		t1=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		c1=$(cpu)
		w1=$(dio 5) s1=$(dio 7)
		tt=0 bpf="0 0"
		if [ -n "$pid" ]; then
			tt=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
			bpf=$(bpfrun $pid)
			kill -INT $pid
			wait $pid
		fi
		if [ $mode = trace ]; then
			echo 0 > $T/events/f2fs/f2fs_block_write/enable
			tail -1 $T/trace | grep -q f2fs_block_write || echo "bench-tools: no f2fs_block_write record in the trace" >&2
			echo > $T/trace
		fi
		echo "$mode $((t1 - t0)) $((c1 - c0)) $tt $((w1 - w0)) $((s1 - s0)) $bpf" | tee -a /host/results.raw
		umount $F
	done
done
