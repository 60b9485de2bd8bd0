#!/bin/bash
# bench-tools.sh - what "make bench-tools" does: the CPU overhead of the
# tools.  One guest runs a write workload (1,500 small files in a
# directory, a 64 MiB file, a 32 MiB .mp4, sync, rm -r, sync) three times
# each with no tool, with "f2fs-top -j 1" and with "f2fs-hotcold -j 1"
# attached, alternating (scripts/bench-tools-guest.sh), and prints the
# median wall time, guest CPU time and the tool's own CPU time per setup
# into build/bench-tools/results.txt.  Not part of make check.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-tools
rm -rf "$OUT"
mkdir -p "$OUT/work"
cp "$ROOT/scripts/bench-tools-guest.sh" "$OUT/work/"
truncate -s 512M "$OUT/work/disk.img"
"$ROOT/qemu/boot.sh" -c 'sh /work/bench-tools-guest.sh' -n bench-tools \
	-d "$OUT/work/disk.img" -T "${TIMEOUT:-1200}" -l "$OUT/guest" -w "$OUT/work" || true
[ -s "$OUT/guest/results.raw" ] || { echo "bench-tools: no results" >&2; exit 1; }
python3 - "$OUT/guest/results.raw" <<'PY' | tee "$OUT/results.txt"
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    mode, ms, cpu, tool = line.split()
    runs.setdefault(mode, []).append((int(ms), int(cpu), int(tool)))
base = None
print("%-8s %10s %12s %12s %9s %9s" % ("tools", "wall ms", "guest CPU ms", "tool CPU ms", "wall +%", "CPU +%"))
for mode in ("none", "top", "hotcold"):
    r = runs.get(mode, [])
    if not r:
        continue
    wall = statistics.median(x[0] for x in r)
    cpu = statistics.median(x[1] for x in r) * 10
    tool = statistics.median(x[2] for x in r) * 10
    if base is None:
        base = (wall, cpu)
    print("%-8s %10d %12d %12d %8.1f%% %8.1f%%" % (mode, wall, cpu, tool,
          (wall - base[0]) * 100.0 / base[0], (cpu - base[1]) * 100.0 / base[1]))
print("runs (wall ms, guest CPU ticks, tool ticks; 1 tick = 10 ms):")
for mode, r in runs.items():
    print("  %-8s %s" % (mode, r))
PY
