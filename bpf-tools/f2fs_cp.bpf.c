// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_cp.bpf.c - checkpoint latency per reason, time per phase: on_* from
 * our f2fs_cp_end, st_* from the stock module's f2fs_write_checkpoint
 * (start of block_ops, end of block_ops, end of the checkpoint).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#define ST_CP_STATES
#include "stock.bpf.h"
#include "f2fs_cp.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct cp_totals totals = {};

static __always_inline void account(__u32 r, __u64 ns)
{
	__u32 slot = log2_slot(ns / 1000);

	if (r >= CP_REASONS)
		return;
	if (slot >= CP_SLOTS)
		slot = CP_SLOTS - 1;
	__sync_fetch_and_add(&totals.count[r], 1);
	__sync_fetch_and_add(&totals.total_ns[r], ns);
	__sync_fetch_and_add(&totals.hist[r][slot], 1);
	if (ns > totals.max_ns)		/* checkpoints are serialised */
		totals.max_ns = ns;
}

SEC("tracepoint/f2fs/f2fs_cp_end")
int on_cp_end(struct tp_cp_end *ctx)
{
	__u32 r = ctx->reason;

	if (DEV_FILTER(ctx->dev) || r >= NR_CP_REASONS)
		return 0;
	if (ctx->ret) {
		__sync_fetch_and_add(&totals.errors, 1);
		return 0;
	}
	account(r, ctx->total_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_BLOCK], ctx->block_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_FLUSH], ctx->flush_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_WAIT], ctx->wait_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_NAT], ctx->nat_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_SIT], ctx->sit_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_PACK], ctx->pack_ns);
	return 0;
}

/* Stock: see st_cp_step() in stock.bpf.h. */
SEC("tracepoint/f2fs/f2fs_write_checkpoint")
int st_write_checkpoint(struct tps_write_checkpoint *ctx)
{
	__u64 ns, blk;

	if (DEV_FILTER(ctx->dev) || !st_cp_step(ctx, &ns, &blk))
		return 0;
	account(st_cp_reason(ctx->reason), ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_BLOCK], blk);
	__sync_fetch_and_add(&totals.phase_ns[PH_WRITE], ns - blk);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
