/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_cp.h - shared by f2fs_cp.bpf.c and f2fs_cp.c. */
#ifndef F2FS_CP_H
#define F2FS_CP_H

#define CP_SLOTS 32
#define CP_REASONS 9	/* ours 7 (cp_reason_names), stock 9 (stock_cp_reason_names) */
/* ours: every phase but PH_WRITE; stock: PH_BLOCK, and PH_WRITE for the rest */
enum { PH_BLOCK, PH_FLUSH, PH_WAIT, PH_NAT, PH_SIT, PH_PACK, PH_WRITE, NR_PHASES };

/* Running totals since the tool started; user space takes differences. */
struct cp_totals {
	__u64 count[CP_REASONS];
	__u64 errors;
	__u64 total_ns[CP_REASONS];
	__u64 hist[CP_REASONS][CP_SLOTS];	/* log2 of total_ns in usecs */
	__u64 phase_ns[NR_PHASES];
	__u64 max_ns;				/* reset by user space */
};

#endif
