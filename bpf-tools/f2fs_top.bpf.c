// SPDX-License-Identifier: GPL-2.0
/* f2fs_top.bpf.c - checkpoint latencies per interval for f2fs-top. */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "f2fs_top.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct top_totals totals = {};

SEC("tracepoint/f2fs/f2fs_cp_end")
int on_cp_end(struct tp_cp_end *ctx)
{
	if (DEV_FILTER(ctx->dev) || ctx->ret)
		return 0;
	__sync_fetch_and_add(&totals.cp_count, 1);
	__sync_fetch_and_add(&totals.cp_total_ns, ctx->total_ns);
	if (ctx->total_ns > totals.cp_max_ns)	/* checkpoints are serialised */
		totals.cp_max_ns = ctx->total_ns;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
