// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_segmap.bpf.c - what happens to segments, as records in a ring
 * buffer for f2fs-segmap: a log opening a segment, an SSR victim, a GC
 * victim.  on_*: our f2fs_segment_alloc, f2fs_ssr_victim, f2fs_gc_victim.
 * st_*: the stock module's f2fs_get_victim (alloc_mode LFS: GC, else SSR;
 * the stock module has no event for a log opening a segment).  The SSR
 * totals per log come from ssr.bpf.h.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "stock.bpf.h"
#include "f2fs_segmap.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
__u64 lost = 0;		/* records the ring had no room for */

#include "ssr.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, SM_RING_BYTES);
} events SEC(".maps");

static __always_inline struct sm_event *rec(__u32 kind, __u32 segno)
{
	struct sm_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->segno = segno;
	e->valid = -1;
	e->reusable = -1;
	return e;
}

SEC("tracepoint/f2fs/f2fs_segment_alloc")
int on_segment_alloc(struct tp_segment_alloc *ctx)
{
	struct sm_event *e;

	if (DEV_FILTER(ctx->dev) || !(e = rec(SM_OPEN, ctx->new_segno)))
		return 0;
	e->old_segno = ctx->old_segno;
	e->log = ctx->log_type;
	e->mode = ctx->mode;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_ssr_victim")
int on_ssr_mark(struct tp_ssr_victim *ctx)
{
	struct sm_event *e;

	if (DEV_FILTER(ctx->dev) || !(e = rec(SM_SSR, ctx->segno)))
		return 0;
	e->log = ctx->log_type;
	e->seg_type = ctx->seg_type;
	e->valid = ctx->valid_blocks;
	e->reusable = ctx->reusable_blocks;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_gc_victim")
int on_gc_mark(struct tp_gc_victim *ctx)
{
	struct sm_event *e;

	if (DEV_FILTER(ctx->dev) || !(e = rec(SM_GC, ctx->segno)))
		return 0;
	e->mode = ctx->gc_type;
	e->policy = ctx->policy;
	e->valid = ctx->valid_blocks;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_get_victim")
int st_victim_mark(struct tps_get_victim *ctx)
{
	int ssr = ctx->alloc_mode != ST_LFS;
	__u32 policy = st_policy(ctx->gc_mode), cap = ctx->ofs_unit * 512;
	struct sm_event *e;

	if (DEV_FILTER(ctx->dev) || !(e = rec(ssr ? SM_SSR : SM_GC, ctx->victim)))
		return 0;
	if (ssr) {
		e->log = -1;
		e->seg_type = ctx->type;
		e->valid = ctx->cost;		/* the segment's checkpointed valid blocks */
	} else {
		e->mode = st_gc_type(ctx->gc_type);
		e->policy = policy;
		/* a greedy cost is the section's valid blocks (see f2fs_gc.h) */
		if (policy == 0 && cap && ctx->cost <= cap)
			e->valid = ctx->cost;
	}
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
