#!/bin/sh
# lib.sh - helpers for guest tests:  . /tests/lib.sh
# Env from /init: TEST_NAME, F2FS_VARIANT (ours|stock).  /host is the 9p
# results share (build/logs/TEST on the host), /work the test's work dir
# (when the test has a prep script), disks are /dev/vda, /dev/vdb, ...
# shellcheck source=qemu/guest-lib.sh
. /lib/harness.sh

# fail MSG: print and end the test with status 1
fail() { echo "FAIL: $*"; exit 1; }

# note MSG: print a progress note
note() { echo "note: $*"; }

# stat_of DEV KEY: KEY's value in our module's /sys/kernel/debug/f2fs/DEV/stats
# (tests that read one mount's file redefine it with the key alone)
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/f2fs/$1/stats"; }

# fsck_clean DEV: full read-only check with fsck.f2fs (no fixing; stdin is
# /dev/null so it answers no prompt).  Fails the test unless the exit status
# is 0 and the report holds none of the patterns fsck prints on problems.
FSCK_BAD='\[Fail\]|\[ASSERT\]|\[FIX\]|is unreachable|Do you want|Invalid SB|Can.t find a valid'
fsck_clean() {
	_out=/tmp/fsck.$$.log
	_rc=0
	fsck.f2fs "$1" </dev/null >"$_out" 2>&1 || _rc=$?
	if [ "$_rc" != 0 ] || grep -qE "$FSCK_BAD" "$_out"; then
		cat "$_out"
		[ -d /host ] && cp "$_out" "/host/fsck-$(basename "$1").log" 2>/dev/null
		fail "fsck.f2fs $1 is not clean (exit $_rc)"
	fi
	note "fsck.f2fs $1 clean"
}

# stock_unchanged DEV [LABEL]: the image on DEV must be canonical: a
# read-only mount by the stock module and a full walk of its tree (every
# directory listed, every entry stat'ed, every file read to its end, every
# symlink read) must leave every block of DEV as it was.  The caller has
# unmounted DEV and every other f2fs (the module is switched); the module
# loaded before is loaded again after.  canoncheck (qemu/guest-tools/)
# keeps a 64-bit hash of every 4 KiB block and the metadata and node blocks
# before the mount; on a change its report (each changed block with its
# area, and for superblock, checkpoint, SIT, NAT, SSA and node blocks the
# fields that changed, old -> new, with a tally per field and inode type)
# is printed and kept in /host/canon-LABEL.txt, with the stock module's
# kernel messages, and the test fails.  With canon=report on the kernel
# command line (GUEST_ARGS=canon=report) the test goes on after a changed
# image and fails at its end, so that one run shows every image that is
# not canonical.
CANON_MNT=/mnt/canon
canon_fail() {  # canon_fail MSG: fail, or with canon=report note and fail at exit
	if [ "$(cmdline_get canon || true)" != report ]; then fail "$@"; fi
	echo "FAIL (canon=report, going on): $*"
	echo "$*" >> /tmp/canon.failed
	trap 'echo "FAIL: $(wc -l < /tmp/canon.failed) stock_unchanged checks failed (canon=report): $(cut -c1-120 /tmp/canon.failed | tr "\n" ";")"; exit 1' EXIT
}
stock_unchanged() {
	_cd=$1
	_cl=$(echo "${2:-$(basename "$1")}" | tr -c 'a-zA-Z0-9.\n-' _)
	_cs=/tmp/canon.state
	_ct=$(cut -d' ' -f1 /proc/uptime)
	if grep -q "^$_cd " /proc/mounts; then fail "stock_unchanged: $_cd is mounted"; fi
	_cprev=$(f2fs_loaded)
	rm -rf $_cs
	canoncheck save "$_cd" $_cs > /tmp/canon.save || fail "stock_unchanged: canoncheck save $_cd failed"
	use_module stock ||
		fail "stock_unchanged: cannot switch to the stock module (f2fs mounted: $(awk '$3 == "f2fs" { print $1 " on " $2 }' /proc/mounts | tr '\n' ' '))"
	_ck=$(dmesg | wc -l)
	mkdir -p $CANON_MNT
	_cw=0
	if mount -t f2fs -o ro "$_cd" $CANON_MNT 2> /tmp/canon.walk; then
		canoncheck walk $CANON_MNT > /tmp/canon.walk 2>&1 || _cw=$?
		umount $CANON_MNT || fail "stock_unchanged: umount of $_cd failed"
	else
		_cw=mount
	fi
	dmesg | tail -n +$((_ck + 1)) > /tmp/canon.klog
	if [ "$_cprev" = none ]; then
		rmmod f2fs || fail "stock_unchanged: rmmod of the stock module failed"
	else
		use_module "$_cprev" || fail "stock_unchanged: cannot switch back to the $_cprev module"
	fi
	_cr=0
	canoncheck diff "$_cd" $_cs > /tmp/canon.diff 2>&1 || _cr=$?
	rm -rf $_cs
	if [ "$_cw" != 0 ]; then
		cat /tmp/canon.walk /tmp/canon.klog
		[ "$_cr" = 0 ] || cat /tmp/canon.diff
		[ "$_cw" != mount ] ||
			fail "stock_unchanged: the stock module cannot mount $_cd ($_cl) read-only: $(grep -o 'F2FS-fs.*' /tmp/canon.klog | head -3 | tr '\n' ' ')"
		fail "stock_unchanged: walking $_cd ($_cl) under the stock module reported errors"
	fi
	case $_cr in
	0) note "$_cl: canonical: the stock module's read-only mount and walk changed no block of $_cd ($(sed 's/^canoncheck: walk [^:]*: //' /tmp/canon.walk); checked in $(awk -v a="$_ct" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }') s)" ;;
	1)
		{ cat /tmp/canon.diff; echo "--- stock module's kernel messages:"; cat /tmp/canon.klog; } \
			> "/host/canon-$_cl.txt" 2>/dev/null || true
		head -n 150 /tmp/canon.diff
		[ "$(wc -l < /tmp/canon.diff)" -le 150 ] || { echo "..."; grep '^canoncheck:' /tmp/canon.diff; }
		grep 'F2FS-fs' /tmp/canon.klog | head -20
		canon_fail "stock_unchanged: the stock module's read-only mount and walk rewrote $_cd ($_cl): $(grep '^canoncheck: diff' /tmp/canon.diff | sed 's/^canoncheck: diff [^:]*: //') (report: canon-$_cl.txt)" ;;
	*) cat /tmp/canon.diff; fail "stock_unchanged: canoncheck diff $_cd failed" ;;
	esac
}

# expect_mount_fails DEV [MNT] [OPTS]: mount -t f2fs must fail
expect_mount_fails() {
	_mnt=${2:-/mnt/f2fs}
	mkdir -p "$_mnt"
	if mount -t f2fs ${3:+-o "$3"} "$1" "$_mnt" 2>/tmp/mount.err; then
		umount "$_mnt"
		fail "mount of $1 succeeded but should have failed"
	fi
	note "mount of $1 failed as expected: $(cat /tmp/mount.err)"
}

# kmark: remember this point of the kernel log; ksince: the kernel lines
# written after it.  The point is a marker line written to /dev/kmsg, so
# equal time stamps do not blur it; when a flood wrapped the ring buffer
# past the marker, ksince gives the whole buffer (all of it is newer).
kmark() {
	_kmn=$((${_kmn:-0} + 1))
	_km="kmark $$.$_kmn"
	echo "$_km" > /dev/kmsg
}
ksince() {
	dmesg | awk -v m="$_km" '{ l[NR] = $0 } index($0, m) { s = NR }
		END { for (i = s + 1; i <= NR; i++) print l[i] }'
}

# sumdev DEV: a digest of a whole block device (or file) that skips its
# zero blocks (devsum: BLAKE2b over the indices and bytes of the others,
# and the length), for "unchanged" checks: md5 of every byte took 28 s a
# pair of test 31's images under TCG
sumdev() { devsum "$1"; }

# use_module ours|stock comes from /lib/harness.sh (unmount f2fs first).
# f2fs_loaded prints the variant loaded now.

# on_both FUNC ARGS...: run "FUNC DIR ARGS..." for DIR = $REF (a tmpfs
# reference) and then $MNT (the filesystem under test), each in a subshell
# with set -e; fails the test naming the directory whose run failed.
on_both() {
	_fn=$1
	shift
	for _d in "$REF" "$MNT"; do
		( set -e; "$_fn" "$_d" "$@" ) || fail "$_fn failed on $_d${*:+ ($*)}"
	done
}

# same_tree REFMAN DIR LABEL [FIELDS]: the treesum manifest of DIR must be
# REFMAN byte for byte (default fields: type,mode,nlink,size,link,content);
# on a difference the first lines of the diff are shown and both manifests
# copied to /host.
same_tree() {
	treesum -f "${4:-type,mode,nlink,size,link,content}" "$2" > /tmp/got.man ||
		fail "treesum of $2 reported errors ($3)"
	if ! cmp -s "$1" /tmp/got.man; then
		diff "$1" /tmp/got.man | head -30 | cut -c1-200
		cp "$1" /host/ref.man 2>/dev/null || true
		cp /tmp/got.man "/host/got-$(echo "$3" | tr -c 'a-zA-Z0-9\n' _).man" 2>/dev/null || true
		fail "$2 differs from the reference ($3)"
	fi
	note "$2 matches the reference ($3): $(wc -l < "$1") entries"
}

# test_seed: a seed from "seed=N" on the kernel command line (check.sh
# passes GUEST_ARGS), else a random one; print it so a run can be replayed.
test_seed() {
	_s=$(cmdline_get seed || od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	echo "note: seed $_s (replay: GUEST_ARGS=seed=$_s scripts/check.sh $TEST_NAME)" >&2
	echo "$_s"
}
