// SPDX-License-Identifier: GPL-2.0
/*
 * getdents-small - list a directory with getdents64(2) using a caller-chosen
 * buffer size, to exercise readdir position handling across many calls.
 *
 *   getdents-small [-g] [-r N] DIR [BUFSIZE]      (default BUFSIZE 64)
 *
 * Prints one "ino type name" line per entry (type: the d_type number), in the
 * order the filesystem returns them, and "calls N" on stderr.
 *
 * -g: a call failing with EINVAL ("buffer too small for the next entry",
 * which must leave the position alone) is retried with 8 more bytes, for
 * that call only (a record takes up to 280 bytes: a 64-byte buffer cannot
 * hold a long name).
 *
 * BUFSIZE 0 means exactly one entry per call: -g starting from a 24-byte
 * buffer (the smallest record), so the call that succeeds has room for its
 * first entry but not for a second one (records are 8-byte aligned and at
 * least 24 bytes).  A call returning anything but exactly one record is an
 * error.
 *
 * -r N: after every N entries, remember the d_off of the last one (telldir),
 * close the directory, reopen it and lseek(2) there (seekdir), then go on:
 * the listing must be the same as without -r.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define MAXREC 280	/* 19-byte header + 255-byte name + NUL, 8-aligned */

int main(int argc, char **argv)
{
	size_t bufsize = 64, size;
	long calls = 0, einval = 0, reopens = 0, every = 0, count = 0;
	const char *dir;
	char *buf;
	int fd, opt, one, grow = 0;

	while ((opt = getopt(argc, argv, "gr:")) != -1) {
		if (opt == 'g')
			grow = 1;
		else if (opt == 'r')
			every = strtol(optarg, NULL, 0);
		else
			goto usage;
	}
	if (argc - optind < 1 || argc - optind > 2) {
usage:
		fprintf(stderr, "usage: %s [-g] [-r N] DIR [BUFSIZE]\n", argv[0]);
		return 2;
	}
	dir = argv[optind];
	if (argc - optind == 2)
		bufsize = strtoul(argv[optind + 1], NULL, 0);
	one = bufsize == 0;
	if (one) {
		bufsize = 24;
		grow = 1;
	}
	if (bufsize < 24) {
		fprintf(stderr, "BUFSIZE too small\n");
		return 2;
	}
	buf = malloc(bufsize < MAXREC ? MAXREC : bufsize);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (!buf || fd < 0) {
		perror(dir);
		return 1;
	}
	for (;;) {
		long n;

		size = bufsize;
		for (;;) {
			n = syscall(SYS_getdents64, fd, buf, size);
			calls++;
			if (!grow || n >= 0 || errno != EINVAL || size >= MAXREC)
				break;
			einval++;
			size += 8;
		}
		if (n < 0) {
			fprintf(stderr, "getdents64 (buffer %zu bytes): %s\n",
				size, strerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		if (one && n != ((struct linux_dirent64 *)buf)->d_reclen) {
			fprintf(stderr, "getdents64 with a %zu-byte buffer returned %ld bytes, not one entry\n",
				size, n);
			return 1;
		}
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			printf("%llu %u %s\n", (unsigned long long)d->d_ino,
			       d->d_type, d->d_name);
			off += d->d_reclen;
			if (every && ++count % every == 0) {
				off_t pos = d->d_off;

				close(fd);
				fd = open(dir, O_RDONLY | O_DIRECTORY);
				if (fd < 0) {
					perror(dir);
					return 1;
				}
				if (lseek(fd, pos, SEEK_SET) != pos) {
					fprintf(stderr, "lseek(dir, %lld): %s\n",
						(long long)pos, strerror(errno));
					return 1;
				}
				reopens++;
				break;	/* the rest of the buffer is read again */
			}
		}
	}
	fprintf(stderr, "calls %ld", calls);
	if (grow)
		fprintf(stderr, " (EINVAL retries %ld)", einval);
	if (every)
		fprintf(stderr, " reopens %ld", reopens);
	fputc('\n', stderr);
	close(fd);
	free(buf);
	return 0;
}
