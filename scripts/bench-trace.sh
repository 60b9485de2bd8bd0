#!/bin/bash
# bench-trace.sh - what "make bench-trace" does: the cost of our trace
# events.  One guest runs a write workload (2,000 small files, a 128 MiB
# file, sync, ls -l, rm, sync) three times with every f2fs event off and
# three times with all of them recording into the ring buffer, alternating
# (scripts/bench-trace-guest.sh), and prints the median times and their
# ratio into build/bench-trace/results.txt.  Not part of make check.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-trace
rm -rf "$OUT"
mkdir -p "$OUT/work"
cp "$ROOT/scripts/bench-trace-guest.sh" "$OUT/work/"
truncate -s 512M "$OUT/work/disk.img"
QEMU_PREALLOC=1 "$ROOT/qemu/boot.sh" -c 'sh /work/bench-trace-guest.sh' -n bench-trace \
	-d "$OUT/work/disk.img" -T "${TIMEOUT:-1200}" -l "$OUT/guest" -w "$OUT/work" || true
[ -s "$OUT/guest/results.raw" ] || { echo "bench-trace: no results" >&2; exit 1; }
python3 - "$OUT/guest/results.raw" <<'PY' | tee "$OUT/results.txt"
import statistics, sys
runs = {"off": [], "on": []}
events = []
for line in open(sys.argv[1]):
    mode, ms, n = line.split()
    runs[mode].append(int(ms))
    if mode == "on":
        events.append(int(n))
off, on = statistics.median(runs["off"]), statistics.median(runs["on"])
print("events off: median %d ms (runs %s)" % (off, runs["off"]))
print("events on:  median %d ms (runs %s), events recorded %s" % (on, runs["on"], events))
print("cost of tracing: %.1f%%" % ((on - off) * 100.0 / off))
PY
