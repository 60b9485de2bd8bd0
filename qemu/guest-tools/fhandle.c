// SPDX-License-Identifier: GPL-2.0
/*
 * fhandle - file handles from the shell: what an NFS server does with them.
 *
 *   fhandle save PATH HANDLEFILE     name_to_handle_at(2) of PATH, stored
 *   fhandle open MOUNT HANDLEFILE [-c]
 *                                    open_by_handle_at(2) relative to MOUNT
 *   fhandle forge INO GEN HANDLEFILE a handle of type FILEID_INO32_GEN (1)
 *                                    naming inode INO, generation GEN (0:
 *                                    any), as a client could send
 *
 * "open" prints one line, "ino=N type=reg|dir|other path=P", where P is
 * what /proc/self/fd says the descriptor names: a directory handle opened
 * after drop_caches shows its full path only if the filesystem could
 * reconnect it to the tree (export_operations.get_parent).  With -c the
 * content of a regular file follows on stdout (the line goes to stderr
 * then), for a checksum.  A failure prints the errno name (ESTALE for a
 * handle whose inode is gone) and exits 1; bad arguments exit 2.  Needs
 * CAP_DAC_READ_SEARCH (root).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_HANDLE 128

static int usage(void)
{
	fprintf(stderr, "usage: fhandle save PATH HANDLEFILE\n"
			"       fhandle open MOUNT HANDLEFILE [-c]\n"
			"       fhandle forge INO GEN HANDLEFILE\n");
	return 2;
}

static const char *errname(int e)
{
	switch (e) {
	case ESTALE: return "ESTALE";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	case EUCLEAN: return "EUCLEAN";
	default: return "other";
	}
}

static int fail(const char *what)
{
	int e = errno;

	printf("fhandle: %s: %s (%s)\n", what, strerror(e), errname(e));
	return 1;
}

static int store(const struct file_handle *fh, const char *out)
{
	size_t len = sizeof(*fh) + fh->handle_bytes;
	int fd;

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, fh, len) != (ssize_t)len || close(fd))
		return fail(out);
	return 0;
}

static int save(const char *path, const char *out)
{
	struct file_handle *fh = calloc(1, sizeof(*fh) + MAX_HANDLE);
	int mount_id;

	if (!fh)
		return fail("calloc");
	fh->handle_bytes = MAX_HANDLE;
	if (name_to_handle_at(AT_FDCWD, path, fh, &mount_id, 0))
		return fail("name_to_handle_at");
	return store(fh, out);
}

static int forge(const char *ino, const char *gen, const char *out)
{
	struct file_handle *fh = calloc(1, sizeof(*fh) + 8);
	uint32_t v[2];
	char *end1, *end2;

	if (!fh)
		return fail("calloc");
	v[0] = strtoul(ino, &end1, 0);
	v[1] = strtoul(gen, &end2, 0);
	if (*end1 || *end2 || !*ino || !*gen)
		return usage();
	fh->handle_bytes = 8;
	fh->handle_type = 1;	/* FILEID_INO32_GEN */
	memcpy(fh->f_handle, v, sizeof(v));
	return store(fh, out);
}

static int open_handle(const char *mnt, const char *in, int cat)
{
	struct file_handle *fh = calloc(1, sizeof(*fh) + MAX_HANDLE);
	char link[64], path[PATH_MAX], buf[65536];
	int mfd, hfd, fd;
	struct stat st;
	ssize_t n;

	if (!fh)
		return fail("calloc");
	hfd = open(in, O_RDONLY);
	if (hfd < 0)
		return fail(in);
	n = read(hfd, fh, sizeof(*fh) + MAX_HANDLE);
	close(hfd);
	if (n < (ssize_t)sizeof(*fh) || fh->handle_bytes > MAX_HANDLE ||
	    (size_t)n != sizeof(*fh) + fh->handle_bytes) {
		fprintf(stderr, "fhandle: %s is not a saved handle\n", in);
		return 2;
	}
	mfd = open(mnt, O_RDONLY | O_DIRECTORY);
	if (mfd < 0)
		return fail(mnt);
	fd = open_by_handle_at(mfd, fh, O_RDONLY);
	if (fd < 0)
		return fail("open_by_handle_at");
	if (fstat(fd, &st))
		return fail("fstat");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	fprintf(cat ? stderr : stdout, "ino=%lu type=%s path=%s\n",
		(unsigned long)st.st_ino,
		S_ISREG(st.st_mode) ? "reg" : S_ISDIR(st.st_mode) ? "dir" : "other",
		path);
	if (cat && S_ISREG(st.st_mode)) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, n, stdout) != (size_t)n)
				return fail("stdout");
		if (n < 0)
			return fail("read");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "forge"))
		return forge(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "save"))
		return save(argv[2], argv[3]);
	if ((argc == 4 || (argc == 5 && !strcmp(argv[4], "-c"))) &&
	    !strcmp(argv[1], "open"))
		return open_handle(argv[2], argv[3], argc == 5);
	return usage();
}
