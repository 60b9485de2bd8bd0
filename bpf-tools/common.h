/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - what the f2fs tools share: checks, which f2fs module is loaded
 * (ours or the stock one) and what it offers, debugfs figures (our
 * <dev>/stats, or the stock status file parsed into the same key/value
 * form), output helpers.
 */
#ifndef F2FS_TOOLS_COMMON_H
#define F2FS_TOOLS_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include <argp.h>
#include <bpf/libbpf.h>
#include "ssr.h"

#define MAX_STATS 160
#define HIST_SLOTS 32

/*
 * Where a tool's figures come from: our module (our events, <dev>/stats)
 * or the stock one (upstream's tracepoints, the debugfs status file).
 * BPF programs for ours are named on_*, for the stock module st_*.
 */
enum { SRC_OURS = 1, SRC_STOCK = 2 };
extern const char *const src_names[3];		/* "", "ours", "stock" */
#define NA "n/a (needs our module)"

extern const char *const log_names[6];		/* hot_data ... cold_node */
extern const char *const cp_reason_names[7];	/* umount ... periodic */
extern const char *const stock_cp_reason_names[9]; /* umount ... resize, other */
extern const char *const gc_type_names[2];	/* fg, bg */
extern const char *const gc_policy_names[3];	/* greedy, cost_benefit, age_threshold */

extern volatile bool exiting;
extern bool verbose;

/* A mounted f2fs: debugfs name ("vda"), mount point, kernel dev_t. */
struct f2fs_mount {
	char name[256];
	char dir[256];
	__u32 kdev;
};

/* One snapshot of /sys/kernel/debug/f2fs/<dev>/stats. */
struct stats {
	int n;
	char key[MAX_STATS][48];
	unsigned long long val[MAX_STATS];
};

void setup_signals(void);
int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args);
/*
 * preflight: root, an f2fs module's events (@ours when our module is
 * loaded, @stock when the stock one is; the stock records are checked
 * against the layout the tools were built for), an f2fs mounted (the one
 * named by @dev, a device or mount point, or the first one).  Returns
 * SRC_OURS or SRC_STOCK (0 when both lists are NULL: no events needed), or
 * prints a one-line error and returns -1.
 */
int preflight(const char *prog, const char *const *ours, const char *const *stock,
	      const char *dev, struct f2fs_mount *m);
bool event_exists(const char *ev);
bool tp_exists(const char *sys, const char *ev);
int module_source(void);	/* SRC_OURS, SRC_STOCK from tracefs, 0: neither */
/* The stock events' fields the tools read match this kernel's format files. */
int check_stock_fields(const char *prog, const char *const *events);
/* Load only the programs of @src (on_* for ours, st_* for the stock module). */
void select_programs(struct bpf_object *obj, int src);
int list_mounts(struct f2fs_mount *ms, int max);	/* every f2fs mounted */
int stats_read(const struct f2fs_mount *m, struct stats *s);
/*
 * The stock module's /sys/kernel/debug/f2fs/status, the section of @m, as
 * keys (see common.c).  0; -ENOENT when the file has no section for @m;
 * -EPROTO (with *what naming the line) when a line is missing or unreadable.
 */
int status_read(const struct f2fs_mount *m, struct stats *s, const char **what);
/* SRC_OURS when <dev>/stats is there, SRC_STOCK when status has @m, else 0 */
int figures_source(const struct f2fs_mount *m);
/* stats_read or status_read; prints "PROG: ..." on failure */
int figures_read(const char *prog, int src, const struct f2fs_mount *m, struct stats *s);
/* main_blkaddr, log2(blocks per segment), NAT area, sections, main segments */
struct sb_geo {
	__u32 log_blocks_per_seg, main_blkaddr, nat_blkaddr, nat_blocks;
	__u32 segs_per_sec, main_segs;
};
int read_sb(const struct f2fs_mount *m, struct sb_geo *g);
bool stat_has(const struct stats *s, const char *key);
unsigned long long stat_get(const struct stats *s, const char *key);
unsigned long long stat_delta(const struct stats *now, const struct stats *prev,
			      const char *key);
void print_log2_hist(const __u64 *slots, int n, const char *unit);
void json_log2_hist(const __u64 *slots, int n);
const char *now_hms(void);
/* JSON: ,"source":"ours|stock","unavailable":[...] (list ends with NULL) */
void json_source(int src, const char *const *unavailable);
double mono(void);		/* CLOCK_MONOTONIC in seconds */
/*
 * SSR victims (ssr.h): the interval's change of the BPF totals (pending
 * stays a level), the non-zero logs of @v as "warm_data 10, cold_data 4"
 * ("none"), and the JSON object "ssr":{...} with every log (our module:
 * victims, avg_valid, avg_reusable, other_type; stock: avg_ckpt_valid
 * instead, avg_valid and avg_reusable null, and pending).
 */
void ssr_diff(struct ssr_totals *d, const struct ssr_totals *now, const struct ssr_totals *prev);
const char *ssr_logs_text(const unsigned long long v[6]);
void ssr_json(int src, const struct ssr_totals *d);
/* "n/a" or @v / @n formatted by "%.0f" (avg of none: 0) */
const char *avg_text(bool known, unsigned long long v, unsigned long long n);
extern const char *const ssr_stock_na[];	/* its JSON paths null on stock */

/*
 * The options every tool takes (-d, -j, -v, -h) and "interval [count]",
 * as an argp child: a tool sets env's defaults and lists common_argp in
 * its children.
 */
struct common_env {
	const char *dev;
	bool json;
	int interval;
	int count;
};
extern struct common_env env;
extern const struct argp common_argp;

#endif
