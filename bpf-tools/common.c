// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - what the f2fs tools share: checks, which f2fs module is loaded
 * and what it offers, debugfs figures, output.
 *
 * Our module: events f2fs_cp_end ... and /sys/kernel/debug/f2fs/<dev>/stats
 * (key value lines).  The stock module: upstream's tracepoints and the
 * debugfs status file, one section per mount, which status_read() turns
 * into keys (the stock figures keep their own names where they mean
 * something else than ours: gc_calls counts sections cleaned, gc_tried
 * blocks GC tried to move, ...).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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
#include "stock_events.h"

const char *const log_names[6] = { "hot_data", "warm_data", "cold_data",
	"hot_node", "warm_node", "cold_node" };
const char *const cp_reason_names[7] = { "umount", "sync", "fsync", "space",
	"remount", "recovery", "periodic" };
const char *const stock_cp_reason_names[9] = { "umount", "fastboot", "sync",
	"recovery", "discard", "trimmed", "pause", "resize", "other" };
const char *const gc_type_names[2] = { "fg", "bg" };
const char *const gc_policy_names[3] = { "greedy", "cost_benefit", "age_threshold" };
const char *const src_names[3] = { "", "ours", "stock" };

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

static const char *const tracefs_roots[] = { "/sys/kernel/tracing",
	"/sys/kernel/debug/tracing" };

bool tp_exists(const char *sys, const char *ev)
{
	char p[PATH_MAX];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/events/%s/%s/id", tracefs_roots[i], sys, ev);
		if (access(p, R_OK) == 0)
			return true;
	}
	return false;
}

bool event_exists(const char *ev)
{
	return tp_exists("f2fs", ev);
}

int module_source(void)
{
	if (event_exists("f2fs_cp_end"))
		return SRC_OURS;
	if (event_exists("f2fs_write_checkpoint"))
		return SRC_STOCK;
	return 0;
}

/* Offset and size of @field in events/f2fs/@ev/format; -1 if not there. */
static int format_field(const char *ev, const char *field, int *off, int *size)
{
	char p[PATH_MAX], line[512];
	unsigned int i;
	FILE *f = NULL;

	for (i = 0; i < 2 && !f; i++) {
		snprintf(p, sizeof(p), "%s/events/f2fs/%s/format", tracefs_roots[i], ev);
		f = fopen(p, "r");
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *decl = strstr(line, "field:"), *semi, *name;

		if (!decl || !(semi = strchr(decl, ';')))
			continue;
		*semi = 0;
		name = strrchr(decl, ' ');	/* the last word of the declaration */
		name = name ? name + 1 : decl + 6;
		if (strchr(name, '['))
			*strchr(name, '[') = 0;
		if (strcmp(name, field))
			continue;
		if (sscanf(semi + 1, " offset:%d; size:%d;", off, size) == 2) {
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

static const struct { const char *ev, *field; int off, size; } stock_fields[] = {
#define STOCK_FIELD_ROW(ev, st, m, f, o, sz) { #ev, #f, o, sz },
	STOCK_FIELDS(STOCK_FIELD_ROW)
#undef STOCK_FIELD_ROW
};

int check_stock_fields(const char *prog, const char *const *events)
{
	unsigned int i;
	int off, size;

	for (; events && *events; events++) {
		for (i = 0; i < sizeof(stock_fields) / sizeof(stock_fields[0]); i++) {
			if (strcmp(stock_fields[i].ev, *events))
				continue;
			if (format_field(*events, stock_fields[i].field, &off, &size)) {
				fprintf(stderr, "%s: f2fs/%s has no field '%s' on this kernel: its records differ from Debian 6.1's stock f2fs (bpf-tools/stock-6.1-events.txt)\n",
					prog, *events, stock_fields[i].field);
				return -1;
			}
			if (off != stock_fields[i].off || size != stock_fields[i].size) {
				fprintf(stderr, "%s: f2fs/%s field '%s' is at offset %d size %d on this kernel, not %d/%d as in Debian 6.1's stock f2fs (bpf-tools/stock-6.1-events.txt)\n",
					prog, *events, stock_fields[i].field, off, size,
					stock_fields[i].off, stock_fields[i].size);
				return -1;
			}
		}
	}
	return 0;
}

void select_programs(struct bpf_object *obj, int src)
{
	const char *keep = src == SRC_STOCK ? "st_" : "on_";
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj)
		if (strncmp(bpf_program__name(p), keep, 3))
			bpf_program__set_autoload(p, false);
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

int preflight(const char *prog, const char *const *ours, const char *const *stock,
	      const char *dev, struct f2fs_mount *m)
{
	const char *const *events;
	int src = 0;

	if (geteuid() != 0) {
		fprintf(stderr, "%s: must run as root (BPF and debugfs need privilege)\n", prog);
		return -1;
	}
	if (ours || stock) {
		src = module_source();
		if (!src) {
			fprintf(stderr, "%s: no f2fs trace events (f2fs/f2fs_cp_end of our module, f2fs/f2fs_write_checkpoint of the stock one): is an f2fs module loaded (and tracefs mounted)?\n",
				prog);
			return -1;
		}
		events = src == SRC_OURS ? ours : stock;
		for (; events && *events; events++) {
			if (!event_exists(*events)) {
				fprintf(stderr, "%s: trace event f2fs/%s not found in the %s f2fs module\n",
					prog, *events, src_names[src]);
				return -1;
			}
		}
		if (src == SRC_STOCK && check_stock_fields(prog, stock))
			return -1;
	}
	if (!find_mount(dev, m)) {
		if (dev)
			fprintf(stderr, "%s: no f2fs mounted from or on '%s'\n", prog, dev);
		else
			fprintf(stderr, "%s: no f2fs filesystem is mounted\n", prog);
		return -1;
	}
	return src;
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

static void stat_put(struct stats *s, const char *key, unsigned long long v)
{
	if (s->n < MAX_STATS) {
		snprintf(s->key[s->n], sizeof(s->key[0]), "%s", key);
		s->val[s->n++] = v;
	}
}

/*
 * The lines of the stock status section (fs/f2fs/debug.c of 6.1), with
 * runs of blanks made one and leading blanks dropped: the prefix that
 * names a line, its scanf format, and the key of each number (NULL:
 * skipped).  Every line is required: a kernel that prints another layout
 * gets an error, not zeros.
 */
static const struct {
	const char *prefix, *fmt;
	const char *keys[6];
} status_lines[] = {
	{ "Utilization:", "Utilization: %llu%% (%llu valid blocks", { "util_pct", "valid_blocks" } },
	{ "- Node:", "- Node: %llu (Inode: %llu, Other: %llu)", { "valid_nodes", "valid_inodes", NULL } },
	{ "- Data:", "- Data: %llu", { "data_blocks" } },
	{ "Main area:", "Main area: %llu segs, %llu secs", { "main_segs", "main_secs" } },
	{ "- COLD data:", "- COLD data: %llu %llu %llu %llu %llu %llu",
	  { "curseg_cold_data", NULL, NULL, "dirty_seg_cold_data", "full_seg_cold_data", "valid_blk_cold_data" } },
	{ "- WARM data:", "- WARM data: %llu %llu %llu %llu %llu %llu",
	  { "curseg_warm_data", NULL, NULL, "dirty_seg_warm_data", "full_seg_warm_data", "valid_blk_warm_data" } },
	{ "- HOT data:", "- HOT data: %llu %llu %llu %llu %llu %llu",
	  { "curseg_hot_data", NULL, NULL, "dirty_seg_hot_data", "full_seg_hot_data", "valid_blk_hot_data" } },
	{ "- Dir dnode:", "- Dir dnode: %llu %llu %llu %llu %llu %llu",
	  { "curseg_hot_node", NULL, NULL, "dirty_seg_hot_node", "full_seg_hot_node", "valid_blk_hot_node" } },
	{ "- File dnode:", "- File dnode: %llu %llu %llu %llu %llu %llu",
	  { "curseg_warm_node", NULL, NULL, "dirty_seg_warm_node", "full_seg_warm_node", "valid_blk_warm_node" } },
	{ "- Indir nodes:", "- Indir nodes: %llu %llu %llu %llu %llu %llu",
	  { "curseg_cold_node", NULL, NULL, "dirty_seg_cold_node", "full_seg_cold_node", "valid_blk_cold_node" } },
	{ "- Valid:", "- Valid: %llu", { "valid_segs" } },
	{ "- Dirty:", "- Dirty: %llu", { "dirty_segs" } },
	{ "- Prefree:", "- Prefree: %llu", { "prefree_segs" } },
	{ "- Free:", "- Free: %llu (%llu)", { "free_segs", "free_secs" } },
	{ "CP calls:", "CP calls: %llu (BG: %llu)", { "cp_calls", "cp_calls_bg" } },
	{ "GC calls:", "GC calls: %llu (BG: %llu)", { "gc_calls", "gc_bg_passes" } },
	{ "- data segments :", "- data segments : %llu (%llu)", { "gc_data_segs", "gc_data_segs_bg" } },
	{ "- node segments :", "- node segments : %llu (%llu)", { "gc_node_segs", "gc_node_segs_bg" } },
	{ "Try to move", "Try to move %llu blocks (BG: %llu)", { "gc_tried", "gc_tried_bg" } },
	{ "- data blocks :", "- data blocks : %llu (%llu)", { "gc_tried_data", "gc_tried_data_bg" } },
	{ "- node blocks :", "- node blocks : %llu (%llu)", { "gc_tried_node", "gc_tried_node_bg" } },
	{ "- Hit Ratio:", "- Hit Ratio: %llu%% (%llu / %llu)", { NULL, "extent_hits", "extent_lookups" } },
	{ "- nodes:", "- nodes: %llu in %llu", { "dirty_nodes", "node_pages" } },
	{ "- dents:", "- dents: %llu in dirs: %llu (%llu)", { "dirty_dents", "dirty_dirs", NULL } },
	{ "- datas:", "- datas: %llu in files: %llu", { "dirty_data", "dirty_files" } },
	{ "- meta:", "- meta: %llu in %llu", { "dirty_meta", "meta_pages" } },
	{ "- imeta:", "- imeta: %llu", { "dirty_imeta" } },
	{ "- NATs:", "- NATs: %llu/%llu", { "dirty_nats", "cached_nats" } },
	{ "- SITs:", "- SITs: %llu/%llu", { "dirty_sits", "sit_entries" } },
	{ "- free_nids:", "- free_nids: %llu/%llu", { "free_nids", "avail_nids" } },
	{ "IPU:", "IPU: %llu blocks", { "ipu_blocks" } },
	{ "SSR:", "SSR: %llu blocks in %llu segments", { "ssr_blocks", "ssr_segs" } },
	{ "LFS:", "LFS: %llu blocks in %llu segments", { "lfs_blocks", "lfs_segs" } },
	{ "Memory:", "Memory: %llu KB", { "mem_kb" } },
};
#define NR_STATUS_LINES (sizeof(status_lines) / sizeof(status_lines[0]))

/* Blanks: leading ones dropped, runs made one; the newline dropped. */
static void squeeze(char *l)
{
	char *r = l, *w = l;

	while (isspace((unsigned char)*r))
		r++;
	for (; *r; r++) {
		if (isspace((unsigned char)*r)) {
			if (w > l && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	while (w > l && w[-1] == ' ')
		w--;
	*w = 0;
}

/* The number of conversions in a scanf format ("%%" is none). */
static unsigned int conversions(const char *fmt)
{
	unsigned int n = 0;

	for (; (fmt = strchr(fmt, '%')); fmt++) {
		if (fmt[1] == '%')
			fmt++;
		else
			n++;
	}
	return n;
}

int status_read(const struct f2fs_mount *m, struct stats *s, const char **what)
{
	char line[512], head[300];
	bool in = false, found = false, seen[NR_STATUS_LINES] = { false };
	unsigned long long v[6];
	unsigned int i, k, nk;
	FILE *f;

	*what = NULL;
	s->n = 0;
	f = fopen("/sys/kernel/debug/f2fs/status", "r");
	if (!f)
		return -errno;
	snprintf(head, sizeof(head), "=====[ partition info(%s).", m->name);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "=====[", 6)) {
			if (in)
				break;		/* the next mount's section */
			in = !strncmp(line, head, strlen(head));
			if (in) {
				found = true;
				stat_put(s, "writable", !!strstr(line, ", RW,"));
			}
			continue;
		}
		if (!in)
			continue;
		squeeze(line);
		for (i = 0; i < NR_STATUS_LINES; i++) {
			if (seen[i] || strncmp(line, status_lines[i].prefix,
					       strlen(status_lines[i].prefix)))
				continue;
			nk = conversions(status_lines[i].fmt);
			if (sscanf(line, status_lines[i].fmt, &v[0], &v[1], &v[2], &v[3],
				   &v[4], &v[5]) != (int)nk) {
				*what = status_lines[i].prefix;
				fclose(f);
				return -EPROTO;
			}
			for (k = 0; k < nk; k++)
				if (status_lines[i].keys[k])
					stat_put(s, status_lines[i].keys[k], v[k]);
			seen[i] = true;
			break;
		}
	}
	fclose(f);
	if (!found)
		return -ENOENT;
	for (i = 0; i < NR_STATUS_LINES; i++) {
		if (!seen[i]) {
			*what = status_lines[i].prefix;
			return -EPROTO;
		}
	}
	return 0;
}

int figures_source(const struct f2fs_mount *m)
{
	static struct stats s;
	const char *what;
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/sys/kernel/debug/f2fs/%s/stats", m->name);
	if (access(p, R_OK) == 0)
		return SRC_OURS;
	if (status_read(m, &s, &what) != -ENOENT && access("/sys/kernel/debug/f2fs/status", R_OK) == 0)
		return SRC_STOCK;
	return 0;
}

int figures_read(const char *prog, int src, const struct f2fs_mount *m, struct stats *s)
{
	const char *what;
	int err;

	if (src == SRC_OURS) {
		err = stats_read(m, s);
		if (err)
			fprintf(stderr, "%s: cannot read /sys/kernel/debug/f2fs/%s/stats: %s\n",
				prog, m->name, strerror(-err));
		return err;
	}
	err = status_read(m, s, &what);
	if (err == -EPROTO)
		fprintf(stderr, "%s: /sys/kernel/debug/f2fs/status: the '%s' line of %s is missing or unreadable (not the layout of Debian 6.1's stock f2fs)\n",
			prog, what, m->name);
	else if (err == -ENOENT)
		fprintf(stderr, "%s: /sys/kernel/debug/f2fs/status has no section for %s (unmounted?)\n",
			prog, m->name);
	else if (err)
		fprintf(stderr, "%s: cannot read /sys/kernel/debug/f2fs/status: %s\n",
			prog, strerror(-err));
	return err;
}

int read_sb(const struct f2fs_mount *m, struct sb_geo *g)
{
	unsigned char sb[1024];
	char p[300];
	int fd, ok;

	snprintf(p, sizeof(p), "/dev/%s", m->name);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	ok = pread(fd, sb, sizeof(sb), 1024) == sizeof(sb);
	close(fd);
	if (!ok || *(__u32 *)sb != 0xF2F52010)
		return -1;
	g->log_blocks_per_seg = *(__u32 *)(sb + 20);
	g->nat_blkaddr = *(__u32 *)(sb + 84);
	g->nat_blocks = *(__u32 *)(sb + 60) << g->log_blocks_per_seg;	/* segment_count_nat */
	g->main_blkaddr = *(__u32 *)(sb + 92);
	g->segs_per_sec = *(__u32 *)(sb + 24);
	g->main_segs = *(__u32 *)(sb + 68);	/* segment_count_main */
	return g->log_blocks_per_seg >= 1 && g->log_blocks_per_seg <= 20 &&
	       g->segs_per_sec >= 1 ? 0 : -1;
}

bool stat_has(const struct stats *s, const char *key)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return true;
	return false;
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

void json_source(int src, const char *const *unavailable)
{
	int sep = 0;

	printf(",\"source\":\"%s\",\"unavailable\":[", src_names[src]);
	for (; unavailable && *unavailable; unavailable++)
		printf("%s\"%s\"", sep++ ? "," : "", *unavailable);
	printf("]");
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

void ssr_diff(struct ssr_totals *d, const struct ssr_totals *now, const struct ssr_totals *prev)
{
	int i;

	d->chosen = now->chosen - prev->chosen;
	for (i = 0; i < 6; i++) {
		d->victims[i] = now->victims[i] - prev->victims[i];
		d->valid[i] = now->valid[i] - prev->valid[i];
		d->reusable[i] = now->reusable[i] - prev->reusable[i];
		d->other_type[i] = now->other_type[i] - prev->other_type[i];
	}
	d->pending = now->pending;
	d->lost = now->lost - prev->lost;
}

const char *ssr_logs_text(const unsigned long long v[6])
{
	static char buf[256];
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < 6; i++)
		if (v[i] && n < sizeof(buf))
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s %llu", n ? ", " : "",
				      log_names[i], v[i]);
	return n ? buf : "none";
}

const char *avg_text(bool known, unsigned long long v, unsigned long long n)
{
	static char bufs[8][32];
	static int k;
	char *b = bufs[k++ & 7];

	if (!known)
		return "n/a";
	snprintf(b, sizeof(bufs[0]), "%.0f", n ? (double)v / n : 0.0);
	return b;
}

const char *const ssr_stock_na[] = { "ssr.logs.*.avg_valid", "ssr.logs.*.avg_reusable", NULL };

void ssr_json(int src, const struct ssr_totals *d)
{
	bool stock = src == SRC_STOCK;
	int i;

	printf("\"ssr\":{\"victims\":%llu,\"logs\":{", (unsigned long long)d->chosen);
	for (i = 0; i < 6; i++) {
		unsigned long long n = d->victims[i];

		printf("%s\"%s\":{\"victims\":%llu,", i ? "," : "", log_names[i], n);
		if (stock)
			printf("\"avg_valid\":null,\"avg_ckpt_valid\":%.1f,\"avg_reusable\":null",
			       n ? (double)d->valid[i] / n : 0.0);
		else
			printf("\"avg_valid\":%.1f,\"avg_reusable\":%.1f",
			       n ? (double)d->valid[i] / n : 0.0,
			       n ? (double)d->reusable[i] / n : 0.0);
		printf(",\"other_type\":%llu}", (unsigned long long)d->other_type[i]);
	}
	printf("}");
	if (stock)
		printf(",\"pending\":%lld,\"lost\":%llu", (long long)d->pending,
		       (unsigned long long)d->lost);
	printf("}");
}
