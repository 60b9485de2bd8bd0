// SPDX-License-Identifier: GPL-2.0
/* f2fs_gc.bpf.c - GC passes, victims and their utilisation, cost. */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "f2fs_gc.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
const volatile int targ_type = -1;		/* -1: FG and BG */
const volatile __u32 blocks_per_sec = 512;	/* set by user space */
struct gc_totals totals = {};

SEC("tracepoint/f2fs/f2fs_gc_victim")
int on_gc_victim(struct tp_gc_victim *ctx)
{
	__u32 t = ctx->gc_type, p = ctx->policy, u, i, slot = 0;

	if (DEV_FILTER(ctx->dev) || t >= NR_GC_TYPES || p >= NR_GC_POLICIES)
		return 0;
	if (targ_type >= 0 && t != (__u32)targ_type)
		return 0;
	u = blocks_per_sec ? ctx->valid_blocks * 100 / blocks_per_sec : 0;
	if (u > 100) {
		__sync_fetch_and_add(&totals.util_over, 1);
		u = 100;
	}
	__sync_fetch_and_add(&totals.victims[t][p], 1);
	__sync_fetch_and_add(&totals.victim_valid[p], ctx->valid_blocks);
	/* slot = u / 10, as constants the verifier can bound */
	for (i = 1; i < UTIL_SLOTS; i++)
		if (u >= i * 10)
			slot = i;
	__sync_fetch_and_add(&totals.util_hist[p][slot], 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_gc_end")
int on_gc_end(struct tp_gc_end *ctx)
{
	__u32 t = ctx->gc_type, slot;

	if (DEV_FILTER(ctx->dev) || t >= NR_GC_TYPES)
		return 0;
	if (targ_type >= 0 && t != (__u32)targ_type)
		return 0;
	__sync_fetch_and_add(&totals.passes[t], 1);
	if (ctx->ret == -61)		/* -ENODATA: nothing worth cleaning */
		__sync_fetch_and_add(&totals.nodata[t], 1);
	else if (ctx->ret)
		__sync_fetch_and_add(&totals.errors[t], 1);
	slot = log2_slot(ctx->duration_ns / 1000);
	if (slot >= GC_SLOTS)
		slot = GC_SLOTS - 1;
	__sync_fetch_and_add(&totals.time_ns[t], ctx->duration_ns);
	__sync_fetch_and_add(&totals.time_hist[t][slot], 1);
	__sync_fetch_and_add(&totals.data_moved[t], ctx->data_moved);
	__sync_fetch_and_add(&totals.node_moved[t], ctx->node_moved);
	__sync_fetch_and_add(&totals.secs_freed[t], ctx->secs_freed);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
