// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-cp - checkpoint latency of f2fs: a log2 histogram of the total time
 * per checkpoint reason, and the average time of each phase.  Per interval,
 * or once at Ctrl-C.
 *
 * Our module: from f2fs_cp_end (reasons umount ... periodic; phases block,
 * flush, wait, nat, sit, pack; failed checkpoints).  The stock module: from
 * f2fs_write_checkpoint, whose three messages give the time from the start
 * of block_ops to the end of the checkpoint, split into "block" (block_ops)
 * and "write" (the rest); the reasons are the stock flags (umount,
 * fastboot, sync, recovery, discard, trimmed, pause, resize); the other
 * phases and failures are not in its events and show as n/a (JSON: null,
 * listed in "unavailable").  The count of checkpoints equals the stock
 * status file's "CP calls".
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "stock_events.h"
#include "f2fs_cp.h"
#include "f2fs_cp.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };

static const char *const phase_names[NR_PHASES] = { "block", "flush", "wait",
	"nat", "sit", "pack", "write" };
static int src;
static const char *const stock_na[] = { "errors", "phase_avg_us.flush",
	"phase_avg_us.wait", "phase_avg_us.nat", "phase_avg_us.sit",
	"phase_avg_us.pack", NULL };

/* The phases a source measures. */
static bool has_phase(int i)
{
	return src == SRC_STOCK ? i == PH_BLOCK || i == PH_WRITE : i != PH_WRITE;
}

const char *argp_program_version = "f2fs-cp 0.1";
static const char doc[] =
"Checkpoint latency of f2fs, per reason, with the time of each phase\n"
"(of every f2fs mounted, or of the one named by -d).  Works with our f2fs\n"
"module and with the stock one (fewer phases, no failures).\n"
"\n"
"USAGE: f2fs-cp [-h] [-v] [-j] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-cp             # histograms until Ctrl-C\n"
"    f2fs-cp 5           # every 5 seconds\n"
"    f2fs-cp -j 1 10     # one JSON object per second, 10 times\n"
"    f2fs-cp -d vdb      # only the f2fs on /dev/vdb\n";

static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static void report(const struct cp_totals *now, const struct cp_totals *prev,
		   __u64 max_ns)
{
	const char *const *names = src == SRC_STOCK ? stock_cp_reason_names : cp_reason_names;
	int nreasons = src == SRC_STOCK ? ST_NR_CP_REASONS : NR_CP_REASONS;
	__u64 n = 0, hist[CP_SLOTS], total = 0;
	unsigned long long errors = now->errors - prev->errors;
	int r, i, sep = 0;

	for (r = 0; r < CP_REASONS; r++)
		n += now->count[r] - prev->count[r];
	if (env.json) {
		printf("{\"time\":\"%s\"", now_hms());
		json_source(src, src == SRC_STOCK ? stock_na : NULL);
		printf(",\"checkpoints\":%llu,\"errors\":", (unsigned long long)n);
		if (src == SRC_STOCK)
			printf("null");
		else
			printf("%llu", errors);
		printf(",\"max_us\":%llu,\"reasons\":{", (unsigned long long)max_ns / 1000);
	} else {
		printf("\n%s  %llu checkpoints, ", now_hms(), (unsigned long long)n);
		if (src == SRC_STOCK)
			printf("failed " NA);
		else
			printf("%llu failed", errors);
		printf(", max %llu us\n", (unsigned long long)max_ns / 1000);
	}
	for (r = 0; r < nreasons; r++) {
		__u64 c = now->count[r] - prev->count[r];
		__u64 t = now->total_ns[r] - prev->total_ns[r];

		if (!c)
			continue;
		total += t;
		for (i = 0; i < CP_SLOTS; i++)
			hist[i] = now->hist[r][i] - prev->hist[r][i];
		if (env.json) {
			printf("%s\"%s\":{\"count\":%llu,\"avg_us\":%llu,\"hist_us\":",
			       sep++ ? "," : "", names[r],
			       (unsigned long long)c, (unsigned long long)(t / c / 1000));
			json_log2_hist(hist, CP_SLOTS);
			printf("}");
		} else {
			printf("\nreason = %s: %llu checkpoints, average %llu us\n",
			       names[r], (unsigned long long)c,
			       (unsigned long long)(t / c / 1000));
			print_log2_hist(hist, CP_SLOTS, "usecs");
		}
	}
	printf(env.json ? "},\"phase_avg_us\":{" : "\naverage per checkpoint (us):");
	for (i = 0, sep = 0; i < NR_PHASES; i++) {
		__u64 v = n ? (now->phase_ns[i] - prev->phase_ns[i]) / n / 1000 : 0;

		if (env.json) {
			if (has_phase(i))
				printf("%s\"%s\":%llu", sep++ ? "," : "", phase_names[i],
				       (unsigned long long)v);
			else if (i != PH_WRITE)
				printf("%s\"%s\":null", sep++ ? "," : "", phase_names[i]);
		} else if (has_phase(i)) {
			printf(" %s %llu", phase_names[i], (unsigned long long)v);
		}
	}
	if (env.json)
		printf(",\"total\":%llu}}\n", (unsigned long long)(n ? total / n / 1000 : 0));
	else
		printf(" total %llu%s\n", (unsigned long long)(n ? total / n / 1000 : 0),
		       src == SRC_STOCK ? "\n(stock f2fs: block = block_ops, write = the rest; flush, wait, nat, sit, pack: " NA ")" : "");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { NULL, NULL, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_cp_end", NULL };
	static const char *const stock[] = { "f2fs_write_checkpoint", NULL };
	struct cp_totals prev = {}, now;
	struct f2fs_cp_bpf *skel = NULL;
	struct f2fs_mount m;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	src = preflight("f2fs-cp", ours, stock, env.dev, &m);
	if (src < 0)
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_cp_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-cp: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = env.dev ? m.kdev : 0;
	select_programs(skel->obj, src);
	err = f2fs_cp_bpf__load(skel);
	if (!err)
		err = f2fs_cp_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-cp: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	fprintf(env.json ? stderr : stdout,
		"Tracing f2fs checkpoints%s%s (%s f2fs module)... Hit Ctrl-C to end.\n",
		env.dev ? " on " : "", env.dev ? m.name : "", src_names[src]);
	fflush(stdout);

	while (!exiting) {
		__u64 max_ns;

		sleep(env.interval);
		now = skel->bss->totals;
		max_ns = now.max_ns;
		skel->bss->totals.max_ns = 0;
		report(&now, &prev, max_ns);
		prev = now;
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	f2fs_cp_bpf__destroy(skel);
	return err ? 1 : 0;
}
