// SPDX-License-Identifier: GPL-2.0
/*
 * canoncheck - is an f2fs image canonical, i.e. does the stock module find
 * nothing to rewrite in it?  Record a device, let something (a read-only
 * mount by the stock module and a walk of the tree) touch it, then list and
 * decode every 4 KiB block that changed.
 *
 *   canoncheck save DEV STATE        record DEV in the directory STATE
 *   canoncheck diff DEV STATE        compare DEV with what STATE recorded
 *   canoncheck walk [-l] DIR         walk a mounted tree
 *   canoncheck inodes DEV LIST       the on-disk inode fields of LIST's files
 *
 * save reads the whole device once and writes STATE/hashes (a 64-bit hash
 * of every 4 KiB block) and STATE/saved.img, a sparse copy of the blocks a
 * diff may need the old content of: every block before the main area
 * (superblocks, checkpoint packs, SIT, NAT, SSA) and every main-area block
 * that looks like a node (a plausible footer).  It prints
 *   canoncheck: save DEV: N blocks, digest D, K blocks kept
 * where D is a 64-bit digest of the whole device (of the block hashes).
 *
 * diff reads the device again and prints, for each block whose hash
 * changed, its address and area (superblock, checkpoint pack 1/2, SIT,
 * NAT, SSA, main area with segment and offset, past the filesystem) and
 * what changed in it, field by field where the block's structure is known:
 * superblock and checkpoint header fields, SIT entries (valid blocks, type,
 * bitmap, mtime), NAT entries (version, ino, block address), SSA entries,
 * and for a main-area node block the node it replaced (the block the old
 * NAT gave for that nid): the footer (nid, ino, cold/fsync/dentry bits,
 * offset, cp_ver, next_blkaddr) and, for inodes, every f2fs_inode field
 * that differs (i_mode, i_advise, i_inline, i_flags, i_ext, sizes, times,
 * i_addr/i_nid entries, extra attributes ...), printed "field: old -> new".
 * Other blocks get the byte ranges that differ.  A summary follows: the
 * count of changed blocks per area and a tally "FIELD [inode type]: N
 * nodes" over all node blocks.  Exit status 0 when no block changed, 1 when
 * some did, 2 on usage or I/O errors.
 *
 * walk lists every directory (readdir), lstat()s every entry, reads every
 * regular file to its end (its data: holes found with SEEK_DATA/SEEK_HOLE
 * are skipped; the end reached must be st_size) and reads every symlink
 * (the length must be st_size); it prints
 *   canoncheck: walk DIR: D directories, F files (B bytes), S symlinks, O other
 * and every error, exit 1 on any.  -l also prints "INO<TAB>PATH" for every
 * entry (PATH relative to DIR, "." for DIR itself), as input for inodes.
 *
 * inodes takes LIST ("INO<TAB>PATH" lines, e.g. from walk -l) and prints
 * for each inode, read from the unmounted DEV through its valid checkpoint
 * and NAT, one line "PATH<TAB>key=value ..." of the fields that describe
 * the inode's shape rather than its identity or time (type, i_mode,
 * i_advise, i_inline, i_flags, i_links, i_size, i_blocks, depth, dir level,
 * xattr nid set, i_ext, i_namelen and whether i_name is the path's last
 * component, i_pino as a path, the footer bits, extra attribute fields,
 * and the count of its other nodes (direct, indirect, xattr) and of those
 * with the cold, fsync and dentry footer bits set), so that two images
 * made by the same workload can be compared with diff.  Exit 1 when a
 * node cannot be read or its footer names another node.
 *
 * Nothing here is random; nothing is written to DEV.
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
#define NAT_PER_BLK 455		/* 4096 / 9 */
#define SIT_PER_BLK 55		/* 4096 / 74 */
#define SUM_ENTRIES 512
#define SUM_JOURNAL_OFF (SUM_ENTRIES * 7)
#define NAT_JOURNAL_MAX 38
#define CP_COMPACT_SUM 0x4
#define CP_LARGE_NAT_BITMAP 0x400
#define BATCH 256		/* blocks per read */

/* f2fs_inode / node footer offsets (include/linux/f2fs_fs.h) */
#define I_ADDR 360
#define I_NID 4052
#define FOOT 4072
#define N_ADDRS_INODE 923
#define N_ADDRS_BLOCK 1018

static uint32_t le16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static void die(const char *what)
{
	fprintf(stderr, "canoncheck: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void fatal(const char *msg)
{
	fprintf(stderr, "canoncheck: %s\n", msg);
	exit(2);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: canoncheck save DEV STATE\n"
		"       canoncheck diff DEV STATE\n"
		"       canoncheck walk [-l] DIR\n"
		"       canoncheck inodes DEV LIST\n");
	return 2;
}

static uint64_t blkhash(const unsigned char *p)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < BLK; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h ^= w * 0xbf58476d1ce4e5b9ULL;
		h = (h << 27 | h >> 37) * 0x94d049bb133111ebULL;
	}
	return h ^ h >> 31;
}

/* ---- geometry ---------------------------------------------------------- */

struct geo {
	uint32_t log_bps, bps, seg0, cp, sit, nat, ssa, main, seg_count, seg_main;
	uint32_t seg_nat, max_nid, cp_payload, root;
	uint64_t fs_blocks;
};

static int read_sb(const unsigned char *blk0, const unsigned char *blk1, struct geo *g)
{
	const unsigned char *s = blk0 + SB_OFF;

	if (le32(s) != F2FS_MAGIC) {
		s = blk1 + SB_OFF;
		if (le32(s) != F2FS_MAGIC)
			return -1;
	}
	g->log_bps = le32(s + 20);
	if (g->log_bps != 9)
		return -1;
	g->bps = 1u << g->log_bps;
	g->seg_count = le32(s + 48);
	g->seg_nat = le32(s + 60);
	g->seg_main = le32(s + 68);
	g->seg0 = le32(s + 72);
	g->cp = le32(s + 76);
	g->sit = le32(s + 80);
	g->nat = le32(s + 84);
	g->ssa = le32(s + 88);
	g->main = le32(s + 92);
	g->root = le32(s + 96);
	g->cp_payload = le32(s + 1664);
	g->fs_blocks = g->seg0 + (uint64_t)g->seg_count * g->bps;
	g->max_nid = (g->seg_nat / 2) * g->bps * NAT_PER_BLK;
	return 0;
}

/* A plausible node footer: nid and ino valid node ids, next_blkaddr 0 or
 * in the main area. */
static int looks_like_node(const struct geo *g, const unsigned char *b)
{
	uint32_t nid = le32(b + FOOT), ino = le32(b + FOOT + 4);
	uint32_t next = le32(b + FOOT + 20);
	uint64_t main_end = g->main + (uint64_t)g->seg_main * g->bps;

	if (nid < 3 || nid >= g->max_nid || ino < 3 || ino >= g->max_nid)
		return 0;
	if (next && (next < g->main || next >= main_end))
		return 0;
	return le64(b + FOOT + 12) != 0;
}

static struct geo G;

/* SIT and NAT keep two copies of each segment's worth of blocks, side by
 * side: the block number (in one copy) of offset r into the area */
static uint64_t pair_index(uint64_t r)
{
	return ((r >> (G.log_bps + 1)) << G.log_bps) + (r & (G.bps - 1));
}

static const char *area(const struct geo *g, uint64_t a, char *buf, size_t n)
{
	if (a < 2) {
		snprintf(buf, n, "superblock %d", (int)a + 1);
	} else if (a < g->seg0) {
		snprintf(buf, n, "before segment 0");
	} else if (a < g->sit) {
		uint64_t r = a - g->cp;

		if (a < g->cp)
			snprintf(buf, n, "before the checkpoint area");
		else
			snprintf(buf, n, "checkpoint pack %d block %llu",
				 (int)(r >> g->log_bps) + 1, (unsigned long long)(r & (g->bps - 1)));
	} else if (a < g->ssa) {
		uint64_t r = a - (a < g->nat ? g->sit : g->nat);

		snprintf(buf, n, "%s copy %d block %llu", a < g->nat ? "SIT" : "NAT",
			 (int)((r >> g->log_bps) & 1) + 1, (unsigned long long)pair_index(r));
	} else if (a < g->main) {
		snprintf(buf, n, "SSA of segment %llu", (unsigned long long)(a - g->ssa));
	} else if (a < g->fs_blocks) {
		snprintf(buf, n, "main area segment %llu offset %llu",
			 (unsigned long long)((a - g->main) >> g->log_bps),
			 (unsigned long long)((a - g->main) & (g->bps - 1)));
	} else {
		snprintf(buf, n, "past the filesystem");
	}
	return buf;
}

enum { A_SB, A_CP, A_SIT, A_NAT, A_SSA, A_MAIN, A_OTHER, A_N };
static const char *area_name[A_N] = { "superblock", "checkpoint", "SIT", "NAT", "SSA", "main", "other" };

static int area_kind(const struct geo *g, uint64_t a)
{
	if (a < 2)
		return A_SB;
	if (a >= g->cp && a < g->sit)
		return A_CP;
	if (a >= g->sit && a < g->nat)
		return A_SIT;
	if (a >= g->nat && a < g->ssa)
		return A_NAT;
	if (a >= g->ssa && a < g->main)
		return A_SSA;
	if (a >= g->main && a < g->fs_blocks)
		return A_MAIN;
	return A_OTHER;
}

/* ---- block sources: the device now, and the recorded state -------------- */

static int dev_fd, scan_fd, saved_fd = -1;
static uint64_t *old_hash;
static uint64_t nblocks;

static int read_dev(uint64_t a, unsigned char *b)
{
	if (a >= nblocks)
		return -1;
	if (pread(dev_fd, b, BLK, a * BLK) != BLK)
		die("read of the device");
	return 0;
}

/* The recorded content of block a, when known: kept in saved.img, or
 * unchanged on the device since. */
static int read_old(uint64_t a, unsigned char *b)
{
	if (a >= nblocks)
		return -1;
	if (a < G.main) {
		if (pread(saved_fd, b, BLK, a * BLK) != BLK)
			die("read of saved.img");
		return 0;
	}
	if (read_dev(a, b) == 0 && blkhash(b) == old_hash[a])
		return 0;
	if (pread(saved_fd, b, BLK, a * BLK) == BLK && blkhash(b) == old_hash[a])
		return 0;
	return -1;
}

typedef int (*reader)(uint64_t, unsigned char *);

/* ---- checkpoint and NAT --------------------------------------------------- */

struct cpinfo {
	int ok, pack;
	uint64_t ver, start;
	uint32_t flags;
	unsigned char head[BLK];
	unsigned char natbm[BLK];
	int njournal;
	uint32_t jnid[NAT_JOURNAL_MAX];
	unsigned char jent[NAT_JOURNAL_MAX][9];
};

static uint32_t f2fs_crc(const unsigned char *p, size_t n)
{
	uint32_t crc = F2FS_MAGIC;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return crc;
}

static int load_cp(reader rd, struct cpinfo *c)
{
	unsigned char b[BLK], t[BLK];
	int p;

	c->ok = 0;
	for (p = 0; p < 2; p++) {
		uint64_t start = G.cp + (uint64_t)p * G.bps;
		uint32_t tot, csoff;

		if (rd(start, b))
			continue;
		tot = le32(b + 136);
		csoff = le32(b + 164);
		if (tot < 2 || tot > G.bps || csoff < 192 || csoff > BLK - 4)
			continue;
		if (f2fs_crc(b, csoff) != le32(b + csoff))
			continue;
		if (rd(start + tot - 1, t) || le64(t) != le64(b))
			continue;
		if (c->ok && le64(b) <= c->ver)
			continue;
		c->ok = 1;
		c->pack = p + 1;
		c->ver = le64(b);
		c->start = start;
		c->flags = le32(b + 132);
		memcpy(c->head, b, BLK);
	}
	if (!c->ok)
		return -1;
	/* NAT version bitmap (f2fs.h __bitmap_ptr) */
	{
		uint32_t sitsz = le32(c->head + 156), natsz = le32(c->head + 160);
		size_t off;

		if (c->flags & CP_LARGE_NAT_BITMAP)
			off = 192 + 4;
		else if (G.cp_payload > 0)
			off = 192;
		else
			off = 192 + sitsz;
		if (natsz > BLK || off + natsz > BLK)
			return -1;
		memset(c->natbm, 0, BLK);
		memcpy(c->natbm, c->head + off, natsz);
	}
	/* NAT journal: the hot data summary's (compact: first in the block) */
	{
		uint64_t sb = c->start + le32(c->head + 140);
		const unsigned char *j;
		int i;

		if (rd(sb, b))
			return -1;
		j = (c->flags & CP_COMPACT_SUM) ? b : b + SUM_JOURNAL_OFF;
		c->njournal = le16(j);
		if (c->njournal > NAT_JOURNAL_MAX)
			c->njournal = 0;
		for (i = 0; i < c->njournal; i++) {
			c->jnid[i] = le32(j + 2 + i * 13);
			memcpy(c->jent[i], j + 2 + i * 13 + 4, 9);
		}
	}
	return 0;
}

/* NAT entry of nid: 0 found (ino, blkaddr, version), -1 unknown */
static int nat_lookup(reader rd, const struct cpinfo *c, uint32_t nid,
		      uint32_t *ino, uint32_t *blkaddr, unsigned *version)
{
	unsigned char b[BLK];
	uint32_t boff, seg;
	uint64_t a;
	const unsigned char *e;
	int i;

	if (nid >= G.max_nid)
		return -1;
	for (i = 0; i < c->njournal; i++) {
		if (c->jnid[i] == nid) {
			*version = c->jent[i][0];
			*ino = le32(c->jent[i] + 1);
			*blkaddr = le32(c->jent[i] + 5);
			return 0;
		}
	}
	boff = nid / NAT_PER_BLK;
	seg = boff >> G.log_bps;
	a = G.nat + ((uint64_t)seg << (G.log_bps + 1)) + (boff & (G.bps - 1));
	if (c->natbm[boff >> 3] & (0x80 >> (boff & 7)))
		a += G.bps;
	if (rd(a, b))
		return -1;
	e = b + (nid % NAT_PER_BLK) * 9;
	*version = e[0];
	*ino = le32(e + 1);
	*blkaddr = le32(e + 5);
	return 0;
}

/* ---- field tables ------------------------------------------------------ */

enum { U8 = 1, U16 = 2, U32 = 4, U64 = 8, HEX8 = 9, HEX16 = 10, HEX32 = 12, OCT16 = 14, BYTES = 16 };

struct field {
	const char *name;
	int off, kind, len;
};

static uint64_t getv(const unsigned char *b, const struct field *f)
{
	switch (f->kind) {
	case U8: case HEX8: return b[f->off];
	case U16: case HEX16: case OCT16: return le16(b + f->off);
	case U32: case HEX32: return le32(b + f->off);
	case U64: return le64(b + f->off);
	}
	return 0;
}

static void fmtv(char *out, size_t n, const unsigned char *b, const struct field *f)
{
	uint64_t v = getv(b, f);

	switch (f->kind) {
	case HEX8: case HEX16: case HEX32: snprintf(out, n, "0x%llx", (unsigned long long)v); break;
	case OCT16: snprintf(out, n, "0%llo", (unsigned long long)v); break;
	case BYTES: {
		int i, k = 0, last = f->len;

		while (last > 0 && !b[f->off + last - 1])
			last--;
		if (last > 40)
			last = 40;
		for (i = 0; i < last && k < (int)n - 5; i++) {
			unsigned char c = b[f->off + i];

			k += snprintf(out + k, n - k, c >= 32 && c < 127 && c != '\\' ? "%c" : "\\x%02x", c);
		}
		if (!last)
			snprintf(out, n, "(zeros)");
		break;
	}
	default: snprintf(out, n, "%llu", (unsigned long long)v);
	}
}

static int field_len(const struct field *f)
{
	switch (f->kind) {
	case U8: case HEX8: return 1;
	case U16: case HEX16: case OCT16: return 2;
	case U32: case HEX32: return 4;
	case U64: return 8;
	}
	return f->len;
}

static int field_differs(const unsigned char *a, const unsigned char *b, const struct field *f)
{
	return memcmp(a + f->off, b + f->off, field_len(f)) != 0;
}

static const struct field sb_fields[] = {
	{ "magic", 0, HEX32 }, { "major_ver", 4, U16 }, { "minor_ver", 6, U16 },
	{ "log_blocks_per_seg", 20, U32 }, { "segs_per_sec", 24, U32 }, { "block_count", 36, U64 },
	{ "segment_count", 48, U32 }, { "segment_count_main", 68, U32 }, { "cp_blkaddr", 76, U32 },
	{ "main_blkaddr", 92, U32 }, { "uuid", 108, BYTES, 16 }, { "volume_name", 124, BYTES, 1024 },
	{ "extension_count", 1148, U32 }, { "extension_list", 1152, BYTES, 512 },
	{ "cp_payload", 1664, U32 }, { "version", 1668, BYTES, 256 }, { "init_version", 1924, BYTES, 256 },
	{ "feature", 2180, HEX32 }, { "qf_ino", 2745, BYTES, 12 }, { "hot_ext_count", 2757, U8 },
	{ "s_encoding", 2758, U16 }, { "s_encoding_flags", 2760, U16 },
	{ "s_stop_reason", 2762, BYTES, 32 }, { "s_errors", 2794, BYTES, 16 },
	{ "reserved", 2810, BYTES, 258 }, { "crc", 3068, HEX32 },
	{ NULL }
};

static const struct field cp_fields[] = {
	{ "checkpoint_ver", 0, U64 }, { "user_block_count", 8, U64 }, { "valid_block_count", 16, U64 },
	{ "rsvd_segment_count", 24, U32 }, { "overprov_segment_count", 28, U32 },
	{ "free_segment_count", 32, U32 },
	{ "cur_node_segno[0]", 36, U32 }, { "cur_node_segno[1]", 40, U32 }, { "cur_node_segno[2]", 44, U32 },
	{ "cur_node_blkoff[0]", 68, U16 }, { "cur_node_blkoff[1]", 70, U16 }, { "cur_node_blkoff[2]", 72, U16 },
	{ "cur_data_segno[0]", 84, U32 }, { "cur_data_segno[1]", 88, U32 }, { "cur_data_segno[2]", 92, U32 },
	{ "cur_data_blkoff[0]", 116, U16 }, { "cur_data_blkoff[1]", 118, U16 }, { "cur_data_blkoff[2]", 120, U16 },
	{ "ckpt_flags", 132, HEX32 }, { "cp_pack_total_block_count", 136, U32 },
	{ "cp_pack_start_sum", 140, U32 }, { "valid_node_count", 144, U32 },
	{ "valid_inode_count", 148, U32 }, { "next_free_nid", 152, U32 },
	{ "sit_ver_bitmap_bytesize", 156, U32 }, { "nat_ver_bitmap_bytesize", 160, U32 },
	{ "checksum_offset", 164, U32 }, { "elapsed_time", 168, U64 }, { "alloc_type", 176, BYTES, 16 },
	{ NULL }
};

static const struct field inode_fields[] = {
	{ "i_mode", 0, OCT16 }, { "i_advise", 2, HEX8 }, { "i_inline", 3, HEX8 },
	{ "i_uid", 4, U32 }, { "i_gid", 8, U32 }, { "i_links", 12, U32 },
	{ "i_size", 16, U64 }, { "i_blocks", 24, U64 },
	{ "i_atime", 32, U64 }, { "i_ctime", 40, U64 }, { "i_mtime", 48, U64 },
	{ "i_atime_nsec", 56, U32 }, { "i_ctime_nsec", 60, U32 }, { "i_mtime_nsec", 64, U32 },
	{ "i_generation", 68, U32 }, { "i_current_depth", 72, U32 }, { "i_xattr_nid", 76, U32 },
	{ "i_flags", 80, HEX32 }, { "i_pino", 84, U32 }, { "i_namelen", 88, U32 },
	{ "i_name", 92, BYTES, 255 }, { "i_dir_level", 347, U8 },
	{ "i_ext.fofs", 348, U32 }, { "i_ext.blk", 352, U32 }, { "i_ext.len", 356, U32 },
	{ NULL }
};

static const struct field extra_fields[] = {
	{ "i_extra_isize", 360, U16 }, { "i_inline_xattr_size", 362, U16 }, { "i_projid", 364, U32 },
	{ "i_inode_checksum", 368, HEX32 }, { "i_crtime", 372, U64 }, { "i_crtime_nsec", 380, U32 },
	{ "i_compr_blocks", 384, U64 }, { "i_compress_algorithm", 392, U8 },
	{ "i_log_cluster_size", 393, U8 }, { "i_compress_flag", 394, HEX16 },
	{ NULL }
};

static const struct field footer_fields[] = {
	{ "footer.nid", FOOT, U32 }, { "footer.ino", FOOT + 4, U32 },
	{ "footer.cp_ver", FOOT + 12, U64 }, { "footer.next_blkaddr", FOOT + 20, U32 },
	{ NULL }
};

/* ---- the tally of node field changes --------------------------------- */

#define MAXTALLY 256
static struct { char key[80]; long n; } tally[MAXTALLY];
static int ntally;

static void count(const char *field, const char *type)
{
	char key[80];
	int i;

	snprintf(key, sizeof(key), "%s [%s]", field, type);
	for (i = 0; i < ntally; i++)
		if (!strcmp(tally[i].key, key)) {
			tally[i].n++;
			return;
		}
	if (ntally < MAXTALLY) {
		strcpy(tally[ntally].key, key);
		tally[ntally++].n = 1;
	}
}

static const char *mode_type(uint32_t mode)
{
	switch (mode & 0170000) {
	case 0100000: return "regular";
	case 0040000: return "directory";
	case 0120000: return "symlink";
	case 0020000: return "chardev";
	case 0060000: return "blockdev";
	case 0010000: return "fifo";
	case 0140000: return "socket";
	}
	return "?";
}

/* print the fields of table t that differ between a and b; returns how many */
static int diff_fields(const struct field *t, const unsigned char *a, const unsigned char *b,
		       const char *type)
{
	char x[128], y[128];
	int n = 0;

	for (; t->name; t++) {
		if (!field_differs(a, b, t))
			continue;
		fmtv(x, sizeof(x), a, t);
		fmtv(y, sizeof(y), b, t);
		printf("    %s: %s -> %s\n", t->name, x, y);
		if (type)
			count(t->name, type);
		n++;
	}
	return n;
}

static void diff_ranges(const unsigned char *a, const unsigned char *b, int from, int to, const char *what)
{
	int i = from, shown = 0, total = 0;

	while (i < to) {
		int s;

		if (a[i] == b[i]) {
			i++;
			continue;
		}
		s = i;
		while (i < to && a[i] != b[i])
			i++;
		total += i - s;
		if (shown++ < 8)
			printf("    %s bytes %d-%d differ\n", what, s, i - 1);
	}
	if (shown > 8)
		printf("    ... %d ranges, %d bytes in all\n", shown, total);
}

static void diff_footer_flag(const unsigned char *a, const unsigned char *b, const char *type)
{
	uint32_t fa = le32(a + FOOT + 8), fb = le32(b + FOOT + 8);
	static const char *bit[3] = { "cold", "fsync", "dentry" };
	int i;

	for (i = 0; i < 3; i++)
		if (((fa ^ fb) >> i) & 1) {
			char name[32];

			printf("    footer.flag %s bit: %u -> %u\n", bit[i], (fa >> i) & 1, (fb >> i) & 1);
			snprintf(name, sizeof(name), "footer.%s", bit[i]);
			count(name, type);
		}
	if ((fa >> 3) != (fb >> 3)) {
		printf("    footer.flag offset: %u -> %u\n", fa >> 3, fb >> 3);
		count("footer.offset", type);
	}
}

/* compare two versions of one node; a NULL old prints the new one's shape */
static void diff_node(const unsigned char *a, const unsigned char *b)
{
	int inode = le32(b + FOOT) == le32(b + FOOT + 4) && !(le32(b + FOOT + 8) >> 3);
	uint32_t mode = le16(b);
	const char *type = inode ? mode_type(mode) : "non-inode node";
	int i, n = 0, first = -1;
	char name[32];

	diff_fields(footer_fields, a, b, type);
	diff_footer_flag(a, b, type);
	if (inode) {
		int extra = (a[3] | b[3]) & 0x20;
		int base = extra ? le16(b + I_ADDR) / 4 : 0;

		diff_fields(inode_fields, a, b, type);
		if (extra)
			diff_fields(extra_fields, a, b, type);
		for (i = base; i < N_ADDRS_INODE; i++)
			if (le32(a + I_ADDR + 4 * i) != le32(b + I_ADDR + 4 * i)) {
				if (n++ < 4)
					printf("    i_addr[%d]: %u -> %u\n", i, le32(a + I_ADDR + 4 * i),
					       le32(b + I_ADDR + 4 * i));
				if (first < 0)
					first = i;
			}
		if (n)
			count("i_addr[]", type);
		if (n > 4)
			printf("    ... %d i_addr entries differ\n", n);
		for (i = 0; i < 5; i++)
			if (le32(a + I_NID + 4 * i) != le32(b + I_NID + 4 * i)) {
				printf("    i_nid[%d]: %u -> %u\n", i, le32(a + I_NID + 4 * i), le32(b + I_NID + 4 * i));
				snprintf(name, sizeof(name), "i_nid[%d]", i);
				count(name, type);
			}
	} else {
		for (i = 0; i < N_ADDRS_BLOCK; i++)
			if (le32(a + 4 * i) != le32(b + 4 * i)) {
				if (n++ < 4)
					printf("    entry[%d]: %u -> %u\n", i, le32(a + 4 * i), le32(b + 4 * i));
			}
		if (n) {
			count("addr/nid entries", type);
			if (n > 4)
				printf("    ... %d entries differ\n", n);
		}
	}
}

static void describe_node(const unsigned char *b)
{
	uint32_t nid = le32(b + FOOT), ino = le32(b + FOOT + 4), flag = le32(b + FOOT + 8);

	printf("  node nid %u ino %u ofs %u flag 0x%x", nid, ino, flag >> 3, flag & 7);
	if (nid == ino && !(flag >> 3))
		printf(" (inode: %s, i_mode 0%o, i_inline 0x%x, i_ext %u/%u/%u)", mode_type(le16(b)),
		       le16(b), b[3], le32(b + 348), le32(b + 352), le32(b + 356));
	printf("\n");
}

/* ---- save ----------------------------------------------------------------- */

static uint64_t device_blocks(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		die("size of the device");
	return (uint64_t)end / BLK;
}

/* open DEV read-only as the device (dev_fd, nblocks); whole-device scans
 * read with O_DIRECT where it works (scan_fd): under emulation the page
 * cache costs far more than the read itself */
static void open_dev(const char *dev)
{
	dev_fd = open(dev, O_RDONLY);
	if (dev_fd < 0)
		die(dev);
	nblocks = device_blocks(dev_fd);
	scan_fd = open(dev, O_RDONLY | O_DIRECT);
	if (scan_fd < 0)
		scan_fd = dev_fd;
}

static int is_zero(const unsigned char *b)
{
	static const unsigned char z[BLK];

	return !memcmp(b, z, BLK);
}

/* call fn for every block of the device, in order */
static void scan_device(void (*fn)(uint64_t a, const unsigned char *b))
{
	unsigned char *buf;
	uint64_t a;
	int i;

	if (posix_memalign((void **)&buf, BLK, (size_t)BATCH * BLK))
		fatal("out of memory");
	for (a = 0; a < nblocks; a += BATCH) {
		int n = nblocks - a < BATCH ? (int)(nblocks - a) : BATCH;

		if (pread(scan_fd, buf, (size_t)n * BLK, a * BLK) != (ssize_t)n * BLK)
			die("read of the device");
		for (i = 0; i < n; i++)
			fn(a + i, buf + (size_t)i * BLK);
	}
	free(buf);
}

static FILE *save_hashes;
static uint64_t save_digest, save_kept;

static void save_block(uint64_t a, const unsigned char *b)
{
	uint64_t h = blkhash(b);

	fwrite(&h, 8, 1, save_hashes);
	save_digest = (save_digest ^ h) * 0x100000001b3ULL;
	if (is_zero(b) || (a >= G.main && !looks_like_node(&G, b)))
		return;
	if (pwrite(saved_fd, b, BLK, a * BLK) != BLK)
		die("write of saved.img");
	save_kept++;
}

static int cmd_save(const char *dev, const char *state)
{
	unsigned char b0[BLK], b1[BLK];
	char path[4096];

	open_dev(dev);
	if (nblocks < 2)
		fatal("device too small");
	if (mkdir(state, 0755) && errno != EEXIST)
		die(state);
	snprintf(path, sizeof(path), "%s/saved.img", state);
	saved_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (saved_fd < 0 || ftruncate(saved_fd, (off_t)nblocks * BLK))
		die(path);
	snprintf(path, sizeof(path), "%s/hashes", state);
	save_hashes = fopen(path, "w");
	if (!save_hashes)
		die(path);
	read_dev(0, b0);
	read_dev(1, b1);
	if (read_sb(b0, b1, &G))
		fatal("no f2fs superblock on the device");
	scan_device(save_block);
	if (fclose(save_hashes))
		die("write of the hashes");
	close(saved_fd);
	printf("canoncheck: save %s: %llu blocks, digest %016llx, %llu blocks kept\n", dev,
	       (unsigned long long)nblocks, (unsigned long long)save_digest,
	       (unsigned long long)save_kept);
	return 0;
}

/* ---- diff ------------------------------------------------------------------- */

static struct cpinfo oldcp, newcp;
static int oldcp_ok, newcp_ok;

/* print (up to limit) the entries of size bytes that differ between two
 * blocks holding count of them; the first one has number first */
typedef void (*entry_printer)(uint64_t num, const unsigned char *x, const unsigned char *y);

static void diff_entries(const unsigned char *o, const unsigned char *n, int count, int size,
			 uint64_t first, const char *what, entry_printer pr)
{
	int i, shown = 0;

	for (i = 0; i < count; i++) {
		const unsigned char *x = o + i * size, *y = n + i * size;

		if (memcmp(x, y, size) && shown++ < 12)
			pr(first + i, x, y);
	}
	if (shown > 12)
		printf("    ... %d %s differ\n", shown, what);
}

static void print_nat(uint64_t nid, const unsigned char *x, const unsigned char *y)
{
	printf("    nid %llu: version %u -> %u, ino %u -> %u, blkaddr %u -> %u\n",
	       (unsigned long long)nid, x[0], y[0], le32(x + 1), le32(y + 1), le32(x + 5), le32(y + 5));
}

static void print_sit(uint64_t segno, const unsigned char *x, const unsigned char *y)
{
	int k, set = 0, clr = 0;

	for (k = 0; k < 64; k++) {
		set += __builtin_popcount(y[2 + k] & ~x[2 + k]);
		clr += __builtin_popcount(x[2 + k] & ~y[2 + k]);
	}
	printf("    segment %llu: valid blocks %u -> %u, type %u -> %u, bitmap +%d -%d, mtime %llu -> %llu\n",
	       (unsigned long long)segno, le16(x) & 1023, le16(y) & 1023, le16(x) >> 10, le16(y) >> 10,
	       set, clr, (unsigned long long)le64(x + 66), (unsigned long long)le64(y + 66));
}

static void print_sum(uint64_t i, const unsigned char *x, const unsigned char *y)
{
	printf("    entry %llu: nid %u -> %u, version %u -> %u, ofs_in_node %u -> %u\n",
	       (unsigned long long)i, le32(x), le32(y), x[4], y[4], le16(x + 5), le16(y + 5));
}

static void diff_nat_block(uint64_t a, const unsigned char *o, const unsigned char *n)
{
	diff_entries(o, n, NAT_PER_BLK, 9, pair_index(a - G.nat) * NAT_PER_BLK, "NAT entries", print_nat);
}

static void diff_sit_block(uint64_t a, const unsigned char *o, const unsigned char *n)
{
	diff_entries(o, n, SIT_PER_BLK, 74, pair_index(a - G.sit) * SIT_PER_BLK, "SIT entries", print_sit);
	if (memcmp(o + SIT_PER_BLK * 74, n + SIT_PER_BLK * 74, BLK - SIT_PER_BLK * 74))
		printf("    (bytes after the last SIT entry differ)\n");
}

static void diff_ssa_block(const unsigned char *o, const unsigned char *n)
{
	diff_entries(o, n, SUM_ENTRIES, 7, 0, "summary entries", print_sum);
	diff_ranges(o, n, SUM_JOURNAL_OFF, BLK - 5, "journal");
	if (o[BLK - 5] != n[BLK - 5])
		printf("    footer entry_type: %u -> %u\n", o[BLK - 5], n[BLK - 5]);
}

static void diff_main_block(uint64_t a, const unsigned char *n, long *nodes)
{
	unsigned char o[BLK], prev[BLK];
	int have_old = read_old(a, o) == 0;
	uint32_t nid, ino, addr;
	unsigned ver;

	if (!looks_like_node(&G, n)) {
		if (have_old && looks_like_node(&G, o)) {
			printf("  was a node, is no longer one:\n");
			describe_node(o);
		} else {
			printf("  not a node block%s\n", have_old ? "" : " (old content not kept: a data block or a free one)");
		}
		if (have_old)
			diff_ranges(o, n, 0, BLK, "block");
		return;
	}
	(*nodes)++;
	describe_node(n);
	nid = le32(n + FOOT);
	if (!oldcp_ok) {
		printf("    (no valid checkpoint in the recorded state: old version unknown)\n");
		return;
	}
	if (nat_lookup(read_old, &oldcp, nid, &ino, &addr, &ver)) {
		printf("    (old NAT entry of nid %u unreadable)\n", nid);
		return;
	}
	if (!addr) {
		printf("    a new node: nid %u had no block in the old NAT\n", nid);
		count("new node", "-");
		return;
	}
	if (addr == a) {
		if (!have_old) {
			printf("    rewritten in place; old content not kept\n");
			return;
		}
		memcpy(prev, o, BLK);
		printf("    rewritten in place (block %llu), changes:\n", (unsigned long long)a);
	} else {
		if (read_old(addr, prev)) {
			printf("    old version at block %u (old NAT) is no longer readable\n", addr);
			return;
		}
		printf("    replaces block %u (old NAT: ino %u, version %u), changes:\n", addr, ino, ver);
	}
	diff_node(prev, n);
}

/* block x holds a checkpoint header: the first block of a pack, or its
 * last (the copy), by the old or the new header's block count */
static int cp_header_block(uint64_t x)
{
	uint64_t start = G.cp + (((x - G.cp) >> G.log_bps) << G.log_bps);
	unsigned char h[BLK];

	if (x == start)
		return 1;
	if (read_old(start, h) == 0 && start + le32(h + 136) - 1 == x)
		return 1;
	return read_dev(start, h) == 0 && start + le32(h + 136) - 1 == x;
}

static uint64_t diff_changed, diff_per[A_N];
static long diff_nodes;

static void diff_block(uint64_t x, const unsigned char *b)
{
	unsigned char o[BLK];
	char where[96];
	int k;

	if (blkhash(b) == old_hash[x])
		return;
	diff_changed++;
	k = area_kind(&G, x);
	diff_per[k]++;
	printf("block %llu (%s) changed\n", (unsigned long long)x, area(&G, x, where, sizeof(where)));
	if (k == A_MAIN) {
		diff_main_block(x, b, &diff_nodes);
		return;
	}
	if (read_old(x, o)) {
		printf("  (old content not kept)\n");
		return;
	}
	switch (k) {
	case A_SB:
		if (diff_fields(sb_fields, o + SB_OFF, b + SB_OFF, NULL) == 0)
			diff_ranges(o, b, 0, BLK, "block");
		break;
	case A_CP:
		if (cp_header_block(x)) {
			diff_fields(cp_fields, o, b, NULL);
			diff_ranges(o, b, 192, BLK, "bitmaps/checksum");
		} else {
			diff_ranges(o, b, 0, BLK, "block");
		}
		break;
	case A_NAT: diff_nat_block(x, o, b); break;
	case A_SIT: diff_sit_block(x, o, b); break;
	case A_SSA: diff_ssa_block(o, b); break;
	default: diff_ranges(o, b, 0, BLK, "block");
	}
}

static int cmd_diff(const char *dev, const char *state)
{
	unsigned char b0[BLK], b1[BLK];
	char path[4096];
	FILE *hf;
	int i;

	open_dev(dev);
	snprintf(path, sizeof(path), "%s/saved.img", state);
	saved_fd = open(path, O_RDONLY);
	if (saved_fd < 0)
		die(path);
	snprintf(path, sizeof(path), "%s/hashes", state);
	hf = fopen(path, "r");
	if (!hf)
		die(path);
	old_hash = malloc(nblocks * 8);
	if (!old_hash || fread(old_hash, 8, nblocks, hf) != nblocks)
		fatal("the hashes do not match the device size (another device?)");
	fclose(hf);
	/* the geometry of the recorded state (superblocks kept in saved.img) */
	if (pread(saved_fd, b0, BLK, 0) != BLK || pread(saved_fd, b1, BLK, BLK) != BLK ||
	    read_sb(b0, b1, &G))
		fatal("no f2fs superblock in the recorded state");
	oldcp_ok = load_cp(read_old, &oldcp) == 0;
	newcp_ok = load_cp(read_dev, &newcp) == 0;
	scan_device(diff_block);
	if (oldcp_ok && newcp_ok && oldcp.ver != newcp.ver)
		printf("valid checkpoint: pack %d version %llu -> pack %d version %llu\n", oldcp.pack,
		       (unsigned long long)oldcp.ver, newcp.pack, (unsigned long long)newcp.ver);
	if (!diff_changed) {
		printf("canoncheck: diff %s: no block changed\n", dev);
		return 0;
	}
	printf("canoncheck: diff %s: %llu blocks changed:", dev, (unsigned long long)diff_changed);
	for (i = 0; i < A_N; i++)
		if (diff_per[i])
			printf(" %s %llu", area_name[i], (unsigned long long)diff_per[i]);
	printf(" (%ld node blocks)\n", diff_nodes);
	for (i = 0; i < ntally; i++)
		printf("canoncheck: changed %s: %ld nodes\n", tally[i].key, tally[i].n);
	return 1;
}

/* ---- walk ---------------------------------------------------------------- */

static long w_dirs, w_files, w_links, w_other, w_errors;
static long long w_bytes, w_read;
static int w_list;

static void werr(const char *path, const char *what)
{
	printf("canoncheck: walk: %s: %s: %s\n", path, what, strerror(errno));
	w_errors++;
}

/* call (r < 0: it failed) reached got bytes of an entry of st_size size */
static void check_read(const char *path, const char *call, long long r, long long got,
		       long long size)
{
	if (r < 0) {
		werr(path, call);
	} else if (got != size) {
		printf("canoncheck: walk: %s: %s gave %lld bytes, st_size is %lld\n", path, call, got,
		       size);
		w_errors++;
	}
}

/* read a file to its end, the data only: SEEK_DATA/SEEK_HOLE skip holes
 * (their reads would be the page cache's zeroing, not the filesystem's);
 * *end is where reading stopped, i.e. the size.  A filesystem without
 * SEEK_DATA gets plain reads. */
static ssize_t read_data(int fd, char *buf, size_t n, long long *end)
{
	off_t pos = 0, data, hole;
	ssize_t r;

	for (;;) {
		data = lseek(fd, pos, SEEK_DATA);
		if (data < 0) {
			if (errno == ENXIO)	/* no data after pos: a hole to EOF */
				break;
			if (errno != EINVAL)
				return -1;
			if (lseek(fd, pos, SEEK_SET) < 0)
				return -1;
			while ((r = read(fd, buf, n)) > 0) {
				pos += r;
				w_read += r;
			}
			*end = pos;
			return r;
		}
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || lseek(fd, data, SEEK_SET) < 0)
			return -1;
		pos = data;
		while (pos < hole) {
			r = read(fd, buf, hole - pos < (off_t)n ? (size_t)(hole - pos) : n);
			if (r < 0)
				return -1;
			if (r == 0)
				break;
			pos += r;
			w_read += r;
		}
		if (pos < hole)		/* EOF before the hole: done */
			break;
	}
	*end = lseek(fd, 0, SEEK_END);
	return *end < 0 ? -1 : 0;
}

static void walk(int dfd, const char *name, const char *path)
{
	static char buf[1 << 16];
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		werr(path, "lstat");
		return;
	}
	if (w_list)
		printf("%llu\t%s\n", (unsigned long long)st.st_ino, path);
	if (S_ISDIR(st.st_mode)) {
		DIR *d;
		struct dirent *e;

		w_dirs++;
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (fd < 0 || !(d = fdopendir(fd))) {
			werr(path, "open directory");
			if (fd >= 0)
				close(fd);
			return;
		}
		errno = 0;
		while ((e = readdir(d))) {
			char *sub;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (asprintf(&sub, "%s/%s", strcmp(path, ".") ? path : "", e->d_name) < 0)
				fatal("out of memory");
			walk(dirfd(d), e->d_name, sub[0] == '/' ? sub + 1 : sub);
			free(sub);
			errno = 0;
		}
		if (errno)
			werr(path, "readdir");
		closedir(d);
	} else if (S_ISREG(st.st_mode)) {
		long long got = 0;
		ssize_t r;

		w_files++;
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW);
		if (fd < 0) {
			werr(path, "open");
			return;
		}
		r = read_data(fd, buf, sizeof(buf), &got);
		check_read(path, "read", r, got, st.st_size);
		w_bytes += got;
		close(fd);
	} else if (S_ISLNK(st.st_mode)) {
		ssize_t r;

		w_links++;
		r = readlinkat(dfd, name, buf, sizeof(buf));
		check_read(path, "readlink", r, r, st.st_size);
	} else {
		w_other++;
	}
}

static int cmd_walk(const char *dir)
{
	walk(AT_FDCWD, dir, ".");
	fprintf(w_list ? stderr : stdout,
		"canoncheck: walk %s: %ld directories, %ld files (%lld bytes, %lld read), %ld symlinks, %ld other, %ld errors\n",
		dir, w_dirs, w_files, w_bytes, w_read, w_links, w_other, w_errors);
	return w_errors ? 1 : 0;
}

/* ---- inodes -------------------------------------------------------------- */

struct ent { uint32_t ino; char *path; };

static int cmp_ino(const void *a, const void *b)
{
	uint32_t x = ((const struct ent *)a)->ino, y = ((const struct ent *)b)->ino;

	return x < y ? -1 : x > y;
}

/* by inode, then by path: the first name of a hard-link group is the same
 * on two images of one tree */
static int cmp_ino_path(const void *a, const void *b)
{
	return cmp_ino(a, b) ?: strcmp(((const struct ent *)a)->path, ((const struct ent *)b)->path);
}

static const char *path_of(struct ent *v, size_t n, uint32_t ino)
{
	struct ent k = { ino, NULL }, *e = bsearch(&k, v, n, sizeof(*v), cmp_ino);

	return e ? e->path : "?";
}

/* the nodes below an inode: count them, and the ones with each footer bit
 * set; a node whose footer does not name (nid, ino) counts as bad */
struct tree { int nodes, cold, fsync, dent, bad; };

static void visit(uint32_t nid, uint32_t ino, int depth, struct tree *t)
{
	unsigned char b[BLK];
	uint32_t i, ino2, addr, flag;
	unsigned ver;

	if (!nid)
		return;
	if (nat_lookup(read_dev, &newcp, nid, &ino2, &addr, &ver) || !addr || addr >= nblocks ||
	    read_dev(addr, b) || le32(b + FOOT) != nid || le32(b + FOOT + 4) != ino) {
		t->bad++;
		return;
	}
	flag = le32(b + FOOT + 8);
	t->nodes++;
	t->cold += flag & 1;
	t->fsync += (flag >> 1) & 1;
	t->dent += (flag >> 2) & 1;
	if (depth > 0)
		for (i = 0; i < N_ADDRS_BLOCK; i++)
			visit(le32(b + 4 * i), ino, depth - 1, t);
}

static int cmd_inodes(const char *dev, const char *list)
{
	unsigned char b[BLK], b0[BLK], b1[BLK];
	struct ent *v = NULL;
	size_t n = 0, cap = 0, i, len = 0;
	char *line = NULL;
	FILE *f = fopen(list, "r");
	int bad = 0;

	if (!f)
		die(list);
	open_dev(dev);
	read_dev(0, b0);
	read_dev(1, b1);
	if (read_sb(b0, b1, &G) || load_cp(read_dev, &newcp))
		fatal("no f2fs superblock or no valid checkpoint on the device");
	while (getline(&line, &len, f) > 0) {
		char *tab = strchr(line, '\t');

		if (!tab)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				fatal("out of memory");
		}
		v[n].ino = strtoul(line, NULL, 10);
		v[n].path = strdup(tab + 1);
		n++;
	}
	fclose(f);
	qsort(v, n, sizeof(*v), cmp_ino_path);
	for (i = 0; i < n; i++) {
		uint32_t ino, addr, flag, mode, namelen;
		unsigned ver;
		const char *base;

		if (i && v[i].ino == v[i - 1].ino)
			continue;	/* a hard link: the first name stands for the inode */
		if (nat_lookup(read_dev, &newcp, v[i].ino, &ino, &addr, &ver) || !addr ||
		    addr >= nblocks || read_dev(addr, b)) {
			printf("%s\tERROR=no-node-block\n", v[i].path);
			bad = 1;
			continue;
		}
		flag = le32(b + FOOT + 8);
		mode = le16(b);
		namelen = le32(b + 88);
		base = strrchr(v[i].path, '/');
		base = base ? base + 1 : v[i].path;
		printf("%s\ttype=%s mode=0%o advise=0x%x inline=0x%x flags=0x%x links=%u size=%llu blocks=%llu"
		       " depth=%u dir_level=%u xattr_nid=%s ext=%u+%u%s namelen=%u name=%s pino=%s"
		       " f.nid=%s f.cold=%u f.fsync=%u f.dent=%u f.ofs=%u",
		       v[i].path, mode_type(mode), mode, b[2], b[3], le32(b + 80), le32(b + 12),
		       (unsigned long long)le64(b + 16),
		       (unsigned long long)le64(b + 24), le32(b + 72), b[347],
		       le32(b + 76) ? "set" : "0", le32(b + 348), le32(b + 356),
		       le32(b + 352) ? "@blk" : "@0", namelen,
		       namelen == strlen(base) && !memcmp(b + 92, base, namelen) ? "path" : "other",
		       path_of(v, n, le32(b + 84)),
		       le32(b + FOOT) == v[i].ino && le32(b + FOOT + 4) == v[i].ino ? "ok" : "BAD",
		       flag & 1, (flag >> 1) & 1, (flag >> 2) & 1, flag >> 3);
		if (b[3] & 0x20)
			printf(" extra_isize=%u inline_xattr_size=%u projid=%u", le16(b + 360),
			       le16(b + 362), le32(b + 364));
		{
			static const int depth[5] = { 0, 0, 1, 1, 2 };
			struct tree t = { 0 };
			int k;

			for (k = 0; k < 5; k++)
				visit(le32(b + I_NID + 4 * k), v[i].ino, depth[k], &t);
			if (le32(b + 76))
				visit(le32(b + 76), v[i].ino, 0, &t);
			printf(" nodes=%d nodes.cold=%d nodes.fsync=%d nodes.dent=%d%s", t.nodes, t.cold,
			       t.fsync, t.dent, t.bad ? " nodes.BAD" : "");
			bad |= t.bad != 0;
		}
		printf("\n");
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "save"))
		return cmd_save(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "diff"))
		return cmd_diff(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "inodes"))
		return cmd_inodes(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "walk")) {
		if (argc == 4 && !strcmp(argv[2], "-l")) {
			w_list = 1;
			return cmd_walk(argv[3]);
		}
		if (argc == 3 && argv[2][0] != '-')
			return cmd_walk(argv[2]);
	}
	return usage();
}
