// SPDX-License-Identifier: GPL-2.0
/*
 * devsum - a digest of a block device or file that skips its zero blocks,
 * for "is this image unchanged" checks: disk images are mostly empty, and
 * hashing their zeros under TCG took most of such a check's time.
 *
 *   devsum FILE
 *
 * Prints the BLAKE2b-256 (blake2b.h), in hex, of: for each 4 KiB block
 * with a byte other than zero, its index as 8 little-endian bytes and its
 * bytes (the last block may be short); then the length of FILE as 8
 * little-endian bytes.  That stream determines the content exactly, so
 * two files have the same digest exactly when they have the same bytes
 * (barring a BLAKE2b collision).  Exit status: 0, 1 on a read error, 2 on
 * bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blake2b.h"

#define BLK 4096
#define BUF (1 << 20)

static int all_zero(const unsigned char *p, size_t len)
{
	static const unsigned char zero[BLK];

	return !memcmp(p, zero, len);
}

static void put_le64(struct b2 *s, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = v >> (8 * i);
	b2_update(s, b, 8);
}

int main(int argc, char **argv)
{
	static unsigned char buf[BUF];
	uint64_t total = 0;
	struct b2 s;
	char hex[65];
	int fd;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: devsum FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "devsum: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	b2_init(&s);
	for (;;) {
		size_t have = 0, off;
		ssize_t n;

		/* whole blocks per buffer, so block indices stay aligned */
		while (have < BUF) {
			n = read(fd, buf + have, BUF - have);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				fprintf(stderr, "devsum: %s: %s\n", argv[1], strerror(errno));
				return 1;
			}
			if (n == 0)
				break;
			have += n;
		}
		for (off = 0; off < have; off += BLK) {
			size_t len = have - off < BLK ? have - off : BLK;

			if (all_zero(buf + off, len))
				continue;
			put_le64(&s, (total + off) / BLK);
			b2_update(&s, buf + off, len);
		}
		total += have;
		if (have < BUF)
			break;
	}
	close(fd);
	put_le64(&s, total);
	b2_hex(&s, hex);
	puts(hex);
	return 0;
}
