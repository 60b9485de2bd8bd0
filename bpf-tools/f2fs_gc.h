/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_gc.h - shared by f2fs_gc.bpf.c and f2fs_gc.c. */
#ifndef F2FS_GC_H
#define F2FS_GC_H

#define GC_SLOTS 32	/* log2 of the pass time in usecs */
#define UTIL_SLOTS 11	/* victim utilisation 0-9%, 10-19%, ... 100% */
#define GC_POLICIES 3	/* greedy, cost-benefit, age-threshold (stock only) */

/* Running totals since the tool started, per GC type (FG, BG). */
struct gc_totals {
	__u64 passes[2];
	__u64 nodata[2];		/* passes that found nothing to clean */
	__u64 errors[2];		/* other failures (-ENOSPC ...) */
	__u64 time_ns[2];
	__u64 time_hist[2][GC_SLOTS];
	__u64 data_moved[2], node_moved[2];	/* ours only */
	__u64 secs_freed[2];		/* as gc_end reports them */
	__u64 victims[2][GC_POLICIES];	/* [type][policy] */
	/*
	 * Victims whose utilisation is known, per policy: their number, the
	 * sum of their valid blocks and of their section sizes in blocks.
	 * Ours: every victim.  Stock: greedy victims the search chose (the
	 * event's cost is then the section's valid blocks); a cost-benefit
	 * cost mixes utilisation and age, and a victim taken from background
	 * GC's earlier choices carries no cost.
	 */
	__u64 util_known[GC_POLICIES];
	__u64 victim_valid[GC_POLICIES];
	__u64 victim_cap[GC_POLICIES];
	__u64 util_hist[GC_POLICIES][UTIL_SLOTS];
	__u64 util_over;		/* victims above 100%: wrong geometry */
};

#endif
