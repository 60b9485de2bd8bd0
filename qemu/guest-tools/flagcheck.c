// SPDX-License-Identifier: GPL-2.0
/*
 * flagcheck - does chattr +i / +a hold against a descriptor and a shared
 * mapping that were made before the flag was set?
 *
 *   flagcheck FILE i|a
 *
 * FILE must exist and be at least 4 KiB.  flagcheck opens it read-write,
 * maps its first page MAP_SHARED (without touching it), then sets the
 * flag itself with FS_IOC_SETFLAGS (needs CAP_LINUX_IMMUTABLE) and tries
 * through the old descriptor and mapping:
 *   pwrite at offset 0          must fail with EPERM
 *   ftruncate                   must fail with EPERM
 *   a store into the mapping    must raise SIGBUS (page_mkwrite refuses)
 * then clears the flag again, and the pwrite must work (so the refusals
 * came from the flag).  One line per check, "ok" or "FAIL"; exit 0 when
 * all passed, 1 otherwise, 2 on bad arguments.  The file's first byte is
 * rewritten with its own value at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;

static void on_sigbus(int sig)
{
	siglongjmp(env, 1);
}

static int check(const char *what, int good)
{
	printf("%s %s\n", good ? "ok  " : "FAIL", what);
	return !good;
}

int main(int argc, char **argv)
{
	volatile int bad = 0, bus = 0;
	int fd, flags, flag;
	volatile char *map;
	char c;

	if (argc != 3 || (strcmp(argv[2], "i") && strcmp(argv[2], "a"))) {
		fprintf(stderr, "usage: flagcheck FILE i|a\n");
		return 2;
	}
	flag = argv[2][0] == 'i' ? FS_IMMUTABLE_FL : FS_APPEND_FL;
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || pread(fd, &c, 1, 0) != 1) {
		perror(argv[1]);
		return 1;
	}
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		perror("FS_IOC_GETFLAGS");
		return 1;
	}
	flags |= flag;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
		perror("FS_IOC_SETFLAGS");
		return 1;
	}
	errno = 0;
	bad |= check("pwrite through an older descriptor: EPERM",
		     pwrite(fd, &c, 1, 0) < 0 && errno == EPERM);
	errno = 0;
	bad |= check("ftruncate through an older descriptor: EPERM",
		     ftruncate(fd, 0) < 0 && errno == EPERM);
	signal(SIGBUS, on_sigbus);
	if (sigsetjmp(env, 1) == 0)
		map[1] = map[1];
	else
		bus = 1;
	bad |= check("store into an older shared mapping: SIGBUS", bus);
	flags &= ~flag;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
		perror("FS_IOC_SETFLAGS");
		return 1;
	}
	bad |= check("pwrite after the flag is cleared",
		     pwrite(fd, &c, 1, 0) == 1);
	return bad;
}
