#!/bin/sh
# desc: read-write POSIX workload on our module (create, write, append, overwrite, sparse, truncate, links, special files, every rename case, unlink, rmdir, a 3000-entry directory) matches the same workload on tmpfs, before and after remount, and through the stock module; fsck.f2fs is clean after each writer
# disks: 1G
# timeout: 1500
# mem: 1G
set -eu
. /tests/lib.sh

F=/mnt/f2fs
R=/tmp/ref
FIELDS=type,mode,nlink,size,link,content

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
use_module ours
mount -t f2fs /dev/vda $F || fail "rw mount failed"
grep -q " $F f2fs rw" /proc/mounts || fail "mount is not read-write"
mkdir -p $R

# both CMD...: run a shell command with $D set to each root in turn
both() {
	for D in $R $F; do
		export D
		sh -c "$*" || fail "failed on $D: $*"
	done
}

head -c 3000000 /dev/urandom > /tmp/rand
both 'mkdir -p $D/a/b/c/d/e $D/wide $D/empty1 $D/empty2 $D/mv/src/sub $D/mv/dst'
both 'echo hello > $D/a/small; printf x > $D/a/one'
both 'head -c 4096 /tmp/rand > $D/a/b/page; head -c 4097 /tmp/rand > $D/a/b/page1'
both 'head -c 3000000 /tmp/rand > $D/a/b/c/big'
both 'cat /tmp/rand >> $D/a/b/c/big'
both 'dd if=/tmp/rand of=$D/a/b/c/big bs=1000 seek=777 count=300 conv=notrunc 2>/dev/null'
both 'dd if=/tmp/rand of=$D/sparse bs=4096 seek=3000 count=3 2>/dev/null'
both 'dd if=/tmp/rand of=$D/sparse bs=1 seek=100 count=10 conv=notrunc 2>/dev/null'
# a block in the first indirect node's range (from block 2,909), far from
# the direct ones; each compare hashes the whole file, so 160 MB: at 1.2 GB
# the test took 552 s in a CI-like run, mostly hashing zeros (126 s now)
both 'dd if=/tmp/rand of=$D/far bs=4096 seek=40000 count=1 2>/dev/null'
both 'head -c 100000 /tmp/rand > $D/trunc; truncate -s 5000 $D/trunc; truncate -s 20000 $D/trunc'
both 'head -c 9000000 /dev/zero > $D/trunc0; truncate -s 0 $D/trunc0'
both 'head -c 50000 /tmp/rand > $D/trunc_mid; truncate -s 12345 $D/trunc_mid'
both 'ln -s small $D/a/slink; ln -s $(head -c 3000 /dev/zero | tr "\0" "y") $D/a/longlink'
both 'ln $D/a/small $D/a/hard1; ln $D/a/small $D/wide/hard2'
both 'mknod $D/fifo p; mknod $D/chr c 1 3; mknod $D/blk b 8 1'
both 'i=0; while [ $i -lt 3000 ]; do echo $i > $D/wide/f$i; i=$((i+1)); done'
both 'i=0; while [ $i -lt 3000 ]; do rm $D/wide/f$i; i=$((i+3)); done'
both 'echo over > $D/mv/victim; echo mover > $D/mv/mover; mv $D/mv/mover $D/mv/victim'
both 'mkdir $D/mv/edir; mv $D/mv/src/sub $D/mv/edir'
both 'mv $D/mv/src $D/mv/dst/moved'
both 'echo same > $D/mv/same; mv $D/mv/same $D/mv/same'
both 'mv $D/a/one $D/wide/one_moved'
# directories renamed within a parent, over an empty directory there, into
# another parent and over an empty directory in another parent: each parent
# keeps 2 + its subdirectories links
both 'mkdir -p $D/rn/x $D/rn/y $D/rn2/z $D/rn2/e; mv -T $D/rn/x $D/rn/x2'
both 'mv -T $D/rn/x2 $D/rn/y; mv -T $D/rn2/z $D/rn/q; mv -T $D/rn/q $D/rn2/e'
both 'rmdir $D/empty1; rm $D/a/b/page'
both 'chmod 600 $D/a/small; chmod 1777 $D/empty2'
# a file unlinked while open stays readable until closed
both 'exec 3<$D/a/b/page1; rm $D/a/b/page1; head -c 10 <&3 >/dev/null; exec 3<&-'

compare() {  # compare LABEL: the f2fs tree must match the reference
	treesum -f $FIELDS $R > /tmp/ref.man || fail "treesum of the reference failed"
	treesum -f $FIELDS $F > /tmp/f2fs.man || fail "treesum on f2fs failed ($1)"
	if ! cmp -s /tmp/ref.man /tmp/f2fs.man; then
		diff /tmp/ref.man /tmp/f2fs.man | head -30
		cp /tmp/ref.man /tmp/f2fs.man /host/ 2>/dev/null || true
		fail "f2fs tree differs from the reference ($1)"
	fi
	note "tree matches the reference ($1): $(wc -l < /tmp/ref.man) entries"
}

compare "live"
sync
compare "after sync"
umount $F || fail "umount failed"
fsck_clean /dev/vda

mount -t f2fs /dev/vda $F || fail "second mount failed"
compare "after remount"
# more changes on the remounted filesystem
both 'echo again >> $D/a/small; rm -r $D/mv/dst; mkdir $D/newdir; echo n > $D/newdir/n'
# a checkpointed device node unlinked: its i_addr[] holds the device
# number, which must not be freed as a block (fsck counts valid blocks)
both 'rm $D/chr; mknod $D/chr2 c 1 5'
compare "second round"
umount $F
fsck_clean /dev/vda
stock_unchanged /dev/vda

use_module stock
mount -t f2fs -o ro /dev/vda $F || fail "stock module cannot mount our image"
compare "read by the stock module"
umount $F
use_module ours
