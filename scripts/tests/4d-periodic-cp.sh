#!/bin/sh
# desc: periodic checkpoint: files written and never synced are durable after cp_interval; with cp_interval=3 and writeback after 1 s, a crash image (the device copied while mounted) taken 10 s after the writes holds every file with its content (read by our module and by the stock one, fsck.f2fs clean); the control with cp_interval=0 gives a crash image without them; an idle mount writes nothing over 3 intervals; the periodic checkpoints show in debugfs
# disks: 256M 256M
# timeout: 400
#
# vda: the live filesystem; vdb: the crash image.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
P=/sys/module/f2fs/parameters/cp_interval
writes() { awk '{ print $5 }' /sys/block/vda/stat; }
cps() { awk '$1 == "cp_periodic" { print $2 }' /sys/kernel/debug/f2fs/vda/stats; }

# A reference tree in tmpfs: 40 small files, 3 of 1-3 MiB, a directory.
rm -rf /tmp/ref && mkdir -p /tmp/ref/d
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 997 + 1)) /dev/urandom > /tmp/ref/f$i
	i=$((i + 1))
done
for n in 1 2 3; do head -c $((n * 1048576 + 4097)) /dev/urandom > /tmp/ref/d/big$n; done
(cd /tmp/ref && find . -type f | sort | xargs md5sum) > /tmp/ref.md5

# Writeback within a second or two, as on a busy system after 30 s.
echo 100 > /proc/sys/vm/dirty_expire_centisecs
echo 100 > /proc/sys/vm/dirty_writeback_centisecs

# run INTERVAL: write the tree without sync, wait, take the crash image.
run() {
	use_module ours
	echo "$1" > $P
	mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs failed"
	mount -t f2fs /dev/vda $MNT || fail "mount failed"
	cp -a /tmp/ref/. $MNT/
	sleep 10
	dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null ||
		fail "copying the mounted device failed"
	ncp=$(cps)
}

# ---- cp_interval=3 ----------------------------------------------------------
run 3
note "cp_interval=3: $ncp periodic checkpoints in 10 s"
[ "$ncp" -ge 1 ] || fail "no periodic checkpoint in 10 s with cp_interval=3"
# Idle: three intervals, nothing to write.
sleep 2
w0=$(writes)
c0=$(cps)
sleep 10
w1=$(writes)
note "idle mount over 10 s: $((w1 - w0)) write requests, $(($(cps) - c0)) periodic checkpoints"
[ "$w1" = "$w0" ] || fail "an idle mount wrote $((w1 - w0)) requests"
umount $MNT
fsck_clean /dev/vda

fsck_clean /dev/vdb
mount -t f2fs /dev/vdb $MNT || fail "our module cannot mount the crash image"
(cd $MNT && find . -type f | sort | xargs md5sum) > /tmp/got.md5
umount $MNT
cmp -s /tmp/ref.md5 /tmp/got.md5 || {
	diff /tmp/ref.md5 /tmp/got.md5 | head -20
	fail "the crash image does not hold the tree written 10 s before"
}
note "crash image (our module): all $(wc -l < /tmp/got.md5) files, content equal"
fsck_clean /dev/vdb
use_module stock
mount -t f2fs /dev/vdb $MNT || fail "the stock module cannot mount the crash image"
(cd $MNT && find . -type f | sort | xargs md5sum) > /tmp/got.md5
umount $MNT
cmp -s /tmp/ref.md5 /tmp/got.md5 || fail "the stock module reads another tree from the crash image"
note "crash image (stock module): all files, content equal"
fsck_clean /dev/vdb

# ---- control: cp_interval=0 -------------------------------------------------
run 0
note "cp_interval=0: $ncp periodic checkpoints"
[ "$ncp" = 0 ] || fail "cp_interval=0 still wrote $ncp periodic checkpoints"
umount $MNT
fsck_clean /dev/vda
fsck_clean /dev/vdb
mount -t f2fs /dev/vdb $MNT || fail "our module cannot mount the control crash image"
n=$(find $MNT -type f | wc -l)
umount $MNT
note "control crash image: $n files (no checkpoint since mkfs)"
[ "$n" = 0 ] || fail "the control crash image holds $n files: the test cannot tell"
echo 60 > $P
echo "PASS: periodic checkpoint makes unsynced files durable within cp_interval"
