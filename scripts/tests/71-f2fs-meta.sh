#!/bin/sh
# desc: f2fs-meta (the slow-du investigator) on a cold du -s of 3000 files in 30 directories (remounted, then caches dropped): lookups, igets read from disk, readdir calls, node reads and NAT lookups all > 0, readdir reads the 3000 inodes ahead (node_reads_ra), the node reads and NAT lookups per source equal the debugfs deltas (node_reads_*, nat_lookups_*), iget latency is inside lookup's, the JSON lines parse (jsoncheck), the event record offsets match the format files, -D (readahead off: readdir_ra=N) ends it with a diagnosis of synchronous node reads in lookup, interval/count prints the intervals then the summary; bad arguments, no module, no f2fs mounted, a wrong device and no privilege give one-line errors
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh
. /tests/tools.inc

F=/mnt/f2fs
D=/sys/kernel/debug
S=$D/f2fs/vda/stats
sv() { awk -v k="$1" '$1 == k { print $2 }' $S; }

# ---- errors ------------------------------------------------------------------
f2fs-meta --help > /tmp/help.txt 2>&1 || true
grep -q EXAMPLES /tmp/help.txt || fail "f2fs-meta --help has no EXAMPLES"
expect_err "bad option" "invalid option" f2fs-meta -x
expect_err "bad interval" "invalid interval" f2fs-meta 0
expect_err "bad duration" "invalid duration" f2fs-meta -D abc
umount $F 2>/dev/null || true
[ ! -d /sys/module/f2fs ] || rmmod f2fs || fail "rmmod f2fs failed"
expect_err "no module" "is an f2fs module loaded" f2fs-meta
use_module ours
expect_err "nothing mounted" "no f2fs filesystem is mounted" f2fs-meta

# ---- the record layout the BPF programs assume ---------------------------
for x in "nat_lookup blkaddr 32" "node_read kind 32" "iget_exit latency_ns 32" \
	 "lookup_exit found_ino 28" "lookup_exit latency_ns 40" \
	 "readdir_exit ret 40" "readdir_exit latency_ns 48" "iget_enter ino 16"; do
	set -- $x
	[ "$(tp_off f2fs_$1 $2)" = "$3" ] || fail "f2fs_$1.$2 at offset $(tp_off f2fs_$1 $2), f2fs_events.h says $3"
done
note "event field offsets match bpf-tools/f2fs_events.h"

# ---- a tree of 3000 files, then a cold du -s --------------------------------
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $F || fail "mount failed"
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
expect_err "unprivileged" "must run as root" su nobody -s /bin/sh -c f2fs-meta
expect_err "wrong device" "no f2fs mounted from or on 'vdz'" f2fs-meta -d vdz
awk 'BEGIN { for (i = 0; i < 100; i++) print 100, "file-with-a-longer-name-" i }' > /tmp/names
d=0
while [ $d -lt 30 ]; do
	mkdir $F/dir$d
	mknames /tmp/names $F/dir$d 2> /dev/null || fail "mknames failed"
	d=$((d + 1))
done
sync
umount $F
mount -t f2fs -o background_gc_off /dev/vda $F || fail "remount failed"
echo 3 > /proc/sys/vm/drop_caches
cp $S /tmp/m0
start_tool /tmp/meta.json f2fs-meta -j
du -s $F
cp $S /tmp/m1
kill -INT $TOOL_PID
wait $TOOL_PID || fail "f2fs-meta -j exited non-zero after SIGINT"
cat /tmp/meta.json
jsoncheck < /tmp/meta.json || fail "f2fs-meta -j output is not valid JSON lines"
cp /tmp/meta.json /host/ 2>/dev/null || true
[ "$(wc -l < /tmp/meta.json)" = 1 ] || fail "f2fs-meta -j without interval: not one summary line"
J=/tmp/meta.json
dd_() { echo $(( $(awk -v k="$1" '$1 == k { print $2 }' /tmp/m1) - $(awk -v k="$1" '$1 == k { print $2 }' /tmp/m0) )); }
[ "$(jget $J summary)" = true ] || fail "no summary object"
[ "$(jget $J ops.lookup.count)" -ge 3000 ] || fail "$(jget $J ops.lookup.count) lookups for 3030 names"
[ "$(jget $J ops.iget.from_disk)" -ge 3000 ] || fail "$(jget $J ops.iget.from_disk) igets from disk"
[ "$(jget $J ops.readdir.count)" -ge 31 ] || fail "$(jget $J ops.readdir.count) readdir calls for 31 directories"
[ $(($(jget $J node_reads.sync) + $(jget $J node_reads.ra))) -gt 0 ] || fail "no node reads"
# readdir reads the inodes of its entries ahead (module parameter readdir_ra)
[ "$(jget $J node_reads.ra)" -ge 3000 ] || fail "$(jget $J node_reads.ra) node reads by readahead for 3030 inodes"
[ "$(jget $J ops.readdir.node_reads.ra)" = "$(jget $J node_reads.ra)" ] || fail "readahead outside readdir"
for k in sync ra; do
	[ "$(jget $J node_reads.$k)" = "$(dd_ node_reads_$k)" ] || fail "node reads ($k) $(jget $J node_reads.$k), debugfs $(dd_ node_reads_$k)"
done
nat=0
for s in cache journal block; do
	[ "$(jget $J nat_lookups.$s)" = "$(dd_ nat_lookups_$s)" ] || fail "NAT lookups ($s) $(jget $J nat_lookups.$s), debugfs $(dd_ nat_lookups_$s)"
	nat=$((nat + $(jget $J nat_lookups.$s)))
done
[ $nat -gt 0 ] || fail "no NAT lookups"
[ "$(jget $J ops.iget.total_us)" -le "$(jget $J ops.lookup.total_us)" ] || fail "iget time outside lookup time"
sum=0
for k in node_sync node_ra nat_block other; do sum=$((sum + $(jget $J ops.lookup.time_us.$k))); done
tot=$(jget $J ops.lookup.total_us)
[ $sum -le $((tot + 10)) ] && [ $sum -ge $((tot * 9 / 10)) ] || fail "lookup time split $sum us, total $tot us"
# With readahead the lookups no longer wait on node reads: the diagnosis
# names lookup or readdir (which now issues the reads).
jget $J diagnosis | grep -Eq "^(lookup|readdir) spends [0-9]*% of its time" || fail "diagnosis: $(jget $J diagnosis)"
ra_lookup_us=$(jget $J ops.lookup.total_us)
note "cold du: $(jget $J ops.lookup.count) lookups, $(jget $J ops.readdir.count) readdirs, $(jget $J node_reads.sync) sync + $(jget $J node_reads.ra) readahead node reads, NAT $(jget $J nat_lookups.cache)/$(jget $J nat_lookups.journal)/$(jget $J nat_lookups.block) (= debugfs); $(jget $J diagnosis)"

# ---- text with -D (readdir readahead off), and interval/count -------------
umount $F
mount -t f2fs /dev/vda $F || fail "remount failed"
P=/sys/module/f2fs/parameters/readdir_ra
echo N > $P
# -D 3 ends the tool about 3 s after it attached, however long the du
# beside it runs (on the debug kernel, longer than that): the du runs in
# the background, so the tool's exit is timed from the moment start_tool
# saw it attached.
start_tool /tmp/meta.txt f2fs-meta -D 3
t0=$(cut -d' ' -f1 /proc/uptime)
du -s $F > /dev/null &
_du=$!
wait $TOOL_PID || fail "f2fs-meta -D 3 failed"
t1=$(cut -d' ' -f1 /proc/uptime)
wait $_du || fail "du -s beside f2fs-meta -D 3 failed"
cat /tmp/meta.txt
cp /tmp/meta.txt /host/ 2>/dev/null || true
awk -v a=$t0 -v b=$t1 'BEGIN { exit !(b - a < 10) }' || fail "f2fs-meta -D 3 ran from $t0 to $t1 after it attached"
note "f2fs-meta -D 3 exited $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s after it attached"
echo Y > $P
# Without readahead every inode is a synchronous node read inside lookup.
grep -q "^Diagnosis: lookup spends [0-9]*% of its time in synchronous node reads" /tmp/meta.txt ||
	fail "no diagnosis of synchronous node reads in the text output (readahead off)"
note "cold du lookup time: $(awk '$1 == "lookup" { print $4 }' /tmp/meta.txt) ms with readdir_ra off, $((ra_lookup_us / 1000)) ms with it on"
grep -q "^lookup .*[1-9]" /tmp/meta.txt || fail "no lookup line"
grep -q "usecs.*distribution" /tmp/meta.txt || fail "no histogram"
start_tool /tmp/meta2.json f2fs-meta -j 1 2
echo 3 > /proc/sys/vm/drop_caches
ls -lR $F > /dev/null
wait $TOOL_PID || fail "f2fs-meta -j 1 2 failed"
jsoncheck < /tmp/meta2.json || fail "f2fs-meta -j 1 2: invalid JSON"
[ "$(jsoncheck -g summary < /tmp/meta2.json | tr '\n' ' ')" = "false false true " ] || fail "f2fs-meta -j 1 2: not 2 intervals and a summary"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda
