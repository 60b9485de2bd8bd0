// SPDX-License-Identifier: GPL-2.0
/*
 * treecopy - copy a directory tree keeping everything a filesystem stores
 * for it: types (regular, directory, symlink, character and block devices,
 * FIFOs, sockets), modes with setuid/setgid/sticky bits, owners, hard links,
 * nanosecond atimes and mtimes, and holes (data is found with SEEK_DATA /
 * SEEK_HOLE, holes are skipped, the size is set with ftruncate).  busybox
 * cp -a keeps neither sub-second times nor holes, hence this tool.
 *
 *   treecopy SRC DST
 *
 * DST must be an existing directory; the entries of SRC are created in it
 * in byte-sorted name order (so a copy is reproducible).  Directory
 * metadata is set after the directory's children.  Exit status 0, or 1
 * after printing every error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int status;
static long ndirs, nfiles, nlinks, nsyms, nspecial;
static long long nbytes;

struct seen { dev_t dev; ino_t ino; char *dst; };
static struct seen *seen;
static size_t nseen, capseen;

static void err(const char *what, const char *path)
{
	fprintf(stderr, "treecopy: %s %s: %s\n", what, path, strerror(errno));
	status = 1;
}

static const char *hardlink_of(const struct stat *st)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i].ino == st->st_ino && seen[i].dev == st->st_dev)
			return seen[i].dst;
	return NULL;
}

static void remember(const struct stat *st, const char *dst)
{
	if (nseen == capseen) {
		capseen = capseen ? 2 * capseen : 256;
		seen = realloc(seen, capseen * sizeof(*seen));
		if (!seen)
			exit(2);
	}
	seen[nseen].dev = st->st_dev;
	seen[nseen].ino = st->st_ino;
	seen[nseen].dst = strdup(dst);
	nseen++;
}

/* Owner, then mode (chown clears set-id bits), then times. */
static void set_meta(const char *dst, const struct stat *st)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };

	if (lchown(dst, st->st_uid, st->st_gid))
		err("lchown", dst);
	if (!S_ISLNK(st->st_mode) && chmod(dst, st->st_mode & 07777))
		err("chmod", dst);
	if (utimensat(AT_FDCWD, dst, ts, AT_SYMLINK_NOFOLLOW))
		err("utimensat", dst);
}

static void copy_data(const char *src, const char *dst, const struct stat *st)
{
	static char buf[1 << 20];
	int in, out;
	off_t pos = 0, data, hole;

	in = open(src, O_RDONLY);
	if (in < 0) {
		err("open", src);
		return;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (out < 0) {
		err("create", dst);
		close(in);
		return;
	}
	while (pos < st->st_size) {
		data = lseek(in, pos, SEEK_DATA);
		if (data < 0) {
			if (errno != ENXIO)	/* ENXIO: only a hole is left */
				err("SEEK_DATA", src);
			break;
		}
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0) {
			err("SEEK_HOLE", src);
			break;
		}
		for (pos = data; pos < hole;) {
			size_t want = hole - pos < (off_t)sizeof(buf) ?
				      (size_t)(hole - pos) : sizeof(buf);
			ssize_t n = pread(in, buf, want, pos), w = 0;

			if (n <= 0) {
				if (n < 0)
					err("read", src);
				pos = hole;
				break;
			}
			while (w < n) {
				ssize_t k = pwrite(out, buf + w, n - w, pos + w);

				if (k <= 0) {
					err("write", dst);
					goto out;
				}
				w += k;
			}
			pos += n;
			nbytes += n;
		}
	}
	if (ftruncate(out, st->st_size))
		err("ftruncate", dst);
out:
	if (close(out))
		err("close", dst);
	close(in);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void copy_dir(const char *src, const char *dst)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	DIR *d = opendir(src);

	if (!d) {
		err("opendir", src);
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
	if (errno)
		err("readdir", src);
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		char *s, *t;
		const char *first;
		struct stat st;

		if (asprintf(&s, "%s/%s", src, names[i]) < 0 ||
		    asprintf(&t, "%s/%s", dst, names[i]) < 0)
			exit(2);
		if (lstat(s, &st)) {
			err("lstat", s);
			goto next;
		}
		if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 &&
		    (first = hardlink_of(&st))) {
			if (link(first, t))
				err("link", t);
			nlinks++;
			goto next;	/* the inode's metadata is already set */
		}
		switch (st.st_mode & S_IFMT) {
		case S_IFDIR:
			if (mkdir(t, 0700)) {
				err("mkdir", t);
				goto next;
			}
			copy_dir(s, t);
			ndirs++;
			break;
		case S_IFREG:
			copy_data(s, t, &st);
			nfiles++;
			break;
		case S_IFLNK: {
			char target[4097];
			ssize_t k = readlink(s, target, sizeof(target) - 1);

			if (k < 0) {
				err("readlink", s);
				goto next;
			}
			target[k] = 0;
			if (symlink(target, t)) {
				err("symlink", t);
				goto next;
			}
			nsyms++;
			break;
		}
		case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
			if (mknod(t, st.st_mode & (S_IFMT | 0600), st.st_rdev)) {
				err("mknod", t);
				goto next;
			}
			nspecial++;
			break;
		default:
			fprintf(stderr, "treecopy: %s: unknown type 0%o\n", s,
				(unsigned int)(st.st_mode & S_IFMT));
			status = 1;
			goto next;
		}
		set_meta(t, &st);
		if (!S_ISDIR(st.st_mode) && st.st_nlink > 1)
			remember(&st, t);
next:
		free(s);
		free(t);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct stat st;

	if (argc != 3) {
		fprintf(stderr, "usage: treecopy SRC DST\n");
		return 2;
	}
	if (stat(argv[2], &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "treecopy: %s is not a directory\n", argv[2]);
		return 2;
	}
	copy_dir(argv[1], argv[2]);
	fprintf(stderr, "treecopy: %ld dirs, %ld files (%lld bytes of data), %ld hard links, %ld symlinks, %ld special\n",
		ndirs, nfiles, nbytes, nlinks, nsyms, nspecial);
	return status;
}
