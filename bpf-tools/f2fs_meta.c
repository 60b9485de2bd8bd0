// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-meta - the slow-du investigator: latency of lookup, iget (the inode
 * read behind stat/getattr) and readdir on one f2fs, the node block reads
 * (synchronous against readahead) and NAT lookups (cache, journal, block)
 * each operation waited for, and how its time divides between them.  At
 * the end it names the largest contributor.
 *
 * With the stock module (see f2fs_meta.bpf.c for its events): lookups are
 * timed and split the same way; readdir is timed from the getdents64
 * system call's entry; igets are counted only (n/a: their latency, reads
 * and whether they read the disk); the NAT cache and journal are not seen,
 * NAT block reads are.  n/a figures are null in JSON and listed in
 * "unavailable".
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common.h"
#include "f2fs_meta.h"
#include "f2fs_meta.skel.h"

struct common_env env = { .interval = 99999999, .count = -1 };
static int duration;	/* -D: seconds, 0 = until Ctrl-C */
static bool no_hist;

static const char *const op_names[NR_OPS] = { "lookup", "iget", "readdir" };
static const char *const tm_names[NR_TM] = { "node_sync", "node_ra",
	"nat_block", "other" };
static const char *const nat_names[3] = { "cache", "journal", "block" };
static int src;			/* SRC_OURS or SRC_STOCK */
static bool readdir_timed = true;	/* stock: getdents64 is traced */
static bool nat_known = true;	/* stock: the NAT area is known */

const char *argp_program_version = "f2fs-meta 0.1";
static const char doc[] =
"Where metadata reads of f2fs spend their time (the slow-du investigator):\n"
"lookup, iget and readdir latency, the node reads and NAT lookups each waits\n"
"for, and at the end a diagnosis naming the largest contributor.  Works with\n"
"our f2fs module and with the stock one (there: igets counted only, NAT\n"
"block reads instead of NAT lookups).\n"
"\n"
"USAGE: f2fs-meta [-h] [-v] [-j] [-H] [-D SECONDS] [-d DEV] [interval] [count]\n"
"\n"
"EXAMPLES:\n"
"    f2fs-meta             # until Ctrl-C, then the report and diagnosis\n"
"    f2fs-meta -D 30       # for 30 seconds\n"
"    f2fs-meta 5           # a report every 5 seconds, diagnosis at the end\n"
"    f2fs-meta -j 1 10     # JSON every second, 10 times, then a summary\n"
"    f2fs-meta -H -d vdb   # no histograms, the f2fs on /dev/vdb\n";

static const struct argp_option opts[] = {
	{ "duration", 'D', "SECONDS", 0, "Trace for SECONDS, then report and exit" },
	{ "no-hist", 'H', NULL, 0, "No latency histograms in the text output" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;
	long v;

	switch (key) {
	case 'D':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v <= 0 || v > INT_MAX)
			argp_error(state, "invalid duration '%s'", arg);
		duration = (int)v;
		break;
	case 'H':
		no_hist = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* 20443 -> "20,443" (one of four rotating buffers) */
static const char *th(unsigned long long v)
{
	static char bufs[4][32];
	static int k;
	char tmp[32], *out = bufs[k++ & 3];
	int n, i, j = 0;

	n = snprintf(tmp, sizeof(tmp), "%llu", v);
	for (i = 0; i < n; i++) {
		out[j++] = tmp[i];
		if ((n - i - 1) % 3 == 0 && i != n - 1)
			out[j++] = ',';
	}
	out[j] = 0;
	return out;
}

static void diff(struct meta_totals *d, const struct meta_totals *now,
		 const struct meta_totals *prev)
{
	const __u64 *a = (const __u64 *)now, *b = (const __u64 *)prev;
	__u64 *o = (__u64 *)d;
	size_t i;

	for (i = 0; i < sizeof(*d) / sizeof(__u64); i++)
		o[i] = a[i] - b[i];
}

static int pct(__u64 part, __u64 whole)
{
	return whole ? (int)((part * 100 + whole / 2) / whole) : 0;
}

/* One sentence on the largest contributor; "" when nothing ran. */
static const char *diagnose(const struct meta_totals *d, const char *dev)
{
	static char buf[512];
	const struct meta_op *o;
	int i, best = -1, k, bk = TM_OTHER;
	__u64 reads;

	for (i = 0; i < NR_OPS; i++)
		if (d->op[i].count && (best < 0 || d->op[i].total_ns > d->op[best].total_ns))
			best = i;
	if (best < 0) {
		snprintf(buf, sizeof(buf), "no lookup, iget or readdir on %s while tracing: nothing to diagnose", dev);
		return buf;
	}
	o = &d->op[best];
	for (k = 0; k < NR_TM; k++)
		if (o->time_ns[k] > o->time_ns[bk])
			bk = k;
	reads = o->node_reads[0] + o->node_reads[1];
	switch (bk) {
	case TM_NODE_SYNC:
		snprintf(buf, sizeof(buf),
			 "%s spends %d%% of its time in synchronous node reads: %s reads, %s",
			 op_names[best], pct(o->time_ns[bk], o->total_ns),
			 th(o->node_reads[0]),
			 o->node_reads[1] ? "some by readahead" : "no readahead");
		if (o->node_reads[1]) {
			size_t l = strlen(buf);

			snprintf(buf + l - strlen("some by readahead"), sizeof(buf) - l,
				 "%s by readahead", th(o->node_reads[1]));
		}
		break;
	case TM_NODE_RA:
		snprintf(buf, sizeof(buf),
			 "%s spends %d%% of its time waiting for node readahead: %s reads by readahead, %s synchronous",
			 op_names[best], pct(o->time_ns[bk], o->total_ns),
			 th(o->node_reads[1]), th(o->node_reads[0]));
		break;
	case TM_NAT_BLOCK:
		if (src == SRC_STOCK)
			snprintf(buf, sizeof(buf),
				 "%s spends %d%% of its time reading NAT blocks: %s NAT block reads",
				 op_names[best], pct(o->time_ns[bk], o->total_ns), th(o->nat[2]));
		else
			snprintf(buf, sizeof(buf),
				 "%s spends %d%% of its time reading NAT blocks: %s NAT lookups from blocks, %s from the cache, %s from the journal",
				 op_names[best], pct(o->time_ns[bk], o->total_ns),
				 th(o->nat[2]), th(o->nat[0]), th(o->nat[1]));
		break;
	default:
		snprintf(buf, sizeof(buf),
			 "%s spends %d%% of its time outside node and NAT reads (dentry blocks, CPU); node reads take %d%% (%s reads)",
			 op_names[best], pct(o->time_ns[bk], o->total_ns),
			 pct(o->time_ns[TM_NODE_SYNC] + o->time_ns[TM_NODE_RA], o->total_ns),
			 th(reads));
		break;
	}
	return buf;
}

static unsigned long long avg_us(const struct meta_op *o)
{
	return o->timed ? o->total_ns / o->timed / 1000 : 0;
}

/* Does the source time @op (and see its reads)? */
static bool op_timed(int op)
{
	if (src != SRC_STOCK)
		return true;
	return op == OP_LOOKUP || (op == OP_READDIR && readdir_timed);
}

static void print_text_stock(const struct f2fs_mount *m, double secs,
			     const struct meta_totals *d, bool summary)
{
	int i;

	printf("\n%s  %s, %.1f s%s  [stock f2fs]\n", now_hms(), m->name, secs,
	       summary ? " (whole run)" : "");
	printf("%-8s %8s %9s %10s %9s %7s %8s %6s %6s %6s\n", "OP", "COUNT",
	       "AVG_us", "TOTAL_ms", "NODE_RD", "NODE_RA", "NATB_RD", "%NODE",
	       "%NATB", "%OTHER");
	for (i = 0; i < NR_OPS; i++) {
		const struct meta_op *o = &d->op[i];

		if (!op_timed(i)) {
			printf("%-8s %8llu %9s %10s %9s %7s %8s %6s %6s %6s\n", op_names[i],
			       (unsigned long long)o->count, "n/a", "n/a", "n/a", "n/a",
			       "n/a", "n/a", "n/a", "n/a");
			continue;
		}
		printf("%-8s %8llu %9llu %10.1f %9llu %7llu %8llu %5d%% %5d%% %5d%%\n",
		       op_names[i], (unsigned long long)o->count, avg_us(o),
		       o->total_ns / 1e6, (unsigned long long)o->node_reads[0],
		       (unsigned long long)o->node_reads[1], (unsigned long long)o->nat[2],
		       pct(o->time_ns[TM_NODE_SYNC] + o->time_ns[TM_NODE_RA], o->total_ns),
		       pct(o->time_ns[TM_NAT_BLOCK], o->total_ns),
		       pct(o->time_ns[TM_OTHER], o->total_ns));
	}
	printf("lookups not found %llu; igets %llu (%llu failed), their latency, reads and disk reads " NA "\n",
	       (unsigned long long)d->op[OP_LOOKUP].special,
	       (unsigned long long)d->op[OP_IGET].count,
	       (unsigned long long)d->op[OP_IGET].errors);
	printf("all node reads: %llu sync, %llu readahead (%llu outside these operations); NAT block reads %llu; NAT lookups by source " NA "\n",
	       (unsigned long long)d->node_reads[0], (unsigned long long)d->node_reads[1],
	       (unsigned long long)d->unattributed_reads, (unsigned long long)d->nat[2]);
	if (!readdir_timed)
		printf("readdir latency " NA " (syscalls/sys_enter_getdents64 is not traced here)\n");
	if (!no_hist) {
		for (i = 0; i < NR_OPS; i++) {
			if (!d->op[i].timed)
				continue;
			printf("\n%s latency%s\n", op_names[i],
			       i == OP_READDIR ? " (from the getdents64 call)" : "");
			print_log2_hist(d->op[i].hist, META_SLOTS, "usecs");
		}
	}
	if (summary)
		printf("\nDiagnosis: %s\n", diagnose(d, m->name));
}

static void print_text(const struct f2fs_mount *m, double secs,
		       const struct meta_totals *d, bool summary)
{
	int i;

	if (src == SRC_STOCK) {
		print_text_stock(m, secs, d, summary);
		return;
	}
	printf("\n%s  %s, %.1f s%s\n", now_hms(), m->name, secs,
	       summary ? " (whole run)" : "");
	printf("%-8s %8s %9s %10s %9s %7s %8s %6s %6s %6s %6s %6s\n", "OP",
	       "COUNT", "AVG_us", "TOTAL_ms", "NODE_RD", "NODE_RA", "NAT_C",
	       "NAT_J", "NAT_B", "%NODE", "%NATB", "%OTHER");
	for (i = 0; i < NR_OPS; i++) {
		const struct meta_op *o = &d->op[i];

		printf("%-8s %8llu %9llu %10.1f %9llu %7llu %8llu %6llu %6llu %5d%% %5d%% %5d%%\n",
		       op_names[i], (unsigned long long)o->count, avg_us(o),
		       o->total_ns / 1e6, (unsigned long long)o->node_reads[0],
		       (unsigned long long)o->node_reads[1],
		       (unsigned long long)o->nat[0], (unsigned long long)o->nat[1],
		       (unsigned long long)o->nat[2],
		       pct(o->time_ns[TM_NODE_SYNC] + o->time_ns[TM_NODE_RA], o->total_ns),
		       pct(o->time_ns[TM_NAT_BLOCK], o->total_ns),
		       pct(o->time_ns[TM_OTHER], o->total_ns));
	}
	printf("lookups not found %llu; igets read from disk %llu of %llu\n",
	       (unsigned long long)d->op[OP_LOOKUP].special,
	       (unsigned long long)d->op[OP_IGET].special,
	       (unsigned long long)d->op[OP_IGET].count);
	printf("all node reads: %llu sync, %llu readahead (%llu outside these operations); NAT lookups: %llu cache, %llu journal, %llu block\n",
	       (unsigned long long)d->node_reads[0], (unsigned long long)d->node_reads[1],
	       (unsigned long long)d->unattributed_reads,
	       (unsigned long long)d->nat[0], (unsigned long long)d->nat[1],
	       (unsigned long long)d->nat[2]);
	if (!no_hist) {
		for (i = 0; i < NR_OPS; i++) {
			if (!d->op[i].count)
				continue;
			printf("\n%s latency\n", op_names[i]);
			print_log2_hist(d->op[i].hist, META_SLOTS, "usecs");
		}
	}
	if (summary)
		printf("\nDiagnosis: %s\n", diagnose(d, m->name));
}

/* ,"nat_lookups":{...} (ours) or ,"nat_lookups":null,"nat_block_reads":N (stock) */
static void json_nat(const __u64 *nat)
{
	int k;

	if (src == SRC_STOCK) {
		printf(",\"nat_lookups\":null,\"nat_block_reads\":");
		if (nat_known)
			printf("%llu", (unsigned long long)nat[2]);
		else
			printf("null");
		return;
	}
	printf(",\"nat_lookups\":{");
	for (k = 0; k < 3; k++)
		printf("%s\"%s\":%llu", k ? "," : "", nat_names[k],
		       (unsigned long long)nat[k]);
	printf("}");
}

static void print_json(const struct f2fs_mount *m, double secs,
		       const struct meta_totals *d, bool summary)
{
	static const char *na[20];
	int i, k, n = 0;

	if (src == SRC_STOCK) {
		na[n++] = "ops.iget.avg_us";
		na[n++] = "ops.iget.total_us";
		na[n++] = "ops.iget.from_disk";
		na[n++] = "ops.iget.node_reads";
		na[n++] = "ops.iget.nat_block_reads";
		na[n++] = "ops.iget.time_us";
		na[n++] = "ops.iget.hist_us";
		na[n++] = "ops.*.nat_lookups";
		na[n++] = "nat_lookups";
		if (!readdir_timed) {
			na[n++] = "ops.readdir.avg_us";
			na[n++] = "ops.readdir.total_us";
			na[n++] = "ops.readdir.node_reads";
			na[n++] = "ops.readdir.time_us";
			na[n++] = "ops.readdir.hist_us";
		}
		if (!nat_known)
			na[n++] = "nat_block_reads";
	}
	printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f,\"summary\":%s",
	       now_hms(), m->name, secs, summary ? "true" : "false");
	json_source(src, src == SRC_STOCK ? na : NULL);
	printf(",\"ops\":{");
	for (i = 0; i < NR_OPS; i++) {
		const struct meta_op *o = &d->op[i];

		printf("%s\"%s\":{\"count\":%llu,\"errors\":%llu,", i ? "," : "",
		       op_names[i], (unsigned long long)o->count,
		       (unsigned long long)o->errors);
		if (!op_timed(i)) {
			printf("\"avg_us\":null,\"total_us\":null,%s\"node_reads\":null",
			       i == OP_IGET ? "\"from_disk\":null," : "");
			if (i == OP_IGET)
				printf(",\"nat_lookups\":null,\"nat_block_reads\":null");
			else
				json_nat(o->nat);
			printf(",\"time_us\":null,\"hist_us\":null}");
			continue;
		}
		printf("\"avg_us\":%llu,\"total_us\":%llu,", avg_us(o),
		       (unsigned long long)(o->total_ns / 1000));
		if (src == SRC_STOCK && i == OP_READDIR)
			printf("\"timed\":%llu,", (unsigned long long)o->timed);
		if (i != OP_READDIR)
			printf("\"%s\":%llu,", i == OP_LOOKUP ? "not_found" : "from_disk",
			       (unsigned long long)o->special);
		printf("\"node_reads\":{\"sync\":%llu,\"ra\":%llu}",
		       (unsigned long long)o->node_reads[0], (unsigned long long)o->node_reads[1]);
		json_nat(o->nat);
		printf(",\"time_us\":{");
		for (k = 0; k < NR_TM; k++)
			printf("%s\"%s\":%llu", k ? "," : "", tm_names[k],
			       (unsigned long long)(o->time_ns[k] / 1000));
		printf("},\"hist_us\":");
		json_log2_hist(o->hist, META_SLOTS);
		printf("}");
	}
	printf("},\"node_reads\":{\"sync\":%llu,\"ra\":%llu,\"unattributed\":%llu}",
	       (unsigned long long)d->node_reads[0], (unsigned long long)d->node_reads[1],
	       (unsigned long long)d->unattributed_reads);
	json_nat(d->nat);
	if (summary) {
		const char *s = diagnose(d, m->name);

		printf(",\"diagnosis\":\"");
		for (; *s; s++)	/* our sentences hold no control characters */
			printf(*s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
		printf("\"");
	}
	printf("}\n");
}

/* Sleep until @until (monotonic seconds); returns early on a signal. */
static void sleep_until(double until)
{
	double left = until - mono();
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_lookup_enter", "f2fs_lookup_exit",
		"f2fs_iget_enter", "f2fs_iget_exit", "f2fs_readdir_enter",
		"f2fs_readdir_exit", "f2fs_node_read", "f2fs_nat_lookup", NULL };
	static const char *const stock[] = { "f2fs_lookup_start", "f2fs_lookup_end",
		"f2fs_iget", "f2fs_iget_exit", "f2fs_readdir", "f2fs_submit_page_bio", NULL };
	struct sb_geo geo;
	struct meta_totals first = {}, prev = {}, now, d;
	struct f2fs_meta_bpf *skel = NULL;
	struct f2fs_mount m;
	double start, t0, t1, end = 0, next;
	int err, reports = 0;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	src = preflight("f2fs-meta", ours, stock, env.dev, &m);
	if (src < 0)
		return 1;
	libbpf_set_print(libbpf_print_fn);

	skel = f2fs_meta_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-meta: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = m.kdev;
	select_programs(skel->obj, src);
	if (src == SRC_STOCK) {
		if (read_sb(&m, &geo) == 0) {
			skel->rodata->nat_start = geo.nat_blkaddr;
			skel->rodata->nat_end = geo.nat_blkaddr + geo.nat_blocks;
		} else {
			nat_known = false;
			fprintf(stderr, "f2fs-meta: cannot read the superblock of /dev/%s: NAT block reads n/a\n",
				m.name);
		}
		if (!tp_exists("syscalls", "sys_enter_getdents64") ||
		    !tp_exists("syscalls", "sys_exit_getdents64")) {
			readdir_timed = false;
			bpf_program__set_autoload(skel->progs.st_getdents_enter, false);
			bpf_program__set_autoload(skel->progs.st_getdents_exit, false);
			fprintf(stderr, "f2fs-meta: no syscalls/sys_enter_getdents64 tracepoint: readdir latency n/a\n");
		}
	}
	err = f2fs_meta_bpf__load(skel);
	if (!err)
		err = f2fs_meta_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-meta: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	setup_signals();
	start = t0 = mono();
	if (duration)
		end = start + duration;
	fprintf(env.json ? stderr : stdout,
		"Tracing metadata reads of f2fs %s (%s, %s f2fs module)%s... Hit Ctrl-C to end.\n",
		m.name, m.dir, src_names[src], duration ? " for a while" : "");
	fflush(stdout);

	while (!exiting) {
		next = t0 + env.interval;
		if (end && next > end)
			next = end;
		sleep_until(next);
		now = skel->bss->totals;
		t1 = mono();
		if (exiting || (end && t1 >= end) ||
		    (env.count > 0 && reports + 1 == env.count)) {
			/* the last interval: print it only when there were others */
			if (reports) {
				diff(&d, &now, &prev);
				env.json ? print_json(&m, t1 - t0, &d, false)
					 : print_text(&m, t1 - t0, &d, false);
			}
			break;
		}
		if (env.interval < 99999999) {
			diff(&d, &now, &prev);
			env.json ? print_json(&m, t1 - t0, &d, false)
				 : print_text(&m, t1 - t0, &d, false);
			fflush(stdout);
			reports++;
		}
		prev = now;
		t0 = t1;
	}
	/* the whole run, with the diagnosis */
	now = skel->bss->totals;
	diff(&d, &now, &first);
	env.json ? print_json(&m, mono() - start, &d, true)
		 : print_text(&m, mono() - start, &d, true);
	fflush(stdout);

cleanup:
	f2fs_meta_bpf__destroy(skel);
	return err ? 1 : 0;
}
