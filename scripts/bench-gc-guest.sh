#!/bin/sh
# bench-gc-guest.sh - the guest side of scripts/bench-gc.sh: the same aging
# workload on three fresh disks, one per cleaner setup:
#   vda  ours, -o background_gc_off        (foreground greedy GC only)
#   vdb  ours, default                     (plus background cost-benefit GC)
#   vdc  the stock module, default         (its own GC, for comparison)
#   vdd  ours, background_gc_off, SSR off  (pure LFS: greedy GC does it all)
#   vde  ours, default, SSR off            (pure LFS with background GC)
# Each: fill to FILL% of capacity, then ROUNDS x ROUND_MIB of churn by ager,
# with IDLE seconds of quiet between rounds (when background GC works).
# Results: "variant user_kib moved_blocks gc_fg gc_bg dev_write_kib" lines in
# /host/results.raw.
set -u
. /work/params
F=/mnt/f2fs
. /lib/harness.sh
mount -t debugfs none /sys/kernel/debug 2>/dev/null
: > /host/results.raw

dev_write_kib() { awk '{ print $7 / 2 }' /sys/block/$1/stat; }

# moved FG BG: blocks GC moved and passes, from our stats or stock's status
ours_gc() {
	awk '$1 == "gc_data_moved" || $1 == "gc_node_moved" { m += $2 }
	     $1 == "gc_calls_fg" { fg = $2 } $1 == "gc_calls_bg" { bg = $2 }
	     END { print m + 0, fg + 0, bg + 0 }' /sys/kernel/debug/f2fs/$1/stats
}
stock_gc() {
	awk '/Try to move/ { m = $4 } /^GC calls:/ { fg = $3; bg = $5; sub(/\)/, "", bg) }
	     END { print m + 0, fg - bg, bg + 0 }' /sys/kernel/debug/f2fs/status
}

run() {  # run NAME DEV MODULE OPTS [SSR Y|N]
	name=$1 dev=$2
	use_module "$3" || return 1
	mkfs.f2fs -q -f /dev/$dev || return 1
	mount -t f2fs ${4:+-o "$4"} /dev/$dev $F || return 1
	if [ "$3" = ours ]; then
		echo "${5:-Y}" > /sys/module/f2fs/parameters/ssr
		echo 500 > /sys/module/f2fs/parameters/bg_gc_min_ms
		echo 2000 > /sys/module/f2fs/parameters/bg_gc_max_ms
		echo 1000 > /sys/module/f2fs/parameters/bg_gc_nogc_ms
		echo 300 > /sys/module/f2fs/parameters/bg_gc_idle_ms
	else
		for k in gc_min_sleep_time:500 gc_max_sleep_time:2000 gc_no_gc_sleep_time:1000; do
			echo "${k#*:}" > /sys/fs/f2fs/$dev/${k%:*} 2>/dev/null
		done
	fi
	cap=$(($(df -k $F | awk 'NR == 2 { print $4 }') / 4))
	ager -d $F -m /tmp/$name.model -s "$SEED" -c $cap fill "$FILL" > /dev/null || return 1
	sync
	w0=$(dev_write_kib $dev)
	user=0 r=1
	while [ $r -le "$ROUNDS" ]; do
		out=$(ager -d $F -m /tmp/$name.model -c $cap churn "$ROUND_MIB" "$FILL") || { echo "$out"; return 1; }
		user=$((user + $(echo "$out" | awk '{ for (i = 1; i < NF; i++) if ($i == "written_kib") print $(i + 1) }')))
		sleep "$IDLE"
		r=$((r + 1))
	done
	sync
	w1=$(dev_write_kib $dev)
	if [ "$3" = ours ]; then gc=$(ours_gc $dev); else gc=$(stock_gc); fi
	ager -d $F -m /tmp/$name.model verify > /dev/null || { echo "$name: verify failed"; return 1; }
	echo "$name $user $gc $((w1 - w0))" | tee -a /host/results.raw
	umount $F
	fsck.f2fs /dev/$dev < /dev/null > /tmp/fsck.log 2>&1 || { cat /tmp/fsck.log; return 1; }
}

run greedy vda ours background_gc_off || echo "greedy: failed"
run cost_benefit vdb ours "" || echo "cost_benefit: failed"
run stock vdc stock "" || echo "stock: failed"
run greedy_lfs vdd ours background_gc_off N || echo "greedy_lfs: failed"
run cost_benefit_lfs vde ours "" N || echo "cost_benefit_lfs: failed"
