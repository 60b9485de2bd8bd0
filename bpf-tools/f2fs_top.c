// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-top - the state of one f2fs per interval: utilisation and segment
 * counts, blocks per second of each log (LFS against SSR), GC, checkpoints,
 * NAT/SIT flushes and the extent-cache hit ratio.  Everything comes from
 * /sys/kernel/debug/f2fs/<dev>/stats; BPF (the f2fs_cp_end event) adds the
 * maximum checkpoint latency of each interval.  Without BPF it still runs,
 * with fewer figures, and says so.  Batch modes only for now: -b (plain
 * lines) and -j (one JSON object per interval).
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "f2fs_top.h"
#include "f2fs_top.skel.h"

struct common_env env = { .interval = 1, .count = -1 };
static bool batch, no_bpf;

const char *argp_program_version = "f2fs-top 0.1";
static const char doc[] =
"The state of an f2fs per interval: space, logs, GC, checkpoints, caches.\n"
"\n"
"USAGE: f2fs-top {-b|-j} [-h] [-v] [-n] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
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
		if (!batch && !env.json)
			argp_error(state, "the full-screen mode is not implemented yet: use -b or -j");
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
	double secs;
	unsigned long long util_pct, valid_blocks, user_blocks;
	unsigned long long main_segs, free_segs, dirty_segs, prefree_segs, valid_segs;
	unsigned long long lfs[6], ssr[6], segs[6], written;
	unsigned long long gc_fg, gc_bg, vic_greedy, vic_cb, vic_util_pct, moved;
	double wa;
	unsigned long long cp, cp_events, cp_last_us, cp_avg_us, cp_max_us, cp_mount_max_us;
	unsigned long long nat_flushes, sit_flushes, ext_lookups, ext_hits;
	bool bpf;
};

static void compute(struct view *v, const struct stats *s, const struct stats *p)
{
	char k1[64], k2[64];
	unsigned long long vic, user;
	int i;

#define G(k) stat_get(s, k)
#define DT(k) stat_delta(s, p, k)
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
#undef G
#undef DT
}

static void print_json(const struct f2fs_mount *m, const struct view *v)
{
	int i;

	printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f,\"bpf\":%s,"
	       "\"util_pct\":%llu,\"valid_blocks\":%llu,\"user_blocks\":%llu,"
	       "\"segs\":{\"main\":%llu,\"free\":%llu,\"dirty\":%llu,\"prefree\":%llu,\"valid\":%llu},"
	       "\"logs\":{",
	       now_hms(), m->name, v->secs, v->bpf ? "true" : "false",
	       v->util_pct, v->valid_blocks, v->user_blocks, v->main_segs,
	       v->free_segs, v->dirty_segs, v->prefree_segs, v->valid_segs);
	for (i = 0; i < 6; i++)
		printf("%s\"%s\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"segs_opened\":%llu}",
		       i ? "," : "", log_names[i], v->lfs[i], v->ssr[i], v->segs[i]);
	printf("},\"gc\":{\"fg\":%llu,\"bg\":%llu,\"victims_greedy\":%llu,\"victims_cost_benefit\":%llu,"
	       "\"victim_util_pct\":%llu,\"blocks_moved\":%llu,\"write_amp\":%.2f},"
	       "\"cp\":{\"count\":%llu,\"last_us\":%llu,\"avg_us\":%llu,",
	       v->gc_fg, v->gc_bg, v->vic_greedy, v->vic_cb, v->vic_util_pct,
	       v->moved, v->wa, v->cp, v->cp_last_us, v->cp_avg_us);
	if (v->bpf)
		printf("\"max_us\":%llu,\"events\":%llu,", v->cp_max_us, v->cp_events);
	printf("\"mount_max_us\":%llu},\"nat_flushes\":%llu,\"sit_flushes\":%llu,"
	       "\"extent\":{\"lookups\":%llu,\"hits\":%llu}}\n",
	       v->cp_mount_max_us, v->nat_flushes, v->sit_flushes,
	       v->ext_lookups, v->ext_hits);
}

static void print_batch(const struct f2fs_mount *m, const struct view *v)
{
	double t = v->secs > 0 ? v->secs : 1;
	int i;

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

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static struct stats s, ps;
	struct f2fs_top_bpf *skel = NULL;
	struct top_totals prev = {}, now;
	struct f2fs_mount m;
	struct view v;
	double t0, t1;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	/* the events are optional here: without them, debugfs only */
	if (preflight("f2fs-top", NULL, env.dev, &m))
		return 1;
	if (stats_read(&m, &ps)) {
		fprintf(stderr, "f2fs-top: cannot read /sys/kernel/debug/f2fs/%s/stats (debugfs mounted? our module?)\n",
			m.name);
		return 1;
	}
	libbpf_set_print(libbpf_print_fn);
	if (!no_bpf) {
		const char *why = NULL;

		if (!event_exists("f2fs_cp_end"))
			why = "no f2fs_cp_end trace event";
		else if (!(skel = f2fs_top_bpf__open()))
			why = "cannot open the BPF object";
		if (skel) {
			skel->rodata->targ_dev = m.kdev;
			err = f2fs_top_bpf__load(skel);
			if (!err)
				err = f2fs_top_bpf__attach(skel);
			if (err) {
				why = strerror(-err);
				f2fs_top_bpf__destroy(skel);
				skel = NULL;
				err = 0;
			}
		}
		if (why)
			fprintf(stderr, "f2fs-top: BPF unavailable (%s): showing debugfs figures only\n", why);
	} else {
		fprintf(stderr, "f2fs-top: -n: showing debugfs figures only\n");
	}
	setup_signals();
	stats_read(&m, &ps);
	t0 = mono();
	fprintf(stderr, "Watching f2fs %s (%s) every %d s... Hit Ctrl-C to end.\n",
		m.name, m.dir, env.interval);

	while (!exiting) {
		sleep(env.interval);
		if (stats_read(&m, &s)) {
			fprintf(stderr, "f2fs-top: %s was unmounted\n", m.name);
			err = 1;
			break;
		}
		t1 = mono();
		memset(&v, 0, sizeof(v));
		compute(&v, &s, &ps);
		v.secs = t1 - t0;
		if (skel) {
			now = skel->bss->totals;
			skel->bss->totals.cp_max_ns = 0;
			v.bpf = true;
			v.cp_max_us = now.cp_max_ns / 1000;
			v.cp_events = now.cp_count - prev.cp_count;
			prev = now;
		}
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
