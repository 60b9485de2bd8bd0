#!/bin/sh
# desc: canonical images: a seeded random workload (randops: creates, mkdir, writes, truncates, renames, hard links, symlinks, unlink, rmdir, mknod, fsync, chmod) on our module matches the same workload on tmpfs, live and after remount, fsck.f2fs is clean, and a read-only mount by the stock module plus a full walk changes no block of the image (stock_unchanged), as it changes none of the stock module's own image of the same workload (the control), and then reads the tmpfs tree from it; the inode fields of the two images are compared and fsck.f2fs -d 1 output is searched for anything it adjusts (both informational)
# disks: 1G 1G
# timeout: 1500
# mem: 1G
#
# vda: our module's image; vdb: the stock module's image of the same
# workload.  Short form: 1,500 operations on a 256 MiB filesystem (made
# with a sector count on the 1 GiB disk), data capped at 48 MiB.  Full form
# (GUEST_ARGS=full=1, make canon): 1,500 operations, then 3,500 more after
# a remount, on the whole 1 GiB, data capped at 384 MiB.  The seed is
# printed; GUEST_ARGS=seed=N replays a run.
set -eu
# shellcheck source=scripts/tests/lib.sh
. /tests/lib.sh

MNT=/mnt/f2fs REF=/tmp/ref
SEED=$(test_seed)
if [ "$(cmdline_get full || true)" = 1 ]; then
	SECTORS="" OPS1=1500 OPS2=3500 CAP=393216 FORM=full
else
	SECTORS=524288 OPS1=1500 OPS2=0 CAP=49152 FORM=short
fi
note "$FORM form: $OPS1 + $OPS2 operations, data cap $((CAP / 1024)) MiB, filesystem of $([ -n "$SECTORS" ] && echo "$((SECTORS / 2048)) MiB" || echo "the whole 1 GiB disk")"
FIELDS=type,mode,nlink,size,link,content
now() { cut -d' ' -f1 /proc/uptime; }
T0=$(now)
lap() { note "[$(awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')s] $*"; }

# round DIR SEED OPS: the seeded operations; the last line of the output
round() {
	_rc=0
	randops -c $CAP "$1" "$2" "$3" > /tmp/randops.out 2>&1 || _rc=$?
	tail -1 /tmp/randops.out
	return $_rc
}

# ---- our module ---------------------------------------------------------------
use_module ours
# shellcheck disable=SC2086
mkfs.f2fs -q -f /dev/vda $SECTORS > /dev/null || fail "mkfs.f2fs failed"
mount -t f2fs /dev/vda $MNT || fail "mount failed"
mkdir -p $REF
round $REF "$SEED" $OPS1 > /tmp/ref.out || { cat /tmp/ref.out; fail "randops on tmpfs failed"; }
round $MNT "$SEED" $OPS1 || fail "randops on our module failed"
treesum -f $FIELDS $REF > /tmp/ref.man || fail "treesum of the reference"
same_tree /tmp/ref.man $MNT "live"
umount $MNT || fail "umount failed"
fsck_clean /dev/vda
lap "round 1: $OPS1 operations"
if [ "$OPS2" -gt 0 ]; then
	mount -t f2fs /dev/vda $MNT || fail "remount failed"
	round $REF $((SEED + 1)) $OPS2 > /dev/null || fail "randops round 2 on tmpfs failed"
	round $MNT $((SEED + 1)) $OPS2 || fail "randops round 2 on our module failed"
	treesum -f $FIELDS $REF > /tmp/ref.man || fail "treesum of the reference"
	same_tree /tmp/ref.man $MNT "round 2, live"
	umount $MNT || fail "umount failed"
	fsck_clean /dev/vda
	lap "round 2: $OPS2 operations"
fi
mount -t f2fs -o ro /dev/vda $MNT || fail "read-only remount failed"
same_tree /tmp/ref.man $MNT "after remount"
canoncheck walk -l $MNT > /tmp/ours.list 2>/dev/null || fail "walk of our image"
umount $MNT

# ---- fsck.f2fs -d 1: anything it would adjust, even when it exits 0 --------------
fsck.f2fs -d 1 /dev/vda < /dev/null > /tmp/fsck-d1.log 2>&1 || true
cp /tmp/fsck-d1.log /host/ 2>/dev/null || true
grep -iE 'fix|wrong|mismatch|invalid|corrupt|unmatch|inconsist|not match|error|warn|\[ASSERT\]|fail' /tmp/fsck-d1.log |
	grep -vE '^\[FSCK\] .*\[Ok\.\.\]|^Info: ' | sort | uniq -c | sort -rn | head -20 > /tmp/fsck-d1.notes || true
if [ -s /tmp/fsck-d1.notes ]; then
	note "fsck.f2fs -d 1 on our image says (counts):"
	sed 's/^/  /' /tmp/fsck-d1.notes
else
	note "fsck.f2fs -d 1 on our image: nothing adjusted or warned about"
fi

# ---- the stock module's image of the same workload ----------------------------------
use_module stock
# shellcheck disable=SC2086
mkfs.f2fs -q -f /dev/vdb $SECTORS > /dev/null || fail "mkfs.f2fs of vdb failed"
mount -t f2fs /dev/vdb $MNT || fail "stock mount of vdb failed"
round $MNT "$SEED" $OPS1 || fail "randops on the stock module failed"
umount $MNT
if [ "$OPS2" -gt 0 ]; then
	mount -t f2fs /dev/vdb $MNT
	round $MNT $((SEED + 1)) $OPS2 || fail "randops round 2 on the stock module failed"
	umount $MNT
fi
mount -t f2fs -o ro /dev/vdb $MNT || fail "stock read-only mount of vdb failed"
same_tree /tmp/ref.man $MNT "the stock module's image"
canoncheck walk -l $MNT > /tmp/stock.list 2>/dev/null || fail "walk of the stock image"
umount $MNT
use_module ours
lap "the stock module's image of the same workload"

# Inode fields, ours vs stock, per path: "FIELD TYPE: N of M differ" and an
# example, for every field that differs (informational: inline data and
# dentries, for one, are a known difference).
canoncheck inodes /dev/vda /tmp/ours.list > /tmp/ours.inodes || fail "canoncheck inodes on vda"
canoncheck inodes /dev/vdb /tmp/stock.list > /tmp/stock.inodes || fail "canoncheck inodes on vdb"
cp /tmp/ours.inodes /tmp/stock.inodes /host/ 2>/dev/null || true
awk -F'\t' '
	FNR == NR { stock[$1] = $2; next }
	($1 in stock) {
		n = split($2, o, " "); split(stock[$1], s, " ")
		type = o[1]; sub(/^type=/, "", type)
		for (i = 1; i <= n; i++) {
			k = o[i]; sub(/=.*/, "", k)
			key = k " [" type "]"
			total[key]++
			if (o[i] != s[i]) {
				diff[key]++
				if (!(key in ex)) ex[key] = $1 ": ours " o[i] ", stock " s[i]
			}
		}
	}
	END { for (k in diff) printf "%s: %d of %d differ, e.g. %s\n", k, diff[k], total[k], ex[k] }
' /tmp/stock.inodes /tmp/ours.inodes | sort > /tmp/inode-diff.txt
cp /tmp/inode-diff.txt /host/ 2>/dev/null || true
if [ -s /tmp/inode-diff.txt ]; then
	note "inode fields where our image differs from the stock module's (same workload):"
	cut -c1-220 /tmp/inode-diff.txt | sed 's/^/  /'
else
	note "every inode field compared is the same in both images"
fi

# ---- the point of the test ------------------------------------------------------------
# The control: the stock module leaves its own image of the workload alone
# (so what it does to ours is about ours).
stock_unchanged /dev/vdb "stock-control-$FORM"
stock_unchanged /dev/vda "randops-$FORM"
# ... and reads from it what tmpfs holds (after the check: it mounts again)
use_module stock
mount -t f2fs -o ro /dev/vda $MNT || fail "the stock module cannot mount our image"
same_tree /tmp/ref.man $MNT "our image read by the stock module"
umount $MNT
use_module ours
lap "done"
