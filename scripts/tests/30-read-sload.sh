#!/bin/sh
# desc: read path on a sload.f2fs image (20,000 files, deep and wide dirs, 1-255 byte names, holes, symlinks, hard links): content, sizes, modes and links match the host's manifest (read and mmap), every attribute matches the stock module, and the image stays byte-identical
# disks: 1G
# prep: 30-read-sload.prep
# timeout: 900
# mem: 2G
set -eu
. /tests/lib.sh

[ -f /work/host.man ] || fail "host manifest missing"
before=$(sumdev /dev/vda)
use_module ours
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount failed"
SLOAD=type,mode,nlink,size,mtime_s,link,content
treesum -f $SLOAD /mnt/f2fs > /tmp/ours-raw.man || fail "treesum reported errors"
awk -F'\t' '$2 !~ /^[cbps]$/' /tmp/ours-raw.man > /tmp/ours.man
wc -l < /tmp/ours.man
if ! cmp /tmp/ours.man /work/host.man; then
	cp /tmp/ours.man /host/
	diff /work/host.man /tmp/ours.man | head -40
	fail "what our module reads differs from the host tree"
fi
note "matches the host tree: $(wc -l < /tmp/ours.man) entries"
treesum -M -f $SLOAD /mnt/f2fs > /tmp/ours-mmap.man || fail "treesum -M reported errors"
cmp /tmp/ours-raw.man /tmp/ours-mmap.man || fail "mmap reads differ from read(2)"
ALL=type,mode,uid,gid,nlink,size,blocks,mtime,atime,ctime,link,content
treesum -f $ALL /mnt/f2fs > /tmp/ours-all.man
umount /mnt/f2fs

use_module stock
mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "stock mount failed"
treesum -f $ALL /mnt/f2fs > /tmp/stock-all.man
umount /mnt/f2fs
use_module ours
if ! cmp /tmp/ours-all.man /tmp/stock-all.man; then
	cp /tmp/ours-all.man /tmp/stock-all.man /host/
	diff /tmp/stock-all.man /tmp/ours-all.man | head -40
	fail "our module and the stock module read different attributes"
fi
[ "$(sumdev /dev/vda)" = "$before" ] || fail "the image changed"
