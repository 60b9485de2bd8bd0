#!/bin/sh
# desc: trace events and debugfs statistics: every f2fs event has a format file; a workload (directories, .mp4 and plain files, syncs, remount) fires segment_alloc with COLD_DATA/WARM_DATA/HOT_NODE logs, cp_begin/cp_end with symbolic reasons, positive durations and phases within the total, NAT/SIT flushes; a cold read-only mount (ls -l, du -s, re-read after drop_caches) fires NAT block lookups, node reads, iget/lookup/readdir enter/exit and extent hits; the debugfs counters of each mount equal the event counts; f2fstat parses the status file with non-zero figures; the mount folder comes and goes with the mount; fsck is clean
# disks: 256M
# timeout: 240
set -eu
. /tests/lib.sh

F=/mnt/f2fs
T=/sys/kernel/tracing
D=/sys/kernel/debug
grep -q " $D debugfs" /proc/mounts || mount -t debugfs none $D
[ -d $T/events ] || mount -t tracefs none $T

use_module ours
[ -f $D/f2fs/status ] || fail "no $D/f2fs/status after loading the module"

EVENTS="segment_alloc gc_begin gc_victim gc_end cp_begin cp_end nat_flush
sit_flush extent_lookup extent_update nat_lookup node_read iget_enter
iget_exit lookup_enter lookup_exit readdir_enter readdir_exit"
for e in $EVENTS; do
	fmt=$T/events/f2fs/f2fs_$e/format
	[ -f "$fmt" ] || fail "no format file for f2fs_$e"
	grep -q 'field:dev_t dev;' "$fmt" || fail "f2fs_$e has no dev field"
	grep -q 'print fmt: "dev = (%d,%d)' "$fmt" || fail "f2fs_$e does not print the dev prefix first"
done
note "all $(echo $EVENTS | wc -w) events have format files with the dev prefix"

mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs.f2fs failed"
MAJMIN=$(cat /sys/block/vda/dev)
PREFIX="dev = (${MAJMIN%:*},${MAJMIN#*:})"

start_trace() {
	echo 0 > $T/tracing_on
	echo 0 > $T/events/enable
	echo 16384 > $T/buffer_size_kb
	: > $T/trace
	echo 1 > $T/events/f2fs/enable
	echo 1 > $T/tracing_on
}

stop_trace() {  # stop_trace FILE: copy the trace and check nothing was lost
	echo 0 > $T/tracing_on
	cat $T/trace > "$1"
	for s in $T/per_cpu/cpu*/stats; do
		grep -q '^overrun: 0$' "$s" || fail "trace buffer overran ($s)"
	done
	cp "$1" /host/ 2>/dev/null || true
	grep ' f2fs_' "$1" | grep -v ": f2fs_[a-z_]*: $PREFIX" | head -3 > /tmp/noprefix
	[ ! -s /tmp/noprefix ] || { cat /tmp/noprefix; fail "events without the '$PREFIX' prefix"; }
}

# ev FILE NAME [PATTERN]: count events NAME (whose text matches PATTERN)
ev() { grep " f2fs_$2: " "$1" | grep -c -e "${3:-.}" || true; }

# evsum FILE NAME FIELD: sum of FIELD over events NAME
evsum() {
	grep " f2fs_$2: " "$1" | awk -v k="$3" '
		{ if (match($0, k " = [0-9]+")) s += substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3) }
		END { printf "%d\n", s }'
}

# sv KEY: value of KEY in this mount's stats file
sv() {
	v=$(awk -v k="$1" '$1 == k { print $2 }' $D/f2fs/vda/stats)
	[ -n "$v" ] || fail "stats has no key $1"
	echo "$v"
}

same() {  # same WHAT EVENTS COUNTER
	[ "$2" = "$3" ] || fail "$1: $2 events but the counter says $3"
	note "$1: $2 (events = counter)"
}

# ---- Phase 1: a writable mount ------------------------------------------
start_trace
mount -t f2fs /dev/vda $F || fail "mount failed"
[ -f $D/f2fs/vda/stats ] || fail "no $D/f2fs/vda/stats after mount"
grep -q "partition info(vda)" $D/f2fs/status || fail "status does not list vda"

mkdir $F/dirs
names=""
i=0
while [ $i -lt 700 ]; do names="$names $F/dirs/d$i"; i=$((i + 1)); done
# shellcheck disable=SC2086
mkdir $names
head -c 3000000 /dev/urandom > $F/movie.mp4
head -c 3000000 /dev/urandom > $F/plain
sync
echo a > $F/a; sync
echo b > $F/b; sync
mount -o remount,ro $F || fail "remount ro failed"
mount -o remount,rw $F || fail "remount rw failed"
echo c > $F/c; sync
cp $D/f2fs/vda/stats /tmp/stats1
cat $D/f2fs/status > /tmp/status1
stop_trace /tmp/trace1

# Checkpoints: one begin and one end per checkpoint, as counted.
n=$(ev /tmp/trace1 cp_end)
[ "$(ev /tmp/trace1 cp_begin)" = "$n" ] || fail "cp_begin and cp_end counts differ"
same "checkpoints" "$n" "$(sv cp_calls)"
[ "$(ev /tmp/trace1 cp_end 'reason = SYNC')" -ge 4 ] || fail "fewer than 4 SYNC checkpoints for 4 syncs"
same "SYNC checkpoints" "$(ev /tmp/trace1 cp_end 'reason = SYNC')" "$(sv cp_sync)"
same "REMOUNT checkpoints" "$(ev /tmp/trace1 cp_end 'reason = REMOUNT')" "$(sv cp_remount)"
same "UMOUNT checkpoints" "$(ev /tmp/trace1 cp_end 'reason = UMOUNT')" "$(sv cp_umount)"
grep ' f2fs_cp_end: ' /tmp/trace1 | awk '
	function v(k) { if (!match($0, k " = [-0-9]+")) { print "missing " k; bad = 1; return 0 }
			return substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3) + 0 }
	{ t = v("total_ns"); p = v("block_ns") + v("flush_ns") + v("wait_ns") + v("nat_ns") + v("sit_ns") + v("pack_ns")
	  if (v("ret") != 0) { print "failed checkpoint: " $0; bad = 1 }
	  if (t <= 0 || p > t) { print "bad durations: " $0; bad = 1 }
	  if (!match($0, "reason = [A-Z]+,")) { print "reason not symbolic: " $0; bad = 1 } }
	END { exit bad }' || fail "cp_end events with bad fields"
note "cp_end: durations positive, phases within the total, reasons symbolic"
grep ' f2fs_cp_end: ' /tmp/trace1 | head -2

# NAT and SIT flushes.
for x in nat sit; do
	same "$x flushes" "$(ev /tmp/trace1 ${x}_flush)" "$(sv ${x}_flushes)"
	same "$x journal entries" "$(evsum /tmp/trace1 ${x}_flush journal_entries)" "$(sv ${x}_journal_entries)"
	same "$x block entries" "$(evsum /tmp/trace1 ${x}_flush block_entries)" "$(sv ${x}_block_entries)"
	same "$x blocks written" "$(evsum /tmp/trace1 ${x}_flush blocks)" "$(sv ${x}_blocks_written)"
done
[ "$(evsum /tmp/trace1 nat_flush journal_entries)$(evsum /tmp/trace1 nat_flush block_entries)" != 00 ] ||
	fail "no NAT entry was flushed"
[ "$(evsum /tmp/trace1 cp_end nat_entries)" = \
  "$(( $(sv nat_journal_entries) + $(sv nat_block_entries) ))" ] ||
	fail "cp_end nat_entries do not add up to the flushed NAT entries"

# Segment allocation: log types by name.
grep ' f2fs_segment_alloc: ' /tmp/trace1 | head -3
grep ' f2fs_segment_alloc: ' /tmp/trace1 |
	grep -v 'log = \(HOT\|WARM\|COLD\)_\(DATA\|NODE\), .*mode = LFS' | head -3 > /tmp/bad
[ ! -s /tmp/bad ] || { cat /tmp/bad; fail "segment_alloc with unknown log or mode"; }
for lg in COLD_DATA WARM_DATA HOT_NODE; do
	[ "$(ev /tmp/trace1 segment_alloc "log = $lg,")" -ge 1 ] || fail "no $lg segment opened"
done
note "segment_alloc: COLD_DATA (.mp4), WARM_DATA and HOT_NODE (700 directories) segments opened"

# Extent updates, NAT lookups, node reads, as counted.
same "extent updates" "$(ev /tmp/trace1 extent_update)" "$(sv extent_updates)"
same "extent lookups" "$(ev /tmp/trace1 extent_lookup)" "$(sv extent_lookups)"
for src in cache journal block; do
	SRC=$(echo $src | tr a-z A-Z)
	same "NAT lookups ($src)" "$(ev /tmp/trace1 nat_lookup "source = $SRC,")" "$(sv nat_lookups_$src)"
done
same "node reads (sync)" "$(ev /tmp/trace1 node_read 'kind = SYNC')" "$(sv node_reads_sync)"
same "node reads (readahead)" "$(ev /tmp/trace1 node_read 'kind = READAHEAD')" "$(sv node_reads_ra)"

# The f2fstat part of status: every key early, f2fstat's figures not all zero.
head -c 4096 /tmp/status1 > /tmp/status1.head
for k in 'Utilization' '  - Node' '  - Data' '  - Valid' '  - Dirty' '  - Prefree' \
	 '  - Free' 'CP calls' 'GC calls' 'SSR' 'LFS' '  - nodes' '  - dents' \
	 '  - meta' '  - NATs' '  - SITs' '  - free_nids' 'Memory'; do
	grep -q "^$k: [0-9]" /tmp/status1.head || fail "status lacks '$k: N' in its first 4 KiB"
done
[ "$(sed -n 's/^CP calls: \([0-9]*\).*/\1/p' /tmp/status1)" = "$(awk '$1 == "cp_calls" { print $2 }' /tmp/stats1)" ] ||
	fail "status CP calls differ from stats cp_calls"
sed -n '/partition info/,/^Memory/p' /tmp/status1
timeout 3 f2fstat -p /dev/vda -d 1 > /tmp/f2fstat.out 2>&1 || true
cat /tmp/f2fstat.out
awk '/^ *[0-9]/ { n++; for (i = 1; i <= NF; i++) if ($i + 0 != 0) nz = 1 } END { exit !(n && nz) }' /tmp/f2fstat.out ||
	fail "f2fstat printed no figures, or only zeros"
note "f2fstat parses the status file"

umount $F || fail "umount failed"
[ ! -d $D/f2fs/vda ] || fail "$D/f2fs/vda is left after umount"
fsck_clean /dev/vda

# ---- Phase 2: a cold read-only mount ---------------------------------------
start_trace
mount -t f2fs -o ro /dev/vda $F || fail "read-only mount failed"
[ -f $D/f2fs/vda/stats ] || fail "no stats file for a read-only mount"
ls -l $F/dirs > /dev/null
du -s $F > /dev/null
cat $F/plain $F/movie.mp4 > /dev/null
echo 3 > /proc/sys/vm/drop_caches
cat $F/plain $F/movie.mp4 > /dev/null
cp $D/f2fs/vda/stats /tmp/stats2
stop_trace /tmp/trace2

[ "$(ev /tmp/trace2 nat_lookup 'source = BLOCK,')" -ge 1 ] || fail "no NAT block lookup on a cold cache"
[ "$(ev /tmp/trace2 node_read)" -ge 700 ] || fail "fewer node reads than directories listed"
# ls -l of the 700 directories: readdir reads their inodes ahead, so the
# stats that follow find them cached (readahead is on by default).
ra=$(ev /tmp/trace2 node_read 'kind = READAHEAD'); sync_reads=$(ev /tmp/trace2 node_read 'kind = SYNC')
[ "$ra" -ge 700 ] || fail "$ra node reads by readahead, want >= 700 (readdir of 700 directories)"
[ "$sync_reads" -lt "$ra" ] || fail "$sync_reads synchronous node reads, not fewer than the $ra by readahead"
note "cold ls -l / du -s: $ra node reads by readahead, $sync_reads synchronous"
[ "$(ev /tmp/trace2 extent_lookup ', hit,')" -ge 1 ] || fail "no extent hit on re-reads"
for x in iget lookup readdir; do
	a=$(ev /tmp/trace2 ${x}_enter); b=$(ev /tmp/trace2 ${x}_exit)
	[ "$a" -ge 1 ] && [ "$a" = "$b" ] || fail "${x}: $a enter events, $b exit events"
	grep " f2fs_${x}_exit: " /tmp/trace2 | grep -q 'latency_ns = [1-9]' || fail "${x}_exit has no latency"
done
note "iget/lookup/readdir: enter = exit, latencies recorded"
same "cold NAT lookups (block)" "$(ev /tmp/trace2 nat_lookup 'source = BLOCK,')" "$(sv nat_lookups_block)"
same "cold NAT lookups (cache)" "$(ev /tmp/trace2 nat_lookup 'source = CACHE,')" "$(sv nat_lookups_cache)"
same "cold node reads (sync)" "$(ev /tmp/trace2 node_read 'kind = SYNC')" "$(sv node_reads_sync)"
same "cold node reads (readahead)" "$(ev /tmp/trace2 node_read 'kind = READAHEAD')" "$(sv node_reads_ra)"
same "extent lookups" "$(ev /tmp/trace2 extent_lookup)" "$(sv extent_lookups)"
same "extent hits" "$(ev /tmp/trace2 extent_lookup ', hit,')" "$(sv extent_hits)"
same "checkpoints on a read-only mount" "$(ev /tmp/trace2 cp_end)" 0
umount $F
[ ! -d $D/f2fs/vda ] || fail "$D/f2fs/vda is left after umount"
fsck_clean /dev/vda
stock_unchanged /dev/vda

rmmod f2fs || fail "rmmod failed"
[ ! -e $D/f2fs ] || fail "$D/f2fs is left after rmmod"
note "module unload removed the debugfs folder"
