#!/bin/sh
# desc: f2fs-frag (bpf-tools/f2fs_frag.c) on known layouts, with our module (live mode, from f2fs_block_write) and the stock one (live from f2fs_submit_page_write, and scans by FIEMAP and by FIBMAP): a file written as 8 pieces of 32 blocks, each synced, interleaved with the pieces of two others (8 of 20 blocks, 4 of 24) has 8 extents, the others 8 and 4, a 600-block file written at once 1 (or what a segment boundary forces); every count and block count equals the extents read from the inode's block addresses by dump.f2fs -i after unmount (the reference), the top files come in the reference's order, the directory totals are the sums of their files; with a block map of 1024 entries the blocks left out are reported as untracked, exactly the rest; on our module, after 2450 files of 64 KiB lost 3 in 4, background GC moves blocks: the tool's GC moves equal the kernel's gc_data_moved and the moved files' extents still equal dump.f2fs's; on our module the scans by FIEMAP and FIBMAP equal dump.f2fs too; bad arguments and no module give one-line errors; fsck clean after each part
# disks: 256M
# timeout: 600
set -eu
. /tests/lib.sh
. /tests/tools.inc

F=/mnt/f2fs

# ---- errors ----------------------------------------------------------------
[ ! -d /sys/module/f2fs ] || rmmod f2fs || fail "rmmod f2fs failed"
f2fs-frag --help > /tmp/help.txt 2>&1 || true
grep -q EXAMPLES /tmp/help.txt || fail "f2fs-frag --help has no EXAMPLES"
expect_err "bad option" "invalid option" f2fs-frag -x
expect_err "bad interval" "invalid interval" f2fs-frag 0
expect_err "extra argument" "invalid interval" f2fs-frag 1 2 3
expect_err "bad top" "invalid top count" f2fs-frag -t x
expect_err "bad map size" "invalid block map size" f2fs-frag -m 5
expect_err "-s with -d" "exclude each other" f2fs-frag -s /tmp -d vda
expect_err "-B without -s" "needs -s" f2fs-frag -B
expect_err "scan of nothing" "No such file" f2fs-frag -s /nonexistent
expect_err "no module" "is an f2fs module loaded" f2fs-frag -j

# ---- the layout ------------------------------------------------------------
# d2/seq.bin: 600 blocks at once; d1/a.bin: 8 pieces of 32 blocks, each
# synced, then a piece of d2/c.bin (24 blocks, rounds 0-3) and of d1/b.bin
# (20 blocks): every piece of a file is followed by another file's, so a
# has 8 extents, b 8, c 4 (pieces of more than 16 dirty pages: the stock
# module sends a file with min_hot_blocks = 16 dirty pages or fewer to
# hot_data, and all must share one log).
piece() { dd if=/dev/urandom of="$1" bs=4096 count="$2" seek=$(($2 * $3)) conv=notrunc 2> /dev/null; sync; }
workload() {
	mkdir $F/d1 $F/d2
	head -c $((600 * 4096)) /dev/urandom > $F/d2/seq.bin
	sync
	i=0
	while [ $i -lt 8 ]; do
		piece $F/d1/a.bin 32 $i
		[ $i -ge 4 ] || piece $F/d2/c.bin 24 $i
		piece $F/d1/b.bin 20 $i
		i=$((i + 1))
	done
}
FILES="d1/a.bin d1/b.bin d2/c.bin d2/seq.bin"

# ref1 INO: "extents blocks" of inode INO from dump.f2fs -i on the
# unmounted device: the i_addr slots (page index, block address), all in
# the inode (every file here is under 923 blocks; an i_nid would fail)
ref1() {
	echo n | dump.f2fs -i "$1" /dev/vda > /tmp/dump.txt 2>&1 || fail "dump.f2fs -i $1 failed"
	! grep -Eq '^i_nid\[[0-9]\] +\[0x +[1-9a-f]' /tmp/dump.txt || fail "inode $1 has an indirect node: the reference cannot read it"
	sed -n 's/^i_addr\[0x\([0-9a-f]*\)\][^:]*: *\([0-9]*\)\].*/\1 \2/p' /tmp/dump.txt |
		while read -r i a; do [ "$a" = 4294967295 ] || echo "$((0x$i)) $a"; done | sort -n |
		awk 'NR == 1 || $1 != pi + 1 || $2 != pa + 1 { e++ } { n++; pi = $1; pa = $2 } END { print e + 0, n + 0 }'
}

# refs: "path extents blocks ino" of each file of the layout
refs() {
	: > /tmp/refs
	for f in $FILES; do
		ino=$(awk -v f="$f" '$1 == f { print $2 }' /tmp/inos)
		echo "$F/$f $(ref1 "$ino") $ino" >> /tmp/refs
	done
	cat /tmp/refs
	cp /tmp/refs /host/ 2>/dev/null || true
	ref_ext() { awk -v f="$F/$1" '$1 == f { print $2 }' /tmp/refs; }
	[ "$(ref_ext d1/a.bin)" = 8 ] || fail "layout: a.bin has $(ref_ext d1/a.bin) extents by dump.f2fs, not 8"
	[ "$(ref_ext d1/b.bin)" = 8 ] || fail "layout: b.bin has $(ref_ext d1/b.bin) extents by dump.f2fs, not 8"
	[ "$(ref_ext d2/c.bin)" = 4 ] || fail "layout: c.bin has $(ref_ext d2/c.bin) extents by dump.f2fs, not 4"
	# 600 blocks at once: 1 extent, 2 when the log's next segment is not adjacent
	[ "$(ref_ext d2/seq.bin)" -le 2 ] || fail "layout: seq.bin has $(ref_ext d2/seq.bin) extents by dump.f2fs"
}

# check J LABEL: the last JSON line of J against /tmp/refs
check() {
	jvalid "$1"
	L=$(tail -1 "$1")
	for f in $FILES; do
		want=$(awk -v f="$F/$f" '$1 == f { print $2, $3 }' /tmp/refs)
		got=$(echo "$L" | sed -n "s|.*{\"ino\":[0-9]*,\"path\":\"$F/$f\",\"dir\":false,\"extents\":\([0-9-]*\),\"blocks\":\([0-9]*\),.*|\1 \2|p")
		[ "$got" = "$want" ] || fail "$2: $f has '$got' (extents blocks), dump.f2fs says '$want'"
	done
	# the top files in the reference's order: extents, then blocks, down
	want=$(sort -k2,2nr -k3,3nr -k4,4n /tmp/refs | awk '{ printf "%s ", $1 }')
	got=$(i=0; while p=$(jget "$1" "top_files.$i.path") && [ -n "$p" ]; do
		for f in $FILES; do [ "$p" != "$F/$f" ] || printf "%s " "$F/$f"; done
		i=$((i + 1)); done)
	[ "$got" = "$want" ] || fail "$2: top files in the order '$got', the reference's is '$want'"
	# directories: the sums of their files
	for d in d1 d2; do
		want=$(awk -v d="$F/$d/" 'index($1, d) == 1 { e += $2; b += $3; n++ } END { print n, e, b }' /tmp/refs)
		got=$(echo "$L" | sed -n "s|.*{\"path\":\"$F/$d\",\"files\":\([0-9]*\),\"extents\":\([0-9-]*\),\"blocks\":\([0-9]*\)}.*|\1 \2 \3|p")
		[ "$got" = "$want" ] || fail "$2: directory $d has '$got' (files extents blocks), its files add up to '$want'"
	done
	# the histogram covers every file
	[ "$(jsoncheck -g hist < "$1" | tail -1 | grep -o '"count":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')" = "$(jget "$1" files)" ] ||
		fail "$2: the histogram does not add up to the files"
	note "$2: extents and blocks of $FILES equal dump.f2fs's, in order, directories add up"
}

inos() { for f in $FILES; do echo "$f $(stat -c %i "$F/$f")"; done > /tmp/inos; }

# ---- our module: live ---------------------------------------------------------
use_module ours
expect_err "nothing mounted" "no f2fs filesystem is mounted" f2fs-frag -j
for x in "ino 16" "index 24" "new_blkaddr 32" "cause 44"; do
	set -- $x
	[ "$(tp_off f2fs_block_write $1)" = "$2" ] || fail "f2fs_block_write.$1 at offset $(tp_off f2fs_block_write $1), f2fs_events.h says $2"
done
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs /dev/vda $F || fail "mount failed"
start_tool /tmp/fo.json f2fs-frag -j -t 20
P1=$TOOL_PID
start_tool /tmp/fs.json f2fs-frag -j -m 1024 -P
P2=$TOOL_PID
start_tool /tmp/fo.txt f2fs-frag -t 3
workload
inos
stop_tool INT
TOOL_PID=$P2
stop_tool INT
TOOL_PID=$P1
stop_tool INT
cat /tmp/fo.json /tmp/fo.txt
cp /tmp/fo.txt /host/ 2>/dev/null || true
grep -q "^ *8  *256  *[0-9]*  $F/d1/a.bin$" /tmp/fo.txt || fail "ours live (text): no line for a.bin with 8 extents"
grep -q "^ *16  *[0-9]*  *2  $F/d1$" /tmp/fo.txt || fail "ours live (text): no line for d1 with 16 extents in 2 files"
f2fs-frag -s $F -j -t 20 > /tmp/om.json || fail "f2fs-frag -s on ours failed"
f2fs-frag -s $F -j -t 20 -B > /tmp/ob.json || fail "f2fs-frag -s -B on ours failed"
[ "$(jget /tmp/om.json method)" = FIEMAP ] || fail "ours scan: not by FIEMAP"
[ "$(jget /tmp/ob.json method)" = FIBMAP ] || fail "ours scan -B: not by FIBMAP"
umount $F
fsck_clean /dev/vda
refs
check /tmp/fo.json "ours, live"
check /tmp/om.json "ours, scan by FIEMAP"
check /tmp/ob.json "ours, scan by FIBMAP"
[ "$(jget /tmp/fo.json untracked_blocks)" = 0 ] || fail "ours, live: untracked blocks with the default map"
# the small map: what it holds plus what it left out is every block
jvalid /tmp/fs.json
all=$(jget /tmp/fo.json blocks) held=$(jget /tmp/fs.json blocks) left=$(jget /tmp/fs.json untracked_blocks)
[ "$left" -gt 0 ] && [ $((held + left)) = "$all" ] ||
	fail "-m 1024: $held blocks held and $left untracked, $all written"
note "-m 1024: $held blocks held, $left untracked (of $all)"

# ---- our module: blocks the cleaner moves (cause GC) ---------------------------
# 2450 files of 64 KiB (96% full), 3 of 4 deleted, all seen by f2fs-frag;
# then background GC moves the survivors' blocks: the tool's GC moves must
# be the kernel's gc_data_moved, and the extents of the moved files still
# those of dump.f2fs (the most fragmented 40 and every 8th of the rest)
S=/sys/kernel/debug/f2fs/vda/stats
sv() { awk -v k="$1" '$1 == k { print $2 }' $S; }
gc_params
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs -o background_gc_off /dev/vda $F || fail "mount failed"
start_tool /tmp/fg.json f2fs-frag -j -t 1000
fill_thin $F/g
m0=$(sv gc_data_moved)
mount -o remount,background_gc=on $F || fail "remount background_gc=on failed"
# until GC has moved blocks and then rests 3 s (at most 90 s)
i=0 last=$m0 still=0
while [ $i -lt 90 ] && { [ "$last" = "$m0" ] || [ $still -lt 3 ]; }; do
	sleep 1
	now=$(sv gc_data_moved)
	if [ "$now" = "$last" ]; then still=$((still + 1)); else still=0 last=$now; fi
	i=$((i + 1))
done
mount -o remount,background_gc=off $F || fail "remount background_gc=off failed"
sync
m1=$(sv gc_data_moved)
stop_tool INT
jvalid /tmp/fg.json
[ $((m1 - m0)) -gt 0 ] || fail "background GC moved no data block in 90 s"
[ "$(jget /tmp/fg.json gc_moves)" = $((m1 - m0)) ] || fail "f2fs-frag: $(jget /tmp/fg.json gc_moves) GC moves, gc_data_moved says $((m1 - m0))"
umount $F
fsck_clean /dev/vda
tail -1 /tmp/fg.json | grep -o "{\"ino\":[0-9]*,\"path\":\"$F/g/f[0-9]*\",\"dir\":false,\"extents\":[0-9]*,\"blocks\":[0-9]*" |
	sed 's/{"ino":\([0-9]*\),"path":"\([^"]*\)","dir":false,"extents":\([0-9]*\),"blocks":\([0-9]*\)/\1 \2 \3 \4/' > /tmp/gfiles
[ "$(wc -l < /tmp/gfiles)" = 612 ] || fail "f2fs-frag lists $(wc -l < /tmp/gfiles) files of g, 612 are left"
[ "$(jget /tmp/fg.json files_deleted)" = 1838 ] || fail "f2fs-frag: $(jget /tmp/fg.json files_deleted) files deleted, 1838 were"
awk 'NR <= 40 || NR % 8 == 0' /tmp/gfiles > /tmp/gsample
while read -r ino path e b; do
	want=$(ref1 "$ino")
	[ "$e $b" = "$want" ] || fail "after GC: $path has '$e $b' (extents blocks), dump.f2fs says '$want'"
done < /tmp/gsample
note "GC: $((m1 - m0)) data blocks moved (= f2fs-frag's gc_moves); $(wc -l < /tmp/gsample) of 612 files checked against dump.f2fs, extents $(awk '{ print $3 }' /tmp/gsample | sort -n | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')(extents:files)"

# ---- the stock module: live, FIEMAP and FIBMAP scans --------------------------
use_module stock
mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
mount -t f2fs /dev/vda $F || fail "mount failed"
start_tool /tmp/fk.json f2fs-frag -j -t 20
workload
inos
stop_tool INT
cat /tmp/fk.json
[ "$(jget /tmp/fk.json source)" = stock ] || fail "stock live: source is not stock"
[ "$(jget /tmp/fk.json gc_moves)" = null ] || fail "stock live: gc_moves is not null"
f2fs-frag -s $F -j -t 20 > /tmp/fm.json || fail "f2fs-frag -s failed"
f2fs-frag -s $F -j -t 20 -B > /tmp/fb.json || fail "f2fs-frag -s -B failed"
f2fs-frag -s $F -t 3 > /tmp/ft.txt || fail "f2fs-frag -s (text) failed"
cat /tmp/fm.json /tmp/ft.txt
cp /tmp/ft.txt /host/ 2>/dev/null || true
[ "$(jget /tmp/fm.json method)" = FIEMAP ] || fail "stock scan: not by FIEMAP"
[ "$(jget /tmp/fb.json method)" = FIBMAP ] || fail "stock scan -B: not by FIBMAP"
grep -q "^ *8  *256  *[0-9]*  $F/d1/a.bin$" /tmp/ft.txt || fail "stock scan (text): no line for a.bin with 8 extents"
umount $F
fsck_clean /dev/vda
refs
check /tmp/fk.json "stock, live"
check /tmp/fm.json "stock, scan by FIEMAP"
check /tmp/fb.json "stock, scan by FIBMAP"
