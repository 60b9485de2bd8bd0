#!/bin/sh
# demo.sh - the background workload of "make run DEMO=1" (qemu/init starts
# it on the mount, /mnt/f2fs).  Three writers, so that f2fs-top has
# something to show: warm data churned by ager (overwrites, truncates,
# deletes over a 60% fill, so that GC and SSR find dirty segments), cold
# .mp4 clips of 0.7-2.1 MB replaced in a ring of 12 (the image is made with
# "mkfs.f2fs -e mp4"), and hot small files and directories recreated in a
# ring of 40, with a sync every few rounds (checkpoints).  The writers'
# pids go to /tmp/demo.pids:  kill $(cat /tmp/demo.pids)  stops them.
# The background GC thread is made eager (every 2-5 s, 0.3 s of idle
# enough), so that a few minutes show cleaning; a module reload resets it.
M=${1:-/mnt/f2fs}
P=/sys/module/f2fs/parameters
[ ! -w $P/bg_gc_min_ms ] || {
	echo 2000 > $P/bg_gc_min_ms
	echo 5000 > $P/bg_gc_max_ms
	echo 10000 > $P/bg_gc_nogc_ms
	echo 300 > $P/bg_gc_idle_ms
}
mkdir -p "$M/warm" "$M/hot" "$M/cold"
: > /tmp/demo.pids

(
	ager -d "$M/warm" -m /tmp/demo.model -s 1 fill 60 > /dev/null
	r=2
	while :; do
		ager -d "$M/warm" -m /tmp/demo.model -s $r churn 16 60 > /dev/null || sleep 2
		r=$((r + 1))
		sleep 1
	done
) &
echo $! >> /tmp/demo.pids

(
	i=0
	while :; do
		head -c $(((1 + i % 3) * 700000)) /dev/urandom > "$M/cold/clip$((i % 12)).mp4"
		i=$((i + 1))
		sleep 1
	done
) &
echo $! >> /tmp/demo.pids

(
	j=0
	while :; do
		d=$M/hot/d$((j % 40))
		rm -rf "$d"
		mkdir "$d"
		k=0
		while [ $k -lt 20 ]; do echo "$j $k" > "$d/f$k"; k=$((k + 1)); done
		j=$((j + 1))
		[ $((j % 5)) != 0 ] || sync
		sleep 0.5
	done
) &
echo $! >> /tmp/demo.pids
