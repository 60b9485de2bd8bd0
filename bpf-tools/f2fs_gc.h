/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_gc.h - shared by f2fs_gc.bpf.c and f2fs_gc.c. */
#ifndef F2FS_GC_H
#define F2FS_GC_H

#define GC_SLOTS 32	/* log2 of the pass time in usecs */
#define UTIL_SLOTS 11	/* victim utilisation 0-9%, 10-19%, ... 100% */

/* Running totals since the tool started, per GC type (FG, BG). */
struct gc_totals {
	__u64 passes[2];
	__u64 nodata[2];		/* passes that found nothing to clean */
	__u64 errors[2];		/* other failures (-ENOSPC ...) */
	__u64 time_ns[2];
	__u64 time_hist[2][GC_SLOTS];
	__u64 data_moved[2], node_moved[2];
	__u64 secs_freed[2];		/* as gc_end reports them */
	__u64 victims[2][2];		/* [type][policy] */
	__u64 victim_valid[2];		/* sum of valid blocks, per policy */
	__u64 util_hist[2][UTIL_SLOTS];	/* per policy */
	__u64 util_over;		/* victims above 100%: wrong geometry */
};

#endif
