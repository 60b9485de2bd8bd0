/*
 * replay-log - read and replay a dm-log-writes log device.
 *
 *   replay-log LOGDEV --list                 every entry: index, flags, sector, count, mark
 *   replay-log LOGDEV --points               only FLUSH/FUA/MARK entries (for scripts)
 *   replay-log LOGDEV --find-mark NAME       index of the (first) entry carrying mark NAME
 *   replay-log LOGDEV --replay TARGET [--start A] [--end N | --end-mark NAME |
 *                     --end-flush-after A] [--discard zero|skip] [-v]
 *
 * On-disk format (drivers/md/dm-log-writes.c, version 1), all little endian:
 *   log sector 0: struct log_write_super { u64 magic; u64 version;
 *                 u64 nr_entries; u32 sectorsize; }
 *   then, from log sector 1 (in units of sectorsize), one entry after another:
 *     one sector holding struct log_write_entry { u64 sector; u64 nr_sectors;
 *     u64 flags; u64 data_len; }, followed directly (MARK only) by data_len
 *     bytes of mark text in the same sector;
 *     then, unless the entry is a DISCARD or a MARK, nr_sectors sectors of
 *     data (the data of a write of nr_sectors sectors at "sector").
 *   "sector" and "nr_sectors" count units of sectorsize (the logical block
 *   size of the logged device), not 512-byte sectors.
 *   Entries are logged in completion order; a FLUSH entry is logged after
 *   every write that completed before the flush was issued.
 *
 * Entry indexes count from 0 (entry 0 is the first entry after the super).
 * Ranges are inclusive: --start A --end N replays entries A..N.  Without
 * --start the replay begins at entry 0; without an end it runs to the last
 * entry.  --end-flush-after A stops at the first FLUSH or FUA entry whose
 * index is >= A (inclusive), or at the last entry if there is none.
 *
 * DISCARD entries: with --discard zero (the default) the discarded range is
 * written with zeros; with --discard skip they are ignored.  A discarded
 * range may read back as anything (old data or zeros); zeros is the
 * conservative choice for f2fs, which discards the whole device at mkfs and
 * so must never rely on stale data there; "skip" keeps whatever the target
 * held before (e.g. the pre-mkfs content).
 *
 * A replay first walks the headers of the whole range, so that a corrupt or
 * truncated log or a missing mark leaves the target untouched.
 *
 * Exit status: 0 ok, 1 bad log device or I/O error, 2 usage error, 3 mark
 * or entry not found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#define WRITE_LOG_VERSION	1ULL
#define WRITE_LOG_MAGIC		0x6a736677736872ULL

#define LOG_FLUSH_FLAG		(1 << 0)
#define LOG_FUA_FLAG		(1 << 1)
#define LOG_DISCARD_FLAG	(1 << 2)
#define LOG_MARK_FLAG		(1 << 3)
#define LOG_METADATA_FLAG	(1 << 4)

struct lw_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct lw_entry {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
} __attribute__((packed));

struct entry {
	uint64_t idx;
	uint64_t pos;		/* byte offset of the entry sector in the log */
	uint64_t sector, nr_sectors, flags, data_len;
	char mark[256];
};

static const char *logpath;
static int logfd = -1;
static uint64_t logsize, nr_entries;
static uint32_t ssize;
static int verbose;

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "replay-log: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static uint64_t dev_size(int fd, const char *path)
{
	struct stat st;
	uint64_t sz = 0;

	if (fstat(fd, &st) < 0)
		die(1, "stat %s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz) < 0)
			die(1, "BLKGETSIZE64 %s: %s", path, strerror(errno));
		return sz;
	}
	return st.st_size;
}

static void pread_full(int fd, void *buf, size_t len, uint64_t off, const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done, off + done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(1, "%s: read of %zu bytes at %" PRIu64 ": %s", what, len, off, strerror(errno));
		}
		if (r == 0)
			die(1, "%s: short read at %" PRIu64 " (log truncated?)", what, off + done);
		done += r;
	}
}

static void pwrite_full(int fd, const void *buf, size_t len, uint64_t off, const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pwrite(fd, (const char *)buf + done, len - done, off + done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(1, "%s: write of %zu bytes at %" PRIu64 ": %s", what, len, off, strerror(errno));
		}
		done += r;
	}
}

static void open_log(void)
{
	unsigned char buf[512];
	struct lw_super sb;

	logfd = open(logpath, O_RDONLY);
	if (logfd < 0)
		die(1, "cannot open log device %s: %s", logpath, strerror(errno));
	logsize = dev_size(logfd, logpath);
	if (logsize < sizeof(buf))
		die(1, "%s: %" PRIu64 " bytes, too small for a dm-log-writes log", logpath, logsize);
	pread_full(logfd, buf, sizeof(buf), 0, logpath);
	memcpy(&sb, buf, sizeof(sb));
	if (le64toh(sb.magic) != WRITE_LOG_MAGIC)
		die(1, "%s: bad magic %#" PRIx64 " (want %#llx): not a dm-log-writes log, or never written",
		    logpath, (uint64_t)le64toh(sb.magic), WRITE_LOG_MAGIC);
	if (le64toh(sb.version) != WRITE_LOG_VERSION)
		die(1, "%s: log version %" PRIu64 ", this tool reads version %llu",
		    logpath, (uint64_t)le64toh(sb.version), WRITE_LOG_VERSION);
	ssize = le32toh(sb.sectorsize);
	if (ssize < 512 || ssize > 65536 || (ssize & (ssize - 1)))
		die(1, "%s: bad sector size %u in the log super block", logpath, ssize);
	nr_entries = le64toh(sb.nr_entries);
}

/* Read entry at byte offset pos (index idx); returns the offset of the next one. */
static uint64_t read_entry(uint64_t pos, uint64_t idx, struct entry *e)
{
	char *buf = malloc(ssize);
	struct lw_entry raw;
	uint64_t next;

	if (!buf)
		die(1, "out of memory");
	if (pos + ssize > logsize)
		die(1, "%s: entry %" PRIu64 " at byte %" PRIu64 " lies past the end of the log (%" PRIu64 " bytes): super says %" PRIu64 " entries",
		    logpath, idx, pos, logsize, nr_entries);
	pread_full(logfd, buf, ssize, pos, logpath);
	memcpy(&raw, buf, sizeof(raw));
	e->idx = idx;
	e->pos = pos;
	e->sector = le64toh(raw.sector);
	e->nr_sectors = le64toh(raw.nr_sectors);
	e->flags = le64toh(raw.flags);
	e->data_len = le64toh(raw.data_len);
	e->mark[0] = 0;
	if (e->flags & ~(uint64_t)0x1f)
		die(1, "%s: entry %" PRIu64 " at byte %" PRIu64 ": unknown flags %#" PRIx64 " (corrupt log?)",
		    logpath, idx, pos, e->flags);
	if (e->flags & LOG_MARK_FLAG) {
		size_t n = e->data_len;

		if (n > ssize - sizeof(raw))
			die(1, "%s: entry %" PRIu64 ": mark of %zu bytes does not fit its sector", logpath, idx, n);
		if (n > sizeof(e->mark) - 1)
			n = sizeof(e->mark) - 1;
		memcpy(e->mark, buf + sizeof(raw), n);
		e->mark[n] = 0;
	}
	free(buf);
	next = pos + ssize;
	if (!(e->flags & (LOG_DISCARD_FLAG | LOG_MARK_FLAG)))
		next += e->nr_sectors * ssize;
	if (next > logsize)
		die(1, "%s: data of entry %" PRIu64 " runs past the end of the log", logpath, idx);
	return next;
}

static const char *flagstr(uint64_t f, char *s)
{
	s[0] = 0;
	if (f & LOG_FLUSH_FLAG)
		strcat(s, "FLUSH|");
	if (f & LOG_FUA_FLAG)
		strcat(s, "FUA|");
	if (f & LOG_DISCARD_FLAG)
		strcat(s, "DISCARD|");
	if (f & LOG_MARK_FLAG)
		strcat(s, "MARK|");
	if (f & LOG_METADATA_FLAG)
		strcat(s, "METADATA|");
	if (s[0])
		s[strlen(s) - 1] = 0;
	else
		strcpy(s, "WRITE");
	return s;
}

static void print_entry(const struct entry *e)
{
	char fl[64];

	/* idx flags sector count [mark] ; sector/count in 512-byte units */
	printf("%" PRIu64 " %s %" PRIu64 " %" PRIu64 "%s%s\n", e->idx, flagstr(e->flags, fl),
	       e->sector * (ssize / 512), e->nr_sectors * (ssize / 512),
	       e->mark[0] ? " " : "", e->mark);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: replay-log LOGDEV --list | --points | --find-mark NAME\n"
		"       replay-log LOGDEV --replay TARGET [--start A] [--end N | --end-mark NAME |\n"
		"                  --end-flush-after A] [--discard zero|skip] [-v]\n"
		"Entries count from 0; ranges are inclusive.  --list prints\n"
		"\"INDEX FLAGS SECTOR COUNT [MARK]\" (sectors of 512 bytes); --points prints only\n"
		"the FLUSH, FUA and MARK entries in the same format.  A replay prints\n"
		"\"replayed A..N\" (the last entry replayed) on stdout.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	enum { NONE, LIST, POINTS, FINDMARK, REPLAY } mode = NONE;
	const char *target = NULL, *endmark = NULL, *findmark = NULL;
	uint64_t start = 0, end = UINT64_MAX, flushafter = UINT64_MAX;
	int discard_zero = 1, have_end = 0;
	int tfd = -1, i;
	uint64_t tsize = 0, pos, idx, last = UINT64_MAX, written = 0;
	char *zero = NULL, *data = NULL;
	size_t datacap = 0;

	if (argc < 3)
		usage();
	logpath = argv[1];
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *endp;

#define NEEDV() do { if (!v) usage(); i++; } while (0)
#define NUMV(dst) do { NEEDV(); errno = 0; dst = strtoull(v, &endp, 10); \
		if (errno || *endp || !*v) die(2, "%s: bad number '%s'", a, v); } while (0)
		if (!strcmp(a, "--list")) {
			mode = LIST;
		} else if (!strcmp(a, "--points")) {
			mode = POINTS;
		} else if (!strcmp(a, "--find-mark")) {
			NEEDV();
			mode = FINDMARK;
			findmark = v;
		} else if (!strcmp(a, "--replay")) {
			NEEDV();
			mode = REPLAY;
			target = v;
		} else if (!strcmp(a, "--start")) {
			NUMV(start);
		} else if (!strcmp(a, "--end")) {
			NUMV(end);
			have_end++;
		} else if (!strcmp(a, "--end-mark")) {
			NEEDV();
			endmark = v;
			have_end++;
		} else if (!strcmp(a, "--end-flush-after")) {
			NUMV(flushafter);
			have_end++;
		} else if (!strcmp(a, "--discard")) {
			NEEDV();
			if (!strcmp(v, "zero"))
				discard_zero = 1;
			else if (!strcmp(v, "skip"))
				discard_zero = 0;
			else
				die(2, "--discard wants zero or skip, not '%s'", v);
		} else if (!strcmp(a, "-v")) {
			verbose = 1;
		} else {
			usage();
		}
	}
	if (mode == NONE)
		usage();
	if (have_end > 1)
		die(2, "give at most one of --end, --end-mark, --end-flush-after");

	open_log();
	if (mode == REPLAY) {
		tfd = open(target, O_WRONLY);
		if (tfd < 0)
			die(1, "cannot open target %s: %s", target, strerror(errno));
		tsize = dev_size(tfd, target);
		zero = calloc(1, 1 << 20);
		if (!zero)
			die(1, "out of memory");
	}

	if (mode == REPLAY) {
		if (start >= nr_entries)
			die(3, "start entry %" PRIu64 " beyond the last entry (the log holds %" PRIu64 " entries)", start, nr_entries);
		if (end != UINT64_MAX && end >= nr_entries)
			die(3, "end entry %" PRIu64 " beyond the last entry (the log holds %" PRIu64 " entries)", end, nr_entries);
		if (end != UINT64_MAX && end < start)
			die(2, "end entry %" PRIu64 " before start entry %" PRIu64, end, start);
		/*
		 * Walk the headers of the range first (and resolve --end-mark):
		 * a missing mark or a corrupt or truncated log writes nothing.
		 */
		struct entry e;

		for (pos = ssize, idx = 0; idx < nr_entries && idx <= end; idx++) {
			pos = read_entry(pos, idx, &e);
			if (endmark && idx >= start && (e.flags & LOG_MARK_FLAG) && !strcmp(e.mark, endmark))
				break;
		}
		if (endmark) {
			if (idx >= nr_entries)
				die(3, "no mark '%s' at or after entry %" PRIu64 " in %s", endmark, start, logpath);
			end = idx;
		}
	}

	pos = ssize;		/* entries start right after the super sector */
	for (idx = 0; idx < nr_entries; idx++) {
		struct entry e;
		uint64_t next = read_entry(pos, idx, &e);

		switch (mode) {
		case LIST:
			print_entry(&e);
			break;
		case POINTS:
			if (e.flags & (LOG_FLUSH_FLAG | LOG_FUA_FLAG | LOG_MARK_FLAG))
				print_entry(&e);
			break;
		case FINDMARK:
			if ((e.flags & LOG_MARK_FLAG) && !strcmp(e.mark, findmark)) {
				printf("%" PRIu64 "\n", idx);
				return 0;
			}
			break;
		case REPLAY:
			if (idx < start)
				break;
			if (idx > end)
				goto done;
			if (!(e.flags & LOG_MARK_FLAG) && e.nr_sectors) {
				uint64_t off = e.sector * ssize, len = e.nr_sectors * ssize;

				if (off + len > tsize)
					die(1, "entry %" PRIu64 ": write of %" PRIu64 " bytes at byte %" PRIu64 " is past the end of %s (%" PRIu64 " bytes)",
					    idx, len, off, target, tsize);
				if (e.flags & LOG_DISCARD_FLAG) {
					uint64_t o;

					if (!discard_zero)
						goto replayed;
					for (o = 0; o < len; o += 1 << 20) {
						size_t n = len - o < (1 << 20) ? len - o : (1 << 20);

						pwrite_full(tfd, zero, n, off + o, target);
					}
				} else {
					if (len > datacap) {
						free(data);
						datacap = len;
						data = malloc(datacap);
						if (!data)
							die(1, "out of memory (%" PRIu64 " bytes)", len);
					}
					pread_full(logfd, data, len, pos + ssize, logpath);
					pwrite_full(tfd, data, len, off, target);
				}
				written += len;
			}
replayed:
			if (verbose)
				print_entry(&e);
			last = idx;
			if (flushafter != UINT64_MAX && idx >= flushafter &&
			    (e.flags & (LOG_FLUSH_FLAG | LOG_FUA_FLAG)))
				goto done;
			break;
		default:
			break;
		}
		pos = next;
	}
done:
	if (mode == FINDMARK) {
		fprintf(stderr, "replay-log: no mark '%s' in %s\n", findmark, logpath);
		return 3;
	}
	if (mode == REPLAY) {
		if (fsync(tfd) < 0)
			die(1, "fsync %s: %s", target, strerror(errno));
		close(tfd);
		printf("replayed %" PRIu64 "..%" PRIu64 " (%" PRIu64 " bytes)\n", start, last, written);
	}
	return 0;
}
