#!/bin/bash
# bench-tools.sh - what "make bench-tools" does: the CPU overhead of the
# tools and of the f2fs_block_write event.  One guest runs a write
# workload (1,500 small files in a directory, a 64 MiB file, a 32 MiB .mp4,
# sync, rm -r, sync) five times each with no tool (the event off), with
# "f2fs-top -j 1", "f2fs-hotcold -j 1 -E" (event off), "f2fs-hotcold -j 1"
# and "f2fs-frag -j 1" (event on, through BPF), and with the event enabled
# in tracefs (records into the ring buffer), alternating
# (scripts/bench-tools-guest.sh), and prints per setup the median wall
# time, guest CPU time, the tool's own CPU time, their ratios to no tool,
# the device's write I/Os and MiB written, and the run time of the tool's
# BPF programs (kernel.bpf_stats_enabled) per run into
# build/bench-tools/results.txt.  Not part of make check.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench-tools
rm -rf "$OUT"
mkdir -p "$OUT/work"
cp "$ROOT/scripts/bench-tools-guest.sh" "$OUT/work/"
truncate -s 512M "$OUT/work/disk.img"
QEMU_PREALLOC=1 "$ROOT/qemu/boot.sh" -c 'sh /work/bench-tools-guest.sh' -n bench-tools \
	-d "$OUT/work/disk.img" -T "${TIMEOUT:-1200}" -l "$OUT/guest" -w "$OUT/work" || true
[ -s "$OUT/guest/results.raw" ] || { echo "bench-tools: no results" >&2; exit 1; }
python3 - "$OUT/guest/results.raw" <<'PY' | tee "$OUT/results.txt"
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    runs.setdefault(f[0], []).append(tuple(int(x) for x in f[1:]))
base = None
print("%-9s %8s %8s %8s %7s %7s %8s %8s %8s %9s %7s" % ("tools", "wall ms", "CPU ms", "tool ms",
      "wall x", "CPU x", "write IO", "MiB", "BPF ms", "BPF runs", "ns/run"))
for mode in ("none", "top", "hotcold-E", "hotcold", "frag", "trace"):
    r = runs.get(mode, [])
    if not r:
        continue
    med = [statistics.median(x[i] for x in r) for i in range(len(r[0]))]
    wall, cpu, tool = med[0], med[1] * 10, med[2] * 10
    wio, mib = (med[3], med[4] / 2048) if len(med) > 4 else (0, 0)
    bns, bruns = (med[5], med[6]) if len(med) > 6 else (0, 0)
    if base is None:
        base = (wall, cpu)
    print("%-9s %8d %8d %8d %7.2f %7.2f %8d %8.1f %8.1f %9d %7d" % (mode, wall, cpu, tool,
          wall / base[0], cpu / base[1], wio, mib, bns / 1e6, bruns, bns / bruns if bruns else 0))
print("hotcold-E: f2fs_block_write off; hotcold, frag: on (BPF); trace: on (tracefs ring buffer)")
print("runs (wall ms, guest CPU ticks, tool ticks, write IOs, sectors, BPF ns, BPF runs; 1 tick = 10 ms):")
for mode, r in runs.items():
    print("  %-8s %s" % (mode, r))
PY
