// SPDX-License-Identifier: GPL-2.0
/*
 * crashwl - a seeded fsync workload that logs what it made durable, and a
 * checker that verifies a directory against that log after a crash.
 *
 *   crashwl run DIR SEED [-t SECONDS] [-n OPS] [-m MARKCMD]
 *   crashwl check DIR LOGFILE [-u UPTO] [-w WINDOW] [-v]
 *   crashwl selftest DIR
 *
 * run: a deterministic (from SEED) sequence of steps inside DIR (which must
 * exist; the caller makes DIR's own entry durable first, e.g. with sync).
 * Every step mutates one thing and ends with exactly one fsync, fdatasync
 * or directory fsync; when that returns, one line goes to stdout:
 *
 *   CWL <N> seed=<S> t=<type> fid=<F> name=<NAME> blk=<B> sync=<how> crc=<X>
 *
 * N counts the steps from 1 (line 0, "CWL 0 start seed=<S> dir=<DIR>
 * crc=<X>", is printed once DIR is fsynced, before step 1).  type is one
 * of small (new file, written, fsynced), append, over (in-place overwrite),
 * rename (+ fsync of DIR), dbtmp (database pattern: new temp file, fsynced),
 * dbswap (the temp file renamed over the live one, + fsync of DIR), unlink
 * (+ fsync of DIR) and trunc; fid is the file's id, name its name after the
 * step, blk its size in 4 KiB blocks after the step, sync is fsync,
 * fdatasync or dirfsync, and crc is a CRC-32 of the text before " crc=" (a
 * line torn or interleaved with kernel messages on a console fails it and
 * is ignored).  All writes are whole 4 KiB blocks; every block is
 * self-describing: a header (magic "CRASHWL1", seed, fid, block index,
 * generation, payload CRC) followed by bytes from a PRNG keyed by those
 * four numbers.  The line describes the step; the whole state that is
 * durable after it follows from the seed (check replays the same sequence).
 * On a tty, stdout is drained (tcdrain) after each line, so when a line is
 * missing from the captured console the step cannot have gone further than
 * the next one.  -m MARKCMD runs "MARKCMD N" (system()) after line N (N>=1)
 * and waits for it.  It stops after SECONDS, after OPS steps, or when
 * killed; an I/O error is reported on stderr with exit status 2.
 *
 * check: parses the CWL lines of LOGFILE (other text and lines whose crc
 * does not match are ignored; with -u only N <= UPTO), takes the highest N
 * as the last durable step, replays the model to state S(N) and to the
 * WINDOW (default 2) steps after it that may have run, unlogged, before the
 * cut, and checks DIR against them:
 *  - a name bound in all of S(N)..S(N+W) must exist; a name in none of them
 *    must not (nothing unlinked durably comes back, nothing appears);
 *  - the file under a name must be one the name was bound to in one of
 *    those states; its size lies between the smallest and largest size of
 *    that file over those states; each 4 KiB block is exactly that file's
 *    block at that offset with a generation it had in one of those states
 *    (so never older than the durable one, never another file's, never
 *    garbage), or zeros, but zeros only where some state has no block there
 *    (a write in flight, an append, a new file);
 *  - a file that exists in all of those states is found under one of its
 *    names, and no file is found under two names.
 * A file nobody touched after step N must therefore match S(N) exactly.
 * Every violation is printed (name, offset, expected, found); exit 1 on
 * any, 0 with a one-line summary when clean, 2 on usage or log errors.
 *
 * selftest: runs 60 steps in DIR, checks (must pass), then corrupts a
 * block, truncates a durable file, drops a durable file, adds a stray file
 * and plants a block of another file, and checks after each (must fail);
 * exit 0 when the checker caught every one.
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
#define MAXLIVE		256
#define MAXBLK		64
#define NAPP		3
#define NDB		3
#define NAMELEN		24
#define MAXWIN		8
#define MAGIC		"CRASHWL1"

enum { T_SMALL, T_APPEND, T_OVER, T_RENAME, T_DBTMP, T_DBSWAP, T_UNLINK, T_TRUNC, T_NR };
static const char *tname[T_NR] = {
	"small", "append", "over", "rename", "dbtmp", "dbswap", "unlink", "trunc"
};
enum { S_FSYNC, S_FDATASYNC, S_DIRSYNC, S_NR };
static const char *sname[S_NR] = { "fsync", "fdatasync", "dirfsync" };

struct file {
	uint32_t fid;
	char name[NAMELEN];
	uint32_t nblk;
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
	int nf;
	struct file f[MAXLIVE];
};

struct step {
	int type, sync;
	uint32_t fid;
	char name[NAMELEN];	/* name after the step (for unlink: the name removed) */
	char old[NAMELEN];	/* rename/dbswap: the name before */
	uint32_t nblk;		/* size after the step */
	uint32_t oldblk;	/* size before the step */
	int nw;
	uint32_t wblk[8];	/* blocks written (over) */
	int create;		/* the step creates the file */
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

static uint32_t rnd(struct model *m, uint32_t n)
{
	return n ? (uint32_t)(splitmix(&m->rng) % n) : 0;
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

/* ---- the model ------------------------------------------------------------ */

static void model_init(struct model *m, uint32_t seed)
{
	memset(m, 0, sizeof(*m));
	m->seed = seed;
	m->rng = (uint64_t)seed * 0x2545F4914F6CDD1Dull + 1;
	m->next_fid = 1;
	m->db_pending = -1;
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
	for (int i = 0; i < m->nf; i++)
		if (m->f[i].fid == fid)
			return i;
	return -1;
}

/* kinds: 1 small/renamed ('s', 'n'), 2 any but a db temp file */
static int pick(struct model *m, int kind, int need_blocks)
{
	int idx[MAXLIVE], n = 0;

	for (int i = 0; i < m->nf; i++) {
		const char *nm = m->f[i].name;

		if (strstr(nm, ".tmp"))
			continue;
		if (kind == 1 && nm[0] != 's' && nm[0] != 'n')
			continue;
		if (need_blocks && !m->f[i].nblk)
			continue;
		idx[n++] = i;
	}
	return n ? idx[rnd(m, n)] : -1;
}

static int new_file(struct model *m, const char *name)
{
	struct file *f;

	if (m->nf >= MAXLIVE)
		die("model full");
	f = &m->f[m->nf];
	memset(f, 0, sizeof(*f));
	f->fid = m->next_fid++;
	snprintf(f->name, NAMELEN, "%s", name);
	return m->nf++;
}

static void drop_file(struct model *m, int i)
{
	m->f[i] = m->f[m->nf - 1];
	m->nf--;
}

static void write_blocks(struct file *f, uint32_t from, uint32_t to)
{
	for (uint32_t b = from; b < to; b++)
		f->gen[b] = ++f->cnt[b];
}

/* Choose the next step and apply it to the model. */
static void next_step(struct model *m, struct step *s)
{
	char nm[NAMELEN];
	int i, r, smalls = 0;
	struct file *f;

	memset(s, 0, sizeof(*s));
	m->step++;
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
			f->nblk = s->nblk;
		} else {
			s->type = T_APPEND;
			write_blocks(f, f->nblk, s->nblk);
			f->nblk = s->nblk;
		}
		s->fid = f->fid;
		snprintf(s->name, NAMELEN, "%s", f->name);
		return;
	}
	if (r >= 50 && r < 62 && (i = pick(m, 2, 1)) >= 0) {	/* overwrite */
		f = &m->f[i];
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
		snprintf(s->name, NAMELEN, "%s", f->name);
		return;
	}
	if (r >= 62 && r < 72 && (i = pick(m, 1, 0)) >= 0) {	/* rename */
		f = &m->f[i];
		s->type = T_RENAME;
		s->sync = S_DIRSYNC;
		snprintf(s->old, NAMELEN, "%s", f->name);
		snprintf(f->name, NAMELEN, "n%u", m->next_name++);
		snprintf(s->name, NAMELEN, "%s", f->name);
		s->fid = f->fid;
		s->nblk = s->oldblk = f->nblk;
		return;
	}
	if (r >= 72 && r < 82) {		/* database pattern, first half */
		int j = rnd(m, NDB);

		snprintf(nm, NAMELEN, "db%d.tmp", j);
		i = new_file(m, nm);
		f = &m->f[i];
		s->type = T_DBTMP;
		s->sync = S_FSYNC;
		s->create = 1;
		s->nblk = 1 + rnd(m, 6);
		write_blocks(f, 0, s->nblk);
		f->nblk = s->nblk;
		s->fid = f->fid;
		snprintf(s->name, NAMELEN, "%s", nm);
		m->db_pending = j;
		return;
	}
	if (r >= 82 && r < 92 && (i = rnd(m, 8) ? pick(m, 1, 0) : pick(m, 2, 0)) >= 0) {
		f = &m->f[i];			/* unlink */
		s->type = T_UNLINK;
		s->sync = S_DIRSYNC;
		s->fid = f->fid;
		s->oldblk = f->nblk;
		snprintf(s->name, NAMELEN, "%s", f->name);
		drop_file(m, i);
		return;
	}
	if (r >= 92 && (i = pick(m, 2, 1)) >= 0) {	/* truncate */
		f = &m->f[i];
		s->type = T_TRUNC;
		s->sync = S_FSYNC;
		s->oldblk = f->nblk;
		s->nblk = rnd(m, f->nblk);
		f->nblk = s->nblk;
		s->fid = f->fid;
		snprintf(s->name, NAMELEN, "%s", f->name);
		return;
	}
	/* new small file (also the fallback) */
	snprintf(nm, NAMELEN, "s%u", m->next_fid);
	i = new_file(m, nm);
	f = &m->f[i];
	s->type = T_SMALL;
	s->sync = S_FSYNC;
	s->create = 1;
	s->nblk = 1 + rnd(m, 3);
	write_blocks(f, 0, s->nblk);
	f->nblk = s->nblk;
	s->fid = f->fid;
	snprintf(s->name, NAMELEN, "%s", nm);
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

static void put_blocks(int fd, const struct model *m, const struct file *f,
		       const struct step *s, uint32_t from, uint32_t to)
{
	uint8_t buf[BS];

	for (uint32_t b = from; b < to; b++) {
		make_block(buf, m->seed, f->fid, b, f->gen[b]);
		if (pwrite(fd, buf, BS, (off_t)b * BS) != BS)
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

	if (s->type != T_UNLINK) {
		i = find_fid(m, s->fid);
		if (i < 0)
			die("model lost fid %u", s->fid);
		f = &m->f[i];
	}
	switch (s->type) {
	case T_SMALL:
	case T_DBTMP:
		fd = openat(dfd, s->name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			io_fail(s, "create");
		put_blocks(fd, m, f, s, 0, s->nblk);
		do_sync(fd, dfd, s);
		break;
	case T_APPEND:
		fd = openat(dfd, s->name, O_WRONLY | O_CREAT, 0644);
		if (fd < 0)
			io_fail(s, "open");
		put_blocks(fd, m, f, s, s->oldblk, s->nblk);
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
		if (ftruncate(fd, (off_t)s->nblk * BS))
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

static int run(const char *dir, uint32_t seed, double secs, long ops,
	       const char *markcmd, FILE *out)
{
	static struct model m;
	struct step s;
	double t0 = now();
	int dfd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die("%s: %s", dir, strerror(errno));
	if (fsync(dfd))
		die("fsync %s: %s", dir, strerror(errno));
	model_init(&m, seed);
	emit(out, "CWL 0 start seed=%u dir=%s", seed, dir);
	for (long n = 1; ops < 0 || n <= ops; n++) {
		if (secs > 0 && now() - t0 >= secs)
			break;
		next_step(&m, &s);
		cur_step = m.step;
		do_step(dfd, &m, &s);
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
	return 0;
}

/* ---- check ---------------------------------------------------------------- */

struct logline {
	uint32_t n, seed, fid, blk;
	char type[16], name[NAMELEN], sync[16];
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

/* Parse LOGFILE; returns the number of good lines, fills lines[n] (by N). */
static int parse_log(const char *path, uint32_t upto, uint32_t *seed,
		     struct logline **lines, uint32_t *maxn, int *bad)
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
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = strstr(buf, "CWL "), *c, *e;
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
		} else if (sscanf(p, "CWL %u seed=%u t=%15s fid=%u name=%23s blk=%u sync=%15s",
				  &l.n, &l.seed, l.type, &l.fid, l.name, &l.blk, l.sync) != 7) {
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

			*lines = realloc(*lines, nc * sizeof(**lines));
			if (!*lines)
				die("out of memory");
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
	return good;
}

/* What the window allows for one file (fid) */
struct allow {
	uint32_t minblk, maxblk;
	int alive_all;		/* alive in every state of the window */
};

static const struct file *state_file(const struct model *st, uint32_t fid)
{
	int i = find_fid(st, fid);

	return i < 0 ? NULL : &st->f[i];
}

static void file_allow(const struct model *st, int ns, uint32_t fid, struct allow *a)
{
	a->minblk = UINT32_MAX;
	a->maxblk = 0;
	a->alive_all = 1;
	for (int k = 0; k < ns; k++) {
		const struct file *f = state_file(&st[k], fid);
		uint32_t nb = f ? f->nblk : 0;

		if (!f)
			a->alive_all = 0;
		if (nb < a->minblk)
			a->minblk = nb;
		if (nb > a->maxblk)
			a->maxblk = nb;
	}
}

/* May block b of fid hold generation gen (gen 0: zeros)? */
static int gen_ok(const struct model *st, int ns, uint32_t fid, uint32_t b, uint32_t gen)
{
	for (int k = 0; k < ns; k++) {
		const struct file *f = state_file(&st[k], fid);

		if (!f || b >= f->nblk) {
			if (gen == 0)
				return 1;
		} else if (f->gen[b] == gen) {
			return 1;
		}
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
	size_t i;

	for (i = 0; i < len && !buf[i]; i++)
		;
	if (i == len) {
		snprintf(out, olen, "zeros");
		h->gen = 0;
		return 2;
	}
	if (len < sizeof(*h) || memcmp(buf, MAGIC, 8)) {
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
	char found[160], exp[160];

	*nonempty = 0;
	file_allow(st, ns, fid, &a);
	if (size < (off_t)a.minblk * BS || size > (off_t)a.maxblk * BS) {
		bad++;
		if (report)
			viol("file=%s fid=%u size=%lld expected size %u..%u blocks (%u..%u bytes)",
			     name, fid, (long long)size, a.minblk, a.maxblk,
			     a.minblk * BS, a.maxblk * BS);
	}
	for (off_t off = 0; off < size; off += BS) {
		size_t len = size - off < BS ? (size_t)(size - off) : BS;
		uint32_t b = off / BS;
		struct hdr h;
		int c;

		if (pread(fd, buf, len, off) != (ssize_t)len) {
			bad++;
			if (report)
				viol("file=%s off=%lld read failed: %s", name, (long long)off, strerror(errno));
			break;
		}
		c = classify(buf, len, st[0].seed, &h, found, sizeof(found));
		if (c == 1)
			*nonempty = 1;
		if ((c == 2 && gen_ok(st, ns, fid, b, 0)) ||
		    (c == 1 && h.fid == fid && h.blk == b && gen_ok(st, ns, fid, b, h.gen)))
			continue;
		bad++;
		if (report) {
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

static int check(const char *dir, const char *logfile, uint32_t upto, int win)
{
	static struct model st[1 + MAXWIN];
	static struct seen seen[MAXLIVE * (1 + MAXWIN)];
	struct logline *lines;
	uint32_t seed = 0, maxn;
	int bad, good, nseen = 0, ns = 1 + win, dfd, files = 0;
	long blocks = 0;
	struct step s;
	struct dirent *de;
	DIR *d;

	nviol = 0;
	good = parse_log(logfile, upto, &seed, &lines, &maxn, &bad);
	if (!good) {
		printf("crashwl check: %s: no CWL line%s (%d malformed ignored): nothing was durable, nothing to check\n",
		       logfile, upto != UINT32_MAX ? " up to -u" : "", bad);
		free(lines);
		return 0;
	}
	model_init(&st[0], seed);
	for (uint32_t n = 1; n <= maxn; n++) {
		next_step(&st[0], &s);
		if (lines[n].type[0]) {
			struct logline *l = &lines[n];

			if (strcmp(l->type, tname[s.type]) || l->fid != s.fid ||
			    strcmp(l->name, s.name) || l->blk != s.nblk || strcmp(l->sync, sname[s.sync]))
				die("log line %u (%s fid %u %s blk %u %s) does not match the model (%s fid %u %s blk %u %s): wrong seed or crashwl version?",
				    n, l->type, l->fid, l->name, l->blk, l->sync,
				    tname[s.type], s.fid, s.name, s.nblk, sname[s.sync]);
		}
	}
	for (int k = 1; k < ns; k++) {
		st[k] = st[k - 1];
		next_step(&st[k], &s);
	}
	if (verbose)
		printf("crashwl check: seed %u, last durable step %u, window %d, %d live files\n",
		       seed, maxn, win, st[0].nf);

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		viol("dir=%s cannot open: %s", dir, strerror(errno));
		goto out;
	}
	/* every name some state of the window binds */
	for (int k = 0; k < ns; k++) {
		for (int i = 0; i < st[k].nf; i++) {
			const char *nm = st[k].f[i].name;
			uint32_t cand[1 + MAXWIN];
			int nc = 0, absent_ok = 0, fd, best = -1, bestbad = 0, nonempty = 0;
			struct stat sb;
			int j;

			for (j = 0; j < nseen; j++)
				if (!strcmp(seen[j].name, nm))
					break;
			if (j < nseen)
				continue;
			snprintf(seen[nseen].name, NAMELEN, "%s", nm);
			seen[nseen].fid = 0;
			nseen++;
			for (int q = 0; q < ns; q++) {
				int x = find_name(&st[q], nm), y;

				if (x < 0) {
					absent_ok = 1;
					continue;
				}
				for (y = 0; y < nc; y++)
					if (cand[y] == st[q].f[x].fid)
						break;
				if (y == nc)
					cand[nc++] = st[q].f[x].fid;
			}
			if (fstatat(dfd, nm, &sb, AT_SYMLINK_NOFOLLOW)) {
				if (errno != ENOENT)
					viol("file=%s stat failed: %s", nm, strerror(errno));
				else if (!absent_ok)
					viol("file=%s missing: it is durable (fid %u, %u blocks at step %u)",
					     nm, cand[0], st[0].f[find_name(&st[0], nm)].nblk, maxn);
				continue;
			}
			if (!S_ISREG(sb.st_mode)) {
				viol("file=%s is not a regular file (mode %o)", nm, sb.st_mode);
				continue;
			}
			fd = openat(dfd, nm, O_RDONLY);
			if (fd < 0) {
				viol("file=%s open failed: %s", nm, strerror(errno));
				continue;
			}
			files++;
			blocks += (sb.st_size + BS - 1) / BS;
			for (int y = 0; y < nc; y++) {
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
				seen[nseen - 1].fid = cand[best];
			seen[nseen - 1].nonempty = nonempty;
			close(fd);
		}
	}
	/* files alive in the whole window are somewhere; nobody has two names */
	for (int i = 0; i < st[0].nf; i++) {
		struct allow a;
		uint32_t fid = st[0].f[i].fid;
		int where = 0;

		file_allow(st, ns, fid, &a);
		for (int j = 0; j < nseen; j++)
			if (seen[j].fid == fid)
				where++;
		if (a.alive_all && !where)
			viol("fid=%u (name %s at step %u) is durable but under none of its names",
			     fid, st[0].f[i].name, maxn);
	}
	for (int j = 0; j < nseen; j++)
		for (int q = j + 1; q < nseen; q++)
			if (seen[j].fid && seen[j].fid == seen[q].fid &&
			    seen[j].nonempty && seen[q].nonempty)
				viol("fid=%u found under two names: %s and %s",
				     seen[j].fid, seen[j].name, seen[q].name);
	/* nothing else in DIR */
	d = fdopendir(dfd);
	if (!d) {
		viol("dir=%s cannot list: %s", dir, strerror(errno));
		close(dfd);
		goto out;
	}
	while ((de = readdir(d))) {
		int j;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (j = 0; j < nseen; j++)
			if (!strcmp(seen[j].name, de->d_name))
				break;
		if (j == nseen)
			viol("file=%s unexpected: no state from step %u to %u has this name",
			     de->d_name, maxn, maxn + win);
	}
	closedir(d);
out:
	free(lines);
	if (nviol) {
		printf("crashwl check: FAIL: %d violation%s (seed %u, last durable step %u, window %d)\n",
		       nviol, nviol == 1 ? "" : "s", seed, maxn, win);
		return 1;
	}
	printf("crashwl check: OK: seed %u, last durable step %u (%d log lines, %d malformed ignored), window %d, %d files, %ld blocks verified\n",
	       seed, maxn, good, bad, win, files, blocks);
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

static int selftest(const char *dir)
{
	static struct model m, w1, w2;
	char log[512], path[512], path2[512];
	uint8_t buf[BS];
	struct step s;
	FILE *out;
	int fails = 0, fd, v = -1, u = -1;
	const uint32_t seed = 4242, steps = 60;

	snprintf(log, sizeof(log), "%s.selftest.log", dir);
	sh("rm -rf '%s' && mkdir -p '%s'", dir, dir);
	out = fopen(log, "w");
	if (!out)
		die("%s: %s", log, strerror(errno));
	run(dir, seed, 0, steps, NULL, out);
	fclose(out);
	/* the state after the run, and the two steps that could follow */
	model_init(&m, seed);
	for (uint32_t n = 0; n < steps; n++)
		next_step(&m, &s);
	w1 = m;
	next_step(&w1, &s);
	w2 = w1;
	next_step(&w2, &s);
	/* two files the window does not touch, with at least 2 blocks */
	for (int i = 0; i < m.nf; i++) {
		const struct file *f = &m.f[i];
		int j1 = find_fid(&w1, f->fid), j2 = find_fid(&w2, f->fid);

		if (f->nblk < 2 || j1 < 0 || j2 < 0 || strcmp(w2.f[j2].name, f->name) ||
		    w2.f[j2].nblk != f->nblk || memcmp(w2.f[j2].gen, f->gen, sizeof(f->gen)))
			continue;
		if (v < 0)
			v = i;
		else if (u < 0)
			u = i;
	}
	if (v < 0 || u < 0)
		die("selftest: no untouched file to corrupt");
	printf("selftest: clean run\n");
	if (check(dir, log, UINT32_MAX, 2)) {
		printf("selftest: FAIL: check failed on a clean run\n");
		return 1;
	}
	printf("selftest: -u %u (the last two steps are in the window)\n", steps - 2);
	if (check(dir, log, steps - 2, 2)) {
		printf("selftest: FAIL: check -u %u failed\n", steps - 2);
		fails++;
	}
	printf("selftest: -u 10 (must fail: later files are unexpected)\n");
	if (check(dir, log, 10, 2) == 0) {
		printf("selftest: FAIL: the state after step %u passed as the state after step 10\n", steps);
		fails++;
	}

	snprintf(path, sizeof(path), "%s/%s", dir, m.f[v].name);
	snprintf(path2, sizeof(path2), "%s/%s", dir, m.f[u].name);
	sh("cp '%s' '%s.save'", path, dir);

#define EXPECT_FAIL(what)							\
	do {									\
		printf("selftest: %s\n", what);					\
		if (check(dir, log, UINT32_MAX, 2) == 0) {			\
			printf("selftest: FAIL: check missed: %s\n", what);	\
			fails++;						\
		}								\
		sh("cp '%s.save' '%s'", dir, path);				\
	} while (0)

	fd = open(path, O_WRONLY);
	memset(buf, 0xa5, sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, 100, BS + 200) != 100)
		die("selftest: corrupt %s", path);
	close(fd);
	EXPECT_FAIL("garbage in a durable block");

	fd = open(path, O_WRONLY);
	make_block(buf, seed, m.f[v].fid, 1, m.f[v].gen[1] + 7);
	if (fd < 0 || pwrite(fd, buf, BS, BS) != BS)
		die("selftest: corrupt %s", path);
	close(fd);
	EXPECT_FAIL("a valid block with a generation never written");

	fd = open(path, O_WRONLY);
	make_block(buf, seed, m.f[u].fid, 0, m.f[u].gen[0]);
	if (fd < 0 || pwrite(fd, buf, BS, 0) != BS)
		die("selftest: corrupt %s", path);
	close(fd);
	EXPECT_FAIL("another file's block");

	if (m.f[v].gen[0] > 1) {
		fd = open(path, O_WRONLY);
		make_block(buf, seed, m.f[v].fid, 0, m.f[v].gen[0] - 1);
		if (fd < 0 || pwrite(fd, buf, BS, 0) != BS)
			die("selftest: corrupt %s", path);
		close(fd);
		EXPECT_FAIL("an older generation of a durable block");
	}

	fd = open(path, O_WRONLY);
	memset(buf, 0, sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, BS, 0) != BS)
		die("selftest: corrupt %s", path);
	close(fd);
	EXPECT_FAIL("zeros in a durable block");

	if (truncate(path, (off_t)(m.f[v].nblk - 1) * BS))
		die("selftest: truncate %s", path);
	EXPECT_FAIL("a durable file truncated");

	if (truncate(path, (off_t)(m.f[v].nblk + 1) * BS))
		die("selftest: extend %s", path);
	EXPECT_FAIL("a durable file extended with zeros");

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
	if (fails) {
		printf("selftest: FAIL (%d)\n", fails);
		return 1;
	}
	printf("selftest: PASS (the checker caught every planted fault)\n");
	return 0;
}

/* ---- main ------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: crashwl run DIR SEED [-t SECONDS] [-n OPS] [-m MARKCMD]\n"
		"       crashwl check DIR LOGFILE [-u UPTO] [-w WINDOW] [-v]\n"
		"       crashwl selftest DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *markcmd = NULL;
	uint32_t upto = UINT32_MAX;
	double secs = 0;
	long ops = -1;
	int win = 2, o;

	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "selftest"))
		return selftest(argv[2]);
	if (argc < 4)
		usage();
	optind = 4;
	while ((o = getopt(argc, argv, "t:n:m:u:w:v")) != -1) {
		switch (o) {
		case 't': secs = atof(optarg); break;
		case 'n': ops = atol(optarg); break;
		case 'm': markcmd = optarg; break;
		case 'u': upto = strtoul(optarg, NULL, 0); break;
		case 'w':
			win = atoi(optarg);
			if (win < 0 || win > MAXWIN)
				die("-w must be 0..%d", MAXWIN);
			break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (!strcmp(argv[1], "run"))
		return run(argv[2], strtoul(argv[3], NULL, 0), secs, ops, markcmd, stdout);
	if (!strcmp(argv[1], "check"))
		return check(argv[2], argv[3], upto, win);
	usage();
	return 2;
}
