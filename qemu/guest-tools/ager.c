// SPDX-License-Identifier: GPL-2.0
/*
 * ager - age a filesystem with a seeded mix of creates, overwrites and
 * deletes, and verify every byte against its own model.
 *
 *   ager -d DIR -m MODEL -s SEED [-c BLOCKS] [OPTIONS] fill PERCENT
 *   ager -d DIR -m MODEL -s SEED [-c BLOCKS] [OPTIONS] churn MIB PERCENT
 *   ager -d DIR -m MODEL verify
 *
 * -c fixes the capacity that PERCENT refers to (several writers sharing a
 * filesystem each take a share of the same capacity).
 *
 * OPTIONS (all off by default; without them the operations, names and
 * random sequence are exactly those of earlier versions):
 *   -w PCT  churn: PCT% of the operations rewrite a whole file (open with
 *           O_TRUNC, write every block again), as an editor or a download
 *           that replaces a file does
 *   -k K    syncfs() every K operations (fill: every K files created)
 *   -f N    fsync() every Nth file written (create, overwrite, rewrite)
 *   -v PCT  PCT% of the large files (4-16 MiB) are named *.mp4, which
 *           mkfs.f2fs's default extension list makes cold data
 *   -L MIB  the large files are MIB/4 to MIB (default 16) in size: on a
 *           small device, 16 MiB files swing the utilisation too much
 *   -D      small directories: files go into directories of 8 consecutive
 *           file numbers (DIR/sN/), made when needed and removed when
 *           their last file is deleted
 *   -e      an ENOSPC where df agrees that the filesystem is full is not
 *           fatal: the operation is undone in the model (a partly created
 *           file is deleted, a partly rewritten one cut to what was
 *           written), counted ("enospc_full") and the command goes on
 * A file's name (directory layout, .mp4) is kept in its number in the
 * model, so verify needs none of these options.
 *
 * The model (a small file, kept outside the filesystem under test) records
 * each file's size and, for every 4 KiB block, a generation number.  The
 * content of a block is a pure function of (seed, file, block, generation),
 * so the expected bytes of every file are regenerated at verify time
 * without keeping a copy: the reference is independent of the filesystem.
 *
 * fill creates files (70% 1-16 KiB, 25% 64 KiB-1 MiB, 5% 4-16 MiB, some
 * with unaligned sizes) until the files (data plus node blocks) reach
 * PERCENT of the user
 * capacity (the data held plus what df reports available).  churn then
 * writes MIB mebibytes of random overwrites (1-64 blocks), truncates to a
 * block boundary, deletes and new files, deleting first whenever the data would pass PERCENT.  An ENOSPC
 * while df still reports the space available is an error: the command
 * stops, prints the state, and exits 3 (4 when df agrees the filesystem is
 * full, which these limits should never reach, unless -e).  The same holds
 * for an ENOSPC from fsync() or syncfs(): they must not fail for space
 * while df shows space.  Any other error (EIO, EROFS after a failed
 * checkpoint) exits 2 naming the call.  verify exits 1 on the first
 * difference.  SIGTERM stops churn between two operations: the model is
 * saved as usual and it exits 5 (a time limit that keeps what was done
 * verifiable).  Exit status 0 otherwise.
 *
 * Counters go to stdout as "key value" lines; with any of the options
 * above, a second line "ops rewrites N fsyncs N syncs N dirs_made N
 * dirs_removed N enospc_full N" follows fill and churn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define BLK		4096
#define MAX_FILES	200000

/* Flags kept in the high bits of a file number: they decide its name. */
#define ID_MP4		(1u << 31)	/* named *.mp4 */
#define ID_SDIR		(1u << 30)	/* in a small directory DIR/sN */
#define ID_XNAME	(1u << 29)	/* named by these flags alone */
#define ID_NUM(id)	((id) & (ID_XNAME - 1))
#define SDIR_FILES	8		/* file numbers per small directory */

struct file {
	uint32_t id;		/* 0: slot unused */
	uint64_t size;
	uint16_t *gen;		/* per block */
};

static struct file *files;
static uint32_t nfiles, next_id = 1;
static uint64_t seed, rng;
static const char *dir, *model;
static uint64_t written, total_blocks;	/* bytes written, cost_of() files */

/* Options (see the top) and what they did. */
static unsigned int rewrite_pct, sync_every, fsync_every, mp4_pct, large_mib;
static int small_dirs, tolerate_full, extra_opts;
static uint64_t n_rewrites, n_fsyncs, n_syncs, n_dirs_made, n_dirs_removed;
static uint64_t n_enospc_full, n_file_writes, n_ops;
static volatile sig_atomic_t stop_churn;	/* SIGTERM: see the top */

static void on_term(int sig)
{
	(void)sig;
	stop_churn = 1;
}

static uint64_t xs(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static uint64_t rnd(uint64_t n)
{
	return n ? xs(&rng) % n : 0;
}

static void block_pattern(uint32_t id, uint64_t blk, uint16_t gen, uint8_t *buf)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)id << 32) ^
		     (blk * 0xbf58476d1ce4e5b9ULL) ^ ((uint64_t)gen << 48) ^ 1;
	uint64_t *p = (uint64_t *)buf;
	int i;

	for (i = 0; i < BLK / 8; i++)
		p[i] = xs(&s);
}

static void dir_of(uint32_t id, char *out, size_t n)
{
	if (id & ID_SDIR)
		snprintf(out, n, "%s/s%u", dir, ID_NUM(id) / SDIR_FILES);
	else
		snprintf(out, n, "%s/d%02u", dir, ID_NUM(id) % 64);
}

static void path_of(uint32_t id, char *out, size_t n)
{
	char d[224];
	int mp4 = id & ID_XNAME ? !!(id & ID_MP4) : id % 11 == 0;

	dir_of(id, d, sizeof(d));
	snprintf(out, n, "%s/f%u%s", d, ID_NUM(id), mp4 ? ".mp4" : "");
}

static uint64_t blocks_of(uint64_t size)
{
	return (size + BLK - 1) / BLK;
}

/*
 * Blocks a file takes from the user capacity: its data, its inode, and a
 * direct node per 1018 data blocks past the inode's own 923 addresses (an
 * estimate of the f2fs layout; for other filesystems a fair overhead).
 */
static uint64_t cost_of(uint64_t size)
{
	uint64_t b = blocks_of(size);

	return b + 1 + (b > 923 ? (b - 923 + 1017) / 1018 : 0);
}

static uint64_t data_blocks(void)
{
	return total_blocks;
}

static void add_file(struct file *f)
{
	files[nfiles++] = *f;
	total_blocks += cost_of(f->size);
}

/* Blocks df reports available now. */
static uint64_t avail(void)
{
	struct statvfs v;

	if (statvfs(dir, &v)) {
		perror("statvfs");
		exit(2);
	}
	return v.f_bavail * (v.f_frsize / BLK);
}

/*
 * User capacity in blocks: the data held plus what df says is available
 * (df's size also counts the filesystem's own reserved and metadata areas,
 * which no user can fill).
 */
static uint64_t fixed_capacity;	/* -c: the capacity, when shared */

static uint64_t capacity(void)
{
	return fixed_capacity ? fixed_capacity : data_blocks() + avail();
}

static void save_model(void)
{
	FILE *f = fopen(model, "w");
	uint32_t i;

	if (!f) {
		perror(model);
		exit(2);
	}
	fwrite(&seed, sizeof(seed), 1, f);
	fwrite(&rng, sizeof(rng), 1, f);
	fwrite(&next_id, sizeof(next_id), 1, f);
	for (i = 0; i < nfiles; i++) {
		if (!files[i].id)
			continue;
		fwrite(&files[i].id, sizeof(uint32_t), 1, f);
		fwrite(&files[i].size, sizeof(uint64_t), 1, f);
		fwrite(files[i].gen, sizeof(uint16_t), blocks_of(files[i].size), f);
	}
	if (fclose(f)) {
		perror(model);
		exit(2);
	}
}

static void load_model(void)
{
	FILE *f = fopen(model, "r");
	struct file fl;

	if (!f)
		return;		/* a new model */
	if (fread(&seed, sizeof(seed), 1, f) != 1 ||
	    fread(&rng, sizeof(rng), 1, f) != 1 ||
	    fread(&next_id, sizeof(next_id), 1, f) != 1) {
		fprintf(stderr, "ager: %s is truncated\n", model);
		exit(2);
	}
	while (fread(&fl.id, sizeof(uint32_t), 1, f) == 1) {
		if (fread(&fl.size, sizeof(uint64_t), 1, f) != 1)
			break;
		fl.gen = calloc(blocks_of(fl.size) + 1, sizeof(uint16_t));
		if (!fl.gen || fread(fl.gen, sizeof(uint16_t), blocks_of(fl.size), f) !=
		    blocks_of(fl.size)) {
			fprintf(stderr, "ager: %s is truncated\n", model);
			exit(2);
		}
		add_file(&fl);
	}
	fclose(f);
}

static void report(const char *what)
{
	uint64_t cap = capacity(), data = data_blocks();

	printf("%s files %u data_blocks %llu capacity_blocks %llu util_pct %.1f written_mib %llu written_kib %llu\n",
	       what, nfiles, (unsigned long long)data, (unsigned long long)cap,
	       cap ? 100.0 * data / cap : 0, (unsigned long long)(written >> 20),
	       (unsigned long long)(written >> 10));
}

/* The call an error came from, for the messages. */
static const char *failed_call = "write";

/*
 * Write blocks [b0, b1) of file @f (clipped to its size) with new gens.
 * @trunc: a whole-file rewrite (b0 = 0): the file is opened with O_TRUNC,
 * and on an error it is cut to the blocks written, and so is the model.
 * With -f, every Nth file written is fsynced before it is closed.
 */
static int write_blocks(struct file *f, uint64_t b0, uint64_t b1, int trunc)
{
	char path[256];
	uint8_t buf[BLK];
	uint64_t b;
	int fd, err = 0;

	path_of(f->id, path, sizeof(path));
	failed_call = "open";
	fd = open(path, O_WRONLY | O_CREAT | (trunc ? O_TRUNC : 0), 0644);
	if (fd < 0)
		return -errno;
	failed_call = "write";
	for (b = b0; b < b1; b++) {
		uint64_t len = f->size - b * BLK < BLK ? f->size - b * BLK : BLK;
		uint16_t g = f->gen[b] + 1;

		block_pattern(f->id, b, g, buf);
		if (pwrite(fd, buf, len, b * BLK) != (ssize_t)len) {
			err = errno ? -errno : -EIO;
			break;
		}
		f->gen[b] = g;
		written += len;
	}
	if (err && trunc) {
		/* The file holds blocks [0, b) now: so does the model. */
		if (ftruncate(fd, b * BLK)) {
			fprintf(stderr, "ager: cutting %s back to %llu blocks: %s\n",
				path, (unsigned long long)b, strerror(errno));
			exit(2);
		}
		total_blocks -= cost_of(f->size) - cost_of(b * BLK);
		f->size = b * BLK;
	}
	if (!err && fsync_every && ++n_file_writes % fsync_every == 0) {
		failed_call = "fsync";
		if (fsync(fd))
			err = -errno;
		else
			n_fsyncs++;
	}
	if (close(fd) && !err) {
		failed_call = "close";
		err = -errno;
	}
	return err;
}

/*
 * ENOSPC from @op (on file number @id, 0 for none, writing @blocks) is right
 * only when df agrees that the space is gone: allow for the blocks of the
 * failed write and the node blocks of the files.  When df shows the space,
 * exit 3.  When df agrees, exit 4, or with -e count it and return (the
 * caller undoes the operation in the model).
 */
static void nospc(const char *op, uint32_t id, uint64_t blocks)
{
	uint64_t cap = capacity(), data = data_blocks(), av = avail();
	char what[64];

	if (id)
		snprintf(what, sizeof(what), "%s() in %s of f%u", failed_call, op, ID_NUM(id));
	else
		snprintf(what, sizeof(what), "%s", op);
	if (av <= blocks + nfiles / 64 + 64) {
		if (tolerate_full) {
			n_enospc_full++;
			return;
		}
		fprintf(stderr, "ager: ENOSPC on %s with %llu blocks available: the filesystem is full\n",
			what, (unsigned long long)av);
		report("state");
		save_model();
		exit(4);
	}
	fprintf(stderr, "ager: ENOSPC on %s at %.1f%% of capacity (%llu of %llu blocks, df shows %llu available)\n",
		what, 100.0 * data / cap, (unsigned long long)data,
		(unsigned long long)cap, (unsigned long long)av);
	report("state");
	save_model();
	exit(3);
}

/* Any error but ENOSPC ends the command (exit 2), naming the call. */
static void write_error(const char *op, uint32_t id, int err)
{
	char path[256];

	path_of(id, path, sizeof(path));
	fprintf(stderr, "ager: %s of %s: %s(): %s\n", op, path, failed_call,
		strerror(-err));
	report("state");
	save_model();
	exit(2);
}

/* syncfs() of the filesystem (-k). */
static void sync_now(void)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY), err = 0;

	if (fd < 0) {
		perror(dir);
		exit(2);
	}
	failed_call = "syncfs";
	if (syncfs(fd))
		err = errno;
	close(fd);
	if (err == ENOSPC) {
		nospc("syncfs", 0, 0);
	} else if (err) {
		fprintf(stderr, "ager: syncfs of %s: %s\n", dir, strerror(err));
		report("state");
		save_model();
		exit(2);
	} else {
		n_syncs++;
	}
}

/* After each operation: syncfs every K (-k); give up on a full device. */
static void tick(void)
{
	if (sync_every && ++n_ops % sync_every == 0)
		sync_now();
	if (n_enospc_full > 1000) {
		fprintf(stderr, "ager: more than 1000 ENOSPC with df showing the filesystem full: it stays full\n");
		report("state");
		save_model();
		exit(4);
	}
}

/* A file size: 70% small, 25% medium, 5% large (then *@large is set). */
static uint64_t pick_size(int *large)
{
	uint64_t r = rnd(100), s;

	*large = r >= 95;
	if (r < 70)
		s = 1024 + rnd(15 * 1024);
	else if (r < 95)
		s = 64 * 1024 + rnd(960 * 1024);
	else if (large_mib)
		s = ((uint64_t)large_mib << 18) + rnd((uint64_t)large_mib * 3 << 18);
	else
		s = 4 * 1024 * 1024 + rnd(12 * 1024 * 1024);
	if (rnd(4))
		s = (s + BLK - 1) / BLK * BLK;
	return s;
}

/* A new file number, with the name flags the options ask for. */
static uint32_t new_id(int large)
{
	uint32_t id = next_id++;

	if (small_dirs)
		id |= ID_XNAME | ID_SDIR;
	if (mp4_pct) {
		id |= ID_XNAME;
		if (large && rnd(100) < mp4_pct)
			id |= ID_MP4;
	}
	return id;
}

/* Make the directory of file number @id; 0, or -1 after a tolerated ENOSPC. */
static int make_dir(uint32_t id)
{
	char sub[256];

	dir_of(id, sub, sizeof(sub));
	if (!mkdir(sub, 0755)) {
		if (id & ID_SDIR)
			n_dirs_made++;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	if (errno == ENOSPC) {
		failed_call = "mkdir";
		nospc("mkdir", id, 1);
		return -1;
	}
	fprintf(stderr, "ager: mkdir %s: %s\n", sub, strerror(errno));
	exit(2);
}

/* Drop file @i from the model and the filesystem (@partial: may be absent). */
static void remove_file(uint32_t i, int partial)
{
	char path[256];

	path_of(files[i].id, path, sizeof(path));
	if (unlink(path) && !(partial && errno == ENOENT)) {
		fprintf(stderr, "ager: unlink %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (files[i].id & ID_SDIR) {
		dir_of(files[i].id, path, sizeof(path));
		if (!rmdir(path)) {
			n_dirs_removed++;
		} else if (errno != ENOTEMPTY && errno != EEXIST) {
			fprintf(stderr, "ager: rmdir %s: %s\n", path, strerror(errno));
			exit(2);
		}
	}
	free(files[i].gen);
	total_blocks -= cost_of(files[i].size);
	files[i] = files[--nfiles];
}

static void delete_file(uint32_t i)
{
	remove_file(i, 0);
}

/*
 * Create a file of @size (@large: of the large class) and write it; 1 when
 * it was made, 0 after a tolerated ENOSPC (-e; the partial file is removed
 * again).
 */
static int add_and_write(uint64_t size, int large, const char *op)
{
	struct file f = { .size = size };
	int err;

	f.id = new_id(large);
	f.gen = calloc(blocks_of(f.size) + 1, sizeof(uint16_t));
	if (!f.gen) {
		perror("calloc");
		exit(2);
	}
	if (make_dir(f.id)) {
		free(f.gen);
		return 0;
	}
	add_file(&f);
	err = write_blocks(&files[nfiles - 1], 0, blocks_of(f.size), 0);
	if (err == -ENOSPC) {
		nospc(op, f.id, blocks_of(f.size));
		remove_file(nfiles - 1, 1);
		return 0;
	}
	if (err)
		write_error(op, f.id, err);
	return 1;
}

static int create_file(uint64_t limit, int make_room)
{
	uint64_t size;
	int large;

	if (nfiles >= MAX_FILES) {
		next_id++;
		return 0;
	}
	size = pick_size(&large);
	if (cost_of(size) > limit) {
		next_id++;
		return 0;
	}
	/* Make room first if the new file would pass the limit. */
	while (make_room && nfiles && data_blocks() + cost_of(size) > limit)
		delete_file(rnd(nfiles));
	if (data_blocks() + cost_of(size) > limit) {
		next_id++;
		return 0;
	}
	return add_and_write(size, large, "create");
}

/*
 * Overwrite 1-64 blocks of a random file at a random place, or with
 * @whole (-w), write it again from its first block after O_TRUNC.
 */
static void write_random(int whole)
{
	const char *op = whole ? "rewrite" : "overwrite";
	struct file *f;
	uint64_t nb, b0 = 0, len;
	int err;

	if (!nfiles)
		return;
	f = &files[rnd(nfiles)];
	nb = blocks_of(f->size);
	if (!nb)
		return;
	len = nb;
	if (!whole) {
		b0 = rnd(nb);
		len = 1 + rnd(64);
		if (b0 + len > nb)
			len = nb - b0;
	}
	err = write_blocks(f, b0, b0 + len, whole);
	if (err == -ENOSPC)
		nospc(op, f->id, len);
	else if (err)
		write_error(op, f->id, err);
	else if (whole)
		n_rewrites++;
}

/* Cut a random file back to a block boundary (never grows it). */
static void truncate_random(void)
{
	struct file *f;
	char path[256];
	uint64_t nb, keep;

	if (!nfiles)
		return;
	f = &files[rnd(nfiles)];
	nb = blocks_of(f->size);
	keep = rnd(nb + 1);
	if (keep >= nb)
		return;
	path_of(f->id, path, sizeof(path));
	if (truncate(path, keep * BLK)) {
		fprintf(stderr, "ager: truncate %s: %s\n", path, strerror(errno));
		exit(2);
	}
	total_blocks -= cost_of(f->size) - cost_of(keep * BLK);
	f->size = keep * BLK;
}

static int verify(void)
{
	uint8_t want[BLK], got[BLK];
	uint32_t i, bad = 0;
	char path[256];

	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];
		struct stat st;
		uint64_t b;
		int fd;

		path_of(f->id, path, sizeof(path));
		fd = open(path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "ager: verify: %s: %s\n", path, strerror(errno));
			return 1;
		}
		if ((uint64_t)st.st_size != f->size) {
			fprintf(stderr, "ager: verify: %s has %lld bytes, want %llu\n",
				path, (long long)st.st_size,
				(unsigned long long)f->size);
			close(fd);
			return 1;
		}
		for (b = 0; b < blocks_of(f->size); b++) {
			uint64_t len = f->size - b * BLK < BLK ? f->size - b * BLK : BLK;

			block_pattern(f->id, b, f->gen[b], want);
			if (pread(fd, got, len, b * BLK) != (ssize_t)len ||
			    memcmp(want, got, len)) {
				fprintf(stderr, "ager: verify: %s block %llu differs (gen %u)\n",
					path, (unsigned long long)b, f->gen[b]);
				bad++;
				break;
			}
		}
		close(fd);
		if (bad)
			return 1;
	}
	printf("verified files %u data_blocks %llu\n", nfiles,
	       (unsigned long long)data_blocks());
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ager -d DIR -m MODEL [-s SEED] [-c BLOCKS] [-w PCT] [-k K] [-f N] [-v PCT] [-L MIB] [-D] [-e]\n"
		"            fill PERCENT | churn MIB PERCENT | verify\n"
		"  -w PCT  churn: PCT%% of the operations rewrite a whole file\n"
		"  -k K    syncfs() every K operations     -f N    fsync() every Nth file written\n"
		"  -v PCT  name PCT%% of the 4-16 MiB files *.mp4     -L MIB  large files MIB/4 to MIB, not 4-16 MiB\n"
		"  -D      small directories of 8 files    -e      go on after an ENOSPC that df agrees with\n");
	exit(2);
}

/* A number option, checked: usage on anything but digits within @max. */
static unsigned int num_arg(const char *arg, unsigned int max)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (!*arg || *end || v > max) {
		fprintf(stderr, "ager: bad number '%s' (0 to %u)\n", arg, max);
		usage();
	}
	return v;
}

static void report_ops(void)
{
	if (!extra_opts)
		return;
	printf("ops rewrites %llu fsyncs %llu syncs %llu dirs_made %llu dirs_removed %llu enospc_full %llu\n",
	       (unsigned long long)n_rewrites, (unsigned long long)n_fsyncs,
	       (unsigned long long)n_syncs, (unsigned long long)n_dirs_made,
	       (unsigned long long)n_dirs_removed,
	       (unsigned long long)n_enospc_full);
}

int main(int argc, char **argv)
{
	uint64_t limit, goal;
	int c;

	while ((c = getopt(argc, argv, "c:d:m:s:w:k:f:v:L:De")) != -1) {
		switch (c) {
		case 'c': fixed_capacity = strtoull(optarg, NULL, 0); break;
		case 'd': dir = optarg; break;
		case 'm': model = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'w': rewrite_pct = num_arg(optarg, 100); extra_opts = 1; break;
		case 'k': sync_every = num_arg(optarg, 1000000); extra_opts = 1; break;
		case 'f': fsync_every = num_arg(optarg, 1000000); extra_opts = 1; break;
		case 'v': mp4_pct = num_arg(optarg, 100); extra_opts = 1; break;
		case 'L': large_mib = num_arg(optarg, 4096); extra_opts = 1; break;
		case 'D': small_dirs = 1; extra_opts = 1; break;
		case 'e': tolerate_full = 1; extra_opts = 1; break;
		default: usage();
		}
	}
	if (!dir || !model || optind >= argc)
		usage();
	files = calloc(MAX_FILES, sizeof(*files));
	if (!files) {
		perror("calloc");
		return 2;
	}
	rng = seed * 2 + 1;
	load_model();

	if (!strcmp(argv[optind], "verify"))
		return verify();
	if (!strcmp(argv[optind], "fill") && optind + 1 < argc) {
		limit = capacity() * strtoull(argv[optind + 1], NULL, 0) / 100;
		while (create_file(limit, 0))
			tick();
		/* Top up with small files until the limit is met. */
		while (data_blocks() + 6 <= limit && nfiles < MAX_FILES) {
			if (!add_and_write(BLK * (1 + rnd(4)), 0, "fill"))
				break;
			tick();
		}
		report("filled");
		report_ops();
		save_model();
		return 0;
	}
	if (!strcmp(argv[optind], "churn") && optind + 2 < argc) {
		goal = written + (strtoull(argv[optind + 1], NULL, 0) << 20);
		limit = capacity() * strtoull(argv[optind + 2], NULL, 0) / 100;
		struct sigaction sa = { .sa_handler = on_term, .sa_flags = SA_RESTART };

		sigaction(SIGTERM, &sa, NULL);
		while (written < goal && !stop_churn) {
			uint64_t r;

			if (rewrite_pct && rnd(100) < rewrite_pct) {
				write_random(1);
				tick();
				continue;
			}
			r = rnd(100);
			if (r < 55) {
				write_random(0);
			} else if (r < 60) {
				truncate_random();
			} else if (r < 75) {
				/* Deletes keep utilisation within 5% of the limit. */
				if (nfiles && data_blocks() > limit * 95 / 100)
					delete_file(rnd(nfiles));
			} else {
				create_file(limit, 1);
			}
			tick();
		}
		report("churned");
		report_ops();
		save_model();
		if (stop_churn) {
			fprintf(stderr, "ager: stopped by SIGTERM after %llu of %llu MiB of churn\n",
				(unsigned long long)(written >> 20),
				(unsigned long long)(goal >> 20));
			return 5;
		}
		return 0;
	}
	usage();
	return 2;
}
