// SPDX-License-Identifier: GPL-2.0
/*
 * shortwrite - one write(2) whose user buffer faults part way: a short
 * write, as a program with a bad pointer or a racing munmap gets.
 *
 *   shortwrite FILE OFFSET GOOD TOTAL SEED
 *
 * Opens FILE read-write (creating it, mode 0644) and calls pwrite(2) once
 * with TOTAL bytes at OFFSET, from a buffer whose first GOOD bytes (a
 * multiple of 4096) are readable, filled with a pure function of SEED and
 * the file offset (as mmapwrite's), and whose rest is PROT_NONE.  Prints
 * what pwrite returned ("wrote N" or "error ERRNO-NAME").  The kernel
 * copies up to the fault, so the write is short at GOOD bytes, or fails
 * with EFAULT when GOOD is 0.  Exit status 0 when pwrite returned GOOD
 * (or EFAULT for GOOD 0), 1 otherwise, 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pattern.h"

#define PG 4096ULL

int main(int argc, char **argv)
{
	uint64_t off, good, total, seed, j, maplen;
	unsigned char *buf;
	ssize_t n;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: shortwrite FILE OFFSET GOOD TOTAL SEED\n");
		return 2;
	}
	off = strtoull(argv[2], NULL, 0);
	good = strtoull(argv[3], NULL, 0);
	total = strtoull(argv[4], NULL, 0);
	seed = strtoull(argv[5], NULL, 0);
	if (good % PG || good >= total) {
		fprintf(stderr, "shortwrite: GOOD must be a multiple of 4096 below TOTAL\n");
		return 2;
	}
	maplen = (total + PG - 1) / PG * PG;
	buf = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (j = 0; j < good; j++)
		buf[j] = pattern(seed, off + j);
	if (mprotect(buf + good, maplen - good, PROT_NONE)) {
		perror("mprotect");
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	n = pwrite(fd, buf, total, (off_t)off);
	if (n < 0) {
		printf("error %s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "?");
		close(fd);
		return good == 0 && errno == EFAULT ? 0 : 1;
	}
	printf("wrote %zd\n", n);
	if (close(fd)) {
		perror("close");
		return 1;
	}
	return (uint64_t)n == good ? 0 : 1;
}
