/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssr.bpf.h - the BPF programs that count SSR victims per log (ssr.h):
 * on_ssr_victim for our module, st_ssr_victim and st_ssr_write for the
 * stock one.  A tool includes it in its .bpf.c (after bits.bpf.h and its
 * targ_dev) and reads ssr_tot from its skeleton's bss; for the stock
 * module it sets ssr_main_blkaddr and ssr_log_bps (from the superblock)
 * before loading, else the victims are counted but not given a log.
 */
#ifndef SSR_BPF_H
#define SSR_BPF_H

#include "ssr.h"

const volatile __u32 ssr_main_blkaddr = 0;	/* 0: the stock victims get no log */
const volatile __u32 ssr_log_bps = 9;		/* log2 of blocks per segment */
struct ssr_totals ssr_tot = {};

static __always_inline void ssr_count(__u32 log, __u32 valid, __u32 reusable, int other)
{
	if (log >= NR_LOGS)
		return;
	__sync_fetch_and_add(&ssr_tot.victims[log], 1);
	__sync_fetch_and_add(&ssr_tot.valid[log], valid);
	__sync_fetch_and_add(&ssr_tot.reusable[log], reusable);
	if (other)
		__sync_fetch_and_add(&ssr_tot.other_type[log], 1);
}

SEC("tracepoint/f2fs/f2fs_ssr_victim")
int on_ssr_victim(struct tp_ssr_victim *ctx)
{
	if (DEV_FILTER(ctx->dev))
		return 0;
	__sync_fetch_and_add(&ssr_tot.chosen, 1);
	ssr_count(ctx->log_type, ctx->valid_blocks, ctx->reusable_blocks,
		  ctx->seg_type != ctx->log_type);
	return 0;
}

/* Stock: victims chosen, waiting for the first write of the log that took them. */
struct ssr_seg {
	__u32 dev, segno;
};

struct ssr_wait {
	__u32 cost;
	__u32 list;	/* the dirty list searched: the type the segment had */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct ssr_seg);
	__type(value, struct ssr_wait);
} ssr_waiting SEC(".maps");

SEC("tracepoint/f2fs/f2fs_get_victim")
int st_ssr_victim(struct tps_get_victim *ctx)
{
	struct ssr_seg k = { ctx->dev, ctx->victim };
	struct ssr_wait w = { ctx->cost, ctx->type };

	if (DEV_FILTER(ctx->dev) || ctx->alloc_mode == ST_LFS)
		return 0;
	__sync_fetch_and_add(&ssr_tot.chosen, 1);
	if (!ssr_main_blkaddr)
		return 0;
	if (bpf_map_update_elem(&ssr_waiting, &k, &w, BPF_ANY)) {
		__sync_fetch_and_add(&ssr_tot.lost, 1);
		return 0;
	}
	__sync_fetch_and_add(&ssr_tot.pending, 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_submit_page_write")
int st_ssr_write(struct tps_page_bio *ctx)
{
	struct ssr_seg k = { ctx->dev, 0 };
	struct ssr_wait *w;
	__u32 log, cost, list;

	if (ssr_tot.pending <= 0 || DEV_FILTER(ctx->dev) ||
	    ctx->new_blkaddr < ssr_main_blkaddr)
		return 0;
	k.segno = (ctx->new_blkaddr - ssr_main_blkaddr) >> ssr_log_bps;
	w = bpf_map_lookup_elem(&ssr_waiting, &k);
	if (!w)
		return 0;
	cost = w->cost;
	list = w->list;
	/* the one that deletes the entry counts it (writes race on other CPUs) */
	if (bpf_map_delete_elem(&ssr_waiting, &k))
		return 0;
	__sync_fetch_and_add(&ssr_tot.pending, -1);
	log = st_log(ctx->type, ctx->temp);
	ssr_count(log, cost, 0, list != log);
	return 0;
}

#endif
