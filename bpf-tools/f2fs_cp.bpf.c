// SPDX-License-Identifier: GPL-2.0
/* f2fs_cp.bpf.c - checkpoint latency per reason, time per phase. */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "f2fs_cp.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct cp_totals totals = {};

SEC("tracepoint/f2fs/f2fs_cp_end")
int on_cp_end(struct tp_cp_end *ctx)
{
	__u32 r = ctx->reason, slot;
	__u64 ns = ctx->total_ns;

	if (DEV_FILTER(ctx->dev) || r >= CP_REASONS)
		return 0;
	if (ctx->ret) {
		__sync_fetch_and_add(&totals.errors, 1);
		return 0;
	}
	slot = log2_slot(ns / 1000);
	if (slot >= CP_SLOTS)
		slot = CP_SLOTS - 1;
	__sync_fetch_and_add(&totals.count[r], 1);
	__sync_fetch_and_add(&totals.total_ns[r], ns);
	__sync_fetch_and_add(&totals.hist[r][slot], 1);
	__sync_fetch_and_add(&totals.phase_ns[PH_BLOCK], ctx->block_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_FLUSH], ctx->flush_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_WAIT], ctx->wait_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_NAT], ctx->nat_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_SIT], ctx->sit_ns);
	__sync_fetch_and_add(&totals.phase_ns[PH_PACK], ctx->pack_ns);
	if (ns > totals.max_ns)		/* checkpoints are serialised */
		totals.max_ns = ns;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
