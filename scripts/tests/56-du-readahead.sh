#!/bin/sh
# desc: a cold du -s of a tree made in tar order (600 directories, 8,100 small files, depth-first) reads the inodes ahead across directories: fewer read requests than half the directories and than half of what node_ra_span=0 takes, where node_ra_span=0 (the entries of each directory only) takes more than one per directory; the neighbours are counted (node_ra_neighbours), the tree stats and reads the same as its tmpfs reference under both settings, and fsck.f2fs is clean
# disks: 512M
# timeout: 600
#
# The stock module's cold du of the same tree is reported (a note, not a
# check): it reads the entries of each directory only.
set -eu
. /tests/lib.sh

REF=/tmp/ref
FIELDS=type,mode,nlink,size,content
SPAN=/sys/module/f2fs/parameters/node_ra_span
head -c 200000 /dev/urandom > /tmp/rand

build() {	# build DIR: 60 top directories of 9 subdirectories, 15 files each
	t=0
	while [ $t -lt 60 ]; do
		mkdir "$1/top$t"
		s=0
		while [ $s -lt 9 ]; do
			d="$1/top$t/sub$s"
			mkdir "$d"
			f=0
			while [ $f -lt 15 ]; do
				head -c $(( (t * 131 + s * 17 + f * 7) % 6000 + 10 )) /tmp/rand > "$d/file$f.c"
				f=$((f + 1))
			done
			s=$((s + 1))
		done
		t=$((t + 1))
	done
}

mkdir -p $REF
build $REF
treesum -f $FIELDS $REF > /tmp/ref.man || fail "treesum of the reference"

reads() { awk '{ print $1 }' /sys/block/vda/stat; }
neighbours() { awk '$1 == "node_ra_neighbours" { print $2 }' /sys/kernel/debug/f2fs/vda/stats; }

# cold_du SPAN: remount, drop caches, du -s; prints "requests neighbours"
cold_du() {
	umount /mnt/f2fs
	mount -t f2fs /dev/vda /mnt/f2fs || fail "remount failed"
	[ -z "$1" ] || echo "$1" > $SPAN
	sync
	echo 3 > /proc/sys/vm/drop_caches
	r0=$(reads)
	n0=$(neighbours 2>/dev/null || echo 0)
	du -s /mnt/f2fs > /dev/null || fail "du -s failed"
	r1=$(reads)
	n1=$(neighbours 2>/dev/null || echo 0)
	echo "$((r1 - r0)) $((n1 - n0))"
}

if [ "$F2FS_VARIANT" = ours ]; then
	mkfs.f2fs -q -f /dev/vda >/dev/null || fail "mkfs.f2fs failed"
	mount -t f2fs /dev/vda /mnt/f2fs || fail "mount failed"
	build /mnt/f2fs
	sync
	[ -w $SPAN ] || fail "no node_ra_span parameter"
	default=$(cat $SPAN)

	set -- $(cold_du 0)
	off=$1
	[ "$2" = 0 ] || fail "node_ra_span=0 still read $2 neighbours"
	same_tree /tmp/ref.man /mnt/f2fs "node_ra_span=0" $FIELDS

	set -- $(cold_du "$default")
	on=$1 nb=$2
	same_tree /tmp/ref.man /mnt/f2fs "node_ra_span=$default" $FIELDS
	note "cold du -s of 600 directories, 8,100 files: $on read requests with node_ra_span=$default ($nb neighbours read ahead), $off with node_ra_span=0"
	[ "$off" -gt 600 ] ||
		fail "node_ra_span=0 took $off read requests, not over one per directory: the tree no longer shows the cost"
	[ "$nb" -gt 0 ] || fail "no neighbour was read ahead"
	[ "$on" -lt 300 ] && [ $((on * 2)) -lt "$off" ] ||
		fail "cold du -s took $on read requests (node_ra_span=0: $off); want under 300 (half the directories) and under half of $off"
	umount /mnt/f2fs
	fsck_clean /dev/vda
fi

# The control: the stock module on the same kind of tree.
use_module stock
mkfs.f2fs -q -f /dev/vda >/dev/null || fail "mkfs.f2fs failed"
mount -t f2fs /dev/vda /mnt/f2fs || fail "stock mount failed"
build /mnt/f2fs
sync
set -- $(cold_du "")
note "stock: cold du -s took $1 read requests"
same_tree /tmp/ref.man /mnt/f2fs "stock" $FIELDS
umount /mnt/f2fs
