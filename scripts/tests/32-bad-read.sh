#!/bin/sh
# desc: bad input on the read path: NAT entries outside the main area, node footers naming another nid, dentries whose name runs past the slots, impossible inode sizes, block counts and flags: the affected file fails with EUCLEAN/EIO and a message naming the device, everything else reads back as on the host, the images stay unchanged, and the module unloads
# disks: 96M 96M 96M 96M 96M
# prep: 32-bad-read.prep
# timeout: 300
set -eu
. /tests/lib.sh

# vda is the pristine image, vdb..vde one corrupted copy per case (see
# 32-bad-read.prep for what is patched where).
M=/mnt/f2fs
W=/work
FIELDS=type,mode,nlink,size,mtime_s,link,content
[ -f $W/host.man ] || fail "host manifest missing"

# expect_error WHAT CMD...: CMD must fail with EUCLEAN or EIO.
expect_error() {
	_what=$1
	shift
	if "$@" >/dev/null 2>/tmp/err; then
		fail "$_what: succeeded on a corrupted image"
	fi
	grep -qE 'Structure needs cleaning|Input/output error' /tmp/err ||
		fail "$_what: failed with '$(cat /tmp/err)', expected EUCLEAN or EIO"
	note "$_what: $(tr '\n' ' ' </tmp/err)"
}

# expect_ok WHAT CMD...: CMD must succeed.
expect_ok() {
	_what=$1
	shift
	"$@" >/dev/null 2>/tmp/err || fail "$_what: $(cat /tmp/err)"
}

# begin DEV: note the image's md5, mark the kernel log, mount read-only.
begin() {
	DEV=$1
	NAME=$(basename "$DEV")
	note "---- $NAME"
	SUM=$(sumdev "$DEV")
	echo "f2fs-test: begin $NAME" > /dev/kmsg
	mount -t f2fs -o ro "$DEV" $M || fail "mount of $NAME failed"
}

# Drop manifest lines (stdin) of the paths in $1 and below them ("dir/":
# only below).
exclude() {
	awk -F'\t' -v list="$1" '
		BEGIN { n = split(list, a, " ") }
		{ for (i = 1; i <= n; i++) {
			p = a[i]; sub(/\/$/, "", p)
			if ((p == a[i] && $1 == p) || index($1, p "/") == 1) next
		  }
		  print }'
}

# finish 'AFFECTED PATHS' 'MESSAGE REGEX'...: the tree outside the affected
# paths reads back as on the host and treesum's errors name only affected
# paths; then unmount, check that the image did not change and that the
# kernel said what each regex says, naming the device.  Each bad structure
# is met many times (the test's own accesses, treesum, readahead), but is
# reported once: every kernel line must match a regex, and there may be no
# more lines than regexes.
finish() {
	_aff=$1
	shift
	_rc=0
	treesum -f $FIELDS $M > /tmp/ts.man 2> /tmp/ts.err || _rc=$?
	exclude "$_aff" < /tmp/ts.man > /tmp/ts.rest
	exclude "$_aff" < $W/host.man > /tmp/host.rest
	if ! cmp -s /tmp/host.rest /tmp/ts.rest; then
		diff /tmp/host.rest /tmp/ts.rest | head -20
		fail "$NAME: the files outside '$_aff' do not read back as on the host"
	fi
	note "$NAME: $(wc -l < /tmp/ts.rest) other entries read back intact"
	if [ -n "$_aff" ]; then
		[ "$_rc" != 0 ] || fail "$NAME: treesum saw no error"
	else
		[ "$_rc" = 0 ] || { cat /tmp/ts.err; fail "$NAME: treesum reported errors"; }
	fi
	# every error treesum reports is about an affected path
	awk -v list="$_aff" -v m="$M/" '
		BEGIN { n = split(list, a, " ") }
		{ ok = 0
		  for (i = 1; i <= n; i++) {
			p = a[i]; sub(/\/$/, "", p)
			if (index($0, " " m p ":") || index($0, " " m p "/")) ok = 1
		  }
		  if (!ok) { print "unexpected: " $0; bad = 1 } }
		END { exit bad }' /tmp/ts.err || fail "$NAME: errors outside the affected paths"

	umount $M || fail "umount of $NAME failed"
	[ "$(sumdev "$DEV")" = "$SUM" ] || fail "$NAME: the image changed"

	dmesg | sed -n "/f2fs-test: begin $NAME\$/,\$p" | sed 1d |
		grep -F "f2fs ($NAME): " | grep -v ': mounted, checkpoint' > /tmp/klog || true
	sed 's/^/  kernel: /' /tmp/klog
	cp /tmp/klog /tmp/klog.left
	for _re in "$@"; do
		grep -qE "$_re" /tmp/klog || fail "$NAME: no kernel message matching '$_re'"
		grep -vE "$_re" /tmp/klog.left > /tmp/klog.tmp || true
		mv /tmp/klog.tmp /tmp/klog.left
	done
	[ ! -s /tmp/klog.left ] || fail "$NAME: unexpected kernel messages: $(cat /tmp/klog.left)"
	_n=$(wc -l < /tmp/klog)
	[ "$_n" -le $# ] || fail "$NAME: $_n kernel messages for $# bad structures"
}

# Inode numbers and patched values from the prep script.
# shellcheck disable=SC1091
. $W/expect.env

# vda: the pristine image reads back whole, without a kernel message.
begin /dev/vda
finish ''

if [ "$F2FS_VARIANT" = stock ]; then
	# The stock 6.1 module is no reference here: it answers a NAT entry
	# outside the main area with EFAULT and a stack dump, records errors
	# in the superblock of a read-only mount, and takes an i_size of 2^50
	# or an i_blocks of 2^40 as valid.
	note "stock module: only the pristine image is read"
	exit 0
fi

# vdb: the NAT sends small.txt past the end of the main area, docs/b.txt
# into the SIT area.  Looking either up fails; docs/ still lists.
begin /dev/vdb
expect_error "stat small.txt (NAT past the main area)" stat $M/small.txt
expect_error "stat docs/b.txt (NAT in the SIT area)" stat $M/docs/b.txt
expect_error "cat docs/b.txt" cat $M/docs/b.txt
expect_ok "stat docs/a.txt" stat $M/docs/a.txt
finish 'small.txt docs/b.txt' \
	"NAT entry of nid $SMALL_INO points to block $NAT_PAST outside the main area" \
	"NAT entry of nid $B_INO points to block $NAT_SIT outside the main area"

# vdc: big.bin's first direct node and docs/a.txt's inode block carry
# footers naming other nids.  big.bin stats and its first blocks (mapped by
# the inode itself) read correctly; the rest of it fails.  docs/a.txt
# cannot be looked up.
begin /dev/vdc
expect_ok "stat big.bin" stat $M/big.bin
got_md5=$(dd if=$M/big.bin bs=4096 count="$IN_INODE" 2>/dev/null | md5sum | cut -d' ' -f1)
[ "$got_md5" = "$HEAD_MD5" ] ||
	fail "the $IN_INODE blocks of big.bin before the bad direct node read back wrong"
note "big.bin: the first $IN_INODE blocks read back intact"
expect_error "read big.bin (footer of its direct node names another nid)" cat $M/big.bin
expect_error "dd big.bin block $((IN_INODE + 10))" \
	dd if=$M/big.bin of=/dev/null bs=4096 skip=$((IN_INODE + 10)) count=1
expect_error "stat docs/a.txt (inode footer names another nid)" stat $M/docs/a.txt
finish 'big.bin docs/a.txt' \
	"node $DNODE footer \\(nid $SMALL_INO, ino $BIG_INO, ofs 1\\) does not match \\(nid $DNODE, ino $BIG_INO, ofs 1\\)" \
	"node $A_INO footer \\(nid $B_INO, ino $A_INO, ofs 0\\) does not match \\(nid $A_INO, ino $A_INO, ofs 0\\)"

# vdd: bigdir's last entry in its first dentry block has a name length
# needing more slots than the block has left; smalldir's f2 has a name
# length of 300.  Reading either directory fails at that entry (the
# entries before it are returned); looking up the bad entry, or a name the
# lookup must search past it for, fails; names before it resolve.
begin /dev/vdd
expect_error "list bigdir" treesum $M/bigdir
expect_error "stat bigdir/$VICTIM (name_len $VICTIM_LEN at slot $VICTIM_SLOT of 214)" \
	stat "$M/bigdir/$VICTIM"
expect_error "list smalldir" treesum $M/smalldir
expect_error "stat smalldir/f2 (name_len 300)" stat $M/smalldir/f2
expect_error "stat smalldir/f4 (after the bad entry)" stat $M/smalldir/f4
expect_ok "stat smalldir/f0 (before the bad entry)" stat $M/smalldir/f0
finish 'bigdir/ smalldir/' \
	"directory $BIGDIR_INO: corrupt dentry at slot $VICTIM_SLOT \\(name length $VICTIM_LEN\\)" \
	"directory $SMALLDIR_INO: corrupt dentry at slot 4 \\(name length 300\\)"
# what readdir did return, before the bad entries, is right
grep -E '^(bigdir|smalldir)/' /tmp/ts.man > /tmp/partial || fail "readdir returned no entry"
if grep -vxFf $W/host.man /tmp/partial; then
	fail "entries read before the bad dentries differ from the host"
fi
note "the $(wc -l < /tmp/partial) entries before the bad dentries read back intact"

# vde: i_size -1 (small.txt), 2^50 (sub/deep/c.bin), i_blocks 0
# (docs/a.txt), 2^40 (docs/b.txt), i_flags of compression and encryption
# (docs/readme) and of casefolding (smalldir) on an image without those
# features: none of them can be looked up, and each is damage (EUCLEAN),
# not a format this module cannot read (EOPNOTSUPP).
begin /dev/vde
expect_error "stat small.txt (i_size -1)" stat $M/small.txt
expect_error "stat sub/deep/c.bin (i_size 2^50)" stat $M/sub/deep/c.bin
expect_error "stat docs/a.txt (i_blocks 0)" stat $M/docs/a.txt
expect_error "stat docs/b.txt (i_blocks 2^40)" stat $M/docs/b.txt
expect_error "stat docs/readme (i_flags 0x804)" stat $M/docs/readme
expect_error "ls smalldir (i_flags 0x40000000)" ls $M/smalldir
expect_ok "stat sub/deep/d.txt" stat $M/sub/deep/d.txt
finish 'small.txt sub/deep/c.bin docs/a.txt docs/b.txt docs/readme smalldir' \
	"inode $SMALL_INO: invalid size -1\$" \
	"inode $C_INO: invalid size 1125899906842624\$" \
	"inode $A_INO: block count is zero" \
	"inode $B_INO: block count 1099511627776 exceeds" \
	"inode $README_INO: flags 0x804 name a compressed, encrypted or casefolded file" \
	"inode $SMALLDIR_INO: flags 0x40000000 name a compressed, encrypted or casefolded file"

rmmod f2fs || fail "rmmod f2fs failed after the corrupted images (leaked reference?)"
note "module unloaded"
