#!/bin/sh
# bench-fsync-guest.sh - guest side of scripts/bench-fsync.sh: 1,000 fsyncs
# of 4 KiB appends on our f2fs, the stock f2fs and ext4, each on a fresh
# filesystem of the same disk, in this order twice, first alone and then
# beside a steady buffered writer (64 MiB rewritten in a loop, with
# writeback started at 4 MiB dirty so that data writes are always in
# flight: the fsync must not wait for them), and beside a creator of small
# files (a new directory of 100 one-line files at a time, as an untar does:
# thousands of dirty inode blocks, which stock f2fs scans at every fsync
# for the file's own nodes).  For each run prints
# "FS <fsyncbench line> rd_req R rd_sect S wr_req W wr_sect X flush_req F"
# (the disk's /sys/block/vda/stat deltas, the writer's I/O included in
# the companion's rows), FS being e.g. "ours", "ours-writer" or
# "ours-creates".
set -u
. /lib/harness.sh
M=/mnt/f2fs
N=${FSYNC_OPS:-1000}
stat_of() { awk '{ print $1, $3, $5, $7, ($16 == "" ? 0 : $16) }' /sys/block/vda/stat; }
run() {
	fs=$1
	label=$fs${2:+-$2}
	case $fs in
	ext4) mkfs.ext4 -q -F /dev/vda; mount -t ext4 /dev/vda $M ;;
	*) use_module "$fs"; mkfs.f2fs -q -f /dev/vda > /dev/null; mount -t f2fs /dev/vda $M ;;
	esac
	sync
	wpid=
	if [ "${2:-}" = writer ]; then
		rm -f /tmp/writer.stop
		( while [ ! -e /tmp/writer.stop ]; do
			dd if=/dev/zero of=$M/stream bs=1M count=64 2>/dev/null || break
		  done ) &
		wpid=$!
		sleep 2
	elif [ "${2:-}" = creates ]; then
		rm -f /tmp/writer.stop
		( d=0
		  while [ ! -e /tmp/writer.stop ]; do
			mkdir $M/c$d || break
			i=0
			while [ $i -lt 100 ]; do echo "$d $i" > $M/c$d/f$i; i=$((i + 1)); done
			d=$((d + 1))
		  done ) &
		wpid=$!
		sleep 2
	fi
	set -- $(stat_of)
	line=$(fsyncbench $M/log $N 4096) || line=failed
	set -- "$@" $(stat_of)
	if [ -n "$wpid" ]; then
		# the loop ends after its current dd (killing the subshell
		# would leave that dd writing, and the unmount busy)
		touch /tmp/writer.stop
		wait $wpid 2>/dev/null || true
	fi
	[ "$line" != failed ] || { echo "$label fsyncbench failed"; umount $M; return; }
	echo "$label $line rd_req $(($6 - $1)) rd_sect $(($7 - $2)) wr_req $(($8 - $3)) wr_sect $(($9 - $4)) flush_req $((${10} - $5))" | tee -a /host/results.raw
	umount $M || { echo "$label: umount failed"; return; }
	[ "$fs" = ext4 ] || fsck.f2fs /dev/vda > /dev/null 2>&1 || echo "$fs: fsck.f2fs found problems" | tee -a /host/results.raw
}
echo 4194304 > /proc/sys/vm/dirty_background_bytes
for round in 1 2; do
	for fs in ours stock ext4; do run $fs; done
	for fs in ours stock ext4; do run $fs writer; done
	for fs in ours stock ext4; do run $fs creates; done
done
