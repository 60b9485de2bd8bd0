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
