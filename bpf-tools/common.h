/* SPDX-License-Identifier: GPL-2.0 */
/* common.h - what the f2fs tools share: checks, debugfs stats, output. */
#ifndef F2FS_TOOLS_COMMON_H
#define F2FS_TOOLS_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include <argp.h>
#include <bpf/libbpf.h>

#define MAX_STATS 160
#define HIST_SLOTS 32

extern const char *const log_names[6];		/* hot_data ... cold_node */
extern const char *const cp_reason_names[7];	/* umount ... periodic */
extern const char *const gc_type_names[2];	/* fg, bg */
extern const char *const gc_policy_names[2];	/* greedy, cost_benefit */

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
 * preflight: root, our f2fs events present, an f2fs mounted (the one named
 * by @dev, a device or mount point, or the first one).  Prints a one-line
 * error and returns -1 when something is missing.
 */
int preflight(const char *prog, const char *const *events, const char *dev,
	      struct f2fs_mount *m);
bool event_exists(const char *ev);
int list_mounts(struct f2fs_mount *ms, int max);	/* every f2fs mounted */
int stats_read(const struct f2fs_mount *m, struct stats *s);
unsigned long long stat_get(const struct stats *s, const char *key);
unsigned long long stat_delta(const struct stats *now, const struct stats *prev,
			      const char *key);
void print_log2_hist(const __u64 *slots, int n, const char *unit);
void json_log2_hist(const __u64 *slots, int n);
const char *now_hms(void);
double mono(void);		/* CLOCK_MONOTONIC in seconds */
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
