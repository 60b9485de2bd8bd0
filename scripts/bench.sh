#!/bin/bash
# bench.sh - what "make bench" does: one guest runs the same workloads on
# our f2fs, the stock f2fs and ext4, each on a fresh 2 GiB sparse disk, and
# the results go to build/bench/results.txt (tables) and results.json.
#
# Workloads (scripts/bench-guest.sh): create FILES small files in a tree
# (tar from guest tmpfs) + sync; cold du -s; cold read of every file
# (checksums checked against the host's); rm -r + sync; 1 GiB sequential
# write + sync; cold 1 GiB sequential read.  Each records elapsed ms and
# the device's read/write requests and sectors (/sys/block/vdX/stat
# deltas): under TCG the times are noisy, the I/O counts are not.
#
# Env: FILES (default 20000), SEED (default 1), BIG_MB (size of the
#   sequential file, default 1024; smaller for a quick smoke run),
#   TIMEOUT (default 3600 s),
#   KVM=1, V=1 as for check.sh.  Expects setup/module/initramfs done.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench
WORK=$OUT/work
FILES=${FILES:-20000}
SEED=${SEED:-1}
rm -rf "$WORK" "$OUT/guest"
mkdir -p "$WORK"

# ---- the tree: FILES files of 0-48 KiB (70% under 3 KiB, inline-sized) in
# 20 x 10 directories; tree.sum is the md5 the guest's read must give.
python3 - "$WORK" "$FILES" "$SEED" <<'EOF'
import hashlib, os, random, sys
work, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
root = os.path.join(work, "tree")
lines, total = [], 0
for i in range(n):
    r = rng.random()
    size = rng.randint(0, 3000) if r < 0.7 else rng.randint(3001, 12288) if r < 0.95 else rng.randint(12289, 49152)
    rel = "d%02d/s%02d/file-%05d.dat" % (i % 20, (i // 20) % 10, i)
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    data = rng.randbytes(size)
    with open(p, "wb") as f:
        f.write(data)
    lines.append("./%s %s\n" % (rel, hashlib.md5(data).hexdigest()))
    total += size
lines.sort()
with open(os.path.join(work, "tree.sum"), "w") as f:
    f.write(hashlib.md5("".join(lines).encode()).hexdigest() + "\n")
print("bench: tree of %d files, %d bytes (seed %d)" % (n, total, seed))
EOF
tar -C "$WORK/tree" --owner=0 --group=0 -cf "$WORK/tree.tar" .
rm -rf "$WORK/tree"
cp "$ROOT/scripts/bench-guest.sh" "$WORK/"
echo "${BIG_MB:-1024}" > "$WORK/big_mb"
for d in ours stock ext4; do
	rm -f "$WORK/$d.img"
	truncate -s 2G "$WORK/$d.img"
done

echo "bench: booting one guest (TCG: this takes a while; console in build/bench/guest/console.log)"
rc=0
QEMU_MEM=${QEMU_MEM:-2G} "$ROOT/qemu/boot.sh" -c 'sh /work/bench-guest.sh' -n bench \
	-d "$WORK/ours.img" -d "$WORK/stock.img" -d "$WORK/ext4.img" \
	-T "${TIMEOUT:-3600}" -l "$OUT/guest" -w "$WORK" || rc=$?
if [ ! -s "$OUT/guest/results.raw" ]; then
	echo "bench: the guest produced no results (exit $rc, see $OUT/guest/console.log)" >&2
	exit 1
fi
[ $rc = 0 ] || echo "bench: guest exit status $rc (see $OUT/guest/console.log)" >&2
if tr -d '\r' < "$OUT/guest/console.log" | grep -qE 'BUG:|Oops|WARNING:|general protection|hung task|RCU stall|Call Trace'; then
	echo "bench: WARNING: the guest kernel log holds an error (see $OUT/guest/dmesg.log)" >&2
fi

python3 - "$OUT" "$FILES" "$SEED" <<'EOF'
import json, os, sys
out, files, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
FS = ["ours", "stock", "ext4"]
WL = ["create", "du", "read", "rm", "write", "seqread"]
mb = int(open(os.path.join(out, "work", "big_mb")).read())
DESC = {"create": "create %d files + sync" % files, "du": "cold du -s",
        "read": "cold read of every file", "rm": "rm -r + sync",
        "write": "%d MiB sequential write + sync" % mb, "seqread": "cold %d MiB sequential read" % mb}
KEYS = ["ms", "read_reqs", "read_sectors", "write_reqs", "write_sectors"]
res = {fs: {} for fs in FS}
with open(os.path.join(out, "guest", "results.raw")) as f:
    for line in f:
        p = line.split()
        if len(p) != 8:
            continue
        res.setdefault(p[0], {})[p[1]] = dict(status=p[2], **{k: int(v) for k, v in zip(KEYS, p[3:])})

def ratio(a, b):
    if not a or not b or a["status"] != "ok" or b["status"] != "ok":
        return None
    return {k: (round(a[k] / b[k], 3) if b[k] else None) for k in KEYS}

ratios = {w: {"ours/stock": ratio(res["ours"].get(w), res["stock"].get(w)),
              "ours/ext4": ratio(res["ours"].get(w), res["ext4"].get(w))} for w in WL}
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump({"files": files, "seed": seed, "workloads": DESC, "results": res,
               "ratios": ratios}, f, indent=1)

t = ["Benchmark: our f2fs vs the stock f2fs vs ext4, 2 GiB virtio disks, QEMU TCG",
     "(ms: elapsed; rd/wr: requests and 512-byte sectors seen by the block device)", ""]
t.append("%-8s %-6s %-6s %9s %9s %11s %9s %11s" % ("workload", "fs", "status", "ms", "rd_req", "rd_sect", "wr_req", "wr_sect"))
for w in WL:
    for fs in FS:
        r = res.get(fs, {}).get(w)
        if r is None:
            t.append("%-8s %-6s %-6s" % (w, fs, "none"))
            continue
        t.append("%-8s %-6s %-6s %9d %9d %11d %9d %11d" % ((w, fs, r["status"]) + tuple(r[k] for k in KEYS)))
t += ["", "Ratios (ours / other; >1 means ours is slower or does more I/O; - = failed or 0)", ""]
t.append("%-8s %-11s %7s %8s %8s %8s %8s" % ("workload", "ratio", "ms", "rd_req", "rd_sect", "wr_req", "wr_sect"))
fmt = lambda v: "-" if v is None else "%.2f" % v
for w in WL:
    for name in ("ours/stock", "ours/ext4"):
        r = ratios[w][name]
        t.append("%-8s %-11s %7s %8s %8s %8s %8s" % ((w, name) + tuple(fmt(r[k] if r else None) for k in KEYS)))
t += ["", "Workloads: " + "; ".join("%s = %s" % (w, DESC[w]) for w in WL)]
failed = ["%s/%s" % (fs, w) for fs in FS for w in WL if res.get(fs, {}).get(w, {}).get("status") != "ok"]
t.append("Failed: " + (", ".join(failed) if failed else "none"))
with open(os.path.join(out, "results.txt"), "w") as f:
    f.write("\n".join(t) + "\n")
print("\n".join(t))
EOF
echo "bench: results in build/bench/results.txt and results.json"
