#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench-report.py - the tables of "make bench" from the guest's lines.

  bench-report.py --out build/bench --info TREE.info --fs "ours stock ..."
                  --rounds N [--mode M --big-mb N --fsync-n N --size S
                  --throttle T --seconds S --load L --kernel-error 0|1]

Reads OUT/guest/results.raw (scripts/bench-guest.sh: "ROUND FS PHASE
STATUS MS RD_REQS RD_SECTORS WR_REQS WR_SECTORS NOTE") and writes
OUT/results.txt (text tables), OUT/results.md (Markdown, for the README)
and OUT/results.json.  Each cell is the median over the rounds whose phase
succeeded (with two rounds, their mean); the per-round values are in the
JSON and in the "rounds" table.  Ratios are ours/stock and ours/ext4 of the
medians (>1: ours is slower or does more I/O).  Exit status 1 when a phase
or an fsck failed or the guest kernel logged an error, 0 otherwise.
"""
import argparse
import json
import os
import statistics
import sys

PHASES = ["untar", "umount", "readback", "umount2", "du", "rm", "write", "bigread", "fsync"]
KEYS = ["ms", "rd_req", "rd_sect", "wr_req", "wr_sect"]


def desc(a, info):
    return {
        "untar": "untar + sync (%s files)" % info.get("files", "?"),
        "umount": "umount after the untar",
        "readback": "cold read-back (tar -c of the tree into a pipe)",
        "umount2": "umount after the read-back (the atime cost)",
        "du": "cold du -s",
        "rm": "rm -r + sync",
        "write": "%d MiB write + sync" % a.big_mb,
        "bigread": "cold %d MiB read" % a.big_mb,
        "fsync": "%d x (4 KiB append + fsync)" % a.fsync_n,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--info", required=True)
    ap.add_argument("--fs", required=True)
    ap.add_argument("--rounds", type=int, required=True)
    ap.add_argument("--mode", default="subset")
    ap.add_argument("--big-mb", type=int, default=1024)
    ap.add_argument("--fsync-n", type=int, default=2000)
    ap.add_argument("--size", default="4G")
    ap.add_argument("--throttle", default="none")
    ap.add_argument("--seconds", type=int, default=0)
    ap.add_argument("--load", default="")
    ap.add_argument("--images", default="")
    ap.add_argument("--kernel-error", type=int, default=0)
    a = ap.parse_args()
    fss = a.fs.split()
    info = {}
    with open(a.info) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition(" ")
            info[k] = v
    D = desc(a, info)

    runs = {fs: {p: [] for p in PHASES} for fs in fss}
    raw = []    # ms of the rounds' rawwrite (dd bs=4M oflag=direct of BIG_MB)
    fsck = {fs: [] for fs in fss}
    notes = {fs: {p: [] for p in PHASES} for fs in fss}
    with open(os.path.join(a.out, "guest", "results.raw")) as f:
        for line in f:
            p = line.split()
            if len(p) == 10 and p[1] == "raw" and p[2] == "rawwrite" and p[3] == "ok":
                raw.append(int(p[4]))
            if len(p) != 10 or p[1] not in runs:
                continue
            rnd, fs, ph, st = int(p[0]), p[1], p[2], p[3]
            if ph == "fsck":
                fsck[fs].append({"round": rnd, "status": st})
                continue
            if ph not in PHASES:
                continue
            r = {"round": rnd, "status": st}
            r.update({k: int(v) for k, v in zip(KEYS, p[4:9])})
            r["note"] = p[9]
            runs[fs][ph].append(r)

    med = {fs: {} for fs in fss}
    failed = []
    for fs in fss:
        for ph in PHASES:
            ok = [r for r in runs[fs][ph] if r["status"] == "ok"]
            bad = [r["round"] for r in runs[fs][ph] if r["status"] != "ok"]
            missing = a.rounds - len(runs[fs][ph])
            if bad or missing > 0:
                failed.append("%s/%s (rounds %s)" % (fs, ph, ",".join(map(str, bad)) or "missing"))
            if ok:
                med[fs][ph] = {k: statistics.median([r[k] for r in ok]) for k in KEYS}
                med[fs][ph]["rounds_ok"] = len(ok)
                n = [r["note"] for r in ok if r["note"] != "-"]
                if n:
                    med[fs][ph]["note"] = n
        for c in fsck[fs]:
            if c["status"] != "ok":
                failed.append("%s/fsck.f2fs (round %d)" % (fs, c["round"]))

    def ratio(fs, other, ph):
        x, y = med.get(fs, {}).get(ph), med.get(other, {}).get(ph)
        if not x or not y:
            return None
        return {k: (round(x[k] / y[k], 3) if y[k] else None) for k in KEYS}

    pairs = [("ours", o) for o in ("stock", "ext4") if "ours" in fss and o in fss]
    ratios = {"%s/%s" % pr: {ph: ratio(pr[0], pr[1], ph) for ph in PHASES} for pr in pairs}

    head = ["Benchmark (make bench): %s tree of linux-source-%s: %s files, %s directories, %s bytes;"
            % (a.mode, info.get("version", "?"), info.get("files", "?"), info.get("dirs", "?"), info.get("bytes", "?")),
            "then a %d MiB file and %d fsync'ed 4 KiB appends. One %s sparse virtio disk per filesystem,"
            % (a.big_mb, a.fsync_n, a.size),
            "QEMU TCG, throttle %s, %d round(s); cells are medians of the rounds. Guest run %d s;"
            % (a.throttle, a.rounds, a.seconds),
            "host load average before / after: %s; disk images in %s." % (a.load, a.images or "?")]

    def fmt_s(v):
        return "%.2f" % (v / 1000.0)

    def cell(fs, ph, k, f=lambda v: "%d" % v):
        m = med.get(fs, {}).get(ph)
        return f(m[k]) if m else "fail"

    t = head + ["", "Time (seconds)", ""]
    w = max(len(D[p]) for p in PHASES)
    hdr = "%-*s " % (w, "phase") + " ".join("%9s" % fs for fs in fss)
    t.append(hdr)
    for ph in PHASES:
        t.append("%-*s " % (w, D[ph]) + " ".join("%9s" % cell(fs, ph, "ms", fmt_s) for fs in fss))
    for title, rq, sc in (("Device writes (requests / 512-byte sectors)", "wr_req", "wr_sect"),
                          ("Device reads (requests / 512-byte sectors)", "rd_req", "rd_sect")):
        t += ["", title, ""]
        t.append("%-10s " % "phase" + " ".join("%18s" % fs for fs in fss))
        for ph in PHASES:
            t.append("%-10s " % ph + " ".join(
                "%18s" % ("%s / %s" % (cell(fs, ph, rq), cell(fs, ph, sc)) if med.get(fs, {}).get(ph) else "fail")
                for fs in fss))
    if ratios:
        t += ["", "Ratios of the medians (>1: ours is slower or does more I/O; - = failed or 0)", ""]
        t.append("%-10s %-11s %7s %8s %8s %8s %8s" % ("phase", "ratio", "ms", "rd_req", "rd_sect", "wr_req", "wr_sect"))
        for ph in PHASES:
            for name in ratios:
                r = ratios[name][ph]
                t.append("%-10s %-11s %7s %8s %8s %8s %8s" % ((ph, name) + tuple(
                    "-" if not r or r[k] is None else "%.2f" % r[k] for k in KEYS)))
    t += ["", "Every round (ms; status when not ok)", ""]
    t.append("%-10s %-7s " % ("phase", "fs") + " ".join("%9s" % ("r%d" % (i + 1)) for i in range(a.rounds)))
    for ph in PHASES:
        for fs in fss:
            vals = {r["round"]: (str(r["ms"]) if r["status"] == "ok" else r["status"]) for r in runs[fs][ph]}
            t.append("%-10s %-7s " % (ph, fs) + " ".join("%9s" % vals.get(i + 1, "-") for i in range(a.rounds)))
    du = ["%s %s KiB" % (fs, med[fs]["du"]["note"][0]) for fs in fss if med[fs].get("du", {}).get("note")]
    fm = ["%s %s us" % (fs, statistics.median(int(x) for x in med[fs]["fsync"]["note"]))
          for fs in fss if med[fs].get("fsync", {}).get("note")]
    t += ["", "du -s says: " + ", ".join(du), "fsync median latency (fsyncbench): " + ", ".join(fm)]
    rawline, rawshare = "", {}
    if raw:
        rm = statistics.median(raw)
        rawshare = {fs: round(rm / med[fs]["write"]["ms"], 3) for fs in fss
                    if med[fs].get("write") and med[fs]["write"]["ms"]}
        rawline = ("The raw disk (dd bs=4M oflag=direct, %d MiB): %.2f s; the write phase's throughput as a share "
                   "of it: %s" % (a.big_mb, rm / 1000.0,
                                  ", ".join("%s %.0f%%" % (fs, 100 * v) for fs, v in rawshare.items()) or "-"))
        t.append(rawline)
    fk = ["%s %s" % (fs, "/".join(c["status"] for c in fsck[fs])) for fs in fss if fsck[fs]]
    t.append("fsck.f2fs after each round: " + (", ".join(fk) or "-"))
    if a.kernel_error:
        failed.append("the guest kernel log holds an error (build/bench/guest/dmesg.log)")
    t.append("Failed: " + ("; ".join(failed) if failed else "none"))

    md = ["| phase | " + " | ".join(fss) + " |", "|---|" + "---|" * len(fss)]
    for ph in PHASES:
        md.append("| %s | " % D[ph] + " | ".join(cell(fs, ph, "ms", fmt_s) + " s" if med[fs].get(ph) else "fail"
                                              for fs in fss) + " |")
    md += ["", "| phase: writes (req / sectors), reads (req / sectors) | " + " | ".join(fss) + " |",
           "|---|" + "---|" * len(fss)]
    for ph in PHASES:
        md.append("| %s | " % ph + " | ".join(
            ("w %s / %s, r %s / %s" % tuple("{:,}".format(int(med[fs][ph][k])) for k in ("wr_req", "wr_sect", "rd_req", "rd_sect")))
            if med[fs].get(ph) else "fail" for fs in fss) + " |")

    with open(os.path.join(a.out, "results.txt"), "w") as f:
        f.write("\n".join(t) + "\n")
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(head) + "\n\n" + "\n".join(md) + "\n" + ("\n" + rawline + "\n" if rawline else ""))
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"tree": dict(info, mode=a.mode), "filesystems": fss, "rounds": a.rounds,
                   "big_mb": a.big_mb, "fsync_n": a.fsync_n, "disk_size": a.size,
                   "throttle": a.throttle, "guest_seconds": a.seconds, "host_load": a.load, "images": a.images,
                   "phases": PHASES, "phase_desc": D, "runs": runs, "median": med,
                   "ratios": ratios, "fsck": fsck, "failed": failed,
                   "raw_write_ms": raw, "write_share_of_raw": rawshare}, f, indent=1)
    print("\n".join(t))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
