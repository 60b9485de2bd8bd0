#!/bin/sh
# desc: security labels through the LSM hook (issue 16): the guest boots with SELinux (permissive) and loads a minimal policy (5a-security-label.cil: f2fs labelled by xattr); every file, directory, symlink and device node created on our f2fs gets its security.selinux label at creation (security_inode_init_security through f2fs_init_inode_xattrs), inline or in an xattr node beside user xattrs, and keeps it across a remount with the caches dropped; the stock module, as the control, labels the same way and reads our labels, and ours reads stock's; fsck clean
# disks: 256M
# prep: 5a-security-label.prep
# args: security=selinux selinux=1 enforcing=0
# timeout: 300
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
grep -qw selinux /sys/kernel/security/lsm 2>/dev/null ||
	{ mount -t securityfs none /sys/kernel/security 2>/dev/null || true; }
grep -qw selinux /sys/kernel/security/lsm || fail "SELinux is not active (lsm: $(cat /sys/kernel/security/lsm))"
mkdir -p /sys/fs/selinux
mount -t selinuxfs none /sys/fs/selinux || fail "mount selinuxfs"
cat /work/policy > /sys/fs/selinux/load || fail "loading the policy failed"
[ "$(cat /sys/fs/selinux/enforce)" = 0 ] || fail "SELinux is enforcing; the test wants permissive"
note "SELinux permissive with the test policy loaded"

label() { getfattr -h --absolute-names -n security.selinux --only-values "$1" 2>/dev/null | tr -d '\0'; }
want=u:object_r:t
# make DIR: one of each kind, plus user xattrs that push a file's
# xattrs past the inline area into an xattr node
make() {
	mkdir "$1/d"
	echo data > "$1/d/f"
	ln -s f "$1/d/l"
	mknod "$1/d/fifo" p
	echo big > "$1/d/x"
	i=0
	while [ $i -lt 8 ]; do
		setfattr -n "user.k$i" -v "$(head -c 100 /dev/zero | tr '\0' v)" "$1/d/x"
		i=$((i + 1))
	done
}
check() {  # check DIR LABEL
	for p in d d/f d/l d/fifo d/x; do
		got=$(label "$1/$p")
		case $got in
		"$want"*) ;;
		*) fail "$2: $p has security.selinux '$got', want $want..." ;;
		esac
	done
	[ "$(getfattr --absolute-names -n user.k7 --only-values "$1/d/x" | wc -c)" = 100 ] || fail "$2: user.k7 lost beside the label"
	note "$2: every object labelled $(label "$1/d/f")"
}
for mod in ours stock; do
	use_module $mod
	mkfs.f2fs -q -f /dev/vda > /dev/null
	mount -t f2fs /dev/vda $MNT
	make $MNT
	check $MNT "$mod, cached"
	umount $MNT
	echo 3 > /proc/sys/vm/drop_caches
	fsck_clean /dev/vda
	other=stock
	[ $mod = ours ] || other=ours
	mount -t f2fs /dev/vda $MNT
	check $MNT "$mod, remounted"
	umount $MNT
	use_module $other
	mount -t f2fs /dev/vda $MNT
	check $MNT "written by $mod, read by $other"
	umount $MNT
done
