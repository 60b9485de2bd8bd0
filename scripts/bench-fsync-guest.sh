#!/bin/sh
# bench-fsync-guest.sh - guest side of scripts/bench-fsync.sh: 1,000 fsyncs
# of 4 KiB appends on our f2fs, the stock f2fs and ext4, each on a fresh
# filesystem of the same disk, in this order twice.  For each run prints
# "FS <fsyncbench line> rd_req R rd_sect S wr_req W wr_sect X flush_req F"
# (the disk's /sys/block/vda/stat deltas).
set -u
. /lib/harness.sh
M=/mnt/f2fs
N=${FSYNC_OPS:-1000}
stat_of() { awk '{ print $1, $3, $5, $7, ($16 == "" ? 0 : $16) }' /sys/block/vda/stat; }
run() {
	fs=$1
	case $fs in
	ext4) mkfs.ext4 -q -F /dev/vda; mount -t ext4 /dev/vda $M ;;
	*) use_module "$fs"; mkfs.f2fs -q -f /dev/vda > /dev/null; mount -t f2fs /dev/vda $M ;;
	esac
	sync
	set -- $(stat_of)
	line=$(fsyncbench $M/log $N 4096) || { echo "$fs fsyncbench failed"; umount $M; return; }
	set -- "$@" $(stat_of)
	echo "$fs $line rd_req $(($6 - $1)) rd_sect $(($7 - $2)) wr_req $(($8 - $3)) wr_sect $(($9 - $4)) flush_req $((${10} - $5))" | tee -a /host/results.raw
	umount $M
	[ "$fs" = ext4 ] || fsck.f2fs /dev/vda > /dev/null 2>&1 || echo "$fs: fsck.f2fs found problems" | tee -a /host/results.raw
}
for round in 1 2; do
	for fs in ours stock ext4; do run $fs; done
done
