#!/bin/bash
# bench-smoke.sh - host half of test 86-bench-smoke (check.sh runs it for
# the "host:" line): make bench in miniature, so that it does not rot
# between real runs.  One guest, the five filesystems, one round of the
# "tiny" tree (block, init, ipc and the top-level files of
# linux-source-6.1), an 8 MiB file and 20 fsyncs, every measured disk
# throttled to 8 MiB/s (THROTTLE=8M), 1 GiB disks, into LOGDIR/bench
# instead of build/bench.  Checks, from results.json, for each filesystem:
# every phase ok (the tree read back equals the host's
# manifest, the large file its md5: bench-guest.sh fails the phase
# otherwise), no failure and no kernel error, fsck.f2fs clean for ours and
# stock; the device counters saw the work (untar wrote at least the tree's
# bytes, the cold read-back read them, the write wrote and the cold read
# read the 8 MiB); du and fsyncbench reported; and the throttle held (the
# 8 MiB write and read each took at least 0.8 s: 1 s at 8 MiB/s, minus
# QEMU's 0.1 s burst; unthrottled they take 0.05-0.2 s here).
# Env: LOGDIR, WORK (from check.sh).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGDIR=${LOGDIR:-$ROOT/build/logs/86-bench-smoke/host}
mkdir -p "$LOGDIR"
out=$LOGDIR/bench
rc=0
BENCH_OUT=$out TREE=tiny ROUNDS=1 BIG_MB=8 FSYNC_N=20 THROTTLE=8M SIZE=1G TIMEOUT=500 \
	FS="ours stock ext4 btrfs nilfs2" "$ROOT/scripts/bench.sh" || rc=$?
[ -s "$out/results.json" ] || { echo "FAIL: no results.json (bench.sh exit $rc)"; exit 1; }
python3 - "$out/results.json" "$rc" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
bench_rc = int(sys.argv[2])
tree = int(res["tree"]["bytes"])   # the host's count of the tree's bytes (bench-prep.sh)
big = 8 << 20
bad = []
if bench_rc:
    bad.append("bench.sh exited %d" % bench_rc)
if res["failed"]:
    bad.append("failed: " + "; ".join(res["failed"]))
for fs in ["ours", "stock", "ext4", "btrfs", "nilfs2"]:
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
        ("write wrote 8 MiB", r["write"]["wr_sect"] * 512 >= big),
        ("cold read read 8 MiB", r["bigread"]["rd_sect"] * 512 >= big),
        ("du reported KiB", r["du"]["note"].isdigit()),
        ("fsyncbench reported a median", r["fsync"]["note"].isdigit()),
        ("the throttle held the write (>= 0.8 s)", r["write"]["ms"] >= 800),
        ("the throttle held the read (>= 0.8 s)", r["bigread"]["ms"] >= 800),
    ]
    for name, ok in checks:
        if not ok:
            bad.append("%s: %s: no (%s)" % (fs, name, {k: r[k] for k in ("untar", "readback", "write", "bigread")}))
    if fs in ("ours", "stock") and [c["status"] for c in res["fsck"][fs]] != ["ok"]:
        bad.append("%s: fsck.f2fs %s" % (fs, res["fsck"][fs]))
    print("%s: %s" % (fs, ", ".join("%s %d ms" % (ph, r[ph]["ms"]) for ph in res["phases"])))
if bad:
    print("FAIL: " + "\nFAIL: ".join(bad))
    sys.exit(1)
print("bench-smoke: every phase ok on the five filesystems, counters and throttle as expected")
PY
