#!/bin/sh
# desc: rm -r writes nothing before sync (issue 17), as with the stock module (the control on the same workload): a tree of 32 MiB in 480 files plus 2,000 inline files and 100 directories is removed on a device mostly free, with no write request until the sync that follows, which then writes the checkpoint; on ours that checkpoint writes at most one SIT block (the data log's first segment, at half of the device where mkfs put it, goes to the SIT journal, as stock); the space comes back and fsck is clean
# disks: 4G
# timeout: 300
set -eu
. /tests/lib.sh

M=/mnt/f2fs
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
wr() { awk '{ print $5 }' /sys/block/vda/stat; }

for mod in ours stock; do
	use_module $mod
	mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs"
	mount -t f2fs -o background_gc=off /dev/vda $M || fail "mount ($mod)"
	used0=$(df -k $M | awk 'NR == 2 { print $3 }')
	i=0
	while [ $i -lt 24 ]; do
		mkdir -p $M/t/big$i
		j=0
		while [ $j -lt 20 ]; do
			head -c 69632 /dev/urandom > $M/t/big$i/f$j
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 76 ]; do
		mkdir -p $M/t/small$i
		j=0
		while [ $j -lt 27 ]; do
			echo "small file $i $j" > $M/t/small$i/s$j
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	sync
	[ $mod = ours ] && sit0=$(stat_of vda sit_blocks_written) sj0=$(stat_of vda sit_journal_entries)
	w0=$(wr)
	rm -r $M/t
	w1=$(wr)
	sync
	w2=$(wr)
	if [ $mod = ours ]; then
		sit=$(($(stat_of vda sit_blocks_written) - sit0)) sj=$(($(stat_of vda sit_journal_entries) - sj0))
		note "ours: the sync after rm -r wrote $sit SIT blocks and $sj SIT journal entries"
		[ "$sit" -le 1 ] || fail "ours: the sync after rm -r wrote $sit SIT blocks (the tree lies in the first 55 segments, the rest fits the journal)"
	fi
	used=$(df -k $M | awk 'NR == 2 { print $3 }')
	note "$mod: rm -r wrote $((w1 - w0)) requests, the sync after it $((w2 - w1)); used $used KiB (empty: $used0)"
	[ "$w1" = "$w0" ] || fail "$mod: rm -r wrote $((w1 - w0)) requests before sync"
	[ "$w2" -gt "$w1" ] || fail "$mod: the sync after rm -r wrote nothing"
	[ "$used" -le $((used0 + 64)) ] || fail "$mod: $used KiB used after rm -r and sync (empty: $used0)"
	umount $M
	fsck_clean /dev/vda
done
use_module ours
echo "rm -r quiet ok"
