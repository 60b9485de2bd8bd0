// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-frag - file fragmentation of one f2fs: a log2 histogram of extents
 * per file, the most fragmented files and the directories whose files have
 * the most extents.  An extent is a run of consecutive page indices of a
 * file stored at consecutive block addresses (a hole ends one).
 *
 * Live mode (default): the files written while it runs, from every data
 * block handed out to a write (f2fs_frag.bpf.c: our f2fs_block_write, DATA
 * and GC moves; on the stock module f2fs_submit_page_write, whose DATA
 * records carry the file, the page index and the new address).  The BPF
 * side keeps (ino, index) -> address for the blocks written since the start
 * and each file's extent count; every interval (or once at Ctrl-C) the
 * counts are read and printed, inode numbers resolved to paths by a walk of
 * the mount.  Limits: only blocks written since the start are known (a file
 * appended to counts the new part); the block map holds -m entries
 * (default 262144, 8 MiB of kernel memory or so): a block that finds it
 * full is "untracked" (shown per file and in total; that file's count is a
 * lower bound); blocks freed by truncate or unlink are not seen: a file
 * the walk of the mount no longer finds is counted as deleted and left out
 * (with -P, no walk, it stays, without a path), and a truncated file keeps
 * its old extents.
 *
 * Scan mode (-s PATH): walks PATH (not crossing mounts) and maps every
 * regular file once by FIEMAP; where the filesystem has no FIEMAP
 * (EOPNOTSUPP: our module so far) it says so and falls back to FIBMAP (one
 * ioctl per block, root only), and where that fails too it says so and
 * exits 1 (-B: FIBMAP from the start).  With an interval it scans again
 * every interval.
 *
 * Output (text or -j, one JSON object per report): files, blocks,
 * extents, hist (log2 buckets of extents per file), top_files[{ino, path,
 * extents, blocks}], top_dirs[{path, files, extents, blocks}], and
 * "source" ("ours"/"stock", the module) and "unavailable" as in the other
 * tools; "mode" is "live" or "scan", "method" the scan's ioctl.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <bpf/bpf.h>
#include "common.h"
#include "f2fs_frag.h"
#include "f2fs_frag.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };

const char *argp_program_version = "f2fs-frag 0.1";
static const char doc[] =
"File fragmentation of an f2fs: a histogram of extents per file, the most\n"
"fragmented files and directories.  Live: the files written while it runs\n"
"(our module's f2fs_block_write, the stock module's f2fs_submit_page_write).\n"
"Scan (-s): every file under PATH, by FIEMAP (else FIBMAP).\n"
"\n"
"USAGE: f2fs-frag [-h] [-v] [-j] [-t N] [-P] [-m N] [-d DEV] [-s PATH [-B]] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-frag               # files written until Ctrl-C, then the report\n"
"    f2fs-frag 5             # every 5 seconds (counts since the start)\n"
"    f2fs-frag -j 1 10       # JSON, every second, 10 times\n"
"    f2fs-frag -t 20 -d /mnt/x  # the 20 most fragmented files of /mnt/x\n"
"    f2fs-frag -s /mnt/f2fs  # scan every file once (FIEMAP or FIBMAP)\n"
"    f2fs-frag -s /mnt/f2fs -j 60  # scan every minute, JSON\n"
"    f2fs-frag -s /mnt/f2fs -B  # scan by FIBMAP (one ioctl per block)\n";

static int top_n = 10;		/* -t */
static bool no_paths;		/* -P */
static const char *scan_path;	/* -s */
static bool force_fibmap;	/* -B */
static long max_blocks = FR_MAX_BLOCKS;	/* -m */

static const struct argp_option opts[] = {
	{ "top", 't', "N", 0, "Top N files and directories (default 10, 0: none)" },
	{ "no-paths", 'P', NULL, 0, "Live: inode numbers only (no walk of the mount)" },
	{ "max-blocks", 'm', "N", 0, "Live: blocks the BPF map holds (default 262144)" },
	{ "scan", 's', "PATH", 0, "Scan the files under PATH by FIEMAP/FIBMAP" },
	{ "fibmap", 'B', NULL, 0, "Scan by FIBMAP even where FIEMAP works (root)" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;
	long v;

	switch (key) {
	case 't':
	case 'm':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (key == 't' && (errno || *end || v < 0 || v > 1000))
			argp_error(state, "invalid top count '%s'", arg);
		if (key == 'm' && (errno || *end || v < 1024 || v > 64L << 20))
			argp_error(state, "invalid block map size '%s' (1024 to 67108864)", arg);
		if (key == 't')
			top_n = v;
		else
			max_blocks = v;
		break;
	case 'P':
		no_paths = true;
		break;
	case 's':
		scan_path = arg;
		break;
	case 'B':
		force_fibmap = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- one report: files, histogram, top files, directories ------------ */

struct row {
	struct ino_path ip;	/* first: resolve_paths() takes the rows */
	__s64 extents;
	__u64 blocks;
	__u64 untracked;
	char *own;		/* scan: the path, ours to free */
};

struct rows {
	struct row *r;
	int n, cap;
};

static struct row *row_add(struct rows *rs)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 256;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
		if (!rs->r) {
			fprintf(stderr, "f2fs-frag: out of memory\n");
			exit(1);
		}
	}
	memset(&rs->r[rs->n], 0, sizeof(*rs->r));
	return &rs->r[rs->n++];
}

static void rows_free(struct rows *rs)
{
	int i;

	for (i = 0; i < rs->n; i++)
		free(rs->r[i].own);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

static int by_extents(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->extents != y->extents)
		return x->extents < y->extents ? 1 : -1;
	if (x->blocks != y->blocks)
		return x->blocks < y->blocks ? 1 : -1;
	return x->ip.ino < y->ip.ino ? -1 : x->ip.ino > y->ip.ino;
}

struct dir_row {
	char *path;
	__u64 files, blocks;
	__s64 extents;
};

static int by_dir_path(const void *a, const void *b)
{
	return strcmp(((const struct dir_row *)a)->path, ((const struct dir_row *)b)->path);
}

static int by_dir_extents(const void *a, const void *b)
{
	const struct dir_row *x = a, *y = b;

	if (x->extents != y->extents)
		return x->extents < y->extents ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* The directories of the rows with a path, their files' totals, sorted. */
static int dir_totals(const struct rows *rs, struct dir_row **out)
{
	struct dir_row *d = calloc(rs->n + 1, sizeof(*d));
	const char *p, *slash;
	int i, n = 0, m = 0;

	*out = d;
	if (!d)
		return 0;
	for (i = 0; i < rs->n; i++) {
		p = rs->r[i].ip.path;
		if (!p || !(slash = strrchr(p, '/')))
			continue;
		d[n].path = strndup(p, slash == p ? 1 : (size_t)(slash - p));
		d[n].files = 1;
		d[n].blocks = rs->r[i].blocks;
		d[n].extents = rs->r[i].extents;
		n++;
	}
	qsort(d, n, sizeof(*d), by_dir_path);
	for (i = 0; i < n; i++) {
		if (m && !strcmp(d[m - 1].path, d[i].path)) {
			d[m - 1].files++;
			d[m - 1].blocks += d[i].blocks;
			d[m - 1].extents += d[i].extents;
			free(d[i].path);
		} else {
			d[m++] = d[i];
		}
	}
	qsort(d, m, sizeof(*d), by_dir_extents);
	return m;
}

static int slot_of(__s64 v)
{
	int s = 0;

	while (v > 0 && s < HIST_SLOTS - 1) {
		v >>= 1;
		s++;
	}
	return s;
}

static void report(int src, const char *mode, const char *where, const char *method,
		   struct rows *rs, const struct fr_totals *t)
{
	static const char *const stock_na[] = { "gc_moves", NULL };
	__u64 hist[HIST_SLOTS] = {}, blocks = 0;
	__s64 extents = 0;
	struct dir_row *dirs;
	int i, nd, live = t != NULL, gone = 0;

	/* live: files no longer in the mount (deleted) are left out */
	if (live && !no_paths && rs->n) {
		resolve_paths(where, &rs->r[0].ip, rs->n, sizeof(*rs->r));
		for (i = 0; i < rs->n; i++) {
			if (rs->r[i].ip.path)
				rs->r[i - gone] = rs->r[i];
			else
				gone++;
		}
		rs->n -= gone;
	}
	for (i = 0; i < rs->n; i++) {
		hist[slot_of(rs->r[i].extents)]++;
		blocks += rs->r[i].blocks;
		extents += rs->r[i].extents;
	}
	qsort(rs->r, rs->n, sizeof(*rs->r), by_extents);
	nd = dir_totals(rs, &dirs);
	if (env.json) {
		printf("{\"time\":\"%s\",\"mode\":\"%s\",\"path\":", now_hms(), mode);
		json_str(where);
		if (src)
			json_source(src, live && src == SRC_STOCK ? stock_na : NULL);
		else
			printf(",\"source\":\"none\",\"unavailable\":[]");
		if (method)
			printf(",\"method\":\"%s\"", method);
		printf(",\"files\":%d,\"blocks\":%llu,\"extents\":%lld", rs->n,
		       (unsigned long long)blocks, (long long)extents);
		if (live) {
			printf(",\"writes\":%llu,\"gc_moves\":", (unsigned long long)t->writes);
			if (src == SRC_STOCK)
				printf("null");
			else
				printf("%llu", (unsigned long long)t->gc_moves);
			printf(",\"untracked_blocks\":%llu,\"files_dropped\":%llu,\"files_deleted\":",
			       (unsigned long long)t->untracked,
			       (unsigned long long)t->files_dropped);
			if (no_paths)
				printf("null");
			else
				printf("%d", gone);
		}
		printf(",\"hist\":");
		json_log2_hist(hist, HIST_SLOTS);
		printf(",\"top_files\":[");
		for (i = 0; i < rs->n && i < top_n; i++) {
			printf("%s{\"ino\":%u,\"path\":", i ? "," : "", rs->r[i].ip.ino);
			if (rs->r[i].ip.path)
				json_str(rs->r[i].ip.path);
			else
				printf("null");
			printf(",\"dir\":%s,\"extents\":%lld,\"blocks\":%llu,\"untracked\":%llu}",
			       rs->r[i].ip.dir ? "true" : "false", (long long)rs->r[i].extents,
			       (unsigned long long)rs->r[i].blocks,
			       (unsigned long long)rs->r[i].untracked);
		}
		printf("],\"top_dirs\":[");
		for (i = 0; i < nd && i < top_n; i++) {
			printf("%s{\"path\":", i ? "," : "");
			json_str(dirs[i].path);
			printf(",\"files\":%llu,\"extents\":%lld,\"blocks\":%llu}",
			       (unsigned long long)dirs[i].files, (long long)dirs[i].extents,
			       (unsigned long long)dirs[i].blocks);
		}
		printf("]}\n");
	} else {
		printf("\n%s  %s of %s%s%s: %d files, %llu blocks, %lld extents  [%s f2fs]\n",
		       now_hms(), mode, where, method ? " by " : "", method ? method : "",
		       rs->n, (unsigned long long)blocks, (long long)extents,
		       src ? src_names[src] : "no");
		if (live) {
			char gc[32];

			snprintf(gc, sizeof(gc), "%llu", (unsigned long long)t->gc_moves);
			printf("data blocks written %llu (GC moves %s), untracked %llu (block map full), files dropped %llu (file map full), deleted %d (not shown)\n",
			       (unsigned long long)t->writes, src == SRC_STOCK ? NA : gc,
			       (unsigned long long)t->untracked,
			       (unsigned long long)t->files_dropped, gone);
		}
		print_log2_hist(hist, HIST_SLOTS, "extents/file");
		if (top_n && rs->n)
			printf("top files by extents:\n%8s %9s %9s  %s\n", "EXTENTS", "BLOCKS", "INO", "FILE");
		for (i = 0; i < rs->n && i < top_n; i++)
			printf("%8lld %9llu %9u  %s%s%s\n", (long long)rs->r[i].extents,
			       (unsigned long long)rs->r[i].blocks, rs->r[i].ip.ino,
			       rs->r[i].ip.path ? rs->r[i].ip.path :
			       no_paths ? "" : "(not found: deleted?)",
			       rs->r[i].ip.dir ? " (dir)" : "",
			       rs->r[i].untracked ? " (untracked blocks: a lower bound)" : "");
		if (top_n && nd)
			printf("top directories by their files' extents:\n%8s %9s %6s  %s\n",
			       "EXTENTS", "BLOCKS", "FILES", "DIRECTORY");
		for (i = 0; i < nd && i < top_n; i++)
			printf("%8lld %9llu %6llu  %s\n", (long long)dirs[i].extents,
			       (unsigned long long)dirs[i].blocks,
			       (unsigned long long)dirs[i].files, dirs[i].path);
	}
	for (i = 0; i < nd; i++)
		free(dirs[i].path);
	free(dirs);
	fflush(stdout);
}

/* ---- scan mode -------------------------------------------------------- */

enum { M_FIEMAP, M_FIBMAP };
static const char *const method_names[] = { "FIEMAP", "FIBMAP" };
static int scan_method;
static int scan_err;		/* a fatal error in the walk: exit 1 */
static dev_t scan_dev;
static struct rows scan_rows;

/* Extents of @fd by FIEMAP: 0, or -errno. */
static int map_fiemap(int fd, struct row *r)
{
	enum { N = 256 };
	struct fiemap *fm = calloc(1, sizeof(*fm) + N * sizeof(struct fiemap_extent));
	__u64 start = 0, lend = 0, pend = 0;
	unsigned int i;
	bool last = false;
	int err = 0;

	if (!fm)
		return -ENOMEM;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = start ? 0 : FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = N;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			err = -errno;
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
			start = e->fe_logical + e->fe_length;
			if (e->fe_flags & (FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED))
				continue;	/* inline data: no block of its own */
			r->blocks += e->fe_length / 4096;
			/* f2fs may split a run: merge what is contiguous in both */
			if (r->extents && e->fe_logical == lend && e->fe_physical == pend) {
				lend += e->fe_length;
				pend += e->fe_length;
				continue;
			}
			r->extents++;
			lend = e->fe_logical + e->fe_length;
			pend = e->fe_physical + e->fe_length;
		}
	}
	free(fm);
	return err;
}

/* Extents of @fd by FIBMAP, one ioctl per block: 0, or -errno. */
static int map_fibmap(int fd, const struct stat *st, struct row *r)
{
	unsigned long long i, nblk = (st->st_size + 4095) / 4096;
	int b, prev = 0;

	for (i = 0; i < nblk; i++) {
		b = (int)i;
		if (ioctl(fd, FIBMAP, &b))
			return -errno;
		if (b) {
			r->blocks++;
			if (!prev || b != prev + 1)
				r->extents++;
		}
		prev = b;
	}
	return 0;
}

static int scan_fn(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct row *r;
	int fd, err;

	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode) || st->st_dev != scan_dev)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0) {
		fprintf(stderr, "f2fs-frag: %s: %s (skipped)\n", path, strerror(errno));
		return 0;
	}
	r = row_add(&scan_rows);
	r->ip.ino = st->st_ino;
	r->own = strdup(path);
	r->ip.path = r->own;
	err = scan_method == M_FIEMAP ? map_fiemap(fd, r) : -EOPNOTSUPP;
	if (scan_method == M_FIEMAP && (err == -EOPNOTSUPP || err == -ENOTTY)) {
		fprintf(stderr, "f2fs-frag: FIEMAP is not supported here (%s on %s): falling back to FIBMAP\n",
			strerror(-err), path);
		scan_method = M_FIBMAP;
	}
	if (scan_method == M_FIBMAP) {
		r->extents = r->blocks = 0;
		err = map_fibmap(fd, st, r);
		if (err == -EPERM) {
			fprintf(stderr, "f2fs-frag: FIBMAP needs root (CAP_SYS_RAWIO) and FIEMAP is not supported: cannot scan %s\n",
				scan_path);
		} else if (err) {
			fprintf(stderr, "f2fs-frag: neither FIEMAP nor FIBMAP works here (FIBMAP: %s on %s): no scan mode on this filesystem; use the live mode\n",
				strerror(-err), path);
		}
	} else if (err) {
		fprintf(stderr, "f2fs-frag: FIEMAP on %s: %s\n", path, strerror(-err));
	}
	close(fd);
	if (err) {
		scan_err = 1;
		return 1;	/* stop the walk */
	}
	return 0;
}

static int scan_once(int src)
{
	struct stat st;

	if (stat(scan_path, &st)) {
		fprintf(stderr, "f2fs-frag: %s: %s\n", scan_path, strerror(errno));
		return 1;
	}
	scan_dev = st.st_dev;
	scan_method = force_fibmap ? M_FIBMAP : M_FIEMAP;
	scan_err = 0;
	rows_free(&scan_rows);
	if (nftw(scan_path, scan_fn, 32, FTW_PHYS | FTW_MOUNT) < 0) {
		fprintf(stderr, "f2fs-frag: cannot walk %s: %s\n", scan_path, strerror(errno));
		return 1;
	}
	if (scan_err)
		return 1;
	report(src, "scan", scan_path, method_names[scan_method], &scan_rows, NULL);
	return 0;
}

static int scan_main(void)
{
	int src = module_source(), err;
	bool repeat = env.interval != 99999999;

	setup_signals();
	for (;;) {
		err = scan_once(src);
		if (err || !repeat || exiting || (env.count > 0 && --env.count == 0))
			break;
		sleep(env.interval);
		if (exiting)
			break;
	}
	rows_free(&scan_rows);
	return err;
}

/* ---- live mode -------------------------------------------------------- */

static void read_files(int fd, struct rows *rs)
{
	__u32 key, next, *prev = NULL;
	struct fr_file v;
	struct row *r;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v) || !v.blocks)
			continue;
		r = row_add(rs);
		r->ip.ino = key;
		r->extents = v.extents;
		r->blocks = v.blocks;
		r->untracked = v.untracked;
	}
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_block_write", NULL };
	static const char *const stock[] = { "f2fs_submit_page_write", NULL };
	struct f2fs_frag_bpf *skel = NULL;
	struct f2fs_mount m;
	struct rows rs = {};
	struct fr_totals t;
	int err, src;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	if (scan_path) {
		if (env.dev) {
			fprintf(stderr, "f2fs-frag: -s PATH and -d DEV exclude each other\n");
			return 64;	/* as argp_error */
		}
		return scan_main();
	}
	if (force_fibmap) {
		fprintf(stderr, "f2fs-frag: -B needs -s PATH\n");
		return 64;	/* as argp_error */
	}
	if (module_source() == SRC_OURS && !event_exists("f2fs_block_write")) {
		fprintf(stderr, "f2fs-frag: this build of our module has no f2fs_block_write event: live mode needs it (scan with -s PATH)\n");
		return 1;
	}
	src = preflight("f2fs-frag", ours, stock, env.dev, &m);
	if (src < 0)
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_frag_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-frag: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	bpf_map__set_max_entries(skel->maps.blocks, max_blocks);
	select_programs(skel->obj, src);
	err = f2fs_frag_bpf__load(skel);
	if (!err)
		err = f2fs_frag_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-frag: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	fprintf(env.json ? stderr : stdout,
		"Tracing the extents of files written to f2fs %s (%s, %s f2fs module)... Hit Ctrl-C to end.\n",
		m.name, m.dir, src_names[src]);
	fflush(stdout);

	while (!exiting) {
		sleep(env.interval);
		t = skel->bss->totals;
		read_files(bpf_map__fd(skel->maps.files), &rs);
		report(src, "live", m.dir, NULL, &rs, &t);
		rows_free(&rs);
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	f2fs_frag_bpf__destroy(skel);
	return err ? 1 : 0;
}
