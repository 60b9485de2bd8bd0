#!/bin/sh
# desc: fsync without a checkpoint and roll-forward recovery: after a sync, new files in an old directory, appends, overwrites, a 2 MiB file (direct nodes) and a file fsynced twice are fsynced; a copy of the device taken while mounted (the crash image) mounted read-only says recovery is pending and shows the checkpoint without writing; mounted read-write it has every fsynced content (and keeps it across a remount, fsck clean); with disable_roll_forward it shows the checkpoint and the records are gone for good; the stock module mounts the same crash image too
# disks: 256M 256M 256M 256M
# timeout: 400
#
# vda: the live filesystem; vdb, vdc, vdd: copies of it taken after the
# fsyncs (recovered by ours, dropped with disable_roll_forward, mounted by
# the stock module).
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
sum() { md5sum < "$1" | cut -d' ' -f1; }
cps() { dmesg | grep -c 'f2fs (vda).*checkpoint\|cp_end' || true; }
# expect DIR NAME MD5: DIR/NAME has content MD5
expect() {
	[ -f "$1/$2" ] || fail "$1/$2 is missing"
	[ "$(sum "$1/$2")" = "$3" ] || fail "$1/$2 has the wrong content ($(wc -c < "$1/$2") bytes)"
}
# check_all DIR: every fsynced file has its fsynced content
check_all() {
	expect "$1" old "$old_fs"
	expect "$1" old2 "$old2_fs"
	expect "$1" d/new1 "$new1"
	expect "$1" d/new2 "$new2_fs"
	expect "$1" d/big "$big"
	expect "$1" d/keep "$keep"
	expect "$1" nd/f "$ndf"
	[ "$(stat -c %s "$1/d/big")" = 2097152 ] || fail "$1/d/big size"
}
# check_cp DIR: the state of the checkpoint (no record replayed)
check_cp() {
	expect "$1" old "$old0"
	expect "$1" old2 "$old20"
	expect "$1" d/keep "$keep"
	expect "$1" nd/f "$ndf"
	for f in d/new1 d/new2 d/big; do
		[ ! -e "$1/$f" ] || fail "$1/$f exists, but only its fsync record has it"
	done
}

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T
use_module ours
echo 1 > $T/events/f2fs/f2fs_fsync/enable
echo 1 > $T/events/f2fs/f2fs_recovery/enable
head -c 102400 /dev/urandom > /tmp/old
head -c 307200 /dev/urandom > /tmp/old2
head -c 20480 /dev/urandom > /tmp/app
head -c 20480 /dev/urandom > /tmp/ovw
head -c 51200 /dev/urandom > /tmp/new1
head -c 10000 /dev/urandom > /tmp/new2a
head -c 12000 /dev/urandom > /tmp/new2b
head -c 2097152 /dev/urandom > /tmp/big
head -c 5000 /dev/urandom > /tmp/keep
head -c 7000 /dev/urandom > /tmp/ndf

mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $MNT || fail "mount failed"
mkdir $MNT/d
cp /tmp/old /tmp/old2 $MNT/
cp /tmp/keep $MNT/d/keep
old0=$(sum /tmp/old)
old20=$(sum /tmp/old2)
keep=$(sum /tmp/keep)
sync
# A file in a directory the checkpoint does not have: fsync checkpoints.
mkdir $MNT/nd
dd if=/tmp/ndf of=$MNT/nd/f bs=4096 conv=fsync 2>/dev/null || fail "fsync of nd/f"
ndf=$(sum /tmp/ndf)
cp0=$(stat_of vda cp_calls)
[ "$(stat_of vda fsync_cp_new_dir)" = 1 ] || fail "fsync of a file in a new directory did not checkpoint"
grep -q 'f2fs_fsync:.*kind = CP_NEW_DIR' $T/trace || fail "no f2fs_fsync event with kind CP_NEW_DIR"
echo > $T/trace

# ---- fsync records only ----------------------------------------------------
dd if=/tmp/new1 of=$MNT/d/new1 bs=4096 conv=fsync 2>/dev/null || fail "fsync new1"
new1=$(sum /tmp/new1)
dd if=/tmp/app of=$MNT/old bs=4096 seek=25 conv=notrunc,fsync 2>/dev/null || fail "fsync append"
cat /tmp/old /tmp/app > /tmp/old.fs
old_fs=$(sum /tmp/old.fs)
dd if=/tmp/ovw of=$MNT/old2 bs=4096 seek=10 conv=notrunc,fsync 2>/dev/null || fail "fsync overwrite"
{ head -c 40960 /tmp/old2; cat /tmp/ovw; tail -c +61441 /tmp/old2; } > /tmp/old2.fs
old2_fs=$(sum /tmp/old2.fs)
[ "$(sum $MNT/old2)" = "$old2_fs" ] || fail "live old2 differs from the expected overwrite"
dd if=/tmp/new2a of=$MNT/d/new2 bs=4096 conv=fsync 2>/dev/null || fail "fsync new2 (1)"
dd if=/tmp/new2b of=$MNT/d/new2 bs=10000 seek=1 conv=notrunc,fsync 2>/dev/null || fail "fsync new2 (2)"
cat /tmp/new2a /tmp/new2b > /tmp/new2.fs
new2_fs=$(sum /tmp/new2.fs)
dd if=/tmp/big of=$MNT/d/big bs=65536 conv=fsync 2>/dev/null || fail "fsync big"
big=$(sum /tmp/big)
cp1=$(stat_of vda cp_calls)
note "checkpoints during the six fsyncs: $((cp1 - cp0)), records: $(stat_of vda fsync_record)"
[ "$cp1" = "$cp0" ] || fail "fsync wrote $((cp1 - cp0)) checkpoints; it should write records only"
[ "$(stat_of vda fsync_record)" = 6 ] || fail "fsync_record is $(stat_of vda fsync_record), not 6"
n=$(grep -c 'f2fs_fsync:.*kind = RECORD, datasync = 0, ret = 0' $T/trace || true)
[ "$n" = 6 ] || fail "$n f2fs_fsync RECORD events, not 6"
check_all $MNT

dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null || fail "copying the mounted device failed"
dd if=/dev/vdb of=/dev/vdc bs=1M 2>/dev/null || fail "copy 2"
dd if=/dev/vdb of=/dev/vdd bs=1M 2>/dev/null || fail "copy 3"
umount $MNT
fsck_clean /dev/vda

# ---- read-only: pending, shows the checkpoint, writes nothing ---------------
mkdir -p /mnt/b /mnt/c /mnt/d
m0=$(sumdev /dev/vdb)
mount -t f2fs -o ro /dev/vdb /mnt/b || fail "read-only mount of the crash image"
dmesg | grep 'f2fs (vdb)' | tail -2 | sed 's/^/  /'
dmesg | grep -q 'f2fs (vdb).*roll-forward recovery is pending (5 fsynced files)' ||
	fail "the read-only mount does not say that 5 fsynced files await recovery"
check_cp /mnt/b
umount /mnt/b
[ "$(sumdev /dev/vdb)" = "$m0" ] || fail "the read-only mount wrote to the device"

# ---- read-write: rolled forward ------------------------------------------------
mount -t f2fs /dev/vdb /mnt/b || fail "our module cannot mount the crash image"
dmesg | grep 'f2fs (vdb).*roll-forward' | tail -1 | sed 's/^/  /'
dmesg | grep -q 'f2fs (vdb).*roll-forward recovery: 5 fsynced files' ||
	fail "recovery did not report 5 files"
check_all /mnt/b
[ "$(stat_of vdb rf_files)" = 5 ] || fail "rf_files is $(stat_of vdb rf_files), not 5"
grep -q 'f2fs_recovery:.*files = 5, .*dropped = 0, ret = 0' $T/trace ||
	fail "no f2fs_recovery event for 5 files"
umount /mnt/b
fsck_clean /dev/vdb
mount -t f2fs /dev/vdb /mnt/b || fail "second mount of the recovered image"
check_all /mnt/b
# The recovered filesystem keeps working.
cp /tmp/big /mnt/b/d/big2
rm /mnt/b/d/new1
sync
umount /mnt/b
fsck_clean /dev/vdb
mount -t f2fs /dev/vdb /mnt/b || fail "third mount"
expect /mnt/b d/big2 "$big"
[ ! -e /mnt/b/d/new1 ] || fail "d/new1 came back"
umount /mnt/b

# ---- disable_roll_forward ---------------------------------------------------------
mount -t f2fs -o disable_roll_forward /dev/vdc /mnt/c || fail "mount with disable_roll_forward"
grep -q 'vdc.*disable_roll_forward' /proc/mounts || fail "disable_roll_forward not in /proc/mounts"
check_cp /mnt/c
umount /mnt/c
fsck_clean /dev/vdc
mount -t f2fs /dev/vdc /mnt/c || fail "mount after disable_roll_forward"
check_cp /mnt/c
umount /mnt/c

# Our images are canonical: the live filesystem, the crash image our module
# recovered, and the one whose records it dropped.  (Checked last: the
# module switch drops the trace events enabled above.)  vdd is left to the
# stock module: it recovers our records itself, which makes it the stock
# module's image.
stock_unchanged /dev/vda live
stock_unchanged /dev/vdb recovered
stock_unchanged /dev/vdc records-dropped

# ---- the stock module on the same crash image ------------------------------------
use_module stock
mount -t f2fs /dev/vdd /mnt/d || fail "the stock module cannot mount the crash image"
if (check_all /mnt/d) > /tmp/stock.out 2>&1; then
	note "the stock module rolls our fsync records forward too"
else
	note "the stock module does not recover our records: $(cat /tmp/stock.out)"
fi
umount /mnt/d
fsck_clean /dev/vdd
use_module ours
echo "fsync recovery ok"
