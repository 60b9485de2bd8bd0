// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-hotcold - where the writes of one f2fs go: blocks written to each of
 * the six logs (LFS appends and SSR reuse, from the debugfs counters) and
 * segments each log opened (the f2fs_segment_alloc event), per interval or
 * once at Ctrl-C.  Shows whether hot/cold separation works: .mp4 data in an
 * image made with "mkfs.f2fs -e mp4" should land in cold_data, directory
 * blocks in hot_data/hot_node.  With it, the files that wrote most to each
 * log and the extensions that did (exactly from f2fs_block_write where our
 * module has it, else from f2fs_extent_update, exact for sequential writes
 * only; see f2fs_hotcold.bpf.c; inode numbers resolved to paths by walking
 * the mount, with a cache).  JSON "file_source" names the one used.
 *
 * The stock module: f2fs_submit_page_write gives every block written to a
 * log, with its log and (for data) its file, so the blocks per log and the
 * top files and extensions of the data logs are exact; the status file
 * gives the LFS and SSR blocks and segments of all logs together and the
 * in-place updates.  The split of each log between LFS and SSR and the
 * segments each log opened are not there: n/a (JSON: null, listed in
 * "unavailable").
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "common.h"
#include "f2fs_hotcold.h"
#include "f2fs_hotcold.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };

const char *argp_program_version = "f2fs-hotcold 0.1";
static const char doc[] =
"Blocks written and segments opened per f2fs log (hot/cold separation).\n"
"Works with our f2fs module and with the stock one (no LFS/SSR split per\n"
"log there).\n"
"\n"
"USAGE: f2fs-hotcold [-h] [-v] [-j] [-t N] [-P] [-b|-E] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-hotcold            # totals from now until Ctrl-C\n"
"    f2fs-hotcold 1          # every second\n"
"    f2fs-hotcold -j 5 3     # JSON, every 5 seconds, 3 times\n"
"    f2fs-hotcold -d /mnt/x  # the f2fs mounted on /mnt/x\n"
"    f2fs-hotcold -t 10 5    # the 10 top files per log, every 5 seconds\n"
"    f2fs-hotcold -t 0       # no top files or extensions\n"
"    f2fs-hotcold -P         # inode numbers only, no walk of the mount\n"
"    f2fs-hotcold -E         # top files from extent growth (cheaper, not exact)\n";

static int src;		/* SRC_OURS or SRC_STOCK */
static int top_n = 3;		/* -t: top files per log (0: none) */
static bool no_paths;		/* -P */
static int file_src = -1;	/* -b FS_BLOCK_WRITE, -E FS_EXTENT, -1 auto */
enum { FS_EXTENT, FS_BLOCK_WRITE, FS_PAGE_WRITE };
static const char *const file_src_names[] = { "extent_update", "block_write",
	"submit_page_write" };

static const struct argp_option opts[] = {
	{ "top", 't', "N", 0, "Top N files (and extensions) per log (default 3, 0: none)" },
	{ "no-paths", 'P', NULL, 0, "Do not resolve inode numbers to paths (no walk of the mount)" },
	{ "block-write", 'b', NULL, 0, "Top files from f2fs_block_write, exact (default where it exists)" },
	{ "extents", 'E', NULL, 0, "Top files from f2fs_extent_update (sequential writes only)" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 't':
		errno = 0;
		top_n = (int)strtol(arg, &end, 10);
		if (errno || *end || top_n < 0 || top_n > 1000)
			argp_error(state, "invalid top count '%s'", arg);
		break;
	case 'P':
		no_paths = true;
		break;
	case 'b':
	case 'E':
		if (file_src >= 0)
			argp_error(state, "-b and -E exclude each other");
		file_src = key == 'b' ? FS_BLOCK_WRITE : FS_EXTENT;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- files of one interval, their paths and extensions --------------- */

struct file_row {
	struct ino_path ip;	/* first: resolve_paths() takes the rows */
	__u64 blocks[6];
};

static const char *ext_of(const struct file_row *r)
{
	const char *b, *dot;

	if (!r->ip.path)
		return "?";
	if (r->ip.dir)
		return "(dir)";
	b = strrchr(r->ip.path, '/');
	b = b ? b + 1 : r->ip.path;
	dot = strrchr(b, '.');
	return dot && dot != b && dot[1] ? dot + 1 : "(none)";
}

static int cur_log;
static int by_log_blocks(const void *a, const void *b)
{
	const struct file_row *x = a, *y = b;

	if (x->blocks[cur_log] != y->blocks[cur_log])
		return x->blocks[cur_log] < y->blocks[cur_log] ? 1 : -1;
	return x->ip.ino < y->ip.ino ? -1 : x->ip.ino > y->ip.ino;
}

struct ext_row {
	const char *ext;
	__u64 blocks;
	int files;
};

static int by_ext_blocks(const void *a, const void *b)
{
	const struct ext_row *x = a, *y = b;

	if (x->blocks != y->blocks)
		return x->blocks < y->blocks ? 1 : -1;
	return strcmp(x->ext, y->ext);
}

/* Drain the per-file map: the blocks each file wrote since the last call. */
static int drain_files(int fd, struct file_row **rows)
{
	__u32 key, next, *prev = NULL;
	struct hc_file v;
	int n = 0, cap = 0;

	*rows = NULL;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_and_delete_elem(fd, &key, &v))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			*rows = realloc(*rows, cap * sizeof(**rows));
			if (!*rows)
				return 0;
		}
		memset(&(*rows)[n], 0, sizeof(**rows));
		(*rows)[n].ip.ino = key;
		memcpy((*rows)[n].blocks, v.blocks, sizeof(v.blocks));
		n++;
		prev = NULL;	/* the key is gone: start again */
	}
	return n;
}

static void report_files(const struct f2fs_mount *m, struct file_row *rows, int n)
{
	struct ext_row *ex = calloc(n + 1, sizeof(*ex));
	int lg, i, j, nex, shown, sep = 0;

	if (!no_paths)
		resolve_paths(m->dir, &rows[0].ip, n, sizeof(*rows));
	if (env.json)
		printf(",\"files\":[");
	else if (n)
		printf("top files (blocks written, from %s):\n%-10s %8s %8s  %s\n",
		       file_src == FS_BLOCK_WRITE ? "f2fs_block_write" :
		       file_src == FS_PAGE_WRITE ? "f2fs_submit_page_write" : "extent growth",
		       "LOG", "BLOCKS", "INO", "FILE");
	for (lg = 0; lg < 6; lg++) {
		cur_log = lg;
		qsort(rows, n, sizeof(*rows), by_log_blocks);
		for (i = 0, shown = 0; i < n && shown < top_n && rows[i].blocks[lg]; i++, shown++) {
			if (env.json) {
				printf("%s{\"log\":\"%s\",\"ino\":%u,\"blocks\":%llu,\"path\":",
				       sep++ ? "," : "", log_names[lg], rows[i].ip.ino,
				       (unsigned long long)rows[i].blocks[lg]);
				if (rows[i].ip.path)
					json_str(rows[i].ip.path);
				else
					printf("null");
				printf(",\"ext\":");
				json_str(ext_of(&rows[i]));
				printf("}");
			} else {
				printf("%-10s %8llu %8u  %s\n", log_names[lg],
				       (unsigned long long)rows[i].blocks[lg], rows[i].ip.ino,
				       rows[i].ip.path ? rows[i].ip.path :
				       no_paths ? "" : "(not found: deleted?)");
			}
		}
	}
	if (env.json)
		printf("],\"extensions\":[");
	else if (n)
		printf("top extensions:\n%-10s %-12s %8s %6s\n", "LOG", "EXT", "BLOCKS", "FILES");
	sep = 0;
	for (lg = 0; ex && lg < 6; lg++) {
		nex = 0;
		for (i = 0; i < n; i++) {
			const char *e = ext_of(&rows[i]);

			if (!rows[i].blocks[lg])
				continue;
			for (j = 0; j < nex && strcmp(ex[j].ext, e); j++)
				;
			if (j == nex) {
				ex[nex].ext = e;
				ex[nex].blocks = 0;
				ex[nex].files = 0;
				nex++;
			}
			ex[j].blocks += rows[i].blocks[lg];
			ex[j].files++;
		}
		qsort(ex, nex, sizeof(*ex), by_ext_blocks);
		for (j = 0; j < nex && j < top_n; j++) {
			if (env.json) {
				printf("%s{\"log\":\"%s\",\"ext\":", sep++ ? "," : "", log_names[lg]);
				json_str(ex[j].ext);
				printf(",\"blocks\":%llu,\"files\":%d}",
				       (unsigned long long)ex[j].blocks, ex[j].files);
			} else {
				printf("%-10s %-12s %8llu %6d\n", log_names[lg], ex[j].ext,
				       (unsigned long long)ex[j].blocks, ex[j].files);
			}
		}
	}
	if (env.json)
		printf("]");
	free(ex);
}

static const char *const stock_na[] = { "logs.*.lfs_blocks", "logs.*.ssr_blocks",
	"logs.*.segs_lfs", "logs.*.segs_ssr", NULL };

static void report(const struct f2fs_mount *m, double secs,
		   const struct stats *s, const struct stats *ps,
		   const struct hc_totals *now, const struct hc_totals *prev,
		   int files_fd)
{
	struct file_row *rows = NULL;
	int nrows = 0;
	unsigned long long lfs[6], ssr[6], blk[6], total = 0;
	bool stock = src == SRC_STOCK;
	char key[64];
	int i;

	for (i = 0; i < 6; i++) {
		if (stock) {
			blk[i] = now->log_blocks[i] - prev->log_blocks[i];
		} else {
			snprintf(key, sizeof(key), "lfs_blocks_%s", log_names[i]);
			lfs[i] = stat_delta(s, ps, key);
			snprintf(key, sizeof(key), "ssr_blocks_%s", log_names[i]);
			ssr[i] = stat_delta(s, ps, key);
			blk[i] = lfs[i] + ssr[i];
		}
		total += blk[i];
	}
	if (env.json) {
		printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f", now_hms(), m->name, secs);
		json_source(src, stock ? stock_na : NULL);
		printf(",\"total_blocks\":%llu,\"logs\":{", total);
	} else if (stock) {
		printf("\n%s  %s, %.1f s, %llu blocks  [stock f2fs]\n%-10s %10s %7s\n",
		       now_hms(), m->name, secs, total, "LOG", "BLOCKS", "SHARE");
	} else {
		printf("\n%s  %s, %.1f s, %llu blocks\n%-10s %10s %10s %9s %9s %7s\n",
		       now_hms(), m->name, secs, total, "LOG", "LFS_BLKS",
		       "SSR_BLKS", "SEGS_LFS", "SEGS_SSR", "SHARE");
	}
	for (i = 0; i < 6; i++) {
		unsigned long long sl = now->segs[i][0] - prev->segs[i][0];
		unsigned long long ss = now->segs[i][1] - prev->segs[i][1];
		double share = total ? 100.0 * blk[i] / total : 0;

		if (env.json && stock)
			printf("%s\"%s\":{\"blocks\":%llu,\"lfs_blocks\":null,\"ssr_blocks\":null,\"segs_lfs\":null,\"segs_ssr\":null}",
			       i ? "," : "", log_names[i], blk[i]);
		else if (env.json)
			printf("%s\"%s\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"segs_lfs\":%llu,\"segs_ssr\":%llu}",
			       i ? "," : "", log_names[i], lfs[i], ssr[i], sl, ss);
		else if (stock)
			printf("%-10s %10llu %6.1f%%\n", log_names[i], blk[i], share);
		else
			printf("%-10s %10llu %10llu %9llu %9llu %6.1f%%\n",
			       log_names[i], lfs[i], ssr[i], sl, ss, share);
	}
	if (env.json)
		printf("}");
	if (stock && env.json)
		printf(",\"status\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"lfs_segs\":%llu,\"ssr_segs\":%llu,\"ipu_blocks\":%llu}",
		       stat_delta(s, ps, "lfs_blocks"), stat_delta(s, ps, "ssr_blocks"),
		       stat_delta(s, ps, "lfs_segs"), stat_delta(s, ps, "ssr_segs"),
		       stat_delta(s, ps, "ipu_blocks"));
	else if (stock)
		printf("status (all logs): LFS %llu blocks in %llu segments, SSR %llu blocks in %llu segments; in place (IPU) %llu blocks\n"
		       "per log LFS/SSR and segments opened: " NA "\n",
		       stat_delta(s, ps, "lfs_blocks"), stat_delta(s, ps, "lfs_segs"),
		       stat_delta(s, ps, "ssr_blocks"), stat_delta(s, ps, "ssr_segs"),
		       stat_delta(s, ps, "ipu_blocks"));
	if (files_fd >= 0) {
		nrows = drain_files(files_fd, &rows);
		if (env.json)
			printf(",\"file_source\":\"%s\",\"file_blocks\":%llu,\"unknown_log_blocks\":%llu",
			       file_src_names[file_src],
			       (unsigned long long)(now->file_blocks - prev->file_blocks),
			       (unsigned long long)(now->unknown_log - prev->unknown_log));
		if (top_n)
			report_files(m, rows, nrows);
		free(rows);
	}
	if (env.json)
		printf("}\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_segment_alloc", NULL };
	static const char *const stock[] = { "f2fs_submit_page_write", NULL };
	static struct stats s, ps;
	struct hc_totals prev = {}, now;
	struct f2fs_hotcold_bpf *skel = NULL;
	struct f2fs_mount m;
	struct sb_geo geo = { .log_blocks_per_seg = 9 };
	const char *what;
	double t0, t1;
	int err, files_fd = -1, lg;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	src = preflight("f2fs-hotcold", ours, stock, env.dev, &m);
	if (src < 0)
		return 1;
	if (figures_read("f2fs-hotcold", src, &m, &ps))
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_hotcold_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-hotcold: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	if (src == SRC_STOCK) {
		skel->rodata->track_files = top_n > 0;
		file_src = FS_PAGE_WRITE;
	} else if (file_src == FS_BLOCK_WRITE && !event_exists("f2fs_block_write")) {
		fprintf(stderr, "f2fs-hotcold: -b: this module has no f2fs_block_write event\n");
		err = 1;
		goto cleanup;
	} else if (file_src < 0) {
		file_src = event_exists("f2fs_block_write") ? FS_BLOCK_WRITE : FS_EXTENT;
	}
	if (src == SRC_STOCK || !top_n) {
		/* nothing to decide */
	} else if (file_src == FS_BLOCK_WRITE) {
		skel->rodata->track_files = 1;
	} else if (!event_exists("f2fs_extent_update")) {
		fprintf(stderr, "f2fs-hotcold: no f2fs_extent_update event: no top files\n");
	} else if (read_sb(&m, &geo)) {
		fprintf(stderr, "f2fs-hotcold: cannot read the superblock of /dev/%s: no top files\n",
			m.name);
		geo.main_blkaddr = 0;
	}
	skel->rodata->main_blkaddr = top_n && src == SRC_OURS && file_src == FS_EXTENT ?
				     geo.main_blkaddr : 0;
	skel->rodata->log_blocks_per_seg = geo.log_blocks_per_seg;
	select_programs(skel->obj, src);
	if (!skel->rodata->main_blkaddr)
		bpf_program__set_autoload(skel->progs.on_extent_update, false);
	if (src == SRC_STOCK || !skel->rodata->track_files)
		bpf_program__set_autoload(skel->progs.on_block_write, false);
	err = f2fs_hotcold_bpf__load(skel);
	if (!err)
		err = f2fs_hotcold_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-hotcold: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	if (skel->rodata->main_blkaddr) {
		/* the logs' current segments: later ones come from the events */
		int seg_fd = bpf_map__fd(skel->maps.seg_log);

		stats_read(&m, &ps);
		for (lg = 0; lg < 6; lg++) {
			char key[48];
			__u32 seg;
			__u8 v = lg + 1;

			snprintf(key, sizeof(key), "curseg_%s", log_names[lg]);
			seg = stat_get(&ps, key);
			bpf_map_update_elem(seg_fd, &seg, &v, BPF_ANY);
		}
	}
	if (skel->rodata->main_blkaddr || skel->rodata->track_files)
		files_fd = bpf_map__fd(skel->maps.files);
	setup_signals();
	if (figures_read("f2fs-hotcold", src, &m, &ps)) {
		err = 1;
		goto cleanup;
	}
	t0 = mono();
	fprintf(env.json ? stderr : stdout,
		"Tracing writes per log of f2fs %s (%s, %s f2fs module)... Hit Ctrl-C to end.\n",
		m.name, m.dir, src_names[src]);
	fflush(stdout);

	while (!exiting) {
		sleep(env.interval);
		now = skel->bss->totals;
		if (src == SRC_OURS ? stats_read(&m, &s) : status_read(&m, &s, &what)) {
			fprintf(stderr, "f2fs-hotcold: %s was unmounted\n", m.name);
			err = 1;
			break;
		}
		t1 = mono();
		report(&m, t1 - t0, &s, &ps, &now, &prev, files_fd);
		prev = now;
		ps = s;
		t0 = t1;
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	f2fs_hotcold_bpf__destroy(skel);
	return err ? 1 : 0;
}
