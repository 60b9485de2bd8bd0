// SPDX-License-Identifier: GPL-2.0
/* common.c - what the f2fs tools share: checks, debugfs stats, output. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "common.h"

const char *const log_names[6] = { "hot_data", "warm_data", "cold_data",
	"hot_node", "warm_node", "cold_node" };
const char *const cp_reason_names[7] = { "umount", "sync", "fsync", "space",
	"remount", "recovery", "periodic" };
const char *const gc_type_names[2] = { "fg", "bg" };
const char *const gc_policy_names[2] = { "greedy", "cost_benefit" };

volatile bool exiting;
bool verbose;

static void on_signal(int sig)
{
	(void)sig;
	exiting = true;
}

void setup_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: sleep() returns early so that we print and leave */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

bool event_exists(const char *ev)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
		"/sys/kernel/debug/tracing" };
	char p[PATH_MAX];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/events/f2fs/%s/id", roots[i], ev);
		if (access(p, R_OK) == 0)
			return true;
	}
	return false;
}

/* Find the f2fs mount named by @want (device, its basename or mount point). */
static int find_mount(const char *want, struct f2fs_mount *m)
{
	char src[256], dir[256], type[64], line[1024];
	FILE *f = fopen("/proc/mounts", "r");
	struct stat st;
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *base;

		if (sscanf(line, "%255s %255s %63s", src, dir, type) != 3 ||
		    strcmp(type, "f2fs"))
			continue;
		base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		if (want && strcmp(want, src) && strcmp(want, base) && strcmp(want, dir))
			continue;
		snprintf(m->name, sizeof(m->name), "%s", base);
		snprintf(m->dir, sizeof(m->dir), "%s", dir);
		m->kdev = 0;
		if (stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			m->kdev = (major(st.st_rdev) << 20) | minor(st.st_rdev);
		found = 1;
	}
	fclose(f);
	return found;
}

int list_mounts(struct f2fs_mount *ms, int max)
{
	char src[256], dir[256], type[64], line[1024];
	FILE *f = fopen("/proc/mounts", "r");
	struct stat st;
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		const char *base;

		if (sscanf(line, "%255s %255s %63s", src, dir, type) != 3 ||
		    strcmp(type, "f2fs"))
			continue;
		base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		snprintf(ms[n].name, sizeof(ms[n].name), "%s", base);
		snprintf(ms[n].dir, sizeof(ms[n].dir), "%s", dir);
		ms[n].kdev = 0;
		if (stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			ms[n].kdev = (major(st.st_rdev) << 20) | minor(st.st_rdev);
		n++;
	}
	fclose(f);
	return n;
}

int preflight(const char *prog, const char *const *events, const char *dev,
	      struct f2fs_mount *m)
{
	if (geteuid() != 0) {
		fprintf(stderr, "%s: must run as root (BPF and debugfs need privilege)\n", prog);
		return -1;
	}
	for (; events && *events; events++) {
		if (!event_exists(*events)) {
			fprintf(stderr, "%s: trace event f2fs/%s not found: is our f2fs module loaded (and tracefs mounted)?\n",
				prog, *events);
			return -1;
		}
	}
	if (!find_mount(dev, m)) {
		if (dev)
			fprintf(stderr, "%s: no f2fs mounted from or on '%s'\n", prog, dev);
		else
			fprintf(stderr, "%s: no f2fs filesystem is mounted\n", prog);
		return -1;
	}
	return 0;
}

int stats_read(const struct f2fs_mount *m, struct stats *s)
{
	char p[PATH_MAX], line[128];
	FILE *f;

	snprintf(p, sizeof(p), "/sys/kernel/debug/f2fs/%s/stats", m->name);
	s->n = 0;
	f = fopen(p, "r");
	if (!f)
		return -errno;
	while (s->n < MAX_STATS && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%47s %llu", s->key[s->n], &s->val[s->n]) == 2)
			s->n++;
	}
	fclose(f);
	return 0;
}

unsigned long long stat_get(const struct stats *s, const char *key)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return s->val[i];
	return 0;
}

unsigned long long stat_delta(const struct stats *now, const struct stats *prev,
			      const char *key)
{
	unsigned long long a = stat_get(now, key), b = stat_get(prev, key);

	return a >= b ? a - b : 0;	/* a remount restarts the counters */
}

/* Slot i counts values in [2^(i-1), 2^i) (slot 0: the value 0). */
static void slot_range(int i, unsigned long long *lo, unsigned long long *hi)
{
	*lo = i ? 1ULL << (i - 1) : 0;
	*hi = i ? (1ULL << i) - 1 : 0;
}

void print_log2_hist(const __u64 *slots, int n, const char *unit)
{
	unsigned long long lo, hi, max = 0;
	int i, first = -1, last = -1, w;

	for (i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (slots[i] > max)
			max = slots[i];
	}
	if (last < 0)
		return;
	printf("%28s : count    distribution\n", unit);
	for (i = first; i <= last; i++) {
		slot_range(i, &lo, &hi);
		w = (int)(slots[i] * 40 / max);
		printf("%12llu -> %-12llu : %-8llu |%-40.*s|\n", lo, hi,
		       (unsigned long long)slots[i], w,
		       "****************************************");
	}
}

void json_log2_hist(const __u64 *slots, int n)
{
	unsigned long long lo, hi;
	int i, sep = 0;

	printf("[");
	for (i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		slot_range(i, &lo, &hi);
		printf("%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}", sep++ ? "," : "",
		       lo, hi, (unsigned long long)slots[i]);
	}
	printf("]");
}

double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *now_hms(void)
{
	static char buf[16];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	return buf;
}

static const struct argp_option common_opts[] = {
	{ "dev", 'd', "DEV", 0, "Device or mount point (default: the first f2fs mounted)" },
	{ "json", 'j', NULL, 0, "One JSON object per interval" },
	{ "verbose", 'v', NULL, 0, "Verbose libbpf debug output" },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help" },
	{},
};

static error_t common_parse(int key, char *arg, struct argp_state *state)
{
	char *end;
	long v;

	switch (key) {
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case 'd':
		env.dev = arg;
		break;
	case 'j':
		env.json = true;
		break;
	case 'v':
		verbose = true;
		break;
	case ARGP_KEY_ARG:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v <= 0 || v > INT_MAX || state->arg_num > 1)
			argp_error(state, "invalid interval/count '%s'", arg);
		if (state->arg_num == 0)
			env.interval = (int)v;
		else
			env.count = (int)v;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp common_argp = { common_opts, common_parse, NULL, NULL };
