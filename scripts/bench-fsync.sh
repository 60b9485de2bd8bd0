#!/bin/bash
# bench-fsync.sh - what "make bench-fsync" does: fsync latency of a 4 KiB
# append, the median of 1,000, on our f2fs against the stock f2fs and ext4
# in one guest (scripts/bench-fsync-guest.sh, two rounds each, alone,
# beside a steady writer and beside a creator of small files), with the
# device requests, sectors and cache flushes each run issued.  Results in
# build/bench-fsync/results.txt.  Not part of make check.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-fsync
rm -rf "$OUT"
mkdir -p "$OUT/work"
cp "$ROOT/scripts/bench-fsync-guest.sh" "$OUT/work/"
truncate -s 1G "$OUT/work/disk.img"
QEMU_PREALLOC=1 "$ROOT/qemu/boot.sh" -c "FSYNC_OPS=${FSYNC_OPS:-1000} sh /work/bench-fsync-guest.sh" -n bench-fsync \
	-d "$OUT/work/disk.img" -T "${TIMEOUT:-1800}" -l "$OUT/guest" -w "$OUT/work" || true
[ -s "$OUT/guest/results.raw" ] || { echo "bench-fsync: no results" >&2; exit 1; }
python3 - "$OUT/guest/results.raw" <<'PY' | tee "$OUT/results.txt"
import sys
rows = []
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) < 3 or w[1] != "ops":
        print("note:", line.strip())
        continue
    d = dict(zip(w[1::2], w[2::2]))
    rows.append((w[0], d))
print("%-12s %10s %8s %8s %8s %7s %7s %8s %6s" % ("fs", "median_us", "p90_us", "p99_us",
      "total_ms", "rd_req", "wr_req", "wr_sect", "flush"))
med = {}
for fs, d in rows:
    print("%-12s %10s %8s %8s %8s %7s %7s %8s %6s" % (fs, d["fsync_median_us"], d["fsync_p90_us"],
          d["fsync_p99_us"], d["total_ms"], d["rd_req"], d["wr_req"], d["wr_sect"], d["flush_req"]))
    med.setdefault(fs, []).append(int(d["fsync_median_us"]))
for sfx in ("", "-writer", "-creates"):
    if "ours" + sfx not in med:
        continue
    o = min(med["ours" + sfx])
    for ref in ("stock", "ext4"):
        if ref + sfx in med and min(med[ref + sfx]):
            print("median fsync%s, ours / %s: %.2f" % ({"": "", "-writer": " beside a writer",
                  "-creates": " beside a creator of small files"}[sfx], ref,
                  o / min(med[ref + sfx])))
PY
