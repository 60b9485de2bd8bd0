#!/bin/sh
# desc: the libbpf tools (bpf-tools/): f2fs-cp, f2fs-hotcold, f2fs-gc and f2fs-top refuse clearly (one line, non-zero exit) bad arguments, a missing module, no mounted f2fs and no privilege; f2fs-cp counts exactly the 5 syncs done as 5 SYNC checkpoints (= debugfs cp_calls delta) with phases within the average; f2fs-hotcold puts .mp4 writes in cold_data (image made with -e mp4) and 700 directories in hot_node, and names movie.mp4 (by path) and the mp4 extension as top cold_data writers, counts exactly (from f2fs_block_write, JSON file_source) N and M seeded random 4 KiB fsynced overwrites of two files, its segment counts equal the debugfs segs_opened deltas; f2fs-top -j figures (checkpoints, events, blocks, extent lookups) add up to the debugfs deltas and -b -n says it runs on debugfs alone; f2fs-gc, after filling to 96% with 64 KiB files and deleting 3 of 4, with background GC, reports cost-benefit victims with utilisation within 0-100% and its passes equal the debugfs gc_calls delta; every -j line parses with jsoncheck (a strict JSON parser, qemu/guest-tools/jsoncheck.c); fsck is clean
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh
. /tests/tools.inc

F=/mnt/f2fs
D=/sys/kernel/debug
S=$D/f2fs/vda/stats
P=/sys/module/f2fs/parameters
TOOLS="f2fs-cp f2fs-hotcold f2fs-gc f2fs-top"
sv() { awk -v k="$1" '$1 == k { print $2 }' $S; }

# ---- errors --------------------------------------------------------------
[ ! -d /sys/module/f2fs ] || rmmod f2fs || fail "rmmod f2fs failed"
for t in $TOOLS; do
	$t --help > /tmp/help.txt 2>&1 || true
	grep -q EXAMPLES /tmp/help.txt || fail "$t --help has no EXAMPLES"
	expect_err "bad option" "invalid option" $t -x
	expect_err "bad interval" "invalid interval" $t 0
	expect_err "extra argument" "invalid interval" $t 1 2 3
	[ $t = f2fs-top ] || expect_err "no module" "is an f2fs module loaded" $t
done

expect_err "f2fs-top -b -j" "exclude each other" f2fs-top -b -j
expect_err "bad blocks per section" "invalid blocks per section" f2fs-gc -s 0
expect_err "-f with -b" "exclude each other" f2fs-gc -f -b
use_module ours
for t in $TOOLS; do
	expect_err "nothing mounted" "no f2fs filesystem is mounted" $t $([ $t = f2fs-top ] && echo -b)
done
mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs.f2fs failed"
mount -t f2fs -o background_gc_off /dev/vda $F || fail "mount failed"
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
for t in $TOOLS; do
	a=$([ $t = f2fs-top ] && echo -b || true)
	expect_err "unprivileged" "must run as root" su nobody -s /bin/sh -c "$t $a"
	expect_err "wrong device" "no f2fs mounted from or on 'vdz'" $t $a -d vdz
done

# ---- f2fs-cp: exactly N syncs --------------------------------------------
sync
N=5
c0=$(sv cp_calls) s0=$(sv cp_sync)
start_tool /tmp/cp.json f2fs-cp -j
i=0
while [ $i -lt $N ]; do echo "$i" > $F/f$i; sync; i=$((i + 1)); done
c1=$(sv cp_calls) s1=$(sv cp_sync)
stop_tool INT
cat /tmp/cp.json
jvalid /tmp/cp.json
[ "$(jget /tmp/cp.json reasons.sync.count)" = $N ] || fail "f2fs-cp: $(jget /tmp/cp.json reasons.sync.count) SYNC checkpoints for $N syncs"
[ $((s1 - s0)) = $N ] || fail "debugfs: $((s1 - s0)) SYNC checkpoints for $N syncs"
[ "$(jget /tmp/cp.json checkpoints)" = $((c1 - c0)) ] || fail "f2fs-cp: $(jget /tmp/cp.json checkpoints) checkpoints, cp_calls grew by $((c1 - c0))"
tot=$(jget /tmp/cp.json phase_avg_us.total)
sum=0
for ph in block flush wait nat sit pack; do sum=$((sum + $(jget /tmp/cp.json phase_avg_us.$ph))); done
[ "$tot" -gt 0 ] && [ "$sum" -le "$tot" ] || fail "f2fs-cp: phases $sum us, total $tot us"
[ "$(jsoncheck -g reasons.sync.hist_us.0.count < /tmp/cp.json)" -ge 1 ] || fail "f2fs-cp: empty histogram"
note "f2fs-cp: $N SYNC checkpoints (debugfs: $((s1 - s0))), phases $sum us within $tot us"
# the text form, with SIGTERM
start_tool /tmp/cp.txt f2fs-cp
echo x > $F/x; sync
stop_tool TERM
cat /tmp/cp.txt
grep -q "reason = sync: 1 checkpoints" /tmp/cp.txt || fail "f2fs-cp text: no 'reason = sync: 1 checkpoints'"
grep -q "usecs.*distribution" /tmp/cp.txt || fail "f2fs-cp text: no histogram"
cp /tmp/cp.txt /host/ 2>/dev/null || true

# ---- f2fs-top -j / -b: the figures are the debugfs counters' ------------
cp $S /tmp/top0
start_tool /tmp/top.json f2fs-top -j 1
for i in 1 2 3; do head -c 500000 /dev/urandom > $F/t$i; sync; sleep 0.4; done
cp $S /tmp/top1
stop_tool INT
cat /tmp/top.json
jvalid /tmp/top.json
tsum() { jsum /tmp/top.json "$1"; }
dd_() { echo $(( $(awk -v k="$1" '$1 == k { print $2 }' /tmp/top1) - $(awk -v k="$1" '$1 == k { print $2 }' /tmp/top0) )); }
[ "$(tsum cp.count)" = "$(dd_ cp_calls)" ] || fail "f2fs-top: $(tsum cp.count) checkpoints, debugfs $(dd_ cp_calls)"
[ "$(tsum cp.events)" = "$(dd_ cp_calls)" ] || fail "f2fs-top: $(tsum cp.events) cp_end events, debugfs $(dd_ cp_calls)"
[ "$(dd_ cp_sync)" -ge 3 ] || fail "fewer than 3 SYNC checkpoints for 3 syncs"
[ "$(tsum logs.warm_data.lfs_blocks)" = "$(dd_ lfs_blocks_warm_data)" ] || fail "f2fs-top: warm_data blocks differ from debugfs"
[ "$(tsum logs.warm_data.lfs_blocks)" -ge 366 ] || fail "f2fs-top: fewer warm_data blocks than 1.5 MB written"
[ "$(tsum extent.lookups)" = "$(dd_ extent_lookups)" ] || fail "f2fs-top: extent lookups differ from debugfs"
! jsoncheck -g bpf < /tmp/top.json | grep -v true || fail "f2fs-top -j ran without BPF"
jsoncheck -g util_pct < /tmp/top.json | awk '$1 < 0 || $1 > 100 { exit 1 }' || fail "f2fs-top: utilisation outside 0-100%"
[ "$(jget /tmp/top.json segs.main)" = "$(sv main_segs)" ] || fail "f2fs-top: main segments differ"
note "f2fs-top -j: $(tsum cp.count) checkpoints and $(tsum logs.warm_data.lfs_blocks) warm_data blocks over $(wc -l < /tmp/top.json) intervals, as debugfs counted"
start_tool /tmp/top.txt f2fs-top -b -n 1 2
head -c 300000 /dev/urandom > $F/t4; sync
wait $TOOL_PID || fail "f2fs-top -b -n 1 2 failed"
cat /tmp/top.txt.err /tmp/top.txt
cp /tmp/top.txt /host/ 2>/dev/null || true
grep -q "showing debugfs figures only" /tmp/top.txt.err || fail "f2fs-top -n does not say it runs on debugfs only"
[ "$(grep -c '\[debugfs only\]' /tmp/top.txt)" = 2 ] || fail "f2fs-top -b -n 1 2: not 2 intervals marked debugfs only"
grep -q "^  warm_data " /tmp/top.txt || fail "f2fs-top -b: no per-log line"

# ---- f2fs-hotcold: .mp4 is cold, directories hot -------------------------
cp $S /tmp/hc0
start_tool /tmp/hc.json f2fs-hotcold -j
head -c 6000000 /dev/urandom > $F/movie.mp4
names=""
i=0
while [ $i -lt 700 ]; do names="$names $F/d$i"; i=$((i + 1)); done
# shellcheck disable=SC2086
mkdir $names
sync
cp $S /tmp/hc1
stop_tool INT
cat /tmp/hc.json
jvalid /tmp/hc.json
hc() { jget /tmp/hc.json "logs.$1"; }
d0() { awk -v k="$1" '$1 == k { print $2 }' /tmp/hc0; }
d1() { awk -v k="$1" '$1 == k { print $2 }' /tmp/hc1; }
[ "$(hc cold_data.lfs_blocks)" -ge 1465 ] || fail "f2fs-hotcold: $(hc cold_data.lfs_blocks) cold_data blocks for a 6 MB .mp4"
[ "$(hc cold_data.lfs_blocks)" -gt "$(hc warm_data.lfs_blocks)" ] || fail "f2fs-hotcold: more warm than cold data"
[ "$(hc cold_data.segs_lfs)" -ge 2 ] || fail "f2fs-hotcold: fewer than 2 cold_data segments opened for 6 MB"
[ "$(hc hot_node.lfs_blocks)" -ge 700 ] || fail "f2fs-hotcold: $(hc hot_node.lfs_blocks) hot_node blocks for 700 directories"
for lg in hot_data warm_data cold_data hot_node warm_node cold_node; do
	for m in lfs ssr; do
		want=$(( $(d1 segs_opened_${lg}_$m) - $(d0 segs_opened_${lg}_$m) ))
		[ "$(hc $lg.segs_$m)" = "$want" ] || fail "f2fs-hotcold: $lg segs_$m $(hc $lg.segs_$m), debugfs $want"
	done
	want=$(( $(d1 lfs_blocks_$lg) - $(d0 lfs_blocks_$lg) ))
	[ "$(hc $lg.lfs_blocks)" = "$want" ] || fail "f2fs-hotcold: $lg lfs_blocks $(hc $lg.lfs_blocks), debugfs $want"
done
note "f2fs-hotcold: cold_data $(hc cold_data.lfs_blocks) blocks in $(hc cold_data.segs_lfs) new segments, hot_node $(hc hot_node.lfs_blocks) blocks; segments = debugfs"
# top files and extensions: the .mp4 in cold_data, resolved to its path
mb=$(sed -n 's|.*{"log":"cold_data","ino":[0-9]*,"blocks":\([0-9]*\),"path":"/mnt/f2fs/movie.mp4","ext":"mp4"}.*|\1|p' /tmp/hc.json)
[ -n "$mb" ] && [ "$mb" -ge 1400 ] || fail "f2fs-hotcold: movie.mp4 not among the top cold_data files with >= 1400 blocks ($mb)"
grep -q '"extensions":\[[^]]*{"log":"cold_data","ext":"mp4","blocks":[0-9]*,"files":1}' /tmp/hc.json || fail "f2fs-hotcold: no mp4 extension in cold_data"
! grep -q '{"log":"warm_data","ext":"mp4"' /tmp/hc.json || fail "f2fs-hotcold: mp4 blocks in warm_data"
note "f2fs-hotcold: movie.mp4 wrote $mb blocks to cold_data (file_blocks $(jget /tmp/hc.json file_blocks), unknown log $(jget /tmp/hc.json unknown_log_blocks))"
start_tool /tmp/hc.txt f2fs-hotcold 1 2
head -c 1000000 /dev/urandom > $F/clip.mp4
head -c 1000000 /dev/urandom > $F/notes.txt
sync
wait $TOOL_PID || fail "f2fs-hotcold 1 2 failed"
cat /tmp/hc.txt
[ "$(grep -c '^cold_data .*%$' /tmp/hc.txt)" = 2 ] || fail "f2fs-hotcold 1 2: not 2 intervals"
grep -q '^cold_data  *[0-9]*  *[0-9]*  /mnt/f2fs/clip.mp4$' /tmp/hc.txt || fail "f2fs-hotcold: clip.mp4 not a top cold_data file"
grep -q '^cold_data  *mp4  ' /tmp/hc.txt || fail "f2fs-hotcold: no mp4 among the cold_data extensions"
grep -q '^warm_data  *[0-9]*  *[0-9]*  /mnt/f2fs/notes.txt$' /tmp/hc.txt || fail "f2fs-hotcold: notes.txt not a top warm_data file"
cp /tmp/hc.txt /host/ 2>/dev/null || true
# random 4 KiB overwrites, each fsynced: N of ra.dat and M of rb.dat, in a
# seeded order; f2fs_block_write counts each file's blocks exactly (the
# extent path, -E, sees only those that change a file's largest extent)
seed=$(test_seed)
head -c 262144 /dev/urandom > $F/ra.dat
head -c 262144 /dev/urandom > $F/rb.dat
sync
N=$((20 + seed % 11)) M=$((7 + seed % 13))
awk -v s="$seed" -v n=$N -v m=$M 'BEGIN { srand(s); for (i = 0; i < n + m; i++) print rand(), (i < n ? "ra.dat" : "rb.dat"), int(rand() * 64) }' |
	sort -n | cut -d' ' -f2- > /tmp/ops
start_tool /tmp/hr.json f2fs-hotcold -j -t 10
HR=$TOOL_PID
start_tool /tmp/he.json f2fs-hotcold -j -t 10 -E
while read -r f idx; do
	dd if=/dev/urandom of=$F/$f bs=4096 count=1 seek="$idx" conv=notrunc,fsync 2> /dev/null
done < /tmp/ops
stop_tool INT
TOOL_PID=$HR
stop_tool INT
cat /tmp/hr.json
jvalid /tmp/hr.json
jvalid /tmp/he.json
fblocks() { grep -o "\"blocks\":[0-9]*,\"path\":\"$F/$2\"" "$1" | cut -d: -f2 | cut -d, -f1 | awk '{ s += $1 } END { print s + 0 }'; }
[ "$(jget /tmp/hr.json file_source)" = block_write ] || fail "f2fs-hotcold: file_source $(jget /tmp/hr.json file_source), not block_write"
[ "$(jget /tmp/he.json file_source)" = extent_update ] || fail "f2fs-hotcold -E: file_source $(jget /tmp/he.json file_source)"
[ "$(fblocks /tmp/hr.json ra.dat)" = $N ] || fail "f2fs-hotcold: ra.dat $(fblocks /tmp/hr.json ra.dat) blocks, $N overwrites (seed $seed)"
[ "$(fblocks /tmp/hr.json rb.dat)" = $M ] || fail "f2fs-hotcold: rb.dat $(fblocks /tmp/hr.json rb.dat) blocks, $M overwrites (seed $seed)"
wd=$(( $(jget /tmp/hr.json logs.warm_data.lfs_blocks) + $(jget /tmp/hr.json logs.warm_data.ssr_blocks) ))
[ "$(jget /tmp/hr.json file_blocks)" = $((N + M)) ] && [ $wd = $((N + M)) ] ||
	fail "f2fs-hotcold: file_blocks $(jget /tmp/hr.json file_blocks), warm_data blocks $wd (debugfs), $((N + M)) overwrites"
note "f2fs-hotcold: $N and $M random overwrites counted exactly (block_write); the extent path saw $(fblocks /tmp/he.json ra.dat) and $(fblocks /tmp/he.json rb.dat); warm_data $wd blocks"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda tools

# ---- f2fs-gc: aging with background GC -----------------------------------
gc_params
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $F || fail "mount failed"
# 2450 files of 64 KiB (96% of the user blocks with their inodes), then 3 of
# every 4 go: partly valid segments everywhere, few free ones, so background
# GC finds work
fill_thin $F/g
umount $F
# The GC thread first sleeps bg_gc_min_ms: 4 s, so that the tools attach
# before its first pass; then 200 ms.
echo 4000 > $P/bg_gc_min_ms
mount -t f2fs /dev/vda $F || fail "mount failed"
g0=$(sv gc_calls_bg) f0=$(sv gc_secs_freed) v0=$(sv gc_victims_cost_benefit)
start_tool /tmp/gc.json f2fs-gc -j
JSON_PID=$TOOL_PID
start_tool /tmp/gc.txt f2fs-gc -b
echo 200 > $P/bg_gc_min_ms
[ "$(sv gc_calls_bg)" = "$g0" ] || fail "background GC ran before the tools attached"
i=0
while [ "$(sv gc_secs_freed)" -lt $((f0 + 3)) ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
# quiesce the GC thread (its next sleep is long) before comparing counters
for x in min max nogc; do echo 600000 > $P/bg_gc_${x}_ms; done
sleep 2.5
sync
g1=$(sv gc_calls_bg) f1=$(sv gc_secs_freed) v1=$(sv gc_victims_cost_benefit)
stop_tool INT
TOOL_PID=$JSON_PID
stop_tool INT
cat /tmp/gc.txt /tmp/gc.json
cp /tmp/gc.txt /host/ 2>/dev/null || true
jvalid /tmp/gc.json
vic=$(jget /tmp/gc.json cost_benefit.victims)
[ "$vic" -ge 1 ] || fail "f2fs-gc: no victim during background GC (debugfs: gc_calls_bg $g0 -> $g1, $(grep -E '^(user_blocks|valid_blocks|free_segs|dirty_segs|main_segs|prefree_segs) ' $S | tr '\n' ' '))"
[ "$vic" = $((v1 - v0)) ] || fail "f2fs-gc: $vic victims, debugfs $((v1 - v0))"
[ "$(jget /tmp/gc.json bg.passes)" = $((g1 - g0)) ] || fail "f2fs-gc: $(jget /tmp/gc.json bg.passes) BG passes, debugfs $((g1 - g0))"
[ "$(jget /tmp/gc.json util_over_100)" = 0 ] || fail "f2fs-gc: victims above 100%"
u=$(jget /tmp/gc.json cost_benefit.avg_util_pct)
[ "$u" -ge 0 ] && [ "$u" -le 100 ] || fail "f2fs-gc: average utilisation $u%"
hsum=0
for b in 0 1 2 3 4 5 6 7 8 9 10; do hsum=$((hsum + $(jget /tmp/gc.json cost_benefit.util_hist.$b.count))); done
note "f2fs-gc: $vic cost-benefit victims, average utilisation $u%, $((g1 - g0)) BG passes, $((f1 - f0)) sections freed (after ${i}s)"
[ "$hsum" = "$vic" ] || fail "f2fs-gc: utilisation histogram holds $hsum victims, not $vic"
grep -q '^BG GC: [1-9]' /tmp/gc.txt || fail "f2fs-gc -b: no BG passes"
! grep -q '^FG GC:' /tmp/gc.txt || fail "f2fs-gc -b shows foreground GC"
grep -q 'victim utilisation, policy = cost_benefit' /tmp/gc.txt || fail "f2fs-gc: no utilisation histogram"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda gc
