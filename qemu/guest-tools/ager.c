// SPDX-License-Identifier: GPL-2.0
/*
 * ager - age a filesystem with a seeded mix of creates, overwrites and
 * deletes, and verify every byte against its own model.
 *
 *   ager -d DIR -m MODEL -s SEED [-c BLOCKS] fill PERCENT
 *   ager -d DIR -m MODEL -s SEED [-c BLOCKS] churn MIB PERCENT
 *   ager -d DIR -m MODEL verify
 *
 * -c fixes the capacity that PERCENT refers to (several writers sharing a
 * filesystem each take a share of the same capacity).
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
 * full, which these limits should never reach).  verify exits 1 on the
 * first difference.
 *
 * Counters go to stdout as "key value" lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define BLK		4096
#define MAX_FILES	200000

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

static void path_of(uint32_t id, char *out, size_t n)
{
	snprintf(out, n, "%s/d%02u/f%u%s", dir, id % 64, id,
		 id % 11 == 0 ? ".mp4" : "");
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

/* Write blocks [b0, b1) of file @f (clipped to its size) with new gens. */
static int write_blocks(struct file *f, uint64_t b0, uint64_t b1)
{
	char path[256];
	uint8_t buf[BLK];
	uint64_t b;
	int fd, err = 0;

	path_of(f->id, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return -errno;
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
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/*
 * ENOSPC is right only when df agrees that the space is gone: allow for
 * the blocks of the failed write and the node blocks of the files.
 */
static void nospc_fail(const char *op, struct file *f)
{
	uint64_t cap = capacity(), data = data_blocks(), av = avail();

	if (av <= blocks_of(f->size) + nfiles / 64 + 64) {
		fprintf(stderr, "ager: ENOSPC on %s of f%u with %llu blocks available: the filesystem is full\n",
			op, f->id, (unsigned long long)av);
		report("state");
		save_model();
		exit(4);
	}
	fprintf(stderr, "ager: ENOSPC on %s of f%u at %.1f%% of capacity (%llu of %llu blocks, df shows %llu available)\n",
		op, f->id, 100.0 * data / cap, (unsigned long long)data,
		(unsigned long long)cap, (unsigned long long)av);
	report("state");
	save_model();
	exit(3);
}

static uint64_t pick_size(void)
{
	uint64_t r = rnd(100), s;

	if (r < 70)
		s = 1024 + rnd(15 * 1024);
	else if (r < 95)
		s = 64 * 1024 + rnd(960 * 1024);
	else
		s = 4 * 1024 * 1024 + rnd(12 * 1024 * 1024);
	if (rnd(4))
		s = (s + BLK - 1) / BLK * BLK;
	return s;
}

static void delete_file(uint32_t i)
{
	char path[256];

	path_of(files[i].id, path, sizeof(path));
	if (unlink(path)) {
		fprintf(stderr, "ager: unlink %s: %s\n", path, strerror(errno));
		exit(2);
	}
	free(files[i].gen);
	total_blocks -= cost_of(files[i].size);
	files[i] = files[--nfiles];
}

static int create_file(uint64_t limit, int make_room)
{
	struct file f = { .id = next_id++ };
	char path[256], sub[256];
	int err;

	if (nfiles >= MAX_FILES)
		return 0;
	f.size = pick_size();
	if (cost_of(f.size) > limit)
		return 0;
	/* Make room first if the new file would pass the limit. */
	while (make_room && nfiles && data_blocks() + cost_of(f.size) > limit)
		delete_file(rnd(nfiles));
	if (data_blocks() + cost_of(f.size) > limit)
		return 0;
	f.gen = calloc(blocks_of(f.size) + 1, sizeof(uint16_t));
	if (!f.gen) {
		perror("calloc");
		exit(2);
	}
	snprintf(sub, sizeof(sub), "%s/d%02u", dir, f.id % 64);
	mkdir(sub, 0755);
	path_of(f.id, path, sizeof(path));
	add_file(&f);
	err = write_blocks(&files[nfiles - 1], 0, blocks_of(f.size));
	if (err == -ENOSPC)
		nospc_fail("create", &files[nfiles - 1]);
	if (err) {
		fprintf(stderr, "ager: writing %s: %s\n", path, strerror(-err));
		exit(2);
	}
	return 1;
}

static void overwrite_random(void)
{
	struct file *f;
	uint64_t nb, b0, len;
	int err;

	if (!nfiles)
		return;
	f = &files[rnd(nfiles)];
	nb = blocks_of(f->size);
	if (!nb)
		return;
	b0 = rnd(nb);
	len = 1 + rnd(64);
	if (b0 + len > nb)
		len = nb - b0;
	err = write_blocks(f, b0, b0 + len);
	if (err == -ENOSPC)
		nospc_fail("overwrite", f);
	if (err) {
		fprintf(stderr, "ager: overwrite f%u: %s\n", f->id, strerror(-err));
		exit(2);
	}
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
	fprintf(stderr, "usage: ager -d DIR -m MODEL [-s SEED] [-c BLOCKS] fill PERCENT | churn MIB PERCENT | verify\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t limit, goal;
	int c;

	while ((c = getopt(argc, argv, "c:d:m:s:")) != -1) {
		switch (c) {
		case 'c': fixed_capacity = strtoull(optarg, NULL, 0); break;
		case 'd': dir = optarg; break;
		case 'm': model = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
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
			;
		/* Top up with small files until the limit is met. */
		while (data_blocks() + 6 <= limit && nfiles < MAX_FILES) {
			struct file f = { .id = next_id++, .size = BLK * (1 + rnd(4)) };
			char sub[256];

			f.gen = calloc(blocks_of(f.size) + 1, sizeof(uint16_t));
			if (!f.gen)
				return 2;
			snprintf(sub, sizeof(sub), "%s/d%02u", dir, f.id % 64);
			mkdir(sub, 0755);
			add_file(&f);
			if (write_blocks(&files[nfiles - 1], 0, blocks_of(f.size)))
				nospc_fail("fill", &files[nfiles - 1]);
		}
		report("filled");
		save_model();
		return 0;
	}
	if (!strcmp(argv[optind], "churn") && optind + 2 < argc) {
		goal = written + (strtoull(argv[optind + 1], NULL, 0) << 20);
		limit = capacity() * strtoull(argv[optind + 2], NULL, 0) / 100;
		while (written < goal) {
			uint64_t r = rnd(100);

			if (r < 55) {
				overwrite_random();
			} else if (r < 60) {
				truncate_random();
			} else if (r < 75) {
				/* Deletes keep utilisation within 5% of the limit. */
				if (nfiles && data_blocks() > limit * 95 / 100)
					delete_file(rnd(nfiles));
			} else {
				create_file(limit, 1);
			}
		}
		report("churned");
		save_model();
		return 0;
	}
	usage();
	return 2;
}
