#!/bin/sh
# desc: an empty mkfs.f2fs image mounts, the root lists with ls -la, umount works, the image is byte-identical and fsck-clean afterwards
# disks: 256M
# timeout: 180
set -eu
. /tests/lib.sh

mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
before=$(sumdev /dev/vda)

mount -t f2fs -o ro /dev/vda /mnt/f2fs || fail "mount -o ro failed"
grep -q ' /mnt/f2fs f2fs ro' /proc/mounts || fail "not listed as a read-only f2fs mount"
ls -la /mnt/f2fs > /tmp/ls.txt || fail "ls -la failed"
cat /tmp/ls.txt
# The root holds exactly "." and ".." (plus lost+found if mkfs made one).
names=$(ls -a /mnt/f2fs | grep -v '^lost+found$' | tr '\n' ' ')
[ "$names" = ". .. " ] || fail "root lists '$names', expected '. .. '"
[ "$(stat -c '%i %F %h' /mnt/f2fs)" = "3 directory 2" ] ||
	fail "root is '$(stat -c '%i %F %h' /mnt/f2fs)', expected inode 3, a directory, 2 links"
dmesg | grep -q 'f2fs (vda): mounted, checkpoint version' || fail "no mount message naming vda"
umount /mnt/f2fs || fail "umount failed"

after=$(sumdev /dev/vda)
[ "$before" = "$after" ] || fail "image changed by mount + umount ($before -> $after)"
fsck_clean /dev/vda
