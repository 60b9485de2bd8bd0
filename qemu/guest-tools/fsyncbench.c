// SPDX-License-Identifier: GPL-2.0
/*
 * fsyncbench - latency of fsync after a small append.
 *
 *   fsyncbench [-a] [-d] FILE COUNT [BYTES]
 *
 * Appends BYTES (default 4096) to FILE (created, truncated; with -a kept
 * as it is) COUNT times, calling fsync() (with -d fdatasync()) after each
 * append, and prints one line:
 *
 *   ops N bytes B fsync_median_us M fsync_p90_us P fsync_p99_us Q
 *   fsync_max_us X total_ms T
 *
 * Only the fsync() call is timed (CLOCK_MONOTONIC).  Exit status 1 on any
 * error (the failing call is named).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long count, bytes = 4096, i;
	long long *lat, t0, start;
	int fd, opt, flags = O_TRUNC, datasync = 0;
	char *buf;

	while ((opt = getopt(argc, argv, "ad")) != -1) {
		if (opt == 'a')
			flags = 0;
		else if (opt == 'd')
			datasync = 1;
		else
			goto usage;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 3 || argc > 4) {
usage:
		fprintf(stderr, "usage: fsyncbench [-a] [-d] FILE COUNT [BYTES]\n");
		return 2;
	}
	count = strtol(argv[2], NULL, 10);
	if (argc == 4)
		bytes = strtol(argv[3], NULL, 10);
	if (count <= 0 || bytes <= 0 || bytes > (1 << 24)) {
		fprintf(stderr, "fsyncbench: bad COUNT or BYTES\n");
		return 2;
	}
	lat = calloc(count, sizeof(*lat));
	buf = malloc(bytes);
	if (!lat || !buf) {
		fprintf(stderr, "fsyncbench: out of memory\n");
		return 1;
	}
	for (i = 0; i < bytes; i++)
		buf[i] = (char)(i * 131 + 7);
	fd = open(argv[1], O_WRONLY | O_CREAT | flags | O_APPEND, 0644);
	if (fd < 0) {
		fprintf(stderr, "fsyncbench: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	start = now_ns();
	for (i = 0; i < count; i++) {
		if (write(fd, buf, bytes) != bytes) {
			fprintf(stderr, "fsyncbench: write: %s\n", strerror(errno));
			return 1;
		}
		t0 = now_ns();
		if (datasync ? fdatasync(fd) : fsync(fd)) {
			fprintf(stderr, "fsyncbench: %s: %s\n",
				datasync ? "fdatasync" : "fsync", strerror(errno));
			return 1;
		}
		lat[i] = now_ns() - t0;
	}
	t0 = now_ns() - start;
	close(fd);
	qsort(lat, count, sizeof(*lat), cmp_ll);
	printf("ops %ld bytes %ld fsync_median_us %lld fsync_p90_us %lld fsync_p99_us %lld fsync_max_us %lld total_ms %lld\n",
	       count, bytes, lat[count / 2] / 1000, lat[count * 9 / 10] / 1000,
	       lat[count * 99 / 100] / 1000, lat[count - 1] / 1000, t0 / 1000000);
	return 0;
}
