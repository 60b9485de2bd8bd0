#!/bin/sh
# desc: orphan inodes: a 4 MiB file unlinked while open is recorded by the checkpoint of a sync (orphan flag); a copy of the device taken while still mounted (the "crash image") frees it when mounted by our module and by the stock one (df back to the level before the file, nothing else lost, fsck.f2fs clean); on the live mount, closing the file and unmounting returns the space too
# disks: 256M 256M 256M
# timeout: 300
#
# vda: the live filesystem; vdb: crash image mounted by our module;
# vdc: the same crash image mounted by the stock module (cross-check of
# our orphan blocks).
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
used() { df -k "$1" | awk 'NR == 2 { print $3 }'; }
# near A B WHAT: A and B within 64 KiB
near() {
	[ $(($1 - $2)) -le 64 ] && [ $(($2 - $1)) -le 64 ] ||
		fail "$3: df used $1 KiB, expected about $2 KiB"
}
# cp_state DEV: the checkpoint flags fsck.f2fs prints
cp_state() { fsck.f2fs "$1" </dev/null 2>&1 | grep 'checkpoint state' | tr -s ' ' || true; }
# check_keep MNT: the file that was never unlinked is intact, no orphan left
check_keep() {
	[ "$(md5sum < "$1/keep")" = "$keep_sum" ] || fail "$1/keep lost its content"
	[ ! -e "$1/orphan" ] || fail "$1/orphan reappeared"
	[ "$(ls "$1" | tr '\n' ' ')" = "keep " ] || fail "$1 holds '$(ls "$1" | tr '\n' ' ')'"
}

use_module ours
mkfs.f2fs -q -f /dev/vda > /dev/null || fail "mkfs failed"
mount -t f2fs /dev/vda $MNT || fail "mount failed"
head -c 300000 /dev/urandom > $MNT/keep
keep_sum=$(md5sum < $MNT/keep)
sync
used0=$(used $MNT)
head -c 4194304 /dev/urandom > /tmp/orphan
cp /tmp/orphan $MNT/orphan
sync
used1=$(used $MNT)
note "df used: $used0 KiB before the file, $used1 KiB with it"
[ $((used1 - used0)) -ge 4096 ] || fail "the 4 MiB file takes $((used1 - used0)) KiB"

exec 3<$MNT/orphan
rm $MNT/orphan
sync
[ "$(md5sum <&3)" = "$(md5sum < /tmp/orphan)" ] || fail "the open unlinked file lost its content"
used2=$(used $MNT)
note "after rm with the file open and sync: df used $used2 KiB"
[ $((used2 - used0)) -ge 4096 ] || fail "space of an open unlinked file released early ($used2 KiB used)"
dd if=/dev/vda of=/dev/vdb bs=1M iflag=direct 2>/dev/null || fail "copying the mounted device failed"
dd if=/dev/vdb of=/dev/vdc bs=1M 2>/dev/null || fail "copying the crash image failed"
state=$(cp_state /dev/vdb)
note "crash image: $state"
case $state in *orphan*) ;; *) fail "the checkpoint after sync does not record the orphan ($state)" ;; esac

# ---- the crash image, our module -------------------------------------------
mkdir -p /mnt/b /mnt/c
mount -t f2fs /dev/vdb /mnt/b || fail "our module cannot mount the crash image"
dmesg | grep 'vdb' | tail -3 | sed 's/^/  /'
usedb=$(used /mnt/b)
note "crash image mounted by ours: df used $usedb KiB"
near "$usedb" "$used0" "crash image mounted by our module"
check_keep /mnt/b
umount /mnt/b
fsck_clean /dev/vdb
state=$(cp_state /dev/vdb)
case $state in *orphan*) fail "orphan flag still set after our mount freed the orphan ($state)" ;; esac
mount -t f2fs /dev/vdb /mnt/b || fail "second mount of the crash image"
near "$(used /mnt/b)" "$used0" "crash image, second mount"
check_keep /mnt/b
umount /mnt/b

# ---- the normal path: close, umount -----------------------------------------
exec 3<&-
umount $MNT || fail "umount failed"
fsck_clean /dev/vda
mount -t f2fs /dev/vda $MNT || fail "remount failed"
near "$(used $MNT)" "$used0" "after close and umount"
check_keep $MNT
umount $MNT
# The live filesystem, and the crash image our module freed the orphan of
# (vdc, where the stock module does that, is the stock module's image).
stock_unchanged /dev/vda live
stock_unchanged /dev/vdb crash-image

# ---- the crash image, stock module ---------------------------------------------
use_module stock
mount -t f2fs /dev/vdc /mnt/c || fail "the stock module cannot mount the crash image"
usedc=$(used /mnt/c)
note "crash image mounted by stock: df used $usedc KiB"
near "$usedc" "$used0" "crash image mounted by the stock module"
check_keep /mnt/c
umount /mnt/c
fsck_clean /dev/vdc
use_module ours
