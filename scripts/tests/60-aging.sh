#!/bin/sh
# desc: aging: fill to 90% (95% in the short form) of capacity with mixed files, then rounds of random overwrites, truncates, deletes and new files by two concurrent writers; no ENOSPC below capacity, every file verifies after each round, after remount and with fsck clean; foreground GC ran in every configuration, moved blocks and freed sections, SSR wrote blocks; 1- and 2-segment sections
# disks: 512M
# prep: 60-aging.prep
# timeout: 1500
set -eu
. /tests/lib.sh

# shellcheck disable=SC1091
. /work/params
note "params: $(cat /work/params) (replay: SEED=$SEED make check T=60)"
F=/mnt/f2fs
S=/sys/kernel/debug/f2fs/vda/stats
use_module ours
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $S; }

# Two writers, each with its own directory, model and seed, share the
# filesystem: GC moves one writer's blocks while the other writes.
ager2() {  # ager2 CMD ARGS...: run both writers; results in /tmp/[ab].{out,rc}
	(_r=0; ager -d $F/a -m /tmp/a.model -s "$SEED" -c "$CAP" "$@" > /tmp/a.out 2>&1 || _r=$?; echo $_r > /tmp/a.rc) &
	(_r=0; ager -d $F/b -m /tmp/b.model -s "$((SEED + 1))" -c "$CAP" "$@" > /tmp/b.out 2>&1 || _r=$?; echo $_r > /tmp/b.rc) &
	wait
	cat /tmp/a.out /tmp/b.out
}
check_ager() {  # check_ager WHAT: both writers must have succeeded
	for _w in a b; do
		case $(cat /tmp/$_w.rc) in
		0) ;;
		3) fail "$1: writer $_w got ENOSPC while df reports space available" ;;
		4) fail "$1: the filesystem filled up at $FILL% of capacity" ;;
		*) fail "$1: writer $_w failed (exit $(cat /tmp/$_w.rc))" ;;
		esac
	done
}

# Each writer holds FILL/2 % of the capacity df shows on the empty
# filesystem.
PCT=$((FILL / 2))
fg=0 moved=0 freed=0 ssr=0
for cfg in $CONFIGS; do
	sectors=${cfg%:*} segs=${cfg#*:}
	rm -f /tmp/a.model /tmp/b.model
	if [ "$sectors" = 0 ]; then
		mkfs.f2fs -q -f -s "$segs" /dev/vda || fail "mkfs failed"
	else
		mkfs.f2fs -q -f -s "$segs" /dev/vda "$sectors" || fail "mkfs failed"
	fi
	note "filesystem of $([ "$sectors" = 0 ] && echo 512 || echo $((sectors / 2048))) MiB, $segs segment(s) per section"
	mount -t f2fs /dev/vda $F || fail "mount failed"
	mkdir $F/a $F/b
	CAP=$(($(df -k $F | awk 'NR == 2 { print $4 }') / 4))
	ager2 fill $PCT
	check_ager fill
	df -k $F
	ager2 verify
	check_ager "verify after fill"

	# Foreground GC sets in at a random round: if it has not yet, up to
	# ROUNDS more rounds run.
	r=1 cfg_fg=0
	while [ $r -le "$ROUNDS" ] || { [ $cfg_fg = 0 ] && [ $r -le $((2 * ROUNDS)) ]; }; do
		ager2 churn $((ROUND_MIB / 2)) $PCT
		check_ager "round $r"
		ager2 verify
		check_ager "round $r: verify before remount"
		sync
		note "round $r: $(df -k $F | awk 'NR == 2 { print "used " $3 " KiB, avail " $4 " KiB" }'); gc_calls_fg $(stat_of gc_calls_fg) gc_victims_greedy $(stat_of gc_victims_greedy) gc_data_moved $(stat_of gc_data_moved) gc_node_moved $(stat_of gc_node_moved) gc_secs_freed $(stat_of gc_secs_freed) ssr_blocks_warm_data $(stat_of ssr_blocks_warm_data)"
		cp $S /host/stats-s$segs-round$r.txt
		fg=$((fg + $(stat_of gc_calls_fg)))
		cfg_fg=$((cfg_fg + $(stat_of gc_calls_fg)))
		moved=$((moved + $(stat_of gc_data_moved) + $(stat_of gc_node_moved)))
		freed=$((freed + $(stat_of gc_secs_freed)))
		ssr=$((ssr + $(stat_of ssr_blocks_warm_data) + $(stat_of ssr_blocks_cold_data)))
		umount $F
		fsck_clean /dev/vda
		mount -t f2fs /dev/vda $F || fail "round $r: remount failed"
		ager2 verify
		check_ager "round $r: verify after remount"
		r=$((r + 1))
	done
	[ $cfg_fg -gt 0 ] || fail "foreground GC never ran with $segs segment(s) per section"
	umount $F
	fsck_clean /dev/vda
done
note "over all rounds: $fg foreground GC passes, $moved blocks moved, $freed sections freed, $ssr data blocks written by SSR"
[ "$fg" -gt 0 ] || fail "foreground GC never ran"
[ "$moved" -gt 0 ] || fail "GC moved no block"
[ "$freed" -gt 0 ] || fail "GC freed no section"
[ "$ssr" -gt 0 ] || fail "no block was written by SSR"
