#!/usr/bin/env python3
"""f2fs-image.py: find and patch structures in an unmounted f2fs image.

    f2fs-image.py IMG info
    f2fs-image.py IMG lookup PATH
    f2fs-image.py IMG nat NID
    f2fs-image.py IMG set-nat NID BLKADDR
    f2fs-image.py IMG node FILE [--index N]
    f2fs-image.py IMG set-footer NID [--nid X] [--ino Y] [--ofs Z]
    f2fs-image.py IMG inode FILE
    f2fs-image.py IMG set-inode FILE FIELD VALUE
    f2fs-image.py IMG ls DIR
    f2fs-image.py IMG set-namelen DIR NAME LEN

FILE and DIR are absolute paths inside the image ("/a/b") or inode numbers.
The image is parsed the way the kernel reads it: the superblock at byte
1024 (the second copy is used when the first is bad), the newer valid
checkpoint pack, the NAT journal in the hot data log's summary (compact or
full summaries), then the NAT block copy that the checkpoint's NAT version
bitmap marks as current, node footers, inline and block dentries.  Patches
change only the named bytes (NAT entry, node footer, inode field, dentry
name length) and print what changed, so tests can corrupt one structure at
a time.  Patching an inode block of an image with inode checksums (feature
inode_checksum) is refused, since the inode would then fail for the wrong
reason.

The layout is the one of <linux/f2fs_fs.h>; 4 KiB blocks only.
"""
import argparse
import struct
import sys
import zlib

BLK = 4096
SB_OFFSET = 1024
F2FS_MAGIC = 0xF2F52010
NAT_ENTRY_SIZE = 9
NAT_PER_BLOCK = BLK // NAT_ENTRY_SIZE           # 455
SUM_ENTRY_SIZE = 7 * 512                        # 3584
SUM_JOURNAL_SIZE = BLK - 5 - SUM_ENTRY_SIZE     # 507
NAT_JOURNAL_ENTRY = 4 + NAT_ENTRY_SIZE          # 13
NAT_JOURNAL_ENTRIES = (SUM_JOURNAL_SIZE - 2) // NAT_JOURNAL_ENTRY
DEF_ADDRS_PER_INODE = 923
ADDRS_PER_BLOCK = 1018
NIDS_PER_BLOCK = 1018
DEFAULT_INLINE_XATTR_ADDRS = 50
NR_DENTRY_IN_BLOCK = 214
DENTRY_BITMAP = 27
DENTRY_RESERVED = 3
DIR_ENTRY_SIZE = 11
SLOT_LEN = 8
NULL_ADDR = 0
NEW_ADDR = 0xFFFFFFFF

# checkpoint flags
CP_UMOUNT = 0x1
CP_COMPACT_SUM = 0x4
CP_FASTBOOT = 0x20
CP_LARGE_NAT_BITMAP = 0x400

# superblock features
FEAT_EXTRA_ATTR = 0x0008
FEAT_INODE_CHKSUM = 0x0020
FEAT_FLEXIBLE_INLINE_XATTR = 0x0040

# i_inline bits
INLINE_XATTR = 0x01
INLINE_DATA = 0x02
INLINE_DENTRY = 0x04
EXTRA_ATTR = 0x20

# Offsets inside struct f2fs_inode / struct f2fs_node.
I_FIELDS = {  # name: (offset, struct format)
    "mode": (0, "<H"), "advise": (2, "<B"), "inline": (3, "<B"),
    "uid": (4, "<I"), "gid": (8, "<I"), "links": (12, "<I"),
    "size": (16, "<Q"), "blocks": (24, "<Q"),
    "atime": (32, "<Q"), "ctime": (40, "<Q"), "mtime": (48, "<Q"),
    "generation": (68, "<I"), "current_depth": (72, "<I"),
    "xattr_nid": (76, "<I"), "flags": (80, "<I"), "pino": (84, "<I"),
    "namelen": (88, "<I"), "dir_level": (347, "<B"),
    "ext_fofs": (348, "<I"), "ext_blk": (352, "<I"), "ext_len": (356, "<I"),
    "extra_isize": (360, "<H"), "inline_xattr_size": (362, "<H"),
}
I_ADDR = 360
I_NID = I_ADDR + 4 * DEF_ADDRS_PER_INODE        # 4052
FOOTER = BLK - 24                               # 4072: nid, ino, flag, cp_ver, next


def crc32_f2fs(data):
    """The kernel's crc32_le(F2FS_SUPER_MAGIC, data): no final inversion."""
    return zlib.crc32(data, F2FS_MAGIC ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def u32(buf, ofs):
    return struct.unpack_from("<I", buf, ofs)[0]


def u16(buf, ofs):
    return struct.unpack_from("<H", buf, ofs)[0]


def u64(buf, ofs):
    return struct.unpack_from("<Q", buf, ofs)[0]


class ImageError(Exception):
    pass


class Image:
    def __init__(self, path, writable=False):
        self.path = path
        self.f = open(path, "r+b" if writable else "rb")
        self._load_super()
        self._load_checkpoint()

    # ---- raw access ----
    def read(self, ofs, n):
        self.f.seek(ofs)
        b = self.f.read(n)
        if len(b) != n:
            raise ImageError("short read at byte %d" % ofs)
        return b

    def block(self, addr):
        return self.read(addr * BLK, BLK)

    def write(self, ofs, data, what):
        old = self.read(ofs, len(data))
        self.f.seek(ofs)
        self.f.write(data)
        print("patched %s at byte %d: %s -> %s" % (what, ofs, old.hex(), data.hex()))

    # ---- superblock and checkpoint ----
    def _load_super(self):
        for copy in (0, 1):
            sb = self.read(copy * BLK + SB_OFFSET, 3072)
            if u32(sb, 0) == F2FS_MAGIC and u32(sb, 16) == 12:
                break
        else:
            raise ImageError("no valid superblock")
        self.sb = sb
        self.log_blocks_per_seg = u32(sb, 20)
        self.blocks_per_seg = 1 << self.log_blocks_per_seg
        self.segment_count_nat = u32(sb, 60)
        self.segment_count_main = u32(sb, 68)
        self.cp_blkaddr = u32(sb, 76)
        self.sit_blkaddr = u32(sb, 80)
        self.nat_blkaddr = u32(sb, 84)
        self.ssa_blkaddr = u32(sb, 88)
        self.main_blkaddr = u32(sb, 92)
        self.root_ino = u32(sb, 96)
        self.cp_payload = u32(sb, 1664)
        self.feature = u32(sb, 2180)
        self.max_blkaddr = self.main_blkaddr + (self.segment_count_main << self.log_blocks_per_seg)
        self.nat_blocks = (self.segment_count_nat // 2) << self.log_blocks_per_seg
        self.max_nid = self.nat_blocks * NAT_PER_BLOCK

    def _cp_version(self, addr):
        b = self.block(addr)
        ofs = u32(b, 164)
        if ofs < 192 or ofs > BLK - 4 or ofs % 4:
            return 0, b
        if crc32_f2fs(b[:ofs]) != u32(b, ofs):
            return 0, b
        return u64(b, 0), b

    def _load_checkpoint(self):
        best = None
        for start in (self.cp_blkaddr, self.cp_blkaddr + self.blocks_per_seg):
            ver, b = self._cp_version(start)
            if not ver:
                continue
            total = u32(b, 136)
            if total < 2 or total > self.blocks_per_seg:
                continue
            ver2, _ = self._cp_version(start + total - 1)
            if ver2 != ver:
                continue
            if best is None or ver > best[0]:
                best = (ver, start, b)
        if best is None:
            raise ImageError("no valid checkpoint pack")
        self.cp_ver, self.cp_addr, cp = best
        self.cp = cp
        self.ckpt_flags = u32(cp, 132)
        self.cp_total = u32(cp, 136)
        self.cp_start_sum = u32(cp, 140)
        sit_bytes = u32(cp, 156)
        nat_bytes = u32(cp, 160)
        # The version bitmaps may spill into the cp_payload blocks.
        pack = cp + b"".join(self.block(self.cp_addr + 1 + i) for i in range(self.cp_payload))
        if self.ckpt_flags & CP_LARGE_NAT_BITMAP:
            src = 192 + 4
        elif self.cp_payload:
            src = 192
        else:
            src = 192 + sit_bytes
        self.nat_bitmap = pack[src:src + nat_bytes]

    def check_inode_patch(self):
        if self.feature & FEAT_INODE_CHKSUM:
            raise ImageError("inode checksums are enabled: patching inode blocks is not supported")

    def _flag(self, f):
        return bool(self.ckpt_flags & f)

    # ---- NAT ----
    def nat_journal_offset(self):
        """Byte offset of the hot data log's NAT journal (its n_nats)."""
        if self._flag(CP_COMPACT_SUM):
            return (self.cp_addr + self.cp_start_sum) * BLK
        groups = 6 if (self._flag(CP_UMOUNT) or self._flag(CP_FASTBOOT)) else 3
        blk = self.cp_addr + self.cp_total - (groups + 1) + 0
        return blk * BLK + SUM_ENTRY_SIZE

    def nat_block_addr(self, nid, current=True):
        blk_ofs = nid // NAT_PER_BLOCK
        seg = blk_ofs >> self.log_blocks_per_seg
        addr = self.nat_blkaddr + (seg << self.log_blocks_per_seg << 1) + \
            (blk_ofs & (self.blocks_per_seg - 1))
        second = bool(self.nat_bitmap[blk_ofs >> 3] & (0x80 >> (blk_ofs & 7)))
        if second == current:
            addr += self.blocks_per_seg
        return addr

    def nat_locations(self, nid):
        """[(what, byte offset of the 9-byte entry)], effective one first."""
        locs = []
        jofs = self.nat_journal_offset()
        j = self.read(jofs, SUM_JOURNAL_SIZE)
        n = min(u16(j, 0), NAT_JOURNAL_ENTRIES)
        for i in range(n):
            e = 2 + i * NAT_JOURNAL_ENTRY
            if u32(j, e) == nid:
                locs.append(("NAT journal entry %d" % i, jofs + e + 4))
        blk = self.nat_block_addr(nid)
        locs.append(("NAT block %d" % blk, blk * BLK + (nid % NAT_PER_BLOCK) * NAT_ENTRY_SIZE))
        return locs

    def nat(self, nid):
        if nid < 3 or nid >= self.max_nid:
            raise ImageError("nid %d out of range" % nid)
        _, ofs = self.nat_locations(nid)[0]
        ver, ino, addr = struct.unpack("<BII", self.read(ofs, NAT_ENTRY_SIZE))
        return ino, addr, ver

    # ---- nodes and inodes ----
    def node_addr(self, nid):
        ino, addr, _ = self.nat(nid)
        if addr in (NULL_ADDR, NEW_ADDR) or not self.main_blkaddr <= addr < self.max_blkaddr:
            raise ImageError("nid %d: NAT block address %d is not a node" % (nid, addr))
        return addr

    def node(self, nid):
        addr = self.node_addr(nid)
        b = self.block(addr)
        fnid, fino, flag = struct.unpack_from("<III", b, FOOTER)
        if fnid != nid:
            raise ImageError("nid %d: footer names nid %d" % (nid, fnid))
        return addr, b, fino, flag >> 3

    def inode(self, ino):
        addr, b, fino, ofs = self.node(ino)
        if fino != ino or ofs != 0:
            raise ImageError("nid %d is not an inode" % ino)
        return Inode(self, ino, addr, b)

    # ---- paths ----
    def resolve(self, spec):
        if spec.isdigit():
            return int(spec)
        ino = self.root_ino
        for part in [p for p in spec.split("/") if p]:
            d = self.inode(ino)
            for e in d.dentries():
                if e["name"] == part.encode():
                    ino = e["ino"]
                    break
            else:
                raise ImageError("%s: no entry %r" % (spec, part))
        return ino


class Inode:
    def __init__(self, img, ino, addr, raw):
        self.img, self.ino, self.addr, self.raw = img, ino, addr, raw
        g = {k: struct.unpack_from(f, raw, o)[0] for k, (o, f) in I_FIELDS.items()}
        self.f = g
        inline = g["inline"]
        self.extra_isize = g["extra_isize"] if inline & EXTRA_ATTR else 0
        if self.extra_isize and img.feature & FEAT_FLEXIBLE_INLINE_XATTR:
            self.xattr_addrs = g["inline_xattr_size"]
        elif inline & (INLINE_XATTR | INLINE_DENTRY):
            self.xattr_addrs = DEFAULT_INLINE_XATTR_ADDRS
        else:
            self.xattr_addrs = 0
        self.extra_addrs = self.extra_isize // 4
        self.addrs_per_inode = DEF_ADDRS_PER_INODE - self.extra_addrs - self.xattr_addrs

    def is_dir(self):
        return (self.f["mode"] & 0o170000) == 0o040000

    # file block index -> (blkaddr, nid of the node holding the pointer,
    # byte offset of the pointer in the image)
    def map(self, index):
        img = self.img
        api = self.addrs_per_inode
        if index < api:
            o = I_ADDR + 4 * (self.extra_addrs + index)
            return u32(self.raw, o), self.ino, self.addr * BLK + o
        b = index - api
        per_ind = ADDRS_PER_BLOCK * NIDS_PER_BLOCK
        if b < 2 * ADDRS_PER_BLOCK:
            chain = [(DEF_ADDRS_PER_INODE + 1 + b // ADDRS_PER_BLOCK)]
            last = b % ADDRS_PER_BLOCK
        elif b - 2 * ADDRS_PER_BLOCK < 2 * per_ind:
            b -= 2 * ADDRS_PER_BLOCK
            chain = [DEF_ADDRS_PER_INODE + 3 + b // per_ind, (b % per_ind) // ADDRS_PER_BLOCK]
            last = b % ADDRS_PER_BLOCK
        else:
            b -= 2 * ADDRS_PER_BLOCK + 2 * per_ind
            chain = [DEF_ADDRS_PER_INODE + 5, b // per_ind,
                     (b // ADDRS_PER_BLOCK) % NIDS_PER_BLOCK]
            last = b % ADDRS_PER_BLOCK
        raw, nid = self.raw, self.ino
        for i, slot in enumerate(chain):
            nid = u32(raw, I_NID + 4 * (slot - DEF_ADDRS_PER_INODE - 1)) if i == 0 \
                else u32(raw, 4 * slot)
            if not nid:
                return NULL_ADDR, None, None
            addr, raw, _, _ = img.node(nid)
        return u32(raw, 4 * last), nid, addr * BLK + 4 * last

    def dentry_views(self):
        """Yield (label, base byte offset, nr slots, bitmap ofs, dentry ofs,
        names ofs, raw bytes of the area) for each dentry area."""
        if self.f["inline"] & INLINE_DENTRY:
            base = I_ADDR + 4 * (self.extra_addrs + 1)
            size = 4 * (self.addrs_per_inode - 1)
            nr = size * 8 // ((DIR_ENTRY_SIZE + SLOT_LEN) * 8 + 1)
            bitmap = (nr + 7) // 8
            reserved = size - ((DIR_ENTRY_SIZE + SLOT_LEN) * nr + bitmap)
            de = base + bitmap + reserved
            yield ("inline", self.addr * BLK, nr, base, de, de + DIR_ENTRY_SIZE * nr, self.raw)
            return
        nblocks = (self.f["size"] + BLK - 1) // BLK
        for n in range(nblocks):
            addr, _, _ = self.map(n)
            if addr in (NULL_ADDR, NEW_ADDR):
                continue
            de = DENTRY_BITMAP + DENTRY_RESERVED
            yield ("block %d" % n, addr * BLK, NR_DENTRY_IN_BLOCK, 0, de,
                   de + DIR_ENTRY_SIZE * NR_DENTRY_IN_BLOCK, self.img.block(addr))

    def dentries(self):
        if not self.is_dir():
            raise ImageError("inode %d is not a directory" % self.ino)
        for label, base, nr, bm, de, names, raw in self.dentry_views():
            bit = 0
            while bit < nr:
                if not raw[bm + bit // 8] & (1 << (bit % 8)):
                    bit += 1
                    continue
                h, ino, nlen, ftype = struct.unpack_from("<IIHB", raw, de + bit * DIR_ENTRY_SIZE)
                slots = max(1, (nlen + SLOT_LEN - 1) // SLOT_LEN)
                yield {"where": label, "slot": bit, "max": nr, "ino": ino,
                       "name_len": nlen, "type": ftype, "hash": h,
                       "name": bytes(raw[names + bit * SLOT_LEN:names + bit * SLOT_LEN + nlen]),
                       "name_len_ofs": base + de + bit * DIR_ENTRY_SIZE + 8}
                bit += slots


def cmd_info(img, a):
    print("main area: blocks %d..%d" % (img.main_blkaddr, img.max_blkaddr - 1))
    print("cp pack at %d version %d flags 0x%x" % (img.cp_addr, img.cp_ver, img.ckpt_flags))
    print("nat at %d, %d blocks per copy, max nid %d" % (img.nat_blkaddr, img.nat_blocks, img.max_nid))
    print("sit at %d, ssa at %d, root ino %d, features 0x%x" %
          (img.sit_blkaddr, img.ssa_blkaddr, img.root_ino, img.feature))


def cmd_lookup(img, a):
    print(img.resolve(a.path))


def cmd_nat(img, a):
    ino, addr, ver = img.nat(a.nid)
    print("nid %d ino %d blkaddr %d version %d" % (a.nid, ino, addr, ver))
    for what, ofs in img.nat_locations(a.nid):
        print("  %s at byte %d" % (what, ofs))


def cmd_set_nat(img, a):
    # The effective entry (journal when present) and the current NAT block
    # copy, so that the value is seen whichever one a reader consults.
    for what, ofs in img.nat_locations(a.nid):
        img.write(ofs + 5, struct.pack("<I", a.blkaddr), "nid %d block address in %s" % (a.nid, what))


def cmd_node(img, a):
    ino = img.resolve(a.file)
    inode = img.inode(ino)
    if a.index is None:
        print("nid %d blkaddr %d ofs 0" % (ino, inode.addr))
        return
    blk, nid, _ = inode.map(a.index)
    if nid is None:
        print("hole")
        return
    addr, _, _, ofs = img.node(nid)
    print("nid %d blkaddr %d ofs %d data %d" % (nid, addr, ofs, blk))


def cmd_set_footer(img, a):
    addr = img.node_addr(a.target)
    b = img.block(addr)
    nid, ino, flag = struct.unpack_from("<III", b, FOOTER)
    if nid == ino:
        img.check_inode_patch()
    base = addr * BLK + FOOTER
    if a.nid is not None:
        img.write(base, struct.pack("<I", a.nid), "footer nid of node %d" % a.target)
    if a.ino is not None:
        img.write(base + 4, struct.pack("<I", a.ino), "footer ino of node %d" % a.target)
    if a.ofs is not None:
        flag = (flag & 7) | (a.ofs << 3)
        img.write(base + 8, struct.pack("<I", flag), "footer flag of node %d" % a.target)


def cmd_inode(img, a):
    ino = img.resolve(a.file)
    i = img.inode(ino)
    print("ino %d at block %d" % (ino, i.addr))
    for k, v in i.f.items():
        print("  %s %d" % (k, v))
    print("  addrs_per_inode %d" % i.addrs_per_inode)


def cmd_set_inode(img, a):
    img.check_inode_patch()
    ino = img.resolve(a.file)
    i = img.inode(ino)
    if a.field not in I_FIELDS:
        raise ImageError("unknown field %s (known: %s)" % (a.field, " ".join(I_FIELDS)))
    o, fmt = I_FIELDS[a.field]
    v = int(a.value, 0)
    if v < 0:
        v += 1 << (8 * struct.calcsize(fmt))
    img.write(i.addr * BLK + o, struct.pack(fmt, v), "i_%s of inode %d" % (a.field, ino))


def cmd_ls(img, a):
    d = img.inode(img.resolve(a.dir))
    for e in d.dentries():
        print("%s\t%d\t%d\t%d\t%d\t%s" % (e["where"], e["slot"], e["max"], e["ino"],
                                         e["name_len"], e["name"].decode("utf-8", "replace")))


def cmd_set_namelen(img, a):
    d = img.inode(img.resolve(a.dir))
    for e in d.dentries():
        if e["name"] == a.name.encode():
            if e["where"] == "inline":
                img.check_inode_patch()
            img.write(e["name_len_ofs"], struct.pack("<H", a.len),
                      "name_len of '%s' (%s slot %d of %d)" % (a.name, e["where"], e["slot"], e["max"]))
            return
    raise ImageError("%s: no entry %r" % (a.dir, a.name))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    ap.add_argument("image")
    sp = ap.add_subparsers(dest="cmd", required=True)
    sp.add_parser("info", help="geometry and checkpoint in use").set_defaults(fn=cmd_info)
    p = sp.add_parser("lookup", help="print the inode number of a path")
    p.add_argument("path")
    p.set_defaults(fn=cmd_lookup)
    p = sp.add_parser("nat", help="print a nid's NAT entry and where it is stored")
    p.add_argument("nid", type=int)
    p.set_defaults(fn=cmd_nat)
    p = sp.add_parser("set-nat", help="set a nid's block address (journal and current NAT block)")
    p.add_argument("nid", type=int)
    p.add_argument("blkaddr", type=lambda s: int(s, 0))
    p.set_defaults(fn=cmd_set_nat, rw=True)
    p = sp.add_parser("node", help="the node holding a file's inode or block --index")
    p.add_argument("file")
    p.add_argument("--index", type=int)
    p.set_defaults(fn=cmd_node)
    p = sp.add_parser("set-footer", help="rewrite fields of a node's footer")
    p.add_argument("target", type=int, metavar="NID")
    p.add_argument("--nid", type=int)
    p.add_argument("--ino", type=int)
    p.add_argument("--ofs", type=int)
    p.set_defaults(fn=cmd_set_footer, rw=True)
    p = sp.add_parser("inode", help="print an inode's fields")
    p.add_argument("file")
    p.set_defaults(fn=cmd_inode)
    p = sp.add_parser("set-inode", help="set one inode field (%s)" % ", ".join(I_FIELDS))
    p.add_argument("file")
    p.add_argument("field")
    p.add_argument("value")
    p.set_defaults(fn=cmd_set_inode, rw=True)
    p = sp.add_parser("ls", help="list dentries: area, slot, slots, ino, name_len, name")
    p.add_argument("dir")
    p.set_defaults(fn=cmd_ls)
    p = sp.add_parser("set-namelen", help="set the name_len of a dentry")
    p.add_argument("dir")
    p.add_argument("name")
    p.add_argument("len", type=int)
    p.set_defaults(fn=cmd_set_namelen, rw=True)
    a = ap.parse_args()
    try:
        img = Image(a.image, writable=getattr(a, "rw", False))
        a.fn(img, a)
    except (ImageError, OSError) as e:
        print("f2fs-image: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
