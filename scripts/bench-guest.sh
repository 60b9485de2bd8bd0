#!/bin/sh
# bench-guest.sh - guest side of scripts/bench.sh (copied to /work with
# bench.conf, which sets FS, ROUNDS, BIG_MB, FSYNC_N, BIG_MD5, MANIFEST).
#
# Disks: vda is the workload, a raw tar of the kernel tree (read by tar -x
# -f /dev/vda, so reading the source never counts on a measured disk);
# vdb, vdc, ... are the measured disks, one per filesystem in FS order.
# Each round runs every filesystem in FS order; before each, its disk is
# blkdiscard'ed (QEMU punches holes: a fresh, zeroed sparse disk).  The
# phases (cold = sync, drop_caches, and a fresh mount):
#
#   untar      tar -x of the tree + sync (the source was read once before,
#              untimed, so it comes from the page cache)
#   umount     umount after the untar
#   readback   cold tar -c of the whole tree into a pipe (every byte read);
#              then, untimed, treesum of the tree must equal the host's
#              manifest (path, type, mode, size, symlink target, SHA-256)
#   umount2    umount after the read-back: the atime cost
#   du         cold du -s of the tree
#   rm         rm -r of the tree + sync (warm, right after du, as in the
#              article)
#   write      BIG_MB MiB from /dev/zero (dd bs=1M) + sync
#   bigread    cold read of that file (dd to /dev/null); then, untimed, its
#              md5sum must be the host's
#   fsync      fsyncbench: FSYNC_N appends of 4 KiB, each followed by fsync
#
# and, at the start of each round, on the first measured disk (discarded
# after), the device's own speed for the write phase to be held against:
#
#   rawwrite   BIG_MB MiB from /dev/zero straight to the disk, dd bs=4M
#              oflag=direct (recorded as filesystem "raw")
#
# Output: one line per round, filesystem and phase in /host/results.raw:
#
#   ROUND FS PHASE STATUS MS RD_REQS RD_SECTORS WR_REQS WR_SECTORS NOTE
#
# STATUS ok or failed (then the counters are those until the failure); MS
# from /proc/uptime (10 ms resolution); the counters are deltas of
# /sys/block/vdX/stat; NOTE is one word (du's KiB, fsync's median us) or
# "-".  After the last phase the f2fs filesystems get fsck.f2fs (line
# "ROUND FS fsck ok|failed 0 0 0 0 0 -").  A failed phase does not stop the
# others; a failed mkfs or mount fails the rest of that filesystem's round.
set -u
# shellcheck source=qemu/guest-lib.sh
. /lib/harness.sh
# shellcheck disable=SC1091 # written by scripts/bench.sh
. /work/bench.conf

OUT=/host/results.raw
M=/mnt/bench
SRC=/dev/vda
: > $OUT
mkdir -p $M

ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
devstat() { awk '{ print $1, $3, $5, $7 }' "/sys/block/$1/stat"; }
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
NOTE=-

p_untar() { tar -x -f $SRC -C $M && sync; }
p_umount() { umount $M; }
p_readback() {
	# shellcheck disable=SC3040 # busybox ash has pipefail
	n=$(set -o pipefail; tar -c -f - -C $M linux | wc -c) || return 1
	[ "$n" -gt 0 ] || return 1
	echo "readback: $n bytes of tar"
}
p_umount2() { umount $M; }
p_du() { NOTE=$(du -s $M/linux | awk '{ print $1 }') && [ -n "$NOTE" ]; }
p_rm() { rm -r $M/linux && sync; }
p_write() { dd if=/dev/zero of=$M/big bs=1M count="$BIG_MB" 2>/dev/null && sync; }
p_bigread() { dd if=$M/big of=/dev/null bs=1M 2>/dev/null; }
p_rawwrite() { dd if=/dev/zero of="/dev/$RAWDEV" bs=4M count=$((BIG_MB / 4)) oflag=direct 2>/dev/null; }
p_fsync() {
	line=$(fsyncbench $M/fsync.log "$FSYNC_N" 4096) || return 1
	echo "fsync: $line"
	NOTE=$(echo "$line" | sed -n 's/.*fsync_median_us \([0-9]*\).*/\1/p')
}

# record ROUND FS PHASE STATUS MS BEFORE(4) AFTER(4)
record() {
	line="$1 $2 $3 $4 $5 $((${10} - $6)) $((${11} - $7)) $((${12} - $8)) $((${13} - $9)) $NOTE"
	echo "$line" >> $OUT
	echo "bench: $line"
}

# Our module's own counters around a phase (its debugfs stats), so that a
# write count can be put down to its blocks: "stats: KEY +N ..." for the
# keys that moved (checkpoints, NAT and SIT blocks, per-log allocations,
# bios).  Nothing for the other filesystems, or while unmounted.
STATKEYS='^(cp_calls|cp_skipped|nat_blocks_written|sit_blocks_written|nat_flushes|sit_flushes|lfs_blocks_.*|ssr_blocks_.*|segs_opened_.*|wb_bios|wb_bio_blocks|wb_slept_batches|gc_calls_.*|discarded_segs) '
fsstats() {	# fsstats FS DEV > FILE
	[ "$1" = ours ] && [ -r "/sys/kernel/debug/f2fs/$2/stats" ] &&
		grep -E "$STATKEYS" "/sys/kernel/debug/f2fs/$2/stats"
	return 0
}
statdelta() {	# statdelta BEFORE AFTER: the keys that moved
	awk 'NR == FNR { b[$1] = $2; next }
	     ($1 in b) && $2 != b[$1] { s = s " " $1 " +" ($2 - b[$1]) }
	     END { if (s != "") print "    stats:" s }' "$1" "$2"
}

# phase ROUND FS DEV NAME: time p_NAME, record its line
phase() {
	NOTE=-
	fsstats "$2" "$3" > /tmp/st0
	before=$(devstat "$3")
	t0=$(ms)
	if "p_$4" > /tmp/p.log 2>&1; then st=ok; else st=failed; fi
	t1=$(ms)
	after=$(devstat "$3")
	fsstats "$2" "$3" > /tmp/st1
	sed 's/^/    /' /tmp/p.log
	statdelta /tmp/st0 /tmp/st1
	# shellcheck disable=SC2086
	record "$1" "$2" "$4" $st $((t1 - t0)) $before $after
	[ $st = ok ]
}

mkfs_mount() {	# mkfs_mount FS DEV
	case $1 in
	ours|stock)
		use_module "$1" && mkfs.f2fs -q -f "/dev/$2" > /dev/null ;;
	ext4)
		# no lazy init: background zeroing would add writes to the counters
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$2" ;;
	btrfs)
		modprobe btrfs && mkfs.btrfs -q -f "/dev/$2" > /dev/null ;;
	nilfs2)
		modprobe nilfs2 && mkfs.nilfs2 -q -f "/dev/$2" > /dev/null ;;
	esac && fs_mount "$1" "$2"
}
fs_mount() {	# fs_mount FS DEV: mount on a cold cache
	cold
	case $1 in ours|stock) t=f2fs ;; *) t=$1 ;; esac
	mount -t "$t" "/dev/$2" $M
}

PHASES="untar umount readback umount2 du rm write bigread fsync"
fail_rest() {	# fail_rest ROUND FS FROM: the phases from FROM on fail
	on=0
	for p in $PHASES; do
		[ "$p" = "$3" ] && on=1
		[ $on = 1 ] && echo "$1 $2 $p failed 0 0 0 0 0 -" >> $OUT
	done
}

bench_fs() {	# bench_fs ROUND FS DEV
	r=$1 fs=$2 dev=$3
	umount $M 2>/dev/null
	blkdiscard "/dev/$dev" || echo "bench: blkdiscard /dev/$dev failed"
	mkfs_mount "$fs" "$dev" || { echo "bench: mkfs or mount of $fs failed"; fail_rest "$r" "$fs" untar; return 1; }
	echo "bench: round $r, $fs on /dev/$dev: $(df -k $M | awk 'NR == 2 { print $2 " KiB" }')"
	# the source into the page cache (untimed): the untar reads no disk
	cat $SRC > /dev/null
	phase "$r" "$fs" "$dev" untar
	phase "$r" "$fs" "$dev" umount
	fs_mount "$fs" "$dev" || { fail_rest "$r" "$fs" readback; return 1; }
	if phase "$r" "$fs" "$dev" readback; then
		if treesum -f type,mode,size,link,content $M/linux > /tmp/manifest 2>/tmp/treesum.err \
			&& cmp -s /tmp/manifest "/work/$MANIFEST"; then
			echo "bench: $fs: the tree read back equals the host's manifest ($(wc -l < /tmp/manifest) entries)"
		else
			echo "bench: $fs: the tree read back differs from the host's manifest:"
			cat /tmp/treesum.err
			diff /work/"$MANIFEST" /tmp/manifest | head -20
			sed -i "\$s/^$r $fs readback ok /$r $fs readback failed /" $OUT
		fi
	fi
	phase "$r" "$fs" "$dev" umount2
	fs_mount "$fs" "$dev" || { fail_rest "$r" "$fs" du; return 1; }
	phase "$r" "$fs" "$dev" du
	phase "$r" "$fs" "$dev" rm
	phase "$r" "$fs" "$dev" write
	umount $M
	fs_mount "$fs" "$dev" || { fail_rest "$r" "$fs" bigread; return 1; }
	if phase "$r" "$fs" "$dev" bigread; then
		sum=$(md5sum < $M/big | cut -d' ' -f1)
		if [ "$sum" = "$BIG_MD5" ]; then
			echo "bench: $fs: the $BIG_MB MiB file reads back as written"
		else
			echo "bench: $fs: the $BIG_MB MiB file has md5 $sum, want $BIG_MD5"
			sed -i "\$s/^$r $fs bigread ok /$r $fs bigread failed /" $OUT
		fi
	fi
	rm -f $M/big
	sync
	phase "$r" "$fs" "$dev" fsync
	umount $M || echo "bench: umount of $fs failed"
	case $fs in
	ours|stock)
		if fsck.f2fs "/dev/$dev" > /tmp/fsck.log 2>&1; then st=ok; else st=failed; tail -20 /tmp/fsck.log; fi
		echo "$r $fs fsck $st 0 0 0 0 0 -" >> $OUT
		echo "bench: $fs: fsck.f2fs $st" ;;
	esac
}

r=1
while [ $r -le "$ROUNDS" ]; do
	RAWDEV=vdb
	blkdiscard /dev/$RAWDEV || echo "bench: blkdiscard /dev/$RAWDEV failed"
	phase "$r" raw $RAWDEV rawwrite
	i=0
	for fs in $FS; do
		# vdb for the first filesystem, vdc for the second ...
		dev=vd$(echo bcdefghijklmnop | cut -c$((i + 1)))
		bench_fs "$r" "$fs" "$dev"
		i=$((i + 1))
	done
	r=$((r + 1))
done
dmesg | grep -iE 'f2fs|ext4|btrfs|nilfs' | tail -30
