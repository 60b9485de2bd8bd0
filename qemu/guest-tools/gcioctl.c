// SPDX-License-Identifier: GPL-2.0
/*
 * gcioctl - ask an f2fs for one garbage-collection pass through the
 * F2FS_IOC_GARBAGE_COLLECT ioctl (the guest's f2fs_io has no "gc"
 * command), so that a test can make GC happen when it wants it.
 *
 *   gcioctl fg|bg PATH [COUNT]
 *
 * PATH is any file or directory on the f2fs.  "fg" runs a foreground pass
 * (the kernel waits for the GC lock; the stock module cleans one greedy
 * victim and writes its blocks at once), "bg" a background pass (the stock
 * module picks a cost-benefit victim and leaves its blocks dirty for
 * writeback).  COUNT (default 1) passes are asked for, one after another.
 *
 * Output: one line, "gcioctl: N passes, N cleaned, N found nothing, N busy".
 * Exit status: 0 when at least one pass cleaned something, 3 when none
 * did (ENODATA/EAGAIN: nothing worth cleaning; EBUSY: GC was running),
 * 1 on another error (the errno is printed), 2 on bad arguments.  Nothing
 * random: no seed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/types.h>

#define F2FS_IOCTL_MAGIC		0xf5
#define F2FS_IOC_GARBAGE_COLLECT	_IOW(F2FS_IOCTL_MAGIC, 6, __u32)

static int usage(void)
{
	fprintf(stderr, "usage: gcioctl fg|bg PATH [COUNT]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long count = 1, i, cleaned = 0, nodata = 0, busy = 0;
	__u32 sync;
	char *end;
	int fd;

	if (argc < 3 || argc > 4)
		return usage();
	if (!strcmp(argv[1], "fg"))
		sync = 1;
	else if (!strcmp(argv[1], "bg"))
		sync = 0;
	else
		return usage();
	if (argc == 4) {
		errno = 0;
		count = strtol(argv[3], &end, 10);
		if (errno || *end || count < 1 || count > 100000)
			return usage();
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "gcioctl: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync) == 0) {
			cleaned++;
		} else if (errno == ENODATA || errno == EAGAIN) {
			nodata++;
		} else if (errno == EBUSY) {
			busy++;
		} else {
			fprintf(stderr, "gcioctl: F2FS_IOC_GARBAGE_COLLECT on %s: %s\n",
				argv[2], strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	printf("gcioctl: %ld passes, %ld cleaned, %ld found nothing, %ld busy\n",
	       count, cleaned, nodata, busy);
	return cleaned ? 0 : 3;
}
