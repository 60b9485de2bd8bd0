// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-hotcold - where the writes of one f2fs go: blocks written to each of
 * the six logs (LFS appends and SSR reuse, from the debugfs counters) and
 * segments each log opened (the f2fs_segment_alloc event), per interval or
 * once at Ctrl-C.  Shows whether hot/cold separation works: .mp4 data in an
 * image made with "mkfs.f2fs -e mp4" should land in cold_data, directory
 * blocks in hot_data/hot_node.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "f2fs_hotcold.h"
#include "f2fs_hotcold.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };

const char *argp_program_version = "f2fs-hotcold 0.1";
static const char doc[] =
"Blocks written and segments opened per f2fs log (hot/cold separation).\n"
"\n"
"USAGE: f2fs-hotcold [-h] [-v] [-j] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-hotcold            # totals from now until Ctrl-C\n"
"    f2fs-hotcold 1          # every second\n"
"    f2fs-hotcold -j 5 3     # JSON, every 5 seconds, 3 times\n"
"    f2fs-hotcold -d /mnt/x  # the f2fs mounted on /mnt/x\n";

static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static void report(const struct f2fs_mount *m, double secs,
		   const struct stats *s, const struct stats *ps,
		   const struct hc_totals *now, const struct hc_totals *prev)
{
	unsigned long long lfs[6], ssr[6], total = 0;
	char key[64];
	int i;

	for (i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "lfs_blocks_%s", log_names[i]);
		lfs[i] = stat_delta(s, ps, key);
		snprintf(key, sizeof(key), "ssr_blocks_%s", log_names[i]);
		ssr[i] = stat_delta(s, ps, key);
		total += lfs[i] + ssr[i];
	}
	if (env.json)
		printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f,\"total_blocks\":%llu,\"logs\":{",
		       now_hms(), m->name, secs, total);
	else
		printf("\n%s  %s, %.1f s, %llu blocks\n%-10s %10s %10s %9s %9s %7s\n",
		       now_hms(), m->name, secs, total, "LOG", "LFS_BLKS",
		       "SSR_BLKS", "SEGS_LFS", "SEGS_SSR", "SHARE");
	for (i = 0; i < 6; i++) {
		unsigned long long sl = now->segs[i][0] - prev->segs[i][0];
		unsigned long long ss = now->segs[i][1] - prev->segs[i][1];
		double share = total ? 100.0 * (lfs[i] + ssr[i]) / total : 0;

		if (env.json)
			printf("%s\"%s\":{\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"segs_lfs\":%llu,\"segs_ssr\":%llu}",
			       i ? "," : "", log_names[i], lfs[i], ssr[i], sl, ss);
		else
			printf("%-10s %10llu %10llu %9llu %9llu %6.1f%%\n",
			       log_names[i], lfs[i], ssr[i], sl, ss, share);
	}
	if (env.json)
		printf("}}\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { NULL, NULL, "[interval] [count]", doc, children };
	static const char *const events[] = { "f2fs_segment_alloc", NULL };
	static struct stats s, ps;
	struct hc_totals prev = {}, now;
	struct f2fs_hotcold_bpf *skel = NULL;
	struct f2fs_mount m;
	double t0, t1;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	if (preflight("f2fs-hotcold", events, env.dev, &m))
		return 1;
	if (stats_read(&m, &ps)) {
		fprintf(stderr, "f2fs-hotcold: cannot read /sys/kernel/debug/f2fs/%s/stats (debugfs mounted? our module?)\n",
			m.name);
		return 1;
	}
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_hotcold_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-hotcold: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	err = f2fs_hotcold_bpf__load(skel);
	if (!err)
		err = f2fs_hotcold_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-hotcold: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	stats_read(&m, &ps);
	t0 = mono();
	fprintf(env.json ? stderr : stdout,
		"Tracing writes per log of f2fs %s (%s)... Hit Ctrl-C to end.\n",
		m.name, m.dir);
	fflush(stdout);

	while (!exiting) {
		sleep(env.interval);
		now = skel->bss->totals;
		if (stats_read(&m, &s)) {
			fprintf(stderr, "f2fs-hotcold: %s was unmounted\n", m.name);
			err = 1;
			break;
		}
		t1 = mono();
		report(&m, t1 - t0, &s, &ps, &now, &prev);
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
