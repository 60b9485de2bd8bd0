#!/bin/sh
# desc: fallocate (mode 0, KEEP_SIZE), punch hole and zero range, seeded random ops on three files, run on tmpfs, on our module and on the stock one: bytes and sizes equal tmpfs after every op; SEEK_DATA/SEEK_HOLE maps (xfs_io seek -a -r, after fsync) equal the stock module's after every op (within i_size) and tmpfs's for files never preallocated; fsck.f2fs clean after every phase; then the stock module modifies our image and ours the stock one (both verified the same way); FIEMAP and FIBMAP against a known layout and against the stock module's view of the same image; a dirty block in a preallocated range (SEEK_DATA, FIEMAP with and without sync); truncate to the same size frees blocks preallocated past EOF, as stock; EPERM on immutable and append-only files, as stock; ENOSPC up front on a nearly full device, and a reservation that fits is then written without ENOSPC; stock_unchanged at the end
# disks: 256M 256M 128M 128M
# timeout: 1500
#
# vda: ours (phases 1-3), then stock (phase 4); vdb: stock, then ours.
# vdc/vdd: ENOSPC, ours and stock.  Replay: GUEST_ARGS=seed=N.
# "ours" is the module under test: the stock one in an F2FS=stock run,
# which then checks the control against tmpfs and against itself.
set -eu
. /tests/lib.sh
UNDER=${F2FS_VARIANT:-ours}

SEED=$(test_seed)
REF=/tmp/ref
M=/mnt/f2fs
L=/tmp/logs
mkdir -p $REF $M $L
mount -t tmpfs -o size=200m tmpfs $REF

# --- the seeded op lists: one file per phase ----------------------------------
# Lines: w F OFF LEN PAT (pwrite) | a F OFF LEN k|- (falloc) | p F OFF LEN
# (fpunch) | z F OFF LEN k|- (fzero) | t F SIZE (truncate) | r F (rm).
# Offsets within 6 MiB, a third of them not block aligned.
gen_ops() {	# gen_ops SEED PHASE COUNT
	awk -v seed="$1" -v ph="$2" -v n="$3" 'BEGIN {
		srand(seed * 10 + ph)
		for (i = 0; i < n; i++) {
			f = "f" int(rand() * 3)
			off = int(rand() * 1536) * 4096
			if (rand() < 0.33) off += int(rand() * 4096)
			len = (1 + int(rand() * (rand() < 0.7 ? 64 : 400))) * 4096
			if (rand() < 0.33) len += int(rand() * 4096) - 2048
			k = rand() < 0.5 ? "k" : "-"
			r = rand()
			if (r < 0.30) printf "w %s %d %d 0x%02x\n", f, off, len, 1 + int(rand() * 254)
			else if (r < 0.48) printf "a %s %d %d %s\n", f, off, len, k
			else if (r < 0.70) printf "p %s %d %d\n", f, off, len
			else if (r < 0.85) printf "z %s %d %d %s\n", f, off, len, k
			else if (r < 0.96) printf "t %s %d\n", f, int(rand() * 1600) * 4096 + (rand() < 0.5 ? int(rand() * 4096) : 0)
			else printf "r %s\n", f
		}
	}'
}

# run_ops DIR OPS TAG REF: run the ops in DIR; after each op append to
# $L/TAG.bytes "N file size md5" and to $L/TAG.map "N map[T][P] file size
# <seek -a -r 0 after fsync>".  T: the file was preallocated or zeroed
# since it was created, so tmpfs's map is not comparable.  P: a punch with
# an unaligned end: the stock module then gives the partial block a block
# even in a hole (zeroing it as data), ours and tmpfs leave the hole, so
# the stock module's map is not comparable.  REF=1 on tmpfs,
# which has no FALLOC_FL_ZERO_RANGE: zero range is punch (+ falloc to
# extend the size), the same bytes.  Errors are logged as ERR lines.
run_ops() {
	_d=$1 _tag=$3 _ref=$4 _n=0
	while read -r op f a b c; do
		_n=$((_n + 1))
		_p=$_d/$f
		case $op in
		w) xfs_io -f -c "pwrite -q -S $c $a $b" "$_p" ;;
		a) xfs_io -f -c "falloc $([ "$c" = k ] && echo -k) $a $b" "$_p"
		   eval "taint_$f=1" ;;
		p) xfs_io -f -c "fpunch $a $b" "$_p"
		   [ $((a % 4096)) = 0 ] && [ $(((a + b) % 4096)) = 0 ] ||
			eval "part_$f=1" ;;
		z) if [ "$_ref" = 1 ]; then
			if [ "$c" = k ]; then xfs_io -f -c "fpunch $a $b" "$_p"
			else xfs_io -f -c "fpunch $a $b" -c "falloc $a $b" "$_p"; fi
		   else
			xfs_io -f -c "fzero $([ "$c" = k ] && echo -k) $a $b" "$_p"
		   fi
		   eval "taint_$f=1" ;;
		t) # Our truncate dirties a cached page over a hole, and our
		   # writeback gives it a block, where the stock module's
		   # writeback skips such a page (reported): drop the cache
		   # first so that the maps stay comparable.
		   sync
		   echo 3 > /proc/sys/vm/drop_caches
		   xfs_io -f -c "truncate $a" "$_p" ;;
		r) rm -f "$_p"; eval "taint_$f=0 part_$f=0" ;;
		*) fail "bad op line: $op $f" ;;
		esac 2> /tmp/op.err
		if [ -s /tmp/op.err ]; then
			echo "$_n ERR $op $f: $(sed "s|$_d/||g" /tmp/op.err | tr '\n' ' ')" >> "$L/$_tag.bytes"
		fi
		if [ -e "$_p" ]; then
			echo "$_n $f $(stat -c %s "$_p") $(md5sum < "$_p" | cut -d' ' -f1)" >> "$L/$_tag.bytes"
			_t=$(eval "echo \${taint_$f:-0}\${part_$f:-0}" | sed 's/^1/T/; s/1$/P/; s/0//g')
			echo "$_n map$_t $f $(stat -c %s "$_p") $(xfs_io -c fsync -c 'seek -a -r 0' "$_p" 2>&1 | tail -n +2 | tr '\t\n' ': ')" >> "$L/$_tag.map"
		else
			echo "$_n $f absent" >> "$L/$_tag.bytes"
		fi
	done < "$2"
}

# compare A B WHAT: two logs must be equal
compare() {
	if ! cmp -s "$1" "$2"; then
		diff "$1" "$2" | head -20 | cut -c1-300
		cp "$1" "$2" /host/ 2>/dev/null || true
		fail "$3: $(basename "$1") and $(basename "$2") differ (first lines above)"
	fi
}

# check_phase PH TAG MOD: bytes equal tmpfs's, untainted maps equal
# tmpfs's (for the stock module not those of P files, see run_ops)
check_phase() {
	_pat=' mapP? '
	[ "$3" = ours ] || _pat=' map '
	compare "$L/ref$1.bytes" "$L/$2.bytes" "phase $1, $2: bytes and sizes against tmpfs"
	grep -E "$_pat" "$L/ref$1.map" > /tmp/a.map || true
	grep -E "$_pat" "$L/$2.map" > /tmp/b.map || true
	compare /tmp/a.map /tmp/b.map "phase $1, $2: SEEK_DATA/SEEK_HOLE maps of never-preallocated files against tmpfs"
	note "phase $1, $2: $(wc -l < "$L/$2.bytes") states equal tmpfs's ($(wc -l < /tmp/b.map) maps too)"
}

PHASES="1 2 3"
for ph in $PHASES 4; do gen_ops "$SEED" "$ph" 14 > "$L/ops$ph"; done
notaint() { taint_f0=0 taint_f1=0 taint_f2=0 part_f0=0 part_f1=0 part_f2=0; }
# stock_maps TAG: the maps the stock module's must equal (no P files),
# within i_size: DATA offsets at or past i_size are dropped.  The stock
# module's SEEK_DATA scans a whole direct node, also past i_size, and
# returns what it finds there unclamped: after FALLOC_FL_ZERO_RANGE |
# KEEP_SIZE past EOF it has written the partial tail block as data, and
# SEEK_DATA from a hole inside i_size returns that block's offset, beyond
# i_size (POSIX and every other filesystem say ENXIO, as ours and tmpfs
# do).  That is the stock module's quirk, not a difference of layout; the
# comparison with tmpfs (check_phase) keeps the whole map.
stock_maps() {
	awk '$2 ~ /^mapT?$/ {
		line = $1 " " $2 " " $3 " " $4
		for (i = 5; i <= NF; i++) {
			if ($i ~ /^DATA:[0-9]+$/ && substr($i, 6) + 0 >= $4 + 0)
				continue
			line = line " " $i
		}
		print line
	}' "$L/$1.map"
}
notaint
for ph in $PHASES 4; do run_ops $REF "$L/ops$ph" "ref$ph" 1; done
cp $REF/* /tmp/ 2>/dev/null || true

# run_phases MOD DEV TAG PHASE...: the phases on DEV (made already), each
# followed by umount, fsck and mount
run_phases() {
	_rmod=$1 _rdev=$2 _rtag=$3
	shift 3
	use_module "$_rmod"
	mount -t f2fs "$_rdev" $M || fail "mount $_rdev ($_rmod) failed"
	for _ph in "$@"; do
		run_ops $M "$L/ops$_ph" "$_rtag$_ph" 0
		umount $M
		fsck_clean "$_rdev"
		mount -t f2fs "$_rdev" $M || fail "remount $_rdev ($_rmod) failed"
	done
	umount $M
}

mkfs.f2fs -q -f /dev/vda
mkfs.f2fs -q -f /dev/vdb
notaint
run_phases "$UNDER" /dev/vda ours $PHASES
notaint
run_phases stock /dev/vdb stock $PHASES
cp $L/ops* /host/ 2>/dev/null || true
for ph in $PHASES; do
	stock_maps "stock$ph" > /tmp/s.map
	stock_maps "ours$ph" > /tmp/o.map
	compare /tmp/s.map /tmp/o.map "phase $ph: SEEK_DATA/SEEK_HOLE maps, ours against stock"
	check_phase $ph ours$ph "$UNDER"
	check_phase $ph stock$ph stock
done
note "phases $PHASES: ours and stock give the same maps"

# --- phase 4: each module modifies the other's image --------------------------
# The taint state carries over from phase 3.
t0=$taint_f0 t1=$taint_f1 t2=$taint_f2 p0=$part_f0 p1=$part_f1 p2=$part_f2
run_phases stock /dev/vda x-stock 4
taint_f0=$t0 taint_f1=$t1 taint_f2=$t2 part_f0=$p0 part_f1=$p1 part_f2=$p2
run_phases "$UNDER" /dev/vdb x-ours 4
check_phase 4 x-stock4 stock
# vdb's files come from the stock module's phases 1-3: a P file carries the
# block stock gave a partial punch in a hole (seed 3469994767: f2's block
# 185, a hole on tmpfs), so its maps are not comparable with ours either.
check_phase 4 x-ours4 stock
stock_maps x-stock4 > /tmp/s.map
stock_maps x-ours4 > /tmp/o.map
compare /tmp/s.map /tmp/o.map "phase 4: maps, stock on our image against ours on stock's image"
note "phase 4: the stock module modified our image and ours the stock one, as on tmpfs"

# --- FIEMAP and FIBMAP against a known layout --------------------------------
use_module "$UNDER"
mount -t f2fs /dev/vda $M
F=$M/layout
rm -f $F
# blocks 0-255 data, 256-511 hole, 512-767 preallocated, 768-895 data,
# 896-1023 preallocated past EOF (KEEP_SIZE)
xfs_io -f -c "pwrite -q 0 1m" -c "falloc 2m 1m" -c "pwrite -q 3m 512k" \
	-c "falloc -k 3584k 512k" -c fsync $F 2> /tmp/op.err
[ ! -s /tmp/op.err ] || fail "layout: $(cat /tmp/op.err)"
xfs_io -c "fiemap -v" $F > $L/fiemap.ours
cat $L/fiemap.ours
# xfs_io fiemap -v: EXT: FILE-OFFSET BLOCK-RANGE TOTAL FLAGS (512-byte units)
# (0x1000 MERGED, 0x800 UNWRITTEN, 0x1 LAST)
# With alloc_mode=reuse a write that fills the data log's segment goes on
# in the first free segment, so one logical range may come back as two
# extents (CI at 45ff04a: [0..487] at 60952, [488..2047] at 49152).  The
# map is what is checked here, so logically adjacent extents of the same
# kind (flags but LAST) are joined first.
want="[0..2047]: 2048 0x1000;[2048..4095]: hole;[4096..6143]: 2048 0x1800;[6144..7167]: 1024 0x1000;[7168..8191]: 1024 0x1801;"
got=$(awk 'NR > 2 {
	r = $2; sub(/^\[/, "", r); sub(/\]:$/, "", r); split(r, a, /\.\./)
	if ($3 == "hole") { k = "hole"; len = 0; fl = "" }
	else { k = substr($5, 1, length($5) - 1); len = $4; fl = $5 }
	if (n && k == pk && a[1] == pe + 1) { pe = a[2]; plen += len; pfl = fl; next }
	if (n) emit()
	n = 1; ps = a[1]; pe = a[2]; pk = k; plen = len; pfl = fl
}
function emit() {
	if (pk == "hole") print "[" ps ".." pe "]: hole"
	else print "[" ps ".." pe "]:", plen, pfl
}
END { if (n) emit() }' $L/fiemap.ours | tr '\n' ';')
[ "$got" = "$want" ] || fail "fiemap of the known layout: got '$got', want '$want'"
# FIBMAP (filefrag -B) must give the data extents' block ranges fiemap gave
filefrag -B -e $F > $L/fibmap.ours 2>&1 || true
cat $L/fibmap.ours
fm_data=$(awk 'NR > 2 && $5 == "0x1000" { print $3 }' $L/fiemap.ours | tr '\n' ' ')
# filefrag -e: "N: LOGICAL.. END: PHYS.. END: LEN: ..." in 4 KiB blocks
fb_data=$(awk '$1 ~ /^[0-9]+:$/ { s = $4; e = $5; sub(/\.\./, "", s); sub(/:/, "", e); print s * 8 ".." (e + 1) * 8 - 1 }' $L/fibmap.ours | tr '\n' ' ')
note "fiemap data block ranges: $fm_data; FIBMAP: $fb_data"
[ -n "$fm_data" ] && [ "$fm_data" = "$fb_data" ] || fail "FIBMAP ranges '$fb_data' differ from fiemap's '$fm_data'"
umount $M
fsck_clean /dev/vda
# the stock module's view of the same image: the same extents
use_module stock
mount -t f2fs /dev/vda $M
xfs_io -r -c "fiemap -v" $F > $L/fiemap.stock
cat $L/fiemap.stock
compare $L/fiemap.stock $L/fiemap.ours "fiemap of the known layout, ours against stock"
# an inline file (our module moves inline data out when a file is opened
# for writing, so the stock module writes it): one DATA_INLINE |
# NOT_ALIGNED | LAST extent at the same byte as the stock module reports
echo small > $M/inl
umount $M
fsck_clean /dev/vda
mount -t f2fs -o ro /dev/vda $M
xfs_io -r -c "fiemap -v" $M/inl > $L/fiemap.inline.stock
umount $M
use_module "$UNDER"
mount -t f2fs /dev/vda $M
xfs_io -r -c "fiemap -v" $M/inl > $L/fiemap.inline
cat $L/fiemap.inline
umount $M
compare $L/fiemap.inline.stock $L/fiemap.inline "fiemap of an inline file, ours against stock"
awk 'NR == 3 { exit !($5 == "0x301") } END { if (NR != 3) exit 1 }' $L/fiemap.inline ||
	fail "fiemap of an inline file is not one extent with flags 0x301"
note "FIEMAP: known layout, FIBMAP, inline file: ours agrees with the stock module's"

# A block written into a preallocated range, not yet written back: data
# for SEEK_DATA, as on the stock module.  FIEMAP without FIEMAP_FLAG_SYNC
# (filefrag; the page is still dirty): ours says DELALLOC (the stock
# module's answer is shown, not required: it does not look at the page
# cache).  With FIEMAP_FLAG_SYNC (xfs_io fiemap always sets it) the block
# is written first: a data extent with an address, on both modules.
dirty_seek() {	# dirty_seek MOD TAG
	use_module "$1"
	mount -t f2fs /dev/vda $M
	rm -f $M/dirty
	xfs_io -f -c "falloc 0 1m" -c "pwrite -q 512k 4k" -c "seek -a -r 0" \
		$M/dirty > "$L/dirty.$2" 2>&1
	filefrag -v $M/dirty > "$L/dirty-nosync.$2" 2>&1
	xfs_io -c "fiemap -v" $M/dirty > "$L/dirty-sync.$2" 2>&1
	umount $M
	fsck_clean /dev/vda
}
dirty_seek stock stock
dirty_seek "$UNDER" ours
cat $L/dirty.ours $L/dirty-nosync.ours $L/dirty-sync.ours
compare $L/dirty.stock $L/dirty.ours "SEEK_DATA/SEEK_HOLE over a dirty block in a preallocated range, ours against stock"
grep -q "^DATA	524288$" $L/dirty.ours || fail "SEEK_DATA does not find the dirty block at 524288"
note "stock, FIEMAP without sync: $(awk '$1 ~ /^[0-9]+:$/ { printf "%s%s %s; ", $2, $3, $NF }' $L/dirty-nosync.stock)"
if [ "$UNDER" = ours ]; then
	awk '$2 == "128.." && $3 == "128:" && $NF ~ /delalloc/ { ok = 1 } END { exit !ok }' \
		$L/dirty-nosync.ours ||
		fail "FIEMAP without sync does not report the dirty block as delalloc"
fi
# xfs_io fiemap -v: ranges and flags must be the stock module's, and the
# written block has an address
awk 'NR > 2 { print $2, $NF }' $L/dirty-sync.stock > /tmp/s.map
awk 'NR > 2 { print $2, $NF }' $L/dirty-sync.ours > /tmp/o.map
compare /tmp/s.map /tmp/o.map "FIEMAP_FLAG_SYNC over a dirty block in a preallocated range, ours against stock"
grep -qE '\[1024\.\.1031\]: +[1-9][0-9]*\.\.[0-9]+ +8 0x1000$' $L/dirty-sync.ours ||
	fail "FIEMAP_FLAG_SYNC does not report the written block as data with an address"
note "a dirty block in a preallocated range: SEEK_DATA finds it as stock does; FIEMAP says delalloc, and with FIEMAP_FLAG_SYNC data as stock does"

# truncate(2) to the current size after a KEEP_SIZE preallocation past
# EOF: the stock module's truncate frees every block past i_size whenever
# the size does not grow, the same size too; ours must do the same
# (sectors before, after, and after a remount; bytes unchanged).
same_size() {	# same_size MOD TAG
	use_module "$1"
	mount -t f2fs /dev/vda $M
	rm -f $M/same
	xfs_io -f -c "pwrite -q -S 0x3c 0 66000" -c "falloc -k 66000 1m" -c fsync \
		$M/same 2> /tmp/op.err
	_b0=$(stat -c %b $M/same)
	xfs_io -c "truncate 66000" -c fsync $M/same 2>> /tmp/op.err
	[ ! -s /tmp/op.err ] || fail "$2: same-size truncate: $(cat /tmp/op.err)"
	_b1=$(stat -c %b $M/same)
	umount $M
	fsck_clean /dev/vda
	mount -t f2fs /dev/vda $M
	echo "$_b0 $_b1 $(stat -c '%b %s' $M/same) $(md5sum < $M/same | cut -d' ' -f1)" > "$L/same.$2"
	umount $M
	note "$2: same-size truncate after KEEP_SIZE: sectors, size, md5: $(cat "$L/same.$2")"
}
same_size stock stock
same_size "$UNDER" ours
compare $L/same.stock $L/same.ours "blocks after a same-size truncate past a KEEP_SIZE preallocation, ours against stock"
read -r _b0 _b1 _rest < $L/same.ours
[ "$_b0" -gt "$_b1" ] || fail "the same-size truncate freed nothing ($_b0 -> $_b1 sectors, $_rest): the check proves nothing"

# fallocate on an immutable or append-only file, through a descriptor
# opened before the flag (xfs_io's chattr sets it through FS_IOC_FSSETXATTR):
# immutable refuses every mode, append-only all but a reservation (EPERM),
# as the stock module; the bytes stay (mode 0 on the append-only file
# grows it: the size after each op is compared with stock's too).
flag_ops() {	# flag_ops MOD TAG
	use_module "$1"
	mount -t f2fs /dev/vda $M
	rm -f $M/flg
	xfs_io -f -c "pwrite -q -S 0x77 0 64k" -c fsync $M/flg
	_md=$(md5sum < $M/flg)
	_head() { head -c 65536 $M/flg | md5sum; }
	: > "$L/flags.$2"
	for _fl in i a; do
		for _op in "falloc 64k 64k" "falloc -k 128k 64k" "fpunch 0 4k" \
			   "fzero 0 4k" "fzero -k 0 4k" "fcollapse 0 4k" "finsert 0 4k"; do
			xfs_io -c "chattr +$_fl" -c "$_op" -c "chattr -$_fl" $M/flg \
				> /tmp/op.out 2>&1 || true
			echo "+$_fl $_op: $(tr '\n' ' ' < /tmp/op.out) size $(stat -c %s $M/flg)" >> "$L/flags.$2"
		done
	done
	[ "$(_head)" = "$_md" ] || fail "$2: fallocate changed the bytes of a file while it was immutable or append-only"
	umount $M
	fsck_clean /dev/vda
}
flag_ops stock stock
flag_ops "$UNDER" ours
cat $L/flags.ours
compare $L/flags.stock $L/flags.ours "fallocate on immutable and append-only files, ours against stock"
[ "$(grep -c '^+i .*Operation not permitted' $L/flags.ours)" = 7 ] ||
	fail "immutable: not every fallocate mode gave EPERM"
[ "$(grep -c '^+a .*Operation not permitted' $L/flags.ours)" = 5 ] &&
	! grep -q '^+a falloc.*Operation not permitted' $L/flags.ours ||
	fail "append-only: punch, zero, collapse and insert must give EPERM, reservations not"
note "fallocate on immutable and append-only files: EPERM as on stock"

# --- ENOSPC up front ----------------------------------------------------------
# enospc MOD DEV TAG: fill to a few MiB free, preallocate more than that
# (must fail with ENOSPC, size covering what was reserved), then a
# preallocation that fits is written entirely without ENOSPC.
enospc() {
	use_module "$1"
	mkfs.f2fs -q -f "$2"
	mount -t f2fs "$2" $M
	_free=$(df -k $M | awk 'NR == 2 { print $4 }')
	head -c $(((_free - 6144) * 1024)) /dev/zero > $M/fill 2>/dev/null || true
	sync
	_free=$(df -k $M | awk 'NR == 2 { print $4 }')
	note "$3: $_free KiB free after the fill"
	xfs_io -f -c "falloc 0 $(((_free + 4096) * 1024))" $M/big 2> /tmp/op.err || true
	grep -q 'No space left' /tmp/op.err || fail "$3: fallocate of more than the free space: '$(cat /tmp/op.err)', not ENOSPC"
	_sz=$(stat -c %s $M/big)
	_bl=$(stat -c %b $M/big)
	note "$3: ENOSPC up front; size $_sz, $_bl sectors reserved"
	echo "$_sz $_bl" > "$L/enospc.$3"
	[ "$_sz" -le $((_bl * 512)) ] || fail "$3: i_size $_sz beyond the $_bl reserved sectors"
	rm $M/big
	sync
	_free=$(df -k $M | awk 'NR == 2 { print $4 }')
	_want=$(((_free - 1024) / 4 * 4))
	xfs_io -f -c "falloc 0 ${_want}k" $M/fit 2> /tmp/op.err
	[ ! -s /tmp/op.err ] || fail "$3: fallocate of ${_want} KiB with $_free KiB free: $(cat /tmp/op.err)"
	_after=$(df -k $M | awk 'NR == 2 { print $4 }')
	[ $((_free - _after)) -ge "$_want" ] || fail "$3: df went from $_free to $_after KiB free after reserving $_want KiB"
	xfs_io -c "pwrite -q -S 0x5a 0 ${_want}k" -c fsync $M/fit 2> /tmp/op.err
	[ ! -s /tmp/op.err ] || fail "$3: writing the preallocated ${_want} KiB failed: $(cat /tmp/op.err)"
	head -c $((_want * 1024)) /dev/zero | tr '\0' 'Z' | md5sum > /tmp/want.md5
	md5sum < $M/fit > /tmp/got.md5
	cmp -s /tmp/want.md5 /tmp/got.md5 || fail "$3: the preallocated file reads back wrong"
	umount $M
	fsck_clean "$2"
	note "$3: a reservation of $_want KiB that fits was written in full"
}
enospc "$UNDER" /dev/vdc ours
enospc stock /dev/vdd stock
compare $L/enospc.stock $L/enospc.ours "size and blocks after an ENOSPC fallocate, ours against stock (same device, same fill)"

use_module "$UNDER"
stock_unchanged /dev/vda falloc-x-stock
stock_unchanged /dev/vdb falloc-x-ours
stock_unchanged /dev/vdc falloc-enospc
echo "PASS: fallocate/punch/zero/seek/fiemap"
