#!/bin/sh
# desc: inline data and inline dentries (issues 16, 17), on by default as in stock: small files, symlinks and small directories written by our module live in their inode blocks (dump.f2fs shows the inline flags, and no data block is used); files cross the 3,488-byte limit by append, by a write past it, by truncate up, by a shared mapping and by fallocate, and shrink back by truncate, each step against a tmpfs reference; directories outgrow their inline dentries; a seeded randops run over inline-sized files; a copy of the device taken after fsyncs of inline files recovers every fsynced content; the stock module reads and changes what ours wrote and ours what stock wrote (both ways, fsck clean); noinline_data,noinline_dentry give block-based files again and round-trip through /proc/mounts and remount
# disks: 256M 256M
# timeout: 600
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
REF=/tmp/ref
SEED=$(test_seed)
sum() { md5sum < "$1" | cut -d' ' -f1; }
ino_of() { stat -c %i "$1"; }
# iflags DEV INO: the inode's i_inline byte, by dump.f2fs (DEV unmounted)
iflags() { dump.f2fs -i "$2" "$1" 2>/dev/null </dev/null | awk '/i_inline/ { gsub(/[^0-9a-fx]/, "", $NF); print $NF; exit }'; }
has_flag() {  # has_flag DEV INO BIT LABEL yes|no
	_f=$(iflags "$1" "$2")
	[ -n "$_f" ] || fail "dump.f2fs gave no i_inline for inode $2 ($4)"
	_v=$(( _f & $3 ))
	if [ "$5" = yes ] && [ "$_v" = 0 ]; then fail "$4: inode $2 lacks inline flag $3 (i_inline $_f)"; fi
	if [ "$5" = no ] && [ "$_v" != 0 ]; then fail "$4: inode $2 has inline flag $3 (i_inline $_f)"; fi
	return 0
}
# iblocks DEV INO: the on-disk i_blocks (4 KiB blocks, the inode's own
# included), as dump.f2fs prints it
iblocks() { dump.f2fs -i "$2" "$1" 2>/dev/null </dev/null | awk '/i_blocks/ { gsub(/[^0-9a-fx]/, "", $NF); print $NF; exit }'; }

mkfs.f2fs -q -f /dev/vda > /dev/null
mkdir -p $MNT $REF
mount -t tmpfs tmpfs $REF
mount -t f2fs /dev/vda $MNT
grep -q ',inline_data,inline_dentry' /proc/mounts || fail "defaults: $(grep f2fs /proc/mounts)"

# ---- 1. small objects stay in their inode blocks
for n in 0 1 100 1000 3000 3487 3488 3489; do head -c $n /dev/urandom > /tmp/data.$n; done
for d in $REF $MNT; do
	mkdir "$d/small"
	for n in 0 1 100 1000 3000 3487 3488; do cp /tmp/data.$n "$d/small/f$n"; done
	cp /tmp/data.3489 "$d/small/big-3489"
	ln -s short-target "$d/small/lnk"
	ln -s "$(head -c 3000 /dev/zero | tr '\0' x)" "$d/small/longlnk"
	mkdir "$d/small/dir"
	for k in 1 2 3 4 5; do : > "$d/small/dir/e$k"; done
done
INOS=""
for f in f0 f1 f100 f1000 f3000 f3487 f3488 lnk longlnk dir big-3489; do
	INOS="$INOS $f=$(ino_of $MNT/small/$f)"
done
treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man
same_tree /tmp/ref.man $MNT "small objects, cached"
umount $MNT
fsck_clean /dev/vda
for kv in $INOS; do
	f=${kv%%=*}
	i=${kv#*=}
	case $f in
	dir)      has_flag /dev/vda "$i" 4 "directory with 5 entries" yes ;;
	big-3489) has_flag /dev/vda "$i" 2 "3489-byte file" no ;;
	*)        has_flag /dev/vda "$i" 2 "$f" yes
		  b=$(iblocks /dev/vda "$i")
		  [ "$b" = 1 ] || fail "$f: i_blocks $b: inline data must use no data block" ;;
	esac
	case $f in f1|f100|f1000|f3000|f3487|f3488) has_flag /dev/vda "$i" 8 "$f data exists" yes ;; esac
done
note "small files, symlinks and a small directory are inline on disk; 3489 bytes is not"
mount -t f2fs /dev/vda $MNT
same_tree /tmp/ref.man $MNT "small objects, after remount"

# ---- 2. crossing the limit, both ways, against the reference
step() {  # step LABEL CMD...: run "CMD DIR" on both, compare the file
	_l=$1
	shift
	for _d in $REF $MNT; do "$@" "$_d" || fail "$_l on $_d"; done
	[ "$(sum $REF/grow/f)" = "$(sum $MNT/grow/f)" ] || fail "$_l: content differs"
	[ "$(stat -c %s $REF/grow/f)" = "$(stat -c %s $MNT/grow/f)" ] || fail "$_l: size differs"
}
mk()     { mkdir -p "$1/grow"; head -c 2000 /tmp/data.3000 > "$1/grow/f"; }
app()    { head -c 1000 /tmp/data.1000 >> "$1/grow/f"; }
trunc()  { truncate -s "$T" "$1/grow/f"; }
pwr()    { printf 'XYZ' | dd of="$1/grow/f" bs=1 seek="$O" conv=notrunc 2>/dev/null; }
mm()     { mmapwrite "$1/grow/f" 10 500 "$SEED" > /dev/null; }
fal()    { xfs_io -c "falloc -k 0 4096" "$1/grow/f" > /dev/null; }
step "create 2000 bytes" mk
step "append to 3000" app
step "append to 4000 (past the limit)" app
T=100;  step "truncate to 100" trunc
T=3400; step "truncate up to 3400" trunc
O=3000; step "write inside" pwr
T=0;    step "truncate to 0" trunc
O=3487; step "write the last inline byte" pwr
O=9000; step "write past the limit" pwr
sync
rm $MNT/grow/f $REF/grow/f
step "new 2000-byte file" mk
step "shared mapping write" mm
rm $MNT/grow/f $REF/grow/f
step "new 2000-byte file" mk
step "fallocate keep-size" fal
rm $MNT/grow/f $REF/grow/f
step "new 2000-byte file" mk
T=3488; step "truncate up to the limit" trunc
T=3489; step "truncate up past the limit" trunc
# directories outgrow their inline dentries (about 180 slots)
for d in $REF $MNT; do
	mkdir "$d/grow/dir"
	i=0
	while [ $i -lt 300 ]; do : > "$d/grow/dir/entry-with-a-longer-name-$i"; i=$((i + 1)); done
	i=0
	while [ $i -lt 300 ]; do rm "$d/grow/dir/entry-with-a-longer-name-$i"; i=$((i + 2)); done
done
dino=$(ino_of $MNT/grow/dir)
treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man
same_tree /tmp/ref.man $MNT "after the limit crossings"
umount $MNT
fsck_clean /dev/vda
has_flag /dev/vda "$dino" 4 "directory of 300 entries" no
mount -t f2fs /dev/vda $MNT
same_tree /tmp/ref.man $MNT "limit crossings, after remount"

# ---- 3. a seeded random mix, with many inline-sized files
mkdir $MNT/rand $REF/rand
randops $REF/rand "$SEED" 1500 > /tmp/randops.ref || { cat /tmp/randops.ref; fail "randops on tmpfs"; }
randops $MNT/rand "$SEED" 1500 > /tmp/randops.f2fs || { cat /tmp/randops.f2fs; fail "randops on f2fs"; }
note "randops: $(tail -1 /tmp/randops.f2fs)"
treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man
same_tree /tmp/ref.man $MNT "randops, cached"
umount $MNT
fsck_clean /dev/vda
mount -t f2fs /dev/vda $MNT
same_tree /tmp/ref.man $MNT "randops, after remount"

# ---- 4. fsync of inline files, then a crash image (copy of the device)
mkdir $MNT/fs $REF/fs
# in the checkpoint: an empty inline file and one holding 1000 bytes; both
# then grow past the limit (the empty one's move needs no checkpoint: its
# record replaces the inline inode)
for d in $MNT $REF; do : > "$d/fs/empty"; cp /tmp/data.1000 "$d/fs/full"; done
sync
for d in $MNT $REF; do cat /tmp/data.3000 /tmp/data.3000 /tmp/data.3000 > "$d/fs/empty"; done
xfs_io -c fsync $MNT/fs/empty
for d in $MNT $REF; do cat /tmp/data.3000 /tmp/data.3000 >> "$d/fs/full"; done
xfs_io -c fsync $MNT/fs/full
for n in 1 100 1000 3000 3488; do
	for d in $MNT $REF; do cp /tmp/data.$n "$d/fs/new-$n"; done
	xfs_io -c fsync $MNT/fs/new-$n
done
# an old file changed in place, and one shrunk by a later write
for d in $MNT $REF; do head -c 500 /tmp/data.3000 >> "$d/small/f100"; done
xfs_io -c fsync $MNT/small/f100
for d in $MNT $REF; do printf 'ABC' | dd of="$d/small/f1000" bs=1 seek=10 conv=notrunc 2>/dev/null; done
xfs_io -c fsync $MNT/small/f1000
# unsynced churn beside, not in the reference
for n in 1 2 3; do cp /tmp/data.3000 $MNT/fs/unsynced-$n; done
dd if=/dev/vda of=/dev/vdb bs=1M 2>/dev/null
umount $MNT
mount -t f2fs /dev/vdb $MNT
for n in 1 100 1000 3000 3488; do
	[ "$(sum $MNT/fs/new-$n)" = "$(sum $REF/fs/new-$n)" ] || fail "fsynced new-$n lost or wrong after recovery"
done
[ "$(sum $MNT/fs/empty)" = "$(sum $REF/fs/empty)" ] || fail "fsynced growth of an empty inline file lost"
[ "$(sum $MNT/fs/full)" = "$(sum $REF/fs/full)" ] || fail "fsynced growth of an inline file with data lost"
[ "$(sum $MNT/small/f100)" = "$(sum $REF/small/f100)" ] || fail "fsynced append to an inline file lost"
[ "$(sum $MNT/small/f1000)" = "$(sum $REF/small/f1000)" ] || fail "fsynced overwrite of an inline file lost"
umount $MNT
fsck_clean /dev/vdb
note "fsynced inline files recovered from the crash image"

# ---- 5. stock reads and changes ours; ours reads and changes stock's
mount -t f2fs /dev/vda $MNT
rm -rf $MNT/fs $REF/fs
treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man
umount $MNT
stock_unchanged /dev/vda "ours, inline"
change() {  # change DIR: appends and new small files, a new small directory
	d=$1
	head -c 700 /tmp/data.1000 >> "$d/small/f100"
	head -c 600 /tmp/data.1000 >> "$d/small/f3000"
	mkdir "$d/by-$2"
	for n in 1 100 3000; do cp /tmp/data.$n "$d/by-$2/f$n"; done
	truncate -s 50 "$d/small/f1000"
}
# handover MOD: MOD mounts the image, finds the reference tree, changes it
# as the reference changes, and leaves it unmounted and fsck-clean
handover() {
	use_module "$1"
	mount -t f2fs /dev/vda $MNT
	same_tree /tmp/ref.man $MNT "the image under the $1 module"
	change $MNT "$1"
	change $REF "$1"
	treesum -f type,mode,nlink,size,link,content $REF > /tmp/ref.man
	same_tree /tmp/ref.man $MNT "changed by the $1 module"
	last=$(ino_of "$MNT/by-$1/f100")
	umount $MNT
	fsck_clean /dev/vda
}
handover stock
has_flag /dev/vda "$last" 2 "file written by stock" yes
handover ours
has_flag /dev/vda "$last" 2 "file written by ours after stock" yes
stock_unchanged /dev/vda "ours after stock, inline"

# ---- 6. noinline_data,noinline_dentry
mount -t f2fs -o noinline_data,noinline_dentry /dev/vda $MNT
grep -q ',noinline_data,noinline_dentry' /proc/mounts || fail "noinline options not shown: $(grep f2fs /proc/mounts)"
cp /tmp/data.100 $MNT/noinl
mkdir $MNT/noinl-dir
a=$(ino_of $MNT/noinl)
b=$(ino_of $MNT/noinl-dir)
mount -o remount,inline_data,inline_dentry $MNT
grep -q ',inline_data,inline_dentry' /proc/mounts || fail "remount to inline: $(grep f2fs /proc/mounts)"
cp /tmp/data.100 $MNT/inl
c=$(ino_of $MNT/inl)
[ "$(sum $MNT/noinl)" = "$(sum /tmp/data.100)" ] || fail "noinline file content"
umount $MNT
fsck_clean /dev/vda
has_flag /dev/vda "$a" 2 "file made under noinline_data" no
has_flag /dev/vda "$b" 4 "directory made under noinline_dentry" no
has_flag /dev/vda "$c" 2 "file made after remount,inline_data" yes
note "noinline_data/noinline_dentry and remount behave"
