// SPDX-License-Identifier: GPL-2.0
/*
 * badargs - call file system interfaces with bad arguments and print what
 * each call answers, so that a test can compare a module's errors with an
 * expected list (and with the stock module's).
 *
 *   badargs DIR RODIR
 *
 * DIR is a writable directory on the filesystem under test, RODIR the same
 * directory seen through a read-only mount (e.g. a read-only bind mount).
 * Run as root: the cases marked "nonroot" run in a child that dropped to
 * uid/gid 65534 (nobody) first.  badargs creates its files in DIR (names
 * starting "ba-"), removes nothing, and expects none of them to exist.
 *
 * Output: one line per case, "NAME RESULT", where RESULT is OK (the call
 * succeeded; some cases add a detail, e.g. "OK mapped=0") or the errno's
 * name (EINVAL, ENOTTY ...).  The cases: FS_IOC_SETFLAGS (unknown flag,
 * read-only mount, not the owner, +i without CAP_LINUX_IMMUTABLE, NULL
 * pointer), FS_IOC_FSSETXATTR (project id, unknown xflags), FS_IOC_GETVERSION
 * on a directory, FIEMAP (FIEMAP_FLAG_XATTR, an unknown flag, zero length,
 * start beyond EOF, a huge extent count, more than FIEMAP_MAX_EXTENTS),
 * FIBMAP (directory, negative block, not root), an unknown ioctl, fallocate
 * (punch without keep-size, negative offset, zero length, unknown mode,
 * collapse, offset+len overflow, directory, read-only descriptor), lseek
 * SEEK_DATA/SEEK_HOLE beyond EOF, setxattr (name too long, value over 64
 * KiB, value too big for an inode, unknown namespace, user.* on a symlink,
 * small getxattr buffer, removing a missing one), open_by_handle_at (forged
 * inode number, oversized handle, bad type, not root) and swapon of a file
 * with holes.  Nothing random: no seed.  Exit status 0 when every case ran
 * (whatever it answered), 1 when the setup failed, 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#define NOBODY 65534

static const char *dir, *rodir;
static char detail[64];

static void path(char *buf, const char *base, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, name);
}

static int open_in(const char *base, const char *name, int flags)
{
	char p[PATH_MAX];

	path(p, base, name);
	return open(p, flags, 0644);
}

/* Each case returns 0 or -errno. */
#define RET(x) ((x) < 0 ? -errno : 0)

static int with_fd(const char *base, const char *name, int flags,
		   unsigned long req, void *arg)
{
	int fd = open_in(base, name, flags), r;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, req, arg);
	r = RET(r);
	close(fd);
	return r;
}

static int setflags(const char *base, const char *name, int add)
{
	int fd = open_in(base, name, O_RDONLY), r, f;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, FS_IOC_GETFLAGS, &f);
	if (!r) {
		f |= add;
		r = ioctl(fd, FS_IOC_SETFLAGS, &f);
	}
	r = RET(r);
	close(fd);
	return r;
}

static int c_setflags_unknown(void) { return setflags(dir, "ba-file", 0x01000000); }
static int c_setflags_ro(void) { return setflags(rodir, "ba-file", FS_NODUMP_FL); }
static int c_setflags_notowner(void) { return setflags(dir, "ba-file", FS_NODUMP_FL); }
static int c_setflags_immutable_own(void) { return setflags(dir, "ba-nobody", FS_IMMUTABLE_FL); }
static int c_setflags_null(void) { return with_fd(dir, "ba-file", O_RDONLY, FS_IOC_SETFLAGS, NULL); }

static int fssetx(unsigned int projid, unsigned int xflags)
{
	int fd = open_in(dir, "ba-file", O_RDONLY), r;
	struct fsxattr fa;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, FS_IOC_FSGETXATTR, &fa);
	if (!r) {
		fa.fsx_projid = projid;
		fa.fsx_xflags |= xflags;
		r = ioctl(fd, FS_IOC_FSSETXATTR, &fa);
	}
	r = RET(r);
	close(fd);
	return r;
}

static int c_fssetxattr_projid(void) { return fssetx(5, 0); }
static int c_fssetxattr_xflags(void) { return fssetx(0, FS_XFLAG_REALTIME | 0x00100000); }

static int c_getversion_dir(void)
{
	int v = -1, r = with_fd(dir, "ba-dir", O_RDONLY | O_DIRECTORY, FS_IOC_GETVERSION, &v);

	return r;
}

/*
 * FIEMAP of ba-file; COUNT is what the caller claims.  ba-file has 16
 * blocks, so 16 slots hold every extent even when the allocator split it
 * (alloc_mode=reuse goes on in another segment when the log's is full);
 * the answer reports the bytes mapped, not the number of extents.
 */
static int fiemap(__u32 flags, __u64 start, __u64 len, __u32 count)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[16];
	} m;
	int fd = open_in(dir, "ba-file", O_RDONLY), r;
	unsigned long long bytes = 0;
	__u32 i;

	if (fd < 0)
		return -errno;
	memset(&m, 0, sizeof(m));
	m.fm.fm_start = start;
	m.fm.fm_length = len;
	m.fm.fm_flags = flags;
	m.fm.fm_extent_count = count;
	r = ioctl(fd, FS_IOC_FIEMAP, &m);
	r = RET(r);
	if (!r) {
		for (i = 0; i < m.fm.fm_mapped_extents &&
		     i < sizeof(m.ext) / sizeof(m.ext[0]); i++)
			bytes += m.ext[i].fe_length;
		snprintf(detail, sizeof(detail), "bytes=%llu", bytes);
	}
	close(fd);
	return r;
}

static int c_fiemap_xattr(void) { return fiemap(FIEMAP_FLAG_XATTR, 0, ~0ULL, 1); }
static int c_fiemap_unknown_flag(void) { return fiemap(0x100, 0, ~0ULL, 1); }
static int c_fiemap_zero_length(void) { return fiemap(0, 0, 0, 1); }
static int c_fiemap_beyond_eof(void) { return fiemap(0, 1ULL << 40, ~0ULL, 1); }
static int c_fiemap_count_huge(void) { return fiemap(0, 0, ~0ULL, 1000000); }
static int c_fiemap_count_over_max(void) { return fiemap(0, 0, ~0ULL, UINT_MAX); }

static int fibmap(const char *name, int flags, int block)
{
	return with_fd(dir, name, flags, FIBMAP, &block);
}

static int c_fibmap_dir(void) { return fibmap("ba-dir", O_RDONLY | O_DIRECTORY, 0); }
static int c_fibmap_negative(void) { return fibmap("ba-file", O_RDONLY, -1); }
static int c_fibmap_nonroot(void) { return fibmap("ba-nobody", O_RDONLY, 0); }

static int c_unknown_ioctl(void)
{
	int v = 0;

	return with_fd(dir, "ba-file", O_RDONLY, _IOR(0xf5, 0x7e, int), &v);
}

static int falloc(const char *name, int flags, int mode, off_t off, off_t len)
{
	int fd = open_in(dir, name, flags), r;

	if (fd < 0)
		return -errno;
	r = fallocate(fd, mode, off, len);
	r = RET(r);
	close(fd);
	return r;
}

static int c_falloc_punch_no_keep(void) { return falloc("ba-file", O_RDWR, FALLOC_FL_PUNCH_HOLE, 0, 4096); }
static int c_falloc_negative_offset(void) { return falloc("ba-file", O_RDWR, 0, -4096, 4096); }
static int c_falloc_zero_length(void) { return falloc("ba-file", O_RDWR, 0, 0, 0); }
static int c_falloc_unknown_mode(void) { return falloc("ba-file", O_RDWR, 0x100, 0, 4096); }
static int c_falloc_collapse(void) { return falloc("ba-scratch", O_RDWR, FALLOC_FL_COLLAPSE_RANGE, 0, 4096); }
static int c_falloc_overflow(void) { return falloc("ba-file", O_RDWR, 0, LLONG_MAX - 4095, 8192); }
static int c_falloc_dir(void) { return falloc("ba-dir", O_RDONLY | O_DIRECTORY, 0, 0, 4096); }
static int c_falloc_rdonly_fd(void) { return falloc("ba-file", O_RDONLY, 0, 0, 4096); }

static int seek(int whence, off_t off)
{
	int fd = open_in(dir, "ba-file", O_RDONLY), r;

	if (fd < 0)
		return -errno;
	r = lseek(fd, off, whence) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static int c_seek_data_beyond_eof(void) { return seek(SEEK_DATA, 1 << 20); }
static int c_seek_hole_beyond_eof(void) { return seek(SEEK_HOLE, 1 << 20); }
static int c_seek_data_negative(void) { return seek(SEEK_DATA, -1); }

static int setx(const char *name, const char *attr, size_t size, int nofollow)
{
	char p[PATH_MAX], *v = calloc(1, size + 1);
	int r;

	if (!v)
		return -ENOMEM;
	memset(v, 'v', size);
	path(p, dir, name);
	r = nofollow ? lsetxattr(p, attr, v, size, 0) : setxattr(p, attr, v, size, 0);
	r = RET(r);
	free(v);
	return r;
}

/* A user.* name of LEN characters in all. */
static int xattr_name(size_t len)
{
	char n[320];

	memcpy(n, "user.", 5);
	memset(n + 5, 'n', len - 5);
	n[len] = 0;
	return setx("ba-file", n, 4, 0);
}

static int c_xattr_name_too_long(void) { return xattr_name(305); }
static int c_xattr_name_256(void) { return xattr_name(256); }
static int c_xattr_value_over_64k(void) { return setx("ba-file", "user.big", 65537, 0); }
static int c_xattr_value_too_big(void) { return setx("ba-file", "user.big", 16384, 0); }
static int c_xattr_unknown_namespace(void) { return setx("ba-file", "foo.bar", 4, 0); }
static int c_xattr_empty_name(void) { return setx("ba-file", "user.", 4, 0); }
static int c_xattr_user_on_symlink(void) { return setx("ba-link", "user.x", 4, 1); }

static int c_xattr_small_buffer(void)
{
	char p[PATH_MAX], v[2];
	int r;

	r = setx("ba-file", "user.small", 16, 0);
	if (r)
		return r;
	path(p, dir, "ba-file");
	r = getxattr(p, "user.small", v, sizeof(v));
	return RET(r);
}

static int c_xattr_remove_missing(void)
{
	char p[PATH_MAX];

	path(p, dir, "ba-file");
	return RET(removexattr(p, "user.missing"));
}

/* A handle of ba-file; MUTATE changes it before open_by_handle_at. */
static int handle(int mutate)
{
	struct {
		struct file_handle fh;		/* f_handle[] is bytes[] */
		unsigned char bytes[MAX_HANDLE_SZ];
	} h;
	char p[PATH_MAX];
	int mnt, mfd, fd, r;

	_Static_assert(sizeof(struct file_handle) == 8, "f_handle[] is bytes[]");
	memset(&h, 0, sizeof(h));
	h.fh.handle_bytes = MAX_HANDLE_SZ;
	path(p, dir, "ba-file");
	if (name_to_handle_at(AT_FDCWD, p, &h.fh, &mnt, 0) < 0)
		return -errno;
	switch (mutate) {
	case 1:	/* inode number (the first 32 bits of FILEID_INO32_GEN) */
		h.bytes[0] ^= 0x5a;
		h.bytes[3] ^= 0x20;
		break;
	case 2:
		h.fh.handle_bytes = MAX_HANDLE_SZ + 1;
		break;
	case 3:
		h.fh.handle_type = 0xee;
		break;
	}
	mfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (mfd < 0)
		return -errno;
	fd = open_by_handle_at(mfd, &h.fh, O_RDONLY);
	r = RET(fd);
	if (fd >= 0)
		close(fd);
	close(mfd);
	return r;
}

static int c_handle_valid(void) { return handle(0); }
static int c_handle_forged_ino(void) { return handle(1); }
static int c_handle_oversized(void) { return handle(2); }
static int c_handle_bad_type(void) { return handle(3); }
static int c_handle_nonroot(void) { return handle(0); }

static int c_swapon_holes(void)
{
	char p[PATH_MAX];
	int r;

	path(p, dir, "ba-swap");
	r = swapon(p, 0);
	if (!r) {
		swapoff(p);
		return 0;
	}
	return -errno;
}

static const struct {
	const char *name;
	int (*fn)(void);
	int nonroot;
} cases[] = {
	{ "setflags_unknown_flag", c_setflags_unknown, 0 },
	{ "setflags_readonly_mount", c_setflags_ro, 0 },
	{ "setflags_not_owner", c_setflags_notowner, 1 },
	{ "setflags_immutable_by_owner", c_setflags_immutable_own, 1 },
	{ "setflags_null_pointer", c_setflags_null, 0 },
	{ "fssetxattr_project_id", c_fssetxattr_projid, 0 },
	{ "fssetxattr_unknown_xflags", c_fssetxattr_xflags, 0 },
	{ "getversion_dir", c_getversion_dir, 0 },
	{ "fiemap_flag_xattr", c_fiemap_xattr, 0 },
	{ "fiemap_unknown_flag", c_fiemap_unknown_flag, 0 },
	{ "fiemap_zero_length", c_fiemap_zero_length, 0 },
	{ "fiemap_start_beyond_eof", c_fiemap_beyond_eof, 0 },
	{ "fiemap_count_huge", c_fiemap_count_huge, 0 },
	{ "fiemap_count_over_max", c_fiemap_count_over_max, 0 },
	{ "fibmap_dir", c_fibmap_dir, 0 },
	{ "fibmap_negative_block", c_fibmap_negative, 0 },
	{ "fibmap_nonroot", c_fibmap_nonroot, 1 },
	{ "unknown_ioctl", c_unknown_ioctl, 0 },
	{ "falloc_punch_without_keep_size", c_falloc_punch_no_keep, 0 },
	{ "falloc_negative_offset", c_falloc_negative_offset, 0 },
	{ "falloc_zero_length", c_falloc_zero_length, 0 },
	{ "falloc_unknown_mode", c_falloc_unknown_mode, 0 },
	{ "falloc_collapse_range", c_falloc_collapse, 0 },
	{ "falloc_offset_overflow", c_falloc_overflow, 0 },
	{ "falloc_dir", c_falloc_dir, 0 },
	{ "falloc_readonly_fd", c_falloc_rdonly_fd, 0 },
	{ "seek_data_beyond_eof", c_seek_data_beyond_eof, 0 },
	{ "seek_hole_beyond_eof", c_seek_hole_beyond_eof, 0 },
	{ "seek_data_negative", c_seek_data_negative, 0 },
	{ "xattr_name_300", c_xattr_name_too_long, 0 },
	{ "xattr_name_256", c_xattr_name_256, 0 },
	{ "xattr_value_over_64k", c_xattr_value_over_64k, 0 },
	{ "xattr_value_16k", c_xattr_value_too_big, 0 },
	{ "xattr_unknown_namespace", c_xattr_unknown_namespace, 0 },
	{ "xattr_empty_user_name", c_xattr_empty_name, 0 },
	{ "xattr_user_on_symlink", c_xattr_user_on_symlink, 0 },
	{ "xattr_get_small_buffer", c_xattr_small_buffer, 0 },
	{ "xattr_remove_missing", c_xattr_remove_missing, 0 },
	{ "handle_valid", c_handle_valid, 0 },
	{ "handle_forged_ino", c_handle_forged_ino, 0 },
	{ "handle_oversized", c_handle_oversized, 0 },
	{ "handle_bad_type", c_handle_bad_type, 0 },
	{ "handle_nonroot", c_handle_nonroot, 1 },
	{ "swapon_file_with_holes", c_swapon_holes, 0 },
};

/* Run case I as nobody in a child; the child exits with -result. */
static int as_nobody(int i)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		_exit(-cases[i].fn() & 0xff);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) == 255)
		return -ECHILD;
	return -WEXITSTATUS(st);
}

static int make_file(const char *name, size_t size)
{
	char buf[4096];
	size_t done;
	int fd = open_in(dir, name, O_WRONLY | O_CREAT | O_EXCL);

	if (fd < 0)
		return -1;
	memset(buf, 'b', sizeof(buf));
	for (done = 0; done < size; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return -1;
	return fsync(fd) || close(fd) ? -1 : 0;
}

/* An 8 MiB swap file: a swap header in its first page, holes after it. */
static int make_swapfile(void)
{
	unsigned char page[4096] = { 0 };
	int fd = open_in(dir, "ba-swap", O_WRONLY | O_CREAT | O_EXCL);
	uint32_t v;

	if (fd < 0)
		return -1;
	v = 1;				/* version */
	memcpy(page + 1024, &v, 4);
	v = 8 * 256 - 1;		/* last page */
	memcpy(page + 1028, &v, 4);
	memcpy(page + 4086, "SWAPSPACE2", 10);
	if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page) ||
	    ftruncate(fd, 8 << 20) || fchmod(fd, 0600) || fsync(fd))
		return -1;
	return close(fd);
}

static int setup(void)
{
	char p[PATH_MAX], t[PATH_MAX];

	path(p, dir, "ba-dir");
	if (make_file("ba-file", 65536) || make_file("ba-scratch", 65536) ||
	    make_file("ba-nobody", 4096) || mkdir(p, 0755) || make_swapfile())
		return -1;
	path(p, dir, "ba-nobody");
	if (chown(p, NOBODY, NOBODY))
		return -1;
	path(p, dir, "ba-link");
	path(t, dir, "ba-file");
	return symlink(t, p);
}

int main(int argc, char **argv)
{
	unsigned int i;
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: badargs DIR RODIR\n");
		return 2;
	}
	dir = argv[1];
	rodir = argv[2];
	if (setup()) {
		fprintf(stderr, "badargs: setup in %s failed: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		detail[0] = 0;
		r = cases[i].nonroot ? as_nobody(i) : cases[i].fn();
		if (r)
			printf("%s %s\n", cases[i].name, strerrorname_np(-r) ?: "E?");
		else
			printf("%s OK%s%s\n", cases[i].name, detail[0] ? " " : "", detail);
		fflush(stdout);
	}
	return 0;
}
