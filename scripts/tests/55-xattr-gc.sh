#!/bin/sh
# desc: cleaning moves xattr nodes: 1200 files with an xattr node (and 300 with inline xattrs only), every other one deleted so that node segments are half valid, then the device filled with data until the cleaner must work; the xattr nodes of the surviving files moved (NAT dump before and after), every value verifies, across a remount and under the stock module, fsck clean; the stock module as the control on the same workload (its GC asked for through the ioctl)
# disks: 128M 128M
# timeout: 900
#
# vda: our module, vdb: the stock module.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
NODE_FILES=1200
INLINE_FILES=300

# populate DIR: files with a 1000-byte xattr (an xattr node each) and files
# with a 40-byte one (inline), and an ACL on a few
populate() {
	mkdir "$1/x"
	xattrop bulk set "$1/x/n" 0 1 $NODE_FILES 1000 > /dev/null || fail "populate"
	xattrop bulk set "$1/x/i" 0 1 $INLINE_FILES 40 > /dev/null || fail "populate"

	setfacl -m u:1000:rw "$1/x/n1" "$1/x/n3"
}

# churn DIR: every other file goes, then data fills the device
churn() {
	(cd "$1/x" && rm -f n*[02468] i*[02468])
	sync
	# Fill, free, fill again: the second fill needs the cleaner.
	dd if=/dev/zero of="$1/fill1" bs=1M 2>/dev/null || true
	sync
	rm "$1/fill1"
	sync
	dd if=/dev/zero of="$1/fill2" bs=1M 2>/dev/null || true
	sync
}

# verify DIR LABEL: every surviving file has its value, the ACLs are there
verify() {
	r=$(xattrop bulk verify "$1/x/n" 1 2 $NODE_FILES 1000) || fail "$2: $r"
	r=$(xattrop bulk verify "$1/x/i" 1 2 $INLINE_FILES 40) || fail "$2: $r"
	[ "$(find "$1/x" -type f | wc -l)" = $((NODE_FILES / 2 + INLINE_FILES / 2)) ] || fail "$2: file count"
	getfacl -pn --omit-header "$1/x/n1" | grep -qx 'user:1000:rw-' || fail "$2: ACL of n1 lost"
	getfacl -pn --omit-header "$1/x/n3" | grep -qx 'user:1000:rw-' || fail "$2: ACL of n3 lost"
	note "$2: $((NODE_FILES / 2 + INLINE_FILES / 2)) values and the ACLs verify"
}

# nat DEV OUT: "nid blkaddr" of every node in use that is not an inode
nat() {
	(cd /tmp && rm -f dump_nat && dump.f2fs -n 0~-1 "$1" > /dev/null 2>&1)
	awk '{ gsub(/:/, " ") } $2 != $4 && $8 != 0 { print $2, $8 }' /tmp/dump_nat > "$2"
}

run() {	# run MODULE DEV
	use_module "$1"
	mkfs.f2fs -q -f "$2" > /dev/null
	mount -t f2fs "$2" $MNT || fail "mount ($1)"
	populate $MNT
	umount $MNT
	fsck_clean "$2"
	nat "$2" /tmp/nat.before
	mount -t f2fs "$2" $MNT
	dev=$(basename "$2")
	[ "$1" = ours ] && moved0=$(stat_of "$dev" gc_node_moved)
	churn $MNT
	[ "$1" = stock ] && { gcioctl fg $MNT 40 > /dev/null || true; }
	rm $MNT/fill2
	if [ "$1" = ours ]; then
		note "ours: GC moved $(( $(stat_of "$dev" gc_node_moved) - moved0 )) node blocks ($(stat_of "$dev" gc_calls_fg) foreground, $(stat_of "$dev" gc_calls_bg) background passes)"
	fi
	verify $MNT "$1 after cleaning"
	umount $MNT
	fsck_clean "$2"
	nat "$2" /tmp/nat.after
	awk 'NR == FNR { a[$1] = $2; next }
		($1 in a) { k++; if (a[$1] != $2) m++ } END { print m + 0, k + 0 }' \
		/tmp/nat.before /tmp/nat.after > /tmp/moved
	read -r moved kept < /tmp/moved
	note "$1: $moved of the $kept surviving non-inode nodes (xattr nodes) moved"
	[ "$moved" -gt 0 ] || fail "$1: no xattr node moved: the cleaning did not reach them"
	mount -t f2fs "$2" $MNT
	verify $MNT "$1 after a remount"
	umount $MNT
}

mkdir -p $MNT
run ours /dev/vda
run stock /dev/vdb
use_module stock
mount -t f2fs -o ro /dev/vda $MNT
verify $MNT "stock reading ours"
umount $MNT
use_module ours
mount -t f2fs -o ro /dev/vdb $MNT
verify $MNT "ours reading stock's"
umount $MNT
stock_unchanged /dev/vda
