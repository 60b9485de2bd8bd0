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

# md5dev DEV: md5 of a whole block device (or file)
md5dev() { md5sum < "$1" | cut -d' ' -f1; }

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
