// SPDX-License-Identifier: GPL-2.0
/*
 * xattrop - extended attribute operations with their exact errno, and a
 * seeded random workload checked against an in-memory model.
 *
 *   xattrop set PATH NAME VALUE [create|replace]   setxattr(2)
 *   xattrop setn PATH NAME SIZE [create|replace]   a SIZE-byte value made
 *                                                  from NAME and SIZE
 *   xattrop get PATH NAME [BUFSIZE]                getxattr(2): the value
 *   xattrop remove PATH NAME                       removexattr(2)
 *   xattrop list PATH [BUFSIZE]                    listxattr(2), sorted
 *   xattrop fsync PATH...                          fsync(2) each file
 *   xattrop bulk set|verify PREFIX FROM STEP TO SIZE
 *                                                  for i = FROM, FROM+STEP,
 *                                                  ... below TO: the file
 *                                                  PREFIXi (set creates it)
 *                                                  gets / must have user.vi
 *                                                  with the setn value of
 *                                                  SIZE bytes; prints "N ok"
 *                                                  or the first failure
 *                                                  (and exits 1)
 *   xattrop fill PATH PREFIX SIZE                  set PREFIX0, PREFIX1, ...
 *                                                  with SIZE-byte values
 *                                                  until one fails
 *   xattrop model DIR SEED OPS ROOM PAD [check]    the random workload
 *   xattrop model DIR SEED OPS ROOM PAD sync N     the same, with a sync(2)
 *                                                  before op N (none when
 *                                                  N >= OPS), and an
 *                                                  fsync(2) of every file
 *                                                  at the end
 *   xattrop model DIR SEED OPS ROOM PAD resume N   ops before N only in the
 *                                                  model (a run of N ops
 *                                                  did them), the rest for
 *                                                  real, then the fsyncs
 *   xattrop as UID GID PROG [ARGS...]              run PROG as UID:GID with
 *                                                  no supplementary groups
 *                                                  (ACL permission checks)
 *
 * Each single operation prints "ok" (get: the value, "<N bytes>" when it
 * is not printable; list: one name a line), or the errno's name (ENODATA,
 * ERANGE, E2BIG, EEXIST, ...), and exits 0 either way, so that a test can
 * compare the result with what it expects.  fill prints "N ERRNO": how
 * many attributes were set and why the next one failed.
 *
 * model: OPS random operations on the files DIR/f0 .. DIR/f7 (created if
 * missing) with names from a fixed pool (user.*, trusted.*, security.*,
 * names of 1 to 60 bytes) and values of 0 to 3000 bytes (seeded, so the
 * same SEED replays the same run): set (flags none, create or replace),
 * remove, and get.  The model knows the stock on-disk format: a file's
 * attributes take a 24-byte header plus, per attribute, 4 + name + value
 * bytes rounded up to 4; ROOM is the space (the inline area plus the 4072
 * bytes of an xattr node), of which PAD bytes stay free for the end
 * marker.  Every operation's result must be the model's (success, EEXIST,
 * ENODATA or E2BIG), every value read must be the model's, and at the end
 * every file's list (but for system.* names: ACLs) and values must be the
 * model's.  With "check" the
 * operations are only replayed in the model, and the files' state is then
 * compared with it (after a remount, a crash, cleaning, or under the other
 * module).  Prints "model: seed S ops N: ok A eexist B enodata C e2big D
 * get E" (the counts are a fingerprint two modules must share), or the
 * first difference and exit 1.  Replay: the same command line.
 *
 * Exit: 0 done, 1 a model difference or an unexpected error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NFILES	8
#define NNAMES	20
#define VMAX	65536
#define HDR	24

static void usage(void)
{
	fprintf(stderr,
		"usage: xattrop set PATH NAME VALUE [create|replace]\n"
		"       xattrop setn PATH NAME SIZE [create|replace]\n"
		"       xattrop get PATH NAME [BUFSIZE]\n"
		"       xattrop remove PATH NAME\n"
		"       xattrop list PATH [BUFSIZE]\n"
		"       xattrop fsync PATH...\n"
		"       xattrop bulk set|verify PREFIX FROM STEP TO SIZE\n"
		"       xattrop fill PATH PREFIX SIZE\n"
		"       xattrop model DIR SEED OPS ROOM PAD [check|sync N|resume N]\n"
		"       xattrop as UID GID PROG [ARGS...]\n");
	exit(2);
}

static const char *errname(int e)
{
	switch (e) {
	case ENODATA: return "ENODATA";
	case ERANGE: return "ERANGE";
	case E2BIG: return "E2BIG";
	case EEXIST: return "EEXIST";
	case ENOSPC: return "ENOSPC";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case EUCLEAN: return "EUCLEAN";
	}
	return strerror(e);
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v < 0)
		usage();
	return v;
}

static int flag_arg(int argc, char **argv, int i)
{
	if (argc <= i)
		return 0;
	if (!strcmp(argv[i], "create"))
		return XATTR_CREATE;
	if (!strcmp(argv[i], "replace"))
		return XATTR_REPLACE;
	usage();
	return 0;
}

/* The value setn and the model use: bytes from a hash of NAME, SIZE, SALT. */
static void make_value(char *buf, const char *name, size_t size, uint32_t salt)
{
	uint32_t h = 2166136261u ^ salt;
	size_t i;

	for (i = 0; name[i]; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	h ^= size;
	for (i = 0; i < size; i++) {
		h = h * 1103515245u + 12345u;
		buf[i] = (char)(h >> 16);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of PATH into NAMES (pointers into BUF); -errno on error. */
static int sorted_list(const char *path, char *buf, size_t size,
		       char **names, int max)
{
	ssize_t n = listxattr(path, buf, size);
	int cnt = 0;
	char *p;

	if (n < 0)
		return -errno;
	for (p = buf; p < buf + n; p += strlen(p) + 1) {
		if (cnt == max)
			return -E2BIG;
		names[cnt++] = p;
	}
	qsort(names, cnt, sizeof(*names), cmp_str);
	return cnt;
}

static char vbuf[VMAX], vbuf2[VMAX], lbuf[VMAX];

static int do_bulk(int argc, char **argv)
{
	long from, step, to, size, i, n = 0;
	int set, fd;
	char path[4096], name[64];
	ssize_t got;

	if (argc != 8 || (strcmp(argv[2], "set") && strcmp(argv[2], "verify")))
		usage();
	set = !strcmp(argv[2], "set");
	from = num(argv[4]);
	step = num(argv[5]);
	to = num(argv[6]);
	size = num(argv[7]);
	if (!step || size > VMAX)
		usage();
	for (i = from; i < to; i += step, n++) {
		snprintf(path, sizeof(path), "%s%ld", argv[3], i);
		snprintf(name, sizeof(name), "user.v%ld", i);
		make_value(vbuf2, name, size, 0);
		if (set) {
			fd = open(path, O_CREAT | O_WRONLY, 0644);
			if (fd < 0 || close(fd) ||
			    setxattr(path, name, vbuf2, size, 0)) {
				printf("%s: %s\n", path, errname(errno));
				return 1;
			}
			continue;
		}
		got = getxattr(path, name, vbuf, VMAX);
		if (got < 0) {
			printf("%s: %s: %s\n", path, name, errname(errno));
			return 1;
		}
		if (got != size || memcmp(vbuf, vbuf2, size)) {
			printf("%s: %s: value differs\n", path, name);
			return 1;
		}
	}
	printf("%ld ok\n", n);
	return 0;
}

static int do_single(int argc, char **argv)
{
	const char *op = argv[1];
	char *names[1024];
	ssize_t n;
	long size;
	int i;

	if (!strcmp(op, "set") && (argc == 5 || argc == 6)) {
		n = setxattr(argv[2], argv[3], argv[4], strlen(argv[4]),
			     flag_arg(argc, argv, 5));
	} else if (!strcmp(op, "setn") && (argc == 5 || argc == 6)) {
		size = num(argv[4]);
		if (size > VMAX)
			usage();
		make_value(vbuf, argv[3], size, 0);
		n = setxattr(argv[2], argv[3], vbuf, size,
			     flag_arg(argc, argv, 5));
	} else if (!strcmp(op, "get") && (argc == 4 || argc == 5)) {
		size = argc == 5 ? num(argv[4]) : VMAX;
		if (size > VMAX)
			usage();
		n = getxattr(argv[2], argv[3], vbuf, size);
		if (n >= 0) {
			for (i = 0; i < n; i++)
				if (vbuf[i] < 32 || vbuf[i] > 126)
					break;
			if (i == n)
				printf("%.*s\n", (int)n, vbuf);
			else
				printf("<%zd bytes>\n", n);
			return 0;
		}
	} else if (!strcmp(op, "remove") && argc == 4) {
		n = removexattr(argv[2], argv[3]);
	} else if (!strcmp(op, "list") && (argc == 3 || argc == 4)) {
		size = argc == 4 ? num(argv[3]) : VMAX;
		if (size > VMAX)
			usage();
		n = sorted_list(argv[2], lbuf, size, names, 1024);
		if (n >= 0) {
			for (i = 0; i < n; i++)
				printf("%s\n", names[i]);
			return 0;
		}
		errno = -n;
		n = -1;
	} else if (!strcmp(op, "fsync")) {
		n = 0;
		for (i = 2; i < argc && !n; i++) {
			int fd = open(argv[i], O_RDONLY);

			n = fd < 0 || fsync(fd) ? -1 : 0;
			if (fd >= 0)
				close(fd);
		}
	} else if (!strcmp(op, "fill") && argc == 5) {
		char name[300];

		size = num(argv[4]);
		if (size > VMAX)
			usage();
		for (i = 0;; i++) {
			snprintf(name, sizeof(name), "%s%d", argv[3], i);
			make_value(vbuf, name, size, 0);
			if (setxattr(argv[2], name, vbuf, size, XATTR_CREATE))
				break;
		}
		printf("%d %s\n", i, errname(errno));
		return 0;
	} else {
		usage();
	}
	if (n < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	return 0;
}

/* ---- the model ---------------------------------------------------------- */

struct mattr {
	int present;
	size_t size;
	uint32_t salt;
};

static char pool[NNAMES][80];
static struct mattr model[NFILES][NNAMES];
static uint64_t rng;

static uint32_t rnd(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return rng >> 33;
}

static void make_pool(void)
{
	int i, len;

	for (i = 0; i < NNAMES; i++) {
		const char *ns = i < 14 ? "user." : i < 17 ? "trusted." :
				 "security.";
		len = snprintf(pool[i], sizeof(pool[i]), "%sn%d_", ns, i);
		/* names within the namespace of 1 to 60 bytes */
		while (len - (int)strlen(ns) < 1 + (i * 23) % 60) {
			pool[i][len] = 'a' + (i + len) % 26;
			len++;
		}
		pool[i][len] = 0;
	}
}

static size_t entry_bytes(int k, size_t size)
{
	size_t nlen = strlen(pool[k]) - (strchr(pool[k], '.') - pool[k] + 1);

	return (4 + nlen + size + 3) & ~(size_t)3;
}

static size_t used_of(int f)
{
	size_t u = HDR;
	int k;

	for (k = 0; k < NNAMES; k++)
		if (model[f][k].present)
			u += entry_bytes(k, model[f][k].size);
	return u;
}

static size_t pick_size(void)
{
	uint32_t r = rnd() % 100;

	if (r < 70)
		return rnd() % 41;
	if (r < 95)
		return 41 + rnd() % 360;
	return 401 + rnd() % 2600;
}

static int fail_at(long op, const char *path, const char *what)
{
	fprintf(stderr, "xattrop: model: op %ld: %s: %s\n", op, path, what);
	return 1;
}

static int verify_file(const char *dir, int f)
{
	char path[256], msg[2048], *names[1024];
	int n, k, i;

	snprintf(path, sizeof(path), "%s/f%d", dir, f);
	n = sorted_list(path, lbuf, sizeof(lbuf), names, 1024);
	if (n < 0)
		return fail_at(-1, path, errname(-n));
	for (k = 0, i = 0; k < NNAMES; k++) {
		ssize_t got;

		if (!model[f][k].present)
			continue;
		/* names from the pool other than the model's are extra */
		got = getxattr(path, pool[k], vbuf, sizeof(vbuf));
		if (got < 0) {
			snprintf(msg, sizeof(msg), "%s: %s, model has %zu bytes",
				 pool[k], errname(errno), model[f][k].size);
			return fail_at(-1, path, msg);
		}
		make_value(vbuf2, pool[k], model[f][k].size, model[f][k].salt);
		if ((size_t)got != model[f][k].size ||
		    memcmp(vbuf, vbuf2, got)) {
			snprintf(msg, sizeof(msg), "%s: %zd bytes differ from the model's %zu",
				 pool[k], got, model[f][k].size);
			return fail_at(-1, path, msg);
		}
		i++;
	}
	/* system.* (ACLs) are not the model's */
	for (k = 0; k < n; k++)
		if (!strncmp(names[k], "system.", 7))
			i++;
	if (n != i) {
		snprintf(msg, sizeof(msg), "%d names listed, model has %d", n, i);
		return fail_at(-1, path, msg);
	}
	return 0;
}

static int do_model(int argc, char **argv)
{
	const char *dir = argv[2];
	unsigned long seed = num(argv[3]);
	long ops = num(argv[4]), op;
	size_t room = num(argv[5]), pad = num(argv[6]);
	int check = argc == 8;
	long cnt[5] = {0};	/* ok eexist enodata e2big get */
	long syncat = -1, resume = 0;
	char path[256], msg[2048];
	int f, k, fd;

	if (argc == 8 && strcmp(argv[7], "check"))
		usage();
	if (argc == 9) {
		if (!strcmp(argv[7], "sync"))
			syncat = num(argv[8]);
		else if (!strcmp(argv[7], "resume"))
			resume = num(argv[8]);
		else
			usage();
		if (resume)
			syncat = ops;	/* no sync, but the fsyncs */
	}
	make_pool();
	rng = seed;
	for (f = 0; f < NFILES && argc != 8; f++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, f);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return fail_at(0, path, strerror(errno));
		close(fd);
	}
	for (op = 0; op < ops; op++) {
		uint32_t r = rnd() % 100;

		check = argc == 8 || op < resume;
		struct mattr *m;
		int want, got, flags = 0;
		size_t size = 0;

		if (op == syncat)
			sync();
		f = rnd() % NFILES;
		k = rnd() % NNAMES;
		m = &model[f][k];
		snprintf(path, sizeof(path), "%s/f%d", dir, f);
		if (r < 55) {
			flags = (int[]){0, 0, XATTR_CREATE, XATTR_REPLACE}[rnd() % 4];
			size = pick_size();
			if ((flags & XATTR_CREATE) && m->present)
				want = EEXIST;
			else if ((flags & XATTR_REPLACE) && !m->present)
				want = ENODATA;
			else if (size > room - HDR - 4 ||
				 used_of(f) - (m->present ? entry_bytes(k, m->size) : 0) +
				 entry_bytes(k, size) > room - pad)
				want = E2BIG;
			else
				want = 0;
			make_value(vbuf, pool[k], size, op);
			got = check ? want :
			      setxattr(path, pool[k], vbuf, size, flags) ? errno : 0;
			if (!want) {
				m->present = 1;
				m->size = size;
				m->salt = op;
			}
		} else if (r < 85) {
			want = m->present ? 0 : ENODATA;
			got = check ? want : removexattr(path, pool[k]) ? errno : 0;
			m->present = 0;
		} else {
			ssize_t n;

			want = m->present ? 0 : ENODATA;
			got = want;
			if (!check) {
				n = getxattr(path, pool[k], vbuf, sizeof(vbuf));
				got = n < 0 ? errno : 0;
				make_value(vbuf2, pool[k], m->size, m->salt);
				if (!got && ((size_t)n != m->size ||
					     memcmp(vbuf, vbuf2, n)))
					return fail_at(op, path, "get: value differs from the model");
			}
			cnt[4]++;
		}
		if (got != want) {
			snprintf(msg, sizeof(msg), "%s %s (%zu bytes, flags %d): got %s, model says %s",
				 r < 55 ? "set" : r < 85 ? "remove" : "get",
				 pool[k], size, flags, got ? errname(got) : "ok",
				 want ? errname(want) : "ok");
			return fail_at(op, path, msg);
		}
		if (r < 85)
			cnt[want == 0 ? 0 : want == EEXIST ? 1 : want == ENODATA ? 2 : 3]++;
	}
	for (f = 0; f < NFILES && syncat >= 0; f++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, f);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fsync(fd))
			return fail_at(ops, path, strerror(errno));
		close(fd);
	}
	for (f = 0; f < NFILES; f++)
		if (verify_file(dir, f))
			return 1;
	printf("model: seed %lu ops %ld: ok %ld eexist %ld enodata %ld e2big %ld get %ld\n",
	       seed, ops, cnt[0], cnt[1], cnt[2], cnt[3], cnt[4]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "bulk"))
		return do_bulk(argc, argv);
	if (!strcmp(argv[1], "as")) {
		if (argc < 5)
			usage();
		if (setgroups(0, NULL) || setgid(num(argv[3])) ||
		    setuid(num(argv[2]))) {
			perror("xattrop as");
			return 1;
		}
		execvp(argv[4], argv + 4);
		perror(argv[4]);
		return 1;
	}
	if (!strcmp(argv[1], "model")) {
		if (argc < 7 || argc > 9)
			usage();
		return do_model(argc, argv);
	}
	return do_single(argc, argv);
}
