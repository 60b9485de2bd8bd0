#!/bin/sh
# desc: mount options: a fresh mkfs image mounts with nothing alarming in the log; the defaults (active_logs=6, background_gc=on, discard, no_heap, alloc_mode=reuse, lazytime, user_xattr, acl, inline_xattr, inline_data, inline_dentry) and every option given come back in /proc/mounts; unknown options and malformed ones are refused with one line naming them; a remount with the whole /proc/mounts string works (ro and rw again), one changing background_gc, discard or lazytime takes effect, one changing active_logs or disable_roll_forward is refused by name; discard sends discards for freed segments (counted in /sys/block/vda/stat and in stats) and nodiscard none; disable_ext_identify keeps .mp4 files out of the cold log; fsck is clean
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh

F=/mnt/f2fs
S=/sys/kernel/debug/f2fs/vda/stats
use_module ours
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $S; }
opts() { awk -v m="$F" '$2 == m { print $4 }' /proc/mounts; }
has() { echo ",$(opts)," | grep -q ",$1,"; }
discards() { awk '{ print $12 }' /sys/block/vda/stat; }
gc_thread() { ps | grep -c '[f]2fs_gc-' || true; }
refused() {  # refused OPTS WORDS: the mount fails, the log names WORDS
	dmesg -c > /dev/null
	if mount -t f2fs -o "$1" /dev/vda $F 2>/dev/null; then
		umount $F
		fail "mount -o $1 succeeded"
	fi
	dmesg | grep -q "$2" || { dmesg | tail -3; fail "mount -o $1: no '$2' in the log"; }
	note "mount -o $1 refused: $(dmesg | grep f2fs | tail -1 | sed 's/^\[[^]]*\] //')"
}

mkfs.f2fs -q -f -e mp4 /dev/vda || fail "mkfs failed"
dmesg -c > /dev/null
mount -t f2fs /dev/vda $F || fail "mount failed"
dmesg | grep 'f2fs (vda)' > /tmp/mlog || true
[ "$(wc -l < /tmp/mlog)" = 1 ] && grep -q 'mounted, checkpoint version' /tmp/mlog ||
	{ cat /tmp/mlog; fail "a fresh image's mount logged more than the mounted line"; }
note "options in force: $(opts)"
for o in active_logs=6 background_gc=on discard no_heap alloc_mode=reuse lazytime user_xattr acl inline_xattr inline_data inline_dentry; do
	has "$o" || fail "default $o missing from /proc/mounts ($(opts))"
done
[ "$(gc_thread)" = 1 ] || fail "no background GC thread"

# discard: delete a file, checkpoint, the freed segments are discarded.
head -c 8388608 /dev/urandom > $F/big
sync
d0=$(discards)
rm $F/big
sync
sync
[ "$(discards)" -gt "$d0" ] || fail "no discard issued for the freed segments ($d0 -> $(discards))"
[ "$(stat_of discarded_segs)" -ge 4 ] || fail "stats count $(stat_of discarded_segs) discarded segments for 8 MiB freed"
[ "$(stat_of discard_errors)" = 0 ] || fail "discard errors"
note "discard: $(($(discards) - d0)) discard requests, $(stat_of discarded_segs) segments"

# remount with the whole string, read-only and back; then change what can
all=$(opts | sed 's/^rw,//')
mount -o "remount,ro,$all" $F || fail "remount,ro with the options in force ($all) failed"
grep -q " $F f2fs ro," /proc/mounts || fail "not read-only after remount,ro"
mount -o "remount,rw,$all" $F || fail "remount,rw with the options in force failed"
mount -o remount,background_gc=off,nodiscard,nolazytime $F || fail "remount changing background_gc, discard, lazytime failed"
has background_gc=off && has nodiscard && ! has lazytime || fail "remount changes not shown: $(opts)"
[ "$(gc_thread)" = 0 ] || fail "the GC thread still runs with background_gc=off"
head -c 8388608 /dev/urandom > $F/big2
sync
d0=$(discards)
rm $F/big2
sync
sync
[ "$(discards)" = "$d0" ] || fail "discards issued with nodiscard"
mount -o remount,background_gc=on $F || fail "remount,background_gc=on failed"
[ "$(gc_thread)" = 1 ] || fail "the GC thread did not come back"
dmesg -c > /dev/null
if mount -o remount,active_logs=4 $F 2>/dev/null; then fail "remount changing active_logs succeeded"; fi
dmesg | grep -q 'active_logs cannot change on remount' || fail "no message naming active_logs"
if mount -o remount,disable_roll_forward $F 2>/dev/null; then fail "remount adding disable_roll_forward succeeded"; fi
dmesg | grep -q 'disable_roll_forward cannot change on remount' || fail "no message naming disable_roll_forward"
umount $F

# every option given comes back (lazytime is a mount flag: mount(8) takes
# lazytime and nolazytime itself, so the remount above is where it changes)
mount -t f2fs -o active_logs=4,background_gc=off,nodiscard,heap,alloc_mode=default,disable_ext_identify,disable_roll_forward /dev/vda $F ||
	fail "mount with every option failed"
for o in active_logs=4 background_gc=off nodiscard heap alloc_mode=default disable_ext_identify disable_roll_forward; do
	has "$o" || fail "$o missing from /proc/mounts ($(opts))"
done
# disable_ext_identify: an .mp4 is not cold (active_logs=4: warm data goes to the cold log, so check with 6 below)
umount $F
mount -t f2fs -o disable_ext_identify /dev/vda $F || fail "mount -o disable_ext_identify"
head -c 4194304 /dev/urandom > $F/clip.mp4
sync
[ "$(stat_of lfs_blocks_cold_data)" = 0 ] || fail "an .mp4 went to the cold log with disable_ext_identify"
umount $F
mount -t f2fs /dev/vda $F || fail "mount"
head -c 4194304 /dev/urandom > $F/clip2.mp4
sync
[ "$(stat_of lfs_blocks_cold_data)" -ge 1024 ] || fail "an .mp4 did not go to the cold log by default"
umount $F

refused bogus_option 'unrecognized mount option "bogus_option"'
refused active_logs=3 'active_logs must be 2, 4 or 6'
refused background_gc=maybe 'background_gc must be on or off'
refused inline_data=1 'unrecognized mount option "inline_data=1"'
refused alloc_mode=fast 'alloc_mode must be reuse or default, not "fast"'
fsck_clean /dev/vda
