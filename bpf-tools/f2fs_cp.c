// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-cp - checkpoint latency of our f2fs: a log2 histogram of the total
 * time per checkpoint reason, and the average time of each phase, from the
 * f2fs_cp_end trace event.  Per interval, or once at Ctrl-C.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "f2fs_cp.h"
#include "f2fs_cp.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };

static const char *const phase_names[NR_PHASES] = { "block", "flush", "wait",
	"nat", "sit", "pack" };

const char *argp_program_version = "f2fs-cp 0.1";
static const char doc[] =
"Checkpoint latency of f2fs, per reason, with the time of each phase\n"
"(of every f2fs mounted, or of the one named by -d).\n"
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
	__u64 n = 0, hist[CP_SLOTS], total = 0;
	int r, i, sep = 0;

	for (r = 0; r < CP_REASONS; r++)
		n += now->count[r] - prev->count[r];
	if (env.json) {
		printf("{\"time\":\"%s\",\"checkpoints\":%llu,\"errors\":%llu,\"max_us\":%llu,\"reasons\":{",
		       now_hms(), (unsigned long long)n,
		       (unsigned long long)(now->errors - prev->errors),
		       (unsigned long long)max_ns / 1000);
	} else {
		printf("\n%s  %llu checkpoints, %llu failed, max %llu us\n", now_hms(),
		       (unsigned long long)n,
		       (unsigned long long)(now->errors - prev->errors),
		       (unsigned long long)max_ns / 1000);
	}
	for (r = 0; r < CP_REASONS; r++) {
		__u64 c = now->count[r] - prev->count[r];
		__u64 t = now->total_ns[r] - prev->total_ns[r];

		if (!c)
			continue;
		total += t;
		for (i = 0; i < CP_SLOTS; i++)
			hist[i] = now->hist[r][i] - prev->hist[r][i];
		if (env.json) {
			printf("%s\"%s\":{\"count\":%llu,\"avg_us\":%llu,\"hist_us\":",
			       sep++ ? "," : "", cp_reason_names[r],
			       (unsigned long long)c, (unsigned long long)(t / c / 1000));
			json_log2_hist(hist, CP_SLOTS);
			printf("}");
		} else {
			printf("\nreason = %s: %llu checkpoints, average %llu us\n",
			       cp_reason_names[r], (unsigned long long)c,
			       (unsigned long long)(t / c / 1000));
			print_log2_hist(hist, CP_SLOTS, "usecs");
		}
	}
	printf(env.json ? "},\"phase_avg_us\":{" : "\naverage per checkpoint (us):");
	for (i = 0; i < NR_PHASES; i++) {
		__u64 v = n ? (now->phase_ns[i] - prev->phase_ns[i]) / n / 1000 : 0;

		if (env.json)
			printf("%s\"%s\":%llu", i ? "," : "", phase_names[i],
			       (unsigned long long)v);
		else
			printf(" %s %llu", phase_names[i], (unsigned long long)v);
	}
	if (env.json)
		printf(",\"total\":%llu}}\n", (unsigned long long)(n ? total / n / 1000 : 0));
	else
		printf(" total %llu\n", (unsigned long long)(n ? total / n / 1000 : 0));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { NULL, NULL, "[interval] [count]", doc, children };
	static const char *const events[] = { "f2fs_cp_end", NULL };
	struct cp_totals prev = {}, now;
	struct f2fs_cp_bpf *skel = NULL;
	struct f2fs_mount m;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	if (preflight("f2fs-cp", events, env.dev, &m))
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_cp_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-cp: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = env.dev ? m.kdev : 0;
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
		"Tracing f2fs checkpoints%s%s... Hit Ctrl-C to end.\n",
		env.dev ? " on " : "", env.dev ? m.name : "");
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
