#!/bin/sh
# desc: I/O errors at chosen moments (issue 19; test 65 switches errors on between operations): writes fail inside a checkpoint's own writes (dm table failing only the checkpoint-pack area, or only NAT, SIT or SSA), inside cleaning (main-area writes failing while background GC / the GC ioctl moves blocks of a 90%-full, thinned device), inside a busy fsync loop (all writes failing, or silently dropped, partway); reads fail during a walk and during GC (an error target on one file's blocks, GC made to pick its segment; the whole main area failing under a cold walk). Each time: the error reaches the caller (syncfs / fsync / the reader gets it), ours turns read-only with one message naming the device, nothing crashes; after healing, the previous checkpoint's tree exactly (treesum manifest), every file whose fsync returned 0 before the failure verifies, fsck clean. The stock module runs the same as the control (no crash, error reaches the caller; its results are reported, not required)
# disks: 256M
# timeout: 900
#
# How a moment is hit (deterministically, without racing a watcher): the
# device under the filesystem is a dm table built from the superblock's
# geometry (cp_blkaddr, sit_blkaddr, nat_blkaddr, ssa_blkaddr, main_blkaddr
# read with od): linear everywhere except one area, which is dm-flakey
# with error_writes (or drop_writes), or the error target.  Only a
# checkpoint writes the checkpoint packs, NAT and SIT, so failing just that
# area fails a checkpoint in that phase and nothing else; with everything
# synced first and background GC as the only writer, failing the main area
# fails GC's moves.  Caveat: dm sends each cache flush to every target, and
# dm-flakey fails a flush as a write, so while an area fails, flushes fail
# too (our checkpoint flushes before its closing pack block anyway).  The
# fsync moment is a table swap (dmsetup suspend/load/resume) while a loop
# of dd conv=fsync runs: the number of fsyncs that had returned 0 before
# the suspend is counted first, so those must be durable.
#
# GUEST_ARGS=full=1 (make io-errors) also runs the SIT and SSA areas,
# and every case on the stock module; the short form (make check) runs the
# checkpoint-pack and NAT areas, and the stock module on one of each kind.
# GUEST_ARGS=seed=N replays the fsync moments.
set -eu
. /tests/lib.sh

export DM_DISABLE_UDEV=1
modprobe dm-flakey || fail "modprobe dm-flakey"
grep -q " /sys/kernel/debug debugfs" /proc/mounts || mount -t debugfs none /sys/kernel/debug
grep -q " /sys/kernel/tracing " /proc/mounts || mount -t tracefs none /sys/kernel/tracing
TR=/sys/kernel/tracing
F=/mnt/f2fs
V=/dev/vda
D=/dev/mapper/mom
SZ=$(blockdev --getsz $V)
FULL=$(cmdline_get full || echo 0)
SEED=$(test_seed)
MAN=type,mode,nlink,size,link,content
mkdir -p $F
t0=$(cut -d. -f1 /proc/uptime)
rm -f /tmp/failed.txt

# ---- the device ------------------------------------------------------------
sbf() { od -An -tu4 -j $((1024 + $1)) -N4 $V | tr -d ' '; }
geometry() {  # sector ranges of the areas, from the superblock on $V
	CP=$(($(sbf 76) * 8)) SIT=$(($(sbf 80) * 8)) NAT=$(($(sbf 84) * 8))
	SSA=$(($(sbf 88) * 8)) MAIN=$(($(sbf 92) * 8))
	[ "$CP" -lt "$SIT" ] && [ "$SIT" -lt "$NAT" ] && [ "$NAT" -lt "$SSA" ] &&
		[ "$SSA" -lt "$MAIN" ] && [ "$MAIN" -lt "$SZ" ] ||
		fail "superblock geometry not understood: cp $CP sit $SIT nat $NAT ssa $SSA main $MAIN (sectors)"
}
area() {  # area NAME: "start:end" in sectors
	case $1 in
	cp) echo "$CP:$SIT" ;; sit) echo "$SIT:$NAT" ;; nat) echo "$NAT:$SSA" ;;
	ssa) echo "$SSA:$MAIN" ;; main) echo "$MAIN:$SZ" ;; all) echo "0:$SZ" ;;
	esac
}
# table KIND [RANGE...]: write /tmp/table: RANGEs ("start:end" sectors,
# sorted, disjoint) become KIND: ewrite (writes fail), dwrite (writes are
# dropped and reported done), eall (the error target: all I/O fails); the
# rest maps linearly to $V.  KIND ok: all linear.
table() {
	_k=$1
	shift
	_p=0
	: > /tmp/table
	for _r in "$@"; do
		_s=${_r%:*} _e=${_r#*:}
		[ "$_s" -le "$_p" ] || echo "$_p $((_s - _p)) linear $V $_p" >> /tmp/table
		case $_k in
		ewrite) echo "$_s $((_e - _s)) flakey $V $_s 0 1 1 error_writes" ;;
		dwrite) echo "$_s $((_e - _s)) flakey $V $_s 0 1 1 drop_writes" ;;
		eall)   echo "$_s $((_e - _s)) error" ;;
		*) fail "table: kind $_k" ;;
		esac >> /tmp/table
		_p=$_e
	done
	[ "$_p" -ge "$SZ" ] || echo "$_p $((SZ - _p)) linear $V $_p" >> /tmp/table
}
swap() {  # swap KIND [RANGE...]: the live table becomes that
	if [ "$1" = ok ]; then table ok; else table "$@"; fi
	dmsetup suspend --nolockfs mom || fail "dmsetup suspend"
	dmsetup load mom /tmp/table || { cat /tmp/table; fail "dmsetup load $*"; }
	dmsetup resume mom || fail "dmsetup resume"
}

# ---- kernel messages ---------------------------------------------------------
# kcheck M WHAT: after a mount that met write errors is unmounted: under
# ours, exactly one line says the filesystem is now read-only, every f2fs
# line names the device (dm-N), and there are at most 5 (no flood); the
# f2fs lines of the mount are shown
kcheck() {
	ksince | grep -iE 'f2fs' | grep -v 'harness: f2fs module' > /tmp/k.txt || true
	sed 's/^\[[^]]*\] /  kernel: /' /tmp/k.txt | head -8
	[ "$1" = ours ] || return 0
	_n=$(grep -c 'read-only' /tmp/k.txt || true)
	[ "$_n" = 1 ] || failed "ours: $2: $_n 'read-only' messages (want exactly 1)"
	! grep -v "f2fs ($DMN)" /tmp/k.txt || failed "ours: $2: kernel lines not naming the device $DMN"
	[ "$(wc -l < /tmp/k.txt)" -le 5 ] || failed "ours: $2: $(wc -l < /tmp/k.txt) f2fs kernel lines (a flood; want a few)"
}

# ---- steps -------------------------------------------------------------------
sum() { md5sum < "$1" | cut -d' ' -f1; }
rdonly() { awk -v m=$F '$2 == m { print $4 }' /proc/mounts | grep -q '^ro'; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "/sys/kernel/debug/f2fs/$DMN/stats"; }
# fresh M [OPTS]: module M, a new filesystem, the dm device, mounted
fresh() {
	M=$1
	umount $F 2>/dev/null || true
	dmsetup remove mom 2>/dev/null || true
	use_module "$M" || fail "use_module $M"
	mkfs.f2fs -q -f $V > /dev/null || fail "mkfs failed"
	geometry
	table ok
	dmsetup create mom /tmp/table || fail "dmsetup create"
	DMN=dm-$(dmsetup info -c -o minor --noheadings mom | tr -d " ")
	kmark
	mount -t f2fs ${2:+-o "$2"} $D $F || fail "$M: mount failed"
}
# heal M LABEL REFMAN [checked]: unmount whatever state it is in, check the
# kernel messages (unless "checked" already), heal the device,
# fsck clean, mount the bare device: the tree must be REFMAN (ours: fail;
# stock: reported)
heal() {
	umount $F 2>/dev/null || umount -l $F 2>/dev/null || fail "$2: cannot unmount"
	[ -n "${4:-}" ] || kcheck "$1" "$2"
	swap ok
	dmsetup remove mom || fail "$2: dmsetup remove"
	fsck_clean $V
	mount -t f2fs $V $F || fail "$1: $2: mount after healing failed"
	if treesum -f $MAN $F > /tmp/got.man && cmp -s "$3" /tmp/got.man; then
		note "$1: $2: after healing, the previous checkpoint's tree exactly ($(wc -l < "$3") entries)"
	elif [ "$1" = ours ]; then
		diff "$3" /tmp/got.man | head -20 | cut -c1-160
		failed "ours: $2: after healing, the tree is not the previous checkpoint's"
	else
		note "stock: $2: after healing, the tree differs from the previous checkpoint's: $(diff "$3" /tmp/got.man | grep -c '^[<>]') lines, e.g. $(diff "$3" /tmp/got.man | grep '^[<>]' | head -3 | cut -c1-100 | tr '\n' ' ')"
	fi
	umount $F
	fsck_clean $V
}
# expect_err M WHAT CMD...: CMD must fail for ours (stock: reported)
expect_err() {
	_m=$1 _w=$2
	shift 2
	if "$@" > /tmp/cmd.out 2>&1; then
		[ "$_m" = ours ] && fail "ours: $_w: '$*' succeeded"
		note "$_m: $_w: '$*' succeeded"
	else
		note "$_m: $_w: '$*' failed: $(tail -1 /tmp/cmd.out)"
	fi
}

# failed MSG: a failure that does not stop the test (the next cases still
# run); the test fails at its end, listing them
failed() {
	echo "FAIL (going on): $*"
	echo "$*" >> /tmp/failed.txt
}

trace_on() {  # trace_on EVENT...: only those, from an empty buffer
	echo 0 > $TR/tracing_on
	echo 0 > $TR/events/f2fs/enable 2>/dev/null || true
	echo > $TR/trace
	for _e in "$@"; do echo 1 > $TR/events/f2fs/"$_e"/enable; done
	echo 1 > $TR/tracing_on
}

# 1. A checkpoint whose own writes fail: only AREA fails writes.
cp_fail() {  # cp_fail M AREA
	fresh "$1"
	mkdir $F/a $F/b
	i=0
	while [ $i -lt 120 ]; do
		head -c $((i * 97 % 9000 + 1)) /dev/urandom > $F/a/f$i
		i=$((i + 1))
	done
	head -c 400000 /dev/urandom > $F/b/big
	ln -s a/f1 $F/b/link
	sync
	treesum -f $MAN $F > /tmp/cp.man
	[ "$1" = stock ] || trace_on f2fs_cp_end
	swap ewrite "$(area "$2")"
	# everything a checkpoint must write: new nids (NAT blocks, not just
	# the journal), blocks in many segments (SIT), overwrites, deletes
	mkdir $F/n
	i=0
	while [ $i -lt 150 ]; do echo "new $i" > $F/n/f$i; i=$((i + 1)); done
	head -c 3000000 /dev/urandom > $F/n/big
	i=1
	while [ $i -le 5 ]; do echo over > $F/a/f$i; rm $F/a/f$((i + 10)); i=$((i + 1)); done
	mv $F/b/big $F/n/moved
	rdonly && note "$1: $2: read-only before the syncfs: $(grep -o 'reason = [A-Z]*.*ret = -[0-9]*' $TR/trace | head -1)"
	# a writer with its descriptor opened before the failure: its data
	# can never be durable now, so syncfs or fsync must say so
	xfs_io -f -c "pwrite -q -S 0x5a 0 64k" -c syncfs -c fsync $F/n/held > /tmp/xio.txt 2>&1 || true
	note "$1: $2: xfs_io pwrite, syncfs, fsync: $(tr '\n' ' ' < /tmp/xio.txt)"
	if [ "$1" = ours ]; then
		grep -q '^syncfs: ' /tmp/xio.txt || rdonly ||
			fail "ours: $2: syncfs reported no error for the failed checkpoint"
		! grep '^syncfs: ' /tmp/xio.txt | grep -qv 'Input/output error' ||
			failed "ours: $2: a failed write, and syncfs says '$(grep '^syncfs: ' /tmp/xio.txt)' (want EIO)"
		# (when a checkpoint during the changes failed already, the
		# open for writing gets EROFS: then there is nothing to check)
		grep -q '^fsync: ' /tmp/xio.txt || grep -q 'Read-only file system' /tmp/xio.txt ||
			failed "ours: $2: fsync returned 0 after the checkpoint failed, for data that can never be durable"
		grep -o 'f2fs_cp_end:.*ret = -[0-9]*' $TR/trace | head -3
		rdonly || fail "ours: $2: not read-only after the checkpoint failed"
		_b=$(ksince | grep -o 'cannot write meta block [0-9]*' | head -1 | awk '{ print $5 }')
		[ -n "$_b" ] || fail "ours: $2: no failed meta block write in the kernel log"
		_r=$(area "$2")
		[ $((_b * 8)) -ge "${_r%:*}" ] && [ $((_b * 8)) -lt "${_r#*:}" ] ||
			fail "ours: $2: the failed meta block $_b is outside the $2 area ($_r sectors)"
		note "ours: $2: the checkpoint failed writing meta block $_b (in the $2 area), cp_errors $(stat_of cp_errors)"
	fi
	expect_err "$1" "$2: a write after the failure" sh -c "echo x > $F/late"
	kcheck "$1" "checkpoint, $2 area failing"
	# a remount without "ro" must not make the mount writable again
	# (the stock module stays read-write and answers EIO)
	if ! rdonly; then
		note "$1: $2: the mount is still read-write"
	elif mount -o remount,rw $F 2> /tmp/cmd.out && ! rdonly; then
		if [ "$1" = ours ]; then
			failed "ours: $2: remount,rw after the failed checkpoint made the mount writable again"
		else
			note "stock: $2: remount,rw after the failed checkpoint made the mount writable again"
		fi
		if (echo x > $F/late) 2>/dev/null; then note "$1: $2: and a create succeeded"; fi
	else
		note "$1: $2: remount,rw refused or read-only still: $(cat /tmp/cmd.out)"
	fi
	if ! (cd $F && md5sum a/* > /dev/null 2> /tmp/cmd.out); then
		head -3 /tmp/cmd.out
		[ "$1" = stock ] || fail "ours: $2: reads failed while only the $2 area fails writes"
		note "stock: $2: reads failed while only the $2 area fails writes"
	fi
	heal "$1" "checkpoint, $2 area failing" /tmp/cp.man checked
}

# 2. Cleaning with read errors, then with failing writes.  A 90%-full
# device, every other file deleted; in one segment only one file stays,
# so the cleaner picks that segment first; its blocks fail reads.
gc_fail() {  # gc_fail M
	fresh "$1" background_gc=off,nodiscard
	mkdir $F/g
	_n=$(($(df -k $F | awk 'NR == 2 { print $4 }') * 88 / 100 / 64))
	awk -v n="$_n" 'BEGIN { for (i = 0; i < n; i++) print 65536, "f" i }' > /tmp/names
	mknames /tmp/names $F/g 2> /dev/null || fail "$1: fill failed"
	sync
	i=0
	while [ $i -lt "$_n" ]; do rm $F/g/f$i; i=$((i + 2)); done
	sync
	# the segment of a file in the middle; delete its neighbours there
	_v=$((_n / 2 / 2 * 2 + 1))
	vf=$F/g/f$_v
	_sec=$(xfs_io -r -c fiemap "$vf" | awk 'NR == 2 { split($3, a, "[.]"); print a[1] }')
	[ -n "$_sec" ] || fail "$1: no FIEMAP extent for $vf"
	vseg=$(((_sec - MAIN) / 8 / 512))
	_del=0
	# files went to the data log in order: 32 to a segment
	for i in $(seq $((_v - 64)) 2 $((_v + 64))); do
		g=$F/g/f$i
		[ "$g" != "$vf" ] && [ -f "$g" ] || continue
		_s=$(xfs_io -r -c fiemap "$g" | awk 'NR == 2 { split($3, a, "[.]"); print a[1] }')
		[ $(((_s - MAIN) / 8 / 512)) != $vseg ] || { rm "$g"; _del=$((_del + 1)); }
	done
	sync
	sync
	treesum -f $MAN $F > /tmp/gc.man
	_ranges=$(xfs_io -r -c fiemap "$vf" | awk 'NR > 1 && $3 != "hole" { split($3, a, "[.]"); printf "%d:%d ", a[1], a[3] + 1 }')
	note "$1: $_n files of 64 KiB, half deleted; $(basename "$vf") alone in segment $vseg ($_del others deleted there), its sectors $_ranges fail"
	# shellcheck disable=SC2086
	swap eall $_ranges
	echo 3 > /proc/sys/vm/drop_caches
	# a walk: exactly that file fails, with EIO
	(cd $F/g && md5sum ./* > /tmp/walk.txt 2> /tmp/walk.err) || true
	grep -q 'Input/output error' /tmp/walk.err || { cat /tmp/walk.err; fail "$1: no EIO reading $vf"; }
	[ "$(wc -l < /tmp/walk.err)" = 1 ] || { cat /tmp/walk.err; fail "$1: reads other than $vf failed"; }
	note "$1: walk: $(wc -l < /tmp/walk.txt) files read, 1 EIO: $(cat /tmp/walk.err)"
	gc_run "$1" "read errors" "$vseg"
	swap ok
	echo 3 > /proc/sys/vm/drop_caches
	treesum -f $MAN $F > /tmp/got.man && cmp -s /tmp/gc.man /tmp/got.man ||
		{ diff /tmp/gc.man /tmp/got.man | head; [ "$1" = stock ] || fail "ours: after cleaning with read errors and healing, the tree changed"; note "stock: the tree changed"; }
	note "$1: healed in place, every file reads back unchanged"
	# the whole main area failing under a cold walk: errors, no crash
	echo 3 > /proc/sys/vm/drop_caches
	swap eall "$(area main)"
	_e=$( (ls -lR $F; awk -v d=$F/g '{ print d "/" substr($2, 3) }' /tmp/walk.txt | xargs cat) 2>&1 > /dev/null | grep -c 'Input/output error' || true)
	[ "$_e" -ge "$(wc -l < /tmp/walk.txt)" ] || fail "$1: a cold walk of $(wc -l < /tmp/walk.txt) files with the main area failing saw $_e EIO answers"
	note "$1: cold walk with the main area failing: $_e EIO answers"
	swap ok
	echo 3 > /proc/sys/vm/drop_caches
	treesum -f $MAN $F > /tmp/got.man && cmp -s /tmp/gc.man /tmp/got.man ||
		{ [ "$1" = stock ] || fail "ours: after the failed walk and healing, the tree reads differently"; note "stock: the tree reads differently"; }
	# writes fail while the cleaner moves blocks (ours: the background
	# thread, started while the device is healthy: a remount syncs)
	if [ "$1" = ours ]; then
		echo 200 > /sys/module/f2fs/parameters/bg_gc_min_ms
		echo 400 > /sys/module/f2fs/parameters/bg_gc_max_ms
		echo 200 > /sys/module/f2fs/parameters/bg_gc_idle_ms
		mount -o remount,background_gc=on $F || fail "remount background_gc=on"
		sync
	fi
	swap ewrite "$(area main)"
	gc_run "$1" "write errors"
	# (syncfs reports an error only to descriptors opened before it, and
	# a read-only mount has nothing to sync: either is the answer.  Not
	# busybox "sync -f": it ignores what syncfs returns.)
	_ro=$(rdonly && echo yes || echo no)
	xfs_io -r -c syncfs $F > /tmp/cmd.out 2>&1 || true
	if ! grep -q . /tmp/cmd.out; then
		[ "$_ro" = yes ] || [ "$1" = stock ] || failed "ours: syncfs returned 0 after GC's writes failed, on a writable mount"
		note "$1: cleaning with failing writes: read-only before the syncfs: $_ro; syncfs returned 0"
	else
		note "$1: cleaning with failing writes: read-only before the syncfs: $_ro; syncfs failed: $(cat /tmp/cmd.out)"
	fi
	[ "$1" = stock ] || rdonly || fail "ours: not read-only after GC's writes failed"
	heal "$1" "cleaning with failing writes" /tmp/gc.man
}
# gc_run M WHAT [SEGNO]: cleaning now.  Stock: two foreground passes
# through the GC ioctl (greedy: the emptiest segment first).  Ours has no
# GC ioctl: with SEGNO, new files are written until foreground cleaning
# (greedy) has picked SEGNO (SSR off, so that only cleaning makes room),
# then deleted again; without, until the background thread (every 200 ms,
# started by the caller) moved blocks (or 40 s).
gc_run() {
	if [ "$1" = stock ]; then
		_o=$(gcioctl fg $F 2 2>&1) || true
		note "stock: GC with $2: $_o"
		return 0
	fi
	trace_on f2fs_gc_victim f2fs_gc_end
	_m0=$(stat_of gc_data_moved)
	if [ -n "${3:-}" ]; then
		mkdir $F/w
		# no slack space recycling: new blocks need cleaned segments
		echo N > /sys/module/f2fs/parameters/ssr
		awk 'BEGIN { for (i = 0; i < 2000; i++) print 65536, "w" i }' > /tmp/wnames
		mknames /tmp/wnames $F/w 2> /tmp/w.err &
		_wp=$!
		_i=0
		while [ $_i -lt 400 ] && kill -0 $_wp 2>/dev/null; do
			grep -q "f2fs_gc_victim:.* segno = $3," $TR/trace && break
			sleep 0.1
			_i=$((_i + 1))
		done
		kill $_wp 2>/dev/null || true
		wait $_wp || true
		echo Y > /sys/module/f2fs/parameters/ssr
		note "ours: $(ls $F/w | wc -l) new files written: $(cat /tmp/w.err)"
		rm -rf $F/w
		sync
	else
		_i=0
		while [ $_i -lt 200 ] && [ "$(stat_of gc_data_moved)" = "$_m0" ] && ! rdonly; do
			sleep 0.2
			_i=$((_i + 1))
		done
		# (no remount to stop the thread: see cp_fail; a read-only
		# mount's cleaner does nothing)
	fi
	echo 0 > $TR/tracing_on
	grep -o 'f2fs_gc_[a-z]*:.*' $TR/trace | head -4 | cut -c1-160
	if [ -n "${3:-}" ]; then
		grep -q "f2fs_gc_victim:.* segno = $3," $TR/trace || fail "ours: GC did not pick segment $3 while $(wc -l < /tmp/wnames) new files were written"
	fi
	[ -z "${3:-}" ] || note "ours: segment $3 was picked $(grep -c "f2fs_gc_victim:.* segno = $3," $TR/trace) times"
	note "ours: GC with $2: $(grep -c f2fs_gc_victim: $TR/trace) victims, $(($(stat_of gc_data_moved) - _m0)) data blocks moved, read-only: $(rdonly && echo yes || echo no)"
}

# 3. A busy fsync loop; partway, all writes fail (ewrite) or vanish (dwrite).
fsync_fail() {  # fsync_fail M KIND
	fresh "$1"
	mkdir $F/d
	rm -rf /tmp/ref /tmp/stop
	mkdir /tmp/ref
	: > /tmp/ok.log
	: > /tmp/bad.log
	(
		i=0
		while [ ! -e /tmp/stop ] && [ $i -lt 400 ]; do
			head -c $(((i * 7919 + SEED) % 70000 + 1)) /dev/urandom > /tmp/ref/f$i
			if dd if=/tmp/ref/f$i of=$F/d/f$i bs=16k conv=fsync 2> /tmp/dd.err; then
				echo "f$i" >> /tmp/ok.log
			else
				echo "f$i $(grep -v records /tmp/dd.err | tail -1)" >> /tmp/bad.log
			fi
			i=$((i + 1))
		done
	) &
	_w=$!
	_k=$((10 + SEED % 30))
	while [ "$(wc -l < /tmp/ok.log)" -lt $_k ]; do sleep 0.1; done
	n0=$(wc -l < /tmp/ok.log)
	swap "$2" "$(area all)"
	_b=$(wc -l < /tmp/ok.log)
	while [ "$(($(wc -l < /tmp/ok.log) + $(wc -l < /tmp/bad.log)))" -lt $((_b + 25)) ]; do sleep 0.2; done
	touch /tmp/stop
	wait $_w
	note "$1: $2 after $n0 fsyncs had returned 0: $(wc -l < /tmp/ok.log) returned 0 in all, $(wc -l < /tmp/bad.log) failed"
	if [ "$2" = ewrite ]; then
		[ -s /tmp/bad.log ] || { [ "$1" = stock ] && note "stock: no fsync failed with every write failing"; } ||
			fail "ours: no fsync failed with every write failing"
		[ ! -s /tmp/bad.log ] || note "$1: first failure: $(head -1 /tmp/bad.log)"
		[ "$1" = stock ] || head -1 /tmp/bad.log | grep -q 'Input/output error' ||
			fail "ours: the first fsync to fail did not say EIO: $(head -1 /tmp/bad.log)"
		_must=$(wc -l < /tmp/ok.log)   # every fsync that returned 0
	else
		_must=$n0                      # those that returned before the drop
	fi
	umount $F 2>/dev/null || umount -l $F
	[ "$2" = dwrite ] || kcheck "$1" "fsync, $2"
	swap ok
	dmsetup remove mom || fail "dmsetup remove"
	kmark
	mount -t f2fs $V $F || fail "$1: $2: mount after healing failed"
	_bad=0 _later=0
	_j=0
	while read -r f; do
		_j=$((_j + 1))
		if [ -f $F/d/"$f" ] && cmp -s /tmp/ref/"$f" $F/d/"$f"; then continue; fi
		if [ $_j -le "$_must" ]; then
			_bad=$((_bad + 1))
			echo "  $f: fsync returned 0 (fsync $_j of $_must that must hold) but $([ -f $F/d/"$f" ] && echo differs || echo is missing)"
		else
			_later=$((_later + 1))
		fi
	done < /tmp/ok.log
	_extra=$(find $F/d -type f | wc -l)
	note "$1: $2: after healing, $(($(wc -l < /tmp/ok.log) - _bad - _later)) of $(wc -l < /tmp/ok.log) fsynced files verify ($_must had to); $_extra files present"
	if [ $_bad != 0 ]; then
		[ "$1" = stock ] || failed "ours: $2: $_bad files whose fsync returned 0 are lost or damaged (seed $SEED)"
		note "stock: $2: $_bad files whose fsync returned 0 are lost or damaged"
	fi
	umount $F
	fsck_clean $V
	mount -t f2fs $V $F && umount $F || fail "$1: remount after fsck failed"
}

if [ "$FULL" = 1 ]; then
	MODS="ours stock" AREAS="cp nat sit ssa"
else
	MODS=ours AREAS="cp nat"
fi
for m in $MODS; do
	for a in $AREAS; do cp_fail $m $a; done
	fsync_fail $m ewrite
	fsync_fail $m dwrite
	gc_fail $m
done
if [ "$FULL" != 1 ]; then
	cp_fail stock cp
	fsync_fail stock ewrite
	gc_fail stock
fi
note "done in $(($(cut -d. -f1 /proc/uptime) - t0)) s"
stock_unchanged $V
[ ! -s /tmp/failed.txt ] || fail "$(wc -l < /tmp/failed.txt) failures: $(tr '\n' ';' < /tmp/failed.txt)"
echo "PASS"
