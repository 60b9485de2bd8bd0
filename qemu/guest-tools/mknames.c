// SPDX-License-Identifier: GPL-2.0
/*
 * mknames - fill a directory with many regular files, fast (a shell loop
 * is far too slow under TCG for tens of thousands of entries).
 *
 *   mknames LIST DIR
 *
 * Each line of LIST is "N NAME": DIR/NAME is created (O_EXCL, mode 0644
 * whatever the umask) holding N bytes: NAME repeated and cut to N bytes.
 * Files are created in LIST order.  Prints a count on stderr; exit status
 * 0, or 1 after the first error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *line = NULL, *name, *content = NULL, *end;
	size_t cap = 0;
	ssize_t len;
	long count = 0;
	FILE *list;
	int dfd;

	if (argc != 3) {
		fprintf(stderr, "usage: mknames LIST DIR\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (!list || dfd < 0) {
		perror(list ? argv[2] : argv[1]);
		return 1;
	}
	while ((len = getline(&line, &cap, list)) > 0) {
		unsigned long n, i;
		size_t nl;
		int fd;

		if (line[len - 1] == '\n')
			line[--len] = 0;
		n = strtoul(line, &end, 10);
		if (*end != ' ' || !end[1] || n > 1 << 20) {
			fprintf(stderr, "mknames: bad line '%s'\n", line);
			return 1;
		}
		name = end + 1;
		nl = strlen(name);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || fchmod(fd, 0644)) {
			fprintf(stderr, "mknames: create %s: %s\n", name, strerror(errno));
			return 1;
		}
		if (n) {
			content = realloc(content, n);
			if (!content)
				return 2;
			for (i = 0; i < n; i++)
				content[i] = name[i % nl];
			if (write(fd, content, n) != (ssize_t)n) {
				fprintf(stderr, "mknames: write %s: %s\n", name, strerror(errno));
				return 1;
			}
		}
		if (close(fd)) {
			fprintf(stderr, "mknames: close %s: %s\n", name, strerror(errno));
			return 1;
		}
		count++;
	}
	fprintf(stderr, "mknames: %ld files in %s\n", count, argv[2]);
	return 0;
}
