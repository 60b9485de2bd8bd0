#!/bin/sh
# desc: every bpf tool on the stock f2fs module (issue 18): over one known workload (a .mp4, small files in directories, fsynced writes, syncs, 3 of 4 small files deleted, foreground GC passes asked for by ioctl, background GC in gc_urgent mode) f2fs-cp -j, f2fs-gc -j, f2fs-hotcold -j, f2fs-top -j and f2fs-top -b run together, exit 0, say "source":"stock" with their n/a figures null and listed in "unavailable", and their figures equal the deltas of the stock status file read before and after (parsed here by awk, independently of the tools): checkpoints, GC calls, background GC thread passes, blocks GC tried to move, segments cleaned, LFS/SSR/IPU blocks, extent lookups, levels at the end; the event-derived ones too: checkpoint events = CP calls, blocks written per log (f2fs_submit_page_write) add up to LFS + SSR blocks, GC victims = GC calls, foreground passes = the ioctls, the greedy victims' utilisation = the blocks foreground GC tried to move; .mp4 data in cold_data and small files in hot_data, named by path; the text forms (and f2fs-top -b -n: status only, per-log blocks n/a) exit 0; then f2fs-meta -j on a cold du: a lookup and an iget per entry (find counts them), no name missing, every readdir timed, node reads = the stock iostat_info node read bytes / 4096; f2fs-top full screen on stock in a pty shows the stock panels and redraws at once, narrower, when the terminal is resized; fsck clean after each part
# disks: 256M
# timeout: 600
set -eu
. /tests/lib.sh
. /tests/tools.inc

F=/mnt/f2fs
ST=/sys/kernel/debug/f2fs/status
Y=/sys/fs/f2fs/vda
LOGS="hot_data warm_data cold_data hot_node warm_node cold_node"
SEED=$(test_seed)

umount $F 2>/dev/null || true
use_module stock || fail "cannot load the stock f2fs module"
for e in f2fs_write_checkpoint f2fs_submit_page_write f2fs_get_victim f2fs_gc_begin f2fs_lookup_start; do
	[ -d /sys/kernel/tracing/events/f2fs/$e ] || fail "stock event f2fs/$e missing"
done
# the record layout bpf-tools/stock_events.h assumes (the tools check it too)
for x in "write_checkpoint dest_msg 16" "get_victim cost 32" "get_victim ofs_unit 36" \
	 "submit_page_write temp 48" "submit_page_bio op_flags 44" "lookup_end cino 28" \
	 "readdir err 40" "gc_end sec_freed 20"; do
	set -- $x
	[ "$(tp_off f2fs_$1 $2)" = "$3" ] || fail "f2fs_$1.$2 at offset $(tp_off f2fs_$1 $2), stock_events.h says $3"
done

# stv FILE KEY: one figure of a saved status file (vda's section, the only one)
stv() {
	awk -v k="$2" '
		function num(s) { gsub(/[^0-9]/, "", s); return s + 0 }
		/^CP calls:/ && k == "cp" { print num($3) }
		/^GC calls:/ && k == "gc" { print num($3) }
		/^GC calls:/ && k == "gc_bg" { print num($5) }
		/^Try to move/ && k == "tried" { print num($4) }
		/^Try to move/ && k == "tried_bg" { print num($7) }
		/- data segments :/ && k == "data_segs" { print num($5) }
		/- node segments :/ && k == "node_segs" { print num($5) }
		/^LFS:/ && k == "lfs" { print num($2) }
		/^SSR:/ && k == "ssr" { print num($2) }
		/^IPU:/ && k == "ipu" { print num($2) }
		/- Hit Ratio:/ && k == "ext" { print num($7) }
		/- Free:/ && k == "free" { print num($3) }
		/^Utilization:/ && k == "util" { print num($2) }
		/^Utilization:/ && k == "valid" { print num($3) }
		/- NATs:/ && k == "nats" { split($3, a, "/"); print num(a[1]) }
	' "$1"
}
# delta KEY: the figure's change from /tmp/s0 to /tmp/s1
delta() { echo $(( $(stv /tmp/s1 "$1") - $(stv /tmp/s0 "$1") )); }
# same WHAT GOT WANT
same() { [ "$2" = "$3" ] || fail "$1: the tool says $2, the status file $3"; }

# The GC thread of the stock module, parked: long sleeps, and one pass of
# gc_urgent mode (none when nothing to clean) so that it sleeps them now.
park_gc() {
	for x in min max no_gc; do echo 600000 > $Y/gc_${x}_sleep_time; done
	echo 500 > $Y/gc_urgent_sleep_time
	echo 3 > $Y/gc_urgent
	sleep 1
	echo 0 > $Y/gc_urgent
	sleep 1.5
}

mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs failed"
mount -t f2fs /dev/vda $F || fail "mount failed"
park_gc
sync

# ---- every tool over one workload ------------------------------------------
cp $ST /tmp/s0
start_tool /tmp/cp.json f2fs-cp -j
P_CP=$TOOL_PID
start_tool /tmp/gc.json f2fs-gc -j
P_GC=$TOOL_PID
start_tool /tmp/hc.json f2fs-hotcold -j -t 5
P_HC=$TOOL_PID
start_tool /tmp/top.json f2fs-top -j 1
P_TOP=$TOOL_PID
start_tool /tmp/topb.txt f2fs-top -b 2
P_TOPB=$TOOL_PID

head -c 4000000 /dev/urandom > $F/movie.mp4
# 6 directories of 200 files of 4-12 KiB (sizes from the seed)
awk -v s="$SEED" 'BEGIN { srand(s); for (i = 0; i < 200; i++) print 4096 + int(rand() * 8193), "f" i }' > /tmp/names
for d in 0 1 2 3 4 5; do
	mkdir $F/d$d
	mknames /tmp/names $F/d$d 2> /dev/null || fail "mknames failed"
done
mkdir $F/s
i=0
while [ $i -lt 30 ]; do
	dd if=/dev/urandom of=$F/s/f$i bs=4096 count=2 conv=fsync 2> /dev/null || fail "dd failed"
	i=$((i + 1))
done
sync
for d in 0 1 2 3 4 5; do
	i=0
	while [ $i -lt 200 ]; do
		[ $((i % 4)) = 0 ] || rm $F/d$d/f$i
		i=$((i + 1))
	done
done
sync
NFG=3
gcioctl fg $F $NFG || fail "foreground GC passes cleaned nothing"
sync
# background GC in gc_urgent "mid" mode: a cost-benefit pass every 500 ms
# (a pass that finds nothing worth cleaning sleeps no_gc_sleep_time: short
# here, long again before the mode ends, so that the thread is quiet after)
g0=$(stv $ST gc_bg)
echo 500 > $Y/gc_no_gc_sleep_time
echo 3 > $Y/gc_urgent
i=0
while [ $(($(stv $ST gc_bg) - g0)) -lt 3 ] && [ $i -lt 40 ]; do sleep 1; i=$((i + 1)); done
echo 600000 > $Y/gc_no_gc_sleep_time
echo 0 > $Y/gc_urgent
sleep 2
sync
sleep 2.5
cp $ST /tmp/s1
for p in $P_CP $P_GC $P_HC $P_TOP $P_TOPB; do
	TOOL_PID=$p
	stop_tool INT
done
for f in cp gc hc top; do
	cat /tmp/$f.json.err
	jvalid /tmp/$f.json
	[ "$(jsoncheck -g source < /tmp/$f.json | sort -u)" = stock ] || fail "$f: source is not stock"
done
cp /tmp/topb.txt /tmp/s0 /tmp/s1 /host/ 2>/dev/null || true
note "status deltas: $(delta cp) checkpoints, $(delta gc) GC calls ($(delta gc_bg) background thread passes), $(delta tried) blocks tried, LFS $(delta lfs) SSR $(delta ssr) IPU $(delta ipu) blocks, $(delta ext) extent lookups"
[ "$(delta gc_bg)" -ge 3 ] || fail "fewer than 3 background GC passes in gc_urgent mode"
[ "$(delta gc)" -gt "$NFG" ] || fail "no background victims cleaned"

# f2fs-cp
J=/tmp/cp.json
same "f2fs-cp checkpoints" "$(jget $J checkpoints)" "$(delta cp)"
[ "$(jget $J reasons.sync.count)" -ge 2 ] || fail "f2fs-cp: fewer than 2 sync checkpoints"
[ "$(jget $J errors)" = null ] && [ "$(jget $J phase_avg_us.flush)" = null ] || fail "f2fs-cp: figures the stock module lacks are not null"
jget $J unavailable | grep -q "phase_avg_us.flush" || fail "f2fs-cp: unavailable does not list the phases"
b=$(jget $J phase_avg_us.block) w=$(jget $J phase_avg_us.write) t=$(jget $J phase_avg_us.total)
[ $((b + w)) -le "$t" ] && [ $((b + w + 2)) -ge "$t" ] && [ "$t" -gt 0 ] || fail "f2fs-cp: block $b + write $w us, total $t us"
note "f2fs-cp: $(jget $J checkpoints) checkpoints (status: $(delta cp)), block $b + write $w = $t us"

# f2fs-gc
J=/tmp/gc.json
same "f2fs-gc foreground passes (ioctls)" "$(jget $J fg.passes)" $NFG
same "f2fs-gc background passes" "$(jget $J bg.passes)" "$(delta gc_bg)"
vic=0
for t in fg bg; do
	for p in greedy cost_benefit age_threshold; do vic=$((vic + $(jget $J $t.victims.$p))); done
done
same "f2fs-gc victims" $vic "$(delta gc)"
same "f2fs-gc GC calls" "$(jget $J gc_calls)" "$(delta gc)"
same "f2fs-gc background thread passes" "$(jget $J bg_thread_passes)" "$(delta gc_bg)"
same "f2fs-gc blocks tried" "$(jget $J blocks_tried)" "$(delta tried)"
same "f2fs-gc segments cleaned" $(($(jget $J segs_cleaned.data) + $(jget $J segs_cleaned.node))) $(($(delta data_segs) + $(delta node_segs)))
same "f2fs-gc background blocks tried" $(($(jget $J bg.data_tried) + $(jget $J bg.node_tried))) "$(delta tried_bg)"
same "f2fs-gc greedy victims" "$(jget $J greedy.victims)" $NFG
same "f2fs-gc greedy victims with a utilisation" "$(jget $J greedy.util_known)" $NFG
[ "$(jget $J cost_benefit.victims)" -ge 1 ] || fail "f2fs-gc: no cost-benefit victim in gc_urgent mode"
[ "$(jget $J cost_benefit.avg_util_pct)" = null ] && [ "$(jget $J blocks_moved)" = null ] || fail "f2fs-gc: figures the stock module lacks are not null"
# a foreground pass tries to move every valid block of its greedy victim
fgt=$(($(jget $J fg.data_tried) + $(jget $J fg.node_tried)))
u=$(jget $J greedy.avg_util_pct)
same "f2fs-gc greedy victims' utilisation (blocks foreground GC tried)" "$u" $((fgt * 100 / (512 * NFG)))
[ "$u" -lt 100 ] || fail "f2fs-gc: greedy victims $u% full after 3 of 4 files went"
note "f2fs-gc: $NFG fg + $(jget $J bg.passes) bg passes, $vic victims (cost-benefit $(jget $J cost_benefit.victims)), greedy utilisation $u% (= $fgt blocks tried), $(jget $J blocks_tried) blocks tried"

# f2fs-hotcold
J=/tmp/hc.json
sum=0 dsum=0
for l in $LOGS; do
	sum=$((sum + $(jget $J logs.$l.blocks)))
	[ "$(jget $J logs.$l.lfs_blocks)" = null ] || fail "f2fs-hotcold: $l lfs_blocks not null"
done
for l in hot_data warm_data cold_data; do dsum=$((dsum + $(jget $J logs.$l.blocks))); done
same "f2fs-hotcold blocks of all logs (events)" $sum $(($(delta lfs) + $(delta ssr)))
same "f2fs-hotcold total" "$(jget $J total_blocks)" $sum
same "f2fs-hotcold LFS blocks" "$(jget $J status.lfs_blocks)" "$(delta lfs)"
same "f2fs-hotcold IPU blocks" "$(jget $J status.ipu_blocks)" "$(delta ipu)"
same "f2fs-hotcold data blocks of files" "$(jget $J file_blocks)" $dsum
[ "$(jget $J logs.cold_data.blocks)" -ge 977 ] || fail "f2fs-hotcold: $(jget $J logs.cold_data.blocks) cold_data blocks for a 4 MB .mp4"
mb=$(sed -n 's|.*{"log":"cold_data","ino":[0-9]*,"blocks":\([0-9]*\),"path":"/mnt/f2fs/movie.mp4","ext":"mp4"}.*|\1|p' $J)
[ -n "$mb" ] && [ "$mb" -ge 977 ] || fail "f2fs-hotcold: movie.mp4 not a top cold_data file with >= 977 blocks ($mb)"
grep -q '{"log":"hot_data","ext":"(dir)"' $J || fail "f2fs-hotcold: no directory blocks in hot_data"
# the stock module writes a file with fewer than min_hot_blocks (16) dirty
# pages to hot_data, and what GC moves to cold_data
# (the top five may tie with files deleted since, whose path is null: the
# workload deletes only such small files)
grep -q '{"log":"hot_data","ino":[0-9]*,"blocks":[0-9]*,"path":\("/mnt/f2fs/d[0-9]/f[0-9]*"\|null\)' $J ||
	fail "f2fs-hotcold: no small file among the hot_data writers"
note "f2fs-hotcold: $sum blocks in the logs (status LFS + SSR $(($(delta lfs) + $(delta ssr)))), cold_data $(jget $J logs.cold_data.blocks), movie.mp4 $mb"

# f2fs-top -j: its intervals add up to the status deltas; its last levels are the status file's
J=/tmp/top.json
same "f2fs-top checkpoints" "$(jsum $J cp.count)" "$(delta cp)"
same "f2fs-top checkpoint events" "$(jsum $J cp.events)" "$(delta cp)"
same "f2fs-top LFS blocks" "$(jsum $J all_logs.lfs_blocks)" "$(delta lfs)"
same "f2fs-top SSR blocks" "$(jsum $J all_logs.ssr_blocks)" "$(delta ssr)"
same "f2fs-top IPU blocks" "$(jsum $J all_logs.ipu_blocks)" "$(delta ipu)"
sum=0
for l in $LOGS; do sum=$((sum + $(jsum $J logs.$l.blocks))); done
same "f2fs-top blocks of all logs (events)" $sum $(($(delta lfs) + $(delta ssr)))
same "f2fs-top GC calls" "$(jsum $J gc.calls)" "$(delta gc)"
same "f2fs-top background thread passes" "$(jsum $J gc.bg_thread_passes)" "$(delta gc_bg)"
same "f2fs-top blocks tried" "$(jsum $J gc.blocks_tried)" "$(delta tried)"
same "f2fs-top foreground passes" "$(jsum $J gc.fg)" $NFG
same "f2fs-top background passes" "$(jsum $J gc.bg)" "$(delta gc_bg)"
same "f2fs-top victims" $(($(jsum $J gc.victims_greedy) + $(jsum $J gc.victims_cost_benefit) + $(jsum $J gc.victims_age_threshold))) "$(delta gc)"
same "f2fs-top extent lookups" "$(jsum $J extent.lookups)" "$(delta ext)"
same "f2fs-top free segments (last)" "$(jget $J segs.free)" "$(stv /tmp/s1 free)"
same "f2fs-top utilisation (last)" "$(jget $J util_pct)" "$(stv /tmp/s1 util)"
same "f2fs-top valid blocks (last)" "$(jget $J valid_blocks)" "$(stv /tmp/s1 valid)"
same "f2fs-top dirty NATs (last)" "$(jget $J dirty.nats)" "$(stv /tmp/s1 nats)"
[ "$(jget $J user_blocks)" = null ] && [ "$(jget $J gc.write_amp)" = null ] && [ "$(jget $J nat_flushes)" = null ] ||
	fail "f2fs-top: figures the stock module lacks are not null"
for k in user_blocks gc.write_amp nat_flushes; do
	jget $J unavailable | grep -q "$k" || fail "f2fs-top: unavailable does not list $k"
done
note "f2fs-top -j: $(wc -l < $J) intervals, $(jsum $J cp.count) checkpoints, $sum blocks in the logs, $(jsum $J gc.calls) GC calls, as the status file says"
# f2fs-top -b: the same checkpoints, the stock panel lines
T=/tmp/topb.txt
grep -q "\[stock: status + BPF\]" $T || fail "f2fs-top -b does not say it shows the stock module with BPF"
same "f2fs-top -b checkpoints" "$(sed -n 's/^  CP: \([0-9]*\) .*/\1/p' $T | awk '{ s += $1 } END { print s + 0 }')" "$(delta cp)"
grep -q "^  dirty: nodes " $T && grep -q "^  all logs: LFS " $T && grep -q "WA n/a (needs our module)" $T || fail "f2fs-top -b: stock lines missing"

umount $F
fsck_clean /dev/vda

# ---- f2fs-meta on a cold du ----------------------------------------------------
mount -t f2fs -o background_gc=off /dev/vda $F || fail "mount failed"
n=$(find $F -mindepth 1 | wc -l)
umount $F
mount -t f2fs -o background_gc=off /dev/vda $F || fail "mount failed"
echo 1 > $Y/iostat_enable
echo 3 > /proc/sys/vm/drop_caches
nodeio() { sed -n '/^\[READ\]/,$s/^fs node:[[:space:]]*\([0-9]*\).*/\1/p' /proc/fs/f2fs/vda/iostat_info; }
io0=$(nodeio)
start_tool /tmp/meta.json f2fs-meta -j
du -s $F > /dev/null
io1=$(nodeio)
stop_tool INT
cat /tmp/meta.json.err
J=/tmp/meta.json
jvalid $J
[ "$(jget $J source)" = stock ] || fail "f2fs-meta: source is not stock"
same "f2fs-meta lookups (find counts the entries)" "$(jget $J ops.lookup.count)" "$n"
same "f2fs-meta names not found" "$(jget $J ops.lookup.not_found)" 0
same "f2fs-meta igets (one per lookup)" "$(jget $J ops.iget.count)" "$n"
[ "$(jget $J ops.readdir.count)" -ge 8 ] || fail "f2fs-meta: $(jget $J ops.readdir.count) readdir calls for 8 directories"
# Debian's kernel traces syscalls; a kernel without FTRACE_SYSCALLS (the
# debug kernel built before CONFIG_FTRACE_SYSCALLS was in its fragment) has
# no getdents64 tracepoint, and the tool must say so instead of timing.
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_getdents64 ]; then
	same "f2fs-meta readdir calls timed" "$(jget $J ops.readdir.timed)" "$(jget $J ops.readdir.count)"
else
	grep -q "no syscalls/sys_enter_getdents64 tracepoint: readdir latency n/a" /tmp/meta.json.err ||
		fail "f2fs-meta: no getdents64 tracepoint here, and the tool did not say so"
	note "no syscalls/sys_enter_getdents64 tracepoint on this kernel: readdir latency n/a, as the tool said"
fi
same "f2fs-meta node reads (iostat_info)" $(($(jget $J node_reads.sync) + $(jget $J node_reads.ra))) $(((io1 - io0) / 4096))
[ "$(jget $J node_reads.ra)" -ge $((n - 10)) ] || fail "f2fs-meta: $(jget $J node_reads.ra) node reads by readahead for $n inodes"
[ "$(jget $J ops.iget.avg_us)" = null ] && [ "$(jget $J nat_lookups)" = null ] || fail "f2fs-meta: figures the stock module lacks are not null"
jget $J diagnosis | grep -Eq "^(lookup|readdir) spends [0-9]*% of its time" || fail "diagnosis: $(jget $J diagnosis)"
note "f2fs-meta: $n entries, $(jget $J ops.lookup.count) lookups, $(jget $J ops.readdir.count) readdirs, $(jget $J node_reads.sync) sync + $(jget $J node_reads.ra) readahead node reads (iostat_info: $(((io1 - io0) / 4096))); $(jget $J diagnosis)"

# ---- the text forms, together over a small write ----------------------------------
start_tool /tmp/cp.txt f2fs-cp
P_CP=$TOOL_PID
start_tool /tmp/gc.txt f2fs-gc
P_GC=$TOOL_PID
start_tool /tmp/meta.txt f2fs-meta -H -D 2
P_META=$TOOL_PID
start_tool /tmp/topn.txt f2fs-top -b -n 2 1
P_TOPN=$TOOL_PID
# last, and 6 s: its one interval must still run when sync writes the clip
# (on a loaded host, starting the tools above can take more than 2 s)
start_tool /tmp/hc.txt f2fs-hotcold 6 1
P_HC=$TOOL_PID
head -c 100000 /dev/urandom > $F/clip.mp4
ls -l $F/d0 > /dev/null
sync
for p in $P_HC $P_META $P_TOPN; do wait $p || fail "a text-form tool failed"; done
for p in $P_CP $P_GC; do
	TOOL_PID=$p
	stop_tool INT
done
cat /tmp/cp.txt /tmp/gc.txt /tmp/hc.txt /tmp/meta.txt /tmp/topn.txt.err /tmp/topn.txt
cp /tmp/cp.txt /tmp/gc.txt /tmp/hc.txt /tmp/meta.txt /tmp/topn.txt /host/ 2>/dev/null || true
grep -q "^reason = sync: [1-9]" /tmp/cp.txt && grep -q "failed n/a (needs our module)" /tmp/cp.txt || fail "f2fs-cp text: no sync checkpoint, or failures not n/a"
grep -q "^status: [0-9]* GC calls" /tmp/gc.txt && grep -q "sections freed (all GC), moved per section freed: n/a" /tmp/gc.txt || fail "f2fs-gc text: stock lines missing"
grep -q "^cold_data  *[1-9]" /tmp/hc.txt && grep -q "^cold_data  *[0-9]*  *[0-9]*  /mnt/f2fs/clip.mp4$" /tmp/hc.txt || fail "f2fs-hotcold text: clip.mp4 not in cold_data"
grep -q "^iget .* n/a" /tmp/meta.txt && grep -q "^Diagnosis: " /tmp/meta.txt || fail "f2fs-meta text: iget not n/a, or no diagnosis"
grep -q "showing status file figures only" /tmp/topn.txt.err && grep -q "\[stock: status only\]" /tmp/topn.txt && grep -q "^  cold_data  *n/a " /tmp/topn.txt ||
	fail "f2fs-top -b -n: does not say it shows the status file alone"
note "text forms on stock: f2fs-cp, f2fs-gc, f2fs-hotcold, f2fs-meta, f2fs-top -b -n exit 0"

# ---- f2fs-top full screen on stock, resized -------------------------------------
top_resized stock
for p in "SPACE" "LOGS" "GC" "CHECKPOINTS" "DIRTY" "NAT/SIT" "EXTENT CACHE" "MEMORY"; do
	grep -q "^ $p " /tmp/stock.txt || fail "no $p panel on the stock screen"
done
grep -q "\[stock f2fs: status + BPF\]" /tmp/stock.txt || fail "the screen does not say stock f2fs with BPF"
grep -q "n/a (needs our module)" /tmp/stock.txt || fail "the screen does not mark what needs our module"
grep -q "SSR [0-9]* victims (.*avg checkpointed valid [0-9]* blk, reusable n/a blk" /tmp/stock.txt || fail "no SSR line (checkpointed valid, reusable n/a) in the stock GC panel"
note "f2fs-top full screen on stock: 8 panels, redrawn at 80 columns on SIGWINCH"
umount $F
fsck_clean /dev/vda
