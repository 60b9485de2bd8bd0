/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_segmap.h - shared by f2fs_segmap.bpf.c and f2fs_segmap.c. */
#ifndef F2FS_SEGMAP_H
#define F2FS_SEGMAP_H

#define SM_RING_BYTES (256 * 1024)

/* What an event record says happened to a segment. */
enum {
	SM_OPEN = 1,	/* ours: a log opened segment @segno (LFS or SSR) */
	SM_SSR,		/* an SSR victim */
	SM_GC,		/* a GC victim (its section) */
};

struct sm_event {
	__u32 kind;
	__u32 segno;		/* the segment opened, or the victim */
	__u32 old_segno;	/* SM_OPEN: the segment the log left */
	__s32 log;		/* SM_OPEN, SM_SSR: the log (stock SSR: -1, not known yet) */
	__s32 seg_type;		/* SM_SSR: the type the segment had (stock: the dirty list) */
	__u32 mode;		/* SM_OPEN: 0 LFS, 1 SSR; SM_GC: 0 FG, 1 BG */
	__u32 policy;		/* SM_GC: 0 greedy, 1 cost-benefit, 2 age-threshold */
	__s32 valid;		/* ours: valid blocks; stock SSR: checkpointed valid; -1: not known */
	__s32 reusable;		/* SM_SSR, ours: blocks the log can fill; -1: not known */
};

#endif
