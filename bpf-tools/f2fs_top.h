/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_top.h - shared by f2fs_top.bpf.c and f2fs_top.c. */
#ifndef F2FS_TOP_H
#define F2FS_TOP_H

/*
 * What debugfs cannot tell per interval.  Ours: the checkpoint latency
 * maximum.  Stock (whose status file has no latencies, no per-log blocks,
 * no GC passes or victims): all of these.
 */
struct top_totals {
	__u64 cp_count;
	__u64 cp_total_ns;
	__u64 cp_max_ns;	/* reset by user space each interval */
	__u64 cp_last_ns;	/* stock */
	__u64 log_blocks[6];	/* stock: blocks written per log */
	__u64 passes[2];	/* stock: GC passes begun, FG and BG */
	__u64 victims[3];	/* stock: GC victims, greedy, cost-benefit, age-threshold */
	/* stock: greedy victims whose valid blocks are known (see f2fs_gc.h) */
	__u64 util_known, victim_valid, victim_cap;
};

#endif
