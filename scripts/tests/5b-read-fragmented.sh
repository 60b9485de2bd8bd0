#!/bin/sh
# desc: a cold sequential read of a file that is not one extent (96 MiB written, then every other block rewritten with its own pattern, so no two neighbouring blocks are adjacent on disk and 22 direct nodes hang under the first indirect node) reads its direct nodes ahead: with node_ra_siblings at its default the synchronous node reads are at most a third of the direct nodes and the read requests fewer than with node_ra_siblings=0, which reads each direct node on its own (so the check can fail); the content equals the same writes on tmpfs under both settings and on the stock module reading the same image; fsck.f2fs clean
# disks: 512M
# timeout: 600
#
# A file written in one go is one extent, and the inode's largest extent
# maps it without its direct nodes: here they are all needed, as for a
# file rewritten in place or allocated around other logs' segments
# (alloc_mode=reuse).  The stock module's requests for the same cold read
# are reported (a note, not a check).
set -eu
. /tests/lib.sh

M=/mnt/f2fs
F=$M/frag
P=/sys/module/f2fs/parameters/node_ra_siblings
MB=96
BLOCKS=$((MB * 256))
mkdir -p $M /tmp/ref

# The writes: the whole file, then every even block with a pattern of its
# own (xfs_io reads the commands from stdin).
{
	echo "pwrite -q -S 0x11 0 ${MB}m"
	echo fsync
	awk -v n=$BLOCKS 'BEGIN {
		for (i = 0; i < n; i += 2)
			printf "pwrite -q -S 0x%02x %d 4096\n", 32 + (i / 2) % 200, i * 4096
	}'
	echo fsync
} > /tmp/cmds
# xfs_io_cmds FILE OUT: run the commands; readline's complaint about the
# initramfs having no termcap database is not an error
xfs_io_cmds() {
	xfs_io -f "$1" < /tmp/cmds > "$2.all" 2>&1 || { cat "$2.all"; return 1; }
	grep -v -e '^Cannot read termcap database;' -e '^using dumb terminal settings.' "$2.all" > "$2" || true
}
xfs_io_cmds /tmp/ref/frag /tmp/ref.out || fail "tmpfs reference writes failed"
[ ! -s /tmp/ref.out ] || { cat /tmp/ref.out; fail "tmpfs reference writes printed errors"; }
REF=$(sha256sum < /tmp/ref/frag | cut -d' ' -f1)
rm -f /tmp/ref/frag

use_module ours
[ -f $P ] || fail "no node_ra_siblings parameter"
DEFAULT=$(cat $P)
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs.f2fs failed"
mount -t f2fs /dev/vda $M
xfs_io_cmds $F /tmp/w.out || fail "writes failed"
[ ! -s /tmp/w.out ] || { cat /tmp/w.out; fail "writes printed errors"; }
extents=$(xfs_io -r -c fiemap $F | awk 'NR > 1 && $3 != "hole"' | wc -l)
note "$MB MiB file in $extents extents"
# Every rewritten block breaks the runs: the test needs the direct nodes.
[ "$extents" -gt $((BLOCKS / 2)) ] ||
	fail "only $extents extents: the rewrite did not scatter the file, so the read would not need its direct nodes"
umount $M
fsck_clean /dev/vda

# cold_read SIBLINGS: mount, read the file in sequence; prints the
# synchronous node reads, the nodes read ahead and the device's read
# requests of the read
cold_read() {
	echo "$1" > $P
	echo 3 > /proc/sys/vm/drop_caches
	mount -t f2fs -o ro /dev/vda $M
	s0=$(stat_of vda node_reads_sync) a0=$(stat_of vda node_reads_ra)
	r0=$(awk '{ print $1 }' /sys/block/vda/stat)
	sum=$(sha256sum < $F | cut -d' ' -f1)
	r1=$(awk '{ print $1 }' /sys/block/vda/stat)
	s1=$(stat_of vda node_reads_sync) a1=$(stat_of vda node_reads_ra)
	umount $M
	[ "$sum" = "$REF" ] || fail "node_ra_siblings=$1: the content differs from tmpfs's ($sum, want $REF)"
	echo $((s1 - s0)) $((a1 - a0)) $((r1 - r0))
}

set -- $(cold_read 0)
off_sync=$1 off_ra=$2 off_req=$3
note "node_ra_siblings=0: $off_sync synchronous node reads, $off_ra read ahead, $off_req read requests"
set -- $(cold_read "$DEFAULT")
on_sync=$1 on_ra=$2 on_req=$3
note "node_ra_siblings=$DEFAULT: $on_sync synchronous node reads, $on_ra read ahead, $on_req read requests"

# The file's direct nodes under its first indirect node: 22 for 96 MiB.
dn=$(( (BLOCKS - 923 - 2 * 1018 + 1017) / 1018 ))
[ "$off_sync" -ge "$dn" ] ||
	fail "node_ra_siblings=0 read only $off_sync nodes synchronously (the file has $dn direct nodes under an indirect one): the read does not show the cost"
[ "$on_sync" -le $((dn / 3)) ] ||
	fail "node_ra_siblings=$DEFAULT: $on_sync synchronous node reads, want at most $((dn / 3)) (the $dn direct nodes under the indirect one come ahead)"
[ "$on_ra" -ge "$dn" ] ||
	fail "node_ra_siblings=$DEFAULT read ahead only $on_ra nodes, want the $dn direct nodes"
[ "$on_req" -lt "$off_req" ] ||
	fail "node_ra_siblings=$DEFAULT took $on_req read requests, not fewer than node_ra_siblings=0's $off_req"
echo "$DEFAULT" > $P
fsck_clean /dev/vda

# The stock module reads our image: the same content.
use_module stock
echo 3 > /proc/sys/vm/drop_caches
mount -t f2fs -o ro /dev/vda $M
r0=$(awk '{ print $1 }' /sys/block/vda/stat)
sum=$(sha256sum < $F | cut -d' ' -f1)
r1=$(awk '{ print $1 }' /sys/block/vda/stat)
umount $M
[ "$sum" = "$REF" ] || fail "stock: the content differs from tmpfs's"
note "stock: the same cold read took $((r1 - r0)) read requests"
fsck_clean /dev/vda
