#!/bin/sh
# desc: lost volatile cache: an fsync workload on our module is recorded by dm-log-writes (every write, flush, FUA; a mark after each fsync), then replayed onto a zeroed disk up to FLUSH/FUA/mark points; at each point a snapshot of the replayed disk mounts with our module, holds everything fsynced before the point and no data never written, and is fsck.f2fs clean after umount
# disks: 128M 512M 128M 128M
# timeout: 1200
# mem: 1G
#
# vda: data, vdb: the log, vdc: replay target, vdd: snapshot COW store.
# Short form: 30 operations, at most about 40 points sampled (seeded; always
# the first and last).  Full form (GUEST_ARGS=full=1, make crash-test): 120 operations,
# every point.  GUEST_ARGS="seed=N" replays a run; LW_WL=sh (lw_wl=sh on
# the command line) forces the shell stand-in workload over crashwl.
set -eu
. /tests/lib.sh
. /tests/logwrites.inc

seed=$(test_seed)
if [ "$(cmdline_get full || true)" = 1 ]; then ops=120 max=0; else ops=30 max=40; fi
LW_WL=$(cmdline_get lw_wl || true)
note "form: $ops operations, $([ $max = 0 ] && echo 'every point' || echo "at most $max points")"

use_module ours
lw_init
t0=$(cut -d. -f1 /proc/uptime)
lw_record $ops "$seed"
t1=$(cut -d. -f1 /proc/uptime)

mkfs_idx=$(replay-log $LW_LOG --find-mark mkfs) || fail "no mkfs mark in the log"
replay-log $LW_LOG --points > /tmp/points || fail "replay-log --points"
cp /tmp/points /host/points.txt 2>/dev/null || true

# Candidates "INDEX U KIND" from the mkfs mark on: every FLUSH, FUA and MARK
# entry; U is the last cwl-N mark at or before it.  A mark right after the
# previous point holds the same disk state: it replaces that point.  Also,
# before each FLUSH/FUA point, one entry (seeded) inside the batch of writes
# that the flush made durable ("mid-batch": a cut while those writes were
# still in the volatile cache, e.g. an fsync record's chain half written).
awk -v m="$mkfs_idx" -v seed="$seed" 'BEGIN { srand(seed % 2147483647) }
	$1 < m { next }
	{ kind = $2; if ($5 ~ /^cwl-/) kind = $5; else if ($5 != "") kind = $5 }
	n > 0 && $2 ~ /FLUSH|FUA/ && $1 - idx[n] > 2 {
		n++; idx[n] = idx[n - 1] + 1 + int(rand() * ($1 - idx[n - 1] - 1)); uu[n] = u; k[n] = "mid-batch"
	}
	$5 ~ /^cwl-/ { u = substr($5, 5) }
	n > 0 && $2 == "MARK" && $1 == idx[n] + 1 { idx[n] = $1; uu[n] = u; k[n] = kind; next }
	{ n++; idx[n] = $1; uu[n] = u; k[n] = kind }
	END { for (i = 1; i <= n; i++) print idx[i], (uu[i] == "" ? "-" : uu[i]), k[i] }
' /tmp/points > /tmp/cands
total=$(wc -l < /tmp/cands)
[ "$total" -ge 10 ] || fail "only $total replay points in the log"
nflush=$(grep -c 'FLUSH' /tmp/cands || true)
nfua=$(grep -c 'FUA' /tmp/cands || true)
nmark=$(grep -c 'cwl-' /tmp/cands || true)
nmid=$(grep -c 'mid-batch' /tmp/cands || true)
note "$total distinct replay points ($nflush with FLUSH, $nfua with FUA, $nmark cwl marks, $nmid mid-batch), recording took $((t1 - t0))s"

# sample (seeded, so a seed replays the same points): each candidate with
# probability max/total, always the first and the last
awk -v max=$max -v t="$total" -v seed="$seed" 'BEGIN { srand(seed % 2147483647) }
	max == 0 || t <= max || NR == 1 || NR == t || rand() < max / t' /tmp/cands > /tmp/sel

# the state before any point: replay up to the mkfs mark first
lw_replay_to "$mkfs_idx"
# the last point's image, as our module leaves it, must be canonical
LW_CANON_AT=$(tail -n1 /tmp/sel | cut -d' ' -f1)
last=$(awk '$1 == "CWL" { n = $2 } END { print n }' $CWL_LOG)
neg=""
while read -r e u kind; do
	[ "$u" = - ] && u=""
	# once: an early state must fail verification as the final one
	if [ -z "$neg" ] && [ -n "$u" ] && [ "$u" -lt $((last - 2)) ]; then neg=$last; else neg=${neg:+done}; fi
	lw_check_point "$e" "$u" "$kind" "$( [ "$neg" = done ] || echo "$neg")"
done < /tmp/sel
[ -n "$neg" ] || fail "no point early enough for the verifier self-test"
t2=$(cut -d. -f1 /proc/uptime)
note "$LW_POINTS of $total replay points checked in $((t2 - t1))s: all mounted, verified and fsck clean"
