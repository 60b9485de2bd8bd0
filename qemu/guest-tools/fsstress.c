// SPDX-License-Identifier: GPL-2.0
/*
 * fsstress - N processes racing seeded random namespace and data operations
 * in ONE shared directory tree, then a consistency walk of that tree.
 *
 *   fsstress -d DIR -p NPROC -n OPS [-s SEED] [-w WEIGHTS] [-v]
 *                                  run, then walk DIR
 *   fsstress check DIR [-s SEED]   walk DIR only
 *   fsstress selftest DIR          prove the walk on planted faults (DIR new)
 *
 * (Written for this project, in the spirit of xfstests' fsstress; no code
 * from it.)
 *
 * The tree.  Every process works below DIR (created if missing) on the
 * same small pool of names: directory names d0..d2 and file names f0..f4
 * in each directory, at most 3 directory levels deep, so the processes
 * really collide on the same names and directories.  (A rename never
 * moves anything deeper than it was and directories keep directory names,
 * so every directory stays within reach and the tree stays bounded; only
 * a parent renamed while an operation runs lets a subtree sink a level.)
 * Operations (weights in ops[] below): creat, mkdir, rmdir, link, unlink,
 * symlink; rename of a file over a file, of a directory over an empty or a
 * full directory, across parents, into its own subtree, of a file onto a
 * directory name (over a directory, EISDIR; later a directory onto it,
 * ENOTDIR); renameat2 RENAME_NOREPLACE and RENAME_EXCHANGE when the
 * filesystem accepts them (probed first: one that answers EINVAL gets them
 * counted as "skip", reported, not failed); write (pwrite of whole blocks,
 * sometimes creating the file, sometimes followed by fsync or fdatasync);
 * mmap write (MAP_SHARED, extending the file first with ftruncate when
 * needed, msync sometimes; the SIGBUS of a racing truncate is caught and
 * counted); truncate (to block-aligned and unaligned sizes, up and down,
 * across the inode's direct addresses into direct and indirect node
 * blocks); fsync and fdatasync of files and directories; a verifying read
 * of a block range; getdents with small random buffers (entries checked
 * for valid names, some stat-ed); stat and lstat; sync.  Each process also
 * holds one file open across operations ("hold"), so writes, truncates
 * and fsyncs hit files other processes have unlinked (orphans).  -w
 * OP=N,... changes weights (0 leaves an operation out), -w only=OP,OP,...
 * keeps only those; with -p 1 a run is one deterministic sequence, so
 * "-n K" replays its first K operations (bisecting a finding).

 * Errors.  The errors a race explains (ENOENT, ENOTDIR, EEXIST, ENOTEMPTY,
 * EISDIR, EINVAL from rename, EPERM from link of a directory, EMLINK, a
 * SIGBUS in an mmap write) are counted per operation where that operation
 * can meet them.  ENOSPC counts as expected only when statvfs() agrees the
 * filesystem is nearly full (less than 10% of blocks or 256 inodes free).
 * Anything else (EIO, EUCLEAN, ESTALE, EFAULT, a wrong errno for the
 * operation, a read that finds a bad block, a child killed by a signal) is
 * printed at once as "fsstress: UNEXPECTED ..." and makes the exit status 1.
 *
 * Blocks.  Every write stores whole, 4 KiB-aligned, self-describing blocks:
 * a 32-byte header (magic "FSSTRESS", the file's inode number, the block's
 * byte offset in the file, the run's seed, an FNV-1a checksum of the
 * payload) and a payload that is a PRNG stream keyed by (seed, inode,
 * offset).  All writers of a block therefore write the same bytes, so
 * every byte a correct filesystem can return is either that byte or zero
 * (holes, truncation, a write racing a truncate): a block passes when each
 * byte is the expected one or 0.  Another file's block, a block from
 * another offset, stale or garbage data fail.  (A file's identity is its
 * inode number, which renames and links keep; a reused inode number is
 * not told apart from its predecessor.)
 *
 * The walk (after all processes have exited, or alone with "check"):
 *  - every directory: "." and ".." present, ".." naming its parent; every
 *    getdents entry lstat-able, with the entry's inode number and d_type
 *    matching lstat, names valid and unique; st_nlink == 2 + its number of
 *    subdirectories; no directory reached twice;
 *  - every non-directory: st_nlink == the number of names the walk found;
 *  - every regular file read to its end (the bytes read == st_size), every
 *    block passing the rule above for this inode at this offset (with
 *    check and no -s, the seed is taken from each block's header);
 *  - every symlink readable, its target the self-checking string written
 *    ("nowhere-<fnv32>/<payload>", its length st_size).
 * Each finding is printed as "fsstress: WALK: ...".
 *
 * selftest: makes a small tree in DIR (which must not exist), which the
 * walk must pass, then plants one fault at a time (garbage in a block,
 * another file's block, a block of the same file from another offset, a
 * block of another seed, another file's block in a hole, one flipped byte, a hard link
 * from outside the tree, a stray name, a symlink failing its checksum),
 * each of which the walk must report, and undoes it; exit 0 when every
 * fault was caught and the clean tree passed.
 *
 * Output: the seed and a replay command line first; per-operation counts
 * of successes and of each expected error at the end; the walk's counts;
 * last, one line "fsstress: OK ..." or "fsstress: FAIL ...".  A progress
 * line ("N of M operations done after T s") every minute.  -v prints
 * every operation and its result.  Exit status: 0 clean, 1 unexpected
 * errors or walk findings, 2 usage or setup errors.  Each process's
 * operations and paths are a function of (SEED, its index) only, so a
 * seed replays the same operations; what races with what depends on
 * scheduling.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BS		4096
#define NDNAMES		3	/* d0..d2 */
#define NFNAMES		5	/* f0..f4 */
#define MAXDEPTH	3	/* directory levels an operation addresses */
#define MAGIC		"FSSTRESS"
#define HDR		32
#define MAXREPORT	50	/* printed unexpected errors per process */
#define MAXWALKMSG	200	/* printed walk findings */
#define MAXNEST		256	/* walk recursion limit (a directory loop) */

/* ---- random numbers ------------------------------------------------------ */

struct rng {
	uint64_t s;
};

static uint64_t next64(struct rng *r)
{
	uint64_t x = r->s += 0x9E3779B97F4A7C15ull;

	x = (x ^ x >> 30) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ x >> 27) * 0x94D049BB133111EBull;
	return x ^ x >> 31;
}

static uint32_t rn(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(next64(r) % n) : 0;
}

/* ---- self-describing blocks ---------------------------------------------- */

struct bhdr {
	char magic[8];
	uint64_t ino;
	uint64_t off;
	uint32_t seed;
	uint32_t sum;		/* FNV-1a of the payload */
};

static uint32_t fnv32(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* The one content a block at byte offset OFF of inode INO may have. */
static void make_block(uint8_t *buf, uint32_t seed, uint64_t ino, uint64_t off)
{
	struct rng r = { ((uint64_t)seed << 32) ^ ino * 0xD6E8FEB86659FD93ull ^ off };
	struct bhdr h;
	size_t i;

	for (i = HDR; i < BS; i += 8) {
		uint64_t v = next64(&r);

		memcpy(buf + i, &v, 8);
	}
	memcpy(h.magic, MAGIC, 8);
	h.ino = ino;
	h.off = off;
	h.seed = seed;
	h.sum = fnv32(buf + HDR, BS - HDR);
	memcpy(buf, &h, HDR);
}

static int all_zero(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/*
 * Check block GOT (N bytes, N < BS only at the end of the file) read at
 * OFF of INO.  SEED 0: take it from the block's own header.  Returns 0 when
 * every byte is the expected one or zero, else writes a description to WHY.
 */
static int check_block(const uint8_t *got, size_t n, uint64_t ino, uint64_t off,
		       uint32_t seed, char *why, size_t whylen)
{
	uint8_t exp[BS];
	struct bhdr h;
	size_t i;

	if (all_zero(got, n))
		return 0;
	memset(&h, 0, sizeof(h));
	memcpy(&h, got, HDR < n ? HDR : n);
	if (!seed)
		seed = (n >= HDR && !memcmp(h.magic, MAGIC, 8)) ? h.seed : 0;
	make_block(exp, seed, ino, off);
	for (i = 0; i < n; i++)
		if (got[i] && got[i] != exp[i])
			break;
	if (i == n)
		return 0;
	if (n < HDR || memcmp(h.magic, MAGIC, 8))
		snprintf(why, whylen, "garbage (no stamp; byte %zu is 0x%02x, expected 0x%02x or 0)",
			 i, got[i], exp[i]);
	else if (h.ino != ino || h.off != off)
		snprintf(why, whylen, "a block stamped for ino %llu offset %llu (seed %u)",
			 (unsigned long long)h.ino, (unsigned long long)h.off, h.seed);
	else if (h.seed != seed)
		snprintf(why, whylen, "a block of seed %u, not %u", h.seed, seed);
	else
		snprintf(why, whylen, "damaged payload (byte %zu is 0x%02x, expected 0x%02x or 0; checksum %s)",
			 i, got[i], exp[i],
			 h.sum == fnv32(got + HDR, BS - HDR) ? "ok" : "bad");
	return 1;
}

/* ---- operations ------------------------------------------------------------ */

/* Outcome columns: success, each expected errno, and the rest. */
enum {
	C_OK, C_ENOENT, C_ENOTDIR, C_EEXIST, C_ENOTEMPTY, C_EISDIR, C_EINVAL,
	C_EPERM, C_EMLINK, C_ENOSPC, C_SIGBUS, C_SKIP, C_UNEXP, NCOL
};
static const char *colname[NCOL] = {
	"ok", "ENOENT", "ENOTDIR", "EEXIST", "ENOTEMPTY", "EISDIR", "EINVAL",
	"EPERM", "EMLINK", "ENOSPC", "SIGBUS", "skip", "UNEXPECTED"
};
static const int colerr[NCOL] = {
	0, ENOENT, ENOTDIR, EEXIST, ENOTEMPTY, EISDIR, EINVAL, EPERM, EMLINK,
	ENOSPC, -1, -1, -1
};
#define B(c)	(1u << (c))
#define PATHE	(B(C_ENOENT) | B(C_ENOTDIR))
#define RENE	(PATHE | B(C_EEXIST) | B(C_ENOTEMPTY) | B(C_EISDIR) | B(C_EINVAL))

enum {
	OP_CREAT, OP_MKDIR, OP_RMDIR, OP_LINK, OP_UNLINK, OP_SYMLINK, OP_RENAME,
	OP_NOREPLACE, OP_EXCHANGE, OP_WRITE, OP_MMAPW, OP_TRUNC, OP_FSYNC,
	OP_FDATASYNC, OP_READ, OP_GETDENTS, OP_STAT, OP_HOLD, OP_SYNC, OP_NR
};

struct proc;
typedef void (*op_fn)(struct proc *p, struct rng *r);

struct opdesc {
	const char *name;
	int weight;
	unsigned int expected;	/* columns a race explains */
};

static struct opdesc ops[OP_NR] = {
	[OP_CREAT]	= { "creat",	  6, PATHE | B(C_EEXIST) | B(C_EISDIR) },
	[OP_MKDIR]	= { "mkdir",	  6, PATHE | B(C_EEXIST) },
	[OP_RMDIR]	= { "rmdir",	  4, PATHE | B(C_ENOTEMPTY) },
	[OP_LINK]	= { "link",	  5, PATHE | B(C_EEXIST) | B(C_EPERM) | B(C_EMLINK) },
	[OP_UNLINK]	= { "unlink",	  6, PATHE | B(C_EISDIR) },
	[OP_SYMLINK]	= { "symlink",	  3, PATHE | B(C_EEXIST) },
	[OP_RENAME]	= { "rename",	 10, RENE },
	[OP_NOREPLACE]	= { "rename_noreplace", 2, RENE },
	[OP_EXCHANGE]	= { "rename_exchange",	3, RENE },
	[OP_WRITE]	= { "write",	 12, PATHE | B(C_EISDIR) },
	[OP_MMAPW]	= { "mmap_write", 5, PATHE | B(C_EISDIR) | B(C_SIGBUS) },
	[OP_TRUNC]	= { "truncate",	  6, PATHE | B(C_EISDIR) },
	[OP_FSYNC]	= { "fsync",	  3, PATHE },
	[OP_FDATASYNC]	= { "fdatasync",  2, PATHE },
	[OP_READ]	= { "read",	  5, PATHE },
	[OP_GETDENTS]	= { "getdents",	  5, PATHE },
	[OP_STAT]	= { "stat",	  6, PATHE },
	[OP_HOLD]	= { "hold",	  2, PATHE | B(C_EISDIR) },
	[OP_SYNC]	= { "sync",	  1, 0 },
};

static uint32_t seed;
static int verbose, nproc;
static uint64_t (*counts)[OP_NR][NCOL];	/* shared with the children */
static int has_noreplace = 1, has_exchange = 1;

struct proc {
	int idx;
	uint64_t opno;
	int op;
	char desc[2 * PATH_MAX + 64];
	int held;		/* the file held open across operations, or -1 */
	char heldpath[PATH_MAX];
	int reported;
	uint8_t buf[16 * BS];
};

/* Is there room?  ENOSPC is expected only when statvfs says there is not. */
static int room_left(void)
{
	struct statvfs v;

	if (statvfs(".", &v))
		return 0;
	return v.f_bavail > v.f_blocks / 10 && v.f_ffree > 256;
}

static void unexpected(struct proc *p, const char *fmt, ...)
{
	va_list ap;

	counts[p->idx][p->op][C_UNEXP]++;
	if (++p->reported > MAXREPORT)
		return;
	fprintf(stderr, "fsstress: UNEXPECTED: p%d op %llu %s: ", p->idx,
		(unsigned long long)p->opno, p->desc);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", p->reported == MAXREPORT ? " (no more reports from this process)" : "");
}

/* Count the outcome of the current operation: ERR 0, an errno, or -1 SIGBUS. */
static void result(struct proc *p, int err)
{
	int c;

	if (err == 0) {
		c = C_OK;
	} else if (err == -1) {
		c = C_SIGBUS;
	} else {
		for (c = C_ENOENT; c < NCOL; c++)
			if (colerr[c] == err)
				break;
		if (c == C_ENOSPC && !room_left()) {
			counts[p->idx][p->op][C_ENOSPC]++;
			goto out;
		}
		if (c == NCOL || !(ops[p->op].expected & B(c))) {
			unexpected(p, "%s (errno %d)%s", strerror(err), err,
				   err == ENOSPC ? " while statvfs shows room" : "");
			goto out;
		}
	}
	if (c == C_SIGBUS && !(ops[p->op].expected & B(c))) {
		unexpected(p, "SIGBUS");
		goto out;
	}
	counts[p->idx][p->op][c]++;
out:
	if (verbose)
		printf("p%d #%llu %s -> %s\n", p->idx, (unsigned long long)p->opno, p->desc,
		       err == 0 ? "ok" : err == -1 ? "SIGBUS" : strerror(err));
}

/* A relative path: up to MAXDEPTH directory names, then a name of CLS. */
enum { N_DIR, N_FILE, N_ANY };

static int gen_depth(struct rng *r)
{
	static const int depthw[MAXDEPTH + 1] = { 30, 35, 25, 10 };
	int d = 0, x = (int)rn(r, 100);

	while (d < MAXDEPTH && x >= depthw[d])
		x -= depthw[d++];
	return d;
}

/* D directory names, then a name of class CLS. */
static char *gen_at(struct rng *r, char *buf, int cls, int d)
{
	int i, len = 0;

	for (i = 0; i < d; i++)
		len += sprintf(buf + len, "d%u/", rn(r, NDNAMES));
	if (cls == N_ANY)
		cls = rn(r, 10) < 3 ? N_DIR : N_FILE;
	if (cls == N_DIR)
		sprintf(buf + len, "d%u", rn(r, NDNAMES));
	else
		sprintf(buf + len, "f%u", rn(r, NFNAMES));
	return buf;
}

static char *gen_path(struct rng *r, char *buf, int cls)
{
	return gen_at(r, buf, cls, gen_depth(r));
}

/* Mostly CLS, sometimes (1 in 10) a name of the other class. */
static char *gen_mostly(struct rng *r, char *buf, int cls)
{
	if (rn(r, 10) == 0)
		cls = cls == N_DIR ? N_FILE : N_DIR;
	return gen_path(r, buf, cls);
}

/* Block offsets: the inode's direct addresses, then direct and indirect node blocks. */
static uint64_t gen_block(struct rng *r)
{
	uint32_t x = rn(r, 20);

	if (x < 16)
		return rn(r, 16);
	if (x < 19)
		return 900 + rn(r, 60);	/* around the end of the inode's 923 addresses */
	return 2930 + rn(r, 60);	/* around the first indirect node (block 2959) */
}

static int fill_blocks(struct proc *p, int fd, uint64_t blk, int n)
{
	struct stat st;
	int i;

	if (fstat(fd, &st))
		return errno;
	for (i = 0; i < n; i++)
		make_block(p->buf + i * BS, seed, st.st_ino, (blk + i) * BS);
	return 0;
}

static void op_creat(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	int flags = O_CREAT | O_WRONLY, fd;

	gen_mostly(r, path, N_FILE);
	if (rn(r, 4) == 0)
		flags |= O_EXCL;
	if (rn(r, 8) == 0)
		flags |= O_TRUNC;
	snprintf(p->desc, sizeof(p->desc), "creat %s%s%s", path,
		 flags & O_EXCL ? " O_EXCL" : "", flags & O_TRUNC ? " O_TRUNC" : "");
	fd = open(path, flags, 0644);
	result(p, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
}

/* mkdir, rmdir, unlink: one name, one system call (mkdir: directory names only). */
static void op_name(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	int err;

	if (p->op == OP_MKDIR)
		gen_path(r, path, N_DIR);
	else
		gen_mostly(r, path, p->op == OP_RMDIR ? N_DIR : N_FILE);
	snprintf(p->desc, sizeof(p->desc), "%s %s", ops[p->op].name, path);
	err = p->op == OP_MKDIR ? mkdir(path, 0755) : p->op == OP_RMDIR ? rmdir(path) : unlink(path);
	result(p, err ? errno : 0);
}

static void op_link(struct proc *p, struct rng *r)
{
	char from[PATH_MAX], to[PATH_MAX];

	gen_mostly(r, from, N_FILE);
	gen_path(r, to, N_FILE);
	snprintf(p->desc, sizeof(p->desc), "link %s %s", from, to);
	result(p, link(from, to) ? errno : 0);
}

/*
 * A symlink target that checks itself: "nowhere-<fnv32 of payload>/<payload>",
 * the payload with a '/' every 64 characters.  It never resolves (no
 * "nowhere-*" directory exists), so a creat through the link fails too.
 */
static void op_symlink(struct proc *p, struct rng *r)
{
	char path[PATH_MAX], target[3200];
	uint32_t x = rn(r, 20), len, i;
	int hl;

	gen_path(r, path, N_FILE);
	len = x < 14 ? 1 + rn(r, 40) : x < 19 ? 41 + rn(r, 360) : 401 + rn(r, 2600);
	hl = sprintf(target, "nowhere-%08x/", 0u);
	for (i = 0; i < len; i++)
		target[hl + i] = i % 64 == 63 ? '/' : "abcdefghijklmnopqrstuvwxyz0123456789"[rn(r, 36)];
	target[hl + len] = 0;
	sprintf(target, "nowhere-%08x", fnv32(target + hl, len));
	target[hl - 1] = '/';
	snprintf(p->desc, sizeof(p->desc), "symlink %s (target of %u bytes)", path, hl + len);
	result(p, symlink(target, path) ? errno : 0);
}

static void op_rename(struct proc *p, struct rng *r)
{
	static const char *fl[] = { "rename", "rename_noreplace", "rename_exchange" };
	char from[PATH_MAX], to[PATH_MAX], sub[64];
	unsigned int flags = 0;
	int k = 0, cls, dfrom, dto;

	if (p->op == OP_NOREPLACE)
		k = 1, flags = RENAME_NOREPLACE;
	else if (p->op == OP_EXCHANGE)
		k = 2, flags = RENAME_EXCHANGE;
	/*
	 * A name onto a name of the same class; 1 in 5 a file name onto a
	 * directory name (over a directory: EISDIR; a directory onto a file
	 * there: ENOTDIR); 1 in 10 into the source's own subtree (EINVAL for
	 * a directory).  Directories keep directory names (mkdir makes only
	 * those, an exchange swaps names of one class), and a target is never
	 * deeper than its source (an exchange: as deep), so every directory
	 * stays where operations reach it and the tree stays bounded.
	 */
	cls = rn(r, 10) < 4 ? N_DIR : N_FILE;
	dfrom = gen_depth(r);
	gen_at(r, from, cls, dfrom);
	if (cls == N_FILE && k != 2 && rn(r, 5) == 0)
		cls = N_DIR;
	dto = gen_depth(r);
	if (rn(r, 10) == 0)
		snprintf(to, sizeof(to), "%.2000s/%.50s", from, gen_at(r, sub, cls, (int)rn(r, 2)));
	else
		gen_at(r, to, cls, k == 2 ? dfrom : dto < dfrom ? dto : dfrom);
	snprintf(p->desc, sizeof(p->desc), "%s %s %s", fl[k], from, to);
	if ((k == 1 && !has_noreplace) || (k == 2 && !has_exchange)) {
		counts[p->idx][p->op][C_SKIP]++;
		return;
	}
	if (flags)
		result(p, renameat2(AT_FDCWD, from, AT_FDCWD, to, flags) ? errno : 0);
	else
		result(p, rename(from, to) ? errno : 0);
}

/* The held file (1 in 4) or PATH opened with FLAGS; *own: close it after. */
static int open_or_held(struct proc *p, struct rng *r, const char *path, int flags, int *own)
{
	if (p->held >= 0 && rn(r, 4) == 0) {
		*own = 0;
		snprintf(p->desc + strlen(p->desc), sizeof(p->desc) - strlen(p->desc),
			 " (held fd of %s)", p->heldpath);
		return p->held;
	}
	*own = 1;
	return open(path, flags, 0644);
}

static void op_write(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	uint64_t blk = gen_block(r);
	int n = 1 + (int)rn(r, blk < 16 ? 8 : 3), creat = rn(r, 4) == 0;
	int sync = (int)rn(r, 8), fd, own, err;
	ssize_t done = 0, w;

	gen_path(r, path, N_FILE);
	snprintf(p->desc, sizeof(p->desc), "write %s blocks %llu+%d%s%s", path,
		 (unsigned long long)blk, n, creat ? " O_CREAT" : "",
		 sync == 0 ? " +fsync" : sync == 1 ? " +fdatasync" : "");
	fd = open_or_held(p, r, path, O_WRONLY | (creat ? O_CREAT : 0), &own);
	if (fd < 0) {
		result(p, errno);
		return;
	}
	err = fill_blocks(p, fd, blk, n);
	while (!err && done < n * BS) {
		w = pwrite(fd, p->buf + done, n * BS - done, blk * BS + done);
		if (w < 0)
			err = errno;
		else if (w == 0)
			err = EIO;
		else
			done += w;
	}
	if (!err && sync == 0 && fsync(fd))
		err = errno;
	if (!err && sync == 1 && fdatasync(fd))
		err = errno;
	result(p, err);
	if (own)
		close(fd);
}

static sigjmp_buf bus_jmp;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	(void)sig;
	if (bus_armed)
		siglongjmp(bus_jmp, 1);
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

static void op_mmapw(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	uint64_t blk = gen_block(r);
	int n = 1 + (int)rn(r, 4), do_msync = rn(r, 4) == 0, fd, own, err = 0;
	struct stat st;
	uint8_t *map;

	gen_path(r, path, N_FILE);
	snprintf(p->desc, sizeof(p->desc), "mmap_write %s blocks %llu+%d%s", path,
		 (unsigned long long)blk, n, do_msync ? " +msync" : "");
	fd = open_or_held(p, r, path, O_RDWR, &own);
	if (fd < 0) {
		result(p, errno);
		return;
	}
	if (fstat(fd, &st))
		err = errno;
	else if ((off_t)((blk + n) * BS) > st.st_size && ftruncate(fd, (blk + n) * BS))
		err = errno;
	if (!err)
		err = fill_blocks(p, fd, blk, n);
	if (err) {
		result(p, err);
		goto out;
	}
	map = mmap(NULL, n * BS, PROT_READ | PROT_WRITE, MAP_SHARED, fd, blk * BS);
	if (map == MAP_FAILED) {
		result(p, errno);
		goto out;
	}
	if (sigsetjmp(bus_jmp, 1) == 0) {
		bus_armed = 1;
		memcpy(map, p->buf, n * BS);
		bus_armed = 0;
		if (do_msync && msync(map, n * BS, MS_SYNC))
			err = errno;
	} else {
		bus_armed = 0;
		err = -1;	/* a truncate raced us */
	}
	munmap(map, n * BS);
	result(p, err);
out:
	if (own)
		close(fd);
}

static void op_trunc(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	uint32_t x = rn(r, 20);
	off_t size;
	int fd, own, err = 0;

	gen_mostly(r, path, N_FILE);
	if (x < 8)
		size = (off_t)rn(r, 17) * BS;
	else if (x < 12)
		size = rn(r, 16 * BS);
	else if (x < 15)
		size = 0;
	else if (x < 19)
		size = (off_t)(900 + rn(r, 60)) * BS + (rn(r, 2) ? rn(r, BS) : 0);
	else
		size = (off_t)(2930 + rn(r, 60)) * BS;
	snprintf(p->desc, sizeof(p->desc), "truncate %s %lld", path, (long long)size);
	fd = open_or_held(p, r, path, O_WRONLY, &own);
	if (fd < 0)
		err = errno;
	else if (ftruncate(fd, size))
		err = errno;
	result(p, err);
	if (fd >= 0 && own)
		close(fd);
}

static void op_fsync(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	int fd, own, err = 0, data = p->op == OP_FDATASYNC;

	gen_path(r, path, N_ANY);
	snprintf(p->desc, sizeof(p->desc), "%s %s", data ? "fdatasync" : "fsync", path);
	fd = open_or_held(p, r, path, O_RDONLY, &own);
	if (fd < 0)
		err = errno;
	else if (data ? fdatasync(fd) : fsync(fd))
		err = errno;
	result(p, err);
	if (fd >= 0 && own)
		close(fd);
}

/* Read and check blocks [FIRST, FIRST + N) of FD (all of it: N = -1). */
static int verify_fd(int fd, const char *path, uint64_t ino, uint64_t first, int64_t n,
		     uint32_t want_seed, uint8_t *buf, size_t buflen, off_t *total,
		     void (*report)(void *ctx, const char *msg), void *ctx)
{
	char why[160], msg[PATH_MAX + 300];
	uint64_t off = first * BS, end = n < 0 ? UINT64_MAX : (first + n) * BS;
	int bad = 0;
	ssize_t got, i;

	*total = 0;
	while (off < end) {
		size_t want = buflen;

		if (end - off < want)
			want = end - off;
		got = pread(fd, buf, want, off);
		if (got < 0)
			return -errno;
		if (got == 0)
			break;
		for (i = 0; i < got; i += BS) {
			size_t len = got - i < BS ? got - i : BS;

			if (check_block(buf + i, len, ino, off + i, want_seed, why, sizeof(why))) {
				bad++;
				snprintf(msg, sizeof(msg), "%s (ino %llu) block at offset %llu: %s",
					 path, (unsigned long long)ino,
					 (unsigned long long)(off + i), why);
				report(ctx, msg);
			}
		}
		off += got;
		*total += got;
		if (got % BS)
			break;
	}
	return bad;
}

static void report_unexpected(void *ctx, const char *msg)
{
	unexpected(ctx, "read found %s", msg);
}

static void op_read(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	uint64_t blk = gen_block(r);
	struct stat st;
	off_t total;
	int fd, err = 0, bad;

	gen_path(r, path, N_FILE);
	snprintf(p->desc, sizeof(p->desc), "read %s blocks %llu+16", path,
		 (unsigned long long)blk);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		result(p, errno);
		return;
	}
	if (fstat(fd, &st)) {
		err = errno;
	} else if (S_ISREG(st.st_mode)) {
		bad = verify_fd(fd, path, st.st_ino, blk, 16, seed, p->buf, sizeof(p->buf),
				&total, report_unexpected, p);
		if (bad < 0)
			err = -bad;
		else if (bad > 0)
			goto out;	/* reported */
	}
	result(p, err);
out:
	close(fd);
}

/* Names this tool makes: d0..d2, f0..f4 (and ".", ".."). */
static int valid_name(const char *n)
{
	if (!strcmp(n, ".") || !strcmp(n, ".."))
		return 1;
	if (n[0] == 'd')
		return n[1] >= '0' && n[1] < '0' + NDNAMES && !n[2];
	if (n[0] == 'f')
		return n[1] >= '0' && n[1] < '0' + NFNAMES && !n[2];
	return 0;
}

static void op_getdents(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	int fd, err = 0, bufsz = 64 + (int)rn(r, 4032), statev = 1 + (int)rn(r, 4);
	long nr, i;
	struct stat st;

	gen_mostly(r, path, N_DIR);
	snprintf(p->desc, sizeof(p->desc), "getdents %s (buffer %d)", path, bufsz);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		result(p, errno);
		return;
	}
	while ((nr = getdents64(fd, p->buf, bufsz)) > 0) {
		for (i = 0; i < nr;) {
			struct dirent64 *de = (void *)(p->buf + i);

			if (!valid_name(de->d_name)) {
				unexpected(p, "getdents returned the name \"%.40s\"", de->d_name);
				goto out;
			}
			/* A racing unlink/rename explains ENOENT here, nothing else. */
			if (rn(r, statev) == 0 &&
			    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && errno != ENOENT) {
				err = errno;
				break;
			}
			i += de->d_reclen;
		}
	}
	if (nr < 0)
		err = errno;
	result(p, err);
out:
	close(fd);
}

static void op_stat(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	struct stat st;
	int follow = rn(r, 2);

	gen_path(r, path, N_ANY);
	snprintf(p->desc, sizeof(p->desc), "%s %s", follow ? "stat" : "lstat", path);
	result(p, (follow ? stat(path, &st) : lstat(path, &st)) ? errno : 0);
}

static void op_hold(struct proc *p, struct rng *r)
{
	char path[PATH_MAX];
	int fd;

	gen_path(r, path, N_FILE);
	snprintf(p->desc, sizeof(p->desc), "hold %s", path);
	fd = open(path, O_RDWR);
	result(p, fd < 0 ? errno : 0);
	if (fd < 0)
		return;
	if (p->held >= 0)
		close(p->held);
	p->held = fd;
	snprintf(p->heldpath, sizeof(p->heldpath), "%s", path);
}

static void op_sync(struct proc *p, struct rng *r)
{
	(void)r;
	snprintf(p->desc, sizeof(p->desc), "sync");
	sync();
	result(p, 0);
}

static const op_fn opfn[OP_NR] = {
	[OP_CREAT] = op_creat, [OP_MKDIR] = op_name, [OP_RMDIR] = op_name,
	[OP_LINK] = op_link, [OP_UNLINK] = op_name, [OP_SYMLINK] = op_symlink,
	[OP_RENAME] = op_rename, [OP_NOREPLACE] = op_rename,
	[OP_EXCHANGE] = op_rename, [OP_WRITE] = op_write, [OP_MMAPW] = op_mmapw,
	[OP_TRUNC] = op_trunc, [OP_FSYNC] = op_fsync, [OP_FDATASYNC] = op_fsync,
	[OP_READ] = op_read, [OP_GETDENTS] = op_getdents, [OP_STAT] = op_stat,
	[OP_HOLD] = op_hold, [OP_SYNC] = op_sync,
};

static void child(int idx, uint64_t nops)
{
	static struct proc p;
	struct rng r = { seed * 0x2545F4914F6CDD1Dull + (uint64_t)idx * 0x9E3779B97F4A7C15ull };
	int total = 0, i;

	for (i = 0; i < OP_NR; i++)
		total += ops[i].weight;
	p.idx = idx;
	p.held = -1;
	for (p.opno = 1; p.opno <= nops; p.opno++) {
		/* One draw picks the operation, one seeds everything it chooses. */
		int x = (int)rn(&r, total);
		struct rng opr = { next64(&r) };

		for (p.op = 0; x >= ops[p.op].weight; p.op++)
			x -= ops[p.op].weight;
		opfn[p.op](&p, &opr);
	}
	if (p.held >= 0)
		close(p.held);
	fflush(stdout);
	_exit(0);
}

/* renameat2 flags: supported unless the filesystem answers EINVAL. */
static void probe_rename_flags(void)
{
	const char *a = ".fsstress-probe-a", *b = ".fsstress-probe-b";
	int fd;

	unlink(a);
	unlink(b);
	if ((fd = open(a, O_CREAT | O_WRONLY, 0644)) >= 0)
		close(fd);
	if ((fd = open(b, O_CREAT | O_WRONLY, 0644)) >= 0)
		close(fd);
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE) == 0 || errno != EEXIST) {
		has_noreplace = 0;
		printf("fsstress: renameat2 RENAME_NOREPLACE not supported (%s): operation skipped\n",
		       strerror(errno));
	}
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)) {
		has_exchange = 0;
		printf("fsstress: renameat2 RENAME_EXCHANGE not supported (%s): operation skipped\n",
		       strerror(errno));
	}
	unlink(a);
	unlink(b);
}

/* ---- the walk ---------------------------------------------------------------- */

struct ent {
	uint64_t ino;
	uint32_t mode;
	uint64_t nlink;
	char *path;
};

static struct ent *ents;
static size_t nents, capents;
static uint64_t findings, w_dirs, w_files, w_symlinks, w_names, w_blocks, w_bytes;
static uint32_t walk_seed;
static int rootfd;

static void finding(const char *fmt, ...)
{
	va_list ap;

	if (++findings > MAXWALKMSG)
		return;
	printf("fsstress: WALK: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void add_ent(uint64_t ino, uint32_t mode, uint64_t nlink, const char *path)
{
	if (nents == capents) {
		capents = capents ? 2 * capents : 1024;
		ents = realloc(ents, capents * sizeof(*ents));
		if (!ents) {
			perror("fsstress: realloc");
			exit(2);
		}
	}
	ents[nents].ino = ino;
	ents[nents].mode = mode;
	ents[nents].nlink = nlink;
	ents[nents].path = strdup(path);
	nents++;
}

static int dt_of(mode_t m)
{
	return S_ISDIR(m) ? DT_DIR : S_ISREG(m) ? DT_REG : S_ISLNK(m) ? DT_LNK :
	       S_ISCHR(m) ? DT_CHR : S_ISBLK(m) ? DT_BLK : S_ISFIFO(m) ? DT_FIFO :
	       S_ISSOCK(m) ? DT_SOCK : DT_UNKNOWN;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk directory FD (PATH, relative to the root; "." for the root). */
static void walk_dir(int fd, const char *path, uint64_t parent_ino, int nest)
{
	struct stat dst, st;
	DIR *d;
	struct dirent *de;
	char **names = NULL, child[PATH_MAX];
	size_t nn = 0, capn = 0, i;
	uint64_t subdirs = 0;
	int dot = 0, dotdot = 0;

	if (fstat(fd, &dst)) {
		finding("%s: fstat: %s", path, strerror(errno));
		close(fd);
		return;
	}
	w_dirs++;
	add_ent(dst.st_ino, dst.st_mode, dst.st_nlink, path);
	if (nest > MAXNEST) {
		finding("%s: nested more than %d deep (a directory loop?)", path, MAXNEST);
		close(fd);
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		finding("%s: opendir: %s", path, strerror(errno));
		close(fd);
		return;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".")) {
			dot++;
			if (de->d_ino != dst.st_ino)
				finding("%s: \".\" names ino %llu, the directory is ino %llu",
					path, (unsigned long long)de->d_ino,
					(unsigned long long)dst.st_ino);
			continue;
		}
		if (!strcmp(de->d_name, "..")) {
			dotdot++;
			if (de->d_ino != parent_ino)
				finding("%s: \"..\" names ino %llu, the parent is ino %llu",
					path, (unsigned long long)de->d_ino,
					(unsigned long long)parent_ino);
			continue;
		}
		if (nn == capn) {
			capn = capn ? 2 * capn : 32;
			names = realloc(names, capn * sizeof(*names));
			if (!names) {
				perror("fsstress: realloc");
				exit(2);
			}
		}
		names[nn++] = strdup(de->d_name);
		snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
		w_names++;
		if (!valid_name(de->d_name))
			finding("%s: unexpected name (not made by fsstress)", child);
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			finding("%s: getdents lists it, lstat fails: %s", child, strerror(errno));
			continue;
		}
		if (de->d_ino != st.st_ino)
			finding("%s: getdents says ino %llu, lstat ino %llu", child,
				(unsigned long long)de->d_ino, (unsigned long long)st.st_ino);
		if (de->d_type != DT_UNKNOWN && de->d_type != dt_of(st.st_mode))
			finding("%s: getdents says type %d, lstat mode 0%o", child,
				de->d_type, st.st_mode);
		if (S_ISDIR(st.st_mode)) {
			int cfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			subdirs++;
			if (cfd < 0)
				finding("%s: open: %s", child, strerror(errno));
			else
				walk_dir(cfd, child, dst.st_ino, nest + 1);
		} else {
			add_ent(st.st_ino, st.st_mode, st.st_nlink, child);
		}
	}
	if (errno)
		finding("%s: readdir: %s", path, strerror(errno));
	if (dot != 1 || dotdot != 1)
		finding("%s: %d \".\" and %d \"..\" entries", path, dot, dotdot);
	qsort(names, nn, sizeof(*names), cmp_str);
	for (i = 1; i < nn; i++)
		if (!strcmp(names[i], names[i - 1]))
			finding("%s: name %s listed twice", path, names[i]);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	if (dst.st_nlink != 2 + subdirs)
		finding("%s: directory ino %llu has st_nlink %llu, expected %llu (2 + %llu subdirectories)",
			path, (unsigned long long)dst.st_ino, (unsigned long long)dst.st_nlink,
			(unsigned long long)(2 + subdirs), (unsigned long long)subdirs);
	closedir(d);
}

static void report_finding(void *ctx, const char *msg)
{
	(void)ctx;
	finding("%s", msg);
}

static void check_file(const struct ent *e)
{
	static uint8_t buf[256 * BS];
	struct stat st;
	off_t total;
	int fd = openat(rootfd, e->path, O_RDONLY | O_NOFOLLOW), bad;

	w_files++;
	if (fd < 0) {
		finding("%s: open: %s", e->path, strerror(errno));
		return;
	}
	if (fstat(fd, &st)) {
		finding("%s: fstat: %s", e->path, strerror(errno));
		close(fd);
		return;
	}
	bad = verify_fd(fd, e->path, st.st_ino, 0, -1, walk_seed, buf, sizeof(buf), &total,
			report_finding, NULL);
	if (bad < 0)
		finding("%s: read: %s", e->path, strerror(-bad));
	else if (total != st.st_size)
		finding("%s: read %lld bytes to EOF, st_size is %lld", e->path,
			(long long)total, (long long)st.st_size);
	w_blocks += (total + BS - 1) / BS;
	w_bytes += total;
	close(fd);
}

static void check_symlink(const struct ent *e)
{
	char t[PATH_MAX + 1], sum[9];
	struct stat st;
	ssize_t n = readlinkat(rootfd, e->path, t, sizeof(t) - 1);

	w_symlinks++;
	if (n < 0) {
		finding("%s: readlink: %s", e->path, strerror(errno));
		return;
	}
	t[n] = 0;
	if (!fstatat(rootfd, e->path, &st, AT_SYMLINK_NOFOLLOW) && st.st_size != n)
		finding("%s: symlink of %zd bytes, st_size %lld", e->path, n, (long long)st.st_size);
	if (n < 18 || strncmp(t, "nowhere-", 8) || t[16] != '/') {
		finding("%s: symlink target \"%.40s\" is not one fsstress wrote", e->path, t);
		return;
	}
	snprintf(sum, sizeof(sum), "%08x", fnv32(t + 17, n - 17));
	if (memcmp(t + 8, sum, 8))
		finding("%s: symlink target of %zd bytes fails its checksum", e->path, n);
}

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* The consistency walk of DIR; returns the number of findings. */
static uint64_t walk(const char *dir, uint32_t want_seed)
{
	struct stat up, top;
	size_t i, j;
	char updir[PATH_MAX];
	int fd;

	findings = w_dirs = w_files = w_symlinks = w_names = w_blocks = w_bytes = 0;
	nents = 0;
	walk_seed = want_seed;
	snprintf(updir, sizeof(updir), "%s/..", dir);
	rootfd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (rootfd < 0 || fd < 0 || stat(updir, &up) || fstat(fd, &top)) {
		printf("fsstress: cannot open %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	/* The root of a mount is its own parent on disk. */
	walk_dir(fd, ".", up.st_dev == top.st_dev ? up.st_ino : top.st_ino, 0);
	qsort(ents, nents, sizeof(*ents), cmp_ent);
	for (i = 0; i < nents; i = j) {
		for (j = i + 1; j < nents && ents[j].ino == ents[i].ino; j++)
			if (ents[j].mode != ents[i].mode)
				finding("ino %llu: %s has mode 0%o, %s mode 0%o",
					(unsigned long long)ents[i].ino, ents[i].path,
					ents[i].mode, ents[j].path, ents[j].mode);
		if (S_ISDIR(ents[i].mode)) {
			if (j - i > 1)
				finding("directory ino %llu reached %zu times (%s, %s)",
					(unsigned long long)ents[i].ino, j - i, ents[i].path,
					ents[i + 1].path);
			continue;
		}
		if (ents[i].nlink != j - i)
			finding("ino %llu (%s%s): st_nlink %llu, found under %zu name%s",
				(unsigned long long)ents[i].ino, ents[i].path,
				j - i > 1 ? " ..." : "", (unsigned long long)ents[i].nlink,
				j - i, j - i == 1 ? "" : "s");
		if (S_ISREG(ents[i].mode))
			check_file(&ents[i]);
		else if (S_ISLNK(ents[i].mode))
			check_symlink(&ents[i]);
		else
			finding("%s: unexpected file type (mode 0%o)", ents[i].path, ents[i].mode);
	}
	for (i = 0; i < nents; i++)
		free(ents[i].path);
	close(rootfd);
	if (findings > MAXWALKMSG)
		printf("fsstress: WALK: ... %llu findings in all (the first %d shown)\n",
		       (unsigned long long)findings, MAXWALKMSG);
	printf("fsstress: walk of %s: %llu directories, %llu files, %llu symlinks, %llu names; %llu blocks (%llu bytes) read and checked; %llu finding%s\n",
	       dir, (unsigned long long)w_dirs, (unsigned long long)w_files,
	       (unsigned long long)w_symlinks, (unsigned long long)w_names,
	       (unsigned long long)w_blocks, (unsigned long long)w_bytes,
	       (unsigned long long)findings, findings == 1 ? "" : "s");
	return findings;
}

/* ---- selftest: the walk must catch planted faults ---------------------------- */

static int st_failed;

static void die(const char *what)
{
	fprintf(stderr, "fsstress: selftest: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Walk DIR; FAULT NULL: must be clean, else must find something. */
static void st_walk(const char *dir, const char *fault, uint32_t want_seed)
{
	uint64_t f;

	printf("fsstress: selftest: %s\n", fault ? fault : "the clean tree");
	f = walk(dir, want_seed);
	if (fault ? f == 0 : f != 0) {
		printf("fsstress: selftest: FAILED: %s: %llu findings\n",
		       fault ? fault : "the clean tree", (unsigned long long)f);
		st_failed++;
	}
}

static uint64_t ino_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		die(path);
	return st.st_ino;
}

/* Write BUF as block BLK of PATH; the old block goes to SAVE (if not NULL). */
static void st_poke(const char *path, uint64_t blk, const uint8_t *buf, uint8_t *save)
{
	int fd = open(path, O_RDWR);

	if (fd < 0 || (save && pread(fd, save, BS, blk * BS) != BS) ||
	    pwrite(fd, buf, BS, blk * BS) != BS)
		die(path);
	close(fd);
}

/* A file with the stamped blocks BLKS (a list ending in -1), then SIZE bytes. */
static void st_file(const char *path, const int *blks, off_t size)
{
	uint8_t buf[BS];
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);

	if (fd < 0)
		die(path);
	for (; *blks >= 0; blks++) {
		make_block(buf, seed, ino_of(path), (uint64_t)*blks * BS);
		if (pwrite(fd, buf, BS, (off_t)*blks * BS) != BS)
			die(path);
	}
	if (ftruncate(fd, size))
		die(path);
	close(fd);
}

static int selftest(const char *dir)
{
	static const int b0[] = { 0, 1, 2, 3, -1 }, b1[] = { 0, 1, -1 }, b4[] = { 0, 3, -1 };
	uint8_t blk[BS], save[BS];
	char abs[PATH_MAX], outside[PATH_MAX + 32];
	const char *good = "nowhere-00000000/abc";
	char target[64];

	if (!seed)
		seed = 12345;
	if (mkdir(dir, 0755) || !realpath(dir, abs) || chdir(dir))
		die(dir);	/* DIR must not exist yet */
	snprintf(outside, sizeof(outside), "%s.outside", abs);
	/* f0: 4 blocks; f1: 2; f4: blocks 0 and 3, a hole, an unaligned end; d0/f3 = f0; f2 a symlink */
	st_file("f0", b0, 4 * BS);
	st_file("f1", b1, 2 * BS);
	st_file("f4", b4, 5 * BS + 100);
	snprintf(target, sizeof(target), "nowhere-%08x/abc", fnv32("abc", 3));
	if (mkdir("d0", 0755) || link("f0", "d0/f3") || symlink(target, "f2"))
		die("setup");
	st_walk(abs, NULL, seed);
	st_walk(abs, NULL, 0);

	memset(blk, 0xa5, BS);
	st_poke("f0", 1, blk, save);
	st_walk(abs, "garbage in block 1 of f0", seed);
	st_poke("f0", 1, save, NULL);

	make_block(blk, seed, ino_of("f1"), 0);
	st_poke("f0", 0, blk, save);
	st_walk(abs, "f1's block 0 as block 0 of f0", seed);
	st_poke("f0", 0, save, NULL);

	make_block(blk, seed, ino_of("f0"), 1 * BS);
	st_poke("f0", 2, blk, save);
	st_walk(abs, "f0's block 1 as its block 2", seed);
	st_poke("f0", 2, save, NULL);

	make_block(blk, seed + 1, ino_of("f0"), 3 * BS);
	st_poke("f0", 3, blk, save);
	st_walk(abs, "block 3 of f0 from another seed", seed);
	st_poke("f0", 3, save, NULL);

	make_block(blk, seed, ino_of("f1"), 1 * BS);
	st_poke("f4", 1, blk, save);
	st_walk(abs, "f1's block 1 in the hole at block 1 of f4 (walk with seeds from the blocks)", 0);
	st_poke("f4", 1, save, NULL);

	make_block(blk, seed, ino_of("f4"), 3 * BS);
	blk[2000] ^= 0x55;
	st_poke("f4", 3, blk, save);
	st_walk(abs, "one byte of f4's block 3 flipped", seed);
	st_poke("f4", 3, save, NULL);

	if (link("f1", outside))
		die(outside);
	st_walk(abs, "f1 hard-linked from outside the tree (st_nlink 2, one name)", seed);
	unlink(outside);

	st_file("zz", b1 + 2, 0);
	st_walk(abs, "a name fsstress does not make", seed);
	unlink("zz");

	if (unlink("f2") || symlink(good, "f2"))
		die("f2");
	st_walk(abs, "a symlink whose target fails its checksum", seed);
	if (unlink("f2") || symlink(target, "f2"))
		die("f2");

	st_walk(abs, NULL, seed);
	printf("fsstress: selftest: %s: %d of 12 walks wrong (3 of the clean tree, 9 with a planted fault)\n",
	       st_failed ? "FAIL" : "OK", st_failed);
	return st_failed ? 1 : 0;
}

/* ---- main ---------------------------------------------------------------- */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void usage(void)
{
	int i;

	fprintf(stderr,
		"usage: fsstress -d DIR -p NPROC -n OPS_PER_PROC [-s SEED] [-w OP=N,...] [-v]\n"
		"       fsstress check DIR [-s SEED]\n"
		"       fsstress selftest DIR\n"
		"  run NPROC processes of OPS_PER_PROC seeded random operations in one\n"
		"  tree under DIR, then walk it; check only walks (see the source's\n"
		"  top comment).  -w sets operation weights (0 leaves one out; -w\n"
		"  only=rename,mkdir keeps just those, at their default weights).\n"
		"  Operations (default weight):");
	for (i = 0; i < OP_NR; i++)
		fprintf(stderr, "%s %s(%d)", i % 6 ? "" : "\n   ", ops[i].name, ops[i].weight);
	fprintf(stderr, "\n  Exit 0 clean, 1 problems found, 2 usage.\n");
	exit(2);
}

static int op_index(const char *name, size_t len)
{
	int i;

	for (i = 0; i < OP_NR; i++)
		if (strlen(ops[i].name) == len && !strncmp(ops[i].name, name, len))
			return i;
	fprintf(stderr, "fsstress: -w: no operation '%.*s'\n", (int)len, name);
	usage();
	return -1;
}

static unsigned long num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || v > max) {
		fprintf(stderr, "fsstress: bad number '%s'\n", s);
		usage();
	}
	return v;
}

/* -w OP=N,... or -w only=OP,OP...: the weights of the operation mix. */
static char weights_arg[256];

static void set_weights(const char *arg)
{
	const char *p = arg, *e, *eq;
	int keep[OP_NR] = { 0 }, only = !strncmp(arg, "only=", 5), i, total = 0;

	snprintf(weights_arg, sizeof(weights_arg), " -w %s", arg);
	if (only)
		p += 5;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		eq = memchr(p, '=', e - p);
		if (only && !eq)
			keep[op_index(p, e - p)] = 1;
		else if (!only && eq)
			ops[op_index(p, eq - p)].weight = (int)num(eq + 1 == e ? "" : strndupa(eq + 1, e - eq - 1), 1000);
		else
			usage();
	}
	for (i = 0; i < OP_NR; i++) {
		if (only && !keep[i])
			ops[i].weight = 0;
		total += ops[i].weight;
	}
	if (!total) {
		fprintf(stderr, "fsstress: -w leaves no operation\n");
		usage();
	}
}

static uint64_t ops_done(void)
{
	uint64_t n = 0;
	int i, o, c;

	for (i = 0; i < nproc; i++)
		for (o = 0; o < OP_NR; o++)
			for (c = 0; c < NCOL; c++)
				n += counts[i][o][c];
	return n;
}

/* Totals over the processes: a line per operation with its non-zero columns. */
static uint64_t print_counts(void)
{
	uint64_t all = 0, unexp = 0, expected = 0;
	int o, c, i;

	for (o = 0; o < OP_NR; o++) {
		uint64_t t[NCOL] = { 0 }, sum = 0;

		for (i = 0; i < nproc; i++)
			for (c = 0; c < NCOL; c++)
				t[c] += counts[i][o][c];
		for (c = 0; c < NCOL; c++)
			sum += t[c];
		if (!sum)
			continue;
		all += sum;
		unexp += t[C_UNEXP];
		printf("  %-17s %8llu:", ops[o].name, (unsigned long long)sum);
		for (c = 0; c < NCOL; c++) {
			if (!t[c])
				continue;
			printf(" %s %llu", colname[c], (unsigned long long)t[c]);
			if (c != C_OK && c != C_UNEXP && c != C_SKIP)
				expected += t[c];
		}
		printf("\n");
	}
	printf("fsstress: %llu operations, %llu expected race errors, %llu unexpected\n",
	       (unsigned long long)all, (unsigned long long)expected,
	       (unsigned long long)unexp);
	return unexp;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	char absdir[PATH_MAX];
	unsigned long nops = 0;
	int check_only = 0, have_seed = 0, opt, i, status;
	uint64_t unexp = 0, found;
	double t0, t1, next_report;
	struct sigaction sa;

	if (argc > 1 && !strcmp(argv[1], "selftest")) {
		if (argc != 3 || argv[2][0] == '-')
			usage();
		setvbuf(stdout, NULL, _IOLBF, 0);
		return selftest(argv[2]);
	}
	if (argc > 1 && !strcmp(argv[1], "check")) {
		if (argc < 3 || argv[2][0] == '-')
			usage();
		check_only = 1;
		dir = argv[2];
		optind = 3;
	}
	while ((opt = getopt(argc, argv, "d:p:n:s:w:vh")) != -1) {
		switch (opt) {
		case 'd': if (check_only) usage(); dir = optarg; break;
		case 'p': if (check_only) usage(); nproc = (int)num(optarg, 1000); break;
		case 'n': if (check_only) usage(); nops = num(optarg, 1UL << 40); break;
		case 's': seed = (uint32_t)num(optarg, UINT32_MAX); have_seed = 1; break;
		case 'w': if (check_only) usage(); set_weights(optarg); break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (optind != argc || !dir)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (check_only) {
		found = walk(dir, have_seed ? seed : 0);
		printf("fsstress: %s check of %s%s\n", found ? "FAIL:" : "OK:", dir,
		       have_seed ? "" : " (seeds taken from the blocks)");
		return found ? 1 : 0;
	}
	if (nproc < 1 || nops < 1) {
		fprintf(stderr, "fsstress: -p and -n must be at least 1\n");
		usage();
	}
	if (!have_seed) {
		struct timeval tv;

		gettimeofday(&tv, NULL);
		seed = (uint32_t)(tv.tv_sec * 1000003u ^ tv.tv_usec ^ getpid());
	}
	if (!seed)
		seed = 1;	/* 0 means "any seed" to the walk */
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "fsstress: mkdir %s: %s\n", dir, strerror(errno));
		return 2;
	}
	if (!realpath(dir, absdir) || chdir(dir)) {
		fprintf(stderr, "fsstress: chdir %s: %s\n", dir, strerror(errno));
		return 2;
	}
	printf("fsstress: seed %u, %d processes x %lu operations in %s (replay: fsstress -d %s -p %d -n %lu -s %u%s)\n",
	       seed, nproc, nops, dir, dir, nproc, nops, seed, weights_arg);
	probe_rename_flags();
	counts = mmap(NULL, nproc * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED) {
		perror("fsstress: mmap");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);
	t0 = now();
	for (i = 0; i < nproc; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fsstress: fork");
			return 2;
		}
		if (pid == 0)
			child(i, nops);
	}
	for (next_report = t0 + 60;;) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid < 0)
			break;
		if (pid == 0) {
			usleep(100000);
			if (now() >= next_report) {
				printf("fsstress: %llu of %llu operations done after %.0f s\n",
				       (unsigned long long)ops_done(),
				       (unsigned long long)nproc * nops, now() - t0);
				next_report += 60;
			}
			continue;
		}
		if (WIFSIGNALED(status)) {
			printf("fsstress: UNEXPECTED: a process was killed by signal %d\n",
			       WTERMSIG(status));
			unexp++;
		} else if (WEXITSTATUS(status)) {
			printf("fsstress: UNEXPECTED: a process exited with status %d\n",
			       WEXITSTATUS(status));
			unexp++;
		}
	}
	t1 = now();
	printf("fsstress: operations done in %.1f s\n", t1 - t0);
	unexp += print_counts();
	found = walk(absdir, seed);
	printf("fsstress: walk took %.1f s\n", now() - t1);
	printf("fsstress: %s seed %u, %d x %lu operations: %llu unexpected errors, %llu walk findings (replay: fsstress -d %s -p %d -n %lu -s %u%s)\n",
	       unexp || found ? "FAIL:" : "OK:", seed, nproc, nops,
	       (unsigned long long)unexp, (unsigned long long)found, dir, nproc, nops, seed,
	       weights_arg);
	return unexp || found ? 1 : 0;
}
