#!/bin/sh
# desc: background GC: off with background_gc_off; on by default it cleans cost-benefit victims when the device is idle, never picks a section twice before a checkpoint frees it, sections come back free after a checkpoint, content verifies; its thread stops on remount ro and umount
# disks: 256M
# timeout: 400
set -eu
. /tests/lib.sh

F=/mnt/f2fs
M=/tmp/ager.model
T=/sys/kernel/tracing
P=/sys/module/f2fs/parameters
S=/sys/kernel/debug/f2fs/vda/stats
SEED=${SEED:-61}
note "seed $SEED"
use_module ours
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
grep -q " $T " /proc/mounts || mount -t tracefs none $T
# Short intervals so that the test does not wait for minutes.
echo 200 > $P/bg_gc_min_ms
echo 1000 > $P/bg_gc_max_ms
echo 500 > $P/bg_gc_nogc_ms
echo 300 > $P/bg_gc_idle_ms
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $S; }
gc_threads() { ps | grep -c '[[]f2fs_gc-[0-9]' || true; }

mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $F || fail "mount failed"
grep -q "background_gc=off" /proc/mounts || fail "background_gc=off not shown in /proc/mounts"
[ "$(gc_threads)" = 0 ] || fail "a GC thread runs with background_gc_off"
ager -d $F -m $M -s "$SEED" fill 85 >/dev/null || fail "fill failed"
ager -d $F -m $M churn 96 85 || fail "churn failed"
sleep 3
[ "$(stat_of gc_calls_bg)" = 0 ] || fail "background GC ran with background_gc_off"
umount $F
fsck_clean /dev/vda

mount -t f2fs /dev/vda $F || fail "mount failed"
[ "$(gc_threads)" = 1 ] || fail "no GC thread after a default mount"
free0=$(stat_of free_segs)
echo > $T/trace
echo 1 > $T/events/f2fs/f2fs_gc_victim/enable
echo 1 > $T/events/f2fs/f2fs_gc_end/enable
echo 1 > $T/events/f2fs/f2fs_cp_end/enable
echo 1 > $T/tracing_on
i=0
while [ "$(stat_of gc_secs_freed)" -lt 3 ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
echo 0 > $T/tracing_on
cat $T/trace > /host/trace.txt
note "after ${i}s idle: gc_calls_bg $(stat_of gc_calls_bg) victims_cost_benefit $(stat_of gc_victims_cost_benefit) data_moved $(stat_of gc_data_moved) node_moved $(stat_of gc_node_moved) secs_freed $(stat_of gc_secs_freed) free_segs $free0 -> $(stat_of free_segs)"
[ "$(stat_of gc_calls_bg)" -gt 0 ] || fail "background GC never ran"
[ "$(stat_of gc_calls_fg)" = 0 ] || fail "foreground GC ran on an idle filesystem"
[ "$(stat_of gc_victims_cost_benefit)" -gt 0 ] || fail "background GC chose no cost-benefit victim"
[ "$(stat_of gc_victims_greedy)" = 0 ] || fail "background GC used the greedy policy"
[ $(($(stat_of gc_data_moved) + $(stat_of gc_node_moved))) -gt 0 ] || fail "background GC moved nothing"
[ "$(stat_of gc_secs_freed)" -gt 0 ] || fail "no victim section was freed by a checkpoint"
sync
[ "$(stat_of free_segs)" -gt "$free0" ] || fail "free segments did not grow ($free0 -> $(stat_of free_segs))"
# Every victim event is a background cost-benefit one with valid blocks
# below a segment's 512, and no section is chosen twice unless a
# checkpoint came in between.
grep -q 'f2fs_gc_victim:' /host/trace.txt || fail "no f2fs_gc_victim event"
awk '
	/f2fs_cp_end:/ { delete seen; next }
	/f2fs_gc_victim:/ {
		if ($0 !~ /gc_type = BG/ || $0 !~ /policy = COST_BENEFIT/) { print "unexpected victim: " $0; bad = 1 }
		match($0, /secno = [0-9]+/); s = substr($0, RSTART, RLENGTH)
		if (s in seen) { print "chosen twice: " $0; bad = 1 }
		seen[s] = 1
		match($0, /valid_blocks = [0-9]+/); v = substr($0, RSTART + 15, RLENGTH - 15) + 0
		if (v < 1 || v >= 512) { print "victim with " v " valid blocks of 512: " $0; bad = 1 }
	}
	END { exit bad }' /host/trace.txt || fail "bad background GC victims (see trace.txt)"
ager -d $F -m $M verify || fail "verify after background GC"

mount -o remount,ro $F || fail "remount ro failed"
[ "$(gc_threads)" = 0 ] || fail "GC thread still runs on a read-only mount"
mount -o remount,rw $F || fail "remount rw failed"
[ "$(gc_threads)" = 1 ] || fail "no GC thread after remount rw"
umount $F
[ "$(gc_threads)" = 0 ] || fail "GC thread survives umount"
fsck_clean /dev/vda
mount -t f2fs /dev/vda $F || fail "mount failed"
ager -d $F -m $M verify || fail "verify after remount"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda
