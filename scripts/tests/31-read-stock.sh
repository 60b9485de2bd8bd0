#!/bin/sh
# desc: read what the stock module writes: the stock f2fs copies a tree (owners, ns times, devices, FIFOs, sockets, hard links, symlinks, holes, data at 1-20 GiB up to the double-indirect node) in twice, with default options and with noinline_data,noinline_dentry, plus a 50,000-entry directory (1-255 byte names); our module must give the host's manifest exactly, the stock module's view of every attribute, the same getdents listings with 1-entry, 64-byte and 32 KiB buffers and after seekdir, and leave both images byte-identical and fsck-clean
# disks: 640M 320M 256M
# prep: 31-read-stock.prep
# timeout: 1500
# mem: 2G
#
# The timeout is for the debug kernel (x4): its 600,000-call getdents
# loops under KASAN and lockdep took 470 s each there, and the test ran
# past 3,600 s (it takes 230-330 s on Debian's kernel).
#
# vda: written by the stock module with default options (tree, huge, bigdir)
# vdb: written by the stock module with noinline_data,noinline_dentry (tree,
#      huge)
# vdc: the ext4 source image made on the host (tree, huge); bigdir is made
#      by mknames from /work/bigdir.list.
set -eu
. /tests/lib.sh

UNDER=${F2FS_VARIANT:-ours}	# module under test (stock in an F2FS=stock run)
A=/mnt/a B=/mnt/b SRC=/mnt/src R=/tmp/r
S=$R/stock T=$R/test		# file prefixes: the stock module's view, the tested one's
# treesum fields.  Columns of an ALL manifest: 1 path 2 type 3 mode 4 uid
# 5 gid 6 nlink 7 size 8 blocks 9 mtime 10 atime 11 ctime 12 link 13 content
ALL=type,mode,uid,gid,nlink,size,blocks,mtime,atime,ctime,link,content
STAT=type,mode,uid,gid,nlink,size,blocks,mtime,atime,ctime,link
HOSTSTAT=type,mode,uid,gid,nlink,size,mtime,link
BAD=""

now() { cut -d' ' -f1 /proc/uptime; }
T0=$(now)
lap() { note "[$(awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')s] $*"; }
# bad WHAT: record a failure and go on collecting evidence
bad() { echo "FAIL: $*"; BAD="${BAD:+$BAD; }$*"; }
# same REF GOT WHAT: the files must be identical (else a diff, copies in /host)
same() {
	if ! cmp -s "$1" "$2"; then
		cp "$1" "/host/$(basename "$1").ref" 2>/dev/null || true
		cp "$2" "/host/$(basename "$2")" 2>/dev/null || true
		diff "$1" "$2" | head -20 | cut -c1-200
		bad "$3"
	fi
}
# writes DEV: write, discard and flush requests the block layer saw on DEV
writes() { awk '{ print $5 + $12 + $16 }' "/sys/block/$1/stat"; }
# regions DIR OUT: md5 of every range listed in huge.regions, read with dd
regions() {
	while read -r f o l _; do
		s=$(dd if="$1/$f" bs=65536 skip="$o" count="$l" iflag=skip_bytes,count_bytes 2>/dev/null |
			md5sum | cut -d' ' -f1)
		echo "$f $o $l $s"
	done < $R/huge.regions > "$2"
}
# tartime DIR LABEL MODULE: cold reads (caches dropped) of DIR/tree, then
# of DIR/bigdir, with tar; "NAME BYTES" lines go to $R/tar-LABEL
tartime() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for t in tree bigdir; do
		s=$(now)
		n=$(cd "$1" && tar cf - "$t" 2>/dev/null | wc -c)
		awk -v a="$s" -v b="$(now)" -v n="$n" -v l="$3" -v t="$t" \
			'BEGIN { printf "note: cold tar of %s (%d bytes) with the %s module: %.1f s\n", t, n, l, b - a }' >&2
		echo "$t $n"
	done > "$R/tar-$2"
}
# dtypes ROOT: "path<TAB>type" for every entry below ROOT, from getdents
# d_type, listing each directory with one entry per call and reopening it at
# the last d_off after every entry (inline and regular dentry blocks alike)
dtypes() {
	(cd "$1" && find . -type d | while read -r d; do
		echo "@ ${d#./}"
		getdents-small -r 1 "$d" 0 2>/dev/null || echo "FAIL: getdents-small -r 1 $1/$d 0 failed" >&2
	done | awk '
		BEGIN { split("p c ? d ? b ? f ? l ? s", t, " ") }
		$1 == "@" { d = ($2 == "." ? "" : $2 "/"); next }
		$3 != "." && $3 != ".." {
			name = $0; sub(/^[0-9]+ [0-9]+ /, "", name)
			printf "%s%s\t%s\n", d, name, ($2 >= 1 && $2 <= 12 ? t[$2] : "?" $2)
		}') | sort
}

mkdir -p $A $B $SRC $R
for f in host-tree.man host-huge.man host-bigdir.man huge.regions bigdir.list; do
	[ -s "/work/$f" ] || fail "/work/$f missing (prep)"
	cp "/work/$f" $R/
done
note "prep: $(cat /work/params)"

# ---- the source: the ext4 image must hold what the host made --------------
modprobe ext4 || fail "no ext4 module"
mount -t ext4 -o ro,noatime /dev/vdc $SRC || fail "cannot mount the ext4 source"
cut -f1-9 $R/host-tree.man > $R/host-tree.stat
treesum -f $HOSTSTAT $SRC/tree > $R/src-tree.stat || fail "treesum of the source"
treesum -f $HOSTSTAT $SRC/huge > $R/src-huge.stat || fail "treesum of the source"
if ! cmp -s $R/host-tree.stat $R/src-tree.stat || ! cmp -s $R/host-huge.man $R/src-huge.stat; then
	diff $R/host-tree.stat $R/src-tree.stat | head
	diff $R/host-huge.man $R/src-huge.stat | head
	fail "the ext4 source image does not hold the host's tree (harness problem)"
fi
lap "ext4 source holds the host's tree: $(wc -l < $R/host-tree.stat) entries, $(wc -l < $R/host-huge.man) huge files"

# ---- the stock module writes ------------------------------------------------
use_module stock
mkfs.f2fs -q -f /dev/vda > /dev/null
mkfs.f2fs -q -f /dev/vdb > /dev/null
mount -t f2fs /dev/vda $A || fail "stock mount of vda"
mount -t f2fs -o noinline_data,noinline_dentry /dev/vdb $B || fail "stock mount of vdb"
grep " $B " /proc/mounts | grep -q noinline_data || fail "vdb not mounted noinline_data"
grep " $B " /proc/mounts | grep -q noinline_dentry || fail "vdb not mounted noinline_dentry"
for m in $A $B; do
	mkdir "$m/tree" "$m/huge"
	treecopy $SRC/tree "$m/tree" || fail "stock: copy of the tree into $m failed"
	treecopy $SRC/huge "$m/huge" || fail "stock: copy of the huge files into $m failed"
done
lap "the stock module copied the tree in twice"
mkdir $A/bigdir
mknames $R/bigdir.list $A/bigdir || fail "stock: creating bigdir failed"
lap "the stock module made bigdir"
df -k $A $B | sed 's/^/  /'
umount $A
umount $B
umount $SRC
fsck_clean /dev/vda
fsck_clean /dev/vdb
lap "fsck after the stock writes"

# ---- the stock module's view: what the host cannot know (blocks, ctime) ----
mount -t f2fs -o ro /dev/vda $A || fail "stock ro mount of vda"
mount -t f2fs -o ro /dev/vdb $B || fail "stock ro mount of vdb"
tartime $A stock stock
for d in a b; do
	m=/mnt/$d
	treesum -f $STAT "$m/tree" > "$S-$d-tree.stat" || bad "stock: treesum $m/tree"
	treesum -f $STAT "$m/huge" > "$S-$d-huge.stat" || bad "stock: treesum $m/huge"
	cut -f1-7,9,12 "$S-$d-tree.stat" > "$S-$d-tree.host"
	same $R/host-tree.stat "$S-$d-tree.host" "stock: attributes in $m/tree differ from the host's (copy problem)"
	regions "$m/huge" "$S-$d.regions"
	same $R/huge.regions "$S-$d.regions" "stock: ranges of the huge files in $m differ from the host's (copy problem)"
done
# The premise: vda has inline data and dentries, vdb has none.  Inline
# files and directories take fewer blocks (st_blocks) than the same ones
# on vdb.
inl=$(paste "$S-a-tree.stat" "$S-b-tree.stat" | awk -F'\t' '
	$1 == $13 && $2 ~ /^[fd]$/ && $8 < $20 { n[$2]++ }
	END { printf "%d %d", n["f"], n["d"] }')
note "files, directories with fewer blocks on vda than on vdb (inline): $inl"
case $inl in 0\ *|*\ 0) bad "stock: vda and vdb do not differ in inline files and directories (test premise)" ;; esac
treesum -f $STAT $A/bigdir > "$S-bigdir.stat" || bad "stock: treesum $A/bigdir"
getdents-small $A/bigdir 32768 > "$S-gd.txt" 2>/dev/null || bad "stock: getdents of bigdir"
sort "$S-gd.txt" > "$S-gd.sorted"
umount $A
umount $B
lap "the stock module's view recorded"
[ -z "$BAD" ] || fail "the stock-written images are not what the host made: $BAD"

sum_a=$(sumdev /dev/vda)
sum_b=$(sumdev /dev/vdb)
w_a=$(writes vda)
w_b=$(writes vdb)
lap "checksums of both images"

# ---- the module under test reads ---------------------------------------------
use_module "$UNDER"
mount -t f2fs -o ro /dev/vda $A || fail "$UNDER: mount of the stock-written vda failed"
mount -t f2fs -o ro /dev/vdb $B || fail "$UNDER: mount of the stock-written vdb failed"
tartime $A test "$UNDER"
same $R/tar-stock $R/tar-test "$UNDER: tar reads other byte counts than with the stock module"
cut -f1,2 $R/host-tree.man | sort > $R/host.dtypes
for d in a b; do
	m=/mnt/$d
	treesum -f $ALL "$m/tree" > "$T-$d-tree.all" || bad "$UNDER: treesum $m/tree reported errors"
	cut -f1-7,9,12,13 "$T-$d-tree.all" > "$T-$d-tree.man"
	same $R/host-tree.man "$T-$d-tree.man" "$UNDER: $m/tree differs from the host's manifest"
	cut -f1-12 "$T-$d-tree.all" > "$T-$d-tree.stat"
	same "$S-$d-tree.stat" "$T-$d-tree.stat" "$UNDER: $m/tree attributes differ from the stock module's"
	treesum -f $STAT "$m/huge" > "$T-$d-huge.stat" || bad "$UNDER: treesum $m/huge reported errors"
	cut -f1-7,9,12 "$T-$d-huge.stat" > "$T-$d-huge.man"
	same $R/host-huge.man "$T-$d-huge.man" "$UNDER: $m/huge differs from the host's manifest"
	same "$S-$d-huge.stat" "$T-$d-huge.stat" "$UNDER: $m/huge attributes differ from the stock module's"
	regions "$m/huge" "$T-$d.regions"
	same $R/huge.regions "$T-$d.regions" "$UNDER: ranges of the huge files in $m differ from the host's"
	dtypes "$m/tree" > "$T-$d.dtypes"
	same $R/host.dtypes "$T-$d.dtypes" "$UNDER: getdents d_type in $m/tree differs from the file types"
	lap "$m: tree ($(wc -l < $R/host-tree.man) entries), huge files and d_types checked"
done
note "huge files on vda (path, size, st_blocks): $(cut -f1,7,8 "$T-a-huge.stat" | tr '\t\n' ' ;')"
# mmap(2) reads, inline data included (vda)
treesum -M -f type,size,content $A/tree > "$T-a-mmap.man" || bad "$UNDER: treesum -M $A/tree reported errors"
cut -f1,2,7,10 $R/host-tree.man > $R/host-tree.content
same $R/host-tree.content "$T-a-mmap.man" "$UNDER: mmap reads of $A/tree differ from the host's content"
lap "$A/tree read through mmap"

# bigdir: attributes, then listings with every buffer size
treesum -f $ALL $A/bigdir > "$T-bigdir.all" || bad "$UNDER: treesum $A/bigdir reported errors"
cut -f1-7,12,13 "$T-bigdir.all" > "$T-bigdir.man"
same $R/host-bigdir.man "$T-bigdir.man" "$UNDER: bigdir differs from the host's list"
cut -f1-12 "$T-bigdir.all" > "$T-bigdir.stat"
same "$S-bigdir.stat" "$T-bigdir.stat" "$UNDER: bigdir attributes differ from the stock module's"
cut -f1 $R/host-bigdir.man | { echo .; echo ..; cat; } | sort > $R/host-bigdir.names
n_big=$(wc -l < $R/host-bigdir.names)
# shellcheck disable=SC2012  # ls on purpose: another readdir user
ls -a1 $A/bigdir | sort > "$T-ls.names"
same $R/host-bigdir.names "$T-ls.names" "$UNDER: ls -a $A/bigdir differs from the host's names"
lap "bigdir ($((n_big - 2)) entries) attributes checked"
for run in 32768 64 0 r1 r97; do
	case $run in
	64) args="-g $A/bigdir 64" ;;		# 64 bytes, more for a long name
	0) args="$A/bigdir 0" ;;		# exactly one entry per call
	r1) args="-r 1 -g $A/bigdir 64" ;;	# reopen + lseek(d_off) after every entry
	r97) args="-r 97 $A/bigdir 32768" ;;	# ... after every 97th
	*) args="$A/bigdir $run" ;;
	esac
	# shellcheck disable=SC2086
	getdents-small $args > "$T-gd-$run.txt" 2> "$T-gd-$run.err" || bad "$UNDER: getdents-small $args failed: $(cat "$T-gd-$run.err")"
	n=$(wc -l < "$T-gd-$run.txt")
	cut -d' ' -f3- "$T-gd-$run.txt" | sort > "$T-gd-$run.names"
	dups=$(uniq -d "$T-gd-$run.names" | wc -l)
	lap "getdents-small $args: $n entries, $dups duplicate names, $(tail -n1 "$T-gd-$run.err")"
	if [ "$n" != "$n_big" ] || [ "$dups" != 0 ]; then
		bad "$UNDER: getdents-small $args: $n entries ($n_big expected), $dups duplicates"
	fi
	same $R/host-bigdir.names "$T-gd-$run.names" "$UNDER: getdents-small $args names differ from the host's"
	sort "$T-gd-$run.txt" > "$T-gd-$run.sorted"
	same "$S-gd.sorted" "$T-gd-$run.sorted" "$UNDER: getdents-small $args inode/type/name set differs from the stock module's"
	[ "$run" = 32768 ] || same "$T-gd-32768.txt" "$T-gd-$run.txt" "$UNDER: getdents-small $args order differs from the 32 KiB listing"
done
cmp -s "$S-gd.txt" "$T-gd-32768.txt" || note "the order of bigdir entries differs from the stock module's (not an error)"
umount $A
umount $B

# ---- the images are unchanged and clean -----------------------------------
[ "$(writes vda)" = "$w_a" ] || bad "$UNDER: the block layer saw $(($(writes vda) - w_a)) write requests on vda"
[ "$(writes vdb)" = "$w_b" ] || bad "$UNDER: the block layer saw $(($(writes vdb) - w_b)) write requests on vdb"
[ "$(sumdev /dev/vda)" = "$sum_a" ] || bad "$UNDER: the image on vda changed"
[ "$(sumdev /dev/vdb)" = "$sum_b" ] || bad "$UNDER: the image on vdb changed"
fsck_clean /dev/vda
fsck_clean /dev/vdb
lap "images unchanged and fsck-clean"
[ -z "$BAD" ] || fail "$BAD"
