#!/bin/sh
# bench-trace-guest.sh - guest side of scripts/bench-trace.sh: the same
# write workload three times each with our f2fs events off and with all of
# them on (recording into the ring buffer), alternating, on a fresh
# filesystem each time.  Prints "off|on MS EVENTS" lines.
set -u
. /lib/harness.sh
F=/mnt/f2fs
T=/sys/kernel/tracing
use_module ours
mount -t tracefs none $T 2>/dev/null
echo 16384 > $T/buffer_size_kb
workload() {
	i=0
	while [ $i -lt 2000 ]; do echo "file $i" > $F/s$i; i=$((i + 1)); done
	dd if=/dev/zero of=$F/big bs=1M count=128 2>/dev/null
	sync
	ls -l $F > /dev/null
	rm -f $F/s*
	sync
}
for round in 1 2 3; do
	for mode in off on; do
		mkfs.f2fs -q -f /dev/vda
		mount -t f2fs /dev/vda $F
		echo > $T/trace
		[ $mode = on ] && echo 1 > $T/events/f2fs/enable
		t0=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		workload
		t1=$(awk '{ print int($1 * 1000) }' /proc/uptime)
		echo 0 > $T/events/f2fs/enable
		n=$(grep -c 'f2fs_' $T/trace)
		echo "$mode $((t1 - t0)) $n" | tee -a /host/results.raw
		umount $F
	done
done
