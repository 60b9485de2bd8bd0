// SPDX-License-Identifier: GPL-2.0
/*
 * getdents-small - list a directory with getdents64(2) using a caller-chosen
 * buffer size, to exercise readdir position handling across many calls.
 *
 *   getdents-small DIR [BUFSIZE]      (default BUFSIZE 64)
 *
 * Prints one "ino type name" line per entry (type: the d_type number), in the
 * order the filesystem returns them, and "calls N" on stderr.
 */
#define _GNU_SOURCE
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

int main(int argc, char **argv)
{
	size_t bufsize = 64;
	long calls = 0;
	char *buf;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s DIR [BUFSIZE]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		bufsize = strtoul(argv[2], NULL, 0);
	if (bufsize < 24) {
		fprintf(stderr, "BUFSIZE too small\n");
		return 2;
	}
	buf = malloc(bufsize);
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (!buf || fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, bufsize);

		calls++;
		if (n < 0) {
			perror("getdents64");
			return 1;
		}
		if (n == 0)
			break;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			printf("%llu %u %s\n", (unsigned long long)d->d_ino,
			       d->d_type, d->d_name);
			off += d->d_reclen;
		}
	}
	fprintf(stderr, "calls %ld\n", calls);
	close(fd);
	free(buf);
	return 0;
}
