// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_hotcold.bpf.c - segments opened per log type (LFS / SSR), and the
 * blocks each file writes to each log.  The file's blocks come from
 * f2fs_extent_update: when a file's extent grows by one block at its end,
 * or a new one-block extent starts, that block was just written; its
 * segment's log is known from f2fs_segment_alloc (seeded by user space
 * with the logs' current segments).  Blocks rewritten inside a file
 * without changing its extent are not seen.  Where our module has
 * f2fs_block_write (one record per block handed out, with its file and
 * log), on_block_write counts every data block exactly instead (DATA and
 * GC moves; user space loads one of the two).
 *
 * The stock module (st_*): f2fs_submit_page_write fires for every block
 * written to a log (data and node, GC moves included; not in-place updates
 * or metadata), with its log (type and temperature) and, for data, its
 * file: so blocks per log and per file are counted exactly.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "stock.bpf.h"
#include "f2fs_hotcold.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
const volatile __u32 main_blkaddr = 0;	/* 0: no per-file accounting */
const volatile __u32 log_blocks_per_seg = 9;
const volatile __u32 track_files = 0;	/* per-file accounting by st_page_write / on_block_write */
struct hc_totals totals = {};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HC_MAX_SEGS);
	__type(key, __u32);
	__type(value, __u8);	/* 0 unknown, else log + 1 */
} seg_log SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HC_MAX_FILES);
	__type(key, __u32);
	__type(value, struct hc_file);
} files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct hc_extent);
} extents SEC(".maps");

/* One block of file @ino written to log @l. */
static __always_inline void file_block(__u32 ino, __u32 l)
{
	struct hc_file *f, zero = {};

	if (l >= NR_LOGS)
		return;
	f = bpf_map_lookup_elem(&files, &ino);
	if (!f) {
		if (bpf_map_update_elem(&files, &ino, &zero, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&files, &ino)) {
			__sync_fetch_and_add(&totals.dropped, 1);
			return;
		}
		f = bpf_map_lookup_elem(&files, &ino);
		if (!f)
			return;
	}
	__sync_fetch_and_add(&f->blocks[l], 1);
	__sync_fetch_and_add(&totals.file_blocks, 1);
}

SEC("tracepoint/f2fs/f2fs_segment_alloc")
int on_segment_alloc(struct tp_segment_alloc *ctx)
{
	__u32 log = ctx->log_type, mode = ctx->mode, seg = ctx->new_segno;
	__u8 v = log + 1;

	if (DEV_FILTER(ctx->dev) || log >= NR_LOGS || mode >= NR_ALLOC)
		return 0;
	__sync_fetch_and_add(&totals.segs[log][mode], 1);
	bpf_map_update_elem(&seg_log, &seg, &v, BPF_ANY);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_extent_update")
int on_extent_update(struct tp_extent_update *ctx)
{
	struct hc_extent e = { ctx->fofs, ctx->blk, ctx->len }, *old;
	__u32 ino = ctx->ino, seg, blk, l;
	int wrote;
	__u8 *lg;

	if (DEV_FILTER(ctx->dev) || !main_blkaddr)
		return 0;
	old = bpf_map_lookup_elem(&extents, &ino);
	if (e.len == 0) {
		bpf_map_delete_elem(&extents, &ino);
		return 0;
	}
	if (old)
		wrote = (old->fofs == e.fofs && old->blk == e.blk &&
			 old->len + 1 == e.len) ||
			(e.len == 1 && (old->blk != e.blk || old->len != 1));
	else
		wrote = e.len == 1;
	bpf_map_update_elem(&extents, &ino, &e, BPF_ANY);
	if (!wrote)
		return 0;
	blk = e.blk + e.len - 1;
	if (blk < main_blkaddr)
		return 0;
	seg = (blk - main_blkaddr) >> log_blocks_per_seg;
	lg = bpf_map_lookup_elem(&seg_log, &seg);
	if (!lg || !*lg || *lg > NR_LOGS) {
		__sync_fetch_and_add(&totals.unknown_log, 1);
		return 0;
	}
	l = *lg - 1;
	file_block(ino, l);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_block_write")
int on_block_write(struct tp_block_write *ctx)
{
	if (DEV_FILTER(ctx->dev) || ctx->cause == WC_NODE)
		return 0;
	file_block(ctx->ino, ctx->log_type);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_submit_page_write")
int st_page_write(struct tps_page_bio *ctx)
{
	__u32 log = st_log(ctx->type, ctx->temp);

	if (DEV_FILTER(ctx->dev) || log >= NR_LOGS)
		return 0;
	__sync_fetch_and_add(&totals.log_blocks[log], 1);
	/* a node page's inode is the node inode: files only for data */
	if (track_files && ctx->type == ST_DATA)
		file_block(ctx->ino, log);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
