#!/bin/sh
# desc: extended attributes and POSIX ACLs, with the stock module as the control on the same workload: getxattr/setxattr/listxattr/removexattr with create/replace, ENODATA, ERANGE, E2BIG, ENOSPC on a full device; user/trusted/security namespaces; nouser_xattr; rename and link; ACLs with mode synchronisation (setfacl, chmod), default ACLs inherited by files and directories, permission checks through the ACL, umask without a default ACL; a seeded random xattr workload checked against a model (inline_xattr and noinline_xattr); all across a remount; then each module reads and modifies what the other wrote (inline xattrs, xattr nodes, ACLs), fsck clean, canonical for the stock module
# disks: 256M 256M 64M
# timeout: 600
#
# vda: written by our module, vdb: by the stock module (the control).  Every
# step's output must be the same on both, and match what the step expects.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
SEED=$(test_seed)
# ROOM: the inline area (200 bytes) plus an xattr node's 4072; PAD: bytes
# kept free (none: as in stock, a list may fill the room).
ROOM_INLINE=4272
ROOM_NODE=4072
PAD=0

# expect_out LABEL EXPECTED ACTUAL
expect_out() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# semantics DIR: single operations with their exact results
semantics() {
	D=$1
	cd "$D"
	touch f g small
	mkdir d
	xattrop set small user.tiny t > /dev/null
	x() { r=$(xattrop "$@"); echo "$* -> $r"; }
	x get f user.none
	x set f user.a hello
	x get f user.a
	x set f user.a again create
	x set f user.b x replace
	x set f user.a world replace
	x get f user.a
	x get f user.a 3
	x get f user.a 5
	x remove f user.a
	x remove f user.a
	x get f user.a
	x set f "user.$(head -c 256 /dev/zero | tr '\0' n)" v
	x set f "user.$(head -c 255 /dev/zero | tr '\0' n)" v
	x setn f user.huge 5000
	x setn f user.big 4000
	x set f user.empty ""
	x get f user.empty
	x set f trusted.t tval
	x set f security.s sval
	x list f
	x list f 10
	x set d user.dirattr dv
	x setn g user.inline 100
	x setn g user.node 1000
	x get g user.inline
	x fill g user.fill 100
	x list g
	mv f f2
	x get f2 user.empty
	ln f2 f3
	x get f3 trusted.t
	x set f3 user.vialink 1
	x get f2 user.vialink
	mknod fifo p
	x set fifo user.no x
	x set fifo trusted.yes x
	x get fifo trusted.yes
	x list fifo
}

# acls DIR: ACLs, mode synchronisation, inheritance, permission checks
acls() {
	D=$1
	cd "$D"
	umask 022
	echo data > af
	chmod 640 af
	setfacl -m u:1000:rw,g:2000:r af
	echo "after setfacl: $(stat -c %a af)"
	getfacl -pn --omit-header af
	chmod 600 af
	echo "after chmod 600: $(stat -c %a af)"
	getfacl -pn --omit-header af
	chmod 660 af
	echo "after chmod 660: $(stat -c %a af)"
	getfacl -pn --omit-header af
	echo "read as uid 1000: $(xattrop as 1000 1000 cat af 2>&1 || echo denied)"
	echo "read as uid 1001: $(xattrop as 1001 1001 cat af 2>&1 | sed 's/.*Permission denied.*/denied/')"
	setfacl -m u:1000:- af
	echo "read as uid 1000 after u:1000:-: $(xattrop as 1000 1000 cat af 2>&1 | sed 's/.*Permission denied.*/denied/')"
	mkdir ad
	setfacl -d -m u:1000:rwx,g::rx,o::- ad
	setfacl -m u:1000:rwx ad
	getfacl -pn --omit-header ad
	touch ad/file
	mkdir ad/sub
	echo "inherited file: $(stat -c %a ad/file)"
	getfacl -pn --omit-header ad/file
	echo "inherited dir: $(stat -c %a ad/sub)"
	getfacl -pn --omit-header ad/sub
	echo "write as uid 1000 into ad: $(xattrop as 1000 1000 sh -c 'echo x > ad/byuser && echo ok' 2>&1 | sed 's/.*Permission denied.*/denied/')"
	setfacl -b af
	echo "after setfacl -b: $(stat -c %a af) $(xattrop get af system.posix_acl_access)"
	setfacl -m u::rw,g::r,o::r af
	echo "minimal ACL: $(xattrop get af system.posix_acl_access) $(stat -c %a af)"
	umask 077
	touch plain
	mkdir plaind
	echo "umask 077, no default ACL: $(stat -c %a plain) $(stat -c %a plaind)"
	umask 022
}

# layout DEV NAME INO: whether the inode has an inline xattr area (bit 0x1
# of i_inline) and an xattr node
layout() {
	_d=$(echo n | dump.f2fs -i "$(printf 0x%x "$3")" "$1" 2>/dev/null)
	_i=$(echo "$_d" | awk '$1 == "i_inline" { print $5 }' | tr -d ']')
	_x=$(echo "$_d" | awk '$1 == "i_xattr_nid" { print $5 }' | tr -d ']')
	if [ -z "$_i" ] || [ -z "$_x" ]; then fail "dump.f2fs -i $3 $1 shows no i_inline or i_xattr_nid"; fi
	echo "layout $2: inline_xattr $((_i & 1)) xattr_node $([ "$_x" = 0 ] && echo no || echo yes)"
}

# dump DIR: every file's attributes, sorted, with a hash of each value
dump() {
	(cd "$1" && find . ! -type l | sort | while read -r p; do
		for n in $(xattrop list "$p"); do
			echo "$p $n $(xattrop get "$p" "$n" | md5sum | cut -c1-8)"
		done
	done)
}

# workload DIR ROOM: everything above, then the random model in DIR/m
workload() {
	mkdir "$1/s" "$1/a" "$1/m"
	( semantics "$1/s" ) > /tmp/sem.out
	( acls "$1/a" ) > /tmp/acl.out
	xattrop model "$1/m" "$SEED" 1500 "$2" $PAD > /tmp/model.out ||
		fail "model run on $1 differs from the model"
	cat /tmp/sem.out /tmp/acl.out /tmp/model.out
}

run_module() {	# run_module MODULE DEV OUT
	use_module "$1"
	mkfs.f2fs -q -f "$2" > /dev/null || fail "mkfs $2"
	# The options a standard test harness passes (both modules' defaults).
	mount -t f2fs -o acl,user_xattr "$2" $MNT || fail "mount -o acl,user_xattr $2 ($1)"
	workload $MNT $ROOM_INLINE > "$3"
	mount -o remount,noinline_xattr $MNT || fail "remount noinline_xattr ($1)"
	mkdir $MNT/ni
	xattrop model $MNT/ni "$((SEED + 1))" 800 $ROOM_NODE $PAD >> "$3" ||
		fail "model run without inline xattrs differs from the model ($1)"
	mount -o remount,nouser_xattr $MNT || fail "remount nouser_xattr ($1)"
	echo "nouser_xattr: get $(xattrop get $MNT/s/f2 user.empty) set $(xattrop set $MNT/s/f2 user.new v) list $(xattrop list $MNT/s/f2 | tr '\n' ' ')" >> "$3"
	mount -o remount,user_xattr,inline_xattr $MNT
	i1=$(stat -c %i $MNT/s/small)
	i2=$(stat -c %i $MNT/s/g)
	i3=$(stat -c %i $MNT/ni/f0)
	umount $MNT
	fsck_clean "$2"
	{ layout "$2" small "$i1"; layout "$2" g "$i2"; layout "$2" ni/f0 "$i3"; } >> "$3"
}

mkdir -p $MNT /mnt/b
run_module ours /dev/vda /tmp/ours.out
run_module stock /dev/vdb /tmp/stock.out
if ! cmp -s /tmp/ours.out /tmp/stock.out; then
	diff /tmp/stock.out /tmp/ours.out | head -40
	cp /tmp/ours.out /tmp/stock.out /host/ 2>/dev/null || true
	fail "our module's results differ from the stock module's (- stock, + ours)"
fi
note "results identical to the stock module's ($(wc -l < /tmp/ours.out) lines)"
cp /tmp/ours.out /host/results.out 2>/dev/null || true
grep '^model:' /tmp/ours.out

# What the results must be (the stock module agrees, checked above).
o=/tmp/ours.out
for want in \
	"get f user.none -> ENODATA" "get f user.a -> world" \
	"set f user.a again create -> EEXIST" "set f user.b x replace -> ENODATA" \
	"get f user.a 3 -> ERANGE" "get f user.a 5 -> world" \
	"remove f user.a -> ENODATA" "setn f user.huge 5000 -> E2BIG" \
	"setn f user.big 4000 -> ok" "get f user.empty -> " "list f 10 -> ERANGE" \
	"fill g user.fill 100 -> 27 E2BIG" "get f2 user.vialink -> 1" \
	"set fifo user.no x -> EPERM" "get fifo trusted.yes -> x" \
	"after setfacl: 660" "after chmod 600: 600" "read as uid 1000: data" \
	"read as uid 1001: denied" "read as uid 1000 after u:1000:-: denied" \
	"inherited file: 660" "inherited dir: 770" "write as uid 1000 into ad: ok" \
	"after setfacl -b: 640 ENODATA" "minimal ACL: ENODATA 644" \
	"umask 077, no default ACL: 600 700" \
	"layout small: inline_xattr 1 xattr_node no" \
	"layout g: inline_xattr 1 xattr_node yes" \
	"layout ni/f0: inline_xattr 0 xattr_node yes" \
	"nouser_xattr: get EOPNOTSUPP set EOPNOTSUPP list security.s trusted.t "; do
	grep -qxF -- "$want" $o || fail "expected line missing: '$want'"
done
grep -q "^set f user.$(head -c 256 /dev/zero | tr '\0' n) v -> ERANGE" $o || fail "a 256-byte name is not ERANGE"
grep -A6 '^after chmod 600' $o | grep -qx 'mask::---' || fail "chmod 600 did not clear the ACL mask"
grep -A10 '^inherited dir' $o | grep -qx 'default:user:1000:rwx' || fail "a new directory did not inherit the default ACL"
note "results are the expected ones"

# Each module reads what the other wrote, then modifies it.
use_module ours
mount -t f2fs /dev/vda $MNT
dump $MNT > /tmp/dump.ours
xattrop model $MNT/m "$SEED" 1500 $ROOM_INLINE $PAD check > /dev/null || fail "ours: remount lost attributes"
umount $MNT
use_module stock
mount -t f2fs /dev/vdb $MNT
dump $MNT > /tmp/dump.stock
umount $MNT
cmp -s /tmp/dump.ours /tmp/dump.stock || { diff /tmp/dump.stock /tmp/dump.ours | head; fail "the two images' attributes differ"; }
note "attributes after remount identical ($(wc -l < /tmp/dump.ours) values)"

# modify DIR: changes on top (other module's image)
modify() {
	xattrop model "$1/m" "$SEED" 1500 $ROOM_INLINE $PAD check > /dev/null ||
		fail "$2 does not read the model's attributes the other module wrote"
	mkdir "$1/m2"
	xattrop model "$1/m2" "$((SEED + 2))" 600 $ROOM_INLINE $PAD > /dev/null || fail "$2: model run on the other's image"
	xattrop set "$1/s/g" user.inline changed-by-other > /dev/null
	xattrop remove "$1/s/g" user.fill3 > /dev/null
	xattrop setn "$1/s/f2" user.big 3000 > /dev/null
	setfacl -m u:3000:r "$1/a/af"
	setfacl -d -m g:3000:rwx "$1/a/ad/sub"
}
use_module stock
mount -t f2fs /dev/vda $MNT || fail "the stock module cannot mount our image"
[ "$(dump $MNT)" = "$(cat /tmp/dump.ours)" ] || fail "the stock module reads other attributes than ours wrote"
modify $MNT stock
dump $MNT > /tmp/dump2.vda
umount $MNT
fsck_clean /dev/vda
use_module ours
mount -t f2fs /dev/vdb $MNT || fail "our module cannot mount the stock image"
[ "$(dump $MNT)" = "$(cat /tmp/dump.stock)" ] || fail "our module reads other attributes than the stock module wrote"
modify $MNT ours
dump $MNT > /tmp/dump2.vdb
umount $MNT
fsck_clean /dev/vdb
cmp -s /tmp/dump2.vda /tmp/dump2.vdb || { diff /tmp/dump2.vda /tmp/dump2.vdb | head; fail "modified images differ"; }
note "each module read and modified the other's attributes alike ($(wc -l < /tmp/dump2.vda) values)"

# And back: each reads the other's modification of its own image.
mount -t f2fs /dev/vda $MNT
[ "$(dump $MNT)" = "$(cat /tmp/dump2.vda)" ] || fail "ours reads the stock module's changes wrongly"
xattrop model $MNT/m2 "$((SEED + 2))" 600 $ROOM_INLINE $PAD check > /dev/null || fail "ours: m2"
getfacl -pn --omit-header $MNT/a/af | grep -qx 'user:3000:r--' || fail "ours: ACL set by stock missing"
umount $MNT
use_module stock
mount -t f2fs /dev/vdb $MNT
[ "$(dump $MNT)" = "$(cat /tmp/dump2.vdb)" ] || fail "stock reads our changes wrongly"
getfacl -pn --omit-header $MNT/a/af | grep -qx 'user:3000:r--' || fail "stock: ACL set by ours missing"
umount $MNT
use_module ours
stock_unchanged /dev/vda
stock_unchanged /dev/vdb

# A full device (vdc, each module in turn): an xattr that needs a new
# xattr node gets ENOSPC, and so does a replace that would move a value
# there (the old value stays); one that fits the inode's inline area is
# set; fsck clean.
full_device() {	# full_device MODULE: answers in /tmp/full.MODULE
	use_module "$1"
	mkfs.f2fs -q -f /dev/vdc > /dev/null || fail "mkfs vdc"
	mount -t f2fs /dev/vdc $MNT || fail "mount vdc ($1)"
	touch $MNT/x $MNT/y
	xattrop set $MNT/y user.a hello > /dev/null
	sync
	if dd if=/dev/zero of=$MNT/fill bs=1M 2> /tmp/dd.err; then
		fail "$1: filling the device did not end in ENOSPC"
	fi
	grep -q 'No space left' /tmp/dd.err || fail "$1: the fill ended with $(tail -1 /tmp/dd.err)"
	sync
	{
		echo "big: $(xattrop setn $MNT/x user.big 1000)"
		echo "small: $(xattrop setn $MNT/x user.small 20)"
		echo "replace-grow: $(xattrop setn $MNT/y user.a 2000)"
		echo "kept: $(xattrop get $MNT/y user.a)"
	} > "/tmp/full.$1"
	sync
	umount $MNT
	fsck_clean /dev/vdc
}
full_device ours
full_device stock
use_module ours
cat /tmp/full.ours
cmp -s /tmp/full.ours /tmp/full.stock || { diff /tmp/full.stock /tmp/full.ours; fail "full device: answers differ from the stock module's"; }
for want in "big: ENOSPC" "small: ok" "replace-grow: ENOSPC" "kept: hello"; do
	grep -qxF "$want" /tmp/full.ours || fail "full device: expected '$want'"
done
note "xattr and ACL semantics as stock's, both ways"
