// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-gc - what cleaning costs: GC passes (foreground, background), victims
 * per policy with a histogram of their utilisation, blocks moved per
 * section freed, and the time per pass.  Per interval or once at Ctrl-C.
 *
 * Our module: from the f2fs_gc_victim and f2fs_gc_end events (sections
 * freed from the debugfs counter, since a background victim is freed by a
 * later checkpoint).  The stock module: passes from f2fs_gc_begin/end,
 * victims from f2fs_get_victim (GC's, not SSR's), and from the debugfs
 * status file the "GC calls" (victim sections cleaned), the background
 * thread's passes, the segments cleaned and the blocks GC tried to move.
 * What the stock module does not tell (blocks actually moved, sections
 * freed by all GC, the utilisation of cost-benefit victims) shows as n/a;
 * in JSON as null, listed in "unavailable".
 *
 * Beside GC, the victims of SSR (slack space recycling: a log that finds
 * no free segment reuses the free blocks of a dirty one, which is where
 * cleaning happens on a nearly full device): per log, their number, their
 * valid blocks and the blocks the log could reuse (ours: f2fs_ssr_victim;
 * stock: f2fs_get_victim with alloc_mode SSR, its cost being the
 * segment's checkpointed valid blocks, the log known at its first write;
 * see ssr.h).
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "stock_events.h"
#include "f2fs_gc.h"
#include "f2fs_gc.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };
static struct {
	int type;		/* -1 both, 0 FG, 1 BG */
	unsigned int sec_blocks;
} opt = { .type = -1, .sec_blocks = 512 };
static int src;			/* SRC_OURS or SRC_STOCK */
static bool sec_blocks_given;

const char *argp_program_version = "f2fs-gc 0.1";
static const char doc[] =
"Cleaning of f2fs: GC passes, victims and their utilisation, cost per\n"
"section freed, time per pass; SSR victims (segments a log recycles) per\n"
"log.  Works with our f2fs module and with the stock one (fewer figures:\n"
"those it cannot give show as n/a).\n"
"\n"
"USAGE: f2fs-gc [-h] [-v] [-j] [-f|-b] [-s BLOCKS] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-gc             # summary from now until Ctrl-C\n"
"    f2fs-gc 1           # every second\n"
"    f2fs-gc -b -j 5     # background GC only, JSON every 5 seconds\n"
"    f2fs-gc -s 1024     # sections of 2 segments (1024 blocks)\n";

static const struct argp_option opts[] = {
	{ "foreground", 'f', NULL, 0, "Foreground GC only" },
	{ "background", 'b', NULL, 0, "Background GC only" },
	{ "sec-blocks", 's', "BLOCKS", 0, "Blocks per section, for utilisation (default 512; our module only)" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'f':
	case 'b':
		if (opt.type != -1)
			argp_error(state, "-f and -b exclude each other");
		opt.type = key == 'f' ? 0 : 1;
		break;
	case 's':
		sec_blocks_given = true;
		opt.sec_blocks = strtoul(arg, &end, 10);
		if (*end || !opt.sec_blocks || opt.sec_blocks > 1U << 20)
			argp_error(state, "invalid blocks per section '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

#define D(f) ((unsigned long long)(now->f - prev->f))


static void print_util_hist(const __u64 *now, const __u64 *prev)
{
	__u64 max = 0;
	int i;

	for (i = 0; i < UTIL_SLOTS; i++)
		if (now[i] - prev[i] > max)
			max = now[i] - prev[i];
	if (!max)
		return;
	printf("%10s : count    distribution\n", "util%");
	for (i = 0; i < UTIL_SLOTS; i++)
		printf("%3d -> %-3d : %-8llu |%-40.*s|\n", i * 10,
		       i == 10 ? 100 : i * 10 + 9,
		       (unsigned long long)(now[i] - prev[i]),
		       (int)((now[i] - prev[i]) * 40 / max),
		       "****************************************");
}

static void json_util_hist(const __u64 *now, const __u64 *prev)
{
	int i;

	printf("[");
	for (i = 0; i < UTIL_SLOTS; i++)
		printf("%s{\"lo\":%d,\"hi\":%d,\"count\":%llu}", i ? "," : "",
		       i * 10, i == 10 ? 100 : i * 10 + 9,
		       (unsigned long long)(now[i] - prev[i]));
	printf("]");
}

/* What the stock status file says over the interval. */
struct stock_gc {
	unsigned long long calls, bg_passes, data_segs, node_segs, tried;
	unsigned long long tried_data[2], tried_node[2];	/* FG, BG */
};

static void stock_delta(struct stock_gc *g, const struct stats *s, const struct stats *p)
{
#define SD(k) stat_delta(s, p, k)
	g->calls = SD("gc_calls");
	g->bg_passes = SD("gc_bg_passes");
	g->data_segs = SD("gc_data_segs");
	g->node_segs = SD("gc_node_segs");
	g->tried = SD("gc_tried");
	g->tried_data[1] = SD("gc_tried_data_bg");
	g->tried_node[1] = SD("gc_tried_node_bg");
	g->tried_data[0] = SD("gc_tried_data") - g->tried_data[1];
	g->tried_node[0] = SD("gc_tried_node") - g->tried_node[1];
#undef SD
}

static const char *const stock_na[] = { "fg.data_moved", "fg.node_moved",
	"bg.data_moved", "bg.node_moved", "cost_benefit.avg_util_pct",
	"cost_benefit.util_hist", "age_threshold.avg_util_pct",
	"age_threshold.util_hist", "blocks_moved", "secs_freed",
	"moved_per_sec_freed", "ssr.logs.*.avg_valid", "ssr.logs.*.avg_reusable", NULL };

/* The SSR victims of the interval, per log. */
static void print_ssr(const struct ssr_totals *d)
{
	bool stock = src == SRC_STOCK;
	int i;

	printf("\nSSR victims (segments a log recycled): %llu", (unsigned long long)d->chosen);
	if (stock && (d->pending || d->lost))
		printf(" (%lld not written to yet, %llu not followed)", (long long)d->pending,
		       (unsigned long long)d->lost);
	printf("\n");
	if (!d->chosen)
		return;
	printf("%-12s %8s %10s %12s %11s\n", "log", "victims", stock ? "ckpt valid" : "avg valid",
	       "avg reusable", "other type");
	for (i = 0; i < 6; i++) {
		if (!d->victims[i])
			continue;
		printf("%-12s %8llu %10s %12s %11llu\n", log_names[i],
		       (unsigned long long)d->victims[i],
		       avg_text(true, d->valid[i], d->victims[i]),
		       avg_text(!stock, d->reusable[i], d->victims[i]),
		       (unsigned long long)d->other_type[i]);
	}
}

/* The policies whose victims' utilisation a source knows. */
static bool util_known(int p)
{
	return src == SRC_STOCK ? p == 0 : p < 2;
}

static void report(const struct f2fs_mount *m, const struct gc_totals *now,
		   const struct gc_totals *prev, unsigned long long freed,
		   const struct stock_gc *sg, const struct ssr_totals *sd)
{
	unsigned long long moved = 0, vic[GC_POLICIES], avg_util[GC_POLICIES];
	int npol = src == SRC_STOCK ? GC_POLICIES : 2;
	bool stock = src == SRC_STOCK;
	__u64 hist[GC_SLOTS];
	int t, p, i;

	for (t = 0; t < 2; t++)
		moved += D(data_moved[t]) + D(node_moved[t]);
	for (p = 0; p < GC_POLICIES; p++) {
		vic[p] = D(victims[0][p]) + D(victims[1][p]);
		avg_util[p] = D(victim_cap[p]) ? D(victim_valid[p]) * 100 / D(victim_cap[p]) : 0;
	}
	if (env.json) {
		printf("{\"time\":\"%s\",\"dev\":\"%s\"", now_hms(), m->name);
		json_source(src, stock ? stock_na : NULL);
		for (t = 0; t < 2; t++) {
			printf(",\"%s\":{\"passes\":%llu,\"idle\":%llu,\"failed\":%llu,\"avg_pass_us\":%llu,\"victims\":{\"greedy\":%llu,\"cost_benefit\":%llu",
			       gc_type_names[t], D(passes[t]), D(nodata[t]), D(errors[t]),
			       D(passes[t]) ? D(time_ns[t]) / D(passes[t]) / 1000 : 0,
			       D(victims[t][0]), D(victims[t][1]));
			if (stock)
				printf(",\"age_threshold\":%llu},\"data_moved\":null,\"node_moved\":null,"
				       "\"data_tried\":%llu,\"node_tried\":%llu,\"secs_freed\":%llu,\"pass_hist_us\":",
				       D(victims[t][2]), sg->tried_data[t], sg->tried_node[t],
				       D(secs_freed[t]));
			else
				printf("},\"data_moved\":%llu,\"node_moved\":%llu,\"pass_hist_us\":",
				       D(data_moved[t]), D(node_moved[t]));
			for (i = 0; i < GC_SLOTS; i++)
				hist[i] = now->time_hist[t][i] - prev->time_hist[t][i];
			json_log2_hist(hist, GC_SLOTS);
			printf("}");
		}
		for (p = 0; p < npol; p++) {
			printf(",\"%s\":{\"victims\":%llu,", gc_policy_names[p], vic[p]);
			if (!util_known(p)) {
				printf("\"avg_util_pct\":null,\"util_hist\":null}");
				continue;
			}
			if (stock)
				printf("\"util_known\":%llu,", D(util_known[p]));
			printf("\"avg_util_pct\":%llu,\"util_hist\":", avg_util[p]);
			json_util_hist(now->util_hist[p], prev->util_hist[p]);
			printf("}");
		}
		printf(",\"util_over_100\":%llu,", D(util_over));
		ssr_json(src, sd);
		if (stock)
			printf(",\"blocks_moved\":null,\"blocks_tried\":%llu,\"gc_calls\":%llu,"
			       "\"bg_thread_passes\":%llu,\"segs_cleaned\":{\"data\":%llu,\"node\":%llu},"
			       "\"secs_freed\":null,\"moved_per_sec_freed\":null}\n",
			       sg->tried, sg->calls, sg->bg_passes, sg->data_segs, sg->node_segs);
		else
			printf(",\"blocks_moved\":%llu,\"secs_freed\":%llu,\"moved_per_sec_freed\":%.1f}\n",
			       moved, freed, freed ? (double)moved / freed : 0.0);
		fflush(stdout);
		return;
	}
	printf("\n%s  %s%s\n", now_hms(), m->name, stock ? "  [stock f2fs: tracepoints + status]" : "");
	for (t = 0; t < 2; t++) {
		if (opt.type != -1 && opt.type != t)
			continue;
		printf("%s GC: %llu passes (%llu found nothing, %llu failed), avg %llu us; victims greedy %llu, cost-benefit %llu",
		       t ? "BG" : "FG", D(passes[t]), D(nodata[t]), D(errors[t]),
		       D(passes[t]) ? D(time_ns[t]) / D(passes[t]) / 1000 : 0,
		       D(victims[t][0]), D(victims[t][1]));
		if (stock)
			printf(", age-threshold %llu; tried to move %llu data, %llu node blocks; %llu sections freed in the pass\n",
			       D(victims[t][2]), sg->tried_data[t], sg->tried_node[t],
			       D(secs_freed[t]));
		else
			printf("; moved %llu data, %llu node blocks\n", D(data_moved[t]),
			       D(node_moved[t]));
	}
	if (stock) {
		printf("status: %llu GC calls (victims cleaned), %llu background thread passes; segments cleaned %llu data, %llu node; tried to move %llu blocks\n",
		       sg->calls, sg->bg_passes, sg->data_segs, sg->node_segs, sg->tried);
		printf("blocks moved, sections freed (all GC), moved per section freed: " NA "\n");
	} else {
		printf("sections freed (all GC, debugfs) %llu, blocks moved per section freed %.1f\n",
		       freed, freed ? (double)moved / freed : 0.0);
	}
	if (D(util_over))
		printf("warning: %llu victims above 100%% (use -s with the real blocks per section)\n",
		       D(util_over));
	print_ssr(sd);
	for (p = 0; p < npol; p++) {
		if (!vic[p])
			continue;
		if (!util_known(p)) {
			printf("\nvictim utilisation, policy = %s (%llu victims): " NA " (the stock event's cost mixes utilisation and age)\n",
			       gc_policy_names[p], vic[p]);
			continue;
		}
		printf("\nvictim utilisation, policy = %s (%llu victims, average %llu%%",
		       gc_policy_names[p], vic[p], avg_util[p]);
		if (stock && D(util_known[p]) != vic[p])
			printf("; %llu taken from background GC's choices, without a cost",
			       vic[p] - D(util_known[p]));
		printf(")\n");
		print_util_hist(now->util_hist[p], prev->util_hist[p]);
	}
	for (t = 0; t < 2; t++) {
		if (!D(passes[t]))
			continue;
		for (i = 0; i < GC_SLOTS; i++)
			hist[i] = now->time_hist[t][i] - prev->time_hist[t][i];
		printf("\ntime per pass, %s GC\n", t ? "BG" : "FG");
		print_log2_hist(hist, GC_SLOTS, "usecs");
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_gc_victim", "f2fs_gc_end",
		"f2fs_ssr_victim", NULL };
	static const char *const stock[] = { "f2fs_gc_begin", "f2fs_gc_end",
		"f2fs_get_victim", "f2fs_submit_page_write", NULL };
	static struct stats s, ps;
	struct gc_totals prev = {}, now;
	struct ssr_totals sprev = {}, snow, sd;
	struct sb_geo geo;
	struct f2fs_gc_bpf *skel = NULL;
	struct stock_gc sg = {};
	struct f2fs_mount m;
	unsigned long long freed;
	bool have_stats;
	int err, t;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	src = preflight("f2fs-gc", ours, stock, env.dev, &m);
	if (src < 0)
		return 1;
	if (src == SRC_STOCK) {
		/* the GC calls and the blocks tried come from the status file */
		if (figures_read("f2fs-gc", src, &m, &ps))
			return 1;
		if (sec_blocks_given)
			fprintf(stderr, "f2fs-gc: -s ignored: the stock events give the section size\n");
	}
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_gc_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-gc: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	skel->rodata->targ_type = opt.type;
	skel->rodata->blocks_per_sec = opt.sec_blocks;
	/* stock: an SSR victim's log is that of its first write (ssr.bpf.h) */
	if (src == SRC_STOCK && read_sb(&m, &geo) == 0) {
		skel->rodata->ssr_main_blkaddr = geo.main_blkaddr;
		skel->rodata->ssr_log_bps = geo.log_blocks_per_seg;
	} else if (src == SRC_STOCK) {
		fprintf(stderr, "f2fs-gc: cannot read the superblock of /dev/%s: SSR victims without their log\n",
			m.name);
	}
	select_programs(skel->obj, src);
	err = f2fs_gc_bpf__load(skel);
	if (!err)
		err = f2fs_gc_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-gc: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	if (src == SRC_STOCK)
		have_stats = figures_read("f2fs-gc", src, &m, &ps) == 0;
	else
		have_stats = stats_read(&m, &ps) == 0;
	fprintf(env.json ? stderr : stdout,
		"Tracing GC of f2fs %s (%s, %s f2fs module)... Hit Ctrl-C to end.\n",
		m.name, m.dir, src_names[src]);
	fflush(stdout);

	while (!exiting) {
		sleep(env.interval);
		now = skel->bss->totals;
		snow = skel->bss->ssr_tot;
		ssr_diff(&sd, &snow, &sprev);
		freed = 0;
		if (src == SRC_STOCK) {
			if (!have_stats || figures_read("f2fs-gc", src, &m, &s)) {
				err = 1;
				break;
			}
			stock_delta(&sg, &s, &ps);
			ps = s;
		} else if (have_stats && stats_read(&m, &s) == 0) {
			/* a background victim is freed by a later checkpoint */
			freed = stat_delta(&s, &ps, "gc_secs_freed");
			ps = s;
		} else {
			for (t = 0; t < 2; t++)
				freed += now.secs_freed[t] - prev.secs_freed[t];
		}
		report(&m, &now, &prev, freed, &sg, &sd);
		prev = now;
		sprev = snow;
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	f2fs_gc_bpf__destroy(skel);
	return err ? 1 : 0;
}
