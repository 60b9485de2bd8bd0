// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_frag.bpf.c - the extents of the files written while f2fs-frag runs.
 * Every data block handed out to a write (ours: f2fs_block_write, cause
 * DATA or GC; stock: f2fs_submit_page_write of type DATA, which carries the
 * file, the page index and the new address) updates a map (ino, index) ->
 * block address and the file's extent count: an extent is a run of
 * consecutive page indices at consecutive addresses, so writing index i at
 * address a changes only whether i starts an extent (is i-1 at a-1?) and
 * whether i+1 does (is i+1 at a+1?).  Our module fires the event under its
 * segment lock, so the updates of one mount never race; the stock event
 * comes from writers of different logs at once, and a file's blocks
 * written by two of them at the same instant may miscount by one.
 *
 * The block map is bounded (max_entries, -m in user space): a block of a
 * new (ino, index) that finds it full is counted in the file's and the
 * totals' "untracked", and the file's extent count becomes a lower bound.
 * Blocks freed (truncate, unlink) are not seen: a file keeps the blocks it
 * had (see f2fs_frag.c).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "stock.bpf.h"
#include "f2fs_frag.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
struct fr_totals totals = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FR_MAX_BLOCKS);
	__type(key, struct fr_key);
	__type(value, __u32);
} blocks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FR_MAX_FILES);
	__type(key, __u32);
	__type(value, struct fr_file);
} files SEC(".maps");

/* Does the block at @c (index i) start an extent, given index i-1 at @p? */
static __always_inline int starts(__u32 *p, __u32 c)
{
	return !(p && *p + 1 == c);
}

static __always_inline void data_block(__u32 ino, __u32 index, __u32 addr)
{
	struct fr_key k = { ino, index };
	struct fr_file *f, zero = {};
	__u32 *cur, *prev = NULL, *next = NULL, old = 0;
	int had, before = 0, after;

	__sync_fetch_and_add(&totals.writes, 1);
	f = bpf_map_lookup_elem(&files, &ino);
	if (!f) {
		bpf_map_update_elem(&files, &ino, &zero, BPF_NOEXIST);
		f = bpf_map_lookup_elem(&files, &ino);
		if (!f) {
			__sync_fetch_and_add(&totals.files_dropped, 1);
			return;
		}
	}
	__sync_fetch_and_add(&f->writes, 1);
	cur = bpf_map_lookup_elem(&blocks, &k);
	had = cur != NULL;
	if (had)
		old = *cur;
	if (index) {
		k.index = index - 1;
		prev = bpf_map_lookup_elem(&blocks, &k);
	}
	if (index != 0xffffffff) {
		k.index = index + 1;
		next = bpf_map_lookup_elem(&blocks, &k);
	}
	if (had) {
		before = starts(prev, old) + (next ? starts(&old, *next) : 0);
		*cur = addr;
	} else {
		k.index = index;
		if (bpf_map_update_elem(&blocks, &k, &addr, BPF_NOEXIST)) {
			__sync_fetch_and_add(&f->untracked, 1);
			__sync_fetch_and_add(&totals.untracked, 1);
			return;
		}
		/* a new block between two: they were one extent boundary apart */
		before = next ? 1 : 0;
		__sync_fetch_and_add(&f->blocks, 1);
	}
	after = starts(prev, addr) + (next ? starts(&addr, *next) : 0);
	__sync_fetch_and_add(&f->extents, after - before);
}

SEC("tracepoint/f2fs/f2fs_block_write")
int on_block_write(struct tp_block_write *ctx)
{
	if (DEV_FILTER(ctx->dev) || ctx->cause == WC_NODE)
		return 0;
	if (ctx->cause == WC_GC)
		__sync_fetch_and_add(&totals.gc_moves, 1);
	data_block(ctx->ino, ctx->index, ctx->new_blkaddr);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_submit_page_write")
int st_page_write(struct tps_page_bio *ctx)
{
	if (DEV_FILTER(ctx->dev) || ctx->type != ST_DATA)
		return 0;
	data_block(ctx->ino, ctx->index, ctx->new_blkaddr);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
