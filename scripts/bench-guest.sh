#!/bin/sh
# bench-guest.sh - guest side of scripts/bench.sh (run from /work, with the
# host's tree.tar and tree.sum there).  Runs the same workloads on our f2fs
# (vda), the stock f2fs (vdb) and ext4 (vdc), each on a fresh disk, and
# appends one line per filesystem and workload to /host/results.raw:
#
#   FS WORKLOAD STATUS MS READ_REQS READ_SECTORS WRITE_REQS WRITE_SECTORS
#
# STATUS is ok or failed (then the counters are those seen until the
# failure).  MS comes from /proc/uptime (10 ms resolution); the counters
# are deltas of /sys/block/vdX/stat.  A failed workload does not stop the
# others.
. /lib/harness.sh

OUT=/host/results.raw
M=/mnt/bench
: > $OUT
mkdir -p $M
cp /work/tree.tar /tmp/tree.tar || { echo "bench: no /work/tree.tar"; exit 1; }
want_sum=$(cat /work/tree.sum)
MB=$(cat /work/big_mb 2>/dev/null || echo 1024)	# size of the sequential file

ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
devstat() { awk '{ print $1, $3, $5, $7 }' "/sys/block/$1/stat"; }
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
# treesum DIR: one md5 over "path md5" lines of every file, sorted by path
treesum_md5() { (cd "$1" && find . -type f -exec md5sum {} + | awk '{ print $2, $1 }' | sort | md5sum | cut -d' ' -f1); }

w_create() { mkdir $M/tree && tar xf /tmp/tree.tar -C $M/tree && sync; }
w_du() { cold; du -s $M/tree > /tmp/du.out && echo "du: $(cat /tmp/du.out)"; }
w_read() {
	cold
	got=$(treesum_md5 $M/tree) || return 1
	[ "$got" = "$want_sum" ] || { echo "bench: tree checksum $got, want $want_sum"; return 1; }
}
w_rm() { rm -r $M/tree && sync; }
w_write() { dd if=/dev/zero of=$M/big bs=1M count=$MB 2>/dev/null && sync; }
w_seqread() {
	cold
	n=$(dd if=$M/big bs=1M 2>/dev/null | wc -c)
	[ "$n" = $((MB * 1048576)) ] || { echo "bench: read $n bytes of the $MB MiB file"; return 1; }
}

# run FS DEV WORKLOAD: time one workload, record its line
run() {
	before=$(devstat "$2")
	t0=$(ms)
	if "w_$3" > /tmp/w.log 2>&1; then st=ok; else st=failed; fi
	t1=$(ms)
	after=$(devstat "$2")
	sed 's/^/    /' /tmp/w.log
	set -- "$1" "$3" "$st" $((t1 - t0)) $before $after
	line="$1 $2 $3 $4 $(($9 - $5)) $((${10} - $6)) $((${11} - $7)) $((${12} - $8))"
	echo "$line" >> $OUT
	echo "bench: $line"
}

bench_fs() {	# bench_fs FS DEV: mkfs, mount, all workloads, umount
	fs=$1 dev=$2
	case $fs in
	ours|stock)
		use_module "$fs" || { echo "bench: cannot load the $fs module"; return 1; }
		mkfs.f2fs -q -f "/dev/$dev" > /dev/null && mount -t f2fs "/dev/$dev" $M ;;
	ext4)
		modprobe ext4
		# no lazy init: background zeroing would add writes to the counters
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$dev" &&
			mount -t ext4 "/dev/$dev" $M ;;
	esac || {
		for w in create du read rm write seqread; do echo "$fs $w failed 0 0 0 0 0" >> $OUT; done
		echo "bench: mkfs or mount of $fs failed"
		return 1
	}
	echo "bench: $fs on /dev/$dev: $(df -k $M | awk 'NR == 2 { print $2 " KiB" }')"
	for w in create du read rm write seqread; do
		run "$fs" "$dev" $w
	done
	umount $M || echo "bench: umount of $fs failed"
}

bench_fs ours vda
bench_fs stock vdb
bench_fs ext4 vdc
dmesg | grep -iE 'f2fs|ext4' | tail -20
