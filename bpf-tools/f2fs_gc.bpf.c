// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_gc.bpf.c - GC passes, victims and their utilisation, cost.  on_*:
 * our f2fs_gc_victim and f2fs_gc_end.  st_*: the stock module's
 * f2fs_gc_begin/f2fs_gc_end (a pass; its type is the one it began with,
 * the end carries none) and f2fs_get_victim with alloc_mode LFS (a GC
 * victim).  SSR victims, per log, beside them: ssr.bpf.h.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "stock.bpf.h"
#include "f2fs_gc.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
const volatile int targ_type = -1;		/* -1: FG and BG */
const volatile __u32 blocks_per_sec = 512;	/* ours: set by user space */
struct gc_totals totals = {};

#include "ssr.bpf.h"

static __always_inline void victim(__u32 t, __u32 p, __u32 valid, __u32 cap)
{
	__u32 u, i, slot = 0;

	if (t >= 2 || p >= GC_POLICIES)
		return;
	__sync_fetch_and_add(&totals.victims[t][p], 1);
	if (!cap)
		return;
	u = valid * 100 / cap;
	if (u > 100) {
		__sync_fetch_and_add(&totals.util_over, 1);
		u = 100;
	}
	__sync_fetch_and_add(&totals.util_known[p], 1);
	__sync_fetch_and_add(&totals.victim_valid[p], valid);
	__sync_fetch_and_add(&totals.victim_cap[p], cap);
	/* slot = u / 10, as constants the verifier can bound */
	for (i = 1; i < UTIL_SLOTS; i++)
		if (u >= i * 10)
			slot = i;
	__sync_fetch_and_add(&totals.util_hist[p][slot], 1);
}

static __always_inline void pass_end(__u32 t, int ret, __u64 ns, int nodata)
{
	__u32 slot;

	if (t >= 2)
		return;
	__sync_fetch_and_add(&totals.passes[t], 1);
	if (ret == nodata)
		__sync_fetch_and_add(&totals.nodata[t], 1);
	else if (ret)
		__sync_fetch_and_add(&totals.errors[t], 1);
	slot = log2_slot(ns / 1000);
	if (slot >= GC_SLOTS)
		slot = GC_SLOTS - 1;
	__sync_fetch_and_add(&totals.time_ns[t], ns);
	__sync_fetch_and_add(&totals.time_hist[t][slot], 1);
}

SEC("tracepoint/f2fs/f2fs_gc_victim")
int on_gc_victim(struct tp_gc_victim *ctx)
{
	__u32 t = ctx->gc_type, p = ctx->policy;

	if (DEV_FILTER(ctx->dev) || t >= NR_GC_TYPES || p >= NR_GC_POLICIES)
		return 0;
	if (targ_type >= 0 && t != (__u32)targ_type)
		return 0;
	victim(t, p, ctx->valid_blocks, blocks_per_sec);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_gc_end")
int on_gc_end(struct tp_gc_end *ctx)
{
	__u32 t = ctx->gc_type;

	if (DEV_FILTER(ctx->dev) || t >= NR_GC_TYPES)
		return 0;
	if (targ_type >= 0 && t != (__u32)targ_type)
		return 0;
	pass_end(t, ctx->ret, ctx->duration_ns, -61);	/* -ENODATA: nothing worth cleaning */
	__sync_fetch_and_add(&totals.data_moved[t], ctx->data_moved);
	__sync_fetch_and_add(&totals.node_moved[t], ctx->node_moved);
	__sync_fetch_and_add(&totals.secs_freed[t], ctx->secs_freed);
	return 0;
}

/* Stock: the pass in progress per device (f2fs_gc holds gc_lock throughout). */
struct pass {
	__u64 start_ns;
	__u32 type;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct pass);
} passes SEC(".maps");

SEC("tracepoint/f2fs/f2fs_gc_begin")
int st_gc_begin(struct tps_gc_begin *ctx)
{
	struct pass p = { bpf_ktime_get_ns(), st_gc_type(ctx->gc_type) };
	__u32 dev = ctx->dev;

	if (DEV_FILTER(dev))
		return 0;
	bpf_map_update_elem(&passes, &dev, &p, BPF_ANY);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_gc_end")
int st_gc_end(struct tps_gc_end *ctx)
{
	__u32 dev = ctx->dev, t;
	struct pass *p;
	__u64 ns;

	if (DEV_FILTER(dev))
		return 0;
	p = bpf_map_lookup_elem(&passes, &dev);
	if (!p)
		return 0;	/* began before we attached */
	t = p->type;
	ns = bpf_ktime_get_ns() - p->start_ns;
	bpf_map_delete_elem(&passes, &dev);
	if (t >= 2 || (targ_type >= 0 && t != (__u32)targ_type))
		return 0;
	pass_end(t, ctx->ret, ns, -ST_ENODATA);
	if (ctx->sec_freed > 0)		/* only foreground passes count them */
		__sync_fetch_and_add(&totals.secs_freed[t], ctx->sec_freed);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_get_victim")
int st_get_victim(struct tps_get_victim *ctx)
{
	__u32 t = st_gc_type(ctx->gc_type), p = st_policy(ctx->gc_mode);
	/* a greedy cost is the section's valid blocks (f2fs has 512 blocks per segment) */
	__u32 cap = ctx->ofs_unit * 512;

	if (DEV_FILTER(ctx->dev) || ctx->alloc_mode != ST_LFS)
		return 0;
	if (targ_type >= 0 && t != (__u32)targ_type)
		return 0;
	if (p != 0 || !cap || ctx->cost > cap)
		cap = 0;	/* not a utilisation (see f2fs_gc.h) */
	victim(t, p, ctx->cost, cap);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
