/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssr.h - SSR victims (slack space recycling: a log reuses the free blocks
 * of a dirty segment), as f2fs-gc, f2fs-top and f2fs-segmap count them
 * (ssr.bpf.h); shared by the BPF programs and user space.
 *
 * Our module fires f2fs_ssr_victim with the log, the segment, its valid
 * and reusable blocks.  The stock module fires f2fs_get_victim with
 * alloc_mode SSR (or AT_SSR): its "type" is the dirty list searched (the
 * log's own first, then another log of its class), its cost the segment's
 * checkpointed valid blocks; the log that reuses the segment is the one
 * whose first write lands in it (f2fs_submit_page_write), so a victim is
 * counted per log at that write, and "pending" until then.
 */
#ifndef F2FS_SSR_H
#define F2FS_SSR_H

struct ssr_totals {
	__u64 chosen;		/* victims chosen (per event) */
	__u64 victims[6];	/* per log that reuses them */
	__u64 valid[6];		/* ours: valid blocks; stock: checkpointed valid blocks */
	__u64 reusable[6];	/* ours: blocks free in both maps (what the log fills) */
	__u64 other_type[6];	/* victims that belonged to another log's type */
	__s64 pending;		/* stock: chosen, not written to yet (a level) */
	__u64 lost;		/* stock: victims the pending map had no room for */
};

#endif
