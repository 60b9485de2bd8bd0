// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-gc - what cleaning costs: GC passes (foreground, background), victims
 * per policy with a histogram of their utilisation, blocks moved per
 * section freed, and the time per pass, from the f2fs_gc_victim and
 * f2fs_gc_end events (sections freed from the debugfs counter, since a
 * background victim is freed by a later checkpoint).  Per interval or once
 * at Ctrl-C.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "f2fs_gc.h"
#include "f2fs_gc.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };
static struct {
	int type;		/* -1 both, 0 FG, 1 BG */
	unsigned int sec_blocks;
} opt = { .type = -1, .sec_blocks = 512 };

const char *argp_program_version = "f2fs-gc 0.1";
static const char doc[] =
"Cleaning of f2fs: GC passes, victims and their utilisation, cost per\n"
"section freed, time per pass.\n"
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
	{ "sec-blocks", 's', "BLOCKS", 0, "Blocks per section, for utilisation (default 512)" },
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

static void report(const struct f2fs_mount *m, const struct gc_totals *now,
		   const struct gc_totals *prev, unsigned long long freed)
{
	unsigned long long moved = 0, vic[2], avg_util[2];
	__u64 hist[GC_SLOTS];
	int t, p, i;

	for (t = 0; t < 2; t++)
		moved += D(data_moved[t]) + D(node_moved[t]);
	for (p = 0; p < 2; p++) {
		vic[p] = D(victims[0][p]) + D(victims[1][p]);
		avg_util[p] = vic[p] ? D(victim_valid[p]) * 100 / vic[p] / opt.sec_blocks : 0;
	}
	if (env.json) {
		printf("{\"time\":\"%s\",\"dev\":\"%s\"", now_hms(), m->name);
		for (t = 0; t < 2; t++) {
			printf(",\"%s\":{\"passes\":%llu,\"idle\":%llu,\"failed\":%llu,\"avg_pass_us\":%llu,\"victims\":{\"greedy\":%llu,\"cost_benefit\":%llu},\"data_moved\":%llu,\"node_moved\":%llu,\"pass_hist_us\":",
			       gc_type_names[t], D(passes[t]), D(nodata[t]), D(errors[t]),
			       D(passes[t]) ? D(time_ns[t]) / D(passes[t]) / 1000 : 0,
			       D(victims[t][0]), D(victims[t][1]),
			       D(data_moved[t]), D(node_moved[t]));
			for (i = 0; i < GC_SLOTS; i++)
				hist[i] = now->time_hist[t][i] - prev->time_hist[t][i];
			json_log2_hist(hist, GC_SLOTS);
			printf("}");
		}
		for (p = 0; p < 2; p++) {
			printf(",\"%s\":{\"victims\":%llu,\"avg_util_pct\":%llu,\"util_hist\":",
			       gc_policy_names[p], vic[p], avg_util[p]);
			json_util_hist(now->util_hist[p], prev->util_hist[p]);
			printf("}");
		}
		printf(",\"util_over_100\":%llu,\"blocks_moved\":%llu,\"secs_freed\":%llu,\"moved_per_sec_freed\":%.1f}\n",
		       D(util_over), moved, freed, freed ? (double)moved / freed : 0.0);
		fflush(stdout);
		return;
	}
	printf("\n%s  %s\n", now_hms(), m->name);
	for (t = 0; t < 2; t++)
		if (opt.type == -1 || opt.type == t)
			printf("%s GC: %llu passes (%llu found nothing, %llu failed), avg %llu us; victims greedy %llu, cost-benefit %llu; moved %llu data, %llu node blocks\n",
			       t ? "BG" : "FG", D(passes[t]), D(nodata[t]), D(errors[t]),
			       D(passes[t]) ? D(time_ns[t]) / D(passes[t]) / 1000 : 0,
			       D(victims[t][0]), D(victims[t][1]), D(data_moved[t]),
			       D(node_moved[t]));
	printf("sections freed (all GC, debugfs) %llu, blocks moved per section freed %.1f\n",
	       freed, freed ? (double)moved / freed : 0.0);
	if (D(util_over))
		printf("warning: %llu victims above 100%% (use -s with the real blocks per section)\n",
		       D(util_over));
	for (p = 0; p < 2; p++) {
		if (!vic[p])
			continue;
		printf("\nvictim utilisation, policy = %s (%llu victims, average %llu%%)\n",
		       gc_policy_names[p], vic[p], avg_util[p]);
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
	static const char *const events[] = { "f2fs_gc_victim", "f2fs_gc_end", NULL };
	static struct stats s, ps;
	struct gc_totals prev = {}, now;
	struct f2fs_gc_bpf *skel = NULL;
	struct f2fs_mount m;
	unsigned long long freed;
	bool have_stats;
	int err, t;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	if (preflight("f2fs-gc", events, env.dev, &m))
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_gc_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-gc: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	skel->rodata->targ_type = opt.type;
	skel->rodata->blocks_per_sec = opt.sec_blocks;
	err = f2fs_gc_bpf__load(skel);
	if (!err)
		err = f2fs_gc_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-gc: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	have_stats = stats_read(&m, &ps) == 0;
	fprintf(env.json ? stderr : stdout,
		"Tracing GC of f2fs %s (%s)... Hit Ctrl-C to end.\n", m.name, m.dir);
	fflush(stdout);

	while (!exiting) {
		sleep(env.interval);
		now = skel->bss->totals;
		/* a background victim is freed by a later checkpoint */
		if (have_stats && stats_read(&m, &s) == 0) {
			freed = stat_delta(&s, &ps, "gc_secs_freed");
			ps = s;
		} else {
			freed = 0;
			for (t = 0; t < 2; t++)
				freed += now.secs_freed[t] - prev.secs_freed[t];
		}
		report(&m, &now, &prev, freed);
		prev = now;
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	f2fs_gc_bpf__destroy(skel);
	return err ? 1 : 0;
}
