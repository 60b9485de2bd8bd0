/* SPDX-License-Identifier: GPL-2.0 */
/* stock.bpf.h - helpers for the BPF programs that read the stock f2fs events. */
#ifndef STOCK_BPF_H
#define STOCK_BPF_H

#include "stock_events.h"

/* f2fs_write_checkpoint's message: where the checkpoint is. */
enum { CPM_OTHER, CPM_START, CPM_BLOCKED, CPM_DONE };

/* "start block_ops", "finish block_ops", "finish checkpoint" */
static __always_inline int st_cp_msg(void *ctx, __u32 loc)
{
	char m[8] = {};

	if ((loc >> 16) < sizeof(m))
		return CPM_OTHER;
	bpf_probe_read_kernel(m, sizeof(m), (char *)ctx + (loc & 0xffff));
	if (m[0] == 's' && m[5] == ' ' && m[6] == 'b')
		return CPM_START;
	if (m[0] == 'f' && m[6] == ' ' && m[7] == 'b')
		return CPM_BLOCKED;
	if (m[0] == 'f' && m[6] == ' ' && m[7] == 'c')
		return CPM_DONE;
	return CPM_OTHER;
}

#ifdef ST_CP_STATES
/*
 * Per device: when the checkpoint in progress started, when block_ops
 * ended.  The checkpoint of a mount is serialised (cp_global_sem), so its
 * three messages follow each other; one that ends without "finish
 * checkpoint" (an fstrim with nothing to trim) is replaced by the next
 * start.  A checkpoint that began before we attached is not counted.
 */
struct st_cp_state {
	__u64 start_ns, blocked_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct st_cp_state);
} st_cp_states SEC(".maps");

/* 1 when this message ends a checkpoint: its time, and that of block_ops. */
static __always_inline int st_cp_step(struct tps_write_checkpoint *ctx, __u64 *ns, __u64 *blk)
{
	struct st_cp_state *st, zero = {};
	__u64 now = bpf_ktime_get_ns();
	__u32 dev = ctx->dev;
	int k = st_cp_msg(ctx, ctx->dest_msg);

	if (k == CPM_START) {
		zero.start_ns = now;
		bpf_map_update_elem(&st_cp_states, &dev, &zero, BPF_ANY);
		return 0;
	}
	st = bpf_map_lookup_elem(&st_cp_states, &dev);
	if (!st || !st->start_ns)
		return 0;
	if (k == CPM_BLOCKED) {
		st->blocked_ns = now;
		return 0;
	}
	if (k != CPM_DONE)
		return 0;
	*ns = now - st->start_ns;
	*blk = st->blocked_ns ? st->blocked_ns - st->start_ns : 0;
	bpf_map_delete_elem(&st_cp_states, &dev);
	return 1;
}
#endif

/* The lowest reason flag set (stock_cp_reason_names), 8 for none. */
static __always_inline __u32 st_cp_reason(__u32 flags)
{
	__u32 i;

	for (i = 0; i < 8; i++)
		if (flags & (1U << i))
			return i;
	return 8;
}

/* Our GC type index: 0 FG, 1 BG. */
static __always_inline __u32 st_gc_type(int t)
{
	return t == ST_FG_GC ? 0 : 1;
}

/* Our policy index: 0 greedy, 1 cost-benefit, 2 age-threshold. */
static __always_inline __u32 st_policy(int gc_mode)
{
	return gc_mode == ST_GC_GREEDY ? 0 : gc_mode == ST_GC_CB ? 1 : 2;
}

/* The log a DATA/NODE write went to (temp is the log's temperature); 6 for others. */
static __always_inline __u32 st_log(int type, int temp)
{
	if ((type != ST_DATA && type != ST_NODE) || temp < ST_HOT || temp > ST_COLD)
		return 6;
	return (type == ST_NODE ? 3 : 0) + temp;
}

#endif
