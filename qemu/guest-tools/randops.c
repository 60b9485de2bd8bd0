// SPDX-License-Identifier: GPL-2.0
/*
 * randops - a seeded random mix of namespace and data operations, the same
 * on any filesystem, so that a tree made on the filesystem under test can
 * be compared with the one made on tmpfs.
 *
 *   randops [-v] [-c KIB] [-x KIND,...] DIR SEED OPS
 *
 * Runs OPS operations inside DIR (an existing, empty directory), chosen by
 * a PRNG seeded with SEED from randops' own model of the namespace (never
 * from readdir), so the sequence depends on SEED and OPS only:
 *
 *   create   a new file of 0 bytes .. 4 MiB (40% small enough for inline
 *            data, 3488 bytes or less), names of 1-255 bytes
 *   mkdir    a new directory (at most 8 levels deep)
 *   write    an overwrite inside or an append of 1 byte .. 64 KiB
 *   truncate shrink (to zero at times) or grow with a hole
 *   rename   a file, symlink, special file or directory, within or across
 *            directories, to a new name or over an existing non-directory
 *   link     a hard link to a regular file
 *   symlink  a target of 1-60 bytes, or 100-3000 (a block of its own)
 *   unlink   a non-directory name
 *   rmdir    an empty directory
 *   mknod    a FIFO, a character or a block device
 *   fsync    fsync(2) of a file, or of a directory
 *   chmod    a new mode on any entry
 *
 * File data comes from a PRNG keyed by (SEED, operation number).  While the
 * live data exceeds -c KIB (default 65536) new data goes to files only
 * after deletes and truncates brought it below.  Any failing system call
 * ends the run: the call, the path and the error are printed, exit 1.  At
 * the end one line counts the operations of each kind and the live
 * entries; -v prints every operation first.  -x leaves out the listed kinds
 * (e.g. -x mknod,rename, to narrow a failure down; the other kinds keep
 * their relative weights).  Usage errors exit 2.  The seed is printed; the
 * same SEED, OPS and -x replay the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAXENT 20000
#define PATHMAX 4096

enum { T_DIR, T_REG, T_LNK, T_SPECIAL };
enum { OP_CREATE, OP_MKDIR, OP_WRITE, OP_TRUNC, OP_RENAME, OP_LINK, OP_SYMLINK, OP_UNLINK,
	OP_RMDIR, OP_MKNOD, OP_FSYNC, OP_CHMOD, OP_N };
static const char *opname[OP_N] = { "create", "mkdir", "write", "truncate", "rename", "link",
	"symlink", "unlink", "rmdir", "mknod", "fsync", "chmod" };
/* weights, in per mille */
static int weight[OP_N] = { 230, 70, 150, 80, 110, 50, 50, 110, 40, 30, 50, 30 };

struct ent {
	char *path;		/* relative to DIR */
	int type, ino;		/* ino: a model inode id, shared by hard links */
};

static struct ent ents[MAXENT];
static int nents;
static long long *isize;	/* model inode id -> size */
static int ninodes;
static long long live, cap = 65536LL * 1024;
static uint64_t rng;
static int verbose;
static long done[OP_N];
static const char *root;
static unsigned char *buf;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static long long rnd(long long n)
{
	return n > 0 ? (long long)(next() % (uint64_t)n) : 0;
}

static void fill(uint64_t key, size_t len)
{
	uint64_t s = key;
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t z = (s += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		memcpy(buf + i, &z, len - i < 8 ? len - i : 8);
	}
}

static char *full(const char *rel)
{
	static char p[2][PATHMAX + 256];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s%s%s", root, *rel ? "/" : "", rel);
	return p[k];
}

static void failed(const char *call, const char *rel)
{
	printf("randops: %s %s: %s\n", call, full(rel), strerror(errno));
	exit(1);
}

static int find(const char *rel)
{
	int i;

	for (i = 0; i < nents; i++)
		if (!strcmp(ents[i].path, rel))
			return i;
	return -1;
}

static int depth(const char *rel)
{
	int d = *rel ? 1 : 0;

	for (; *rel; rel++)
		d += *rel == '/';
	return d;
}

/* a random entry of the given type (-1: any but the root), or -1 */
static int pick(int type)
{
	int i, n = 0, k;

	for (i = 1; i < nents; i++)
		n += type < 0 || ents[i].type == type;
	if (!n)
		return -1;
	k = rnd(n);
	for (i = 1; i < nents; i++)
		if ((type < 0 || ents[i].type == type) && !k--)
			return i;
	return -1;
}

static int is_under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(p, dir, n) && p[n] == '/';
}

/* how many levels of directories lie below dir */
static int below(const char *dir)
{
	int i, m = 0, d0 = depth(dir);

	for (i = 1; i < nents; i++)
		if (ents[i].type == T_DIR && is_under(ents[i].path, dir) && depth(ents[i].path) - d0 > m)
			m = depth(ents[i].path) - d0;
	return m;
}

static int dir_empty(const char *dir)
{
	int i;

	for (i = 1; i < nents; i++)
		if (is_under(ents[i].path, dir) && !strchr(ents[i].path + strlen(dir) + 1, '/'))
			return 0;
	return 1;
}

static int links_of(int ino)
{
	int i, n = 0;

	for (i = 0; i < nents; i++)
		n += ents[i].ino == ino;
	return n;
}

/* a new, unused name in directory d (index), in the model's path form */
static char *new_name(int d)
{
	static const char cs[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+=";
	char name[256], *p;
	int len, i, tries = 0;

	do {
		len = rnd(100) < 90 ? 1 + rnd(24) : 25 + rnd(231);
		if (strlen(ents[d].path) + len + 2 > PATHMAX)
			len = 8;
		for (i = 0; i < len; i++)
			name[i] = cs[rnd(sizeof(cs) - 1)];
		name[len] = 0;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			name[0] = 'x';
		if (asprintf(&p, "%s%s%s", ents[d].path, *ents[d].path ? "/" : "", name) < 0)
			exit(1);
		if (find(p) < 0)
			return p;
		free(p);
	} while (++tries < 100);
	fprintf(stderr, "randops: no free name\n");
	exit(1);
}

static int add(char *path, int type, int ino)
{
	if (nents == MAXENT) {
		fprintf(stderr, "randops: more than %d entries\n", MAXENT);
		exit(1);
	}
	ents[nents].path = path;
	ents[nents].type = type;
	ents[nents].ino = ino;
	return nents++;
}

static void drop(int i)
{
	int ino = ents[i].ino;

	free(ents[i].path);
	ents[i] = ents[--nents];
	if (ino >= 0 && links_of(ino) == 0)
		live -= isize[ino];
}

/* a random directory: the root 1 time in odds, else any (the root too) */
static int some_dir(int odds)
{
	int d = pick(T_DIR);

	return d < 0 || rnd(odds) == 0 ? 0 : d;
}

/* remove entry i with rm (unlink or rmdir), named what */
static void remove_name(int i, const char *what, int (*rm)(const char *))
{
	if (verbose)
		printf("%s %s\n", what, ents[i].path);
	if (rm(full(ents[i].path)))
		failed(what, ents[i].path);
	drop(i);
}

static int new_inode(void)
{
	isize = realloc(isize, (ninodes + 1) * sizeof(*isize));
	if (!isize)
		exit(1);
	isize[ninodes] = 0;
	return ninodes++;
}

static void write_at(const char *rel, int ino, long long off, long long len, uint64_t key)
{
	int fd = open(full(rel), O_WRONLY);
	long long done_len = 0;

	if (fd < 0)
		failed("open", rel);
	while (done_len < len) {
		size_t n = len - done_len > 1 << 20 ? 1 << 20 : (size_t)(len - done_len);

		fill(key + done_len, n);
		if (pwrite(fd, buf, n, off + done_len) != (ssize_t)n)
			failed("pwrite", rel);
		done_len += n;
	}
	if (close(fd))
		failed("close", rel);
	if (off + len > isize[ino]) {
		live += off + len - isize[ino];
		isize[ino] = off + len;
	}
}

static long long file_size(void)
{
	long long r = rnd(100);

	if (r < 40)
		return rnd(3489);
	if (r < 80)
		return 3489 + rnd(65536);
	if (r < 95)
		return 65536 + rnd(1 << 20);
	return (1 << 20) + rnd(3 << 20);
}

static void op(int kind, long opno)
{
	uint64_t key = next() ^ (uint64_t)opno << 32;
	int i, j, d, fd;
	char *p;
	long long sz;

	switch (kind) {
	case OP_CREATE:
		d = some_dir(4);
		p = new_name(d);
		sz = live > cap ? 0 : file_size();
		if (verbose)
			printf("create %s %lld\n", p, sz);
		fd = open(full(p), O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			failed("create", p);
		close(fd);
		i = add(p, T_REG, new_inode());
		if (sz)
			write_at(p, ents[i].ino, 0, sz, key);
		break;
	case OP_MKDIR:
		d = pick(T_DIR);
		if (d < 0 || depth(ents[d].path) >= 8)
			d = 0;
		p = new_name(d);
		if (verbose)
			printf("mkdir %s\n", p);
		if (mkdir(full(p), 0755))
			failed("mkdir", p);
		add(p, T_DIR, -1);
		break;
	case OP_WRITE:
		i = pick(T_REG);
		if (i < 0 || live > cap)
			return;
		sz = 1 + rnd(rnd(2) ? 4096 : 65536);
		{
			long long cur = isize[ents[i].ino];
			long long off = rnd(3) == 0 || !cur ? cur : rnd(cur);

			if (verbose)
				printf("write %s %lld+%lld\n", ents[i].path, off, sz);
			write_at(ents[i].path, ents[i].ino, off, sz, key);
		}
		break;
	case OP_TRUNC:
		i = pick(T_REG);
		if (i < 0)
			return;
		{
			long long cur = isize[ents[i].ino];

			sz = rnd(4) == 0 ? 0 : rnd(2) || live > cap ? rnd(cur + 1) : cur + rnd(1 << 20);
			if (verbose)
				printf("truncate %s %lld -> %lld\n", ents[i].path, cur, sz);
			if (truncate(full(ents[i].path), sz))
				failed("truncate", ents[i].path);
			live += sz - cur;
			isize[ents[i].ino] = sz;
		}
		break;
	case OP_RENAME:
		i = pick(-1);
		if (i < 0)
			return;
		d = some_dir(3);
		if (ents[i].type == T_DIR && (d == i || is_under(ents[d].path, ents[i].path) ||
					      depth(ents[d].path) + 1 + below(ents[i].path) > 8))
			return;
		j = -1;
		if (ents[i].type != T_DIR && rnd(3) == 0) {
			/* over an existing non-directory (not another name of itself) */
			j = pick(-1);
			if (j >= 0 && (ents[j].type == T_DIR || j == i ||
				       (ents[j].ino >= 0 && ents[j].ino == ents[i].ino)))
				j = -1;
		}
		p = j >= 0 ? strdup(ents[j].path) : new_name(d);
		if (verbose)
			printf("rename %s %s\n", ents[i].path, p);
		if (rename(full(ents[i].path), full(p)))
			failed("rename", ents[i].path);
		if (ents[i].type == T_DIR) {
			size_t n = strlen(ents[i].path);

			for (d = 0; d < nents; d++)
				if (is_under(ents[d].path, ents[i].path)) {
					char *q;

					if (asprintf(&q, "%s%s", p, ents[d].path + n) < 0)
						exit(1);
					free(ents[d].path);
					ents[d].path = q;
				}
		}
		free(ents[i].path);
		ents[i].path = p;
		if (j >= 0)
			drop(j);
		break;
	case OP_LINK:
		i = pick(T_REG);
		if (i < 0)
			return;
		d = some_dir(3);
		p = new_name(d);
		if (verbose)
			printf("link %s %s\n", ents[i].path, p);
		if (link(full(ents[i].path), full(p)))
			failed("link", p);
		add(p, T_REG, ents[i].ino);
		break;
	case OP_SYMLINK: {
		char target[3001];
		int len = rnd(4) ? 1 + rnd(60) : 100 + rnd(2901), k;

		for (k = 0; k < len; k++)
			target[k] = 'a' + rnd(26);
		target[len] = 0;
		d = some_dir(3);
		p = new_name(d);
		if (verbose)
			printf("symlink %s (%d bytes)\n", p, len);
		if (symlink(target, full(p)))
			failed("symlink", p);
		add(p, T_LNK, -1);
		break;
	}
	case OP_UNLINK:
		i = pick(-1);
		if (i < 0 || ents[i].type == T_DIR)
			return;
		remove_name(i, "unlink", unlink);
		break;
	case OP_RMDIR:
		i = pick(T_DIR);
		if (i < 0 || !dir_empty(ents[i].path))
			return;
		remove_name(i, "rmdir", rmdir);
		break;
	case OP_MKNOD: {
		static const mode_t types[3] = { S_IFIFO, S_IFCHR, S_IFBLK };
		mode_t t = types[rnd(3)];
		dev_t dev = t == S_IFIFO ? 0 : makedev(1 + rnd(300), rnd(1 << 12));

		d = some_dir(3);
		p = new_name(d);
		if (verbose)
			printf("mknod %s 0%o\n", p, t);
		if (mknod(full(p), t | 0640, dev))
			failed("mknod", p);
		add(p, T_SPECIAL, -1);
		break;
	}
	case OP_FSYNC:
		i = rnd(2) ? pick(T_REG) : pick(T_DIR);
		if (i < 0)
			i = 0;
		if (verbose)
			printf("fsync %s\n", ents[i].path);
		fd = open(full(ents[i].path), O_RDONLY);
		if (fd < 0)
			failed("open", ents[i].path);
		if (fsync(fd))
			failed("fsync", ents[i].path);
		close(fd);
		break;
	case OP_CHMOD:
		i = pick(-1);
		if (i < 0 || ents[i].type == T_LNK)
			return;
		{
			mode_t m = ents[i].type == T_DIR ? 0700 | rnd(0100) : 0400 | rnd(01000);

			if (verbose)
				printf("chmod %s 0%o\n", ents[i].path, m);
			if (chmod(full(ents[i].path), m))
				failed("chmod", ents[i].path);
		}
		break;
	}
	done[kind]++;
}

static int usage(void)
{
	fprintf(stderr, "usage: randops [-v] [-c KIB] [-x KIND,...] DIR SEED OPS\n");
	return 2;
}

int main(int argc, char **argv)
{
	long ops, n;
	char *end;
	int c, k, tot = 0;
	struct stat st;

	while ((c = getopt(argc, argv, "vc:x:")) != -1) {
		switch (c) {
		case 'v': verbose = 1; break;
		case 'x': {
			char *tok, *save = NULL;

			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				for (k = 0; k < OP_N && strcmp(tok, opname[k]); k++)
					;
				if (k == OP_N) {
					fprintf(stderr, "randops: unknown kind '%s'\n", tok);
					return usage();
				}
				weight[k] = 0;
			}
			break;
		}
		case 'c':
			cap = strtoll(optarg, &end, 10) * 1024;
			if (*end || cap <= 0)
				return usage();
			break;
		default: return usage();
		}
	}
	if (argc - optind != 3)
		return usage();
	root = argv[optind];
	rng = strtoull(argv[optind + 1], &end, 10);
	if (*end || !*argv[optind + 1])
		return usage();
	ops = strtol(argv[optind + 2], &end, 10);
	if (*end || ops < 0)
		return usage();
	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "randops: %s is not a directory\n", root);
		return 2;
	}
	for (k = 0; k < OP_N; k++)
		tot += weight[k];
	if (!tot) {
		fprintf(stderr, "randops: -x left no kind of operation\n");
		return 2;
	}
	printf("randops: seed %s, %ld operations in %s (replay: randops DIR %s %ld)\n",
	       argv[optind + 1], ops, root, argv[optind + 1], ops);
	buf = malloc(1 << 20);
	if (!buf)
		return 1;
	add(strdup(""), T_DIR, -1);
	for (n = 0; n < ops; n++) {
		int r = rnd(tot);

		for (k = 0; r >= weight[k]; k++)
			r -= weight[k];
		op(k, n);
	}
	printf("randops: done:");
	for (k = 0; k < OP_N; k++)
		printf(" %s %ld", opname[k], done[k]);
	printf("; %d names, %lld bytes live\n", nents - 1, live);
	return 0;
}
