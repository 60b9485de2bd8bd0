#!/bin/bash
# bench-smoke.sh - host half of test 86-bench-smoke (check.sh runs it for
# the "host:" line): make bench in miniature, so that it does not rot
# between real runs.  One guest, the five filesystems (ours, stock and
# ext4 on the debug kernel, which has no btrfs or nilfs2), one round of the
# "tiny" tree (block, init, ipc and the top-level files of
# linux-source-6.1), a 16 MiB file and 20 fsyncs, every measured disk
# throttled to 8 MiB/s (THROTTLE=8M), 1 GiB disks, into LOGDIR/bench
# instead of build/bench.  Checks, from results.json, for each filesystem:
# every phase ok (the tree read back equals the host's
# manifest, the large file its md5: bench-guest.sh fails the phase
# otherwise), no failure and no kernel error, fsck.f2fs clean for ours and
# stock; the device counters saw the work (untar wrote at least the tree's
# bytes, the cold read-back read them, the write wrote and the cold read
# read the 16 MiB); du and fsyncbench reported; and the throttle was applied
# (the 16 MiB write and read, and the raw disk's write, each took at least
# 0.5 s: nominally 2 s at 8 MiB/s, 1.5 s for the raw write, whose first
# 4 MiB request QEMU lets through at once (with 8 MiB the raw write's
# nominal 0.5 s was the bound itself, and an idle host read 460 ms); the
# guest's clock under TCG on a loaded host has been seen 0.2 s short;
# unthrottled they take 0.05-0.2 s here, so 0.5 s still tells the two
# apart without timing the machine);
# and results.json says where the disk images were (/dev/shm or not).
# Env: LOGDIR, WORK (from check.sh).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGDIR=${LOGDIR:-$ROOT/build/logs/86-bench-smoke/host}
mkdir -p "$LOGDIR"
out=$LOGDIR/bench
rc=0
# The debug kernel (KERNEL=debug) is built without btrfs and nilfs2.
fslist="ours stock ext4 btrfs nilfs2"
[ "${KERNEL:-}" = debug ] && fslist="ours stock ext4"
BENCH_OUT=$out TREE=tiny ROUNDS=1 BIG_MB=16 FSYNC_N=20 THROTTLE=8M SIZE=1G TIMEOUT=500 \
	FS="$fslist" "$ROOT/scripts/bench.sh" || rc=$?
[ -s "$out/results.json" ] || { echo "FAIL: no results.json (bench.sh exit $rc)"; exit 1; }
python3 - "$out/results.json" "$rc" "$fslist" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
bench_rc = int(sys.argv[2])
tree = int(res["tree"]["bytes"])   # the host's count of the tree's bytes (bench-prep.sh)
big = 16 << 20
bad = []
if bench_rc:
    bad.append("bench.sh exited %d" % bench_rc)
if res["failed"]:
    bad.append("failed: " + "; ".join(res["failed"]))
want = sys.argv[3].split()
if res["filesystems"] != want:
    bad.append("filesystems %s, want %s" % (res["filesystems"], want))
for fs in want:
    runs = res["runs"][fs]
    for ph in res["phases"]:
        st = [r["status"] for r in runs[ph]]
        if st != ["ok"]:
            bad.append("%s %s: %s" % (fs, ph, st or "missing"))
    if bad:
        continue
    r = {ph: runs[ph][0] for ph in res["phases"]}
    checks = [
        ("untar wrote the tree", r["untar"]["wr_sect"] * 512 >= tree),
        ("cold read-back read the tree", r["readback"]["rd_sect"] * 512 >= tree),
        ("write wrote 16 MiB", r["write"]["wr_sect"] * 512 >= big),
        ("cold read read 16 MiB", r["bigread"]["rd_sect"] * 512 >= big),
        ("du reported KiB", r["du"]["note"].isdigit()),
        ("fsyncbench reported a median", r["fsync"]["note"].isdigit()),
        ("the throttle was applied to the write (>= 0.5 s)", r["write"]["ms"] >= 500),
        ("the throttle was applied to the read (>= 0.5 s)", r["bigread"]["ms"] >= 500),
    ]
    for name, ok in checks:
        if not ok:
            bad.append("%s: %s: no (%s)" % (fs, name, {k: r[k] for k in ("untar", "readback", "write", "bigread")}))
    if fs in ("ours", "stock") and [c["status"] for c in res["fsck"][fs]] != ["ok"]:
        bad.append("%s: fsck.f2fs %s" % (fs, res["fsck"][fs]))
    print("%s: %s" % (fs, ", ".join("%s %d ms" % (ph, r[ph]["ms"]) for ph in res["phases"])))
# the raw disk's reference for the write phase: 16 MiB at 8 MiB/s, 4 MiB
# of it at once, about 1.5 s
raw = res.get("raw_write_ms", [])
if len(raw) != 1 or raw[0] < 500:
    bad.append("the raw disk write (dd oflag=direct) was not measured under the throttle: %s" % raw)
elif sorted(res.get("write_share_of_raw", {})) != sorted(res["filesystems"]):
    bad.append("no write share of the raw disk for every filesystem: %s" % res.get("write_share_of_raw"))
else:
    print("raw disk write %d ms; write phase as a share of it: %s" % (raw[0], res["write_share_of_raw"]))
# where the images were (bench.sh: /dev/shm when the host has the memory)
if not res.get("images"):
    bad.append("results.json does not say where the disk images were")
else:
    print("disk images in %s" % res["images"])
if bad:
    print("FAIL: " + "\nFAIL: ".join(bad))
    sys.exit(1)
print("bench-smoke: every phase ok on %s, counters and throttle as expected" % ", ".join(want))
PY
