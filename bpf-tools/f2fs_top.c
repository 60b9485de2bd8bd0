// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-top - the state of one f2fs per interval: utilisation and segment
 * counts, blocks per second of each log (LFS against SSR), GC, checkpoints,
 * NAT/SIT flushes and the extent-cache hit ratio.  On a terminal it is a
 * full-screen view (plain ANSI escapes and termios; keys q, d, s; redrawn
 * at once, to the new width, when the terminal is resized); -b prints plain
 * lines and -j one JSON object per interval.
 *
 * Our module: everything comes from /sys/kernel/debug/f2fs/<dev>/stats;
 * BPF (the f2fs_cp_end event) adds the maximum checkpoint latency of each
 * interval.  The stock module: the debugfs status file gives utilisation,
 * segments per state, each log's current segment, LFS/SSR/in-place blocks
 * and segments of all logs, GC calls (victims cleaned) and blocks GC tried
 * to move, checkpoints, dirty counts, the extent cache and memory (counters
 * shown as rates); BPF on its tracepoints adds the blocks each log wrote,
 * GC passes and victims per policy, the utilisation of greedy victims and
 * checkpoint latencies.  What neither gives (user blocks, LFS/SSR per log,
 * blocks GC really moved, write amplification, NAT/SIT flushes) shows as
 * "n/a (needs our module)", and in JSON as null, listed in "unavailable"
 * along with "source".  Without BPF (-n, or when it cannot load) it runs on
 * debugfs alone and says so.
 */
#include <argp.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>
#include "common.h"
#include "screen.h"
#include "f2fs_top.h"
#include "f2fs_top.skel.h"

struct common_env env = { .interval = 1, .count = -1 };
static bool batch, no_bpf;

const char *argp_program_version = "f2fs-top 0.1";
static const char doc[] =
"The state of an f2fs per interval: space, logs, GC, checkpoints, caches.\n"
"\n"
"USAGE: f2fs-top [-b|-j] [-h] [-v] [-n] [-d DEV] [interval] [count]\n"
"\n"
"On a terminal, without -b or -j, a full-screen view refreshed every\n"
"interval; keys: q quits, d shows the next f2fs mounted, s changes the\n"
"order of the logs (fixed, by blocks/s, by segments/s).  Not on a\n"
"terminal, it prints plain lines as with -b.  Works with our f2fs module\n"
"and with the stock one (debugfs status file and upstream tracepoints;\n"
"figures only our module has show as n/a).\n"
"\n"
"EXAMPLES:\n"
"    f2fs-top             # full screen, every second\n"
"    f2fs-top -d vdb 2    # full screen on /dev/vdb, every 2 seconds\n"
"    f2fs-top -b          # plain lines every second\n"
"    f2fs-top -b 5 12     # every 5 seconds for a minute\n"
"    f2fs-top -j 1 10     # JSON, every second, 10 times\n"
"    f2fs-top -b -n       # debugfs only, no BPF\n";

static const struct argp_option opts[] = {
	{ "batch", 'b', NULL, 0, "Plain lines, no terminal control" },
	{ "no-bpf", 'n', NULL, 0, "Do not load BPF: debugfs figures only" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	switch (key) {
	case 'b':
		batch = true;
		break;
	case 'n':
		no_bpf = true;
		break;
	case ARGP_KEY_END:
		if (batch && env.json)
			argp_error(state, "-b and -j exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The figures of one interval. */
struct view {
	int src;
	double secs;
	unsigned long long util_pct, valid_blocks, user_blocks;
	unsigned long long main_segs, free_segs, dirty_segs, prefree_segs, valid_segs;
	unsigned long long lfs[6], ssr[6], segs[6], written;	/* ours */
	unsigned long long gc_fg, gc_bg, vic_greedy, vic_cb, vic_util_pct, moved;
	double wa;
	unsigned long long cp, cp_events, cp_last_us, cp_avg_us, cp_max_us, cp_mount_max_us;
	unsigned long long nat_flushes, sit_flushes, ext_lookups, ext_hits;
	/* stock: from the status file */
	unsigned long long curseg[6], lfs_all, ssr_all, lfs_segs_all, ssr_segs_all, ipu;
	unsigned long long gc_calls, gc_bg_thread, gc_tried, gc_tried_bg, gc_data_segs, gc_node_segs;
	unsigned long long cp_bg, d_nodes, d_dents, d_dirs, d_data, d_meta, d_imeta;
	unsigned long long nats_dirty, nats, sits_dirty, sits, free_nids, mem_kb;
	/* stock: from BPF */
	unsigned long long blocks[6], vic_at, util_known;
	/*
	 * SSR victims.  Ours: their number per log and their valid blocks
	 * from debugfs, the reusable blocks from BPF.  Stock: their number
	 * from the status file, per log and checkpointed valid blocks from
	 * BPF (see ssr.h).  ssr_n, ssr_reusable_n: the victims the sums are over.
	 */
	unsigned long long ssr_vic, ssr_logs[6], ssr_valid, ssr_n, ssr_blocks;
	unsigned long long ssr_reusable, ssr_reusable_n;
	bool ssr_per_log, ssr_reusable_known;
	bool bpf;
};

static void compute(struct view *v, const struct stats *s, const struct stats *p)
{
	char k1[64], k2[64];
	unsigned long long vic, user;
	int i;

#define G(k) stat_get(s, k)
#define DT(k) stat_delta(s, p, k)
	v->src = SRC_OURS;
	v->valid_blocks = G("valid_blocks");
	v->user_blocks = G("user_blocks");
	v->util_pct = v->user_blocks ? v->valid_blocks * 100 / v->user_blocks : 0;
	v->main_segs = G("main_segs");
	v->free_segs = G("free_segs");
	v->dirty_segs = G("dirty_segs");
	v->prefree_segs = G("prefree_segs");
	v->valid_segs = G("valid_segs");
	v->written = 0;
	for (i = 0; i < 6; i++) {
		snprintf(k1, sizeof(k1), "lfs_blocks_%s", log_names[i]);
		snprintf(k2, sizeof(k2), "ssr_blocks_%s", log_names[i]);
		v->lfs[i] = DT(k1);
		v->ssr[i] = DT(k2);
		v->written += v->lfs[i] + v->ssr[i];
		snprintf(k1, sizeof(k1), "segs_opened_%s_lfs", log_names[i]);
		snprintf(k2, sizeof(k2), "segs_opened_%s_ssr", log_names[i]);
		v->segs[i] = DT(k1) + DT(k2);
	}
	for (i = 0; i < 6; i++) {
		snprintf(k1, sizeof(k1), "segs_opened_%s_ssr", log_names[i]);
		v->ssr_logs[i] = DT(k1);
		v->ssr_vic += v->ssr_logs[i];
		v->ssr_blocks += v->ssr[i];
	}
	v->ssr_valid = DT("ssr_victim_valid");
	v->ssr_n = v->ssr_vic;
	v->ssr_per_log = true;
	v->gc_fg = DT("gc_calls_fg");
	v->gc_bg = DT("gc_calls_bg");
	v->vic_greedy = DT("gc_victims_greedy");
	v->vic_cb = DT("gc_victims_cost_benefit");
	vic = v->vic_greedy + v->vic_cb;
	v->vic_util_pct = vic ? DT("gc_victim_valid") * 100 / vic / 512 : 0;
	v->moved = DT("gc_data_moved") + DT("gc_node_moved");
	user = v->written > v->moved ? v->written - v->moved : 0;
	v->wa = user ? (double)v->written / user : 0;
	v->cp = DT("cp_calls");
	v->cp_last_us = G("cp_last_ns") / 1000;
	v->cp_avg_us = v->cp ? DT("cp_total_ns") / v->cp / 1000 : 0;
	v->cp_mount_max_us = G("cp_max_ns") / 1000;
	v->nat_flushes = DT("nat_flushes");
	v->sit_flushes = DT("sit_flushes");
	v->ext_lookups = DT("extent_lookups");
	v->ext_hits = DT("extent_hits");
}

/* The stock status file: levels as they are, counters as differences. */
static void compute_stock(struct view *v, const struct stats *s, const struct stats *p)
{
	char k[64];
	int i;

	v->src = SRC_STOCK;
	v->util_pct = G("util_pct");
	v->valid_blocks = G("valid_blocks");
	v->main_segs = G("main_segs");
	v->free_segs = G("free_segs");
	v->dirty_segs = G("dirty_segs");
	v->prefree_segs = G("prefree_segs");
	v->valid_segs = G("valid_segs");
	for (i = 0; i < 6; i++) {
		snprintf(k, sizeof(k), "curseg_%s", log_names[i]);
		v->curseg[i] = G(k);
	}
	v->lfs_all = DT("lfs_blocks");
	v->ssr_all = DT("ssr_blocks");
	v->lfs_segs_all = DT("lfs_segs");
	v->ssr_segs_all = DT("ssr_segs");
	v->ssr_vic = v->ssr_segs_all;
	v->ssr_blocks = v->ssr_all;
	v->ipu = DT("ipu_blocks");
	v->gc_calls = DT("gc_calls");
	v->gc_bg_thread = DT("gc_bg_passes");
	v->gc_tried = DT("gc_tried");
	v->gc_tried_bg = DT("gc_tried_bg");
	v->gc_data_segs = DT("gc_data_segs");
	v->gc_node_segs = DT("gc_node_segs");
	v->cp = DT("cp_calls");
	v->cp_bg = DT("cp_calls_bg");
	v->ext_lookups = DT("extent_lookups");
	v->ext_hits = DT("extent_hits");
	v->d_nodes = G("dirty_nodes");
	v->d_dents = G("dirty_dents");
	v->d_dirs = G("dirty_dirs");
	v->d_data = G("dirty_data");
	v->d_meta = G("dirty_meta");
	v->d_imeta = G("dirty_imeta");
	v->nats_dirty = G("dirty_nats");
	v->nats = G("cached_nats");
	v->sits_dirty = G("dirty_sits");
	v->sits = G("sit_entries");
	v->free_nids = G("free_nids");
	v->mem_kb = G("mem_kb");
#undef G
#undef DT
}

static struct ssr_totals ssr_prev;

/* The BPF totals the next interval starts from. */
static void bpf_mark(struct f2fs_top_bpf *skel, struct top_totals *prev)
{
	*prev = skel->bss->totals;
	ssr_prev = skel->bss->ssr_tot;
}

/* The BPF figures of the interval (and the checkpoint maximum reset). */
static void apply_bpf(struct view *v, struct f2fs_top_bpf *skel, struct top_totals *prev)
{
	struct top_totals now = skel->bss->totals;
	unsigned long long cps = now.cp_count - prev->cp_count;
	struct ssr_totals ssr_now = skel->bss->ssr_tot, d;
	int i;

	ssr_diff(&d, &ssr_now, &ssr_prev);
	ssr_prev = ssr_now;
	if (v->src == SRC_STOCK) {
		v->ssr_per_log = true;
		v->ssr_valid = v->ssr_n = 0;
		for (i = 0; i < 6; i++) {
			v->ssr_logs[i] = d.victims[i];
			v->ssr_valid += d.valid[i];
			v->ssr_n += d.victims[i];
		}
	} else {
		v->ssr_reusable_known = true;
		for (i = 0; i < 6; i++)
			v->ssr_reusable += d.reusable[i];
		v->ssr_reusable_n = d.chosen;
	}

	skel->bss->totals.cp_max_ns = 0;
	v->bpf = true;
	v->cp_max_us = now.cp_max_ns / 1000;
	v->cp_events = cps;
	if (v->src == SRC_STOCK) {
		for (i = 0; i < 6; i++)
			v->blocks[i] = now.log_blocks[i] - prev->log_blocks[i];
		v->gc_fg = now.passes[0] - prev->passes[0];
		v->gc_bg = now.passes[1] - prev->passes[1];
		v->vic_greedy = now.victims[0] - prev->victims[0];
		v->vic_cb = now.victims[1] - prev->victims[1];
		v->vic_at = now.victims[2] - prev->victims[2];
		v->util_known = now.util_known - prev->util_known;
		v->vic_util_pct = now.victim_cap - prev->victim_cap ?
			(now.victim_valid - prev->victim_valid) * 100 /
			(now.victim_cap - prev->victim_cap) : 0;
		v->cp_last_us = now.cp_last_ns / 1000;
		v->cp_avg_us = cps ? (now.cp_total_ns - prev->cp_total_ns) / cps / 1000 : 0;
	}
	*prev = now;
}

static void json_null_or(bool known, unsigned long long v)
{
	if (known)
		printf("%llu", v);
	else
		printf("null");
}

/* ,"ssr":{...} inside "gc" */
static void json_ssr(const struct view *v)
{
	bool stock = v->src == SRC_STOCK;
	int i;

	printf(",\"ssr\":{\"victims\":%llu,\"logs\":", v->ssr_vic);
	if (v->ssr_per_log) {
		for (i = 0; i < 6; i++)
			printf("%s\"%s\":%llu", i ? "," : "{", log_names[i], v->ssr_logs[i]);
		printf("}");
	} else {
		printf("null");
	}
	if (stock) {
		printf(",\"avg_valid\":null,\"avg_ckpt_valid\":");
		if (v->ssr_per_log)
			printf("%.1f", v->ssr_n ? (double)v->ssr_valid / v->ssr_n : 0.0);
		else
			printf("null");
	} else {
		printf(",\"avg_valid\":%.1f", v->ssr_n ? (double)v->ssr_valid / v->ssr_n : 0.0);
	}
	printf(",\"avg_reusable\":");
	if (v->ssr_reusable_known)
		printf("%.1f", v->ssr_reusable_n ? (double)v->ssr_reusable / v->ssr_reusable_n : 0.0);
	else
		printf("null");
	printf(",\"blocks\":%llu}", v->ssr_blocks);
}

static void print_json_stock(const struct f2fs_mount *m, const struct view *v)
{
	static const char *const na_bpf[] = { "user_blocks", "logs.*.lfs_blocks",
		"logs.*.ssr_blocks", "logs.*.segs_opened", "gc.victim_util_pct",
		"gc.blocks_moved", "gc.write_amp", "gc.ssr.avg_valid", "gc.ssr.avg_reusable",
		"cp.mount_max_us", "nat_flushes", "sit_flushes", NULL };
	static const char *const na_nobpf[] = { "user_blocks", "logs.*.blocks",
		"logs.*.lfs_blocks", "logs.*.ssr_blocks", "logs.*.segs_opened",
		"gc.fg", "gc.bg", "gc.victims_greedy", "gc.victims_cost_benefit",
		"gc.victims_age_threshold", "gc.greedy_victim_util_pct",
		"gc.victim_util_pct", "gc.blocks_moved", "gc.write_amp", "gc.ssr.logs",
		"gc.ssr.avg_valid", "gc.ssr.avg_ckpt_valid", "gc.ssr.avg_reusable", "cp.last_us",
		"cp.avg_us", "cp.max_us", "cp.events", "cp.mount_max_us",
		"nat_flushes", "sit_flushes", NULL };
	int i;

	printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f,\"bpf\":%s",
	       now_hms(), m->name, v->secs, v->bpf ? "true" : "false");
	json_source(SRC_STOCK, v->bpf ? na_bpf : na_nobpf);
	printf(",\"util_pct\":%llu,\"valid_blocks\":%llu,\"user_blocks\":null,"
	       "\"segs\":{\"main\":%llu,\"free\":%llu,\"dirty\":%llu,\"prefree\":%llu,\"valid\":%llu},"
	       "\"logs\":{", v->util_pct, v->valid_blocks, v->main_segs, v->free_segs,
	       v->dirty_segs, v->prefree_segs, v->valid_segs);
	for (i = 0; i < 6; i++) {
		printf("%s\"%s\":{\"blocks\":", i ? "," : "", log_names[i]);
		json_null_or(v->bpf, v->blocks[i]);
		printf(",\"cur_seg\":%llu,\"lfs_blocks\":null,\"ssr_blocks\":null,\"segs_opened\":null}",
		       v->curseg[i]);
	}
	printf("},\"all_logs\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"lfs_segs\":%llu,"
	       "\"ssr_segs\":%llu,\"ipu_blocks\":%llu},\"gc\":{\"fg\":",
	       v->lfs_all, v->ssr_all, v->lfs_segs_all, v->ssr_segs_all, v->ipu);
	json_null_or(v->bpf, v->gc_fg);
	printf(",\"bg\":");
	json_null_or(v->bpf, v->gc_bg);
	printf(",\"calls\":%llu,\"bg_thread_passes\":%llu,\"victims_greedy\":",
	       v->gc_calls, v->gc_bg_thread);
	json_null_or(v->bpf, v->vic_greedy);
	printf(",\"victims_cost_benefit\":");
	json_null_or(v->bpf, v->vic_cb);
	printf(",\"victims_age_threshold\":");
	json_null_or(v->bpf, v->vic_at);
	printf(",\"greedy_victim_util_pct\":");
	json_null_or(v->bpf && v->util_known, v->vic_util_pct);
	printf(",\"victim_util_pct\":null,\"blocks_moved\":null,\"blocks_tried\":%llu,"
	       "\"blocks_tried_bg\":%llu,\"segs_cleaned_data\":%llu,\"segs_cleaned_node\":%llu,"
	       "\"write_amp\":null", v->gc_tried, v->gc_tried_bg, v->gc_data_segs, v->gc_node_segs);
	json_ssr(v);
	printf("},\"cp\":{\"count\":%llu,\"bg\":%llu,\"last_us\":", v->cp, v->cp_bg);
	json_null_or(v->bpf && v->cp_last_us, v->cp_last_us);
	printf(",\"avg_us\":");
	json_null_or(v->bpf, v->cp_avg_us);
	printf(",\"max_us\":");
	json_null_or(v->bpf, v->cp_max_us);
	printf(",\"events\":");
	json_null_or(v->bpf, v->cp_events);
	printf(",\"mount_max_us\":null},\"nat_flushes\":null,\"sit_flushes\":null,"
	       "\"extent\":{\"lookups\":%llu,\"hits\":%llu},"
	       "\"dirty\":{\"nodes\":%llu,\"dents\":%llu,\"dirs\":%llu,\"data\":%llu,"
	       "\"meta\":%llu,\"imeta\":%llu,\"nats\":%llu,\"cached_nats\":%llu,"
	       "\"sits\":%llu,\"sit_entries\":%llu,\"free_nids\":%llu},\"memory_kb\":%llu}\n",
	       v->ext_lookups, v->ext_hits, v->d_nodes, v->d_dents, v->d_dirs, v->d_data,
	       v->d_meta, v->d_imeta, v->nats_dirty, v->nats, v->sits_dirty, v->sits,
	       v->free_nids, v->mem_kb);
}

static void print_json(const struct f2fs_mount *m, const struct view *v)
{
	static const char *const na_nobpf[] = { "gc.ssr.avg_reusable", "cp.max_us", "cp.events", NULL };
	int i;

	if (v->src == SRC_STOCK) {
		print_json_stock(m, v);
		return;
	}
	printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f,\"bpf\":%s",
	       now_hms(), m->name, v->secs, v->bpf ? "true" : "false");
	json_source(SRC_OURS, v->bpf ? NULL : na_nobpf);
	printf(",\"util_pct\":%llu,\"valid_blocks\":%llu,\"user_blocks\":%llu,"
	       "\"segs\":{\"main\":%llu,\"free\":%llu,\"dirty\":%llu,\"prefree\":%llu,\"valid\":%llu},"
	       "\"logs\":{",
	       v->util_pct, v->valid_blocks, v->user_blocks, v->main_segs,
	       v->free_segs, v->dirty_segs, v->prefree_segs, v->valid_segs);
	for (i = 0; i < 6; i++)
		printf("%s\"%s\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"segs_opened\":%llu}",
		       i ? "," : "", log_names[i], v->lfs[i], v->ssr[i], v->segs[i]);
	printf("},\"gc\":{\"fg\":%llu,\"bg\":%llu,\"victims_greedy\":%llu,\"victims_cost_benefit\":%llu,"
	       "\"victim_util_pct\":%llu,\"blocks_moved\":%llu,\"write_amp\":%.2f",
	       v->gc_fg, v->gc_bg, v->vic_greedy, v->vic_cb, v->vic_util_pct, v->moved, v->wa);
	json_ssr(v);
	printf("},\"cp\":{\"count\":%llu,\"last_us\":%llu,\"avg_us\":%llu,",
	       v->cp, v->cp_last_us, v->cp_avg_us);
	if (v->bpf)
		printf("\"max_us\":%llu,\"events\":%llu,", v->cp_max_us, v->cp_events);
	printf("\"mount_max_us\":%llu},\"nat_flushes\":%llu,\"sit_flushes\":%llu,"
	       "\"extent\":{\"lookups\":%llu,\"hits\":%llu}}\n",
	       v->cp_mount_max_us, v->nat_flushes, v->sit_flushes,
	       v->ext_lookups, v->ext_hits);
}

/* "%.0f" of a rate, or "n/a" */
static const char *rate(bool known, double x, const char *fmt)
{
	static char bufs[8][32];
	static int k;
	char *b = bufs[k++ & 7];

	if (!known)
		return "n/a";
	snprintf(b, sizeof(bufs[0]), fmt, x);
	return b;
}

/* The SSR victims of the interval, for the screen and -b. */
static const char *ssr_line(const struct view *v, double t)
{
	static char b[512];
	bool stock = v->src == SRC_STOCK;

	snprintf(b, sizeof(b), "SSR %llu victims (%s); avg %s %s blk, reusable %s blk; recycled %.0f blk/s",
		 v->ssr_vic, v->ssr_per_log ? ssr_logs_text(v->ssr_logs) : "per log n/a",
		 stock ? "checkpointed valid" : "valid",
		 avg_text(!stock || v->ssr_per_log, v->ssr_valid, v->ssr_n),
		 avg_text(v->ssr_reusable_known, v->ssr_reusable, v->ssr_reusable_n),
		 v->ssr_blocks / t);
	return b;
}

static void print_batch_stock(const struct f2fs_mount *m, const struct view *v)
{
	double t = v->secs > 0 ? v->secs : 1;
	int i;

	printf("\n%s %s: util %llu%% (%llu valid blocks); segments: %llu main, %llu free, %llu dirty, %llu prefree, %llu full  [stock: %s]\n",
	       now_hms(), m->name, v->util_pct, v->valid_blocks, v->main_segs,
	       v->free_segs, v->dirty_segs, v->prefree_segs, v->valid_segs,
	       v->bpf ? "status + BPF" : "status only");
	printf("  %-10s %9s %8s\n", "log", "blk/s", "cur seg");
	for (i = 0; i < 6; i++)
		printf("  %-10s %9s %8llu\n", log_names[i], rate(v->bpf, v->blocks[i] / t, "%.0f"),
		       v->curseg[i]);
	printf("  all logs: LFS %.0f blk/s (%.1f segs/s), SSR %.0f blk/s (%.1f segs/s), in place %.0f blk/s; LFS/SSR per log " NA "\n",
	       v->lfs_all / t, v->lfs_segs_all / t, v->ssr_all / t, v->ssr_segs_all / t, v->ipu / t);
	printf("  GC: passes %s fg/s, %s bg/s; %.1f victims cleaned/s (bg thread %llu); victims greedy %s, cost-benefit %s, age-threshold %s; greedy avg util %s; tried to move %.0f blk/s; WA " NA "\n",
	       rate(v->bpf, v->gc_fg / t, "%.1f"), rate(v->bpf, v->gc_bg / t, "%.1f"),
	       v->gc_calls / t, v->gc_bg_thread, rate(v->bpf, v->vic_greedy, "%.0f"),
	       rate(v->bpf, v->vic_cb, "%.0f"), rate(v->bpf, v->vic_at, "%.0f"),
	       rate(v->bpf && v->util_known, v->vic_util_pct, "%.0f%%"), v->gc_tried / t);
	printf("  %s\n", ssr_line(v, t));
	printf("  CP: %llu (%.1f/s, bg %llu); last %s, avg %s, max %s; NAT/SIT flushes " NA "\n",
	       v->cp, v->cp / t, v->cp_bg, rate(v->bpf && v->cp_last_us, v->cp_last_us, "%.0f us"),
	       rate(v->bpf, v->cp_avg_us, "%.0f us"), rate(v->bpf, v->cp_max_us, "%.0f us"));
	printf("  dirty: nodes %llu, dents %llu in %llu dirs, data %llu, meta %llu, imeta %llu; NATs %llu/%llu, SITs %llu/%llu; free nids %llu; memory %llu KB\n",
	       v->d_nodes, v->d_dents, v->d_dirs, v->d_data, v->d_meta, v->d_imeta,
	       v->nats_dirty, v->nats, v->sits_dirty, v->sits, v->free_nids, v->mem_kb);
	printf("  extent cache: %llu lookups, %llu%% hits\n", v->ext_lookups,
	       v->ext_lookups ? v->ext_hits * 100 / v->ext_lookups : 0);
}

static void print_batch(const struct f2fs_mount *m, const struct view *v)
{
	double t = v->secs > 0 ? v->secs : 1;
	int i;

	if (v->src == SRC_STOCK) {
		print_batch_stock(m, v);
		return;
	}
	printf("\n%s %s: util %llu%% (%llu of %llu blocks); segments: %llu main, %llu free, %llu dirty, %llu prefree%s\n",
	       now_hms(), m->name, v->util_pct, v->valid_blocks, v->user_blocks,
	       v->main_segs, v->free_segs, v->dirty_segs, v->prefree_segs,
	       v->bpf ? "" : "  [debugfs only]");
	printf("  %-10s %9s %9s %7s\n", "log", "LFS blk/s", "SSR blk/s", "segs/s");
	for (i = 0; i < 6; i++)
		printf("  %-10s %9.0f %9.0f %7.1f\n", log_names[i], v->lfs[i] / t,
		       v->ssr[i] / t, v->segs[i] / t);
	printf("  GC: %.1f fg/s, %.1f bg/s; victims greedy %llu, cost-benefit %llu, avg util %llu%%; moved %.0f blk/s; WA %.2f\n",
	       v->gc_fg / t, v->gc_bg / t, v->vic_greedy, v->vic_cb,
	       v->vic_util_pct, v->moved / t, v->wa);
	printf("  %s\n", ssr_line(v, t));
	printf("  CP: %llu (%.1f/s); last %llu us, avg %llu us, max ", v->cp, v->cp / t,
	       v->cp_last_us, v->cp_avg_us);
	if (v->bpf)
		printf("%llu us", v->cp_max_us);
	else
		printf("n/a");
	printf(" (since mount %llu us); NAT flushes %llu, SIT flushes %llu\n",
	       v->cp_mount_max_us, v->nat_flushes, v->sit_flushes);
	printf("  extent cache: %llu lookups, %llu%% hits\n", v->ext_lookups,
	       v->ext_lookups ? v->ext_hits * 100 / v->ext_lookups : 0);
}

/* Load and attach the BPF part for @m; NULL (and *why) when it cannot. */
static struct f2fs_top_bpf *bpf_start(const struct f2fs_mount *m, int src,
				      char *why, size_t wl)
{
	static const char *const stock[] = { "f2fs_write_checkpoint",
		"f2fs_submit_page_write", "f2fs_gc_begin", "f2fs_get_victim", NULL };
	const char *const *e;
	struct f2fs_top_bpf *skel;
	int err;

	static const char *const ours[] = { "f2fs_cp_end", "f2fs_ssr_victim", NULL };
	struct sb_geo geo;

	for (e = ours; src == SRC_OURS && *e; e++) {
		if (!event_exists(*e)) {
			snprintf(why, wl, "no %s trace event", *e);
			return NULL;
		}
	}
	for (e = stock; src == SRC_STOCK && *e; e++) {
		if (!event_exists(*e)) {
			snprintf(why, wl, "no %s trace event", *e);
			return NULL;
		}
	}
	if (src == SRC_STOCK && check_stock_fields("f2fs-top", stock)) {
		snprintf(why, wl, "the stock events' layout differs");
		return NULL;
	}
	skel = f2fs_top_bpf__open();
	if (!skel) {
		snprintf(why, wl, "cannot open the BPF object");
		return NULL;
	}
	skel->rodata->targ_dev = m->kdev;
	/* stock: an SSR victim's log is that of its first write (ssr.bpf.h) */
	if (src == SRC_STOCK && read_sb(m, &geo) == 0) {
		skel->rodata->ssr_main_blkaddr = geo.main_blkaddr;
		skel->rodata->ssr_log_bps = geo.log_blocks_per_seg;
	}
	select_programs(skel->obj, src);
	err = f2fs_top_bpf__load(skel);
	if (!err)
		err = f2fs_top_bpf__attach(skel);
	if (err) {
		snprintf(why, wl, "%s", strerror(-err));
		f2fs_top_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Read the figures of @m and compute the view of the interval since @ps. */
static int sample(int src, const struct f2fs_mount *m, struct stats *s,
		  const struct stats *ps, struct view *v)
{
	const char *what;
	int err = src == SRC_OURS ? stats_read(m, s) : status_read(m, s, &what);

	if (err)
		return err;
	memset(v, 0, sizeof(*v));
	if (src == SRC_OURS)
		compute(v, s, ps);
	else
		compute_stock(v, s, ps);
	return 0;
}

/* ---- full screen --------------------------------------------------------- */

/* a bar of @w cells: @a cells '#', then @b cells '+' */
static void bar(double a, double b, double max, int w)
{
	int na = max > 0 ? (int)(a * w / max + 0.5) : 0;
	int nb = max > 0 ? (int)((a + b) * w / max + 0.5) - na : 0;
	int i;

	if (a > 0 && !na)
		na = 1;
	if (b > 0 && nb <= 0)
		nb = 1;
	if (na + nb > w)
		nb = w - na;
	sp("|\033[32m");
	for (i = 0; i < na; i++)
		sp("#");
	sp("\033[33m");
	for (i = 0; i < nb; i++)
		sp("+");
	sp("\033[0m%*s|", w - na - nb, "");
}

static const char *const sort_names[3] = { "log order", "blocks/s", "segments/s" };
static int sort_mode;
static const struct view *sort_view;

/* The width of the bars: what the terminal leaves of the LOGS lines, 10 to 40. */
static int bar_width(void)
{
	int w = term_cols - 60;

	return w < 10 ? 10 : w > 40 ? 40 : w;
}

static unsigned long long log_written(const struct view *v, int i)
{
	return v->src == SRC_STOCK ? v->blocks[i] : v->lfs[i] + v->ssr[i];
}

static int log_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	const struct view *v = sort_view;
	unsigned long long kx, ky;

	if (sort_mode == 1) {
		kx = log_written(v, x);
		ky = log_written(v, y);
	} else if (sort_mode == 2) {
		kx = v->segs[x];
		ky = v->segs[y];
	} else {
		kx = ky = 0;
	}
	if (kx != ky)
		return kx < ky ? 1 : -1;
	return x - y;
}

#define TITLE(t) sp("\033[1;7m %-12s\033[0m ", t)

static void draw_logs(const struct view *v, double t, int bw)
{
	bool stock = v->src == SRC_STOCK;
	int order[6], i, k;
	double max = 0;

	TITLE("LOGS");
	if (stock)
		sp("%-10s %10s %8s  %-*s sort: %s\r\n", "log", "blk/s", "cur seg", bw + 2,
		   "# blocks written", sort_names[sort_mode]);
	else
		sp("%-10s %10s %10s %7s  %-*s sort: %s\r\n", "log", "LFS blk/s", "SSR blk/s",
		   "segs/s", bw + 2, "# LFS  + SSR", sort_names[sort_mode]);
	for (i = 0; i < 6; i++) {
		order[i] = i;
		if (log_written(v, i) / t > max)
			max = log_written(v, i) / t;
	}
	sort_view = v;
	qsort(order, 6, sizeof(order[0]), log_cmp);
	for (k = 0; k < 6; k++) {
		i = order[k];
		if (stock) {
			sp("%14s%-10s %10s %8llu  ", "", log_names[i],
			   rate(v->bpf, v->blocks[i] / t, "%.0f"), v->curseg[i]);
			bar(v->bpf ? v->blocks[i] / t : 0, 0, max, bw);
		} else {
			sp("%14s%-10s %10.0f %10.0f %7.1f  ", "", log_names[i], v->lfs[i] / t,
			   v->ssr[i] / t, v->segs[i] / t);
			bar(v->lfs[i] / t, v->ssr[i] / t, max, bw);
		}
		sp("\r\n");
	}
	if (stock) {
		sp("%15sall logs: LFS %.0f blk/s (%.1f segs/s), SSR %.0f blk/s (%.1f segs/s), in place %.0f blk/s\r\n",
		   "", v->lfs_all / t, v->lfs_segs_all / t, v->ssr_all / t, v->ssr_segs_all / t,
		   v->ipu / t);
		sp("%15sLFS/SSR per log, segments per log: " NA "\r\n", "");
	}
}

static void draw_stock_panels(const struct view *v, double t)
{
	TITLE("GC");
	sp("passes %s fg/s, %s bg/s; victims greedy %s, cost-benefit %s, age-threshold %s; greedy victim util %s\r\n",
	   rate(v->bpf, v->gc_fg / t, "%.1f"), rate(v->bpf, v->gc_bg / t, "%.1f"),
	   rate(v->bpf, v->vic_greedy, "%.0f"), rate(v->bpf, v->vic_cb, "%.0f"),
	   rate(v->bpf, v->vic_at, "%.0f"), rate(v->bpf && v->util_known, v->vic_util_pct, "%.0f%%"));
	sp("%15scleaned %.1f victims/s (bg thread %llu passes); tried to move %.0f blk/s; write amplification " NA "\r\n",
	   "", v->gc_calls / t, v->gc_bg_thread, v->gc_tried / t);
	sp("%15s%s\r\n", "", ssr_line(v, t));
	sp("\r\n");
	TITLE("CHECKPOINTS");
	sp("%.1f/s (%llu, bg %llu); last %s, avg %s, max %s\r\n", v->cp / t, v->cp,
	   v->cp_bg, rate(v->bpf && v->cp_last_us, v->cp_last_us, "%.0f us"),
	   rate(v->bpf, v->cp_avg_us, "%.0f us"), rate(v->bpf, v->cp_max_us, "%.0f us"));
	TITLE("DIRTY");
	sp("nodes %llu, dents %llu (%llu dirs), data %llu, meta %llu, imeta %llu; NATs %llu/%llu, SITs %llu/%llu; free nids %llu\r\n",
	   v->d_nodes, v->d_dents, v->d_dirs, v->d_data, v->d_meta, v->d_imeta,
	   v->nats_dirty, v->nats, v->sits_dirty, v->sits, v->free_nids);
	TITLE("NAT/SIT");
	sp("flushes " NA "\r\n");
	TITLE("EXTENT CACHE");
	sp("%llu%% hits of %llu lookups\r\n",
	   v->ext_lookups ? v->ext_hits * 100 / v->ext_lookups : 0, v->ext_lookups);
	TITLE("MEMORY");
	sp("%llu KB\r\n", v->mem_kb);
}

static void draw(const struct f2fs_mount *m, int idx, int nm, const struct view *v,
		 const char *why, bool first)
{
	double t = v->secs > 0 ? v->secs : 1;
	bool stock = v->src == SRC_STOCK;
	int bw = bar_width();

	sp("\033[H\033[2J");
	sp("\033[1mf2fs-top\033[0m  %s on %s (%d of %d f2fs)  %s  every %d s  %s\r\n",
	   m->name, m->dir, idx + 1, nm, now_hms(), env.interval,
	   stock ? (v->bpf ? "[stock f2fs: status + BPF]" : "[stock f2fs: status only]") :
	   v->bpf ? "[BPF + debugfs]" : "");
	if (!v->bpf && stock)
		sp("\033[33m[status only: %s] no per-log blocks, GC passes and victims, checkpoint times\033[0m\r\n", why);
	else if (!v->bpf)
		sp("\033[33m[debugfs only: %s] no per-interval checkpoint maximum\033[0m\r\n", why);
	sp("\r\n");
	TITLE("SPACE");
	sp("util %3llu%% ", v->util_pct);
	bar((double)v->util_pct, 0, 100, bw);
	if (stock)
		sp(" %llu valid blocks\r\n", v->valid_blocks);
	else
		sp(" %llu of %llu blocks\r\n", v->valid_blocks, v->user_blocks);
	sp("%15ssegments: %llu main, %llu free, %llu dirty, %llu prefree, %llu full\r\n",
	   "", v->main_segs, v->free_segs, v->dirty_segs, v->prefree_segs, v->valid_segs);
	sp("\r\n");
	draw_logs(v, t, bw);
	sp("\r\n");
	if (stock) {
		draw_stock_panels(v, t);
	} else {
		TITLE("GC");
		sp("passes %.1f fg/s, %.1f bg/s; victims greedy %llu, cost-benefit %llu; avg victim util %llu%%\r\n",
		   v->gc_fg / t, v->gc_bg / t, v->vic_greedy, v->vic_cb, v->vic_util_pct);
		sp("%15smoved %.0f blk/s; write amplification %.2f (interval)\r\n", "", v->moved / t, v->wa);
		sp("%15s%s\r\n", "", ssr_line(v, t));
		sp("\r\n");
		TITLE("CHECKPOINTS");
		sp("%.1f/s (%llu); last %llu us, avg %llu us, max ", v->cp / t, v->cp,
		   v->cp_last_us, v->cp_avg_us);
		if (v->bpf)
			sp("%llu us", v->cp_max_us);
		else
			sp("n/a");
		sp(" (since mount %llu us)\r\n", v->cp_mount_max_us);
		TITLE("NAT/SIT");
		sp("NAT flushes %llu, SIT flushes %llu\r\n", v->nat_flushes, v->sit_flushes);
		TITLE("EXTENT CACHE");
		sp("%llu%% hits of %llu lookups\r\n",
		   v->ext_lookups ? v->ext_hits * 100 / v->ext_lookups : 0, v->ext_lookups);
	}
	sp("\r\n\033[2mq quit   d next device   s sort logs%s\033[0m\r\n",
	   first ? "   (first interval running...)" : "");
	screen_flush();
}

static int run_screen(struct f2fs_mount *ms, int nm, int cur)
{
	static struct stats s, ps;
	struct f2fs_top_bpf *skel = NULL;
	struct top_totals prev = {};
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char why[128] = "-n given";
	struct view v;
	double t0, t1, next;
	bool reload = true, redraw;
	int err = 0, src = 0;
	char c;

	term_watch_resize();
	term_size();
	term_setup();
	while (!exiting) {
		if (reload) {
			f2fs_top_bpf__destroy(skel);
			skel = NULL;
			src = figures_source(&ms[cur]);
			if (src)
				skel = no_bpf ? NULL : bpf_start(&ms[cur], src, why, sizeof(why));
			memset(&prev, 0, sizeof(prev));
			if (skel)
				bpf_mark(skel, &prev);
			if (!src || sample(src, &ms[cur], &ps, &ps, &v)) {
				term_restore();
				fprintf(stderr, "f2fs-top: cannot read the debugfs figures of %s (/sys/kernel/debug/f2fs/%s/stats or status)\n",
					ms[cur].name, ms[cur].name);
				err = 1;
				break;
			}
			t0 = mono();
			v.bpf = skel != NULL;
			/* no interval yet: what BPF will give is zero, not n/a */
			v.ssr_per_log = v.ssr_per_log || v.bpf;
			v.ssr_reusable_known = v.bpf && src == SRC_OURS;
			draw(&ms[cur], cur, nm, &v, why, true);
			reload = false;
		}
		next = t0 + env.interval;
		redraw = false;
		while (!exiting && !reload && !redraw) {
			int ms_left = (int)((next - mono()) * 1000);

			if (ms_left <= 0)
				break;
			if (poll(&pfd, 1, ms_left) > 0 && read(STDIN_FILENO, &c, 1) == 1) {
				if (c == 'q' || c == 'Q' || c == 3)
					exiting = true;
				else if (c == 'd' && nm > 1) {
					cur = (cur + 1) % nm;
					reload = true;
				} else if (c == 's') {
					/* the stock module has no segments per log to sort by */
					sort_mode = (sort_mode + 1) % (src == SRC_STOCK ? 2 : 3);
					redraw = true;
				}
			} else if (pfd.revents & (POLLHUP | POLLERR)) {
				exiting = true;
			}
			if (resized) {
				resized = 0;
				term_size();
				redraw = true;
			}
		}
		if (exiting || reload)
			continue;
		if (redraw && mono() < next) {
			draw(&ms[cur], cur, nm, &v, why, false);
			continue;
		}
		if (sample(src, &ms[cur], &s, &ps, &v)) {
			term_restore();
			fprintf(stderr, "f2fs-top: %s was unmounted\n", ms[cur].name);
			err = 1;
			break;
		}
		t1 = mono();
		v.secs = t1 - t0;
		if (skel)
			apply_bpf(&v, skel, &prev);
		draw(&ms[cur], cur, nm, &v, why, false);
		ps = s;
		t0 = t1;
		if (env.count > 0 && --env.count == 0)
			break;
	}
	term_restore();
	f2fs_top_bpf__destroy(skel);
	return err;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static struct stats s, ps;
	static struct f2fs_mount ms[16];
	struct f2fs_top_bpf *skel = NULL;
	struct top_totals prev = {};
	struct f2fs_mount m;
	struct view v;
	double t0, t1;
	int err, nm, cur = 0, i, src;
	char why[128];

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	/* the events are optional here: without them, debugfs only */
	if (preflight("f2fs-top", NULL, NULL, env.dev, &m) < 0)
		return 1;
	src = figures_source(&m);
	if (!src) {
		fprintf(stderr, "f2fs-top: cannot read /sys/kernel/debug/f2fs/%s/stats (our module) or a section for %s in /sys/kernel/debug/f2fs/status (the stock one): is debugfs mounted?\n",
			m.name, m.name);
		return 1;
	}
	if (figures_read("f2fs-top", src, &m, &ps))
		return 1;
	libbpf_set_print(libbpf_print_fn);
	if (!batch && !env.json) {
		if (isatty(STDOUT_FILENO)) {
			nm = list_mounts(ms, 16);
			for (i = 0; i < nm; i++)
				if (!strcmp(ms[i].name, m.name) && !strcmp(ms[i].dir, m.dir))
					cur = i;
			if (!nm) {
				ms[0] = m;
				nm = 1;
			}
			setup_signals();
			/* libbpf's warnings would tear the screen: -v keeps them */
			if (!verbose)
				libbpf_set_print(NULL);
			return run_screen(ms, nm, cur) ? 1 : 0;
		}
		batch = true;	/* not a terminal: plain lines */
	}
	if (!no_bpf) {
		skel = bpf_start(&m, src, why, sizeof(why));
		if (!skel)
			fprintf(stderr, "f2fs-top: BPF unavailable (%s): showing %s figures only\n",
				why, src == SRC_STOCK ? "status file" : "debugfs");
		else
			bpf_mark(skel, &prev);
	} else {
		fprintf(stderr, "f2fs-top: -n: showing %s figures only\n",
			src == SRC_STOCK ? "status file" : "debugfs");
	}
	setup_signals();
	if (figures_read("f2fs-top", src, &m, &ps))
		return 1;
	t0 = mono();
	fprintf(stderr, "Watching f2fs %s (%s, %s f2fs module) every %d s... Hit Ctrl-C to end.\n",
		m.name, m.dir, src_names[src], env.interval);

	while (!exiting) {
		sleep(env.interval);
		if (sample(src, &m, &s, &ps, &v)) {
			fprintf(stderr, "f2fs-top: %s was unmounted\n", m.name);
			err = 1;
			break;
		}
		t1 = mono();
		v.secs = t1 - t0;
		if (skel)
			apply_bpf(&v, skel, &prev);
		if (env.json)
			print_json(&m, &v);
		else
			print_batch(&m, &v);
		fflush(stdout);
		ps = s;
		t0 = t1;
		if (env.count > 0 && --env.count == 0)
			break;
	}

	f2fs_top_bpf__destroy(skel);
	return err ? 1 : 0;
}
