#!/bin/sh
# desc: checkpoint atomicity: an fsync workload on our module is recorded by dm-log-writes; the log is replayed up to every write into the checkpoint area (power cut between the blocks of a checkpoint pack: header written, footer not); the pack is then torn (header and footer versions differ), yet the mount succeeds on the previous pack, everything fsynced before the cut is there, and fsck.f2fs is clean after umount
# disks: 128M 512M 128M 128M
# timeout: 1200
# mem: 1G
#
# vda: data, vdb: the log, vdc: replay target, vdd: snapshot COW store.
# Short form: 20 operations, about 40 replay points sampled (seeded), half of
# them torn-pack points, always the first torn one.
# Full form (GUEST_ARGS=full=1): 40 operations, every checkpoint-area
# write.  GUEST_ARGS="seed=N" replays a run, lw_wl=sh forces the shell
# stand-in workload.
set -eu
. /tests/lib.sh
. /tests/logwrites.inc

seed=$(test_seed)
if [ "$(cmdline_get full || true)" = 1 ]; then ops=40 max=0; else ops=20 max=40; fi
LW_WL=$(cmdline_get lw_wl || true)

use_module ours
lw_init
lw_record $ops "$seed"
mkfs_idx=$(replay-log $LW_LOG --find-mark mkfs) || fail "no mkfs mark in the log"

# ---- where the checkpoint packs are, from the superblock ---------------------
le32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
le64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
[ "$(od -An -tx4 -j 1024 -N4 /dev/vda | tr -d ' ')" = f2f52010 ] || fail "no f2fs superblock on /dev/vda"
cp_blk=$(le32 /dev/vda $((1024 + 76)))
bps=$((1 << $(le32 /dev/vda $((1024 + 20)))))
note "checkpoint packs at blocks $cp_blk and $((cp_blk + bps)) ($bps blocks per segment)"

# Every write entry (after the mkfs mark) that touches the checkpoint area:
# "INDEX PACK FIRST LAST U TORN" (blocks relative to the pack start; U the
# last cwl-N mark before it; TORN=1 when the next checkpoint-area write goes
# on into the same pack above it, so that the pack is incomplete right after
# this entry).
replay-log $LW_LOG --list > /tmp/list || fail "replay-log --list"
awk -v m="$mkfs_idx" -v cp="$cp_blk" -v bps="$bps" '
	$1 < m { next }
	$2 == "MARK" { if ($5 ~ /^cwl-/) u = substr($5, 5); next }
	$2 ~ /DISCARD/ || $4 == 0 { next }
	{
		first = int($3 / 8); last = int(($3 + $4 - 1) / 8)
		if (last < cp || first >= cp + 2 * bps) next
		p = int((first - cp) / bps)
		n++; idx[n] = $1; pk[n] = p; f[n] = first - cp - p * bps; l[n] = last - cp - p * bps
		uu[n] = (u == "" ? "-" : u)
	}
	END {
		for (i = 1; i <= n; i++)
			print idx[i], pk[i], f[i], l[i], uu[i], (i < n && pk[i + 1] == pk[i] && f[i + 1] > l[i]) ? 1 : 0
	}
' /tmp/list > /tmp/cpw
total=$(wc -l < /tmp/cpw)
ntorn=$(awk '$6 == 1' /tmp/cpw | wc -l)
cp /tmp/cpw /host/cp-writes.txt 2>/dev/null || true
note "$total writes into the checkpoint area after mkfs, $ntorn of them leave a pack incomplete"
[ "$ntorn" -ge 1 ] || fail "no write leaves a checkpoint pack incomplete: the log has no point inside a pack"

# sample (seeded): up to max/2 of each kind, always the first torn point
awk -v max=$max -v seed="$seed" -v nt="$ntorn" -v nc=$((total - ntorn)) '
	BEGIN { srand(seed % 2147483647) }
	max == 0 { print; next }
	$6 == 1 && !t++ { print; next }
	rand() < ($6 == 1 ? max / 2 / nt : max / 2 / (nc ? nc : 1)) { print }
' /tmp/cpw > /tmp/sel

# pack_state PACK: "VER FOOTERVER" of a pack on the replay target
pack_state() {
	_b=$((cp_blk + $1 * bps))
	_tot=$(le32 $LW_TGT $((_b * 4096 + 136)))
	if [ "$_tot" -lt 2 ] || [ "$_tot" -gt "$bps" ]; then echo "$(le64 $LW_TGT $((_b * 4096))) none"; return; fi
	echo "$(le64 $LW_TGT $((_b * 4096))) $(le64 $LW_TGT $(((_b + _tot - 1) * 4096)))"
}

lw_replay_to "$mkfs_idx"
# the last point's image, as our module leaves it, must be canonical
LW_CANON_AT=$(tail -n1 /tmp/sel | cut -d' ' -f1)
torn=0 whole=0
while read -r e p first last u t; do
	lw_replay_to "$e"
	set -- $(pack_state "$p")
	hv=$1 fv=$2
	set -- $(pack_state $((1 - p)))
	[ "$1" = "$2" ] || fail "entry $e: pack $((1 - p)) is not complete either (versions $1/$2): no pack to fall back to"
	if [ "$hv" != "$fv" ]; then
		kind="pack $p torn: header ver $hv, footer $fv; pack $((1 - p)) ver $1"
		torn=$((torn + 1))
	else
		kind="pack $p complete: ver $hv"
		whole=$((whole + 1))
	fi
	[ "$t" = 0 ] || [ "$hv" != "$fv" ] || fail "entry $e: the log says pack $p is incomplete here, but header and footer both have version $hv"
	if [ "$hv" != "$fv" ]; then
		# which pack does a read-only mount (which writes nothing, not even
		# a roll-forward) pick?  It must be the other, complete one.
		blockdev --setro $LW_TGT
		echo "82-crash-cp-atomic: ro mount at entry $e" > /dev/kmsg
		mount -t f2fs -o ro $LW_TGT $LW_RMNT 2>/tmp/mount.err ||
			fail "entry $e: read-only mount with pack $p torn failed: $(cat /tmp/mount.err)"
		line=$(dmesg | awk -v m="ro mount at entry $e" -v d="f2fs ($(basename $LW_TGT)): mounted, checkpoint version" '
			index($0, m) { f = 1; l = ""; next }
			f && index($0, d) { l = $0 } END { print l }')
		umount $LW_RMNT
		blockdev --setrw $LW_TGT
		case $line in
		"") note "entry $e: no 'mounted, checkpoint version' kernel message, pack choice not checked" ;;
		*"version $1 "*) [ $torn -gt 1 ] || note "entry $e, pack $p torn: the read-only mount says '${line#*] }'" ;;
		*) fail "entry $e: pack $p is torn (header $hv, footer $fv) but the mount used '${line#*: }', not version $1 of pack $((1 - p))" ;;
		esac
	fi
	[ "$u" = - ] && u=""
	lw_check_point "$e" "$u" "$kind, blocks $first-$last"
done < /tmp/sel
note "$LW_POINTS checkpoint-area points of $total checked: $torn inside a torn pack, $whole after a complete pack"
[ $torn -ge 1 ] || fail "no checked point was inside a torn pack"
