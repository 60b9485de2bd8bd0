#!/bin/sh
# desc: bad input: random garbage superblocks (with and without the right magic) fail to mount cleanly
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
dd if=/dev/urandom of=/dev/vda bs=4096 count=2 conv=notrunc 2>/dev/null
bad_mount /dev/vda 'no valid superblock'

# Garbage that carries the right magic in both copies: each copy is then
# rejected for what is wrong inside it.  Several random draws.
for i in 1 2 3 4 5 6 7 8; do
	dd if=/dev/urandom of=/dev/vda bs=4096 count=2 conv=notrunc 2>/dev/null
	sb_set 0 $((0xF2F52010))
	bad_mount /dev/vda 'superblock 2 invalid'
done
