/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_top.h - shared by f2fs_top.bpf.c and f2fs_top.c. */
#ifndef F2FS_TOP_H
#define F2FS_TOP_H

/* What debugfs cannot tell per interval: the checkpoint latency maximum. */
struct top_totals {
	__u64 cp_count;
	__u64 cp_total_ns;
	__u64 cp_max_ns;	/* reset by user space each interval */
};

#endif
