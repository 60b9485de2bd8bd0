#!/bin/sh
# desc: aging: fill to 90% of capacity with mixed files, then rounds of random overwrites, deletes and new files; no ENOSPC below capacity, every file verifies after each round, after remount and with fsck clean; foreground GC ran and moved blocks
# disks: 512M
# prep: 60-aging.prep
# timeout: 1500
set -eu
. /tests/lib.sh

# shellcheck disable=SC1091
. /work/params
note "params: $(cat /work/params) (replay: SEED=$SEED make check T=60)"
F=/mnt/f2fs
M=/tmp/ager.model
use_module ours
if [ "$FS_SECTORS" = 0 ]; then
	mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
else
	mkfs.f2fs -q -f /dev/vda "$FS_SECTORS" || fail "mkfs failed"
fi
mount -t f2fs /dev/vda $F || fail "mount failed"

grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
stat_of() {  # stat_of KEY: a counter of this mount's debugfs stats
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/f2fs/vda/stats
}
[ -r /sys/kernel/debug/f2fs/vda/stats ] || fail "no debugfs stats for vda"
# Counters are per mount: sum them over the rounds.
fg=0 moved=0 freed=0 ssr=0

ager -d $F -m $M -s "$SEED" fill "$FILL" || fail "fill failed (exit $?)"
df -k $F
ager -d $F -m $M verify || fail "verify after fill"

r=1
while [ $r -le "$ROUNDS" ]; do
	rc=0
	ager -d $F -m $M churn "$ROUND_MIB" "$FILL" || rc=$?
	[ $rc = 3 ] && fail "round $r: ENOSPC while df reports space available"
	[ $rc = 4 ] && fail "round $r: the filesystem filled up at $FILL% of capacity"
	[ $rc = 0 ] || fail "round $r: churn failed (exit $rc)"
	ager -d $F -m $M verify || fail "round $r: verify before remount"
	sync
	note "round $r: $(df -k $F | awk 'NR == 2 { print "used " $3 " KiB, avail " $4 " KiB" }'); gc_calls_fg $(stat_of gc_calls_fg) gc_victims_greedy $(stat_of gc_victims_greedy) gc_data_moved $(stat_of gc_data_moved) gc_node_moved $(stat_of gc_node_moved) gc_secs_freed $(stat_of gc_secs_freed) ssr_blocks_warm_data $(stat_of ssr_blocks_warm_data)"
	cp /sys/kernel/debug/f2fs/vda/stats /host/stats-round$r.txt
	fg=$((fg + $(stat_of gc_calls_fg)))
	moved=$((moved + $(stat_of gc_data_moved) + $(stat_of gc_node_moved)))
	freed=$((freed + $(stat_of gc_secs_freed)))
	ssr=$((ssr + $(stat_of ssr_blocks_warm_data) + $(stat_of ssr_blocks_cold_data)))
	umount $F
	fsck_clean /dev/vda
	mount -t f2fs /dev/vda $F || fail "round $r: remount failed"
	ager -d $F -m $M verify || fail "round $r: verify after remount"
	r=$((r + 1))
done
umount $F
fsck_clean /dev/vda
note "over all rounds: $fg foreground GC passes, $moved blocks moved, $freed sections freed, $ssr data blocks written by SSR"
[ "$fg" -gt 0 ] || fail "foreground GC never ran"
[ "$moved" -gt 0 ] || fail "GC moved no block"
[ "$freed" -gt 0 ] || fail "GC freed no section"
[ "$ssr" -gt 0 ] || fail "no block was written by SSR"
