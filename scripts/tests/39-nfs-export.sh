#!/bin/sh
# desc: NFS export (issue 16): file handles from name_to_handle_at open the same file and directory with open_by_handle_at, content checked, after a remount and after drop_caches (a directory handle reconnects to its full path through ".."); a handle of a deleted file is ESTALE, also once its inode number is reused by a new file with another generation, and forged handles (a reserved nid, one past the NAT, the nid of a direct node) are ESTALE without a corruption message (ours only); the stock module as the control; fsck clean, stock_unchanged
# disks: 128M
# timeout: 400
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
H=/tmp/handles
mkdir -p $MNT
sum() { md5sum < "$1" | cut -d' ' -f1; }

# opens NAME: the saved handle NAME opens, as the file it was saved from
opens() {
	fhandle open $MNT $H/$1 -c > /tmp/fh.data 2> /tmp/fh.line ||
		fail "$M: handle $1 does not open: $(cat /tmp/fh.data /tmp/fh.line)"
	[ "$(sed 's/.*ino=\([0-9]*\).*/\1/' /tmp/fh.line)" = "$(cat $H/$1.ino)" ] ||
		fail "$M: handle $1 opened another inode: $(cat /tmp/fh.line)"
	if [ -f $H/$1.sum ]; then
		[ "$(sum /tmp/fh.data)" = "$(cat $H/$1.sum)" ] || fail "$M: handle $1: wrong content"
	fi
}
# stale NAME: the saved handle NAME must fail with ESTALE
stale() {
	if fhandle open $MNT $H/$1 > /tmp/fh.out 2>&1; then
		fail "$M: handle $1 of a deleted file still opens: $(cat /tmp/fh.out)"
	fi
	grep -q ESTALE /tmp/fh.out || fail "$M: handle $1: not ESTALE: $(cat /tmp/fh.out)"
}
save() {  # save NAME PATH
	fhandle save "$2" $H/$1 || fail "$M: name_to_handle_at $2 failed"
	stat -c %i "$2" > $H/$1.ino
	[ -f "$2" ] && sum "$2" > $H/$1.sum
	return 0
}

run() {
	M=$1
	rm -rf $H
	mkdir -p $H
	use_module "$M"
	mkfs.f2fs -q -f /dev/vda || fail "mkfs failed"
	mount -t f2fs /dev/vda $MNT || fail "$M: mount failed"
	mkdir -p $MNT/a/b/c
	head -c 300000 /dev/urandom > $MNT/a/b/c/file
	echo small > $MNT/top
	save file $MNT/a/b/c/file
	save top $MNT/top
	save dir $MNT/a/b/c
	save root $MNT
	opens file
	opens dir
	opens root

	# After a remount and after the caches are dropped.
	umount $MNT
	mount -t f2fs /dev/vda $MNT || fail "$M: remount failed"
	opens file
	opens top
	sync
	echo 3 > /proc/sys/vm/drop_caches
	opens dir
	grep -q "path=$MNT/a/b/c\$" /tmp/fh.line ||
		fail "$M: a directory handle after drop_caches is not reconnected: $(cat /tmp/fh.line)"
	echo 3 > /proc/sys/vm/drop_caches
	opens file

	# Deleted: stale, open or not, cached or not.
	rm $MNT/top
	stale top
	sync
	echo 3 > /proc/sys/vm/drop_caches
	stale top
	# Its number reused: new files until one gets it (after the checkpoint
	# that freed it), then the old handle must not open the new file.
	i=0
	old=$(cat $H/top.ino)
	while [ $i -lt 2000 ]; do
		echo "new $i" > $MNT/n$i
		[ "$(stat -c %i $MNT/n$i)" = "$old" ] && break
		i=$((i + 1))
	done
	if [ $i -lt 2000 ]; then
		stale top
		note "$M: inode $old reused by n$i: the old handle is stale"
	else
		note "$M: inode $old not reused by 2000 new files"
	fi
	if [ "$M" = ours ]; then
		# Forged handles (only ours: stock flags its image for fsck on
		# such nids): a reserved nid, a nid past the NAT, and the nid of a direct node (a 4 MiB file needs one past the
		# inode's addresses), with generation 0 (no generation check):
		# the NAT says it belongs to the file, so it is no inode.  Only
		# ours: stock reads it as an inode and flags the image for fsck.
		head -c 4194304 /dev/zero > $MNT/big
		sync
		bi=$(stat -c %i $MNT/big)
		n=$((bi + 1))
		while [ $n -lt $((bi + 4)) ]; do
			fhandle forge $n 0 $H/forged3
			stale forged3
			n=$((n + 1))
		done
		dmesg | grep -q 'f2fs.*corrupt\|f2fs.*does not match' && fail "$M: a forged handle logged corruption"
	fi
	umount $MNT
	fsck_clean /dev/vda
	note "$M: handles pass"
}

run stock
run ours
stock_unchanged /dev/vda
echo "PASS"
