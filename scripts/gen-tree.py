#!/usr/bin/env python3
"""gen-tree.py: build a reproducible test tree and its manifest.

    gen-tree.py --seed N --out DIR [--manifest FILE] [--files N] [--bigdir N]
                [--huge]
    gen-tree.py --manifest-only DIR [--fields F]

The tree holds regular files from 0 bytes to a few MiB (random content from
the seed), deep and wide directories (one with --bigdir entries whose names
are 1 to 255 bytes long), sparse files with holes, large sparse files,
short and long symlinks, hard links, device nodes, FIFOs and sockets, with
varied modes, owners and nanosecond mtimes.  The same seed always gives the
same tree.  The manifest is the format of qemu/guest-tools/treesum.c (the
guest side computes the same lines from a mounted filesystem, and the two
are compared byte for byte).
"""
import argparse
import hashlib
import os
import random
import socket
import stat
import sys

FIELDS_DEFAULT = "type,mode,uid,gid,nlink,size,mtime,link,content"


def type_char(m):
    for test, c in ((stat.S_ISREG, "f"), (stat.S_ISDIR, "d"), (stat.S_ISLNK, "l"),
                    (stat.S_ISCHR, "c"), (stat.S_ISBLK, "b"), (stat.S_ISFIFO, "p"),
                    (stat.S_ISSOCK, "s")):
        if test(m):
            return c
    return "?"


def file_sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def manifest(root, fields=FIELDS_DEFAULT, out=sys.stdout):
    want = fields.split(",")
    seen = {}
    lines = []

    def walk(path, rel):
        names = sorted(os.listdir(os.fsencode(path)))
        for nb in names:
            p = os.path.join(os.fsencode(path), nb)
            r = (rel + b"/" + nb) if rel else nb
            st = os.lstat(p)
            cols = [r.decode("utf-8", "surrogateescape")]
            for f in want:
                if f == "type":
                    cols.append(type_char(st.st_mode))
                elif f == "mode":
                    cols.append("%04o" % (st.st_mode & 0o7777))
                elif f == "uid":
                    cols.append(str(st.st_uid))
                elif f == "gid":
                    cols.append(str(st.st_gid))
                elif f == "nlink":
                    cols.append(str(st.st_nlink))
                elif f == "size":
                    cols.append("-" if stat.S_ISDIR(st.st_mode) else str(st.st_size))
                elif f == "blocks":
                    cols.append(str(st.st_blocks))
                elif f == "mtime":
                    cols.append("%d.%09d" % divmod(st.st_mtime_ns, 10**9))
                elif f == "mtime_s":
                    cols.append(str(st.st_mtime_ns // 10**9))
                elif f in ("atime", "ctime"):
                    ns = st.st_atime_ns if f == "atime" else st.st_ctime_ns
                    cols.append("%d.%09d" % divmod(ns, 10**9))
                elif f == "link":
                    if stat.S_ISDIR(st.st_mode) or st.st_nlink < 2:
                        cols.append("-")
                    else:
                        key = (st.st_dev, st.st_ino)
                        if key in seen:
                            cols.append(seen[key])
                        else:
                            seen[key] = cols[0]
                            cols.append("-")
                elif f == "content":
                    if stat.S_ISREG(st.st_mode):
                        cols.append(file_sha(p))
                    elif stat.S_ISLNK(st.st_mode):
                        cols.append(os.readlink(p).decode("utf-8", "surrogateescape"))
                    elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
                        cols.append("%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev)))
                    else:
                        cols.append("-")
                else:
                    raise SystemExit("gen-tree: unknown field " + f)
            lines.append("\t".join(cols))
            if stat.S_ISDIR(st.st_mode):
                walk(p, r)

    walk(root, b"")
    out.write("".join(l + "\n" for l in lines))


def rand_name(rng, lo, hi):
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+="
    n = rng.randint(lo, hi)
    s = "".join(rng.choice(alphabet) for _ in range(n))
    return "x" + s[1:] if s in (".", "..") or s.startswith(".") and n <= 2 else s


def rand_size(rng):
    r = rng.random()
    if r < 0.05:
        return 0
    if r < 0.75:
        return rng.randint(1, 4096)
    if r < 0.97:
        return rng.randint(4097, 32768)
    if r < 0.997:
        return rng.randint(32769, 262144)
    return rng.randint(262145, 3 << 20)


def set_meta(rng, path, kind):
    if kind != "l":
        mode = rng.choice([0o644, 0o600, 0o755, 0o640, 0o444, 0o4755, 0o2755, 0o1777, 0o700])
        if kind == "d":
            mode |= 0o700   # keep directories traversable
        os.chmod(path, mode)
    os.lchown(path, rng.choice([0, 0, 1000, 1001, 65534]), rng.choice([0, 0, 100, 1000, 65534]))
    sec = rng.randint(1_000_000_000, 1_900_000_000)
    ns = rng.randint(0, 999_999_999)
    os.utime(path, ns=(sec * 10**9 + ns, sec * 10**9 + ns), follow_symlinks=False)


def generate(out, seed, nfiles, bigdir, huge):
    rng = random.Random(seed)
    os.makedirs(out)
    dirs = [out]
    made = []   # (path, kind) for metadata, applied deepest first at the end

    # Deep chain and a spread of ordinary directories.
    p = out
    for i in range(40):
        p = os.path.join(p, "deep%02d" % i)
        os.mkdir(p)
        made.append((p, "d"))
    dirs.append(p)
    for i in range(300):
        parent = rng.choice(dirs)
        d = os.path.join(parent, "dir%03d_%s" % (i, rand_name(rng, 1, 20)))
        os.mkdir(d)
        dirs.append(d)
        made.append((d, "d"))

    # Regular files.
    files = []
    for i in range(nfiles):
        d = rng.choice(dirs)
        f = os.path.join(d, "f%05d_%s" % (i, rand_name(rng, 1, 40)))
        size = rand_size(rng)
        with open(f, "wb") as fh:
            fh.write(rng.randbytes(size))
        files.append(f)
        made.append((f, "f"))

    # Sparse files: holes at the start, middle and end, and large ones.
    sp = os.path.join(out, "sparse")
    os.mkdir(sp)
    made.append((sp, "d"))
    layouts = {
        "hole_start": [(1 << 20, 5000)],
        "hole_middle": [(0, 10000), (3 << 20, 7000)],
        "hole_end": [(0, 4096), (9 << 20, 0)],
        "unaligned": [(12345, 777), (1 << 22, 1), (5 << 20, 4099)],
    }
    if huge:
        # sload.f2fs writes holes out as zero blocks, so these are for
        # trees copied by a kernel writer, not for sload images.
        layouts.update({
            "big_1g": [(0, 4096), (1 << 30, 65536), ((1 << 30) + (300 << 20), 8192)],
            "beyond_4g": [(4096, 100), (5 << 30, 4096 * 3), ((6 << 30) + 17, 5000)],
            "dind_10g": [(8 << 30, 8192), ((10 << 30) + 4095, 4097)],
        })
    for name, parts in layouts.items():
        f = os.path.join(sp, name)
        with open(f, "wb") as fh:
            end = 0
            for ofs, ln in parts:
                fh.seek(ofs)
                fh.write(rng.randbytes(ln))
                end = max(end, ofs + ln)
            fh.truncate(end)
        made.append((f, "f"))

    # Symlinks: short, long (up to 4000 bytes), dangling, to directories.
    sl = os.path.join(out, "links")
    os.mkdir(sl)
    made.append((sl, "d"))
    for i in range(200):
        target = rng.choice([os.path.relpath(rng.choice(files), sl),
                             "short%d" % i,
                             "/".join(rand_name(rng, 1, 60) for _ in range(rng.randint(1, 60)))[:4000]])
        l = os.path.join(sl, "sym%03d" % i)
        os.symlink(target, l)
        made.append((l, "l"))

    # Hard links.
    hl = os.path.join(out, "hardlinks")
    os.mkdir(hl)
    made.append((hl, "d"))
    for i in range(100):
        src = rng.choice(files)
        os.link(src, os.path.join(hl, "hl%03d" % i))

    # Special files.
    spc = os.path.join(out, "special")
    os.mkdir(spc)
    made.append((spc, "d"))
    for i in range(10):
        c = os.path.join(spc, "chr%d" % i)
        os.mknod(c, 0o600 | stat.S_IFCHR, os.makedev(rng.randint(1, 250), rng.randint(0, 255)))
        made.append((c, "c"))
        b = os.path.join(spc, "blk%d" % i)
        os.mknod(b, 0o600 | stat.S_IFBLK, os.makedev(rng.randint(1, 250), rng.randint(0, 1000)))
        made.append((b, "b"))
        p = os.path.join(spc, "fifo%d" % i)
        os.mkfifo(p)
        made.append((p, "p"))
        s = os.path.join(spc, "sock%d" % i)
        so = socket.socket(socket.AF_UNIX)
        so.bind(s)
        so.close()
        made.append((s, "s"))

    # The wide directory: names of every length from 1 to 255 bytes.
    if bigdir:
        bd = os.path.join(out, "bigdir")
        os.mkdir(bd)
        made.append((bd, "d"))
        names = set()
        length = 1
        while len(names) < bigdir:
            n = rand_name(rng, length, length)
            if n not in names:
                names.add(n)
            length = length % 255 + 1
        for n in sorted(names):
            f = os.path.join(bd, n)
            with open(f, "wb") as fh:
                if rng.random() < 0.1:
                    fh.write(rng.randbytes(rng.randint(1, 100)))

    # Metadata last (children before parents so mtimes stick).
    for path, kind in sorted(made, key=lambda x: -x[0].count(os.sep)):
        set_meta(rng, path, kind)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--manifest")
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--bigdir", type=int, default=50000)
    ap.add_argument("--huge", action="store_true",
                    help="add sparse files of 1 to 10 GiB logical size")
    ap.add_argument("--manifest-only")
    ap.add_argument("--fields", default=FIELDS_DEFAULT)
    a = ap.parse_args()
    if a.manifest_only:
        manifest(a.manifest_only, a.fields)
        return
    if not a.out:
        ap.error("--out is required")
    generate(a.out, a.seed, a.files, a.bigdir, a.huge)
    print("gen-tree: seed %d -> %s" % (a.seed, a.out), file=sys.stderr)
    if a.manifest:
        with open(a.manifest, "w") as f:
            manifest(a.out, a.fields, f)


if __name__ == "__main__":
    main()
