// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_top.bpf.c - what f2fs-top cannot read from debugfs.  Ours (on_*):
 * the checkpoint latencies, from f2fs_cp_end.  Stock (st_*): checkpoint
 * latencies (f2fs_write_checkpoint), blocks written per log
 * (f2fs_submit_page_write), GC passes (f2fs_gc_begin) and GC victims
 * (f2fs_get_victim with alloc_mode LFS).  Both: SSR victims (ssr.bpf.h;
 * ours for their reusable blocks, stock for their log and valid blocks).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#define ST_CP_STATES
#include "stock.bpf.h"
#include "f2fs_top.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct top_totals totals = {};

#include "ssr.bpf.h"

static __always_inline void cp_done(__u64 ns)
{
	__sync_fetch_and_add(&totals.cp_count, 1);
	__sync_fetch_and_add(&totals.cp_total_ns, ns);
	totals.cp_last_ns = ns;
	if (ns > totals.cp_max_ns)	/* checkpoints are serialised */
		totals.cp_max_ns = ns;
}

SEC("tracepoint/f2fs/f2fs_cp_end")
int on_cp_end(struct tp_cp_end *ctx)
{
	if (DEV_FILTER(ctx->dev) || ctx->ret)
		return 0;
	cp_done(ctx->total_ns);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_write_checkpoint")
int st_write_checkpoint(struct tps_write_checkpoint *ctx)
{
	__u64 ns, blk;

	if (!DEV_FILTER(ctx->dev) && st_cp_step(ctx, &ns, &blk))
		cp_done(ns);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_submit_page_write")
int st_page_write(struct tps_page_bio *ctx)
{
	__u32 log = st_log(ctx->type, ctx->temp);

	if (!DEV_FILTER(ctx->dev) && log < NR_LOGS)
		__sync_fetch_and_add(&totals.log_blocks[log], 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_gc_begin")
int st_gc_begin(struct tps_gc_begin *ctx)
{
	if (!DEV_FILTER(ctx->dev))
		__sync_fetch_and_add(&totals.passes[st_gc_type(ctx->gc_type)], 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_get_victim")
int st_get_victim(struct tps_get_victim *ctx)
{
	__u32 p = st_policy(ctx->gc_mode), cap = ctx->ofs_unit * 512;

	if (DEV_FILTER(ctx->dev) || ctx->alloc_mode != ST_LFS || p >= 3)
		return 0;
	__sync_fetch_and_add(&totals.victims[p], 1);
	if (p == 0 && cap && ctx->cost <= cap) {
		__sync_fetch_and_add(&totals.util_known, 1);
		__sync_fetch_and_add(&totals.victim_valid, ctx->cost);
		__sync_fetch_and_add(&totals.victim_cap, cap);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
