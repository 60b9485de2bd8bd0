// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-top - the state of one f2fs per interval: utilisation and segment
 * counts, blocks per second of each log (LFS against SSR), GC, checkpoints,
 * NAT/SIT flushes and the extent-cache hit ratio.  Everything comes from
 * /sys/kernel/debug/f2fs/<dev>/stats; BPF (the f2fs_cp_end event) adds the
 * maximum checkpoint latency of each interval.  Without BPF it still runs,
 * with fewer figures, and says so.  On a terminal it is a full-screen view
 * (plain ANSI escapes and termios; keys q, d, s); -b prints plain lines and
 * -j one JSON object per interval.
 */
#include <argp.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
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
"USAGE: f2fs-top [-b|-j] [-h] [-v] [-n] [-d DEV] [interval] [count]\n"
"\n"
"On a terminal, without -b or -j, a full-screen view refreshed every\n"
"interval; keys: q quits, d shows the next f2fs mounted, s changes the\n"
"order of the logs (fixed, by blocks/s, by segments/s).  Not on a\n"
"terminal, it prints plain lines as with -b.\n"
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

/* Load and attach the BPF part for @m; NULL (and *why) when it cannot. */
static struct f2fs_top_bpf *bpf_start(const struct f2fs_mount *m, char *why, size_t wl)
{
	struct f2fs_top_bpf *skel;
	int err;

	if (!event_exists("f2fs_cp_end")) {
		snprintf(why, wl, "no f2fs_cp_end trace event");
		return NULL;
	}
	skel = f2fs_top_bpf__open();
	if (!skel) {
		snprintf(why, wl, "cannot open the BPF object");
		return NULL;
	}
	skel->rodata->targ_dev = m->kdev;
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

/* ---- full screen --------------------------------------------------------- */

static struct termios saved_tio;
static bool tio_saved;
static char scr[16384];
static size_t scr_len;

static void sp(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (scr_len >= sizeof(scr))
		return;
	va_start(ap, fmt);
	n = vsnprintf(scr + scr_len, sizeof(scr) - scr_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		scr_len += (size_t)n < sizeof(scr) - scr_len ? (size_t)n : sizeof(scr) - scr_len - 1;
}

static void screen_flush(void)
{
	size_t off = 0;
	ssize_t w;

	while (off < scr_len) {
		w = write(STDOUT_FILENO, scr + off, scr_len - off);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0)
			off += w;
	}
	scr_len = 0;
}

static void term_restore(void)
{
	if (!tio_saved)
		return;
	sp("\033[0m\033[?25h\033[?1049l");
	screen_flush();
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	tio_saved = false;
}

static void term_setup(void)
{
	struct termios t;

	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_tio) == 0) {
		tio_saved = true;
		t = saved_tio;
		t.c_lflag &= ~(ICANON | ECHO);
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &t);
	}
	sp("\033[?1049h\033[?25l\033[H\033[2J");
	screen_flush();
}

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

static int log_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	const struct view *v = sort_view;
	unsigned long long kx, ky;

	if (sort_mode == 1) {
		kx = v->lfs[x] + v->ssr[x];
		ky = v->lfs[y] + v->ssr[y];
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

static void draw(const struct f2fs_mount *m, int idx, int nm, const struct view *v,
		 const char *why, bool first)
{
	double t = v->secs > 0 ? v->secs : 1, max = 0;
	int order[6], i, k;

	sp("\033[H\033[2J");
	sp("\033[1mf2fs-top\033[0m  %s on %s (%d of %d f2fs)  %s  every %d s  %s\r\n",
	   m->name, m->dir, idx + 1, nm, now_hms(), env.interval,
	   v->bpf ? "[BPF + debugfs]" : "");
	if (!v->bpf)
		sp("\033[33m[debugfs only: %s] no per-interval checkpoint maximum\033[0m\r\n", why);
	sp("\r\n");
	TITLE("SPACE");
	sp("util %3llu%% ", v->util_pct);
	bar((double)v->util_pct, 0, 100, 40);
	sp(" %llu of %llu blocks\r\n", v->valid_blocks, v->user_blocks);
	sp("%15ssegments: %llu main, %llu free, %llu dirty, %llu prefree, %llu full\r\n",
	   "", v->main_segs, v->free_segs, v->dirty_segs, v->prefree_segs, v->valid_segs);
	sp("\r\n");
	TITLE("LOGS");
	sp("%-10s %10s %10s %7s  %-42s sort: %s\r\n", "log", "LFS blk/s", "SSR blk/s",
	   "segs/s", "# LFS  + SSR", sort_names[sort_mode]);
	for (i = 0; i < 6; i++) {
		order[i] = i;
		if ((v->lfs[i] + v->ssr[i]) / t > max)
			max = (v->lfs[i] + v->ssr[i]) / t;
	}
	sort_view = v;
	qsort(order, 6, sizeof(order[0]), log_cmp);
	for (k = 0; k < 6; k++) {
		i = order[k];
		sp("%14s%-10s %10.0f %10.0f %7.1f  ", "", log_names[i], v->lfs[i] / t,
		   v->ssr[i] / t, v->segs[i] / t);
		bar(v->lfs[i] / t, v->ssr[i] / t, max, 40);
		sp("\r\n");
	}
	sp("\r\n");
	TITLE("GC");
	sp("passes %.1f fg/s, %.1f bg/s; victims greedy %llu, cost-benefit %llu; avg victim util %llu%%\r\n",
	   v->gc_fg / t, v->gc_bg / t, v->vic_greedy, v->vic_cb, v->vic_util_pct);
	sp("%15smoved %.0f blk/s; write amplification %.2f (interval)\r\n", "", v->moved / t, v->wa);
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
	sp("\r\n\033[2mq quit   d next device   s sort logs%s\033[0m\r\n",
	   first ? "   (first interval running...)" : "");
	screen_flush();
}

static int run_screen(struct f2fs_mount *ms, int nm, int cur)
{
	static struct stats s, ps;
	struct f2fs_top_bpf *skel = NULL;
	struct top_totals prev = {}, now;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char why[128] = "-n given";
	struct view v;
	double t0, t1, next;
	bool reload = true, redraw;
	int err = 0;
	char c;

	term_setup();
	while (!exiting) {
		if (reload) {
			f2fs_top_bpf__destroy(skel);
			skel = no_bpf ? NULL : bpf_start(&ms[cur], why, sizeof(why));
			memset(&prev, 0, sizeof(prev));
			if (stats_read(&ms[cur], &ps)) {
				term_restore();
				fprintf(stderr, "f2fs-top: cannot read /sys/kernel/debug/f2fs/%s/stats\n",
					ms[cur].name);
				err = 1;
				break;
			}
			t0 = mono();
			memset(&v, 0, sizeof(v));
			compute(&v, &ps, &ps);
			v.bpf = skel != NULL;
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
					sort_mode = (sort_mode + 1) % 3;
					redraw = true;
				}
			} else if (pfd.revents & (POLLHUP | POLLERR)) {
				exiting = true;
			}
		}
		if (exiting || reload)
			continue;
		if (redraw && mono() < next) {
			draw(&ms[cur], cur, nm, &v, why, false);
			continue;
		}
		if (stats_read(&ms[cur], &s)) {
			term_restore();
			fprintf(stderr, "f2fs-top: %s was unmounted\n", ms[cur].name);
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
	struct top_totals prev = {}, now;
	struct f2fs_mount m;
	struct view v;
	double t0, t1;
	int err, nm, cur = 0, i;
	char why[128];

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
		skel = bpf_start(&m, why, sizeof(why));
		if (!skel)
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
