#!/bin/sh
# desc: Debian's f2fstat against our debugfs status and the stock module's, on the same workload (fresh 256 MiB image, 40 directories of 25 files of 0-12 KiB, a 4 MiB file, a removed 2 MiB file, sync): utilisation, node and data blocks (data: inline-sized files have no data block on either module), free/valid/dirty/prefree segments, used segments (at most stock's + 3, at least what the valid blocks fill), dirty pages, dirty NAT/SIT entries, GC calls and SSR blocks agree within tolerance; free nids, checkpoint calls, LFS blocks and memory differ by design (printed, not compared)
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh

F=/mnt/f2fs
D=/sys/kernel/debug
grep -q " $D debugfs" /proc/mounts || mount -t debugfs none $D

# f2fstat's columns, in its order (f2fs-tools 1.15, tools/f2fstat.c).
COLS="util node data free valid dirty prefree dnode ddent dmeta dnat dsit fnid cp gc ssr lfs mem_total mem_node mem_meta"

# Files of 1..3488 bytes: both modules keep their data inline in the inode
# (counted for the note).
SMALL=0
workload() {
	SMALL=0
	d=0
	while [ $d -lt 40 ]; do
		mkdir $F/dir$d
		i=0
		while [ $i -lt 25 ]; do
			# sizes 0..12 KiB, the same on both runs
			sz=$(( (d * 25 + i) * 499 % 12289 ))
			head -c $sz /dev/urandom > $F/dir$d/f$i
			[ $sz -lt 1 ] || [ $sz -gt 3488 ] || SMALL=$((SMALL + 1))
			i=$((i + 1))
		done
		d=$((d + 1))
	done
	dd if=/dev/urandom of=$F/big bs=1M count=4 2>/dev/null
	dd if=/dev/urandom of=$F/gone bs=1M count=2 2>/dev/null
	sync
	rm $F/gone
	sync
}

# stat_run VARIANT: fresh fs, workload, f2fstat; the last figure line goes
# to /tmp/VARIANT.cols, the status file to /tmp/VARIANT.status
stat_run() {
	use_module "$1" || fail "cannot load the $1 module"
	mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
	mount -t f2fs -o background_gc_off /dev/vda $F 2>/dev/null ||
		mount -t f2fs /dev/vda $F || fail "mount with $1 failed"
	workload
	cp $D/f2fs/status /tmp/$1.status
	timeout 3 f2fstat -p /dev/vda -d 1 > /tmp/$1.f2fstat 2>&1 || true
	awk '/^ *[0-9]/ { l = $0 } END { print l }' /tmp/$1.f2fstat > /tmp/$1.cols
	[ "$(wc -w < /tmp/$1.cols)" = "$(echo $COLS | wc -w)" ] || {
		cat /tmp/$1.f2fstat
		fail "f2fstat on $1: not $(echo $COLS | wc -w) columns"
	}
	umount $F || fail "umount with $1 failed"
	fsck_clean /dev/vda
	# our image (the stock module's run makes its own)
	[ "$1" != ours ] || stock_unchanged /dev/vda
}

stat_run ours
stat_run stock
sed -n '/partition info/,/^Memory/p' /tmp/ours.status > /tmp/ours.part
sed -n '/partition info/,/^Memory/p' /tmp/stock.status > /tmp/stock.part
echo "--- f2fstat, ours:"; cat /tmp/ours.f2fstat
echo "--- f2fstat, stock:"; cat /tmp/stock.f2fstat

# col NAME VARIANT: one figure
col() {
	echo $COLS | tr ' ' '\n' | awk -v n="$1" '$1 == n { print NR }' > /tmp/colno
	awk -v c="$(cat /tmp/colno)" '{ print $c }' /tmp/$2.cols
}

# agree NAME ABS PCT [ADJ]: |ours - (stock + ADJ)| <= max(ABS, PCT% of stock)
bad=0
agree() {
	o=$(col $1 ours) s=$(( $(col $1 stock) + ${4:-0} ))
	tol=$(( s * $3 / 100 )); [ $tol -ge $2 ] || tol=$2
	diff=$(( o > s ? o - s : s - o ))
	if [ $diff -le $tol ]; then
		printf 'agree   %-8s ours %6s  stock %6s  (tolerance %s)\n' $1 $o $s $tol
	else
		printf 'DIFFER  %-8s ours %6s  stock %6s  (tolerance %s)\n' $1 $o $s $tol
		bad=$((bad + 1))
	fi
}
printf '%s\n' "--- comparison"
agree util 1 0		# % of user blocks in use
agree node 8 2		# valid node blocks: one per inode plus direct nodes
agree data 16 2		# valid data blocks (inline-sized files have none)
agree free 8 0		# free segments
agree valid 8 0		# full segments
agree dirty 8 0		# partly valid segments: one per active log, and holes
echo "$(( $(col valid ours) + $(col dirty ours) ))" > /tmp/ours.cols.used
echo "$(( $(col valid stock) + $(col dirty stock) ))" > /tmp/stock.cols.used
COLS="$COLS used"; for v in ours stock; do
	echo "$(cat /tmp/$v.cols) $(cat /tmp/$v.cols.used)" > /tmp/$v.cols.new && mv /tmp/$v.cols.new /tmp/$v.cols
done
# Segments in use: valid + dirty.  Ours may use fewer than stock, whose
# flusher writes node blocks that the data written after them dirties
# again (ours leaves them to the checkpoint: node.c), but no fewer than
# the valid node and data blocks fill.
o=$(col used ours) s=$(col used stock)
need=$(( ($(col node ours) + $(col data ours) + 511) / 512 ))
if [ "$o" -le $((s + 3)) ] && [ "$o" -ge "$need" ]; then
	printf 'agree   %-8s ours %6s  stock %6s  (at most stock + 3, at least %s)\n' used $o $s $need
else
	printf 'DIFFER  %-8s ours %6s  stock %6s  (at most stock + 3, at least %s)\n' used $o $s $need
	bad=$((bad + 1))
fi
agree prefree 0 0	# freed since the checkpoint: none after sync
agree dnode 0 0		# dirty pages after sync
agree ddent 0 0
agree dmeta 0 0
agree dnat 0 0		# dirty NAT / SIT entries after sync
agree dsit 0 0
agree gc 0 0
agree ssr 0 0		# no SSR on a fresh fs
for c in fnid cp lfs mem_total mem_node mem_meta; do
	printf 'design  %-8s ours %6s  stock %6s\n' $c "$(col $c ours)" "$(col $c stock)"
done
[ $bad = 0 ] || fail "$bad f2fstat fields differ from the stock module beyond tolerance"
note "f2fstat: 15 fields agree with the stock module ($SMALL inline-sized files, kept in their inodes by both)"
