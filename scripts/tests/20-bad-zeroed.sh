#!/bin/sh
# desc: bad input: a zeroed device fails to mount with a one-line reason naming the device, and the module unloads cleanly
# disks: 64M
# timeout: 120
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

bad_mount /dev/vda 'no valid superblock'
grep -q 'superblock 1 invalid: bad magic' /tmp/dmesg.new || [ "$F2FS_VARIANT" = stock ] ||
	fail "the reason for superblock 1 is not given"
