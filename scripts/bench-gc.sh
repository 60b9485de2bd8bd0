#!/bin/bash
# bench-gc.sh - what "make bench-gc" does: write amplification of cleaning.
#
# One guest ages three fresh 512 MiB disks with the same seeded workload
# (scripts/bench-gc-guest.sh: ager fill to FILL%, then ROUNDS x ROUND_MIB
# of random overwrites, truncates, deletes and new files, IDLE seconds of
# quiet between rounds): our module with foreground greedy GC only
# (background_gc_off), our module with background cost-benefit GC too, the
# stock module, and our two setups again with SSR off (pure LFS, where
# every hole comes back only through cleaning).  It reports, per setup, the blocks the workload wrote,
# the blocks GC moved, GC passes, and the write amplification
#   WA = (user blocks + GC-moved blocks) / user blocks
# beside the device's written KiB per user KiB.  Results:
# build/bench-gc/results.txt.  Env: FILL (90), ROUNDS (6), ROUND_MIB (256),
# IDLE (5), SEED (1), TIMEOUT (3600).  Not part of make check.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-gc
WORK=$OUT/work
rm -rf "$OUT"
mkdir -p "$WORK"
echo "FILL=${FILL:-90} ROUNDS=${ROUNDS:-6} ROUND_MIB=${ROUND_MIB:-256} IDLE=${IDLE:-5} SEED=${SEED:-1}" > "$WORK/params"
cp "$ROOT/scripts/bench-gc-guest.sh" "$WORK/"
for d in a b c d e; do truncate -s 512M "$WORK/$d.img"; done
echo "bench-gc: $(cat "$WORK/params"); console in build/bench-gc/guest/console.log"
rc=0
QEMU_PREALLOC=1 "$ROOT/qemu/boot.sh" -c 'sh /work/bench-gc-guest.sh' -n bench-gc \
	-d "$WORK/a.img" -d "$WORK/b.img" -d "$WORK/c.img" -d "$WORK/d.img" -d "$WORK/e.img" \
	-T "${TIMEOUT:-3600}" -l "$OUT/guest" -w "$WORK" || rc=$?
[ -s "$OUT/guest/results.raw" ] || { echo "bench-gc: no results (exit $rc)" >&2; exit 1; }
if tr -d '\r' < "$OUT/guest/console.log" | grep -qE "$(grep -v '^#' "$ROOT/qemu/kernel-bad" | paste -sd'|' -)"; then
	echo "bench-gc: WARNING: the guest kernel log holds an error" >&2
fi
{
	echo "# $(cat "$WORK/params")"
	printf '%-13s %10s %10s %6s %6s %8s %14s\n' setup user_blocks gc_moved fg bg WA dev_write/user
	awk '{ u = $2 / 4; printf "%-13s %10d %10d %6d %6d %8.3f %14.3f\n", $1, u, $3, $4, $5, (u + $3) / u, $6 / $2 }' "$OUT/guest/results.raw"
} | tee "$OUT/results.txt"
