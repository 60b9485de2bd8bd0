#!/bin/sh
# desc: f2fs-segmap (bpf-tools/f2fs_segmap.c) on known layouts, with our module and with the stock one: on a fresh image made with -e mp4, a 2 MiB .mp4 fills one cold data segment, which the map shows as type 2 with 512 valid blocks (cell "c@"), 256 (50%, cell "c+") once the file is truncated to 1 MiB; writing 3 MiB more moves the cold data log to another segment, which -j reports as its current segment (equal to debugfs or the status file) and the text map marks ("c>"); every cell of the text map, one segment a cell and 8 (-g 8), is what segment_info and the kernel's current segments say (log letter, glyph of valid blocks, '>'); every map equals /proc/fs/f2fs/vda/segment_info read here by awk; GC passes (stock: foreground ones asked for by ioctl; ours: background GC) show as GC victims, as many as the kernel counted, marked "G"; on a nearly full image (64 KiB files, every other one deleted, then new ones) SSR recycles segments, and the SSR victims of f2fs-segmap, f2fs-gc (JSON and text) and f2fs-top equal, per log, our segs_opened_<log>_ssr (their valid blocks our ssr_victim_valid), and on the stock module the status file's SSR segments; f2fs-segmap full screen in a pty (colours, 'n' for letters, a resize, q); bad arguments, no module, nothing mounted give one-line errors; fsck clean after each part
# disks: 256M
# timeout: 900
set -eu
. /tests/lib.sh
. /tests/tools.inc

F=/mnt/f2fs
P=/proc/fs/f2fs/vda
MP=/sys/module/f2fs/parameters
ST=/sys/kernel/debug/f2fs/status
S=/sys/kernel/debug/f2fs/vda/stats
LOGS="hot_data warm_data cold_data hot_node warm_node cold_node"

# ---- errors ----------------------------------------------------------------
[ ! -d /sys/module/f2fs ] || rmmod f2fs || fail "rmmod f2fs failed"
f2fs-segmap --help > /tmp/help.txt 2>&1 || true
grep -q EXAMPLES /tmp/help.txt || fail "f2fs-segmap --help has no EXAMPLES"
expect_err "bad option" "invalid option" f2fs-segmap -x
expect_err "bad interval" "invalid interval" f2fs-segmap 0
expect_err "extra argument" "invalid interval" f2fs-segmap 1 2 3
expect_err "bad width" "invalid cells per row" f2fs-segmap -w 0
expect_err "bad group" "invalid segments per cell" f2fs-segmap -g x
expect_err "-b with -j" "exclude each other" f2fs-segmap -b -j
expect_err "no module" "is an f2fs module loaded" f2fs-segmap -j
use_module ours
expect_err "nothing mounted" "no f2fs filesystem is mounted" f2fs-segmap -j
# the offsets of f2fs_ssr_victim that bpf-tools/f2fs_events.h assumes
for x in "segno 16" "reusable_blocks 28" "search_ns 40"; do
	set -- $x
	[ "$(tp_off f2fs_ssr_victim $1)" = "$2" ] || fail "f2fs_ssr_victim.$1 at offset $(tp_off f2fs_ssr_victim $1), f2fs_events.h says $2"
done

# seginfo: "segno type valid" of every segment, from segment_info (awk)
seginfo() {
	tail -n +3 $P/segment_info |
		awk '{ for (i = 2; i <= NF; i++) { split($i, a, "|"); print $1 + i - 2, a[1], a[2] } }'
}
# mapsegs FILE: the same from the last JSON line of FILE
mapsegs() { jget "$1" segments | tr -d '[' | tr ']' '\n' | sed 's/^,//' | grep . | awk -F, '{ print NR - 1, $1, $2 }'; }
# same_map FILE WHAT: the map of FILE is segment_info now
same_map() {
	seginfo > /tmp/si.txt
	mapsegs "$1" > /tmp/map.txt
	[ "$(wc -l < /tmp/si.txt)" -gt 0 ] || fail "$2: segment_info is empty"
	cmp -s /tmp/si.txt /tmp/map.txt || { diff /tmp/si.txt /tmp/map.txt | head; fail "$2: the map differs from segment_info"; }
	note "$2: the map of $(wc -l < /tmp/map.txt) segments equals segment_info"
}
# cell FILE SEGNO: the two characters of SEGNO's cell in a text map (-b: 32 cells a row)
cell() {
	awk -v s="$2" 'BEGIN { b = int(s / 32) * 32 } $1 == b && substr($0, 9, 1) == "|" { print substr($0, 10 + 2 * (s - b), 2); exit }' "$1"
}
# cells FILE: the cells of a text map (-b: 32 cells a row), one string
cells() { awk '$1 ~ /^[0-9]+$/ && substr($0, 9, 1) == "|" { printf "%s", substr($0, 10, 64) }' "$1"; }
# want_cells G: the cells a text map of G segments a cell should show, from
# segment_info and the kernel's current segments: the log letter of the
# group's fullest segment (the first of them; when none holds a valid
# block, the log whose current segment is there; blank otherwise), then
# '>' if a current segment is there, else the glyph of the valid blocks
# of the group out of all its blocks (' ' none, '@' all, . : - = + * # %
# in ninths between, '%' up to one block short of all)
want_cells() {
	_c=""
	for _l in $LOGS; do _c="$_c $(curseg $_l):$_l"; done
	seginfo | awk -v g="$1" -v cur="$_c" '
		BEGIN { n = split(cur, c, " "); for (i = 1; i <= n; i++) { split(c[i], kv, ":"); cl[kv[1]] = kv[2] }
			split("hot_data h warm_data w cold_data c hot_node H warm_node W cold_node C", a, " ")
			for (i = 1; i < 12; i += 2) letter[a[i]] = a[i + 1]
			split("h w c H W C", tl, " ")
			gl = " .:-=+*#%@" }
		{ k = int($1 / g); sum[k] += $3; cap[k] += 512; last = k
		  if ($3 > best[k] + 0) { best[k] = $3; t[k] = $2 }
		  if ($1 in cl) cur_of[k] = cl[$1] }
		END { for (k = 0; k <= last; k++) {
			l = sum[k] > 0 ? tl[t[k] + 1] : (k in cur_of) ? letter[cur_of[k]] : " "
			if (k in cur_of) x = ">"
			else if (!sum[k]) x = " "
			else if (sum[k] >= cap[k]) x = "@"
			else { i = 1 + int((sum[k] - 1) * 9 / cap[k]); x = substr(gl, 1 + (i > 8 ? 8 : i), 1) }
			printf "%s%s", l, x } }'
}
# same_cells G WHAT: f2fs-segmap -b -g G shows the cells want_cells G says
same_cells() {
	f2fs-segmap -b -g "$1" 1 1 > /tmp/g.txt 2> /dev/null || fail "f2fs-segmap -b -g $1 failed ($MOD)"
	want_cells "$1" > /tmp/g.want
	_n=$(wc -c < /tmp/g.want)
	[ "$_n" -gt 0 ] && [ "$(cells /tmp/g.txt | cut -c1-"$_n")" = "$(cat /tmp/g.want)" ] || {
		cat /tmp/g.txt; echo "want: '$(cat /tmp/g.want)'"; fail "$2: the cells of f2fs-segmap -g $1 differ from segment_info"; }
	note "$2: the $((_n / 2)) cells of $1 segments each are as segment_info says: '$(cut -c1-64 /tmp/g.want)'"
}
# curseg LOG: the log's current segment, from our stats or the stock status file
curseg() {
	if [ "$MOD" = ours ]; then
		awk -v k="curseg_$1" '$1 == k { print $2 }' $S
	else
		awk -v k="$1" '
			BEGIN { split("hot_data:- HOT data:|warm_data:- WARM data:|cold_data:- COLD data:|hot_node:- Dir dnode:|warm_node:- File dnode:|cold_node:- Indir nodes:", m, "|")
				for (i in m) { split(m[i], kv, ":"); name[kv[1]] = kv[2] ":" } }
			{ l = $0; gsub(/[ \t]+/, " ", l); sub(/^ /, "", l) }
			index(l, name[k]) == 1 { n = split(l, w, " "); print w[n - 5]; exit }' $ST
	fi
}
# stock_ssr [FILE]: the SSR segments of the stock status file (or a copy)
stock_ssr() { awk '/^SSR:/ { print $5 }' "${1:-$ST}"; }
# gcv_of FILE: GC victims (greedy + cost-benefit) in a copy of our stats
gcv_of() { awk '$1 == "gc_victims_greedy" || $1 == "gc_victims_cost_benefit" { s += $2 } END { print s + 0 }' "$1"; }
mountit() { mount -t f2fs -o background_gc=off /dev/vda $F || fail "mount failed ($MOD)"; }

# ---- known layouts ---------------------------------------------------------------
layouts() {
	mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs failed"
	mountit
	head -c 2097152 /dev/urandom > $F/movie.mp4
	sync
	f2fs-segmap -j 1 1 > /tmp/m1.json 2> /tmp/m1.err || { cat /tmp/m1.err; fail "f2fs-segmap -j 1 1 failed ($MOD)"; }
	jvalid /tmp/m1.json
	[ "$(jget /tmp/m1.json source)" = "$MOD" ] || fail "f2fs-segmap: source $(jget /tmp/m1.json source), not $MOD"
	same_map /tmp/m1.json "$MOD, a 2 MiB .mp4"
	seg=$(awk '$2 == 2 && $3 == 512 { print $1 }' /tmp/map.txt)
	[ "$(echo "$seg" | wc -w)" = 1 ] || fail "$MOD: not one full cold data segment in the map: '$seg'"
	f2fs-segmap -b 1 1 > /tmp/m1.txt 2> /dev/null || fail "f2fs-segmap -b 1 1 failed ($MOD)"
	cp /tmp/m1.txt "/host/m1-$MOD.txt" 2> /dev/null || true
	[ "$(cell /tmp/m1.txt "$seg")" = "c@" ] || { cat /tmp/m1.txt; fail "$MOD: the cell of segment $seg is '$(cell /tmp/m1.txt "$seg")', not 'c@'"; }
	note "$MOD: segment $seg is cold data, 512 valid blocks (100%), cell 'c@'"

	truncate -s 1048576 $F/movie.mp4
	sync
	f2fs-segmap -j 1 1 > /tmp/m2.json 2> /dev/null || fail "f2fs-segmap failed ($MOD)"
	same_map /tmp/m2.json "$MOD, truncated to 1 MiB"
	[ "$(awk -v s="$seg" '$1 == s { print $2 "|" $3 }' /tmp/map.txt)" = "2|256" ] ||
		fail "$MOD: segment $seg is $(awk -v s="$seg" '$1 == s { print $2 "|" $3 }' /tmp/map.txt) after the truncation, not 2|256"
	f2fs-segmap -b 1 1 > /tmp/m2.txt 2> /dev/null || fail "f2fs-segmap -b failed ($MOD)"
	[ "$(cell /tmp/m2.txt "$seg")" = "c+" ] || { cat /tmp/m2.txt; fail "$MOD: the cell of segment $seg is '$(cell /tmp/m2.txt "$seg")', not 'c+' (50%)"; }
	note "$MOD: segment $seg after truncating to 1 MiB: 256 valid blocks (50%), cell 'c+'"

	c0=$(jget /tmp/m2.json cursegs.cold_data)
	[ "$c0" = "$(curseg cold_data)" ] || fail "$MOD: cold_data's current segment $c0, $(curseg cold_data) for the kernel"
	[ "$MOD" = stock ] || cp $S /tmp/o0
	start_tool /tmp/m3.json f2fs-segmap -j 1
	head -c 3145728 /dev/urandom > $F/clip.mp4
	sync
	sleep 1.5
	stop_tool INT
	[ "$MOD" = stock ] || cp $S /tmp/o1
	jvalid /tmp/m3.json
	c1=$(jget /tmp/m3.json cursegs.cold_data)
	[ "$c1" != "$c0" ] || fail "$MOD: cold_data's current segment stayed $c0 over 3 MiB of .mp4"
	[ "$c1" = "$(curseg cold_data)" ] || fail "$MOD: cold_data's current segment $c1 in the map, $(curseg cold_data) for the kernel"
	same_map /tmp/m3.json "$MOD, 3 MiB more"
	f2fs-segmap -b 1 1 > /tmp/m3.txt 2> /dev/null || fail "f2fs-segmap -b failed ($MOD)"
	cp /tmp/m3.txt "/host/m3-$MOD.txt" 2> /dev/null || true
	[ "$(cell /tmp/m3.txt "$c1")" = "c>" ] || { cat /tmp/m3.txt; fail "$MOD: the cell of the new current segment $c1 is '$(cell /tmp/m3.txt "$c1")', not 'c>'"; }
	same_cells 1 "$MOD, 3 MiB more"
	same_cells 8 "$MOD, 3 MiB more"
	for l in $LOGS; do
		c=$(jget /tmp/m3.json cursegs.$l)
		[ "$c" = "$(curseg $l)" ] || fail "$MOD: $l's current segment $c in the map, $(curseg $l) for the kernel"
	done
	if [ "$MOD" = ours ]; then
		o=$(jsum /tmp/m3.json opened.cold_data.lfs)
		want=$(( $(awk '$1 == "segs_opened_cold_data_lfs" { print $2 }' /tmp/o1) - $(awk '$1 == "segs_opened_cold_data_lfs" { print $2 }' /tmp/o0) ))
		[ "$o" = "$want" ] && [ "$o" -ge 1 ] || fail "ours: f2fs-segmap saw cold_data open $o segments, debugfs $want"
	else
		[ "$(jget /tmp/m3.json opened)" = null ] || fail "stock: opened is not null"
		jget /tmp/m3.json unavailable | grep -q '"opened"' || fail "stock: unavailable does not list opened"
	fi
	note "$MOD: cold_data moved from segment $c0 to $c1 (cell 'c>'), every log's current segment as the kernel says"
	umount $F
	fsck_clean /dev/vda
}

# ---- GC victims, then SSR on a nearly full image ------------------------------------------
# 2200 files of 64 KiB (about 85% of the user blocks with their inodes),
# every other one deleted: every segment half valid
fill_half() {
	mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
	mountit
	mkdir $F/g
	awk 'BEGIN { for (i = 0; i < 2200; i++) print 65536, "f" i }' > /tmp/names
	mknames /tmp/names $F/g 2> /dev/null || fail "fill failed ($MOD)"
	sync
	i=0
	while [ $i -lt 2200 ]; do rm $F/g/f$i; i=$((i + 2)); done
	sync
}

victims() {
	fill_half
	# GC passes (stock: two foreground ones by ioctl; ours, which has no
	# GC ioctl: background GC, its thread asleep 10 s after the mount so
	# that the tools attach first, then every 200 ms until 2 victims):
	# their victims are marked
	if [ "$MOD" = ours ]; then
		umount $F
		echo 10000 > $MP/bg_gc_min_ms
		echo 1000 > $MP/bg_gc_max_ms
		echo 500 > $MP/bg_gc_nogc_ms
		echo 300 > $MP/bg_gc_idle_ms
		mount -t f2fs -o background_gc=on /dev/vda $F || fail "mount failed ($MOD)"
		cp $S /tmp/g0
	else
		cp $ST /tmp/g0
	fi
	start_tool /tmp/gc.json f2fs-segmap -j 1
	P_SMJ=$TOOL_PID
	start_tool /tmp/gc.txt f2fs-segmap -b 1
	P_SMB=$TOOL_PID
	if [ "$MOD" = ours ]; then
		[ "$(gcv_of $S)" = "$(gcv_of /tmp/g0)" ] || fail "ours: background GC ran before the tools attached"
		echo 200 > $MP/bg_gc_min_ms
		i=0
		while [ "$(gcv_of $S)" -lt $(($(gcv_of /tmp/g0) + 2)) ] && [ $i -lt 90 ]; do sleep 1; i=$((i + 1)); done
		# quiesce the GC thread (its next sleep is long) before comparing
		for x in min max nogc; do echo 600000 > $MP/bg_gc_${x}_ms; done
		sleep 2.5
	else
		gcioctl fg $F 2 || fail "foreground GC cleaned nothing ($MOD)"
	fi
	sync
	sleep 1.5
	if [ "$MOD" = ours ]; then cp $S /tmp/g1; else cp $ST /tmp/g1; fi
	TOOL_PID=$P_SMJ
	stop_tool INT
	TOOL_PID=$P_SMB
	stop_tool INT
	jvalid /tmp/gc.json
	n=$(jsum /tmp/gc.json cleaning.gc_victims)
	if [ "$MOD" = ours ]; then
		want=$(($(gcv_of /tmp/g1) - $(gcv_of /tmp/g0)))
	else
		want=$(( $(awk '/^GC calls:/ { print $3 + 0 }' /tmp/g1) - $(awk '/^GC calls:/ { print $3 + 0 }' /tmp/g0) ))
	fi
	[ "$n" = "$want" ] && [ "$n" -ge 2 ] || fail "$MOD: f2fs-segmap saw $n GC victims, the kernel counted $want (2 or more wanted)"
	grep -Eq '^ *[0-9]+ \|.*G' /tmp/gc.txt || { cat /tmp/gc.txt; fail "$MOD: no cell marked G in the text map"; }
	v=$(jsoncheck -g gc_victims.0.segno < /tmp/gc.json | head -1)
	[ -n "$v" ] || fail "$MOD: no GC victim listed"
	note "$MOD: $n GC victims $(jsoncheck -g gc_victims < /tmp/gc.json | grep -v '^\[\]$' | tr -d '\n' | cut -c1-200)"

	# new files until SSR recycles, with every tool watching
	if [ "$MOD" = ours ]; then cp $S /tmp/s0; else cp $ST /tmp/s0; fi
	start_tool /tmp/sm.json f2fs-segmap -j 1
	P_SM=$TOOL_PID
	start_tool /tmp/sgc.json f2fs-gc -j
	P_GC=$TOOL_PID
	start_tool /tmp/stop.json f2fs-top -j 1
	P_TOP=$TOOL_PID
	start_tool /tmp/sm.txt f2fs-segmap -b 2
	P_SMB=$TOOL_PID
	start_tool /tmp/sgc.txt f2fs-gc
	P_GCT=$TOOL_PID
	mkdir $F/n
	awk 'BEGIN { for (i = 0; i < 900; i++) print 65536, "n" i }' > /tmp/names
	mknames /tmp/names $F/n 2> /dev/null || fail "new files failed ($MOD)"
	sync
	sleep 2.5
	if [ "$MOD" = ours ]; then cp $S /tmp/s1; else cp $ST /tmp/s1; fi
	for p in $P_SM $P_GC $P_TOP $P_SMB $P_GCT; do
		TOOL_PID=$p
		stop_tool INT
	done
	for f in sm sgc stop; do jvalid /tmp/$f.json; done
	cp /tmp/sm.txt "/host/sm-$MOD.txt" 2> /dev/null || true
	cp /tmp/sgc.txt "/host/sgc-$MOD.txt" 2> /dev/null || true
	vic=$(jsum /tmp/sm.json cleaning.ssr.victims)
	if [ "$MOD" = ours ]; then
		want=0 wv=$(( $(awk '$1 == "ssr_victim_valid" { print $2 }' /tmp/s1) - $(awk '$1 == "ssr_victim_valid" { print $2 }' /tmp/s0) ))
		for l in $LOGS; do
			k=segs_opened_${l}_ssr
			d=$(( $(awk -v k=$k '$1 == k { print $2 }' /tmp/s1) - $(awk -v k=$k '$1 == k { print $2 }' /tmp/s0) ))
			want=$((want + d))
			[ "$(jsum /tmp/sm.json cleaning.ssr.logs.$l.victims)" = "$d" ] || fail "ours: f2fs-segmap: $(jsum /tmp/sm.json cleaning.ssr.logs.$l.victims) SSR victims of $l, debugfs $k grew by $d"
			[ "$(jsum /tmp/sm.json opened.$l.ssr)" = "$d" ] || fail "ours: f2fs-segmap: $l opened $(jsum /tmp/sm.json opened.$l.ssr) segments by SSR, debugfs $d"
			[ "$(jget /tmp/sgc.json ssr.logs.$l.victims)" = "$d" ] || fail "ours: f2fs-gc: $(jget /tmp/sgc.json ssr.logs.$l.victims) SSR victims of $l, debugfs $d"
			[ "$(jsum /tmp/stop.json gc.ssr.logs.$l)" = "$d" ] || fail "ours: f2fs-top: $(jsum /tmp/stop.json gc.ssr.logs.$l) SSR victims of $l, debugfs $d"
		done
		# the valid blocks of the victims listed add up to ssr_victim_valid's growth
		sv=$(jsoncheck -g ssr_victims < /tmp/sm.json | tr '{' '\n' | sed -n 's/.*"valid":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
		[ "$(jsum /tmp/sm.json ssr_victims_more)" = 0 ] || fail "ours: SSR victims beyond the list's limit"
		[ "$sv" = "$wv" ] || fail "ours: the SSR victims listed hold $sv valid blocks, ssr_victim_valid grew by $wv"
		jsoncheck -g ssr_victims < /tmp/sm.json | tr '{' '\n' | sed -n 's/.*"valid":\([0-9]*\),"reusable":\([0-9]*\)}.*/\1 \2/p' |
			awk '$2 < 1 || $1 + $2 > 512 { print; bad = 1 } END { exit bad }' || fail "ours: an SSR victim with no reusable block, or more than 512"
		r=$(jget /tmp/stop.json gc.ssr.avg_reusable)
		[ "$r" != null ] || fail "ours: f2fs-top gives no average reusable blocks"
		extra="valid blocks $sv (ssr_victim_valid)"
	else
		want=$(( $(stock_ssr /tmp/s1) - $(stock_ssr /tmp/s0) ))
		att=0
		for l in $LOGS; do att=$((att + $(jsum /tmp/sgc.json ssr.logs.$l.victims))); done
		pend=$(jget /tmp/sgc.json ssr.pending)
		[ $((att + pend)) = "$want" ] || fail "stock: f2fs-gc gave $att SSR victims a log, $pend wait for a write, the status file counts $want"
		[ "$(jget /tmp/sgc.json ssr.lost)" = 0 ] || fail "stock: f2fs-gc lost SSR victims"
		[ "$(jget /tmp/sm.json cleaning.ssr.logs.warm_data.avg_valid)" = null ] || fail "stock: avg_valid not null"
		extra="$att with their log, $pend not written to yet"
	fi
	[ "$want" -ge 1 ] || fail "$MOD: no SSR victim on a nearly full image ($(cat /tmp/s1 | tr '\n' ' ' | cut -c1-600))"
	[ "$vic" = "$want" ] || fail "$MOD: f2fs-segmap counted $vic SSR victims, the kernel $want"
	[ "$(jget /tmp/sgc.json ssr.victims)" = "$want" ] || fail "$MOD: f2fs-gc counted $(jget /tmp/sgc.json ssr.victims) SSR victims, the kernel $want"
	grep -Eq "^SSR victims \(segments a log recycled\): $want( |\$)" /tmp/sgc.txt || { cat /tmp/sgc.txt; fail "$MOD: f2fs-gc's text does not give $want SSR victims"; }
	[ "$(jsum /tmp/stop.json gc.ssr.victims)" = "$want" ] || fail "$MOD: f2fs-top counted $(jsum /tmp/stop.json gc.ssr.victims) SSR victims, the kernel $want"
	n=$(jsoncheck -g ssr_victims < /tmp/sm.json | tr '{' '\n' | grep -c '"segno"' || true)
	[ "$n" = "$want" ] || fail "$MOD: f2fs-segmap listed $n SSR victims, counted $want"
	grep -q '^ SSR  *[1-9][0-9]* victims' /tmp/sm.txt || fail "$MOD: the text map shows no SSR victim"
	grep -Eq '^ *[0-9]+ \|.*S' /tmp/sm.txt || fail "$MOD: no cell marked S in the text map"
	[ "$(jsum /tmp/sm.json events_lost)" = 0 ] || fail "$MOD: f2fs-segmap lost events"
	note "$MOD: $want SSR victims (f2fs-segmap, f2fs-gc, f2fs-top agree with the kernel; $extra); per log: $(for l in $LOGS; do printf '%s %s ' $l "$(jsum /tmp/sm.json cleaning.ssr.logs.$l.victims)"; done)"
	f2fs-segmap -j 1 1 > /tmp/end.json 2> /dev/null || fail "f2fs-segmap failed ($MOD)"
	same_map /tmp/end.json "$MOD, after SSR"
	umount $F
	fsck_clean /dev/vda
}

# ---- our module ------------------------------------------------------------------
MOD=ours
echo Y > /sys/module/f2fs/parameters/ssr
layouts
victims
mkdir -p $F
mountit
# the full screen in a pty: colours, n for letters, a resize, q
rc=0
ptyrun -s 140x40 -r 3:80x30 -k 4.5:n -k 6:q -o /tmp/scr.raw -t 40 -- f2fs-segmap 1 2> /tmp/scr.err || rc=$?
cat /tmp/scr.err
[ $rc = 0 ] || { tail -c 3000 /tmp/scr.raw; fail "f2fs-segmap full screen exited $rc"; }
screen_text /tmp/scr.raw /tmp/scr.txt
grep -q "$(printf '\033')\[7;3[0-9]m" /tmp/scr.raw || fail "no current segment in reverse video"
grep -q "^ logs: h hot_data  w warm_data" /tmp/scr.txt || fail "'n' did not switch to letters"
grep -q "  CLEANING in " /tmp/scr.txt || fail "no panel beside the map at 140 columns"
grep -q "^CLEANING in " /tmp/scr.txt || fail "no panel below the map at 80 columns"
grep -q "$(printf '\033')\[?1049l" /tmp/scr.raw || fail "the terminal was not restored"
note "f2fs-segmap full screen: colours, panel beside at 140 columns and below at 80, letters after 'n', q quits"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda segmap

# ---- the stock module --------------------------------------------------------------
MOD=stock
use_module stock || fail "cannot load the stock module"
layouts
victims
