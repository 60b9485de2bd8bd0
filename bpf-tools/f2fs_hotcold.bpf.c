// SPDX-License-Identifier: GPL-2.0
/* f2fs_hotcold.bpf.c - segments opened per log type (LFS / SSR). */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "f2fs_hotcold.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct hc_totals totals = {};

SEC("tracepoint/f2fs/f2fs_segment_alloc")
int on_segment_alloc(struct tp_segment_alloc *ctx)
{
	__u32 log = ctx->log_type, mode = ctx->mode;

	if (DEV_FILTER(ctx->dev) || log >= NR_LOGS || mode >= NR_ALLOC)
		return 0;
	__sync_fetch_and_add(&totals.segs[log][mode], 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
