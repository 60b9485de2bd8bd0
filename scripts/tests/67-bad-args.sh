#!/bin/sh
# desc: bad arguments get clear errors (issue 19): mount options test 17 does not try (active_logs=5, =x, empty, overflowing; background_gc with no value; values on flag options; an unknown option on remount, which leaves the mount as it was) fail with exactly one kernel line naming the option and the device; ioctl, fallocate, lseek, xattr, file-handle and swapon calls with bad arguments (qemu/guest-tools/badargs.c: unknown flags, read-only mount, not the owner, bad FIEMAP/FIBMAP requests, unknown ioctl, bad fallocate modes, SEEK_DATA beyond EOF, xattr names and values too long, forged handles, a swap file with holes) answer the expected errno on our module, the stock module's answers are compared (differences reported); each bpf tool and f2fs-record refuses bad intervals, unknown and incomplete options with its usage exit status (64 argp, 2 f2fs-record) and a short usage message, at once; fsck clean
# disks: 256M
# timeout: 300
set -eu
. /tests/lib.sh

F=/mnt/f2fs
RO=/mnt/ro
V=/dev/vda
mkdir -p $F $RO
t0=$(cut -d. -f1 /proc/uptime)

# ---- mount options -----------------------------------------------------------
# refused M OPTS WORDS: mount -o OPTS fails; under ours exactly one kernel
# line, naming the device and containing WORDS (stock: its lines shown)
refused() {
	kmark
	if mount -t f2fs -o "$2" $V $F 2>/dev/null; then
		umount $F
		[ "$1" = stock ] || fail "ours: mount -o $2 succeeded"
		note "stock: mount -o $2 succeeded"
		return 0
	fi
	ksince | grep -i f2fs > /tmp/k.txt || true
	if [ "$1" = stock ]; then
		note "stock: mount -o $2 refused: $(sed 's/^\[[^]]*\] //' /tmp/k.txt | tr '\n' ' ')"
		return 0
	fi
	[ "$(wc -l < /tmp/k.txt)" = 1 ] || { cat /tmp/k.txt; fail "ours: mount -o $2: $(wc -l < /tmp/k.txt) kernel lines (want 1)"; }
	grep -q "f2fs (vda): .*$3" /tmp/k.txt || { cat /tmp/k.txt; fail "ours: mount -o $2: the line does not name vda and '$3'"; }
	note "ours: mount -o $2 refused: $(sed 's/^\[[^]]*\] //' /tmp/k.txt)"
}
opts() { awk -v m=$F '$2 == m { print $4 }' /proc/mounts; }

for m in ours stock; do
	use_module $m
	mkfs.f2fs -q -f $V || fail "mkfs failed"
	refused $m active_logs=5 'active_logs must be 2, 4 or 6, not "5"'
	refused $m active_logs=x 'unrecognized mount option "active_logs=x"'
	refused $m active_logs= 'unrecognized mount option "active_logs="'
	refused $m active_logs=4294967302 'active_logs must be 2, 4 or 6, not "4294967302"'
	refused $m background_gc 'unrecognized mount option "background_gc"'
	refused $m background_gc= 'unrecognized mount option "background_gc="'
	refused $m heap=1 'unrecognized mount option "heap=1"'
	refused $m acl,nodiscard,no_heap,bogus2 'unrecognized mount option "bogus2"'
	# remount: an unknown option or a bad value is refused, the mount
	# stays as it was (read-write, same options)
	mount -t f2fs $V $F || fail "$m: mount failed"
	o0=$(opts)
	for bad in bogus3 active_logs=5; do
		kmark
		if mount -o "remount,$bad" $F 2>/dev/null; then
			[ $m = stock ] || fail "ours: remount,$bad succeeded"
			note "stock: remount,$bad succeeded"
		else
			ksince | grep -i f2fs > /tmp/k.txt || true
			if [ $m = ours ] && { [ "$(wc -l < /tmp/k.txt)" != 1 ] || ! grep -q 'f2fs (vda)' /tmp/k.txt; }; then
				cat /tmp/k.txt
				fail "ours: remount,$bad: want one line naming vda"
			fi
			note "$m: remount,$bad refused: $(sed 's/^\[[^]]*\] //' /tmp/k.txt | tr '\n' ' ')"
		fi
		[ "$(opts)" = "$o0" ] || [ $m = stock ] || fail "ours: options changed by a refused remount: $o0 -> $(opts)"
	done
	echo still > $F/still || fail "$m: not writable after a refused remount"
	umount $F
	fsck_clean $V
done

# ---- system calls with bad arguments ----------------------------------------
# expected answers on our module: the VFS's own checks (EROFS, EPERM, EBADR,
# EINVAL, EFBIG, EBADF, ENXIO, ERANGE, E2BIG, EOPNOTSUPP, ESTALE; FIBMAP is
# the VFS's for regular files only, so a directory gets the filesystem's
# ENOTTY; a directory cannot be opened for writing, so fallocate on one
# gets EBADF) and our choices (collapse refused, FIEMAP_FLAG_XATTR and
# xflags other than the common ones unsupported)
cat > /tmp/expect.txt <<'EOF'
setflags_unknown_flag EOPNOTSUPP
setflags_readonly_mount EROFS
setflags_not_owner EPERM
setflags_immutable_by_owner EPERM
setflags_null_pointer EFAULT
fssetxattr_project_id EOPNOTSUPP
fssetxattr_unknown_xflags EOPNOTSUPP
getversion_dir OK
fiemap_flag_xattr EBADR
fiemap_unknown_flag EBADR
fiemap_zero_length EINVAL
fiemap_start_beyond_eof OK bytes=0
fiemap_count_huge OK bytes=65536
fiemap_count_over_max EINVAL
fibmap_dir ENOTTY
fibmap_negative_block EINVAL
fibmap_nonroot EPERM
unknown_ioctl ENOTTY
falloc_punch_without_keep_size EOPNOTSUPP
falloc_negative_offset EINVAL
falloc_zero_length EINVAL
falloc_unknown_mode EOPNOTSUPP
falloc_collapse_range EOPNOTSUPP
falloc_offset_overflow EFBIG
falloc_dir EBADF
falloc_readonly_fd EBADF
seek_data_beyond_eof ENXIO
seek_hole_beyond_eof ENXIO
seek_data_negative ENXIO
xattr_name_300 ERANGE
xattr_name_256 ERANGE
xattr_value_over_64k E2BIG
xattr_value_16k E2BIG
xattr_unknown_namespace EOPNOTSUPP
xattr_empty_user_name EINVAL
xattr_user_on_symlink EPERM
xattr_get_small_buffer ERANGE
xattr_remove_missing ENODATA
handle_valid OK
handle_forged_ino ESTALE
handle_oversized EINVAL
handle_bad_type ESTALE
handle_nonroot EPERM
swapon_file_with_holes EINVAL
EOF
for m in ours stock; do
	use_module $m
	mkfs.f2fs -q -f $V || fail "mkfs failed"
	mount -t f2fs $V $F || fail "$m: mount failed"
	mkdir $F/t
	mount --bind $F/t $RO && mount -o remount,ro,bind $RO || fail "read-only bind mount failed"
	kmark
	timeout 60 badargs $F/t $RO > /tmp/$m.txt || { cat /tmp/$m.txt; fail "$m: badargs failed"; }
	ksince | sed 's/^\[[^]]*\] /  kernel: /' | head -10
	umount $RO
	umount $F
	fsck_clean $V
	mount -t f2fs $V $F && umount $F || fail "$m: remount after badargs failed"
done
cp /tmp/ours.txt /tmp/stock.txt /host/ 2>/dev/null || true
if ! diff /tmp/expect.txt /tmp/ours.txt > /tmp/diff.txt; then
	cat /tmp/diff.txt
	fail "ours: $(grep -c '^+[^+]' /tmp/diff.txt) answers differ from the expected list (- expected, + ours)"
fi
note "ours: all $(wc -l < /tmp/ours.txt) answers as expected"
awk 'NR == FNR { o[$1] = substr($0, length($1) + 2); next }
	{ s = substr($0, length($1) + 2); if (s == o[$1]) same++; else print "note: differs from stock: " $1 ": ours " o[$1] ", stock " s }
	END { print "note: " same + 0 " of " FNR " answers equal the stock module'"'"'s" }' /tmp/ours.txt /tmp/stock.txt

# ---- tools -------------------------------------------------------------------
# tool_refuses RC CMD...: exits RC within 10 s, 1 or 2 lines on stderr
# (the second may be argp's "Try ... --help"), nothing on stdout
tool_refuses() {
	_want=$1
	shift
	_rc=0
	timeout 10 "$@" > /tmp/t.out 2> /tmp/t.err || _rc=$?
	[ "$_rc" = "$_want" ] || { cat /tmp/t.err; fail "'$*' exited $_rc (want $_want)"; }
	[ ! -s /tmp/t.out ] || fail "'$*' printed on stdout: $(head -2 /tmp/t.out)"
	[ -s /tmp/t.err ] || fail "'$*' exited $_rc with no message"
}
for t in f2fs-cp f2fs-hotcold f2fs-gc f2fs-top f2fs-meta f2fs-segmap f2fs-frag; do
	for a in -1 x 1x 99999999999999999999 2147483648 "1 -5" "1 2 3" --bogus -d; do
		# shellcheck disable=SC2086
		tool_refuses 64 $t $a
		[ "$(wc -l < /tmp/t.err)" -le 2 ] || { cat /tmp/t.err; fail "'$t $a': more than a short error"; }
		grep -q "^Try .$t --help" /tmp/t.err || { cat /tmp/t.err; fail "'$t $a': no usage hint"; }
		[ "$a" != x ] || msg=$(head -1 /tmp/t.err)
	done
	note "$t: bad intervals, counts, options: exit 64 with a usage hint ('$t x': $msg)"
done
mkdir -p /tmp/rec
for a in "" bogus "start" "start /tmp/rec -i x" "start /tmp/rec -i 0" "start /tmp/rec -i" "start /tmp/rec -t nosuch" "start /tmp/rec -q" "run /tmp/rec x"; do
	# shellcheck disable=SC2086
	tool_refuses 2 f2fs-record $a
	grep -qi 'usage\|f2fs-record' /tmp/t.err || { cat /tmp/t.err; fail "'f2fs-record $a': no usage message"; }
done
note "f2fs-record: bad arguments: exit 2 with its usage"
note "done in $(($(cut -d. -f1 /proc/uptime) - t0)) s"
echo "PASS"
