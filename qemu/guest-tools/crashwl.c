// SPDX-License-Identifier: GPL-2.0
/*
 * crashwl - seeded fsync workloads that log what they made durable, a
 * checker that verifies a directory against that log after a crash, and an
 * unsynced churn workload with a checker of its own.
 *
 *   crashwl run DIR SEED [-H [-B MIB]] [-t SECONDS] [-n OPS] [-m MARKCMD]
 *   crashwl check DIR LOGFILE [-u UPTO] [-w WINDOW] [-v]
 *   crashwl churn DIR SEED [-t SECONDS] [-n OPS]
 *   crashwl churncheck DIR SEED
 *   crashwl selftest DIR
 *
 * run: a deterministic (from SEED) sequence of steps inside DIR (which must
 * exist; the caller makes DIR's own entry durable first, e.g. with sync).
 * Every step mutates the directory and ends with exactly one fsync,
 * fdatasync or directory fsync; when that returns, one line goes to stdout.
 * Two step mixes:
 *
 *  light (default): at most 256 live files of whole 4 KiB blocks;
 *
 *   CWL <N> seed=<S> t=<type> fid=<F> name=<NAME> blk=<B> sync=<how> crc=<X>
 *
 *   type is one of small (new file, written, fsynced), append, over
 *   (in-place overwrite), rename (+ fsync of DIR), dbtmp (database pattern:
 *   new temp file, fsynced), dbswap (the temp file renamed over the live
 *   one, + fsync of DIR), unlink (+ fsync of DIR) and trunc; blk is the
 *   file's size in 4 KiB blocks after the step.
 *
 *  heavy (-H): thousands of files.  85% of the steps create a new file
 *   h<fid> of 1 byte to 40 KiB (a third whole blocks, the rest ending in a
 *   partial block) and fsync it; 6% append to a file of whole blocks
 *   (fsync or fdatasync; the new end may be partial), 8.7% overwrite 1-3
 *   blocks in place (fsync or fdatasync); one step in 1000 each truncates
 *   to a block boundary (fsync), renames to r<n> or unlinks (+ fsync of
 *   DIR): those are the steps that make f2fs write a checkpoint, so they
 *   are rare and the chain of fsync records grows long.  When the live
 *   files hold more than MIB MiB (-B, default 96) a prune step unlinks up
 *   to 64 of the oldest files and fsyncs DIR once.  Sizes are in bytes:
 *
 *   CWL <N> seed=<S> t=<type> fid=<F> name=<NAME> len=<BYTES> sync=<how> crc=<X>
 *
 *   type is create, append, over, trunc, rename, unlink or prune (fid and
 *   name are the first file removed, len the number of files removed).
 *
 * N counts the steps from 1; line 0, "CWL 0 start seed=<S> dir=<DIR>
 * crc=<X>" (heavy: "... dir=<DIR> mix=heavy budget=<MIB> crc=<X>"), is
 * printed once DIR is fsynced, before step 1.  fid is the file's id, name
 * its name after the step, sync is fsync, fdatasync or dirfsync, and crc
 * is a CRC-32 of the text before " crc=" (a line torn or interleaved with
 * kernel messages on a console fails it and is ignored).  Every 4 KiB
 * block is self-describing: a header (magic "CRASHWL1", seed, fid, block
 * index, generation, payload CRC) followed by bytes from a PRNG keyed by
 * those four numbers; a file's partial last block holds the first bytes of
 * such a block.  The line describes the step; the whole state that is
 * durable after it follows from the seed (check replays the same
 * sequence).  On a tty, stdout is drained (tcdrain) after each line, so
 * when a line is missing from the captured console the step cannot have
 * gone further than the next one.  -m MARKCMD runs "MARKCMD N" (system())
 * after line N (N>=1) and waits for it.  It stops after SECONDS, after OPS
 * steps, or when killed; an I/O error is reported on stderr with exit
 * status 2.
 *
 * check: parses the CWL lines of LOGFILE (other text and lines whose crc
 * does not match are ignored; with -u only N <= UPTO; the mix and budget
 * come from line 0, a heavy log must have it), takes the highest N as the
 * last durable step, replays the model to state S(N) and to the WINDOW
 * (default 2) steps after it that may have run, unlogged, before the cut,
 * and checks DIR against them:
 *  - a name bound in all of S(N)..S(N+W) must exist; a name in none of them
 *    must not (nothing unlinked durably comes back, nothing appears);
 *  - the file under a name must be one the name was bound to in one of
 *    those states; its size in bytes lies between the smallest and largest
 *    size of that file over those states; each 4 KiB block is exactly that
 *    file's block at that offset with a generation it had in one of those
 *    states (up to that state's end of file, zeros after it), so never
 *    older than the durable one, never another file's, never garbage; or
 *    zeros, but zeros only where some state has no block there (a write in
 *    flight, an append, a new file);
 *  - a file that exists in all of those states is found under one of its
 *    names, and no file is found under two names.
 * A file nobody touched after step N must therefore match S(N) exactly.
 * Every violation is printed (name, offset, expected, found); exit 1 on
 * any, 0 with a one-line summary when clean, 2 on usage or log errors.
 *
 * churn: never fsyncs, never syncs: a seeded (SEED, mixed with a constant
 * so its blocks differ from run's) stream of creates (1 byte to 64 KiB),
 * whole-block overwrites, appends, truncates (down and up), unlinks,
 * renames (to a new name or over another file) and replaces (a temp file
 * t<n> written and renamed over a file) in DIR, at most 400 files and
 * 24 MiB; files are named k<n>.  Blocks are self-describing as above, the
 * last one possibly partial (never shorter than 64 bytes).  ENOSPC drops
 * the file concerned and a few others; any other error ends it (exit 2,
 * a "crashwl churn: error" line on stderr).  It prints one line at the
 * start (seed, how to replay) and one at the end (operation counts).
 *
 * churncheck: after a crash nothing of churn was durable by request, so
 * only consistency is checked: every entry of DIR is a regular file named
 * k<n> or t<n>; it reads to its end (st_size bytes, then EOF) without an
 * error; each block is zeros, or a churn block of this seed with this
 * block index whose content matches up to some point and is zeros after
 * it; all blocks of one file carry one fid, and no fid is in two files.
 * Exit 1 with a VIOLATION line per problem, else 0 with a summary.
 *
 * selftest: for each mix, runs steps in DIR, checks (must pass), then
 * corrupts blocks (garbage, a never-written generation, another file's
 * block, an older generation, zeros, a flipped byte in a partial last
 * block), truncates and extends a durable file (by a block and by a
 * byte), drops one, adds a stray file and a copy of one under a new name,
 * and checks after each (must fail); then runs churn and plants garbage,
 * another file's block, a block at the wrong offset and a block of
 * another seed, and churncheck must fail on each.  Exit 0 when the
 * checkers caught every one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define BS		4096
#define MAXLIVE		256		/* light mix: live files at most */
#define MAXBLK		64
#define NAPP		3
#define NDB		3
#define NAMELEN		24
#define MAXWIN		8
#define MAGIC		"CRASHWL1"
#define HMAXSIZE	(40 * 1024)	/* heavy: largest new file */
#define HBUDGET		96		/* heavy: MiB of live files before a prune */
#define HPRUNE		64		/* heavy: files one prune step removes */
#define CMAXF		400		/* churn: files at most */
#define CBUDGET		(24u << 20)	/* churn: bytes at most */
#define CMAXSIZE	(64 * 1024)	/* churn: largest new file */
#define CSEEDX		0x9E3779B9u	/* churn seed = SEED ^ CSEEDX */

enum { T_SMALL, T_APPEND, T_OVER, T_RENAME, T_DBTMP, T_DBSWAP, T_UNLINK, T_TRUNC,
       T_CREATE, T_PRUNE, T_NR };
static const char *tname[T_NR] = {
	"small", "append", "over", "rename", "dbtmp", "dbswap", "unlink", "trunc",
	"create", "prune"
};
enum { S_FSYNC, S_FDATASYNC, S_DIRSYNC, S_NR };
static const char *sname[S_NR] = { "fsync", "fdatasync", "dirfsync" };

struct file {
	uint32_t fid;
	char name[NAMELEN];
	uint32_t nblk;		/* size in blocks, rounded up */
	uint32_t size;		/* size in bytes */
	uint32_t gen[MAXBLK];	/* generation of each block < nblk */
	uint32_t cnt[MAXBLK];	/* last generation ever given to the block */
};

struct model {
	uint32_t seed;
	uint64_t rng;
	uint32_t step;
	uint32_t next_fid;
	uint32_t next_name;
	int db_pending;		/* db slot whose temp file awaits the swap, or -1 */
	int heavy;		/* the heavy mix */
	uint64_t budget;	/* heavy: live bytes before a prune */
	uint64_t live;		/* bytes in live files */
	uint32_t oldest;	/* heavy: no live file has a smaller fid */
	int nf, cap;
	struct file *f;		/* the live files (order matters: pick()) */
	int32_t *pos;		/* slot in f of each fid < poscap, -1: not live */
	uint32_t poscap;
};

struct step {
	int type, sync;
	uint32_t fid;
	char name[NAMELEN];	/* name after the step (unlink, prune: the name removed) */
	char old[NAMELEN];	/* rename/dbswap: the name before */
	uint32_t nblk, size;	/* size after the step (blocks, bytes) */
	uint32_t oldblk, oldsize; /* size before the step */
	int nw;
	uint32_t wblk[8];	/* blocks written (over) */
	int create;		/* the step creates the file */
	int nrm;		/* prune: files removed */
	char rm[HPRUNE][NAMELEN];
};

/* ---- helpers ------------------------------------------------------------ */

static uint32_t crc32_buf(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return ~crc;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t rndr(uint64_t *rng, uint32_t n)
{
	return n ? (uint32_t)(splitmix(rng) % n) : 0;
}

static uint32_t rnd(struct model *m, uint32_t n)
{
	return rndr(&m->rng, n);
}

static uint32_t blocks(uint64_t size)
{
	return (size + BS - 1) / BS;
}

struct hdr {
	char magic[8];
	uint32_t seed, fid, blk, gen;
	uint32_t crc;		/* CRC-32 of the payload after the header */
	uint32_t pad;
};

static void make_block(uint8_t *buf, uint32_t seed, uint32_t fid, uint32_t blk, uint32_t gen)
{
	struct hdr h;
	uint64_t s = ((uint64_t)seed << 32 ^ fid) * 0x9E3779B97F4A7C15ull ^
		     ((uint64_t)blk << 32 | gen);

	for (size_t i = sizeof(h); i < BS; i += 8) {
		uint64_t v = splitmix(&s);

		memcpy(buf + i, &v, 8);
	}
	memcpy(h.magic, MAGIC, 8);
	h.seed = seed;
	h.fid = fid;
	h.blk = blk;
	h.gen = gen;
	h.pad = 0;
	h.crc = crc32_buf(0, buf + sizeof(h), BS - sizeof(h));
	memcpy(buf, &h, sizeof(h));
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "crashwl: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- the model ------------------------------------------------------------ */

static void model_init(struct model *m, uint32_t seed, int heavy, uint32_t budget_mib)
{
	memset(m, 0, sizeof(*m));
	m->seed = seed;
	m->rng = (uint64_t)seed * 0x2545F4914F6CDD1Dull + 1;
	m->next_fid = 1;
	m->db_pending = -1;
	m->heavy = heavy;
	m->budget = (uint64_t)budget_mib << 20;
	m->oldest = 1;
}

static void model_free(struct model *m)
{
	free(m->f);
	free(m->pos);
	memset(m, 0, sizeof(*m));
}

/* d = s, a deep copy (d must be initialised or zeroed) */
static void model_copy(struct model *d, const struct model *s)
{
	struct file *f = d->f;
	int32_t *pos = d->pos;

	*d = *s;
	d->f = xrealloc(f, s->cap * sizeof(*f));
	memcpy(d->f, s->f, s->nf * sizeof(*f));
	d->pos = xrealloc(pos, s->poscap * sizeof(*pos));
	memcpy(d->pos, s->pos, s->poscap * sizeof(*pos));
}

static int find_name(const struct model *m, const char *name)
{
	for (int i = 0; i < m->nf; i++)
		if (!strcmp(m->f[i].name, name))
			return i;
	return -1;
}

static int find_fid(const struct model *m, uint32_t fid)
{
	return fid < m->poscap ? m->pos[fid] : -1;
}

/*
 * kinds: 1 small/renamed ('s', 'n'), 2 any but a db temp file (light);
 * 3 whole blocks with room for an append, 4 any, 5 two blocks or more
 * (heavy)
 */
static int pick_ok(const struct model *m, int i, int kind, int need_blocks)
{
	const struct file *f = &m->f[i];

	if (need_blocks && !f->nblk)
		return 0;
	switch (kind) {
	case 1:
		return !strstr(f->name, ".tmp") && (f->name[0] == 's' || f->name[0] == 'n');
	case 2:
		return !strstr(f->name, ".tmp");
	case 3:
		return f->size % BS == 0 && f->nblk + 4 <= MAXBLK;
	case 5:
		return f->nblk >= 2;
	default:
		return 1;
	}
}

static int pick(struct model *m, int kind, int need_blocks)
{
	int n = 0, k;

	for (int i = 0; i < m->nf; i++)
		n += pick_ok(m, i, kind, need_blocks);
	if (!n)
		return -1;
	k = rnd(m, n);
	for (int i = 0; i < m->nf; i++)
		if (pick_ok(m, i, kind, need_blocks) && !k--)
			return i;
	return -1;
}

static int new_file(struct model *m, const char *name)
{
	struct file *f;

	if (!m->heavy && m->nf >= MAXLIVE)
		die("model full");
	if (m->nf == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->f = xrealloc(m->f, m->cap * sizeof(*m->f));
	}
	if (m->next_fid >= m->poscap) {
		uint32_t nc = m->poscap ? 2 * m->poscap : 1024;

		m->pos = xrealloc(m->pos, nc * sizeof(*m->pos));
		for (uint32_t i = m->poscap; i < nc; i++)
			m->pos[i] = -1;
		m->poscap = nc;
	}
	f = &m->f[m->nf];
	memset(f, 0, sizeof(*f));
	f->fid = m->next_fid++;
	snprintf(f->name, NAMELEN, "%s", name);
	m->pos[f->fid] = m->nf;
	return m->nf++;
}

static void drop_file(struct model *m, int i)
{
	m->live -= m->f[i].size;
	m->pos[m->f[i].fid] = -1;
	m->f[i] = m->f[m->nf - 1];
	if (i < m->nf - 1)
		m->pos[m->f[i].fid] = i;
	m->nf--;
}

static void set_size(struct model *m, struct file *f, uint32_t size)
{
	m->live = m->live - f->size + size;
	f->size = size;
	f->nblk = blocks(size);
}

static void write_blocks(struct file *f, uint32_t from, uint32_t to)
{
	for (uint32_t b = from; b < to; b++)
		f->gen[b] = ++f->cnt[b];
}

/* step helpers shared by both mixes (s->size and s->nblk both filled) */
static void over_step(struct model *m, struct file *f, struct step *s)
{
	s->type = T_OVER;
	s->sync = rnd(m, 3) ? S_FSYNC : S_FDATASYNC;
	s->nw = 1 + rnd(m, 3);
	for (int k = 0; k < s->nw; k++) {
		uint32_t b = rnd(m, f->nblk);

		s->wblk[k] = b;
		f->gen[b] = ++f->cnt[b];
	}
	s->fid = f->fid;
	s->nblk = s->oldblk = f->nblk;
	s->size = s->oldsize = f->size;
	snprintf(s->name, NAMELEN, "%s", f->name);
}

/* rename to <prefix><next_name> (+ fsync of DIR) */
static void rename_step(struct model *m, struct file *f, struct step *s, char prefix)
{
	s->type = T_RENAME;
	s->sync = S_DIRSYNC;
	snprintf(s->old, NAMELEN, "%s", f->name);
	snprintf(f->name, NAMELEN, "%c%u", prefix, m->next_name++);
	snprintf(s->name, NAMELEN, "%s", f->name);
	s->fid = f->fid;
	s->nblk = s->oldblk = f->nblk;
	s->size = s->oldsize = f->size;
}

static void unlink_step(struct model *m, int i, struct step *s)
{
	const struct file *f = &m->f[i];

	s->type = T_UNLINK;
	s->sync = S_DIRSYNC;
	s->fid = f->fid;
	s->oldblk = f->nblk;
	s->oldsize = f->size;
	snprintf(s->name, NAMELEN, "%s", f->name);
	drop_file(m, i);
}

/* a new file NAME of SIZE bytes, every block written, fsync */
static void create_step(struct model *m, struct step *s, int type, const char *name, uint32_t size)
{
	int i = new_file(m, name);	/* may move m->f */
	struct file *f = &m->f[i];

	s->type = type;
	s->sync = S_FSYNC;
	s->create = 1;
	s->size = size;
	s->nblk = blocks(size);
	write_blocks(f, 0, s->nblk);
	set_size(m, f, size);
	s->fid = f->fid;
	snprintf(s->name, NAMELEN, "%s", name);
}

/* The light mix: choose the next step and apply it to the model. */
static void light_step(struct model *m, struct step *s)
{
	char nm[NAMELEN];
	int i, r, smalls = 0;
	struct file *f;

	for (i = 0; i < m->nf; i++)
		if (m->f[i].name[0] == 's' || m->f[i].name[0] == 'n')
			smalls++;

	if (m->db_pending >= 0) {
		int t, old;

		snprintf(nm, NAMELEN, "db%d.tmp", m->db_pending);
		t = find_name(m, nm);
		snprintf(s->old, NAMELEN, "%s", nm);
		snprintf(s->name, NAMELEN, "db%d", m->db_pending);
		old = find_name(m, s->name);
		if (old >= 0) {
			drop_file(m, old);
			t = find_name(m, nm);
		}
		f = &m->f[t];
		snprintf(f->name, NAMELEN, "%s", s->name);
		s->type = T_DBSWAP;
		s->sync = S_DIRSYNC;
		s->fid = f->fid;
		s->nblk = s->oldblk = f->nblk;
		m->db_pending = -1;
		return;
	}

	r = rnd(m, 100);
	if (m->nf > MAXLIVE - 16 || (smalls > 120 && r < 30))
		r = 85;				/* unlink */
	if (r >= 30 && r < 50) {		/* append */
		int j = rnd(m, NAPP);

		snprintf(nm, NAMELEN, "a%d", j);
		i = find_name(m, nm);
		s->sync = rnd(m, 3) ? S_FSYNC : S_FDATASYNC;
		if (i < 0) {
			i = new_file(m, nm);
			s->create = 1;
		}
		f = &m->f[i];
		s->oldblk = f->nblk;
		s->nblk = f->nblk + 1 + rnd(m, 8);
		if (s->nblk > MAXBLK) {		/* too long: cut it down */
			s->type = T_TRUNC;
			s->sync = S_FSYNC;
			s->nblk = rnd(m, f->nblk / 2 + 1);
		} else {
			s->type = T_APPEND;
			write_blocks(f, f->nblk, s->nblk);
		}
		set_size(m, f, s->nblk * BS);
		s->fid = f->fid;
		snprintf(s->name, NAMELEN, "%s", f->name);
		return;
	}
	if (r >= 50 && r < 62 && (i = pick(m, 2, 1)) >= 0) {	/* overwrite */
		over_step(m, &m->f[i], s);
		return;
	}
	if (r >= 62 && r < 72 && (i = pick(m, 1, 0)) >= 0) {	/* rename */
		rename_step(m, &m->f[i], s, 'n');
		return;
	}
	if (r >= 72 && r < 82) {		/* database pattern, first half */
		int j = rnd(m, NDB);

		snprintf(nm, NAMELEN, "db%d.tmp", j);
		create_step(m, s, T_DBTMP, nm, (1 + rnd(m, 6)) * BS);
		m->db_pending = j;
		return;
	}
	if (r >= 82 && r < 92 && (i = rnd(m, 8) ? pick(m, 1, 0) : pick(m, 2, 0)) >= 0) {
		unlink_step(m, i, s);		/* unlink */
		return;
	}
	if (r >= 92 && (i = pick(m, 2, 1)) >= 0) {	/* truncate */
		f = &m->f[i];
		s->type = T_TRUNC;
		s->sync = S_FSYNC;
		s->oldblk = f->nblk;
		s->nblk = rnd(m, f->nblk);
		set_size(m, f, s->nblk * BS);
		s->fid = f->fid;
		snprintf(s->name, NAMELEN, "%s", f->name);
		return;
	}
	/* new small file (also the fallback) */
	snprintf(nm, NAMELEN, "s%u", m->next_fid);
	create_step(m, s, T_SMALL, nm, (1 + rnd(m, 3)) * BS);
}

/* The heavy mix: sizes in bytes (s->size, s->oldsize). */
static void heavy_step(struct model *m, struct step *s)
{
	char nm[NAMELEN];
	struct file *f;
	uint32_t sz;
	int i, r;

	if (m->live > m->budget) {		/* prune: the oldest files go */
		s->type = T_PRUNE;
		s->sync = S_DIRSYNC;
		while (s->nrm < HPRUNE && m->nf && m->live > m->budget - m->budget / 8) {
			while ((i = find_fid(m, m->oldest)) < 0)
				m->oldest++;
			if (!s->nrm) {
				s->fid = m->f[i].fid;
				snprintf(s->name, NAMELEN, "%s", m->f[i].name);
			}
			snprintf(s->rm[s->nrm++], NAMELEN, "%s", m->f[i].name);
			drop_file(m, i);
		}
		s->size = s->nrm;
		return;
	}
	r = m->nf < 16 ? 0 : rnd(m, 1000);
	if (r >= 850 && r < 910 && (i = pick(m, 3, 1)) >= 0) {	/* append */
		f = &m->f[i];
		s->type = T_APPEND;
		s->sync = rnd(m, 3) ? S_FSYNC : S_FDATASYNC;
		s->oldsize = f->size;
		s->size = f->size + 1 + rnd(m, 4 * BS);
		write_blocks(f, f->nblk, blocks(s->size));
		set_size(m, f, s->size);
	} else if (r >= 910 && r < 997 && (i = pick(m, 4, 1)) >= 0) {	/* overwrite */
		over_step(m, &m->f[i], s);
		return;
	} else if (r == 997 && (i = pick(m, 5, 0)) >= 0) {	/* truncate */
		f = &m->f[i];
		s->type = T_TRUNC;
		s->sync = S_FSYNC;
		s->oldsize = f->size;
		s->size = rnd(m, f->nblk) * BS;
		set_size(m, f, s->size);
	} else if (r == 998 && (i = pick(m, 4, 0)) >= 0) {	/* rename */
		rename_step(m, &m->f[i], s, 'r');
		return;
	} else if (r == 999 && (i = pick(m, 4, 0)) >= 0) {	/* unlink */
		unlink_step(m, i, s);
		return;
	} else {					/* new file */
		sz = rnd(m, 3) ? 1 + rnd(m, HMAXSIZE) : (1 + rnd(m, HMAXSIZE / BS)) * BS;
		snprintf(nm, NAMELEN, "h%u", m->next_fid);
		create_step(m, s, T_CREATE, nm, sz);
		return;
	}
	s->fid = f->fid;
	snprintf(s->name, NAMELEN, "%s", f->name);
}

/* Choose the next step and apply it to the model. */
static void next_step(struct model *m, struct step *s)
{
	memset(s, 0, sizeof(*s));
	m->step++;
	if (m->heavy) {
		heavy_step(m, s);
		if (s->type != T_PRUNE)
			s->nblk = blocks(s->size);
		s->oldblk = blocks(s->oldsize);
	} else {
		light_step(m, s);
		s->size = s->nblk * BS;
		s->oldsize = s->oldblk * BS;
	}
}

/* ---- run ------------------------------------------------------------------ */

static void emit(FILE *out, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 20)
		die("log line too long");
	fprintf(out, "%s crc=%08x\n", line, crc32_buf(0, line, n));
	fflush(out);
	if (isatty(fileno(out)))
		tcdrain(fileno(out));
}

static uint32_t cur_step;

static void io_fail(const struct step *s, const char *what)
{
	die("step %u (%s %s): %s: %s", cur_step, tname[s->type], s->name, what, strerror(errno));
}

/* write blocks from..to-1 of f (the last one only up to f's size) */
static void put_blocks(int fd, const struct model *m, const struct file *f,
		       const struct step *s, uint32_t from, uint32_t to)
{
	uint8_t buf[BS];

	for (uint32_t b = from; b < to; b++) {
		size_t len = f->size - (uint64_t)b * BS < BS ? f->size - (uint64_t)b * BS : BS;

		make_block(buf, m->seed, f->fid, b, f->gen[b]);
		if (pwrite(fd, buf, len, (off_t)b * BS) != (ssize_t)len)
			io_fail(s, "pwrite");
	}
}

static void do_sync(int fd, int dfd, const struct step *s)
{
	int rc;

	if (s->sync == S_DIRSYNC)
		rc = fsync(dfd);
	else if (s->sync == S_FDATASYNC)
		rc = fdatasync(fd);
	else
		rc = fsync(fd);
	if (rc)
		io_fail(s, sname[s->sync]);
}

/* Do step s (already applied to m) on the filesystem. */
static void do_step(int dfd, const struct model *m, const struct step *s)
{
	const struct file *f = NULL;
	int i, fd = -1;

	if (s->type != T_UNLINK && s->type != T_PRUNE) {
		i = find_fid(m, s->fid);
		if (i < 0)
			die("model lost fid %u", s->fid);
		f = &m->f[i];
	}
	switch (s->type) {
	case T_SMALL:
	case T_DBTMP:
	case T_CREATE:
		fd = openat(dfd, s->name, O_WRONLY | O_CREAT |
			    (s->type == T_CREATE ? O_EXCL : O_TRUNC), 0644);
		if (fd < 0)
			io_fail(s, "create");
		put_blocks(fd, m, f, s, 0, s->nblk);
		do_sync(fd, dfd, s);
		break;
	case T_APPEND:
		fd = openat(dfd, s->name, O_WRONLY | O_CREAT, 0644);
		if (fd < 0)
			io_fail(s, "open");
		put_blocks(fd, m, f, s, s->oldsize / BS, s->nblk);
		do_sync(fd, dfd, s);
		break;
	case T_OVER:
		fd = openat(dfd, s->name, O_WRONLY);
		if (fd < 0)
			io_fail(s, "open");
		for (i = 0; i < s->nw; i++)
			put_blocks(fd, m, f, s, s->wblk[i], s->wblk[i] + 1);
		do_sync(fd, dfd, s);
		break;
	case T_TRUNC:
		fd = openat(dfd, s->name, O_WRONLY);
		if (fd < 0)
			io_fail(s, "open");
		if (ftruncate(fd, s->size))
			io_fail(s, "ftruncate");
		do_sync(fd, dfd, s);
		break;
	case T_RENAME:
	case T_DBSWAP:
		if (renameat(dfd, s->old, dfd, s->name))
			io_fail(s, "rename");
		do_sync(-1, dfd, s);
		break;
	case T_UNLINK:
		if (unlinkat(dfd, s->name, 0))
			io_fail(s, "unlink");
		do_sync(-1, dfd, s);
		break;
	case T_PRUNE:
		for (i = 0; i < s->nrm; i++)
			if (unlinkat(dfd, s->rm[i], 0))
				io_fail(s, "unlink");
		do_sync(-1, dfd, s);
		break;
	}
	if (fd >= 0 && close(fd))
		io_fail(s, "close");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(const char *dir, uint32_t seed, int heavy, uint32_t budget,
	       double secs, long ops, const char *markcmd, FILE *out)
{
	struct model m;
	struct step s;
	double t0 = now();
	int dfd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die("%s: %s", dir, strerror(errno));
	if (fsync(dfd))
		die("fsync %s: %s", dir, strerror(errno));
	model_init(&m, seed, heavy, budget);
	if (heavy)
		emit(out, "CWL 0 start seed=%u dir=%s mix=heavy budget=%u", seed, dir, budget);
	else
		emit(out, "CWL 0 start seed=%u dir=%s", seed, dir);
	for (long n = 1; ops < 0 || n <= ops; n++) {
		if (secs > 0 && now() - t0 >= secs)
			break;
		next_step(&m, &s);
		cur_step = m.step;
		do_step(dfd, &m, &s);
		if (heavy)
			emit(out, "CWL %u seed=%u t=%s fid=%u name=%s len=%u sync=%s",
			     m.step, seed, tname[s.type], s.fid, s.name, s.size, sname[s.sync]);
		else
			emit(out, "CWL %u seed=%u t=%s fid=%u name=%s blk=%u sync=%s",
			     m.step, seed, tname[s.type], s.fid, s.name, s.nblk, sname[s.sync]);
		if (markcmd) {
			char cmd[512];
			int rc;

			snprintf(cmd, sizeof(cmd), "%s %u", markcmd, m.step);
			rc = system(cmd);
			if (rc)
				fprintf(stderr, "crashwl: '%s' returned %d\n", cmd, rc);
		}
	}
	close(dfd);
	model_free(&m);
	return 0;
}

/* ---- check ---------------------------------------------------------------- */

struct logline {
	uint32_t n, seed, fid, blk;
	char type[16], name[NAMELEN], sync[16];
};

struct logmeta {
	int heavy;		/* -1: not known yet */
	int have_start;
	uint32_t budget;
};

static int nviol;
static int verbose;

static void viol(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("VIOLATION ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	nviol++;
}

static void set_mix(struct logmeta *lm, int heavy, const char *path)
{
	if (lm->heavy >= 0 && lm->heavy != heavy)
		die("%s holds lines of both the light and the heavy mix", path);
	lm->heavy = heavy;
}

/*
 * Parse LOGFILE; returns the number of good lines, fills lines[n] (by N;
 * blk holds len for the heavy mix) and lm.
 */
static int parse_log(const char *path, uint32_t upto, uint32_t *seed,
		     struct logline **lines, uint32_t *maxn, int *bad, struct logmeta *lm)
{
	FILE *fp = fopen(path, "r");
	char buf[1024];
	int good = 0, have_seed = 0;
	uint32_t cap = 0;

	if (!fp)
		die("%s: %s", path, strerror(errno));
	*lines = NULL;
	*maxn = 0;
	*bad = 0;
	lm->heavy = -1;
	lm->have_start = 0;
	lm->budget = 0;
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = strstr(buf, "CWL "), *c, *e, *mix;
		struct logline l;
		unsigned int crc;
		char dirbuf[256];

		if (!p)
			continue;
		e = p + strcspn(p, "\r\n");
		if (!*e) {		/* no newline: torn last line */
			(*bad)++;
			continue;
		}
		*e = 0;
		c = strstr(p, " crc=");
		if (!c || sscanf(c, " crc=%8x", &crc) != 1 || strlen(c) != 13 ||
		    crc32_buf(0, p, c - p) != crc) {
			(*bad)++;
			continue;
		}
		*c = 0;
		memset(&l, 0, sizeof(l));
		if (sscanf(p, "CWL %u start seed=%u dir=%255s", &l.n, &l.seed, dirbuf) == 3 && l.n == 0) {
			strcpy(l.type, "start");
			mix = strstr(p, " mix=heavy");
			if (mix && sscanf(mix, " mix=heavy budget=%u", &lm->budget) != 1)
				die("%s: line 0 says mix=heavy but has no budget", path);
			set_mix(lm, !!mix, path);
			lm->have_start = 1;
		} else if (sscanf(p, "CWL %u seed=%u t=%15s fid=%u name=%23s blk=%u sync=%15s",
				  &l.n, &l.seed, l.type, &l.fid, l.name, &l.blk, l.sync) == 7) {
			set_mix(lm, 0, path);
		} else if (sscanf(p, "CWL %u seed=%u t=%15s fid=%u name=%23s len=%u sync=%15s",
				  &l.n, &l.seed, l.type, &l.fid, l.name, &l.blk, l.sync) == 7) {
			set_mix(lm, 1, path);
		} else {
			(*bad)++;
			continue;
		}
		if (have_seed && l.seed != *seed)
			die("%s holds lines of two runs (seeds %u and %u)", path, *seed, l.seed);
		*seed = l.seed;
		have_seed = 1;
		if (upto != UINT32_MAX && l.n > upto)
			continue;
		if (l.n >= cap) {
			uint32_t nc = (l.n + 1) * 2;

			*lines = xrealloc(*lines, nc * sizeof(**lines));
			memset(*lines + cap, 0, (nc - cap) * sizeof(**lines));
			cap = nc;
		}
		(*lines)[l.n] = l;
		(*lines)[l.n].type[15] = 0;
		if (l.n > *maxn)
			*maxn = l.n;
		good++;
	}
	fclose(fp);
	if (lm->heavy == 1 && !lm->have_start)
		die("%s: heavy-mix lines without their start line (CWL 0, which gives the budget)", path);
	return good;
}

/* What the window allows for one file (fid) */
struct allow {
	uint32_t minsize, maxsize;	/* bytes */
	int alive_all;		/* alive in every state of the window */
};

static const struct file *state_file(const struct model *st, uint32_t fid)
{
	int i = find_fid(st, fid);

	return i < 0 ? NULL : &st->f[i];
}

static void file_allow(const struct model *st, int ns, uint32_t fid, struct allow *a)
{
	a->minsize = UINT32_MAX;
	a->maxsize = 0;
	a->alive_all = 1;
	for (int k = 0; k < ns; k++) {
		const struct file *f = state_file(&st[k], fid);
		uint32_t sz = f ? f->size : 0;

		if (!f)
			a->alive_all = 0;
		if (sz < a->minsize)
			a->minsize = sz;
		if (sz > a->maxsize)
			a->maxsize = sz;
	}
}

/*
 * May block b of fid hold buf (len bytes read there)?  Zeros where some
 * state has no block b; else the block of a state's generation up to that
 * state's end of file, zeros after it.
 */
static int block_ok(const struct model *st, int ns, uint32_t fid, uint32_t b,
		    const uint8_t *buf, size_t len)
{
	static uint8_t want[BS];
	uint32_t tried = 0;
	int zero = all_zero(buf, len);

	for (int k = 0; k < ns; k++) {
		const struct file *f = state_file(&st[k], fid);
		size_t have, n;

		if (!f || b >= f->nblk) {
			if (zero)
				return 1;
			continue;
		}
		have = f->size - (uint64_t)b * BS < BS ? f->size - (uint64_t)b * BS : BS;
		n = len < have ? len : have;
		if (f->gen[b] != tried) {
			make_block(want, st[0].seed, fid, b, f->gen[b]);
			tried = f->gen[b];
		}
		if (!memcmp(want, buf, n) && all_zero(buf + n, len - n))
			return 1;
	}
	return 0;
}

static void gens_str(const struct model *st, int ns, uint32_t fid, uint32_t b, char *out, size_t len)
{
	size_t o = 0;

	out[0] = 0;
	for (int k = 0; k < ns; k++) {
		const struct file *f = state_file(&st[k], fid);

		if (!f || b >= f->nblk)
			o += snprintf(out + o, len - o, "%s%s", o ? "|" : "", "zeros");
		else if (f->size - (uint64_t)b * BS < BS)
			o += snprintf(out + o, len - o, "%sgen %u (%u bytes)", o ? "|" : "",
				      f->gen[b], (unsigned int)(f->size - b * BS));
		else
			o += snprintf(out + o, len - o, "%sgen %u", o ? "|" : "", f->gen[b]);
		if (o >= len)
			break;
	}
}

/* describe what a block holds; returns 1 for a valid crashwl block (fills h) */
static int classify(const uint8_t *buf, size_t len, uint32_t seed, struct hdr *h, char *out, size_t olen)
{
	static uint8_t want[BS];

	if (all_zero(buf, len)) {
		snprintf(out, olen, "zeros");
		h->gen = 0;
		return 2;
	}
	if (len < sizeof(*h)) {
		snprintf(out, olen, "a %zu-byte tail matching no expected generation", len);
		return 0;
	}
	if (memcmp(buf, MAGIC, 8)) {
		snprintf(out, olen, "garbage (no crashwl header)");
		return 0;
	}
	memcpy(h, buf, sizeof(*h));
	make_block(want, h->seed, h->fid, h->blk, h->gen);
	if (memcmp(want, buf, len)) {
		snprintf(out, olen, "corrupt block (header says fid %u blk %u gen %u, content differs)",
			 h->fid, h->blk, h->gen);
		return 0;
	}
	if (h->seed != seed) {
		snprintf(out, olen, "block of another run (seed %u fid %u blk %u gen %u)",
			 h->seed, h->fid, h->blk, h->gen);
		return 0;
	}
	snprintf(out, olen, "fid %u blk %u gen %u", h->fid, h->blk, h->gen);
	return 1;
}

/* Check the content of an open file against fid; report when 'report'. */
static int check_content(int fd, const char *name, off_t size, const struct model *st,
			 int ns, uint32_t fid, int report, int *nonempty)
{
	static uint8_t buf[BS];
	struct allow a;
	int bad = 0;
	char found[160], exp[200];

	*nonempty = 0;
	file_allow(st, ns, fid, &a);
	if (size < (off_t)a.minsize || size > (off_t)a.maxsize) {
		bad++;
		if (report)
			viol("file=%s fid=%u size=%lld expected size %u..%u bytes",
			     name, fid, (long long)size, a.minsize, a.maxsize);
	}
	for (off_t off = 0; off < size; off += BS) {
		size_t len = size - off < BS ? (size_t)(size - off) : BS;
		uint32_t b = off / BS;
		struct hdr h;

		if (pread(fd, buf, len, off) != (ssize_t)len) {
			bad++;
			if (report)
				viol("file=%s off=%lld read failed: %s", name, (long long)off, strerror(errno));
			break;
		}
		if (!all_zero(buf, len))
			*nonempty = 1;
		if (b < MAXBLK && block_ok(st, ns, fid, b, buf, len))
			continue;
		bad++;
		if (report) {
			classify(buf, len, st[0].seed, &h, found, sizeof(found));
			gens_str(st, ns, fid, b, exp, sizeof(exp));
			viol("file=%s off=%lld expected fid %u blk %u %s found %s",
			     name, (long long)off, fid, b, exp, found);
		}
	}
	return bad;
}

struct seen {
	char name[NAMELEN];
	uint32_t fid;		/* matched fid, 0 if none/ambiguous */
	int nonempty;
};

struct ent {
	const char *name;
	uint32_t fid;
	int k;			/* state */
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->k - y->k;
}

static int seen_name_cmp(const void *key, const void *b)
{
	return strcmp(key, ((const struct seen *)b)->name);
}

static int seen_fid_cmp(const void *a, const void *b)
{
	const struct seen *x = *(struct seen * const *)a, *y = *(struct seen * const *)b;

	return x->fid < y->fid ? -1 : x->fid > y->fid;
}

/* Check the name group ents[0..n-1] (one name, by state) in dfd; fill sn. */
static void check_name(int dfd, const struct model *st, int ns, uint32_t maxn,
		       const struct ent *e, int n, struct seen *sn, int *files, long *blocks)
{
	const char *nm = e[0].name;
	uint32_t cand[1 + MAXWIN];
	int nc = 0, nstates = 0, fd, best = -1, bestbad = 0, nonempty = 0, y;
	struct stat sb;

	snprintf(sn->name, NAMELEN, "%s", nm);
	sn->fid = 0;
	sn->nonempty = 0;
	for (int q = 0; q < n; q++) {
		if (!q || e[q].k != e[q - 1].k)
			nstates++;
		for (y = 0; y < nc; y++)
			if (cand[y] == e[q].fid)
				break;
		if (y == nc)
			cand[nc++] = e[q].fid;
	}
	if (fstatat(dfd, nm, &sb, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			viol("file=%s stat failed: %s", nm, strerror(errno));
		else if (nstates == ns)	/* bound in every state, e[0] is in S(N) */
			viol("file=%s missing: it is durable (fid %u, %u bytes at step %u)",
			     nm, e[0].fid, state_file(&st[0], e[0].fid)->size, maxn);
		return;
	}
	if (!S_ISREG(sb.st_mode)) {
		viol("file=%s is not a regular file (mode %o)", nm, sb.st_mode);
		return;
	}
	fd = openat(dfd, nm, O_RDONLY);
	if (fd < 0) {
		viol("file=%s open failed: %s", nm, strerror(errno));
		return;
	}
	(*files)++;
	*blocks += (sb.st_size + BS - 1) / BS;
	for (y = 0; y < nc; y++) {
		int ne, b = check_content(fd, nm, sb.st_size, st, ns, cand[y], 0, &ne);

		if (best < 0 || b < bestbad) {
			best = y;
			bestbad = b;
			nonempty = ne;
		}
		if (!b)
			break;
	}
	if (bestbad)
		check_content(fd, nm, sb.st_size, st, ns, cand[best], 1, &nonempty);
	else
		sn->fid = cand[best];
	sn->nonempty = nonempty;
	close(fd);
}

static int check(const char *dir, const char *logfile, uint32_t upto, int win)
{
	struct model st[1 + MAXWIN];
	struct seen *seen = NULL, **byfid = NULL;
	struct ent *ents = NULL;
	struct logline *lines;
	struct logmeta lm;
	uint32_t seed = 0, maxn, nfid;
	int bad, good, nseen = 0, ns = 1 + win, dfd, files = 0, nent = 0, nb = 0;
	uint8_t *where = NULL;
	long blocks = 0;
	struct step s;
	struct dirent *de;
	DIR *d;

	nviol = 0;
	good = parse_log(logfile, upto, &seed, &lines, &maxn, &bad, &lm);
	if (!good) {
		printf("crashwl check: %s: no CWL line%s (%d malformed ignored): nothing was durable, nothing to check\n",
		       logfile, upto != UINT32_MAX ? " up to -u" : "", bad);
		free(lines);
		return 0;
	}
	memset(st, 0, sizeof(st));
	model_init(&st[0], seed, lm.heavy == 1, lm.budget);
	for (uint32_t n = 1; n <= maxn; n++) {
		next_step(&st[0], &s);
		if (lines[n].type[0]) {
			struct logline *l = &lines[n];
			uint32_t sz = lm.heavy == 1 ? s.size : s.nblk;

			if (strcmp(l->type, tname[s.type]) || l->fid != s.fid ||
			    strcmp(l->name, s.name) || l->blk != sz || strcmp(l->sync, sname[s.sync]))
				die("log line %u (%s fid %u %s %s %u %s) does not match the model (%s fid %u %s %s %u %s): wrong seed or crashwl version?",
				    n, l->type, l->fid, l->name, lm.heavy == 1 ? "len" : "blk", l->blk, l->sync,
				    tname[s.type], s.fid, s.name, lm.heavy == 1 ? "len" : "blk", sz, sname[s.sync]);
		}
	}
	for (int k = 1; k < ns; k++) {
		model_copy(&st[k], &st[k - 1]);
		next_step(&st[k], &s);
	}
	if (verbose)
		printf("crashwl check: seed %u, %s mix, last durable step %u, window %d, %d live files\n",
		       seed, lm.heavy == 1 ? "heavy" : "light", maxn, win, st[0].nf);

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		viol("dir=%s cannot open: %s", dir, strerror(errno));
		goto out;
	}
	/* every name some state of the window binds, grouped by name */
	for (int k = 0; k < ns; k++)
		nent += st[k].nf;
	ents = xrealloc(NULL, nent * sizeof(*ents));
	nent = 0;
	for (int k = 0; k < ns; k++)
		for (int i = 0; i < st[k].nf; i++)
			ents[nent++] = (struct ent){ st[k].f[i].name, st[k].f[i].fid, k };
	qsort(ents, nent, sizeof(*ents), ent_cmp);
	seen = xrealloc(NULL, nent * sizeof(*seen));
	for (int i = 0, j; i < nent; i = j) {
		for (j = i + 1; j < nent && !strcmp(ents[j].name, ents[i].name); j++)
			;
		check_name(dfd, st, ns, maxn, ents + i, j - i, &seen[nseen++], &files, &blocks);
	}
	/* files alive in the whole window are somewhere; nobody has two names */
	nfid = st[ns - 1].next_fid;
	where = xrealloc(NULL, nfid);
	memset(where, 0, nfid);
	byfid = xrealloc(NULL, (nseen + 1) * sizeof(*byfid));
	for (int j = 0; j < nseen; j++) {
		if (seen[j].fid)
			where[seen[j].fid] = 1;
		if (seen[j].fid && seen[j].nonempty)
			byfid[nb++] = &seen[j];
	}
	for (int i = 0; i < st[0].nf; i++) {
		struct allow a;
		uint32_t fid = st[0].f[i].fid;

		file_allow(st, ns, fid, &a);
		if (a.alive_all && !where[fid])
			viol("fid=%u (name %s at step %u) is durable but under none of its names",
			     fid, st[0].f[i].name, maxn);
	}
	qsort(byfid, nb, sizeof(*byfid), seen_fid_cmp);
	for (int j = 1; j < nb; j++)
		if (byfid[j]->fid == byfid[j - 1]->fid)
			viol("fid=%u found under two names: %s and %s",
			     byfid[j]->fid, byfid[j - 1]->name, byfid[j]->name);
	/* nothing else in DIR */
	d = fdopendir(dfd);
	if (!d) {
		viol("dir=%s cannot list: %s", dir, strerror(errno));
		close(dfd);
		goto out;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!bsearch(de->d_name, seen, nseen, sizeof(*seen), seen_name_cmp))
			viol("file=%s unexpected: no state from step %u to %u has this name",
			     de->d_name, maxn, maxn + win);
	}
	closedir(d);
out:
	free(lines);
	free(ents);
	free(seen);
	free(byfid);
	free(where);
	for (int k = 0; k < ns; k++)
		model_free(&st[k]);
	if (nviol) {
		printf("crashwl check: FAIL: %d violation%s (seed %u, last durable step %u, window %d)\n",
		       nviol, nviol == 1 ? "" : "s", seed, maxn, win);
		return 1;
	}
	printf("crashwl check: OK: seed %u, last durable step %u (%d log lines, %d malformed ignored), window %d, %d files, %ld blocks verified%s\n",
	       seed, maxn, good, bad, win, files, blocks, lm.heavy == 1 ? ", heavy mix" : "");
	return 0;
}

/* ---- churn ---------------------------------------------------------------- */

struct cfile {
	uint32_t fid, size, gen;
	char name[NAMELEN];
};

struct churn {
	uint32_t seed;		/* the blocks' seed: SEED ^ CSEEDX */
	uint64_t rng;
	int dfd, nf;
	uint32_t next_fid, next_name;
	uint64_t live;
	unsigned long nop[8], enospc;
	struct cfile f[CMAXF];
};

static const char *cop_name[8] = {
	"create", "overwrite", "append", "truncate", "unlink", "rename", "replace", "full"
};

static void churn_err(const char *what, const char *name)
{
	fprintf(stderr, "crashwl churn: error: %s %s: %s\n", what, name, strerror(errno));
	exit(2);
}

/* s, or a bit more: whole blocks or a last block of at least 64 bytes */
static uint32_t churn_tail(uint32_t s)
{
	return s % BS && s % BS < 64 ? s + 64 - s % BS : s;
}

/* 1..max bytes (max: whole blocks), churn_tail()ed */
static uint32_t churn_size(struct churn *c, uint32_t max)
{
	return churn_tail(1 + rndr(&c->rng, max));
}

static void churn_drop(struct churn *c, int i, int do_unlink)
{
	if (do_unlink && unlinkat(c->dfd, c->f[i].name, 0) && errno != ENOENT)
		churn_err("unlink", c->f[i].name);
	c->live -= c->f[i].size;
	c->f[i] = c->f[--c->nf];
}

/*
 * Write blocks from..to-1 of f with new generations (the last one up to
 * f->size).  Returns 0, or -1 on ENOSPC (other errors end the run).
 */
static int churn_put(struct churn *c, int fd, struct cfile *f, uint32_t from, uint32_t to)
{
	uint8_t buf[BS];

	for (uint32_t b = from; b < to; b++) {
		size_t len = f->size - (uint64_t)b * BS < BS ? f->size - (uint64_t)b * BS : BS;

		make_block(buf, c->seed, f->fid, b, ++f->gen);
		if (pwrite(fd, buf, len, (off_t)b * BS) != (ssize_t)len) {
			if (errno == ENOSPC)
				return -1;
			churn_err("pwrite", f->name);
		}
	}
	return 0;
}

/* ENOSPC: drop file i (its content may be torn) and a few others */
static void churn_full(struct churn *c, int i)
{
	c->enospc++;
	if (i >= 0)
		churn_drop(c, i, 1);
	for (int k = 0; k < 8 && c->nf; k++)
		churn_drop(c, rndr(&c->rng, c->nf), 1);
}

/* create (or, with over >= 0, replace file over through a temp name) */
static void churn_create(struct churn *c, int over)
{
	struct cfile *f = &c->f[c->nf];
	char final[NAMELEN];
	int fd;

	f->fid = c->next_fid++;
	f->gen = 0;
	f->size = churn_size(c, CMAXSIZE);
	snprintf(f->name, NAMELEN, "%c%u", over >= 0 ? 't' : 'k', c->next_name++);
	fd = openat(c->dfd, f->name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		if (errno == ENOSPC) {
			churn_full(c, -1);
			return;
		}
		churn_err("create", f->name);
	}
	c->live += f->size;
	c->nf++;
	if (churn_put(c, fd, f, 0, blocks(f->size))) {
		close(fd);
		churn_full(c, c->nf - 1);
		return;
	}
	close(fd);
	if (over < 0)
		return;
	snprintf(final, NAMELEN, "%s", c->f[over].name);
	if (renameat(c->dfd, f->name, c->dfd, final))
		churn_err("rename", f->name);
	snprintf(f->name, NAMELEN, "%s", final);
	churn_drop(c, over, 0);	/* f moves into slot over when it was last */
}

static void churn_op(struct churn *c)
{
	uint32_t r = rndr(&c->rng, 100);
	struct cfile *f;
	int i, fd, op;

	if (!c->nf || (r < 25 && c->nf < CMAXF))
		op = 0;
	else
		op = r < 45 ? 1 : r < 60 ? 2 : r < 70 ? 3 : r < 82 ? 4 : r < 92 ? 5 : 6;
	c->nop[op]++;
	if (op == 0) {
		churn_create(c, -1);
	} else if (op == 6) {
		churn_create(c, rndr(&c->rng, c->nf));
	} else if (op == 4) {
		churn_drop(c, rndr(&c->rng, c->nf), 1);
	} else if (op == 5) {
		char to[NAMELEN];
		int j;

		i = rndr(&c->rng, c->nf);
		j = rndr(&c->rng, 2) ? (int)rndr(&c->rng, c->nf) : -1;
		if (j == i)
			j = -1;
		if (j >= 0)
			snprintf(to, NAMELEN, "%s", c->f[j].name);
		else
			snprintf(to, NAMELEN, "k%u", c->next_name++);
		if (renameat(c->dfd, c->f[i].name, c->dfd, to))
			churn_err("rename", c->f[i].name);
		snprintf(c->f[i].name, NAMELEN, "%s", to);
		if (j >= 0)
			churn_drop(c, j, 0);
	} else {
		i = rndr(&c->rng, c->nf);
		f = &c->f[i];
		fd = openat(c->dfd, f->name, O_WRONLY);
		if (fd < 0)
			churn_err("open", f->name);
		if (op == 1 && f->size) {		/* overwrite whole blocks */
			uint32_t n = 1 + rndr(&c->rng, 4), nb = blocks(f->size);

			for (uint32_t k = 0; k < n; k++) {
				uint32_t b = rndr(&c->rng, nb);

				if (churn_put(c, fd, f, b, b + 1))
					goto full;
			}
		} else if (op == 2) {			/* append */
			uint32_t old = f->size, to = churn_tail(old + churn_size(c, 8 * BS));

			if (blocks(to) <= MAXBLK) {
				f->size = to;
				c->live += to - old;
			}
			if (churn_put(c, fd, f, old / BS, blocks(f->size)))
				goto full;
		} else if (op == 3) {			/* truncate down or up */
			uint32_t to = rndr(&c->rng, 2) ? churn_size(c, MAXBLK * BS) : 0;

			if (to > f->size && to > 2 * CMAXSIZE)
				to = churn_tail(f->size / 2);
			if (ftruncate(fd, to)) {
				if (errno == ENOSPC)
					goto full;
				churn_err("ftruncate", f->name);
			}
			c->live = c->live - f->size + to;
			f->size = to;
		}
		close(fd);
	}
	while (c->nf && (c->live > CBUDGET || c->nf >= CMAXF))
		churn_drop(c, rndr(&c->rng, c->nf), 1);
	return;
full:
	close(fd);
	churn_full(c, i);
}

static int churn(const char *dir, uint32_t seed, double secs, long ops)
{
	static struct churn c;
	double t0 = now();
	long n;

	memset(&c, 0, sizeof(c));
	c.seed = seed ^ CSEEDX;
	c.rng = (uint64_t)c.seed * 0x2545F4914F6CDD1Dull + 7;
	c.next_fid = c.next_name = 1;
	c.dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (c.dfd < 0)
		churn_err("open", dir);
	printf("crashwl churn: seed %u in %s, never synced (replay: crashwl churn DIR %u)\n",
	       seed, dir, seed);
	fflush(stdout);
	for (n = 0; ops < 0 || n < ops; n++) {
		if (secs > 0 && !(n & 15) && now() - t0 >= secs)
			break;
		churn_op(&c);
	}
	printf("crashwl churn: %ld operations in %.1f s:", n, now() - t0);
	for (int k = 0; k < 7; k++)
		printf(" %s %lu", cop_name[k], c.nop[k]);
	printf("; %lu ENOSPC; %d files, %llu bytes live\n", c.enospc, c.nf,
	       (unsigned long long)c.live);
	close(c.dfd);
	return 0;
}

/* ---- churncheck ------------------------------------------------------------ */

struct cseen {
	uint32_t fid;
	char name[256];
};

static int cseen_cmp(const void *a, const void *b)
{
	const struct cseen *x = a, *y = b;

	return x->fid < y->fid ? -1 : x->fid > y->fid;
}

/*
 * One block of a churn file: zeros, or a churn block (seed cseed, index b)
 * matching up to some point and zeros after it; *fid is the file's fid so
 * far (0: none yet).  Returns 0 or prints a violation and returns 1.
 */
static int churn_block(const char *name, uint32_t cseed, uint32_t b, const uint8_t *buf,
		       size_t len, uint32_t *fid)
{
	static uint8_t want[BS];
	struct hdr h;
	size_t j;

	if (all_zero(buf, len))
		return 0;
	if (len < sizeof(h) || memcmp(buf, MAGIC, 8)) {
		viol("churn file=%s off=%llu: garbage (no crashwl header)", name, (unsigned long long)b * BS);
		return 1;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.seed != cseed || h.blk != b || (*fid && h.fid != *fid)) {
		viol("churn file=%s off=%llu: a block of seed %u fid %u blk %u, expected seed %u blk %u and the fid of the file's other blocks (%u, 0: none yet)",
		     name, (unsigned long long)b * BS, h.seed, h.fid, h.blk, cseed, b, *fid);
		return 1;
	}
	make_block(want, h.seed, h.fid, h.blk, h.gen);
	for (j = 0; j < len && buf[j] == want[j]; j++)
		;
	if (j < sizeof(h) || !all_zero(buf + j, len - j)) {
		viol("churn file=%s off=%llu: fid %u blk %u gen %u differs from its content at byte %zu (and not zeros after)",
		     name, (unsigned long long)b * BS, h.fid, h.blk, h.gen, j);
		return 1;
	}
	*fid = h.fid;
	return 0;
}

static int churncheck(const char *dir, uint32_t seed)
{
	static uint8_t buf[BS];
	uint32_t cseed = seed ^ CSEEDX;
	struct cseen *cs = NULL;
	int ncs = 0, cap = 0, files = 0;
	unsigned long long bytes = 0, zblk = 0;
	struct dirent *de;
	DIR *d;

	nviol = 0;
	d = opendir(dir);
	if (!d) {
		viol("churn dir=%s cannot open: %s", dir, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		uint32_t fid = 0;
		struct stat sb;
		unsigned int num;
		char extra;
		int fd, bad = 0;
		off_t off;

		if (!strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		if (fstatat(dirfd(d), nm, &sb, AT_SYMLINK_NOFOLLOW)) {
			viol("churn file=%s stat failed: %s", nm, strerror(errno));
			continue;
		}
		if (!S_ISREG(sb.st_mode) || (nm[0] != 'k' && nm[0] != 't') ||
		    sscanf(nm + 1, "%u%c", &num, &extra) != 1) {
			viol("churn file=%s unexpected (mode %o): churn makes regular files k<n>, t<n>",
			     nm, sb.st_mode);
			continue;
		}
		fd = openat(dirfd(d), nm, O_RDONLY);
		if (fd < 0) {
			viol("churn file=%s open failed: %s", nm, strerror(errno));
			continue;
		}
		files++;
		for (off = 0; off < sb.st_size && !bad; off += BS) {
			size_t len = sb.st_size - off < BS ? (size_t)(sb.st_size - off) : BS;
			ssize_t got = pread(fd, buf, len, off);

			if (got != (ssize_t)len) {
				viol("churn file=%s off=%lld: read returned %zd of %zu bytes: %s",
				     nm, (long long)off, got, len, got < 0 ? strerror(errno) : "short read");
				bad = 1;
				break;
			}
			bytes += len;
			zblk += all_zero(buf, len);
			bad = churn_block(nm, cseed, off / BS, buf, len, &fid);
		}
		if (!bad && pread(fd, buf, 1, sb.st_size) != 0)
			viol("churn file=%s: a read at its end (%lld bytes) does not return end of file",
			     nm, (long long)sb.st_size);
		close(fd);
		if (fid) {
			if (ncs == cap) {
				cap = cap ? 2 * cap : 256;
				cs = xrealloc(cs, cap * sizeof(*cs));
			}
			cs[ncs].fid = fid;
			snprintf(cs[ncs++].name, sizeof(cs->name), "%s", nm);
		}
	}
	closedir(d);
	qsort(cs, ncs, sizeof(*cs), cseen_cmp);
	for (int j = 1; j < ncs; j++)
		if (cs[j].fid == cs[j - 1].fid)
			viol("churn fid=%u in two files: %s and %s", cs[j].fid, cs[j - 1].name, cs[j].name);
out:
	free(cs);
	if (nviol) {
		printf("crashwl churncheck: FAIL: %d violation%s (seed %u)\n", nviol, nviol == 1 ? "" : "s", seed);
		return 1;
	}
	printf("crashwl churncheck: OK: seed %u, %d files, %llu bytes read (%llu zero blocks)\n",
	       seed, files, bytes, zblk);
	return 0;
}

/* ---- selftest ------------------------------------------------------------- */

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd))
		die("selftest: '%s' failed", cmd);
}

static void put_at(const char *path, const void *buf, size_t len, off_t off)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || pwrite(fd, buf, len, off) != (ssize_t)len)
		die("selftest: write %s: %s", path, strerror(errno));
	close(fd);
}

static void get_at(const char *path, void *buf, size_t len, off_t off)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0 || pread(fd, buf, len, off) != (ssize_t)len)
		die("selftest: read %s: %s", path, strerror(errno));
	close(fd);
}

static int fails;

/* a planted fault: the checker's status must be non-zero; restore path */
static void expect_fail(int status, const char *what, const char *dir, const char *path)
{
	if (status == 0) {
		printf("selftest: FAIL: the checker missed: %s\n", what);
		fails++;
	}
	if (path)
		sh("cp '%s.save' '%s'", dir, path);
}

#define EXPECT_FAIL(what) \
	do { printf("selftest: %s\n", what); \
	     expect_fail(check(dir, log, UINT32_MAX, 2), what, dir, path); } while (0)

/* run a mix, check it, plant faults: the checker must catch each */
static void selftest_mix(const char *dir, int heavy)
{
	struct model m = { 0 }, w1 = { 0 }, w2 = { 0 };
	char log[512], path[512], path2[512], what[128];
	uint8_t buf[BS];
	struct step s;
	FILE *out;
	int v = -1, u = -1;
	const uint32_t seed = heavy ? 4343 : 4242, steps = heavy ? 400 : 60, budget = 1;
	const struct file *fv;

	printf("selftest: %s mix, %u steps%s\n", heavy ? "heavy" : "light", steps,
	       heavy ? ", budget 1 MiB (prunes)" : "");
	snprintf(log, sizeof(log), "%s.selftest.log", dir);
	sh("rm -rf '%s' && mkdir -p '%s'", dir, dir);
	out = fopen(log, "w");
	if (!out)
		die("%s: %s", log, strerror(errno));
	run(dir, seed, heavy, budget, 0, steps, NULL, out);
	fclose(out);
	/* the state after the run, and the two steps that could follow */
	model_init(&m, seed, heavy, budget);
	for (uint32_t n = 0; n < steps; n++)
		next_step(&m, &s);
	model_copy(&w1, &m);
	next_step(&w1, &s);
	model_copy(&w2, &w1);
	next_step(&w2, &s);
	/*
	 * two files the window does not touch, with at least 2 blocks (heavy:
	 * the first one ends in a partial block)
	 */
	for (int i = 0; i < m.nf; i++) {
		const struct file *f = &m.f[i];
		int j1 = find_fid(&w1, f->fid), j2 = find_fid(&w2, f->fid);

		if (f->size < 2 * BS || j1 < 0 || j2 < 0 || strcmp(w2.f[j2].name, f->name) ||
		    w2.f[j2].size != f->size || memcmp(w2.f[j2].gen, f->gen, sizeof(f->gen)))
			continue;
		if (v < 0 && (!heavy || f->size % BS))
			v = i;
		else if (u < 0)
			u = i;
	}
	if (v < 0 || u < 0)
		die("selftest: no untouched file to corrupt");
	fv = &m.f[v];
	printf("selftest: clean run\n");
	if (check(dir, log, UINT32_MAX, 2)) {
		printf("selftest: FAIL: check failed on a clean run\n");
		fails++;
	}
	printf("selftest: -u %u (the last two steps are in the window)\n", steps - 2);
	if (check(dir, log, steps - 2, 2)) {
		printf("selftest: FAIL: check -u %u failed\n", steps - 2);
		fails++;
	}
	printf("selftest: -u 10 (must fail: later files are unexpected)\n");
	expect_fail(check(dir, log, 10, 2), "the state after the last step passed as the state after step 10",
		    dir, NULL);

	snprintf(path, sizeof(path), "%s/%s", dir, fv->name);
	snprintf(path2, sizeof(path2), "%s/%s", dir, m.f[u].name);
	sh("cp '%s' '%s.save'", path, dir);

	memset(buf, 0xa5, sizeof(buf));
	put_at(path, buf, 100, BS + 200);
	EXPECT_FAIL("garbage in a durable block");

	make_block(buf, seed, fv->fid, 1, fv->gen[1] + 7);
	put_at(path, buf, fv->size - BS < BS ? fv->size - BS : BS, BS);
	EXPECT_FAIL("a valid block with a generation never written");

	make_block(buf, seed, m.f[u].fid, 0, m.f[u].gen[0]);
	put_at(path, buf, BS, 0);
	EXPECT_FAIL("another file's block");

	if (fv->gen[0] > 1) {
		make_block(buf, seed, fv->fid, 0, fv->gen[0] - 1);
		put_at(path, buf, BS, 0);
		EXPECT_FAIL("an older generation of a durable block");
	}

	memset(buf, 0, sizeof(buf));
	put_at(path, buf, BS, 0);
	EXPECT_FAIL("zeros in a durable block");

	if (fv->size % BS) {
		get_at(path, buf, 1, fv->size - 1);
		buf[0] ^= 0x40;
		put_at(path, buf, 1, fv->size - 1);
		snprintf(what, sizeof(what), "a flipped last byte in a partial last block (%u bytes)",
			 fv->size % BS);
		EXPECT_FAIL(what);
	}

	if (truncate(path, fv->size - BS))
		die("selftest: truncate %s", path);
	EXPECT_FAIL("a durable file short of a block");

	if (truncate(path, fv->size - 1))
		die("selftest: truncate %s", path);
	EXPECT_FAIL("a durable file short of a byte");

	if (truncate(path, (off_t)(fv->nblk + 1) * BS))
		die("selftest: extend %s", path);
	EXPECT_FAIL("a durable file extended with zeros");

	if (truncate(path, fv->size + 1))
		die("selftest: extend %s", path);
	EXPECT_FAIL("a durable file one zero byte longer");

	if (unlink(path))
		die("selftest: unlink %s", path);
	EXPECT_FAIL("a durable file missing");

	sh("echo x > '%s/stray'", dir);
	EXPECT_FAIL("a stray file");
	sh("rm -f '%s/stray'", dir);

	sh("cp '%s' '%s/zz'", path2, dir);
	EXPECT_FAIL("a copy of a durable file under a name never used");
	sh("rm -f '%s/zz'", dir);

	sh("rm -f '%s.save'", dir);
	printf("selftest: final clean check\n");
	if (check(dir, log, UINT32_MAX, 2)) {
		printf("selftest: FAIL: check failed after restoring\n");
		fails++;
	}
	model_free(&m);
	model_free(&w1);
	model_free(&w2);
}

/* churn, churncheck, plant faults: churncheck must catch each */
static void selftest_churn(const char *dir)
{
	const uint32_t seed = 4444;
	char path[512], pb[512], save[512];
	uint8_t buf[BS], b0[BS];
	struct dirent *de;
	struct stat sb;
	DIR *d;

	printf("selftest: churn, 800 operations\n");
	sh("rm -rf '%s' && mkdir -p '%s'", dir, dir);
	churn(dir, seed, 0, 800);
	printf("selftest: churncheck of the churned directory\n");
	if (churncheck(dir, seed)) {
		printf("selftest: FAIL: churncheck failed on a clean run\n");
		fails++;
	}
	/* A: blocks 0 and 1 hold data; B: another file whose block 0 holds data */
	path[0] = pb[0] = 0;
	d = opendir(dir);
	if (!d)
		die("selftest: %s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && !(path[0] && pb[0])) {
		char p[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (stat(p, &sb) || sb.st_size < 2 * BS)
			continue;
		get_at(p, buf, BS, 0);
		if (all_zero(buf, BS))
			continue;
		get_at(p, b0, BS, BS);
		if (!path[0] && !all_zero(b0, BS))
			snprintf(path, sizeof(path), "%s", p);
		else if (!pb[0])
			snprintf(pb, sizeof(pb), "%s", p);
	}
	closedir(d);
	if (!path[0] || !pb[0])
		die("selftest: churn left no files to corrupt");
	snprintf(save, sizeof(save), "%s.save", dir);
	sh("cp '%s' '%s'", path, save);

	memset(buf, 0xa5, sizeof(buf));
	put_at(path, buf, 100, BS + 100);
	printf("selftest: churn: garbage in a block\n");
	expect_fail(churncheck(dir, seed), "churn: garbage in a block", dir, path);

	get_at(pb, buf, BS, 0);
	put_at(path, buf, BS, 0);
	printf("selftest: churn: another file's block\n");
	expect_fail(churncheck(dir, seed), "churn: another file's block", dir, path);

	get_at(path, buf, BS, 0);
	put_at(path, buf, BS, BS);
	printf("selftest: churn: a block at the wrong offset\n");
	expect_fail(churncheck(dir, seed), "churn: a block at the wrong offset", dir, path);

	make_block(buf, seed, 1, 0, 1);	/* a block of run's, not churn's */
	put_at(path, buf, BS, 0);
	printf("selftest: churn: a block of another seed\n");
	expect_fail(churncheck(dir, seed), "churn: a block of another seed", dir, path);

	sh("echo x > '%s/stray'", dir);
	printf("selftest: churn: a stray file\n");
	expect_fail(churncheck(dir, seed), "churn: a stray file", dir, NULL);
	sh("rm -f '%s/stray'", dir);

	sh("rm -f '%s'", save);
	printf("selftest: churn: final clean check\n");
	if (churncheck(dir, seed)) {
		printf("selftest: FAIL: churncheck failed after restoring\n");
		fails++;
	}
}

static int selftest(const char *dir)
{
	char d2[512];

	fails = 0;
	selftest_mix(dir, 0);
	snprintf(d2, sizeof(d2), "%s.heavy", dir);
	selftest_mix(d2, 1);
	snprintf(d2, sizeof(d2), "%s.churn", dir);
	selftest_churn(d2);
	if (fails) {
		printf("selftest: FAIL (%d)\n", fails);
		return 1;
	}
	printf("selftest: PASS (the checkers caught every planted fault, light and heavy mix, churn)\n");
	return 0;
}

/* ---- main ------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: crashwl run DIR SEED [-H [-B MIB]] [-t SECONDS] [-n OPS] [-m MARKCMD]\n"
		"       crashwl check DIR LOGFILE [-u UPTO] [-w WINDOW] [-v]\n"
		"       crashwl churn DIR SEED [-t SECONDS] [-n OPS]\n"
		"       crashwl churncheck DIR SEED\n"
		"       crashwl selftest DIR\n");
	exit(2);
}

static uint32_t num(const char *s, const char *what)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &e, 0);
	if (errno || e == s || *e || v > UINT32_MAX || *s == '-') {
		fprintf(stderr, "crashwl: %s: not a number: '%s'\n", what, s);
		usage();
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *markcmd = NULL, *cmd;
	uint32_t upto = UINT32_MAX, budget = HBUDGET;
	double secs = 0;
	long ops = -1;
	int win = 2, heavy = 0, o;

	if (argc < 3)
		usage();
	cmd = argv[1];
	if (!strcmp(cmd, "selftest"))
		return argc == 3 ? selftest(argv[2]) : (usage(), 2);
	if (!strcmp(cmd, "churncheck"))
		return argc == 4 ? churncheck(argv[2], num(argv[3], "SEED")) : (usage(), 2);
	if (argc < 4 || (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "churn")))
		usage();
	optind = 4;
	while ((o = getopt(argc, argv, "t:n:m:u:w:vHB:")) != -1) {
		/* each option belongs to one or two subcommands */
		if ((strchr("mHB", o) && strcmp(cmd, "run")) ||
		    (strchr("tn", o) && !strcmp(cmd, "check")) ||
		    (strchr("uwv", o) && strcmp(cmd, "check")))
			usage();
		switch (o) {
		case 't': secs = atof(optarg); break;
		case 'n': ops = num(optarg, "-n"); break;
		case 'm': markcmd = optarg; break;
		case 'u': upto = num(optarg, "-u"); break;
		case 'w':
			win = num(optarg, "-w");
			if (win > MAXWIN)
				die("-w must be 0..%d", MAXWIN);
			break;
		case 'v': verbose = 1; break;
		case 'H': heavy = 1; break;
		case 'B':
			budget = num(optarg, "-B");
			if (budget < 1 || budget > 1u << 20)
				die("-B must be 1..%u MiB", 1u << 20);
			break;
		default: usage();
		}
	}
	if (optind != argc || (budget != HBUDGET && !heavy))
		usage();
	if (!strcmp(cmd, "run"))
		return run(argv[2], num(argv[3], "SEED"), heavy, budget, secs, ops, markcmd, stdout);
	if (!strcmp(cmd, "churn"))
		return churn(argv[2], num(argv[3], "SEED"), secs, ops);
	return check(argv[2], argv[3], upto, win);
}
