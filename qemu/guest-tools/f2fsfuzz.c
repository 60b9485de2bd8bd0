// SPDX-License-Identifier: GPL-2.0
/*
 * f2fsfuzz - seeded, reproducible mutations of an f2fs image.
 *
 *   f2fsfuzz [-s SEED] [-n COUNT] -i BASE.img -o OUT.img
 *   f2fsfuzz replay -i BASE.img -o OUT.img [LINE...]   (lines from stdin without LINE)
 *   f2fsfuzz info -i BASE.img
 *   f2fsfuzz node-as-data -i BASE.img -o OUT.img
 *                           the targeted case: every node segment (SIT
 *                           type hot/warm/cold node) marked as the data
 *                           type of the same temperature
 *   f2fsfuzz walk DIR       list, lstat, readlink and read (64 MiB at most per
 *                           file) everything below DIR (depth 32, 20,000 entries)
 *   f2fsfuzz scribble DIR   small writes in DIR and in the first directories
 *                           and files the walk meets: create, write, append,
 *                           truncate, mkdir, rename, link, symlink, unlink,
 *                           rmdir, then syncfs
 * walk and scribble go on past errors (a corrupted image answers many
 * calls with EUCLEAN/EIO) and print one summary line: operations, errors
 * and the first errors seen; their exit status is 0 unless DIR is unusable.
 *
 * The image is read whole into memory and parsed the way the kernel does
 * (include/linux/f2fs_fs.h): superblock, the newer valid checkpoint pack,
 * the SIT and NAT copies its version bitmaps select, the NAT and SIT
 * journals in the checkpoint's summaries, every node block the NAT points
 * to (inodes, direct and indirect nodes) and the dentry blocks and inline
 * dentries of directories.  Then COUNT mutations (default: 1 to 3, drawn
 * from the seed) are applied, each chosen from:
 *   rand-AREA   random bytes in a block of sb|cp|sit|nat|ssa
 *   sb-FIELD    geometry, counts and area addresses (one or both copies)
 *   cp-FIELD    counts, current segments and offsets, flags, pack layout
 *               (the checkpoint CRC recomputed in both copies of the pack,
 *               except for "cp-...-nocrc")
 *   nat-*       a NAT entry sent outside the main area, at another node,
 *               at a data block, to 0 / NEW_ADDR, or given another ino
 *   sit-*       valid counts above 512 or not matching the bitmap, bitmap
 *               bits flipped, segment type changed (node <-> data: the
 *               targeted "node blocks marked as data" case is sit-type)
 *   ssa-*       summary entries naming other nids / offsets
 *   inode-FIELD sizes, blocks, addresses, nids, inline flags, depth, links,
 *               mode, extent, xattr nid, name length
 *   dnode-/inode-addr/nid  pointers in direct and indirect nodes
 *   footer-*    nid, ino, offset flags, cp version, next block
 *   dentry-*    name lengths, hashes, bitmaps, inos, file types, names
 *               (dentry blocks and inline dentries)
 *   zero-block, dup-block   a metadata or node/dentry block zeroed, or
 *               overwritten with a copy of another one
 * Each applied mutation prints one line on stdout:
 *   mut N: DESCRIPTION | @HEXOFF=HEXBYTES @HEXOFF=HEXBYTES ...
 * The part after "|" is the exact byte patch; "f2fsfuzz replay" applies
 * such lines (only their patches) to the same base image, so a kept image
 * can be rebuilt from its base and its lines, and "-s SEED" with the same
 * base image reproduces them too.  OUT is written sparse (zero blocks are
 * holes).  Exit status: 0 done, 1 the base image cannot be parsed (no
 * valid superblock/checkpoint) or I/O error, 2 usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLK 4096
#define SB_OFF 1024
#define F2FS_MAGIC 0xF2F52010u
#define NAT_PER_BLK 455
#define SIT_PER_BLK 55
#define SIT_ENTRY 74
#define SUM_ENTRIES 512
#define JOURNAL_OFF (SUM_ENTRIES * 7)
#define NAT_J_ENTRIES 38
#define SIT_J_ENTRIES 6
#define ADDRS_PER_INODE 923
#define ADDRS_PER_BLOCK 1018
#define FOOTER 4072
#define I_ADDR 360
#define I_NID 4052

static uint8_t *img;
static uint64_t img_size, nblocks;
/*
 * live[b]: block b was read from the input or changed since; only those can
 * be nonzero, so save() looks at nothing else (the images are 128 MiB and
 * mostly holes: reading and comparing all of it was half of each image's
 * time under TCG).
 */
static uint8_t *live;

static void mark(uint64_t off, size_t len)
{
	uint64_t b;

	for (b = off / BLK; len && b <= (off + len - 1) / BLK && b < nblocks + 1; b++)
		live[b] = 1;
}
static uint64_t rng;

static uint64_t rnd(void)  /* xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }

static uint32_t le32(uint64_t off) { uint32_t v; memcpy(&v, img + off, 4); return v; }
static uint16_t le16(uint64_t off) { uint16_t v; memcpy(&v, img + off, 2); return v; }
static uint64_t le64(uint64_t off) { uint64_t v; memcpy(&v, img + off, 8); return v; }

/* ---- patch log: every change goes through put() ---------------------- */
static char desc[512];
static char patch[65536];
static size_t patch_len;

static void put(uint64_t off, const void *src, size_t len)
{
	const uint8_t *s = src;
	size_t i;

	if (off >= img_size)
		return;
	if (off + len > img_size)
		len = img_size - off;
	memcpy(img + off, s, len);
	mark(off, len);
	if (patch_len + 24 + 2 * len >= sizeof(patch))
		return;
	patch_len += sprintf(patch + patch_len, " @%llx=", (unsigned long long)off);
	for (i = 0; i < len; i++)
		patch_len += sprintf(patch + patch_len, "%02x", s[i]);
}
static void put32(uint64_t off, uint32_t v) { put(off, &v, 4); }
static void put16(uint64_t off, uint16_t v) { put(off, &v, 2); }
static void put64(uint64_t off, uint64_t v) { put(off, &v, 8); }
static void put8(uint64_t off, uint8_t v) { put(off, &v, 1); }

/* ---- layout ------------------------------------------------------------ */
static uint32_t seg0, cp_addr, sit_addr, nat_addr, ssa_addr, main_addr;
static uint32_t seg_sit, seg_nat, seg_ssa, seg_main, seg_count, root_ino;
static uint64_t main_end;         /* first block past the main area */
static uint64_t cpo;              /* byte offset of the current cp block */
static uint32_t cp_total, cp_payload;
static uint64_t cp_ver;
static uint32_t max_nid;
static uint64_t sum_blk;          /* first summary block of the pack */
static uint64_t nat_jrnl, sit_jrnl; /* byte offsets of the journals */

static uint32_t crc32_f2fs(const uint8_t *p, size_t len)
{
	uint32_t crc = F2FS_MAGIC;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return crc;
}

/* The checkpoint pack starting at block b: its version, or 0 if invalid. */
static uint64_t pack_ok(uint64_t b)
{
	uint64_t o = b * BLK, v;
	uint32_t csum_off, total;

	if (o + BLK > img_size)
		return 0;
	csum_off = le32(o + 164);
	if (csum_off < 192 || csum_off > BLK - 4)
		return 0;
	if (crc32_f2fs(img + o, csum_off) != le32(o + csum_off))
		return 0;
	v = le64(o);
	total = le32(o + 136);
	if (total < 2 || total > 512 || (b + total) * BLK > img_size)
		return 0;
	if (le64((b + total - 1) * BLK) != v)
		return 0;
	return v;
}

static int parse(void)
{
	uint64_t v1, v2, b;
	uint32_t flags;

	if (img_size < 2 * BLK || le32(SB_OFF) != F2FS_MAGIC) {
		if (img_size < 2 * BLK || le32(BLK + SB_OFF) != F2FS_MAGIC)
			return -1;
		/* the first copy is bad: parse the second */
		memcpy(img + SB_OFF, img + BLK + SB_OFF, BLK - SB_OFF);
		mark(SB_OFF, BLK - SB_OFF);
	}
#define S(o) le32(SB_OFF + (o))
	seg_count = S(48); seg_sit = S(56); seg_nat = S(60); seg_ssa = S(64); seg_main = S(68);
	seg0 = S(72); cp_addr = S(76); sit_addr = S(80); nat_addr = S(84); ssa_addr = S(88);
	main_addr = S(92); root_ino = S(96); cp_payload = S(1664);
#undef S
	main_end = (uint64_t)main_addr + (uint64_t)seg_main * 512;
	if (main_end > nblocks || nat_addr >= main_addr || cp_addr >= sit_addr)
		return -1;
	v1 = pack_ok(cp_addr);
	v2 = pack_ok(cp_addr + 512);
	if (!v1 && !v2)
		return -1;
	b = (v2 > v1) ? cp_addr + 512 : cp_addr;
	cp_ver = v2 > v1 ? v2 : v1;
	cpo = b * BLK;
	cp_total = le32(cpo + 136);
	flags = le32(cpo + 132);
	sum_blk = b + le32(cpo + 140);
	max_nid = seg_nat / 2 * 512 * NAT_PER_BLK;
	if (flags & 0x4) {          /* compact summaries: journals first */
		nat_jrnl = sum_blk * BLK;
		sit_jrnl = sum_blk * BLK + 507;
	} else {
		nat_jrnl = sum_blk * BLK + JOURNAL_OFF;           /* hot data */
		sit_jrnl = (sum_blk + 2) * BLK + JOURNAL_OFF;     /* cold data */
	}
	if (sit_jrnl + 507 > img_size)
		return -1;
	return 0;
}

static int bitmap_bit(int nat, uint32_t nr)
{
	uint64_t bm;
	uint32_t sit_sz = le32(cpo + 156);

	if (le32(cpo + 132) & 0x400)        /* large nat bitmap */
		bm = cpo + 192 + 4 + (nat ? sit_sz : 0);
	else if (cp_payload)
		bm = nat ? cpo + 192 : cpo + BLK;
	else
		bm = cpo + 192 + (nat ? sit_sz : 0);
	if (bm + nr / 8 >= img_size)
		return 0;
	return (img[bm + nr / 8] >> (7 - (nr & 7))) & 1;
}

/* byte offset of the current NAT entry of nid (9 bytes: ver, ino, blk) */
static uint64_t nat_entry(uint32_t nid)
{
	uint16_t n = le16(nat_jrnl);
	uint32_t i, blk;
	uint64_t a;

	for (i = 0; i < n && i < NAT_J_ENTRIES; i++)
		if (le32(nat_jrnl + 2 + i * 13) == nid)
			return nat_jrnl + 2 + i * 13 + 4;
	blk = nid / NAT_PER_BLK;
	a = nat_addr + (blk / 512) * 1024 + (blk % 512);
	if (bitmap_bit(1, blk))
		a += 512;
	return a * BLK + (nid % NAT_PER_BLK) * 9;
}

static uint64_t sit_entry(uint32_t segno)
{
	uint16_t n = le16(sit_jrnl);
	uint32_t i, blk;
	uint64_t a;

	for (i = 0; i < n && i < SIT_J_ENTRIES; i++)
		if (le32(sit_jrnl + 2 + i * 78) == segno)
			return sit_jrnl + 2 + i * 78 + 4;
	blk = segno / SIT_PER_BLK;
	a = sit_addr + blk;
	if (bitmap_bit(0, blk))
		a += (uint64_t)seg_sit / 2 * 512;
	return a * BLK + (segno % SIT_PER_BLK) * SIT_ENTRY;
}

/* ---- the tree: node blocks and dentry regions --------------------------- */
struct node { uint32_t nid, blk; int inode, dir; };
static struct node *nodes;
static uint32_t nnodes;
struct dregion { uint64_t off; uint32_t slots; uint32_t bitmap, dents, names; };
static struct dregion *dregs;
static uint32_t ndregs;
static uint32_t *used_segs;
static uint32_t nused;

static int in_main(uint32_t b) { return b >= main_addr && b < main_end; }

static void add_dreg(uint64_t off, uint32_t slots, uint32_t bitmap, uint32_t dents, uint32_t names)
{
	dregs = realloc(dregs, (ndregs + 1) * sizeof(*dregs));
	if (!dregs) { perror("f2fsfuzz"); exit(1); }
	dregs[ndregs++] = (struct dregion){ off, slots, bitmap, dents, names };
}

static void scan_tree(void)
{
	uint32_t nid, i, s;

	for (nid = 1; nid < max_nid; nid++) {
		uint64_t e = nat_entry(nid);
		uint32_t blk = le32(e + 5);
		uint64_t o;
		struct node nd;

		if (e + 9 > img_size || !in_main(blk))
			continue;
		o = (uint64_t)blk * BLK;
		if (le32(o + FOOTER) != nid)
			continue;
		nd.nid = nid;
		nd.blk = blk;
		nd.inode = le32(o + FOOTER + 4) == nid;
		nd.dir = nd.inode && (le16(o) & 0170000) == 0040000;
		nodes = realloc(nodes, (nnodes + 1) * sizeof(*nodes));
		if (!nodes) { perror("f2fsfuzz"); exit(1); }
		nodes[nnodes++] = nd;
		if (!nd.dir)
			continue;
		uint8_t in = img[o + 3];
		uint32_t extra = (in & 0x20) ? le16(o + I_ADDR) / 4 : 0;
		if (in & 0x04) {    /* inline dentries */
			uint32_t xattr = (in & 0x01) ? 50 : 0;
			uint32_t maxd = 4 * (ADDRS_PER_INODE - extra - xattr - 1);
			uint32_t nr = maxd * 8 / ((11 + 8) * 8 + 1);
			uint32_t bm = (nr + 7) / 8;
			uint32_t resv = maxd - (bm + nr * 19);
			add_dreg(o + I_ADDR + 4 * (extra + 1), nr, 0, bm + resv, bm + resv + nr * 11);
		} else {
			for (i = 0; i < 8 && i + extra < ADDRS_PER_INODE; i++) {
				uint32_t d = le32(o + I_ADDR + 4 * (extra + i));
				if (in_main(d))
					add_dreg((uint64_t)d * BLK, 214, 0, 30, 30 + 214 * 11);
			}
		}
	}
	for (s = 0; s < seg_main; s++) {
		uint64_t e = sit_entry(s);
		if (e + SIT_ENTRY <= img_size && (le16(e) & 0x3ff)) {
			used_segs = realloc(used_segs, (nused + 1) * sizeof(*used_segs));
			if (!used_segs) { perror("f2fsfuzz"); exit(1); }
			used_segs[nused++] = s;
		}
	}
}

/* ---- mutations ------------------------------------------------------------ */
/* an "interesting" replacement for a 32-bit value */
static uint32_t twist32(uint32_t cur)
{
	switch (below(12)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 0xffffffffu;
	case 3: return cur + 1;
	case 4: return cur - 1;
	case 5: return cur * 2 + 1;
	case 6: return cur / 2;
	case 7: return cur + 512;
	case 8: return cur ^ (1u << below(32));
	case 9: return 0x80000000u;
	case 10: return (uint32_t)main_end + below(1024);
	default: return (uint32_t)rnd();
	}
}
static uint64_t twist64(uint64_t cur)
{
	switch (below(6)) {
	case 0: return 0;
	case 1: return ~0ULL;
	case 2: return cur + 1 + below(4096);
	case 3: return cur ? cur - 1 : 1;
	case 4: return 1ULL << (40 + below(23));
	default: return cur ^ (1ULL << below(64));
	}
}

static void mut_rand_area(void)
{
	static const char *names[] = { "sb", "cp", "sit", "nat", "ssa" };
	int a = below(5);
	uint64_t blk = 0, nb = 1;
	uint32_t n = 1 + below(16), off, i;
	uint8_t buf[16];

	switch (a) {
	case 0: blk = below(2); break;
	case 1: blk = cpo / BLK; nb = cp_total; break;
	case 2: blk = sit_addr; nb = (uint64_t)seg_sit * 512; break;
	case 3: blk = nat_addr; nb = (uint64_t)seg_nat * 512; break;
	case 4: blk = ssa_addr; nb = (uint64_t)seg_ssa * 512; break;
	}
	if (a >= 2 && below(4)) {
		/* prefer blocks in use: the current SIT/NAT copies, SSA of used segments */
		if (a == 2 && nused)
			blk = sit_entry(used_segs[below(nused)]) / BLK;
		else if (a == 3 && nnodes)
			blk = nat_entry(nodes[below(nnodes)].nid) / BLK;
		else if (a == 4 && nused)
			blk = ssa_addr + used_segs[below(nused)];
		nb = 1;
	}
	blk += below(nb);
	off = a == 0 ? SB_OFF + below(3072 - n) : below(BLK - n);
	for (i = 0; i < n; i++)
		buf[i] = rnd();
	snprintf(desc, sizeof(desc), "rand-%s block %llu offset %u len %u", names[a],
		 (unsigned long long)blk, off, n);
	put(blk * BLK + off, buf, n);
}

static void mut_sb(void)
{
	static const struct { const char *n; int off, w; } f[] = {
		{ "log_sectorsize", 8, 4 }, { "log_sectors_per_block", 12, 4 },
		{ "log_blocksize", 16, 4 }, { "log_blocks_per_seg", 20, 4 },
		{ "segs_per_sec", 24, 4 }, { "secs_per_zone", 28, 4 },
		{ "checksum_offset", 32, 4 }, { "block_count", 36, 8 },
		{ "section_count", 44, 4 }, { "segment_count", 48, 4 },
		{ "segment_count_ckpt", 52, 4 }, { "segment_count_sit", 56, 4 },
		{ "segment_count_nat", 60, 4 }, { "segment_count_ssa", 64, 4 },
		{ "segment_count_main", 68, 4 }, { "segment0_blkaddr", 72, 4 },
		{ "cp_blkaddr", 76, 4 }, { "sit_blkaddr", 80, 4 }, { "nat_blkaddr", 84, 4 },
		{ "ssa_blkaddr", 88, 4 }, { "main_blkaddr", 92, 4 }, { "root_ino", 96, 4 },
		{ "node_ino", 100, 4 }, { "meta_ino", 104, 4 }, { "extension_count", 1148, 4 },
		{ "cp_payload", 1664, 4 }, { "feature", 2180, 4 },
	};
	int k = below(sizeof(f) / sizeof(f[0]));
	int copies = below(3);          /* 0: first, 1: second, 2: both */
	uint64_t o = SB_OFF + f[k].off, cur, v;

	if (f[k].w == 8) {
		cur = le64(o);
		v = twist64(cur);
	} else {
		cur = le32(o);
		v = twist32(cur);
	}
	snprintf(desc, sizeof(desc), "sb-%s %llu -> %llu (%s)", f[k].n, (unsigned long long)cur,
		 (unsigned long long)v, copies == 0 ? "copy 1" : copies == 1 ? "copy 2" : "both copies");
	if (copies != 1)
		f[k].w == 8 ? put64(o, v) : put32(o, (uint32_t)v);
	if (copies != 0)
		f[k].w == 8 ? put64(BLK + o, v) : put32(BLK + o, (uint32_t)v);
}

static void cp_fix_crc(uint64_t at)
{
	uint32_t co = le32(at + 164), c;

	if (co < 192 || co > BLK - 4)
		return;
	c = crc32_f2fs(img + at, co);
	put32(at + co, c);
}

static void mut_cp(void)
{
	static const struct { const char *n; int off, w; } f[] = {
		{ "checkpoint_ver", 0, 8 }, { "user_block_count", 8, 8 },
		{ "valid_block_count", 16, 8 }, { "rsvd_segment_count", 24, 4 },
		{ "overprov_segment_count", 28, 4 }, { "free_segment_count", 32, 4 },
		{ "cur_node_segno", 36, 4 }, { "cur_node_blkoff", 68, 2 },
		{ "cur_data_segno", 84, 4 }, { "cur_data_blkoff", 116, 2 },
		{ "ckpt_flags", 132, 4 }, { "cp_pack_total_block_count", 136, 4 },
		{ "cp_pack_start_sum", 140, 4 }, { "valid_node_count", 144, 4 },
		{ "valid_inode_count", 148, 4 }, { "next_free_nid", 152, 4 },
		{ "sit_ver_bitmap_bytesize", 156, 4 }, { "nat_ver_bitmap_bytesize", 160, 4 },
		{ "checksum_offset", 164, 4 }, { "alloc_type", 176, 1 },
		{ "version_bitmap", 192, 1 },
	};
	int k = below(sizeof(f) / sizeof(f[0]));
	int idx = 0, nocrc = !below(8);
	uint64_t o, cur, v;

	if (f[k].off >= 36 && f[k].off < 132) {
		idx = below(3);
		o = cpo + f[k].off + idx * f[k].w;
	} else if (f[k].off == 176) {
		idx = below(6);
		o = cpo + 176 + idx;
	} else if (f[k].off == 192) {
		idx = below(le32(cpo + 156) + le32(cpo + 160));
		o = cpo + 192 + (idx < 3000 ? idx : 0);
	} else {
		o = cpo + f[k].off;
	}
	switch (f[k].w) {
	case 8: cur = le64(o); v = twist64(cur); put64(o, v); break;
	case 4: cur = le32(o);
		v = (k == 10) ? cur ^ (1u << below(16)) : twist32(cur);
		put32(o, (uint32_t)v); break;
	case 2: cur = le16(o);
		v = below(2) ? 512 + below(65024) : (uint16_t)twist32(cur);
		put16(o, (uint16_t)v); break;
	default: cur = img[o]; v = (f[k].off == 192) ? cur ^ (1u << below(8)) : rnd() & 0xff;
		put8(o, (uint8_t)v); break;
	}
	snprintf(desc, sizeof(desc), "cp-%s[%d] %llu -> %llu%s", f[k].n, idx,
		 (unsigned long long)cur, (unsigned long long)v, nocrc ? " (nocrc)" : "");
	/* the tail copy of the pack follows the head, then both CRCs */
	if (!nocrc) {
		uint64_t tail = cpo + (uint64_t)(cp_total - 1) * BLK;
		int w = f[k].w;
		if (f[k].off != 136 && tail != cpo && tail + BLK <= img_size)
			put(tail + (o - cpo), img + o, w);
		if (f[k].off != 164) {
			cp_fix_crc(cpo);
			if (f[k].off != 136 && tail != cpo && tail + BLK <= img_size)
				cp_fix_crc(tail);
		}
	}
}

static struct node *pick_node(int want)  /* 0 any, 1 inode, 2 dir, 3 non-inode */
{
	uint32_t i, n = 0, k;

	for (i = 0; i < nnodes; i++)
		if (!want || (want == 1 && nodes[i].inode) || (want == 2 && nodes[i].dir) ||
		    (want == 3 && !nodes[i].inode))
			n++;
	if (!n)
		return nnodes ? &nodes[below(nnodes)] : NULL;
	k = below(n);
	for (i = 0; i < nnodes; i++)
		if (!want || (want == 1 && nodes[i].inode) || (want == 2 && nodes[i].dir) ||
		    (want == 3 && !nodes[i].inode))
			if (!k--)
				return &nodes[i];
	return NULL;
}

static uint32_t some_block(void)  /* an address with a twist */
{
	switch (below(8)) {
	case 0: return (uint32_t)main_end + below(4096);
	case 1: return sit_addr + below(512);
	case 2: return nat_addr + below(512);
	case 3: return 0xffffffffu;
	case 4: return 0;
	case 5: return nnodes ? nodes[below(nnodes)].blk : main_addr;
	case 6: return cp_addr + below(2);
	default: return main_addr + below(seg_main * 512);
	}
}

static uint32_t some_nid(uint32_t self)
{
	switch (below(7)) {
	case 0: return 0;
	case 1: return max_nid + below(1000);
	case 2: return self;
	case 3: return root_ino;
	case 4: return 1 + below(3);   /* node/meta/root inodes */
	case 5: return 0xffffffffu;
	default: return nnodes ? nodes[below(nnodes)].nid : 3;
	}
}

static void mut_nat(void)
{
	struct node *n = pick_node(below(2));
	uint64_t e;
	uint32_t cur, v;

	if (!n)
		return;
	e = nat_entry(n->nid);
	if (below(4)) {
		cur = le32(e + 5);
		v = some_block();
		snprintf(desc, sizeof(desc), "nat-blkaddr nid %u: %u -> %u", n->nid, cur, v);
		put32(e + 5, v);
	} else if (below(2)) {
		cur = le32(e + 1);
		v = some_nid(n->nid);
		snprintf(desc, sizeof(desc), "nat-ino nid %u: %u -> %u", n->nid, cur, v);
		put32(e + 1, v);
	} else {
		/* a free nid made to point at an existing node */
		uint32_t nid = 4 + below(max_nid > 4 ? max_nid - 4 : 1);
		e = nat_entry(nid);
		snprintf(desc, sizeof(desc), "nat-alias nid %u -> block %u of nid %u", nid, n->blk, n->nid);
		put32(e + 1, below(2) ? n->nid : nid);
		put32(e + 5, n->blk);
	}
}

static void mut_sit(void)
{
	uint32_t seg = nused && below(4) ? used_segs[below(nused)] : below(seg_main);
	uint64_t e = sit_entry(seg);
	uint16_t vb = le16(e), nv;
	int k = below(5);

	switch (k) {
	case 0:     /* the targeted case: node segment marked data (types 3-5 <-> 0-2) */
		nv = (vb & 0x3ff) | (uint16_t)((((vb >> 10) + 3) % 6) << 10);
		if (below(4) == 0)
			nv = (vb & 0x3ff) | (uint16_t)(below(64) << 10);
		snprintf(desc, sizeof(desc), "sit-type segment %u: type %u -> %u", seg, vb >> 10, nv >> 10);
		put16(e, nv);
		break;
	case 1:
		nv = (vb & 0xfc00) | (513 + below(511));
		snprintf(desc, sizeof(desc), "sit-vblocks-over-512 segment %u: %u -> %u", seg, vb & 0x3ff, nv & 0x3ff);
		put16(e, nv);
		break;
	case 2:
		nv = (vb & 0xfc00) | (((vb & 0x3ff) + 1 + below(5)) & 0x3ff);
		snprintf(desc, sizeof(desc), "sit-vblocks-vs-bitmap segment %u: %u -> %u", seg, vb & 0x3ff, nv & 0x3ff);
		put16(e, nv);
		break;
	case 3: {
		uint32_t bit = below(512);
		uint8_t b = img[e + 2 + bit / 8] ^ (0x80 >> (bit & 7));
		snprintf(desc, sizeof(desc), "sit-bitmap segment %u: flip bit %u", seg, bit);
		put8(e + 2 + bit / 8, b);
		break;
	}
	default: {
		uint64_t m = twist64(le64(e + 66));
		snprintf(desc, sizeof(desc), "sit-mtime segment %u -> %llu", seg, (unsigned long long)m);
		put64(e + 66, m);
		break;
	}
	}
}

static void mut_ssa(void)
{
	uint32_t seg = nused ? used_segs[below(nused)] : 0;
	uint32_t i = below(SUM_ENTRIES);
	uint64_t o = (uint64_t)(ssa_addr + seg) * BLK + i * 7;

	if (below(2)) {
		uint32_t v = some_nid(0);
		snprintf(desc, sizeof(desc), "ssa-nid segment %u entry %u: %u -> %u", seg, i, le32(o), v);
		put32(o, v);
	} else {
		uint16_t v = below(2) ? 0xffff : below(1100);
		snprintf(desc, sizeof(desc), "ssa-ofs segment %u entry %u: %u -> %u", seg, i, le16(o + 5), v);
		put16(o + 5, v);
	}
}

static void mut_inode(void)
{
	static const struct { const char *n; int off, w; } f[] = {
		{ "mode", 0, 2 }, { "advise", 2, 1 }, { "inline", 3, 1 }, { "links", 12, 4 },
		{ "size", 16, 8 }, { "blocks", 24, 8 }, { "depth", 72, 4 }, { "xattr_nid", 76, 4 },
		{ "flags", 80, 4 }, { "pino", 84, 4 }, { "namelen", 88, 4 }, { "dir_level", 347, 1 },
		{ "ext_fofs", 348, 4 }, { "ext_blk", 352, 4 }, { "ext_len", 356, 4 },
		{ "addr", I_ADDR, 4 }, { "nid", I_NID, 4 }, { "extra_isize", I_ADDR, 2 },
	};
	struct node *n = pick_node(below(3) ? 1 : 2);
	int k = below(sizeof(f) / sizeof(f[0])), idx = 0;
	uint64_t o, cur, v;

	if (!n)
		return;
	o = (uint64_t)n->blk * BLK + f[k].off;
	if (f[k].off == I_ADDR && f[k].w == 4) {
		idx = below(4) ? below(16) : below(ADDRS_PER_INODE);
		o += idx * 4;
	} else if (f[k].off == I_NID) {
		idx = below(5);
		o += idx * 4;
	}
	switch (f[k].w) {
	case 8: cur = le64(o); v = twist64(cur); put64(o, v); break;
	case 4: cur = le32(o);
		if (f[k].off == I_ADDR) v = some_block();
		else if (f[k].off == I_NID || f[k].off == 76 || f[k].off == 84) v = some_nid(n->nid);
		else v = twist32(cur);
		put32(o, (uint32_t)v); break;
	case 2: cur = le16(o);
		v = f[k].off == 0 ? (cur & 0777) | (below(16) << 12) : (uint16_t)twist32(cur);
		put16(o, (uint16_t)v); break;
	default: cur = img[o];
		v = f[k].off == 3 ? cur ^ (1u << below(7)) : rnd() & 0xff;
		put8(o, (uint8_t)v); break;
	}
	snprintf(desc, sizeof(desc), "inode-%s[%d] ino %u%s: %llu -> %llu", f[k].n, idx, n->nid,
		 n->dir ? " (dir)" : "", (unsigned long long)cur, (unsigned long long)v);
}

static void mut_dnode(void)
{
	struct node *n = pick_node(3);
	uint32_t i = below(ADDRS_PER_BLOCK), cur, v;
	uint64_t o;

	if (!n || n->inode) {
		mut_inode();
		return;
	}
	o = (uint64_t)n->blk * BLK + i * 4;
	cur = le32(o);
	v = below(2) ? some_block() : some_nid(n->nid);
	snprintf(desc, sizeof(desc), "dnode-entry nid %u [%u]: %u -> %u", n->nid, i, cur, v);
	put32(o, v);
}

static void mut_footer(void)
{
	struct node *n = pick_node(0);
	uint64_t o;
	int k = below(5);
	static const char *fn[] = { "nid", "ino", "flag", "cp_ver", "next_blkaddr" };
	uint64_t cur, v;

	if (!n)
		return;
	o = (uint64_t)n->blk * BLK + FOOTER;
	switch (k) {
	case 0: case 1: cur = le32(o + k * 4); v = some_nid(n->nid); put32(o + k * 4, (uint32_t)v); break;
	case 2: cur = le32(o + 8);
		v = below(2) ? (cur & 7) | (below(3000) << 3) : cur ^ (1u << below(32));
		put32(o + 8, (uint32_t)v); break;
	case 3: cur = le64(o + 12); v = twist64(cur); put64(o + 12, v); break;
	default: cur = le32(o + 20); v = some_block(); put32(o + 20, (uint32_t)v); break;
	}
	snprintf(desc, sizeof(desc), "footer-%s of nid %u: %llu -> %llu", fn[k], n->nid,
		 (unsigned long long)cur, (unsigned long long)v);
}

static void mut_dentry(void)
{
	struct dregion *d;
	uint32_t slot, tries, cur, v;
	uint64_t e;
	int k = below(7);

	if (!ndregs) {
		mut_inode();
		return;
	}
	d = &dregs[below(ndregs)];
	/* a used slot, if one is found soon */
	for (slot = below(d->slots), tries = 0; tries < 64; tries++, slot = below(d->slots))
		if (img[d->off + d->bitmap + slot / 8] & (1 << (slot & 7)))
			break;
	e = d->off + d->dents + slot * 11;
	switch (k) {
	case 0:
		cur = le16(e + 8);
		v = below(3) == 0 ? 0 : below(2) ? 256 + below(100) : cur + 8 * (1 + below(30));
		put16(e + 8, (uint16_t)v);
		snprintf(desc, sizeof(desc), "dentry-namelen slot %u: %u -> %u", slot, cur, v);
		break;
	case 1:
		cur = le32(e);
		v = (uint32_t)rnd();
		put32(e, v);
		snprintf(desc, sizeof(desc), "dentry-hash slot %u: %u -> %u", slot, cur, v);
		break;
	case 2:
		cur = le32(e + 4);
		v = some_nid(0);
		put32(e + 4, v);
		snprintf(desc, sizeof(desc), "dentry-ino slot %u: %u -> %u", slot, cur, v);
		break;
	case 3:
		cur = img[e + 10];
		v = below(12);
		put8(e + 10, (uint8_t)v);
		snprintf(desc, sizeof(desc), "dentry-type slot %u: %u -> %u", slot, cur, v);
		break;
	case 4: {
		uint32_t bit = below(d->slots);
		uint8_t b = img[d->off + d->bitmap + bit / 8] ^ (1 << (bit & 7));
		put8(d->off + d->bitmap + bit / 8, b);
		snprintf(desc, sizeof(desc), "dentry-bitmap flip slot %u", bit);
		break;
	}
	case 5: {
		static const char *bad[] = { "/", "..", ".", "a/b", "\0x" };
		int b = below(5);
		put(d->off + d->names + slot * 8 + below(4), bad[b], b == 4 ? 2 : strlen(bad[b]));
		snprintf(desc, sizeof(desc), "dentry-name slot %u: '%s' written in", slot, b == 4 ? "\\0x" : bad[b]);
		break;
	}
	default: {
		uint8_t buf[8];
		uint32_t off = below(d->names + d->slots * 8 - 8), i;
		for (i = 0; i < 8; i++)
			buf[i] = rnd();
		put(d->off + off, buf, 8);
		snprintf(desc, sizeof(desc), "dentry-rand offset %u in region at %llu", off,
			 (unsigned long long)d->off);
		break;
	}
	}
	{   /* name the region: which block */
		size_t l = strlen(desc);
		snprintf(desc + l, sizeof(desc) - l, " (%s block %llu)",
			 d->slots == 214 ? "dentry" : "inline dentries in",
			 (unsigned long long)(d->off / BLK));
	}
}

static uint64_t some_meta_or_node_block(const char **what)
{
	switch (below(7)) {
	case 0: *what = "sb"; return below(2);
	case 1: *what = "cp"; return cpo / BLK + below(cp_total);
	case 2: *what = "sit"; return nused ? sit_entry(used_segs[below(nused)]) / BLK : sit_addr;
	case 3: *what = "nat"; return nnodes ? nat_entry(nodes[below(nnodes)].nid) / BLK : nat_addr;
	case 4: *what = "ssa"; return ssa_addr + (nused ? used_segs[below(nused)] : 0);
	case 5: if (ndregs) { *what = "dentry"; return dregs[below(ndregs)].off / BLK; }
		/* fall through */
	default: *what = "node"; return nnodes ? nodes[below(nnodes)].blk : main_addr;
	}
}

static void mut_block(void)
{
	const char *wa, *wb;
	uint64_t a = some_meta_or_node_block(&wa);

	if (below(2)) {
		static uint8_t zero[BLK];
		snprintf(desc, sizeof(desc), "zero-block %llu (%s)", (unsigned long long)a, wa);
		put(a * BLK, zero, BLK);
	} else {
		uint64_t b = some_meta_or_node_block(&wb);
		uint8_t buf[BLK];
		if ((b + 1) * BLK > img_size || (a + 1) * BLK > img_size)
			return;
		memcpy(buf, img + b * BLK, BLK);
		snprintf(desc, sizeof(desc), "dup-block %llu (%s) over %llu (%s)",
			 (unsigned long long)b, wb, (unsigned long long)a, wa);
		put(a * BLK, buf, BLK);
	}
}

static void mutate_one(void)
{
	/* weights: metadata areas and the tree about equally */
	switch (below(20)) {
	case 0: case 1: case 2: mut_rand_area(); break;
	case 3: case 4: mut_sb(); break;
	case 5: case 6: mut_cp(); break;
	case 7: case 8: mut_nat(); break;
	case 9: case 10: mut_sit(); break;
	case 11: mut_ssa(); break;
	case 12: case 13: case 14: mut_inode(); break;
	case 15: mut_dnode(); break;
	case 16: mut_footer(); break;
	case 17: case 18: mut_dentry(); break;
	default: mut_block(); break;
	}
}

/* ---- I/O ------------------------------------------------------------------ */
/* read_range: bytes [from, to) of fd into img, marking their blocks live */
static int read_range(int fd, uint64_t from, uint64_t to)
{
	ssize_t r;

	mark(from, to - from);
	while (from < to) {
		r = pread(fd, img + from, to - from, from);
		if (r <= 0)
			return -1;
		from += r;
	}
	return 0;
}

/* load the image; a regular file's holes (SEEK_DATA) are not read */
static void load(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	off_t d, h;
	int bad = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "f2fsfuzz: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	img_size = st.st_size;
	if (S_ISBLK(st.st_mode)) {
		off_t e = lseek(fd, 0, SEEK_END);
		img_size = e > 0 ? (uint64_t)e : 0;
		lseek(fd, 0, SEEK_SET);
	}
	nblocks = img_size / BLK;
	img = calloc(1, img_size + BLK);
	live = calloc(1, nblocks + 2);
	if (!img || !live) {
		fprintf(stderr, "f2fsfuzz: out of memory for %llu bytes\n", (unsigned long long)img_size);
		exit(1);
	}
	d = S_ISREG(st.st_mode) ? lseek(fd, 0, SEEK_DATA) : -1;
	if (!S_ISREG(st.st_mode) || (d < 0 && errno != ENXIO)) {
		/* a device, or no SEEK_DATA here: read it all */
		bad = read_range(fd, 0, img_size);
	} else {
		while (!bad && d >= 0 && (uint64_t)d < img_size) {
			h = lseek(fd, d, SEEK_HOLE);
			if (h < 0 || (uint64_t)h > img_size)
				h = img_size;
			bad = read_range(fd, d, h);
			d = lseek(fd, h, SEEK_DATA);
		}
	}
	if (bad) {
		fprintf(stderr, "f2fsfuzz: short read of %s\n", path);
		exit(1);
	}
	close(fd);
}

static void save(const char *path)
{
	static const uint8_t zero[BLK];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	uint64_t o;

	if (fd < 0) {
		fprintf(stderr, "f2fsfuzz: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (ftruncate(fd, img_size) < 0) {
		fprintf(stderr, "f2fsfuzz: truncate %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (o = 0; o < img_size; o += BLK) {
		size_t n = img_size - o < BLK ? img_size - o : BLK;
		if (!live[o / BLK] || !memcmp(img + o, zero, n))
			continue;
		if (pwrite(fd, img + o, n, o) != (ssize_t)n) {
			fprintf(stderr, "f2fsfuzz: write %s: %s\n", path, strerror(errno));
			exit(1);
		}
	}
	if (close(fd) < 0) {
		fprintf(stderr, "f2fsfuzz: close %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* apply the "@HEX=HEX" words of a line; returns patches applied or -1 */
static int replay_line(const char *line)
{
	const char *p = strchr(line, '|');
	int n = 0;

	p = p ? p + 1 : line;
	while ((p = strchr(p, '@'))) {
		char *end;
		unsigned long long off = strtoull(p + 1, &end, 16);
		uint8_t buf[BLK];
		size_t len = 0;

		if (*end != '=')
			return -1;
		p = end + 1;
		while (len < sizeof(buf) && p[0] && p[1] &&
		       strchr("0123456789abcdefABCDEF", p[0]) && strchr("0123456789abcdefABCDEF", p[1])) {
			char h[3] = { p[0], p[1], 0 };
			buf[len++] = (uint8_t)strtoul(h, NULL, 16);
			p += 2;
		}
		if (!len || off + len > img_size)
			return -1;
		memcpy(img + off, buf, len);
		mark(off, len);
		n++;
	}
	return n;
}

/* ---- walk and scribble: exercise a mounted (corrupted) image -------------- */
static long ops, errs;
static char first_errs[512];
static char dirs_seen[4][4096], files_seen[4][4096];
static int ndirs_seen, nfiles_seen;
static long entries;

static void err(const char *what, const char *path)
{
	size_t l = strlen(first_errs);

	errs++;
	if (errs <= 3 && l < sizeof(first_errs) - 80)
		snprintf(first_errs + l, sizeof(first_errs) - l, "%s%s %.40s: %s", l ? "; " : "",
			 what, path, strerror(errno));
}
#define OP(expr, what, path) do { ops++; if ((expr) < 0) err(what, path); } while (0)

static void walk(const char *path, int depth)
{
	DIR *d;
	struct dirent *de;
	static char buf[1 << 16];

	if (depth > 32 || entries > 20000)
		return;
	ops++;
	d = opendir(path);
	if (!d) {
		err("opendir", path);
		return;
	}
	if (ndirs_seen < 4)
		snprintf(dirs_seen[ndirs_seen++], 4096, "%s", path);
	for (;;) {
		char p[4096];
		struct stat st;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				err("readdir", path);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++entries > 20000)
			break;
		if (snprintf(p, sizeof(p), "%s/%s", path, de->d_name) >= (int)sizeof(p))
			continue;
		ops++;
		if (lstat(p, &st) < 0) {
			err("lstat", p);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			walk(p, depth + 1);
		} else if (S_ISLNK(st.st_mode)) {
			char t[4096];
			OP(readlink(p, t, sizeof(t)), "readlink", p);
		} else if (S_ISREG(st.st_mode)) {
			int fd = open(p, O_RDONLY);
			long long got = 0;
			ssize_t r = 0;

			ops++;
			if (fd < 0) {
				err("open", p);
				continue;
			}
			if (nfiles_seen < 4)
				snprintf(files_seen[nfiles_seen++], 4096, "%s", p);
			while (got < (64LL << 20) && (r = read(fd, buf, sizeof(buf))) > 0)
				got += r;
			if (r < 0)
				err("read", p);
			close(fd);
		}
	}
	closedir(d);
}

static void scribble_in(const char *dir, int k)
{
	char a[4200], b[4200], c[4200], sub[4200];
	static char data[100000];
	int fd;

	memset(data, 'a' + k, sizeof(data));
	snprintf(a, sizeof(a), "%s/fz%d-a", dir, k);
	snprintf(b, sizeof(b), "%s/fz%d-b", dir, k);
	snprintf(c, sizeof(c), "%s/fz%d-c", dir, k);
	snprintf(sub, sizeof(sub), "%s/fz%d-d", dir, k);
	ops++;
	fd = open(a, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd >= 0) {
		OP(write(fd, data, 3000), "write", a);
		OP(write(fd, data, k ? 20000 : sizeof(data)), "write", a);
		if (!k)
			OP(fsync(fd), "fsync", a);
		close(fd);
	} else {
		err("create", a);
	}
	OP(mkdir(sub, 0755), "mkdir", sub);
	OP(rename(a, b), "rename", a);
	OP(link(b, c), "link", b);
	OP(symlink("fz-target", a), "symlink", a);
	OP(unlink(b), "unlink", b);
	snprintf(b, sizeof(b), "%s/fz%d-d/moved", dir, k);
	OP(rename(c, b), "rename", c);
	OP(unlink(b), "unlink", b);
	OP(rmdir(sub), "rmdir", sub);
}

static int walk_main(const char *dir, int scribble)
{
	struct stat st;
	int i, fd;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "f2fsfuzz: %s is not a directory\n", dir);
		return 2;
	}
	walk(dir, 0);
	if (scribble) {
		long wops = ops, werrs = errs;
		scribble_in(dir, 0);
		for (i = 1; i < ndirs_seen; i++)
			scribble_in(dirs_seen[i], i);
		for (i = 0; i < nfiles_seen; i++) {
			ops++;
			fd = open(files_seen[i], O_WRONLY | O_APPEND);
			if (fd < 0) {
				err("open-w", files_seen[i]);
				continue;
			}
			OP(write(fd, "appended\n", 9), "append", files_seen[i]);
			OP(ftruncate(fd, 4096 * (i + 1)), "truncate", files_seen[i]);
			close(fd);
		}
		ops++;
		fd = open(dir, O_RDONLY);
		if (fd >= 0) {
			OP(syncfs(fd), "syncfs", dir);
			close(fd);
		}
		printf("f2fsfuzz: scribble %s: %ld operations (after a walk of %ld), %ld errors%s%s\n",
		       dir, ops - wops, wops, errs - werrs, errs ? ": " : "", first_errs);
		return 0;
	}
	printf("f2fsfuzz: walk %s: %ld entries, %ld operations, %ld errors%s%s\n", dir, entries,
	       ops, errs, errs ? ": " : "", first_errs);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: f2fsfuzz [-s SEED] [-n COUNT] -i BASE.img -o OUT.img\n"
		"       f2fsfuzz replay -i BASE.img -o OUT.img [LINE...]  (LINEs from stdin if none)\n"
		"       f2fsfuzz info -i BASE.img\n"
		"       f2fsfuzz node-as-data -i BASE.img -o OUT.img\n"
		"       f2fsfuzz walk DIR | f2fsfuzz scribble DIR\n"
		"Applies COUNT (default 1-3) seeded mutations to an f2fs image and prints\n"
		"one replayable line per mutation: 'mut N: DESCRIPTION | @OFF=BYTES ...'.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *mode = "fuzz";
	unsigned long long seed = 0;
	int count = 0, seeded = 0, c, i;

	if (argc == 3 && !strcmp(argv[1], "walk"))
		return walk_main(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "scribble"))
		return walk_main(argv[2], 1);
	if (argc > 1 && (!strcmp(argv[1], "replay") || !strcmp(argv[1], "info") ||
			 !strcmp(argv[1], "node-as-data"))) {
		mode = argv[1];
		argv++;
		argc--;
	}
	while ((c = getopt(argc, argv, "s:n:i:o:h")) != -1) {
		char *end;
		switch (c) {
		case 's': seed = strtoull(optarg, &end, 0); seeded = 1;
			if (*end) usage();
			break;
		case 'n': count = strtol(optarg, &end, 0);
			if (*end || count < 1 || count > 100) usage();
			break;
		case 'i': in = optarg; break;
		case 'o': out = optarg; break;
		default: usage();
		}
	}
	if (!in || (strcmp(mode, "info") && !out))
		usage();
	if (!strcmp(mode, "fuzz") && optind != argc)
		usage();
	load(in);

	if (!strcmp(mode, "replay")) {
		char line[1 << 16];
		int total = 0, r;
		if (optind < argc) {
			for (i = optind; i < argc; i++) {
				if ((r = replay_line(argv[i])) < 0) {
					fprintf(stderr, "f2fsfuzz: bad replay line: %s\n", argv[i]);
					return 2;
				}
				total += r;
			}
		} else {
			while (fgets(line, sizeof(line), stdin)) {
				if (!strchr(line, '@'))
					continue;
				if ((r = replay_line(line)) < 0) {
					fprintf(stderr, "f2fsfuzz: bad replay line: %s", line);
					return 2;
				}
				total += r;
			}
		}
		save(out);
		printf("f2fsfuzz: replayed %d patches into %s\n", total, out);
		return 0;
	}

	if (parse() < 0) {
		fprintf(stderr, "f2fsfuzz: %s: no valid superblock and checkpoint to start from\n", in);
		return 1;
	}
	scan_tree();
	if (!strcmp(mode, "info")) {
		uint32_t dirs = 0, inodes = 0, k;
		for (k = 0; k < nnodes; k++) {
			inodes += nodes[k].inode;
			dirs += nodes[k].dir;
		}
		printf("f2fsfuzz: %s: main %u..%llu, cp pack at %llu (version %llu, %u blocks), "
		       "%u nodes (%u inodes, %u directories), %u dentry regions, %u used segments, "
		       "nat journal %u, sit journal %u entries\n", in, main_addr,
		       (unsigned long long)main_end, (unsigned long long)(cpo / BLK),
		       (unsigned long long)cp_ver, cp_total, nnodes, inodes, dirs, ndregs, nused,
		       le16(nat_jrnl), le16(sit_jrnl));
		return 0;
	}
	if (!strcmp(mode, "node-as-data")) {
		uint32_t k, changed = 0;
		patch_len = 0;
		for (k = 0; k < nused; k++) {
			uint64_t e = sit_entry(used_segs[k]);
			uint16_t vb = le16(e);
			if ((vb >> 10) >= 3 && (vb >> 10) <= 5) {
				put16(e, (uint16_t)((vb & 0x3ff) | (((vb >> 10) - 3) << 10)));
				changed++;
			}
		}
		printf("mut 1: sit-type node-as-data: %u node segments marked as data |%s\n", changed, patch);
		save(out);
		return changed ? 0 : 1;
	}
	if (!seeded) {
		FILE *u = fopen("/dev/urandom", "r");
		if (!u || fread(&seed, sizeof(seed), 1, u) != 1)
			seed = (unsigned long long)getpid() * 2654435761ULL;
		if (u)
			fclose(u);
		seed &= 0xffffffffULL;
	}
	rng = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
	if (!rng)
		rng = 1;
	for (i = 0; i < 4; i++)
		rnd();
	if (!count)
		count = 1 + below(3);
	printf("f2fsfuzz: seed %llu, %d mutations of %s (replay: f2fsfuzz -s %llu -n %d -i BASE -o OUT)\n",
	       seed, count, in, seed, count);
	for (i = 1; i <= count; i++) {
		desc[0] = 0;
		patch_len = 0;
		patch[0] = 0;
		mutate_one();
		if (!desc[0])
			snprintf(desc, sizeof(desc), "none (nothing to mutate)");
		printf("mut %d: %s |%s\n", i, desc, patch);
	}
	save(out);
	return 0;
}
