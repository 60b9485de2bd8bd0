// SPDX-License-Identifier: GPL-2.0
/*
 * treesum - print a manifest of a directory tree, one line per entry, in a
 * fixed (byte-sorted) order, so that two trees can be compared with cmp.
 *
 *   treesum [-M] [-f FIELDS] DIR
 *
 * -M reads regular files through mmap(2) instead of read(2).
 *
 * FIELDS is a comma-separated subset of
 *   type,mode,uid,gid,nlink,size,blocks,mtime,mtime_s,atime,ctime,link,content
 * (default: type,mode,uid,gid,nlink,size,mtime,link,content).  "content" is
 * the SHA-256 of a regular file, the target of a symlink, major:minor of a
 * device.  "link" names the first path (in manifest order) sharing the same
 * inode, so hard-link groups compare equal across filesystems.  Directory
 * sizes and block counts are filesystem specific and print as "-" for
 * size.  The same format is produced on the host by scripts/gen-tree.py.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ---- SHA-256 (FIPS 180-4) ---- */
struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->n = 0;
}

static void sha_update(struct sha256 *s, const unsigned char *p, size_t len)
{
	s->len += len;
	while (len) {
		size_t take = 64 - s->n;

		if (take > len)
			take = len;
		if (s->n == 0 && take == 64) {
			sha_block(s, p);
		} else {
			memcpy(s->buf + s->n, p, take);
			s->n += take;
			if (s->n == 64) {
				sha_block(s, s->buf);
				s->n = 0;
			}
		}
		p += take;
		len -= take;
	}
}

static void sha_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (s->n < 56) ? 56 - s->n : 120 - s->n;
	unsigned char lenb[8];
	int i;

	for (i = 0; i < 8; i++)
		lenb[i] = bits >> (56 - 8 * i);
	sha_update(s, pad, padlen);
	sha_update(s, lenb, 8);
	for (i = 0; i < 8; i++)
		sprintf(out + 8 * i, "%08x", s->h[i]);
}

/* ---- tree walk ---- */
enum { F_TYPE, F_MODE, F_UID, F_GID, F_NLINK, F_SIZE, F_BLOCKS, F_MTIME,
       F_MTIME_S, F_ATIME, F_CTIME, F_LINK, F_CONTENT, F_MAX };
static const char *fnames[F_MAX] = { "type", "mode", "uid", "gid", "nlink",
	"size", "blocks", "mtime", "mtime_s", "atime", "ctime", "link",
	"content" };
static int want[F_MAX];
static int status;
static int use_mmap;

struct seen { dev_t dev; ino_t ino; char *path; };
static struct seen *seen;
static size_t nseen, capseen;

static const char *link_group(const struct stat *st, const char *rel)
{
	size_t i;

	if (S_ISDIR(st->st_mode) || st->st_nlink < 2)
		return "-";
	for (i = 0; i < nseen; i++)
		if (seen[i].ino == st->st_ino && seen[i].dev == st->st_dev)
			return seen[i].path;
	if (nseen == capseen) {
		capseen = capseen ? 2 * capseen : 256;
		seen = realloc(seen, capseen * sizeof(*seen));
		if (!seen)
			exit(2);
	}
	seen[nseen].dev = st->st_dev;
	seen[nseen].ino = st->st_ino;
	seen[nseen].path = strdup(rel);
	nseen++;
	return "-";
}

static void file_hash(const char *path, char out[65])
{
	static unsigned char buf[1 << 16];
	struct sha256 s;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "treesum: %s: %s\n", path, strerror(errno));
		strcpy(out, "ERROR");
		status = 1;
		return;
	}
	sha_init(&s);
	if (use_mmap) {
		struct stat st;
		off_t ofs;

		n = fstat(fd, &st);
		/* Map in 64 MiB windows so huge sparse files fit. */
		for (ofs = 0; !n && ofs < st.st_size; ofs += 64 << 20) {
			size_t len = st.st_size - ofs < (64 << 20) ?
				     st.st_size - ofs : (64 << 20);
			void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, ofs);

			if (p == MAP_FAILED) {
				n = -1;
				break;
			}
			sha_update(&s, p, len);
			munmap(p, len);
		}
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			sha_update(&s, buf, n);
	}
	if (n < 0) {
		fprintf(stderr, "treesum: read %s: %s\n", path, strerror(errno));
		status = 1;
	}
	close(fd);
	sha_hex(&s, out);
}

static char type_char(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return 'f';
	case S_IFDIR: return 'd';
	case S_IFLNK: return 'l';
	case S_IFCHR: return 'c';
	case S_IFBLK: return 'b';
	case S_IFIFO: return 'p';
	case S_IFSOCK: return 's';
	}
	return '?';
}

static void print_entry(const char *path, const char *rel, const struct stat *st)
{
	char hex[65];

	printf("%s", rel);
	if (want[F_TYPE])
		printf("\t%c", type_char(st->st_mode));
	if (want[F_MODE])
		printf("\t%04o", (unsigned int)(st->st_mode & 07777));
	if (want[F_UID])
		printf("\t%u", (unsigned int)st->st_uid);
	if (want[F_GID])
		printf("\t%u", (unsigned int)st->st_gid);
	if (want[F_NLINK])
		printf("\t%lu", (unsigned long)st->st_nlink);
	if (want[F_SIZE]) {
		if (S_ISDIR(st->st_mode))
			printf("\t-");
		else
			printf("\t%lld", (long long)st->st_size);
	}
	if (want[F_BLOCKS])
		printf("\t%lld", (long long)st->st_blocks);
	if (want[F_MTIME])
		printf("\t%lld.%09ld", (long long)st->st_mtim.tv_sec,
		       st->st_mtim.tv_nsec);
	if (want[F_MTIME_S])
		printf("\t%lld", (long long)st->st_mtim.tv_sec);
	if (want[F_ATIME])
		printf("\t%lld.%09ld", (long long)st->st_atim.tv_sec,
		       st->st_atim.tv_nsec);
	if (want[F_CTIME])
		printf("\t%lld.%09ld", (long long)st->st_ctim.tv_sec,
		       st->st_ctim.tv_nsec);
	if (want[F_LINK])
		printf("\t%s", link_group(st, rel));
	if (want[F_CONTENT]) {
		if (S_ISREG(st->st_mode)) {
			file_hash(path, hex);
			printf("\t%s", hex);
		} else if (S_ISLNK(st->st_mode)) {
			char t[4097];
			ssize_t n = readlink(path, t, sizeof(t) - 1);

			if (n < 0) {
				status = 1;
				n = 0;
			}
			t[n] = 0;
			printf("\t%s", t);
		} else if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
			printf("\t%u:%u", major(st->st_rdev), minor(st->st_rdev));
		} else {
			printf("\t-");
		}
	}
	putchar('\n');
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *path, const char *rel)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	DIR *d = opendir(path);

	if (!d) {
		fprintf(stderr, "treesum: opendir %s: %s\n", path, strerror(errno));
		status = 1;
		return;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(2);
		}
		names[n++] = strdup(de->d_name);
	}
	if (errno) {
		fprintf(stderr, "treesum: readdir %s: %s\n", path, strerror(errno));
		status = 1;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		char *p, *r;
		struct stat st;

		if (asprintf(&p, "%s/%s", path, names[i]) < 0 ||
		    asprintf(&r, "%s%s%s", rel, *rel ? "/" : "", names[i]) < 0)
			exit(2);
		if (lstat(p, &st)) {
			fprintf(stderr, "treesum: lstat %s: %s\n", p, strerror(errno));
			status = 1;
		} else {
			print_entry(p, r, &st);
			if (S_ISDIR(st.st_mode))
				walk(p, r);
		}
		free(p);
		free(r);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *fields = "type,mode,uid,gid,nlink,size,mtime,link,content";
	char *f, *tok, *save;
	int opt, i;

	while ((opt = getopt(argc, argv, "Mf:h")) != -1) {
		if (opt == 'M') {
			use_mmap = 1;
		} else if (opt == 'f') {
			fields = optarg;
		} else {
			fprintf(stderr, "usage: treesum [-M] [-f FIELDS] DIR\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: treesum [-M] [-f FIELDS] DIR\n");
		return 2;
	}
	f = strdup(fields);
	for (tok = strtok_r(f, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < F_MAX; i++)
			if (!strcmp(tok, fnames[i]))
				break;
		if (i == F_MAX) {
			fprintf(stderr, "treesum: unknown field '%s'\n", tok);
			return 2;
		}
		want[i] = 1;
	}
	walk(argv[optind], "");
	return status;
}
