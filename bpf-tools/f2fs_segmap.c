// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-segmap - a live map of the segments of one f2fs: one cell per
 * segment (or per group of segments on a large device), coloured by the
 * log that owns it, shaded by its valid blocks, with each log's current
 * segment and this interval's GC and SSR victims marked, and beside it
 * what cleaning cost in the interval (blocks written by LFS and SSR, GC
 * passes, victims, blocks moved, write amplification, SSR victims per log).
 *
 * Usage: f2fs-segmap [-b|-j] [-N] [-w CELLS] [-g SEGS] [-d DEV] [interval [count]]
 *
 * Sources.  At start, /proc/fs/f2fs/<dev>/segment_bits (type, valid
 * blocks and validity bitmap of every main-area segment, in the stock
 * module's layout, which ours also writes: fs-f2fs/procfs.c); a bitmap
 * whose bits do not add up to its count is reported.  Every interval,
 * /proc/fs/f2fs/<dev>/segment_info (type and valid blocks, cheap) and the
 * current segment of each log (ours: curseg_<log> in <dev>/stats; stock:
 * the per-log lines of the debugfs status file).  In between, BPF records
 * of each event in a ring buffer (f2fs_segmap.bpf.c): ours, a log opening
 * a segment (f2fs_segment_alloc), an SSR victim (f2fs_ssr_victim) and a GC
 * victim (f2fs_gc_victim); stock, f2fs_get_victim (GC with alloc_mode
 * LFS, else SSR).  SSR victims per log: ssr.bpf.h.  The cleaning figures
 * are debugfs counters (ours: <dev>/stats; stock: the status file, which
 * has no blocks actually moved by GC, so no write amplification: n/a).
 *
 * Output.  On a terminal (without -b or -j) a full screen redrawn every
 * interval and at once on a resize; q quits, n switches colours and
 * letters.  Cells in colour: the glyph of the valid blocks (' ' none,
 * then . : - = + * # % @ up to full) in the colour of the segment's log;
 * a current segment in reverse video; 'G' a GC victim and 'S' an SSR
 * victim of this interval.  In letters (-N, and always with -b or off a
 * terminal): two characters per cell, the log (h w c data, H W C node:
 * hot, warm, cold; blank when free) then the glyph, or '>' for a current
 * segment, 'S' or 'G' for a victim.  -j: one JSON object per interval with
 * "segments" ([type, valid] of every segment), "cursegs", "opened" (ours),
 * "gc_victims", "ssr_victims", "totals", "cleaning" (with "ssr" as in
 * f2fs-gc), "events_lost", "source" and "unavailable".
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "screen.h"
#include "f2fs_segmap.h"
#include "f2fs_segmap.skel.h"

struct common_env env = { .interval = 1, .count = -1 };
static bool batch, letters, screen;
static int opt_width, opt_group;	/* -w, -g; 0: fit */

const char *argp_program_version = "f2fs-segmap 0.1";
static const char doc[] =
"A live map of the segments of an f2fs: one cell per segment (or group),\n"
"coloured by owning log, shaded by valid blocks, current segments and this\n"
"interval's GC and SSR victims marked, with the cleaning cost beside it.\n"
"Works with our f2fs module and with the stock one (segment_info and its\n"
"tracepoints; what it cannot give shows as n/a).\n"
"\n"
"USAGE: f2fs-segmap [-b|-j] [-h] [-v] [-N] [-w CELLS] [-g SEGS] [-d DEV] [interval] [count]\n"
"\n"
"On a terminal, without -b or -j, a full screen refreshed every interval\n"
"(default 1 s); keys: q quits, n switches colours and letters.\n"
"\n"
"EXAMPLES:\n"
"    f2fs-segmap             # full screen, every second\n"
"    f2fs-segmap -N 5        # letters instead of colours, every 5 seconds\n"
"    f2fs-segmap -b 2 3      # plain text maps, every 2 seconds, 3 times\n"
"    f2fs-segmap -j 1 1      # one JSON snapshot after a second\n"
"    f2fs-segmap -w 40 -g 4  # 40 cells a row, 4 segments a cell\n"
"    f2fs-segmap -d /mnt/x   # the f2fs mounted on /mnt/x\n";

static const struct argp_option opts[] = {
	{ "batch", 'b', NULL, 0, "Plain text maps (letters), no terminal control" },
	{ "no-color", 'N', NULL, 0, "Letters instead of colours" },
	{ "width", 'w', "CELLS", 0, "Cells per row (default: 64 in colour, 32 in letters, fitted to the terminal)" },
	{ "group", 'g', "SEGS", 0, "Segments per cell (default: a section, more when over 32 rows)" },
	{},
};
static const struct argp_child children[] = { { &common_argp, 0, NULL, 0 }, {} };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;
	long v;

	switch (key) {
	case 'b':
		batch = true;
		break;
	case 'N':
		letters = true;
		break;
	case 'w':
	case 'g':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v < 1 || v > (key == 'w' ? 1000 : 1 << 20))
			argp_error(state, "invalid %s '%s'", key == 'w' ? "cells per row" : "segments per cell", arg);
		if (key == 'w')
			opt_width = (int)v;
		else
			opt_group = (int)v;
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

/* ---- the map ---------------------------------------------------------------- */

enum { MK_GC = 1, MK_SSR = 2 };		/* marks of this interval */

static int src;
static struct f2fs_mount mnt;
static struct sb_geo geo;
static unsigned int nsegs, bps;		/* main segments, blocks per segment */
static unsigned char *stype, *smark;
static unsigned short *svalid;
static long long cursegs[6];		/* -1: not known */

/* The victims of the interval, as the events gave them. */
#define MAX_LISTED 1000
static struct sm_event *gcv, *ssrv;
static unsigned int ngc, nssr, gc_more, ssr_more;
static unsigned long long opened[6][2];	/* ours: segments opened per log, LFS/SSR */

static const char glyphs[] = " .:-=+*#%@";
static const char log_letters[] = "hwcHWC";
static const int log_colours[6] = { 31, 33, 34, 35, 32, 36 };

/*
 * The glyph of @v valid blocks out of @cap: ' ' none, '@' all, and
 * between them . : - = + * # % in ninths of @cap ('%' up to one block
 * short of full, so that '@' is only ever full).
 */
static char glyph(unsigned long long v, unsigned long long cap)
{
	unsigned long long i;

	if (!v || !cap)
		return ' ';
	if (v >= cap)
		return '@';
	i = 1 + (v - 1) * 9 / cap;
	return glyphs[i > 8 ? 8 : i];
}

static FILE *proc_open(const char *file)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/proc/fs/f2fs/%s/%s", mnt.name, file);
	return fopen(p, "r");
}

/*
 * Read segment_info (@bits false: "type|valid", ten to a line, each line
 * led by its first segment) or segment_bits (one line per segment:
 * number, "type|valid|", 64 bitmap bytes in hex) into stype/svalid.
 * Returns the number of segments, -1 (with a message) on a bad file.
 * @bad counts the segments whose bitmap does not add up to their count.
 */
static int read_segments(bool bits, unsigned int *bad)
{
	const char *file = bits ? "segment_bits" : "segment_info";
	char line[1024], *tok, *save, *bar;
	unsigned int n = 0, base, t, v, i, set, ln = 0;
	unsigned long byte;
	FILE *f = proc_open(file);

	if (!f) {
		fprintf(stderr, "f2fs-segmap: cannot read /proc/fs/f2fs/%s/%s: %s\n", mnt.name,
			file, strerror(errno));
		return -1;
	}
	*bad = 0;
	while (fgets(line, sizeof(line), f)) {
		if (++ln <= 2)
			continue;	/* the two header lines */
		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		if (sscanf(tok, "%u", &base) != 1 || base != n)
			goto bad;
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			if (sscanf(tok, "%u|%u", &t, &v) != 2 || !(bar = strchr(tok, '|')))
				goto bad;
			if (n >= nsegs || v > bps)
				goto bad;
			stype[n] = t > 255 ? 255 : t;
			svalid[n] = v;
			n++;
			if (!bits)
				continue;
			for (i = 0, set = 0; i < bps / 8 && (tok = strtok_r(NULL, " \t\n", &save)); i++) {
				byte = strtoul(tok, NULL, 16);
				set += __builtin_popcountl(byte & 0xff);
			}
			if (i != bps / 8)
				goto bad;
			if (set != v)
				(*bad)++;
			break;
		}
	}
	fclose(f);
	if (n != nsegs) {
		fprintf(stderr, "f2fs-segmap: /proc/fs/f2fs/%s/%s has %u segments, the superblock %u main segments%s\n",
			mnt.name, file, n, nsegs, n ? "" : " (a mount that never was writable shows none)");
		return -1;
	}
	return (int)n;
bad:
	fclose(f);
	fprintf(stderr, "f2fs-segmap: /proc/fs/f2fs/%s/%s: line %u is not in the stock layout\n",
		mnt.name, file, ln);
	return -1;
}

/* Each log's current segment from the debugfs figures (both modules name it curseg_<log>). */
static void read_cursegs(const struct stats *s)
{
	char k[64];
	int i;

	for (i = 0; i < 6; i++) {
		snprintf(k, sizeof(k), "curseg_%s", log_names[i]);
		cursegs[i] = stat_has(s, k) ? (long long)stat_get(s, k) : -1;
	}
}

/* The log whose current segment @segno is, or -1. */
static int curseg_of(unsigned int segno)
{
	int i;

	for (i = 0; i < 6; i++)
		if (cursegs[i] == (long long)segno)
			return i;
	return -1;
}

static void list_add(struct sm_event *list, unsigned int *n, unsigned int *more,
		     const struct sm_event *e)
{
	if (*n < MAX_LISTED)
		list[(*n)++] = *e;
	else
		(*more)++;
}

static int on_event(void *ctx, void *data, size_t len)
{
	const struct sm_event *e = data;
	unsigned int s, first;

	(void)ctx;
	if (len < sizeof(*e) || e->segno >= nsegs)
		return 0;
	switch (e->kind) {
	case SM_OPEN:
		if (e->log >= 0 && e->log < 6) {
			opened[e->log][e->mode ? 1 : 0]++;
			cursegs[e->log] = e->segno;	/* debugfs confirms it at the interval's end */
		}
		break;
	case SM_SSR:
		smark[e->segno] |= MK_SSR;
		list_add(ssrv, &nssr, &ssr_more, e);
		break;
	case SM_GC:
		first = e->segno / geo.segs_per_sec * geo.segs_per_sec;
		for (s = first; s < first + geo.segs_per_sec && s < nsegs; s++)
			smark[s] |= MK_GC;
		list_add(gcv, &ngc, &gc_more, e);
		break;
	}
	return 0;
}

/* ---- cleaning figures of the interval ------------------------------------------ */

struct cleaning {
	double secs;
	unsigned long long lfs, ssr, written, moved, gc_fg, gc_bg, victims, freed;
	unsigned long long calls, tried;	/* stock: status GC calls, blocks tried */
	bool moved_known;
	double wa;
	struct ssr_totals ssr_d;
	unsigned long long lost;
};

static void cleaning(struct cleaning *c, const struct stats *s, const struct stats *p)
{
	char k[64];
	int i;

#define DT(key) stat_delta(s, p, key)
	if (src == SRC_STOCK) {
		c->lfs = DT("lfs_blocks");
		c->ssr = DT("ssr_blocks");
		c->calls = DT("gc_calls");
		c->tried = DT("gc_tried");
	} else {
		for (i = 0; i < 6; i++) {
			snprintf(k, sizeof(k), "lfs_blocks_%s", log_names[i]);
			c->lfs += DT(k);
			snprintf(k, sizeof(k), "ssr_blocks_%s", log_names[i]);
			c->ssr += DT(k);
		}
		c->moved_known = true;
		c->moved = DT("gc_data_moved") + DT("gc_node_moved");
		c->gc_fg = DT("gc_calls_fg");
		c->gc_bg = DT("gc_calls_bg");
		c->freed = DT("gc_secs_freed");
	}
#undef DT
	c->victims = ngc + gc_more;
	c->written = c->lfs + c->ssr;
	/* the blocks GC moved are written too: the user's are the rest */
	c->wa = c->written > c->moved ? (double)c->written / (c->written - c->moved) : 1.0;
}

/* ---- output --------------------------------------------------------------------- */

static void json_victims(void)
{
	unsigned int i;

	printf(",\"gc_victims\":[");
	for (i = 0; i < ngc; i++) {
		printf("%s{\"segno\":%u,\"secno\":%u,\"gc_type\":\"%s\",\"policy\":\"%s\",\"valid\":",
		       i ? "," : "", gcv[i].segno, gcv[i].segno / geo.segs_per_sec,
		       gc_type_names[gcv[i].mode & 1],
		       gc_policy_names[gcv[i].policy < 3 ? gcv[i].policy : 0]);
		if (gcv[i].valid >= 0)
			printf("%d}", gcv[i].valid);
		else
			printf("null}");
	}
	printf("],\"gc_victims_more\":%u,\"ssr_victims\":[", gc_more);
	for (i = 0; i < nssr; i++) {
		const struct sm_event *e = &ssrv[i];
		const char *st = e->seg_type >= 0 && e->seg_type < 6 ? log_names[e->seg_type] : "?";

		printf("%s{\"segno\":%u,", i ? "," : "", e->segno);
		if (src == SRC_STOCK)
			printf("\"log\":null,\"seg_type\":\"%s\",\"valid\":null,\"ckpt_valid\":%d,\"reusable\":null}",
			       st, e->valid);
		else
			printf("\"log\":\"%s\",\"seg_type\":\"%s\",\"valid\":%d,\"reusable\":%d}",
			       e->log >= 0 && e->log < 6 ? log_names[e->log] : "?", st, e->valid,
			       e->reusable);
	}
	printf("],\"ssr_victims_more\":%u", ssr_more);
}

struct seg_totals {
	unsigned long long valid, free, full, partial;
};

static void seg_totals(struct seg_totals *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nsegs; i++) {
		t->valid += svalid[i];
		if (!svalid[i] && curseg_of(i) < 0)
			t->free++;
		else if (svalid[i] >= bps)
			t->full++;
		else
			t->partial++;
	}
}

static void print_json(const struct cleaning *c)
{
	static const char *const stock_na[] = { "opened", "ssr_victims.*.log",
		"ssr_victims.*.valid", "ssr_victims.*.reusable", "cleaning.gc_passes",
		"cleaning.gc_moved", "cleaning.secs_freed", "cleaning.write_amp",
		"cleaning.ssr.logs.*.avg_valid", "cleaning.ssr.logs.*.avg_reusable", NULL };
	struct seg_totals t;
	unsigned int i;
	int l;

	seg_totals(&t);
	printf("{\"time\":\"%s\",\"dev\":\"%s\",\"seconds\":%.3f", now_hms(), mnt.name, c->secs);
	json_source(src, src == SRC_STOCK ? stock_na : NULL);
	printf(",\"blocks_per_seg\":%u,\"segs_per_sec\":%u,\"main_segs\":%u,\"segments\":[",
	       bps, geo.segs_per_sec, nsegs);
	for (i = 0; i < nsegs; i++)
		printf("%s[%u,%u]", i ? "," : "", stype[i], svalid[i]);
	printf("],\"cursegs\":{");
	for (l = 0; l < 6; l++) {
		printf("%s\"%s\":", l ? "," : "", log_names[l]);
		if (cursegs[l] >= 0)
			printf("%lld", cursegs[l]);
		else
			printf("null");
	}
	printf("},\"opened\":");
	if (src == SRC_STOCK) {
		printf("null");
	} else {
		for (l = 0; l < 6; l++)
			printf("%s\"%s\":{\"lfs\":%llu,\"ssr\":%llu}", l ? "," : "{", log_names[l],
			       opened[l][0], opened[l][1]);
		printf("}");
	}
	json_victims();
	printf(",\"totals\":{\"valid_blocks\":%llu,\"util_pct\":%llu,\"free\":%llu,\"full\":%llu,\"partial\":%llu}",
	       t.valid, t.valid * 100 / ((unsigned long long)nsegs * bps), t.free, t.full, t.partial);
	printf(",\"cleaning\":{\"written\":%llu,\"lfs_blocks\":%llu,\"ssr_blocks\":%llu,\"gc_victims\":%llu,",
	       c->written, c->lfs, c->ssr, c->victims);
	if (src == SRC_STOCK)
		printf("\"gc_passes\":null,\"gc_calls\":%llu,\"gc_tried\":%llu,\"gc_moved\":null,"
		       "\"secs_freed\":null,\"write_amp\":null,", c->calls, c->tried);
	else
		printf("\"gc_passes\":{\"fg\":%llu,\"bg\":%llu},\"gc_moved\":%llu,\"secs_freed\":%llu,"
		       "\"write_amp\":%.2f,", c->gc_fg, c->gc_bg, c->moved, c->freed, c->wa);
	ssr_json(src, &c->ssr_d);
	printf("},\"events_lost\":%llu}\n", c->lost);
	fflush(stdout);
}

/* The layout of the grid: cells per row, segments per cell, rows. */
struct layout {
	int cw;		/* characters per cell: 1 colour, 2 letters */
	int per_row;
	unsigned int group;
	unsigned int cells, rows;
	bool beside;	/* the panel beside the grid (else below) */
};

#define PANEL_W 62

static void plan(struct layout *lo, bool colour)
{
	int width = opt_width ? opt_width : colour ? 64 : 32;

	lo->cw = colour ? 1 : 2;
	if (screen && !opt_width && 9 + width * lo->cw > term_cols)
		width = (term_cols - 9) / lo->cw;
	lo->per_row = width < 4 ? 4 : width;
	lo->group = opt_group ? (unsigned int)opt_group : geo.segs_per_sec;
	/* one cell per section; on a large device, more, so that it fits in 32 rows */
	while (!opt_group && (nsegs + lo->group - 1) / lo->group > (unsigned int)lo->per_row * 32)
		lo->group *= 2;
	lo->cells = (nsegs + lo->group - 1) / lo->group;
	lo->rows = (lo->cells + lo->per_row - 1) / lo->per_row;
	lo->beside = screen && 9 + lo->per_row * lo->cw + 2 + PANEL_W <= term_cols;
}

/* Cell @c: its log (-1 free, 6 unknown type), valid blocks, marks, current log. */
static void cell(const struct layout *lo, unsigned int c, int *log, unsigned long long *valid,
		 unsigned long long *cap, int *mark, int *cur)
{
	unsigned int s, first = c * lo->group, last = first + lo->group, best = 0;
	int k;

	*log = -1;
	*valid = *cap = 0;
	*mark = 0;
	*cur = -1;
	for (s = first; s < last && s < nsegs; s++) {
		*valid += svalid[s];
		*cap += bps;
		*mark |= smark[s];
		k = curseg_of(s);
		if (k >= 0)
			*cur = k;
		if (svalid[s] > best || (k >= 0 && *log < 0)) {
			best = svalid[s];
			*log = stype[s] < 6 ? stype[s] : 6;
		}
	}
	if (*cur >= 0 && !*valid)
		*log = *cur;
}

static void draw_cell(const struct layout *lo, unsigned int c, bool colour)
{
	unsigned long long v, cap;
	int log, mark, cur;
	char g;

	cell(lo, c, &log, &v, &cap, &mark, &cur);
	g = glyph(v, cap);
	if (!colour) {
		char l = log < 0 ? ' ' : log < 6 ? log_letters[log] : '?';

		if (mark & MK_GC)
			g = 'G';
		else if (mark & MK_SSR)
			g = 'S';
		else if (cur >= 0)
			g = '>';
		sp("%c%c", l, g);
		return;
	}
	if (mark & MK_GC)
		sp("\033[1;97;41mG\033[0m");
	else if (mark & MK_SSR)
		sp("\033[1;30;47mS\033[0m");
	else if (cur >= 0)
		sp("\033[7;%dm%c\033[0m", log_colours[cur], g);
	else if (log < 0 || !v)
		sp(" ");
	else if (log < 6)
		sp("\033[%dm%c\033[0m", log_colours[log], g);
	else
		sp("%c", g);
}

/* The panel's lines: the cleaning of the interval, current segments, victims. */
#define PANEL_LINES 24
static char panel[PANEL_LINES][160];
static int npanel;

static void pl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void pl(const char *fmt, ...)
{
	va_list ap;

	if (npanel >= PANEL_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(panel[npanel++], sizeof(panel[0]), fmt, ap);
	va_end(ap);
}

static void build_panel(const struct cleaning *c)
{
	const struct ssr_totals *d = &c->ssr_d;
	bool stock = src == SRC_STOCK;
	unsigned long long sum_valid = 0, sum_reu = 0, sum_vic = 0;
	char buf[160];
	size_t n = 0;
	unsigned int i;
	int l;

	npanel = 0;
	pl("CLEANING in %.1f s", c->secs);
	pl(" written   %llu blk: LFS %llu, SSR %llu", c->written, c->lfs, c->ssr);
	if (stock) {
		pl(" GC        %llu victims; %llu cleaned (status), tried to move %llu blk", c->victims,
		   c->calls, c->tried);
		pl(" WA        n/a (needs our module)");
	} else {
		pl(" GC        %llu passes (fg %llu, bg %llu), %llu victims", c->gc_fg + c->gc_bg,
		   c->gc_fg, c->gc_bg, c->victims);
		pl("           moved %llu blk, %llu sections freed", c->moved, c->freed);
		if (c->secs)
			pl(" WA        %.2f (written / (written - moved))", c->wa);
		else
			pl(" WA        - (written / (written - moved))");
	}
	for (l = 0; l < 6; l++) {
		sum_vic += d->victims[l];
		sum_valid += d->valid[l];
		sum_reu += d->reusable[l];
	}
	pl(" SSR       %llu victims: %s", (unsigned long long)d->chosen, ssr_logs_text(d->victims));
	pl("           avg %s %s blk, reusable %s blk", stock ? "ckpt valid" : "valid",
	   avg_text(true, sum_valid, sum_vic), avg_text(!stock, sum_reu, sum_vic));
	pl("CURRENT SEGMENTS");
	for (l = 0; l < 6; l += 3)
		pl(" %-9s %-6lld %-9s %-6lld %-9s %lld", log_names[l], cursegs[l],
		   log_names[l + 1], cursegs[l + 1], log_names[l + 2], cursegs[l + 2]);
	pl("VICTIMS (this interval)");
	for (i = 0, buf[0] = 0; i < ngc && i < 6; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? ", " : "", gcv[i].segno);
	pl(" GC  %s%s", ngc ? buf : "none", ngc + gc_more > 6 ? ", ..." : "");
	for (i = 0, n = 0, buf[0] = 0; i < nssr && i < 6; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? ", " : "", ssrv[i].segno);
	pl(" SSR %s%s", nssr ? buf : "none", nssr + ssr_more > 6 ? ", ..." : "");
	if (c->lost)
		pl(" (%llu events lost: the ring buffer was full)", c->lost);
}

static void legend(bool colour, const char *nl)
{
	int l;

	if (colour) {
		sp(" logs:");
		for (l = 0; l < 6; l++)
			sp(" \033[%dm%c %s\033[0m", log_colours[l], glyphs[9], log_names[l]);
		sp("%s valid: ' ' none . : - = + * # %% @ full   \033[7mx\033[0m current segment, "
		   "\033[1;97;41mG\033[0m GC victim, \033[1;30;47mS\033[0m SSR victim (this interval)%s",
		   nl, nl);
		return;
	}
	sp(" logs: h hot_data  w warm_data  c cold_data  H hot_node  W warm_node  C cold_node%s", nl);
	sp(" then valid: ' ' none . : - = + * # %% @ full, or > current segment, G GC victim, S SSR victim (this interval)%s",
	   nl);
}

/* One frame: header, grid (with the panel beside or below), legend. */
static void frame(const struct cleaning *c, bool colour, const char *nl)
{
	struct seg_totals t;
	struct layout lo;
	unsigned int r, k, lines;

	plan(&lo, colour);
	seg_totals(&t);
	build_panel(c);
	if (screen)
		sp("\033[H\033[2J");
	sp("%sf2fs-segmap%s  %s on %s  %s  every %d s  [%s f2fs]%s", screen ? "\033[1m" : "",
	   screen ? "\033[0m" : "", mnt.name, mnt.dir, now_hms(), env.interval,
	   src_names[src], nl);
	sp("%u segments of %u blocks, %u a cell; util %llu%% (%llu valid blocks); %llu free, %llu full, %llu partly valid%s%s",
	   nsegs, bps, lo.group, t.valid * 100 / ((unsigned long long)nsegs * bps), t.valid,
	   t.free, t.full, t.partial, nl, nl);
	lines = lo.beside && (unsigned int)npanel > lo.rows ? (unsigned int)npanel : lo.rows;
	for (r = 0; r < lines; r++) {
		if (r < lo.rows) {
			sp("%7u |", r * lo.per_row * lo.group);
			for (k = 0; k < (unsigned int)lo.per_row; k++) {
				if (r * lo.per_row + k < lo.cells)
					draw_cell(&lo, r * lo.per_row + k, colour);
				else
					sp("%*s", lo.cw, "");
			}
			sp("|");
		} else {
			sp("%*s", 9 + lo.per_row * lo.cw, "");
		}
		if (lo.beside && r < (unsigned int)npanel)
			sp("  %s", panel[r]);
		sp("%s", nl);
	}
	legend(colour, nl);
	if (!lo.beside) {
		sp("%s", nl);
		for (r = 0; r < (unsigned int)npanel; r++)
			sp("%s%s", panel[r], nl);
	}
	if (screen)
		sp("%s\033[2mq quit   n %s%s\033[0m%s", nl, colour ? "letters" : "colours",
		   c->secs ? "" : "   (first interval running...)", nl);
	else
		sp("%s", nl);
	screen_flush();
}

/* ---- main -------------------------------------------------------------------------- */

static struct f2fs_segmap_bpf *skel;
static struct ring_buffer *rb;

/* Wait until @until (monotonic seconds), taking events and keys; false: quit. */
static bool wait_interval(double until, const struct cleaning *last)
{
	struct pollfd pfd[2] = { { .fd = ring_buffer__epoll_fd(rb), .events = POLLIN },
				 { .fd = STDIN_FILENO, .events = POLLIN } };
	int nfd = screen ? 2 : 1;
	char ch;

	while (!exiting) {
		int left = (int)((until - mono()) * 1000);

		if (left <= 0)
			break;
		if (poll(pfd, nfd, left > 200 ? 200 : left) > 0) {
			ring_buffer__consume(rb);
			if (screen && (pfd[1].revents & POLLIN) && read(STDIN_FILENO, &ch, 1) == 1) {
				if (ch == 'q' || ch == 'Q' || ch == 3)
					return false;
				if (ch == 'n') {
					letters = !letters;
					frame(last, !letters, "\n");
				}
			} else if (screen && (pfd[1].revents & (POLLHUP | POLLERR))) {
				return false;
			}
		}
		if (screen && resized) {
			resized = 0;
			term_size();
			frame(last, !letters, "\n");
		}
	}
	ring_buffer__consume(rb);
	return !exiting;
}

static void reset_interval(void)
{
	memset(smark, 0, nsegs);
	ngc = nssr = gc_more = ssr_more = 0;
	memset(opened, 0, sizeof(opened));
}

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, "[interval] [count]", doc, children };
	static const char *const ours[] = { "f2fs_segment_alloc", "f2fs_ssr_victim",
		"f2fs_gc_victim", NULL };
	static const char *const stock[] = { "f2fs_get_victim", "f2fs_submit_page_write", NULL };
	static struct stats s, ps;
	struct ssr_totals snow, sprev = {};
	struct cleaning c = {};
	unsigned long long lost_prev = 0;
	unsigned int bad;
	double t0, t1;
	int err = 0;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 2;
	src = preflight("f2fs-segmap", ours, stock, env.dev, &mnt);
	if (src < 0)
		return 1;
	if (read_sb(&mnt, &geo)) {
		fprintf(stderr, "f2fs-segmap: cannot read the superblock of /dev/%s\n", mnt.name);
		return 1;
	}
	nsegs = geo.main_segs;
	bps = 1U << geo.log_blocks_per_seg;
	stype = calloc(nsegs, 1);
	smark = calloc(nsegs, 1);
	svalid = calloc(nsegs, sizeof(*svalid));
	gcv = calloc(MAX_LISTED, sizeof(*gcv));
	ssrv = calloc(MAX_LISTED, sizeof(*ssrv));
	if (!stype || !smark || !svalid || !gcv || !ssrv) {
		fprintf(stderr, "f2fs-segmap: out of memory for %u segments\n", nsegs);
		return 1;
	}
	if (figures_read("f2fs-segmap", src, &mnt, &ps))
		return 1;
	libbpf_set_print(libbpf_print_fn);
	skel = f2fs_segmap_bpf__open();
	if (!skel) {
		fprintf(stderr, "f2fs-segmap: cannot open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_dev = mnt.kdev;
	skel->rodata->ssr_main_blkaddr = geo.main_blkaddr;
	skel->rodata->ssr_log_bps = geo.log_blocks_per_seg;
	select_programs(skel->obj, src);
	err = f2fs_segmap_bpf__load(skel);
	if (!err)
		err = f2fs_segmap_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "f2fs-segmap: cannot load or attach the BPF program: %s\n",
			strerror(-err));
		goto cleanup;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, NULL, NULL);
	if (!rb) {
		fprintf(stderr, "f2fs-segmap: cannot open the ring buffer\n");
		err = 1;
		goto cleanup;
	}
	/* the snapshot at start, once the events are attached */
	if (read_segments(true, &bad) < 0 || figures_read("f2fs-segmap", src, &mnt, &ps)) {
		err = 1;
		goto cleanup;
	}
	if (bad)
		fprintf(stderr, "f2fs-segmap: warning: %u segments of segment_bits have a bitmap whose bits differ from their valid count\n",
			bad);
	read_cursegs(&ps);
	setup_signals();
	screen = !batch && !env.json && isatty(STDOUT_FILENO);
	if (!screen)
		letters = true;
	sprev = skel->bss->ssr_tot;
	t0 = mono();
	if (screen) {
		/* libbpf's warnings would tear the screen: -v keeps them */
		if (!verbose)
			libbpf_set_print(NULL);
		term_watch_resize();
		term_size();
		term_setup();
		frame(&c, !letters, "\n");
	} else {
		fprintf(stderr, "Mapping the segments of f2fs %s (%s, %s f2fs module) every %d s... Hit Ctrl-C to end.\n",
			mnt.name, mnt.dir, src_names[src], env.interval);
	}

	while (!exiting) {
		if (!wait_interval(t0 + env.interval, &c))
			break;
		if (read_segments(false, &bad) < 0 || figures_read("f2fs-segmap", src, &mnt, &s)) {
			term_restore();
			fprintf(stderr, "f2fs-segmap: %s was unmounted?\n", mnt.name);
			err = 1;
			break;
		}
		t1 = mono();
		memset(&c, 0, sizeof(c));
		c.secs = t1 - t0;
		read_cursegs(&s);
		cleaning(&c, &s, &ps);
		snow = skel->bss->ssr_tot;
		ssr_diff(&c.ssr_d, &snow, &sprev);
		c.lost = skel->bss->lost - lost_prev;
		lost_prev = skel->bss->lost;
		if (env.json)
			print_json(&c);
		else
			frame(&c, !letters, "\n");
		sprev = snow;
		ps = s;
		t0 = t1;
		reset_interval();
		if (env.count > 0 && --env.count == 0)
			break;
	}

cleanup:
	term_restore();
	ring_buffer__free(rb);
	f2fs_segmap_bpf__destroy(skel);
	return err ? 1 : 0;
}
