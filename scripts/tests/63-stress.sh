#!/bin/sh
# desc: concurrency stress: fsstress processes race seeded creat/mkdir/rmdir/link/unlink/symlink, renames (over files and empty directories, across parents, into their own subtree, renameat2 flags when supported), write/mmap write/truncate/fsync/fdatasync/read/getdents/stat in one shared tree; no unexpected errors, the tool's walk clean (directory and file link counts, "..", getdents vs lstat, every block stamped for its inode and offset, symlinks), fsck clean, and the same after a remount; the stock module on a fresh image as the control
# disks: 512M 512M
# prep: 63-stress.prep
# timeout: 1500
set -eu
. /tests/lib.sh

# shellcheck disable=SC1091
. /work/params
SEED=$(test_seed)
note "params: $(cat /work/params)"
F=/mnt/f2fs
bad=""

# stress MODULE DEV RUNS: fresh filesystem on DEV, one fsstress run per
# NPROC:OPS in RUNS (run I in $F/rI with seed SEED+I), each followed by the
# tool's own walk; umount, fsck; remount, walk every run's tree again;
# umount, fsck.  Failures are collected in $bad (the rest still runs, so a
# failing run still gets its fsck report); fsck reports go to /host.
stress() {
	_m=$1 _dev=$2 _runs=$3
	use_module "$_m" || fail "cannot load the $_m module"
	mkfs.f2fs -q -f "$_dev" || fail "mkfs.f2fs $_dev"
	mount -t f2fs "$_dev" $F || fail "mount $_dev ($_m)"
	_i=0
	for _r in $_runs; do
		_np=${_r%%:*} _n=${_r#*:} _s=$((SEED + _i))
		_t0=$(date +%s)
		_rc=0
		fsstress -d $F/r$_i -p "$_np" -n "$_n" -s "$_s" > /tmp/fsstress.log 2>&1 || _rc=$?
		cp /tmp/fsstress.log "/host/fsstress-$_m-r$_i.log"
		grep -v '^  ' /tmp/fsstress.log | head -60
		note "$_m: run $_i ($_np x $_n, seed $_s): exit $_rc in $(($(date +%s) - _t0)) s"
		[ "$_rc" = 0 ] || bad="$bad $_m:run$_i(seed=$_s)"
		_i=$((_i + 1))
	done
	df -k $F | tail -n1
	umount $F || fail "umount ($_m)"
	( fsck_clean "$_dev" ) || { bad="$bad $_m:fsck"; cp /host/fsck-"$(basename "$_dev")".log "/host/fsck-$_m-1.log" 2>/dev/null || true; }
	mount -t f2fs "$_dev" $F || fail "remount $_dev ($_m)"
	_i=0
	for _r in $_runs; do
		_rc=0
		fsstress check $F/r$_i -s $((SEED + _i)) > /tmp/check.log 2>&1 || _rc=$?
		head -40 /tmp/check.log
		[ "$_rc" = 0 ] || bad="$bad $_m:remount-walk$_i"
		_i=$((_i + 1))
	done
	umount $F || fail "umount after the remount ($_m)"
	( fsck_clean "$_dev" ) || { bad="$bad $_m:fsck-after-remount"; cp /host/fsck-"$(basename "$_dev")".log "/host/fsck-$_m-2.log" 2>/dev/null || true; }
}

# The checker first: on tmpfs, the walk must pass a clean tree and catch
# every planted fault (a test that could not fail would prove nothing).
fsstress selftest /tmp/fsstress-selftest > /tmp/selftest.log 2>&1 || { cat /tmp/selftest.log; fail "fsstress selftest"; }
tail -n1 /tmp/selftest.log

stress ours /dev/vda "$RUNS"
stress stock /dev/vdb "$CONTROL"
[ -z "$bad" ] || fail "failed:$bad (images: build/work/$TEST_NAME/disk0.img ours, disk1.img stock)"
note "ours and the stock control: no unexpected errors, walks clean, fsck clean"
