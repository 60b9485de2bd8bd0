// SPDX-License-Identifier: GPL-2.0
/*
 * mmapwrite - modify a file only through a shared mapping (page_mkwrite).
 *
 *   mmapwrite [-t SIZE] FILE [OFFSET LENGTH SEED]...
 *
 * Opens FILE read-write (creating it, mode 0644), ftruncate(2)s it to SIZE
 * with -t (grow or shrink), maps the whole file MAP_SHARED and writes
 * LENGTH bytes at OFFSET for each triple.  The bytes are a pure function of
 * SEED and the file offset, so the same command on two filesystems gives
 * the same content.  Then msync(MS_SYNC), munmap, close.  A range must lie
 * inside the file (a store past EOF would be SIGBUS).  Exit status 0, or 1
 * after an error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pattern.h"

static int usage(void)
{
	fprintf(stderr, "usage: mmapwrite [-t SIZE] FILE [OFFSET LENGTH SEED]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	long long size = -1;
	struct stat st;
	unsigned char *map = NULL;
	const char *file;
	int fd, i, opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			return usage();
		size = strtoll(optarg, NULL, 0);
	}
	if (optind >= argc || (argc - optind - 1) % 3)
		return usage();
	file = argv[optind];
	fd = open(file, O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	if (size >= 0 && ftruncate(fd, size)) {
		perror("ftruncate");
		return 1;
	}
	if (fstat(fd, &st)) {
		perror("fstat");
		return 1;
	}
	if (st.st_size > 0) {
		map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
	}
	for (i = optind + 1; i + 2 < argc; i += 3) {
		uint64_t off = strtoull(argv[i], NULL, 0);
		uint64_t len = strtoull(argv[i + 1], NULL, 0);
		uint64_t seed = strtoull(argv[i + 2], NULL, 0), j;

		if (off + len > (uint64_t)st.st_size) {
			fprintf(stderr, "mmapwrite: %s: range %llu+%llu past EOF %lld\n",
				file, (unsigned long long)off,
				(unsigned long long)len, (long long)st.st_size);
			return 1;
		}
		for (j = 0; j < len; j++)
			map[off + j] = pattern(seed, off + j);
	}
	if (map) {
		if (msync(map, st.st_size, MS_SYNC)) {
			perror("msync");
			return 1;
		}
		if (munmap(map, st.st_size)) {
			perror("munmap");
			return 1;
		}
	}
	if (close(fd)) {
		perror("close");
		return 1;
	}
	return 0;
}
