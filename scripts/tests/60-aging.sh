#!/bin/sh
# desc: aging: fill to 90% of capacity with mixed files, then rounds of random overwrites, truncates, deletes and new files by four concurrent writers while a reader re-verifies a fixed set; no ENOSPC below capacity, every file verifies after each round, after remount and with fsck clean; foreground GC ran in every configuration, moved blocks and freed sections, SSR wrote blocks, and each segment SSR recycled fired f2fs_ssr_victim with the valid blocks counted; 1- and 2-segment sections
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
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T
use_module ours
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $S; }

# Four writers, each with its own directory, model and seed, share the
# filesystem with a reader: GC moves one writer's blocks while the others
# write, and the reader re-verifies a fixed set of files meanwhile.
W="a b c d"
NW=4
agerN() {  # agerN CMD ARGS...: run every writer; results in /tmp/W.{out,rc}
	_s=$SEED _pids=
	for _w in $W; do
		(_r=0; ager -d $F/$_w -m /tmp/$_w.model -s "$_s" -c "$CAP" "$@" > /tmp/$_w.out 2>&1 || _r=$?; echo $_r > /tmp/$_w.rc) &
		_pids="$_pids $!"
		_s=$((_s + 1))
	done
	# Not a bare wait: the reader runs in the background too.
	for _p in $_pids; do wait "$_p" || true; done
	for _w in $W; do cat /tmp/$_w.out; done
}
check_ager() {  # check_ager WHAT: every writer must have succeeded
	for _w in $W; do
		case $(cat /tmp/$_w.rc) in
		0) ;;
		3) fail "$1: writer $_w got ENOSPC while df reports space available" ;;
		4) fail "$1: the filesystem filled up at $FILL% of capacity" ;;
		*) fail "$1: writer $_w failed (exit $(cat /tmp/$_w.rc))" ;;
		esac
	done
}
reader() {  # reader: verify the reader's files until /tmp/stop exists
	_n=0
	while [ ! -e /tmp/stop ]; do
		ager -d $F/r -m /tmp/r.model verify > /tmp/r.out 2>&1 || { echo fail > /tmp/r.rc; return; }
		_n=$((_n + 1))
	done
	echo "ok $_n" > /tmp/r.rc
}

# The reader's files take 5% of the capacity df shows on the empty
# filesystem, and each writer an equal share of the rest of FILL%.
PCT=$(((FILL - 5) / NW))
fg=0 moved=0 freed=0 ssrall=0
for cfg in $CONFIGS; do
	sectors=${cfg%%:*} segs=${cfg#*:} ssr=${segs#*:} segs=${segs%:*}
	[ "$ssr" = 1 ] && echo Y > /sys/module/f2fs/parameters/ssr || echo N > /sys/module/f2fs/parameters/ssr
	rm -f /tmp/*.model
	if [ "$sectors" = 0 ]; then
		mkfs.f2fs -q -f -s "$segs" /dev/vda || fail "mkfs failed"
	else
		mkfs.f2fs -q -f -s "$segs" /dev/vda "$sectors" || fail "mkfs failed"
	fi
	note "filesystem of $([ "$sectors" = 0 ] && echo 512 || echo $((sectors / 2048))) MiB, $segs segment(s) per section, SSR $([ "$ssr" = 1 ] && echo on || echo off)"
	mount -t f2fs /dev/vda $F || fail "mount failed"
	# SSR victims are traced from the mount (SSR may start during the
	# fill) to the end of the first round, against the mount's counters.
	if [ "$ssr" = 1 ]; then
		echo 0 > $T/tracing_on
		: > $T/trace
		echo 16384 > $T/buffer_size_kb
		echo 1 > $T/events/f2fs/f2fs_ssr_victim/enable
		echo 1 > $T/tracing_on
	fi
	for w in $W r; do mkdir $F/$w; done
	CAP=$(($(df -k $F | awk 'NR == 2 { print $4 }') / 4))
	ager -d $F/r -m /tmp/r.model -s $((SEED + 99)) -c "$CAP" fill 5 || fail "fill of the reader's files"
	agerN fill $PCT
	check_ager fill
	df -k $F
	agerN verify
	check_ager "verify after fill"

	# Foreground GC sets in at a random round: with SSR off, if it has not
	# run yet, up to ROUNDS more rounds run, at 4% more utilisation.
	r=1 cfg_fg=0 cfg_ssr=0
	while [ $r -le "$ROUNDS" ] || { [ $cfg_fg = 0 ] && [ "$ssr$fg" = 00 ] && [ $r -le $((2 * ROUNDS)) ]; }; do
		rm -f /tmp/stop /tmp/r.rc
		reader &
		# Extra rounds press harder: each writer 1% more.
		lim=$PCT
		[ $r -le "$ROUNDS" ] || lim=$((PCT + 1))
		agerN churn $((ROUND_MIB / NW)) $lim
		touch /tmp/stop
		wait
		check_ager "round $r"
		case $(cat /tmp/r.rc) in
		ok*) note "round $r: the reader verified its files $(cut -d' ' -f2 /tmp/r.rc) times during the churn" ;;
		*) cat /tmp/r.out; fail "round $r: the reader saw wrong data" ;;
		esac
		agerN verify
		check_ager "round $r: verify before remount"
		sync
		note "round $r: $(df -k $F | awk 'NR == 2 { print "used " $3 " KiB, avail " $4 " KiB" }'); gc_calls_fg $(stat_of gc_calls_fg) gc_victims_greedy $(stat_of gc_victims_greedy) gc_data_moved $(stat_of gc_data_moved) gc_node_moved $(stat_of gc_node_moved) gc_secs_freed $(stat_of gc_secs_freed) ssr_blocks_warm_data $(stat_of ssr_blocks_warm_data)"
		cp $S /host/stats-s$segs-round$r.txt
		if [ "$ssr$r" = 11 ]; then
			echo 0 > $T/tracing_on
			echo 0 > $T/events/f2fs/f2fs_ssr_victim/enable
			for c in $T/per_cpu/cpu*/stats; do
				grep -q '^overrun: 0$' "$c" || fail "trace buffer overran ($c)"
			done
			ev=$(grep -c ' f2fs_ssr_victim: ' $T/trace || true)
			evalid=$(grep ' f2fs_ssr_victim: ' $T/trace | sed 's/.*valid_blocks = \([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
			opened=$(awk '$1 ~ /^segs_opened_.*_ssr$/ { s += $2 } END { print s + 0 }' $S)
			[ "$ev" -gt 0 ] || fail "round $r: no f2fs_ssr_victim event with SSR on"
			[ "$ev" = "$opened" ] || fail "round $r: $ev f2fs_ssr_victim events, $opened SSR segments opened"
			[ "$evalid" = "$(stat_of ssr_victim_valid)" ] || fail "round $r: SSR victims' valid blocks $evalid in the events, $(stat_of ssr_victim_valid) counted"
			note "round $r: $ev SSR victims traced (= segments opened by SSR), $((evalid / ev)) valid blocks on average"
		fi
		fg=$((fg + $(stat_of gc_calls_fg)))
		cfg_fg=$((cfg_fg + $(stat_of gc_calls_fg)))
		cfg_ssr=$((cfg_ssr + $(stat_of ssr_blocks_warm_data) + $(stat_of ssr_blocks_cold_data)))
		moved=$((moved + $(stat_of gc_data_moved) + $(stat_of gc_node_moved)))
		freed=$((freed + $(stat_of gc_secs_freed)))
		ssrall=$((ssrall + $(stat_of ssr_blocks_warm_data) + $(stat_of ssr_blocks_cold_data)))
		umount $F
		fsck_clean /dev/vda
		mount -t f2fs /dev/vda $F || fail "round $r: remount failed"
		agerN verify
		check_ager "round $r: verify after remount"
		ager -d $F/r -m /tmp/r.model verify || fail "round $r: reader's files after remount"
		r=$((r + 1))
	done
	# With SSR on, SSR must have written; with it off (SSR then only runs
	# inside the reserve, as a last resort), foreground GC must have run.
	if [ "$ssr" = 1 ]; then
		[ $cfg_ssr -gt 0 ] || fail "no block was written by SSR"
	else
		note "SSR off: $cfg_ssr data blocks written by SSR inside the reserve"
		[ $cfg_fg -gt 0 ] || fail "foreground GC never ran with SSR off"
	fi
	umount $F
	fsck_clean /dev/vda
	stock_unchanged /dev/vda "sections-of-$segs"
done
note "over all rounds: $fg foreground GC passes, $moved blocks moved, $freed sections freed, $ssrall data blocks written by SSR"
[ "$fg" -gt 0 ] || fail "foreground GC never ran"
[ "$moved" -gt 0 ] || fail "GC moved no block"
[ "$freed" -gt 0 ] || fail "GC freed no section"
[ "$ssrall" -gt 0 ] || fail "no block was written by SSR"
