#!/bin/sh
# desc: our module modifies images the stock module wrote (default options, and noinline_data,noinline_dentry): appends, overwrites, truncates, an inline file growing out of inline, renames across directories and over existing files, deletions of files and trees, new files in a multi-block hash directory; fsck.f2fs is clean and the stock module then reads exactly what the same operations give on tmpfs
# disks: 256M 256M
# timeout: 420
# mem: 1G
#
# vda: stock module, default options (inline data and dentries)
# vdb: stock module, -o noinline_data,noinline_dentry
set -eu
. /tests/lib.sh

REF=/tmp/ref
FIELDS=type,mode,nlink,size,link,content
head -c 6000000 /dev/urandom > /tmp/rand
# 700 names of 30-60 bytes: far more than one dentry block (214 slots)
awk 'BEGIN { srand(45); for (i = 0; i < 700; i++) {
	n = sprintf("entry-%04d-", i); l = 30 + int(rand() * 31)
	while (length(n) < l) n = n sprintf("%c", 97 + int(rand() * 26))
	printf "%d %s\n", (i % 7 == 0 ? 5000 : i % 50), n } }' > /tmp/names.list

build() {	# build DIR: the tree the stock module writes
	D=$1
	mkdir -p "$D/dir1/sub" "$D/dir2" "$D/emptydir" "$D/big" "$D/gone/a/b" "$D/small"
	i=0
	while [ $i -lt 20 ]; do
		head -c $((i * 150 + 1)) /tmp/rand > "$D/small/s$i"
		i=$((i + 1))
	done
	head -c 100000 /tmp/rand > "$D/l1"
	head -c 5000000 /tmp/rand > "$D/dir1/l2"
	head -c 20000 /tmp/rand > "$D/dir1/sub/l3"
	mknames /tmp/names.list "$D/big" 2>/dev/null
	echo victim > "$D/dir2/victim"
	echo mover > "$D/dir1/mover"
	echo linked > "$D/dir1/hl"
	ln "$D/dir1/hl" "$D/dir2/hl2"
	ln "$D/dir1/hl" "$D/hl3"
	ln -s small/s3 "$D/sym"
	ln -s "$(head -c 2000 /dev/zero | tr '\0' 'q')" "$D/dir2/longsym"
	for f in x y z; do echo "$f" > "$D/gone/a/b/$f"; echo "$f" > "$D/gone/$f"; done
	chmod 0640 "$D/small/s1"
}

modify() {	# modify DIR: what our module does to the stock-written tree
	D=$1
	cat /tmp/rand >> "$D/l1"
	echo "appended" >> "$D/small/s0"
	head -c 10000 /tmp/rand >> "$D/small/s2"		# out of inline
	dd if=/tmp/rand of="$D/dir1/l2" bs=1000 skip=11 seek=2222 count=333 conv=notrunc 2>/dev/null
	dd if=/tmp/rand of="$D/small/s5" bs=1 skip=5 seek=100 count=50 conv=notrunc 2>/dev/null
	truncate -s 3333333 "$D/dir1/l2"
	truncate -s 65536 "$D/dir1/sub/l3"
	truncate -s 10 "$D/small/s19"
	mv "$D/dir1/mover" "$D/dir2/moved"			# across directories
	echo "overwriter" > "$D/dir2/ow"
	mv "$D/dir2/ow" "$D/dir2/victim"			# over an existing file
	mv "$D/small/s7" "$D/dir2/hl2"				# over one of a link group
	mv "$D/dir1/sub" "$D/dir2/sub"				# a directory across dirs
	mv "$D/big/$(sed -n 3p /tmp/names.list | cut -d' ' -f2)" "$D/dir1/from-big"
	rm -r "$D/gone"
	rm "$D/small/s11" "$D/sym"
	awk 'NR % 3 == 0 { print $2 }' /tmp/names.list | (cd "$D/big" && xargs rm -f)
	i=0
	while [ $i -lt 150 ]; do
		echo "new $i" > "$D/big/new-file-with-a-longish-name-$i"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 40 ]; do				# dir2 grows out of inline
		echo "g $i" > "$D/dir2/grown-by-our-module-entry-$i"
		i=$((i + 1))
	done
	rmdir "$D/emptydir"
	mkdir "$D/newdir"
	head -c 300000 /tmp/rand > "$D/newdir/n1"
	ln "$D/newdir/n1" "$D/big/n1-link"
	ln -s ../l1 "$D/newdir/sym"
	chmod 0600 "$D/l1"
}

# inline_blocks MNT: st_blocks of a 151-byte file and of a small directory
inline_blocks() { stat -c %b "$1/small/s1" "$1/dir2" | paste -sd' ' -; }

build $REF
use_module stock
mkfs.f2fs -q -f /dev/vda > /dev/null
mkfs.f2fs -q -f /dev/vdb > /dev/null
mkdir -p /mnt/a /mnt/b
mount -t f2fs /dev/vda /mnt/a || fail "stock mount of vda"
mount -t f2fs -o noinline_data,noinline_dentry /dev/vdb /mnt/b || fail "stock mount of vdb"
for m in /mnt/a /mnt/b; do ( set -e; build $m ) || fail "stock: building the tree in $m"; done
ia=$(inline_blocks /mnt/a) ib=$(inline_blocks /mnt/b)
note "st_blocks of a small file and directory: $ia (default), $ib (noinline)"
[ "$ia" = "0 0" ] || [ "$ia" != "$ib" ] || fail "no inline data or dentries on vda (test premise)"
treesum -f $FIELDS $REF > /tmp/ref.man || fail "treesum of the reference"
same_tree /tmp/ref.man /mnt/a "written by stock, default options"
same_tree /tmp/ref.man /mnt/b "written by stock, noinline"
umount /mnt/a
umount /mnt/b
fsck_clean /dev/vda
fsck_clean /dev/vdb

modify $REF
treesum -f $FIELDS $REF > /tmp/ref.man || fail "treesum of the reference"
use_module ours
for v in a b; do
	MNT=/mnt/$v
	mount -t f2fs /dev/vd$v $MNT || fail "our module cannot mount the stock-written vd$v"
	( set -e; modify $MNT ) || fail "ours: modifying vd$v failed"
	same_tree /tmp/ref.man $MNT "vd$v modified by ours, live"
	umount $MNT || fail "umount of vd$v"
	fsck_clean /dev/vd$v
done
for v in a b; do stock_unchanged /dev/vd$v; done

use_module stock
for v in a b; do
	mount -t f2fs -o ro /dev/vd$v /mnt/$v || fail "the stock module cannot mount vd$v after our changes"
	same_tree /tmp/ref.man /mnt/$v "vd$v read by the stock module"
	# the stock module lists the hash directory like readdir on tmpfs
	ls -a /mnt/$v/big | sort > /tmp/got.names
	ls -a $REF/big | sort > /tmp/ref.names
	cmp -s /tmp/ref.names /tmp/got.names || fail "stock: readdir of vd$v big/ differs"
	umount /mnt/$v
done
use_module ours
