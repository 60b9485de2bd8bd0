// SPDX-License-Identifier: GPL-2.0
/*
 * segment.c - the six active logs (current segments) and their summaries.
 *
 * A checkpoint records, for each of the six logs, its segment, the next
 * free block offset and the allocation mode.  The summary of each current
 * segment travels with the checkpoint pack rather than in the SSA, because
 * the SSA copy of a segment still being filled is stale:
 *
 *   - data logs: either three full summary blocks at cp_pack_start_sum, or,
 *     with CP_COMPACT_SUM_FLAG, a packed stream that begins with the NAT and
 *     SIT journals and continues with only the used summary entries;
 *   - node logs: three blocks at the end of the pack when the checkpoint was
 *     written at unmount (CP_UMOUNT_FLAG or CP_FASTBOOT_FLAG); otherwise the
 *     SSA block of the segment.
 *
 * The NAT journal lives in the hot data log's summary and the SIT journal in
 * the cold data log's summary.  This file loads all six so that the node
 * manager can consult the NAT journal and, later, the write path can resume
 * the logs.
 */
#include <linux/bio.h>
#include <linux/buffer_head.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/pagemap.h>
#include <linux/moduleparam.h>
#include <linux/backing-dev.h>
#include <linux/workqueue.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

/* Address of summary block @idx counted back from the end of the pack. */
static u32 pack_tail_block(struct f2fs_sb_info *sbi, unsigned int group,
			   unsigned int idx)
{
	u32 total = le32_to_cpu(sbi->ckpt->cp_pack_total_block_count);

	return sbi->cp_addr + total - (group + 1) + idx;
}

static bool node_sums_in_pack(struct f2fs_sb_info *sbi)
{
	return f2fs_cp_flag(sbi, CP_UMOUNT_FLAG) ||
	       f2fs_cp_flag(sbi, CP_FASTBOOT_FLAG);
}

/*
 * Unpack the compact data summaries: journals, then the used entries of the
 * hot, warm and cold data logs, packed across blocks without footers.
 */
static int read_compact_sums(struct f2fs_sb_info *sbi)
{
	u32 blk = sbi->cp_addr + le32_to_cpu(sbi->ckpt->cp_pack_start_sum);
	u32 last = pack_tail_block(sbi, 0, 0);
	struct page *page;
	unsigned int ofs, i, j;
	u8 *kaddr;

	page = f2fs_get_meta_page(sbi, blk++);
	if (IS_ERR(page))
		return PTR_ERR(page);
	kaddr = page_address(page);
	memcpy(&sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal, kaddr,
	       SUM_JOURNAL_SIZE);
	memcpy(&sbi->curseg[F2FS_LOG_COLD_DATA].sum->journal,
	       kaddr + SUM_JOURNAL_SIZE, SUM_JOURNAL_SIZE);
	ofs = 2 * SUM_JOURNAL_SIZE;

	for (i = F2FS_LOG_HOT_DATA; i <= F2FS_LOG_COLD_DATA; i++) {
		struct f2fs_curseg *cs = &sbi->curseg[i];
		unsigned int used = cs->alloc_type ? sbi->blocks_per_seg :
						     cs->blkoff;

		for (j = 0; j < used; j++) {
			if (ofs + SUMMARY_SIZE > F2FS_SUM_PAYLOAD) {
				put_page(page);
				if (blk >= last) {
					f2fs_err(sbi, "compact summaries overrun the pack");
					return -EFSCORRUPTED;
				}
				page = f2fs_get_meta_page(sbi, blk++);
				if (IS_ERR(page))
					return PTR_ERR(page);
				kaddr = page_address(page);
				ofs = 0;
			}
			memcpy(&cs->sum->entries[j], kaddr + ofs, SUMMARY_SIZE);
			ofs += SUMMARY_SIZE;
		}
	}
	put_page(page);
	return 0;
}

static int read_full_sum(struct f2fs_sb_info *sbi, unsigned int type)
{
	struct f2fs_curseg *cs = &sbi->curseg[type];
	u32 blk;

	if (type <= F2FS_LOG_COLD_DATA) {
		if (node_sums_in_pack(sbi))
			blk = pack_tail_block(sbi, F2FS_NR_LOGS, type);
		else
			blk = pack_tail_block(sbi, F2FS_NR_DATA_LOGS, type);
	} else {
		if (node_sums_in_pack(sbi))
			blk = pack_tail_block(sbi, F2FS_NR_NODE_LOGS,
					      type - F2FS_LOG_HOT_NODE);
		else
			blk = sbi->ssa_blkaddr + cs->segno;
	}
	return f2fs_read_meta_blocks(sbi, blk, cs->sum, 1);
}

/* Blocks restore_node_sums() reads per request. */
#define RESTORE_CHUNK	64

/*
 * Without node summaries in the pack, the SSA block of a current node
 * segment is as old as the segment's opening: the stock module rebuilds it
 * from the footers of the blocks the log has written since, and so do we.
 * Neither writes the SSA block of a current node segment at a checkpoint;
 * the log writes it when it leaves the segment.  The blocks are read
 * RESTORE_CHUNK at a time: a full segment is then 8 requests, not 512.
 */
static int restore_node_sums(struct f2fs_sb_info *sbi, unsigned int type)
{
	struct f2fs_curseg *cs = &sbi->curseg[type];
	u32 start, i, j, chunk, n = min_t(u32, cs->blkoff, sbi->blocks_per_seg);
	struct page *pages[RESTORE_CHUNK] = {};
	struct f2fs_summary *e;
	__le32 nid;
	int err = 0;

	if (cs->segno >= sbi->main_segs || !n)
		return 0;	/* check_cursegs() reports a bad segno */
	for (j = 0; j < min_t(u32, n, RESTORE_CHUNK); j++) {
		pages[j] = alloc_page(GFP_KERNEL);
		if (!pages[j]) {
			err = -ENOMEM;
			goto free_pages;
		}
	}
	start = sbi->main_blkaddr + (cs->segno << sbi->log_blocks_per_seg);
	for (i = 0; i < n; i += chunk) {
		chunk = min_t(u32, n - i, RESTORE_CHUNK);
		err = f2fs_read_main_blocks(sbi, start + i, pages, chunk);
		if (err)
			break;
		for (j = 0; j < chunk; j++) {
			nid = ((struct f2fs_node *)page_address(pages[j]))->footer.nid;
			e = &cs->sum->entries[i + j];
			if (e->nid == nid)
				continue;
			e->nid = nid;
			e->version = 0;
			e->ofs_in_node = 0;
		}
	}
free_pages:
	for (j = 0; j < RESTORE_CHUNK && pages[j]; j++)
		__free_page(pages[j]);
	return err;
}

static int check_journals(struct f2fs_sb_info *sbi)
{
	struct f2fs_journal *nat = &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal;
	struct f2fs_journal *sit = &sbi->curseg[F2FS_LOG_COLD_DATA].sum->journal;

	if (le16_to_cpu(nat->n_nats) > NAT_JOURNAL_ENTRIES) {
		f2fs_err(sbi, "NAT journal holds %u entries, at most %zu fit",
			 le16_to_cpu(nat->n_nats), NAT_JOURNAL_ENTRIES);
		return -EFSCORRUPTED;
	}
	if (le16_to_cpu(sit->n_sits) > SIT_JOURNAL_ENTRIES) {
		f2fs_err(sbi, "SIT journal holds %u entries, at most %zu fit",
			 le16_to_cpu(sit->n_sits), SIT_JOURNAL_ENTRIES);
		return -EFSCORRUPTED;
	}
	return 0;
}

/**
 * f2fs_load_cursegs - load the six logs and their summaries from the
 * checkpoint in sbi->ckpt.
 * @sbi: the mount.
 *
 * Return: 0; -ENOMEM; -EIO; -EFSCORRUPTED when the summaries or journals are
 * out of bounds.  On error, f2fs_free_cursegs() releases what was loaded.
 */
int f2fs_load_cursegs(struct f2fs_sb_info *sbi)
{
	struct f2fs_checkpoint *cp = sbi->ckpt;
	unsigned int i;
	int err;

	for (i = 0; i < F2FS_NR_LOGS; i++) {
		struct f2fs_curseg *cs = &sbi->curseg[i];

		cs->sum = kzalloc(F2FS_BLKSIZE, GFP_KERNEL);
		if (!cs->sum)
			return -ENOMEM;
		if (i <= F2FS_LOG_COLD_DATA) {
			cs->segno = le32_to_cpu(cp->cur_data_segno[i]);
			cs->blkoff = le16_to_cpu(cp->cur_data_blkoff[i]);
		} else {
			cs->segno = le32_to_cpu(cp->cur_node_segno[i - 3]);
			cs->blkoff = le16_to_cpu(cp->cur_node_blkoff[i - 3]);
		}
		cs->alloc_type = cp->alloc_type[i];
	}

	if (f2fs_cp_flag(sbi, CP_COMPACT_SUM_FLAG)) {
		err = read_compact_sums(sbi);
		if (err)
			return err;
	} else {
		for (i = F2FS_LOG_HOT_DATA; i <= F2FS_LOG_COLD_DATA; i++) {
			err = read_full_sum(sbi, i);
			if (err)
				return err;
		}
	}
	for (i = F2FS_LOG_HOT_NODE; i < F2FS_NR_LOGS; i++) {
		err = read_full_sum(sbi, i);
		if (!err && !node_sums_in_pack(sbi))
			err = restore_node_sums(sbi, i);
		if (err)
			return err;
	}
	return check_journals(sbi);
}

/**
 * f2fs_free_cursegs - release the summaries loaded by f2fs_load_cursegs().
 * @sbi: the mount.
 */
void f2fs_free_cursegs(struct f2fs_sb_info *sbi)
{
	unsigned int i;

	for (i = 0; i < F2FS_NR_LOGS; i++) {
		kfree(sbi->curseg[i].sum);
		sbi->curseg[i].sum = NULL;
	}
}

/*
 * ---- The segment manager of a writable mount ----------------------------
 *
 * Each main-area segment has an in-memory SIT entry (struct f2fs_seg_entry)
 * with two validity maps: the current one and the one of the last
 * checkpoint.  A block may be written only where both are clear, so that
 * nothing the last checkpoint still references is overwritten: this is
 * what makes every checkpoint a consistent state to return to after a
 * crash.  For the same reason a segment that empties becomes "prefree",
 * and free again only once the next checkpoint no longer references it.
 *
 * Logs allocate in LFS style: one block after another in their current
 * segment, then a new free segment, keeping whole sections together when a
 * section has several segments.  A full segment's summary goes to the SSA
 * when the log leaves it; the current segments' summaries go with each
 * checkpoint.
 */

/* Block holding the current copy of the SIT entries of @segno. */
static u32 sit_block_addr(struct f2fs_sb_info *sbi, u32 segno)
{
	u32 ofs = segno / SIT_ENTRY_PER_BLOCK;
	u32 addr = sbi->sit_blkaddr + ofs;

	if (f2fs_test_bit_msb(ofs, sbi->sm.sit_bitmap))
		addr += sbi->sm.sit_blocks;
	return addr;
}

static int load_sit_entry(struct f2fs_sb_info *sbi, u32 segno,
			  const struct f2fs_sit_entry *raw)
{
	struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);
	unsigned int vb = le16_to_cpu(raw->vblocks) & SIT_VBLOCKS_MASK;
	unsigned int i, bits = 0;

	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		bits += hweight8(raw->valid_map[i]);
	if (vb > sbi->blocks_per_seg || bits != vb) {
		f2fs_err(sbi, "SIT entry of segment %u invalid (%u valid blocks, %u in its map)",
			 segno, vb, bits);
		return -EFSCORRUPTED;
	}
	se->valid_blocks = vb;
	se->ckpt_valid_blocks = vb;
	se->type = le16_to_cpu(raw->vblocks) >> SIT_VBLOCKS_SHIFT;
	se->mtime = le64_to_cpu(raw->mtime);
	memcpy(se->valid_map, raw->valid_map, SIT_VBLOCK_MAP_SIZE);
	memcpy(se->ckpt_valid_map, raw->valid_map, SIT_VBLOCK_MAP_SIZE);
	return 0;
}

static const u8 *sit_bitmap_in_ckpt(struct f2fs_sb_info *sbi)
{
	if (le32_to_cpu(sbi->raw_super->cp_payload))
		return (u8 *)sbi->ckpt + F2FS_BLKSIZE;
	return sbi->ckpt->sit_nat_version_bitmap;
}

/**
 * f2fs_build_sit - load the SIT into memory and derive the free segments.
 * @sbi: the mount, with checkpoint and current segments loaded.
 *
 * Reads every SIT block (current copy) and applies the SIT journal, checks
 * the valid counts against the checkpoint's (node blocks exactly, all
 * blocks at most), and marks segments in use.  The current segments'
 * next free offsets are moved past any block in use.
 *
 * Return: 0, -ENOMEM, -EIO, or -EFSCORRUPTED when the SIT disagrees with
 * itself or the checkpoint.
 */
int f2fs_build_sit(struct f2fs_sb_info *sbi)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_COLD_DATA].sum->journal;
	u32 nsegs = sbi->main_segs;
	size_t map_bytes = BITS_TO_LONGS(nsegs) * sizeof(long);
	u64 total = 0, nodes = 0, cp_valid;
	u32 segno, blk, cp_nodes;
	unsigned int i;
	int err;

	mutex_init(&sm->seg_lock);
	sm->sit_blocks = (le32_to_cpu(sbi->raw_super->segment_count_sit) / 2) <<
			 sbi->log_blocks_per_seg;
	sm->sit_bitmap = (u8 *)sit_bitmap_in_ckpt(sbi);
	sm->mount_elapsed = le64_to_cpu(sbi->ckpt->elapsed_time);
	sm->mount_time = ktime_get_boottime_seconds();
	sm->rsvd_segs = le32_to_cpu(sbi->ckpt->rsvd_segment_count);
	sm->sentries = vzalloc(array_size(nsegs, sizeof(*sm->sentries)));
	sm->inuse_map = kvzalloc(map_bytes, GFP_KERNEL);
	sm->prefree_map = kvzalloc(map_bytes, GFP_KERNEL);
	sm->sit_dirty_map = kvzalloc(map_bytes, GFP_KERNEL);
	sm->ssa_staged_map = kvzalloc(map_bytes, GFP_KERNEL);
	if (!sm->sentries || !sm->inuse_map || !sm->prefree_map ||
	    !sm->sit_dirty_map || !sm->ssa_staged_map)
		return -ENOMEM;

	for (blk = 0; blk * SIT_ENTRY_PER_BLOCK < nsegs; blk++) {
		u32 addr = sit_block_addr(sbi, blk * SIT_ENTRY_PER_BLOCK);
		struct f2fs_sit_block *sb;
		struct page *page;

		page = f2fs_get_meta_page(sbi, addr);
		if (IS_ERR(page))
			return PTR_ERR(page);
		sb = page_address(page);
		for (i = 0; i < SIT_ENTRY_PER_BLOCK; i++) {
			segno = blk * SIT_ENTRY_PER_BLOCK + i;
			if (segno >= nsegs)
				break;
			err = load_sit_entry(sbi, segno, &sb->entries[i]);
			if (err) {
				put_page(page);
				return err;
			}
		}
		put_page(page);
	}
	for (i = 0; i < le16_to_cpu(j->n_sits); i++) {
		segno = le32_to_cpu(j->sit_j.entries[i].segno);
		if (segno >= nsegs) {
			f2fs_err(sbi, "SIT journal names segment %u of %u",
				 segno, nsegs);
			return -EFSCORRUPTED;
		}
		err = load_sit_entry(sbi, segno, &j->sit_j.entries[i].se);
		if (err)
			return err;
	}

	sm->free_segs = 0;
	for (segno = 0; segno < nsegs; segno++) {
		struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

		total += se->valid_blocks;
		if (f2fs_is_node_log(se->type))
			nodes += se->valid_blocks;
		if (se->valid_blocks || f2fs_is_curseg(sbi, segno))
			set_bit(segno, sm->inuse_map);
		else
			sm->free_segs++;
	}
	/*
	 * Every node the checkpoint counts has its block, so the node
	 * segments must hold exactly that many.  Data blocks are charged when
	 * they are reserved (NEW_ADDR in a direct node) and get their block
	 * only at writeback, so a checkpoint taken with data still in memory
	 * counts more valid blocks than the SIT holds (fsck.f2fs counts
	 * NEW_ADDR as valid too): fewer in the SIT is normal, more is not.
	 */
	cp_valid = le64_to_cpu(sbi->ckpt->valid_block_count);
	cp_nodes = le32_to_cpu(sbi->ckpt->valid_node_count);
	if (nodes != cp_nodes || total > cp_valid) {
		f2fs_err(sbi, "SIT counts %llu valid blocks (%llu in node segments), the checkpoint %llu (%u nodes)",
			 total, nodes, cp_valid, cp_nodes);
		return -EFSCORRUPTED;
	}
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		struct f2fs_curseg *cs = &sbi->curseg[i];
		struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, cs->segno);

		/*
		 * A log's segment carries the log's type (fsck checks it); the
		 * SIT entry is rewritten with the first block the log adds.
		 */
		se->type = i;
		while (cs->blkoff < sbi->blocks_per_seg &&
		       (f2fs_test_bit_msb(cs->blkoff, se->valid_map) ||
			f2fs_test_bit_msb(cs->blkoff, se->ckpt_valid_map)))
			cs->blkoff++;
	}
	return 0;
}

/**
 * f2fs_destroy_sit - free what f2fs_build_sit() allocated.
 * @sbi: the mount.
 */
void f2fs_destroy_sit(struct f2fs_sb_info *sbi)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct page *page;
	u32 segno;

	/* Summaries never written (the mount stopped): unpin their pages. */
	if (sm->ssa_staged_map && sbi->meta_inode) {
		for_each_set_bit(segno, sm->ssa_staged_map, sbi->main_segs) {
			page = find_get_page(sbi->meta_inode->i_mapping,
					     sbi->ssa_blkaddr + segno);
			if (page) {
				put_page(page);
				put_page(page);
			}
		}
	}
	kvfree(sm->ssa_staged_map);
	sm->ssa_staged_map = NULL;
	sm->ssa_staged = 0;
	vfree(sm->sentries);
	kvfree(sm->inuse_map);
	kvfree(sm->prefree_map);
	kvfree(sm->sit_dirty_map);
	sm->sentries = NULL;
	sm->inuse_map = NULL;
	sm->prefree_map = NULL;
	sm->sit_dirty_map = NULL;
}

static void mark_sit_dirty(struct f2fs_sb_info *sbi, u32 segno)
{
	if (!__test_and_set_bit(segno, sbi->sm.sit_dirty_map))
		sbi->sm.sit_dirty++;
}

static void mark_prefree(struct f2fs_sb_info *sbi, u32 segno)
{
	if (!__test_and_set_bit(segno, sbi->sm.prefree_map))
		sbi->sm.prefree_segs++;
}

/* Offset of the first block at or after @ofs free in both maps. */
static unsigned int next_free_ofs(struct f2fs_sb_info *sbi, u32 segno,
				  unsigned int ofs)
{
	struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

	while (ofs < sbi->blocks_per_seg &&
	       (f2fs_test_bit_msb(ofs, se->valid_map) ||
		f2fs_test_bit_msb(ofs, se->ckpt_valid_map)))
		ofs++;
	return ofs;
}

static bool section_free(struct f2fs_sb_info *sbi, u32 first)
{
	u32 i;

	for (i = 0; i < sbi->segs_per_sec; i++)
		if (test_bit(first + i, sbi->sm.inuse_map))
			return false;
	return true;
}

/*
 * Where a log opens its next section.  The stock module's policy, and
 * its defaults: with alloc_mode=reuse (the default) every log takes the
 * first free section from the start of the main area, reusing what the
 * cleaner and deletions freed there; the logs then share the lowest
 * free sections, so a checkpoint's SIT updates stay in few SIT blocks
 * (55 segments each).  With alloc_mode=default a log searches to the
 * right of where it is; at the end of the main area, heap allocation
 * turns the hot data and node logs back left (the nearest free section
 * below them) while warm and cold data wrap, so that the two classes
 * drift apart; no_heap (the default) instead takes the hot data and node
 * logs from the first free section, as reuse does.
 */
static bool alloc_left(struct f2fs_sb_info *sbi, enum f2fs_log_type type)
{
	return type != F2FS_LOG_WARM_DATA && type != F2FS_LOG_COLD_DATA;
}

/*
 * First wholly free section in [from, to) going up, or U32_MAX.  Jumps
 * over used segments with the bitmap: reuse searches from the start for
 * every new section.
 */
static u32 free_section_up(struct f2fs_sb_info *sbi, u32 from, u32 to)
{
	u32 spc = sbi->segs_per_sec, n = min(to * spc, sbi->main_segs);
	u32 s = from * spc;

	for (;;) {
		s = find_next_zero_bit(sbi->sm.inuse_map, n, s);
		if (s >= n)
			return U32_MAX;
		s -= s % spc;
		if (s + spc <= sbi->main_segs && section_free(sbi, s))
			return s / spc;
		s += spc;
	}
}

/* Pick a free segment for log @type leaving @cur; caller holds seg_lock. */
static int pick_free_segment(struct f2fs_sb_info *sbi, enum f2fs_log_type type,
			     u32 cur, u32 *out)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	u32 n = sbi->main_segs, spc = sbi->segs_per_sec, s, sec, from;
	u32 total = sbi->total_sections, cursec = cur / spc;
	bool heap = !f2fs_opt(sbi, F2FS_OPT_NO_HEAP);
	bool reuse = !f2fs_opt(sbi, F2FS_OPT_ALLOC_DEFAULT);

	/* Stay inside the current section while it has free segments. */
	if (spc > 1 && (cur + 1) % spc && cur + 1 < n &&
	    !test_bit(cur + 1, sm->inuse_map)) {
		*out = cur + 1;
		return 0;
	}
	/*
	 * Otherwise open a wholly free section: from the start, or right of
	 * this one and then, at the end, left (heap) or from the start.
	 */
	from = reuse || (!heap && alloc_left(sbi, type)) ? 0 : cursec + 1;
	sec = free_section_up(sbi, from, total);
	if (sec == U32_MAX && from && heap && alloc_left(sbi, type)) {
		for (sec = cursec; sec-- > 0;)
			if (section_free(sbi, sec * spc))
				break;
	} else if (sec == U32_MAX && from) {
		sec = free_section_up(sbi, 0, from);
	}
	if (sec != U32_MAX) {
		*out = sec * spc;
		return 0;
	}
	s = find_next_zero_bit(sm->inuse_map, n, cur + 1);
	if (s >= n)
		s = find_first_zero_bit(sm->inuse_map, n);
	if (s >= n)
		return -ENOSPC;
	*out = s;
	return 0;
}

static void sum_footer(struct f2fs_summary_block *sum, enum f2fs_log_type t)
{
	sum->footer.entry_type = t >= F2FS_LOG_HOT_NODE ? SUM_TYPE_NODE :
							  SUM_TYPE_DATA;
}

/*
 * Slack space recycling: with free segments scarce, a log may fill the
 * holes of a dirty segment instead of opening a free one (its own type's
 * segments first, then any of the same class: data or node).  The
 * design's threshold is the overprovision area: once free (and prefree)
 * segments no longer cover it, or twice the cleaner's reserve plus what
 * is dirty if that is more, data and hot/cold node logs recycle.  The
 * warm node log recycles only inside a checkpoint: outside one, fsync
 * chains its blocks through next_blkaddr from the checkpoint's position.
 *
 * Who may take the last free segments: the checkpoint, garbage collection
 * and recovery ("privileged" allocations) may take every free segment;
 * any other writer (writeback of data and nodes, fsync records) leaves
 * the room one cleaning pass needs (f2fs_gc_room_segs()) to them,
 * recycling holes instead, and otherwise gets -ENOSPC: writeback then
 * keeps the page dirty for later and wakes the cleaner.  Writers make sure
 * before they dirty pages that this never happens (f2fs_balance_fs()).
 */
static bool ssr = true;
module_param(ssr, bool, 0644);
MODULE_PARM_DESC(ssr, "let logs recycle dirty segments when free ones run short (slack space recycling); off, only within the reserve");

/* May the running task take the reserved segments? */
static bool alloc_privileged(struct f2fs_sb_info *sbi)
{
	return f2fs_in_checkpoint(sbi) || sbi->recovering ||
	       READ_ONCE(sbi->gc.running) == current;
}

static unsigned int dirty_page_segs(struct f2fs_sb_info *sbi);

static bool need_ssr(struct f2fs_sb_info *sbi, enum f2fs_log_type type,
		     unsigned int reserve)
{
	/* Recovery must not write over blocks the fsync chain still needs. */
	if (sbi->recovering)
		return false;
	/*
	 * With SSR turned off, it is still the last resort once free segments
	 * reach the reserve, so that writeback of data dirtied earlier never
	 * takes the segments the checkpoint's nodes need.  The warm node log
	 * recycles only then, and only inside a checkpoint.
	 */
	if (type == F2FS_LOG_WARM_NODE)
		return f2fs_in_checkpoint(sbi) && sbi->sm.free_segs <= reserve;
	if (sbi->sm.free_segs <= reserve)
		return true;
	if (!READ_ONCE(ssr))
		return false;
	/*
	 * Recycle well before foreground cleaning starts (free segments
	 * short of the cleaner's reserve plus what is dirty, f2fs_space_low()),
	 * as the stock module does with its min_ssr_sections: filling holes
	 * copies nothing, while cleaning near full copies nearly whole
	 * sections.  Without the margin, a device whose overprovision area
	 * is mostly the cleaner's reserve (small devices) cleaned instead.
	 */
	return sbi->sm.free_segs + sbi->sm.prefree_segs <
	       max(le32_to_cpu(sbi->ckpt->overprov_segment_count),
		   2 * sbi->sm.rsvd_segs + dirty_page_segs(sbi));
}

/* Blocks of @se free in both the current and the checkpointed map. */
static unsigned int ssr_free_blocks(struct f2fs_sb_info *sbi,
				    struct f2fs_seg_entry *se)
{
	unsigned int i, used = 0;

	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		used += hweight8(se->valid_map[i] | se->ckpt_valid_map[i]);
	return sbi->blocks_per_seg - used;
}

#define SSR_WINDOW	4096

/**
 * struct ssr_victim - outcome of a search for a segment to recycle.
 * @segno: the segment.
 * @reusable: its blocks free in both validity maps.
 * @scanned: segments looked at.
 * @search_ns: time the search took.
 */
struct ssr_victim {
	u32 segno;
	unsigned int reusable;
	unsigned int scanned;
	u64 search_ns;
};

/*
 * Pick the dirty segment with the most reusable blocks (greedy) for log
 * @type: one of its own type if any has holes, else one of its class,
 * scanning a window that starts where the last search ended.  Sections
 * chosen by GC are left to GC.  Caller holds seg_lock.
 */
static bool pick_ssr_segment(struct f2fs_sb_info *sbi, enum f2fs_log_type type,
			     struct ssr_victim *v)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	u32 n = sbi->main_segs, segno = sm->ssr_next % n, i, own = 0, other = 0;
	unsigned int best = 0, best_other = 0, nfree;

	v->search_ns = ktime_get_ns();
	for (i = 0; i < min_t(u32, n, SSR_WINDOW); i++, segno = (segno + 1) % n) {
		struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

		if (f2fs_is_node_log(se->type) != f2fs_is_node_log(type) ||
		    !test_bit(segno, sm->inuse_map) ||
		    test_bit(segno, sm->prefree_map) ||
		    f2fs_is_curseg(sbi, segno) ||
		    test_bit(segno / sbi->segs_per_sec, sbi->gc.victim_map))
			continue;
		nfree = ssr_free_blocks(sbi, se);
		if (se->type == type && nfree > best) {
			best = nfree;
			own = segno;
		} else if (se->type != type && nfree > best_other) {
			best_other = nfree;
			other = segno;
		}
	}
	sm->ssr_next = segno;
	v->scanned = i;
	v->segno = best ? own : other;
	v->reusable = best ? best : best_other;
	v->search_ns = ktime_get_ns() - v->search_ns;
	return v->reusable > 0;
}

/*
 * A finished segment's summary block is staged in the meta cache, pinned,
 * and written by the next checkpoint with the others, in one pass of
 * adjacent blocks (the SSA is only read after that checkpoint: a mount
 * takes the current segments' summaries from the pack, and the cleaner
 * and SSR read the cache).  Writing it at the switch cost a one-block
 * request per segment (a 1 GiB file: 512 of them).  At most
 * SSA_STAGED_MAX wait; the oldest lot is then written without waiting.
 */
#define SSA_STAGED_MAX	256

static void write_staged(struct f2fs_sb_info *sbi);

/* Stage @sum as segment @segno's summary block; caller holds seg_lock. */
static int stage_summary(struct f2fs_sb_info *sbi, u32 segno,
			 const struct f2fs_summary_block *sum)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct page *page;

	page = grab_cache_page(sbi->meta_inode->i_mapping,
			       sbi->ssa_blkaddr + segno);
	if (!page)
		return -ENOMEM;
	wait_on_page_writeback(page);	/* an earlier write of this block */
	memcpy(page_address(page), sum, F2FS_BLKSIZE);
	SetPageUptodate(page);
	unlock_page(page);
	if (__test_and_set_bit(segno, sm->ssa_staged_map))
		put_page(page);		/* pinned already */
	else if (++sm->ssa_staged >= SSA_STAGED_MAX)
		write_staged(sbi);
	return 0;
}

/* Write the staged summary blocks, in block order; seg_lock held. */
static void write_staged(struct f2fs_sb_info *sbi)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct f2fs_wbatch batch = {};
	struct blk_plug plug;
	struct page *page;
	u32 segno;

	blk_start_plug(&plug);
	for_each_set_bit(segno, sm->ssa_staged_map, sbi->main_segs) {
		__clear_bit(segno, sm->ssa_staged_map);
		sm->ssa_staged--;
		/* Our pin keeps it in the cache. */
		page = find_lock_page(sbi->meta_inode->i_mapping,
				      sbi->ssa_blkaddr + segno);
		if (WARN_ON_ONCE(!page))
			continue;
		f2fs_queue_meta_page(sbi, &batch, page, REQ_META);
		put_page(page);		/* find_lock_page's */
		put_page(page);		/* the pin */
	}
	f2fs_batch_submit(&batch);
	blk_finish_plug(&plug);
}

/**
 * f2fs_write_staged_summaries - write the summary blocks of the segments
 *	finished since the last checkpoint (see stage_summary()).
 * @sbi: the mount, inside a checkpoint, after its last block allocation;
 *	the checkpoint then waits for the writes with the others.
 */
void f2fs_write_staged_summaries(struct f2fs_sb_info *sbi)
{
	mutex_lock(&sbi->sm.seg_lock);
	write_staged(sbi);
	mutex_unlock(&sbi->sm.seg_lock);
}

/* Move log @type to a new segment; caller holds seg_lock. */
static int new_segment(struct f2fs_sb_info *sbi, enum f2fs_log_type type)
{
	struct f2fs_curseg *cs = &sbi->curseg[type];
	struct f2fs_sm_info *sm = &sbi->sm;
	unsigned int reserve = alloc_privileged(sbi) ? 0 :
			       f2fs_gc_room_segs(sbi);
	struct f2fs_seg_entry *se;
	struct ssr_victim v;
	struct page *ssa = NULL;
	u32 old = cs->segno, segno;
	u8 mode = F2FS_ALLOC_LFS;
	int err;

	if (need_ssr(sbi, type, reserve) && pick_ssr_segment(sbi, type, &v)) {
		/* The segment's summary has the owners of its valid blocks. */
		segno = v.segno;
		ssa = f2fs_get_meta_page(sbi, sbi->ssa_blkaddr + segno);
		if (!IS_ERR(ssa)) {
			mode = F2FS_ALLOC_SSR;
			se = f2fs_seg_entry(sbi, segno);
			sbi->stats.ssr_victim_valid += se->valid_blocks;
			trace_f2fs_ssr_victim(sbi->sb, type, segno, se->type,
					      se->valid_blocks, v.reusable,
					      v.scanned, v.search_ns);
		}
	}
	if (mode == F2FS_ALLOC_LFS && sm->free_segs <= reserve) {
		sbi->stats.alloc_nospace[type]++;
		err = -ENOSPC;
		goto put_ssa;
	}
	if (mode == F2FS_ALLOC_LFS) {
		err = pick_free_segment(sbi, type, old, &segno);
		if (err)
			return err;
	}
	/* The finished segment's summary now belongs in the SSA. */
	sum_footer(cs->sum, type);
	err = stage_summary(sbi, old, cs->sum);
	if (err)
		goto put_ssa;
	if (!f2fs_seg_entry(sbi, old)->valid_blocks)
		mark_prefree(sbi, old);

	se = f2fs_seg_entry(sbi, segno);
	/* Keep the journal: it travels with the log, not the segment. */
	if (mode == F2FS_ALLOC_SSR) {
		memcpy(cs->sum->entries,
		       ((struct f2fs_summary_block *)page_address(ssa))->entries,
		       sizeof(cs->sum->entries));
	} else {
		set_bit(segno, sm->inuse_map);
		sm->free_segs--;
		memset(cs->sum->entries, 0, sizeof(cs->sum->entries));
	}
	/* A log's segment carries the log's type (fsck checks it). */
	se->type = type;
	se->mtime = f2fs_now_elapsed(sbi);
	mark_sit_dirty(sbi, segno);
	sum_footer(cs->sum, type);
	cs->segno = segno;
	cs->blkoff = next_free_ofs(sbi, segno, 0);
	cs->alloc_type = mode;
	sbi->stats.segs_opened[type][mode]++;
	trace_f2fs_segment_alloc(sbi->sb, type, old, segno,
				 old / sbi->segs_per_sec, segno / sbi->segs_per_sec,
				 mode, sm->free_segs);
put_ssa:
	if (ssa && !IS_ERR(ssa))
		put_page(ssa);
	return err;
}

/**
 * f2fs_alloc_block - take the next block of a log.
 * @sbi: the mount.
 * @type: the log type the block belongs to (folded onto the active logs).
 * @sum: summary entry recording the block's owner.
 * @owner: the owner again, for the f2fs_block_write event; its @epoch is
 *	set to the write epoch the block counts in.
 * @blkaddr: set to the new block's address.
 * @next_blkaddr: set to the block the log will hand out next (for node
 *	footers), or NULL_ADDR when unknown.
 *
 * The block is marked valid in the SIT at once, and it cannot be handed
 * out again before the next checkpoint even if it is freed meanwhile: an
 * fsync record in the warm node log may point at it, and roll-forward
 * recovery must find what fsync wrote there.  The caller must submit the
 * block's write with f2fs_submit_write() or f2fs_batch_write(), with
 * @owner->epoch.
 *
 * Return: 0, -ENOSPC when no free segment is left, or -EIO when a summary
 * block cannot be written or a write failed before (f2fs_writes_failed()).
 */
int f2fs_alloc_block(struct f2fs_sb_info *sbi, enum f2fs_log_type type,
		     const struct f2fs_summary *sum,
		     struct f2fs_block_owner *owner, u32 *blkaddr,
		     u32 *next_blkaddr)
{
	struct f2fs_curseg *cs;
	struct f2fs_seg_entry *se;
	unsigned int ofs;
	int err = 0;

	/*
	 * After a failed write no checkpoint will be written: new blocks
	 * would never count, and a full log would retry its summary write
	 * at every block.  Callers keep their pages dirty, silently.
	 */
	if (f2fs_writes_failed(sbi))
		return -EIO;
	type = f2fs_active_log(sbi, type);
	cs = &sbi->curseg[type];
	mutex_lock(&sbi->sm.seg_lock);
	ofs = next_free_ofs(sbi, cs->segno, cs->blkoff);
	if (ofs >= sbi->blocks_per_seg) {
		err = new_segment(sbi, type);
		if (err)
			goto out;
		ofs = cs->blkoff;
		if (ofs >= sbi->blocks_per_seg) {
			err = -ENOSPC;
			goto out;
		}
	}
	se = f2fs_seg_entry(sbi, cs->segno);
	if (cs->alloc_type == F2FS_ALLOC_SSR)
		sbi->stats.ssr_blocks[type]++;
	else
		sbi->stats.lfs_blocks[type]++;
	cs->sum->entries[ofs] = *sum;
	f2fs_set_bit_msb(ofs, se->valid_map);
	/* Not reusable before the next checkpoint, even if freed: see below. */
	f2fs_set_bit_msb(ofs, se->ckpt_valid_map);
	se->valid_blocks++;
	se->mtime = f2fs_now_elapsed(sbi);
	mark_sit_dirty(sbi, cs->segno);
	*blkaddr = f2fs_seg_blkaddr(sbi, cs->segno) + ofs;
	trace_f2fs_block_write(sbi->sb, owner, *blkaddr, type, cs->alloc_type);
	/* In flight from now on; seg_lock orders it with an epoch flip. */
	owner->epoch = f2fs_count_in_flight(sbi, type ==
				f2fs_active_log(sbi, F2FS_LOG_WARM_NODE));

	cs->blkoff = next_free_ofs(sbi, cs->segno, ofs + 1);
	/* Open the next segment now so that the log's next block is known. */
	if (cs->blkoff >= sbi->blocks_per_seg && new_segment(sbi, type))
		cs->blkoff = sbi->blocks_per_seg;
	*next_blkaddr = cs->blkoff < sbi->blocks_per_seg ?
			f2fs_seg_blkaddr(sbi, cs->segno) + cs->blkoff :
			NULL_ADDR;
out:
	mutex_unlock(&sbi->sm.seg_lock);
	return err;
}

/**
 * f2fs_invalidate_block - mark a block no longer in use.
 * @sbi: the mount.
 * @blkaddr: a main-area block address (other values are ignored).
 */
void f2fs_invalidate_block(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	struct f2fs_seg_entry *se;
	u32 segno, ofs;

	if (!f2fs_valid_main_addr(sbi, blkaddr))
		return;
	segno = f2fs_seg_of(sbi, blkaddr);
	ofs = (blkaddr - sbi->main_blkaddr) & (sbi->blocks_per_seg - 1);
	mutex_lock(&sbi->sm.seg_lock);
	se = f2fs_seg_entry(sbi, segno);
	if (!f2fs_test_bit_msb(ofs, se->valid_map)) {
		f2fs_err(sbi, "freeing block %u, which is not in use", blkaddr);
		goto out;
	}
	f2fs_clear_bit_msb(ofs, se->valid_map);
	se->valid_blocks--;
	se->mtime = f2fs_now_elapsed(sbi);
	mark_sit_dirty(sbi, segno);
	if (!se->valid_blocks && !f2fs_is_curseg(sbi, segno))
		mark_prefree(sbi, segno);
out:
	mutex_unlock(&sbi->sm.seg_lock);
}

/**
 * f2fs_free_segments - free segments now (not counting prefree ones).
 * @sbi: the mount.
 *
 * Return: the count.
 */
unsigned int f2fs_free_segments(struct f2fs_sb_info *sbi)
{
	return READ_ONCE(sbi->sm.free_segs);
}

/*
 * Dirty pages of this filesystem: data, dentry and node pages not yet
 * written, over every writeback context of the device (each cgroup that
 * dirtied pages has its own).  Truncation and writeback keep these counts
 * right without any help from us.
 */
static unsigned long dirty_pages(struct f2fs_sb_info *sbi)
{
	struct backing_dev_info *bdi = sbi->sb->s_bdi;
	struct bdi_writeback *wb;
	s64 n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(wb, &bdi->wb_list, bdi_node)
		n += wb_stat(wb, WB_RECLAIMABLE);
	rcu_read_unlock();
	return n;
}

/* Segments the dirty pages and inodes fill when written (see below). */
static unsigned int dirty_page_segs(struct f2fs_sb_info *sbi)
{
	unsigned long blocks = 2 * dirty_pages(sbi) +
			       READ_ONCE(sbi->nr_dirty_inodes);

	return DIV_ROUND_UP(blocks, sbi->blocks_per_seg);
}

/**
 * f2fs_dirty_need_segs - free segments that writing what is dirty needs.
 * @sbi: the mount.
 *
 * Each dirty page takes a new block when written (out of place), and may
 * dirty one more node: its direct node; each meta-dirty inode takes its
 * inode block.  The logs may each open a new segment on the way.  This is
 * an upper bound: it counts nothing for the holes SSR reuses, nor for
 * nodes shared by many dirty pages.
 *
 * Return: a segment count.
 */
unsigned int f2fs_dirty_need_segs(struct f2fs_sb_info *sbi)
{
	return dirty_page_segs(sbi) + sbi->opt.active_logs;
}

/**
 * f2fs_gc_room_segs - free segments one cleaning pass needs to work in.
 * @sbi: the mount.
 *
 * Moving a victim section's valid blocks takes at most a section, and
 * the nodes they dirty at most another; the checkpoint that follows frees
 * the victim.  Writers other than the checkpoint and the cleaner never
 * take these.
 *
 * Return: a segment count.
 */
unsigned int f2fs_gc_room_segs(struct f2fs_sb_info *sbi)
{
	return 2 * sbi->segs_per_sec;
}

/**
 * f2fs_space_low - should the cleaner make room before more is dirtied?
 * @sbi: the mount.
 *
 * Free segments should cover the reserve the format keeps for cleaning
 * (rsvd_segment_count) plus the blocks that writing back everything dirty
 * now may take.  mkfs.f2fs counts a section for each log in that reserve
 * already, so the logs' new segments are not added again as they are in
 * f2fs_dirty_need_segs(): on a small device those few segments are most
 * of the slack between the reserve and full, and the cleaner would start
 * on sections with no invalid blocks left.  An image whose reserve is
 * smaller than the hard limit of f2fs_space_short() uses that limit.
 * Below this, writers make room first (f2fs_balance_fs()), and fsync
 * writes a checkpoint rather than a record.
 *
 * Return: true when free segments are short of that.
 */
bool f2fs_space_low(struct f2fs_sb_info *sbi)
{
	return f2fs_free_segments(sbi) <
	       max(sbi->sm.rsvd_segs,
		   f2fs_gc_room_segs(sbi) + sbi->opt.active_logs) +
	       dirty_page_segs(sbi);
}

/**
 * f2fs_space_short - is there no room left to dirty more at all?
 * @sbi: the mount.
 *
 * The hard limit under f2fs_space_low(): what is dirty must still fit,
 * with the cleaner's working room (f2fs_gc_room_segs()) to spare, so that
 * writeback, the checkpoint and cleaning always find free segments.  A
 * writer that finds it so after the cleaner did what it could gets
 * -ENOSPC.
 *
 * Return: true when free segments are short of that.
 */
bool f2fs_space_short(struct f2fs_sb_info *sbi)
{
	return f2fs_free_segments(sbi) <
	       f2fs_gc_room_segs(sbi) + f2fs_dirty_need_segs(sbi);
}

static void fill_sit_entry(struct f2fs_sb_info *sbi, u32 segno,
			   struct f2fs_sit_entry *raw)
{
	struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

	raw->vblocks = cpu_to_le16(((u16)se->type << SIT_VBLOCKS_SHIFT) |
				   se->valid_blocks);
	memcpy(raw->valid_map, se->valid_map, SIT_VBLOCK_MAP_SIZE);
	raw->mtime = cpu_to_le64(se->mtime);
}

/* A SIT block with @cnt changed entries. */
struct sit_group {
	u32 blk;
	unsigned int cnt;
};

/*
 * Keep @g among the SIT_JOURNAL_ENTRIES smallest groups seen so far,
 * sorted by count (the earlier block first on equal counts).
 */
static void keep_small_group(struct sit_group *small, unsigned int *nr,
			     u32 blk, unsigned int cnt)
{
	unsigned int i;

	if (cnt > SIT_JOURNAL_ENTRIES)
		return;
	for (i = *nr; i > 0 && small[i - 1].cnt > cnt; i--)
		if (i < SIT_JOURNAL_ENTRIES)
			small[i] = small[i - 1];
	if (i >= SIT_JOURNAL_ENTRIES)
		return;
	small[i].blk = blk;
	small[i].cnt = cnt;
	if (*nr < SIT_JOURNAL_ENTRIES)
		(*nr)++;
}

/*
 * Choose the SIT blocks whose changed entries go to the journal: the
 * blocks with the fewest changes, smallest first, while they fit (as
 * stock does).  Returns how many of @small are chosen.
 */
static unsigned int journal_groups(struct f2fs_sb_info *sbi,
				   struct sit_group *small)
{
	unsigned int nr = 0, cnt = 0, total = 0, k;
	u32 segno, blk = U32_MAX;

	for_each_set_bit(segno, sbi->sm.sit_dirty_map, sbi->main_segs) {
		if (segno / SIT_ENTRY_PER_BLOCK != blk) {
			if (cnt)
				keep_small_group(small, &nr, blk, cnt);
			blk = segno / SIT_ENTRY_PER_BLOCK;
			cnt = 0;
		}
		cnt++;
	}
	if (cnt)
		keep_small_group(small, &nr, blk, cnt);
	for (k = 0; k < nr && total + small[k].cnt <= SIT_JOURNAL_ENTRIES; k++)
		total += small[k].cnt;
	return k;
}

static bool in_groups(const struct sit_group *g, unsigned int nr, u32 blk)
{
	while (nr--)
		if (g[nr].blk == blk)
			return true;
	return false;
}

/**
 * f2fs_flush_sit - write the changed SIT entries for a checkpoint.
 * @sbi: the mount, inside a checkpoint.
 * @batch: the checkpoint's batch of meta writes (f2fs_queue_meta_block()).
 *
 * The changed entries (with those already in the journal) are grouped by
 * SIT block.  The groups with the fewest entries go to the SIT journal of
 * the cold data summary, smallest first, while they fit; every other
 * affected SIT block is written to its other copy, and the SIT version
 * bitmap in the checkpoint flips for it.  A log's first segment far from
 * the others (mkfs places the data logs at a quarter and at half of the
 * device) then costs a journal entry, not a SIT block per checkpoint.
 *
 * Return: 0 or the error of queueing a meta write (its I/O error comes
 * later, in sbi->wb_error).
 */
int f2fs_flush_sit(struct f2fs_sb_info *sbi, struct f2fs_wbatch *batch)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_COLD_DATA].sum->journal;
	struct sit_group small[SIT_JOURNAL_ENTRIES];
	struct f2fs_sit_block *blk = NULL;
	u32 segno, last_blk = U32_MAX;
	unsigned int i, n = 0, before, in_blocks = 0, blocks = 0, groups;
	int err = 0;

	mutex_lock(&sm->seg_lock);
	before = le16_to_cpu(j->n_sits);
	for (i = 0; i < le16_to_cpu(j->n_sits); i++)
		mark_sit_dirty(sbi, le32_to_cpu(j->sit_j.entries[i].segno));
	groups = journal_groups(sbi, small);
	if (sm->sit_dirty > SIT_JOURNAL_ENTRIES) {
		blk = kmalloc(F2FS_BLKSIZE, GFP_NOFS);
		if (!blk) {
			err = -ENOMEM;
			goto out;
		}
	}
	for_each_set_bit(segno, sm->sit_dirty_map, sbi->main_segs) {
		u32 b = segno / SIT_ENTRY_PER_BLOCK, s;

		if (in_groups(small, groups, b)) {
			j->sit_j.entries[n].segno = cpu_to_le32(segno);
			fill_sit_entry(sbi, segno, &j->sit_j.entries[n].se);
			n++;
			continue;
		}
		in_blocks++;
		if (b == last_blk)
			continue;
		last_blk = b;
		memset(blk, 0, F2FS_BLKSIZE);
		for (i = 0; i < SIT_ENTRY_PER_BLOCK; i++) {
			s = b * SIT_ENTRY_PER_BLOCK + i;
			if (s >= sbi->main_segs)
				break;
			fill_sit_entry(sbi, s, &blk->entries[i]);
		}
		f2fs_change_bit_msb(b, sm->sit_bitmap);
		err = f2fs_queue_meta_block(sbi, batch,
					    sit_block_addr(sbi, segno),
					    blk);
		if (err)
			break;
		blocks++;
	}
	j->n_sits = cpu_to_le16(n);
	kfree(blk);
out:
	if (!err) {
		sbi->stats.sit_flushes++;
		sbi->stats.sit_journal_entries += n;
		sbi->stats.sit_block_entries += in_blocks;
		sbi->stats.sit_blocks_written += blocks;
		trace_f2fs_sit_flush(sbi->sb, before, n, in_blocks, n, blocks);
	}
	mutex_unlock(&sm->seg_lock);
	return err;
}

/* Discard @len segments from @start; seg_lock held. */
static void discard_segments(struct f2fs_sb_info *sbi, u32 start, u32 len)
{
	sector_t sector = (sector_t)f2fs_seg_blkaddr(sbi, start) <<
			  (F2FS_BLKSIZE_BITS - 9);
	sector_t nr = (sector_t)len << sbi->log_blocks_per_seg <<
		      (F2FS_BLKSIZE_BITS - 9);
	int err;

	err = blkdev_issue_discard(sbi->sb->s_bdev, sector, nr, GFP_NOFS);
	if (err) {
		sbi->stats.discard_errors++;
		return;
	}
	sbi->stats.discarded_segs += len;
	trace_f2fs_discard(sbi->sb, start, len);
}

/**
 * f2fs_discard_prefree - discard the segments a durable checkpoint frees.
 * @sbi: the mount, inside a checkpoint whose pack is written, before
 *	f2fs_sit_checkpointed() makes these segments free again.
 *
 * With the discard option, the device learns which segments hold nothing
 * any more, so that a flash device can erase them ahead of need.  Runs of
 * adjacent segments go as one request.  Nothing can allocate meanwhile
 * (the checkpoint holds cp_rwsem), so no segment is discarded after its
 * reuse.  A device that fails a discard loses nothing: the error is
 * counted, and the segments are free all the same.
 */
void f2fs_discard_prefree(struct f2fs_sb_info *sbi)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	u32 segno, start = 0, len = 0;

	if (!f2fs_opt(sbi, F2FS_OPT_DISCARD))
		return;
	mutex_lock(&sm->seg_lock);
	for_each_set_bit(segno, sm->prefree_map, sbi->main_segs) {
		bool gone = !f2fs_seg_entry(sbi, segno)->valid_blocks &&
			    !f2fs_is_curseg(sbi, segno);

		if (gone && len && segno == start + len) {
			len++;
			continue;
		}
		if (len)
			discard_segments(sbi, start, len);
		start = segno;
		len = gone;
	}
	if (len)
		discard_segments(sbi, start, len);
	mutex_unlock(&sm->seg_lock);
}

/**
 * f2fs_sit_checkpointed - a checkpoint is durable: adopt its view.
 * @sbi: the mount.
 *
 * The current validity maps become the checkpointed ones, prefree
 * segments become free, and GC victims freed that way leave the victim
 * bitmap.
 */
void f2fs_sit_checkpointed(struct f2fs_sb_info *sbi)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	u32 segno, secno;

	mutex_lock(&sm->seg_lock);
	for_each_set_bit(segno, sm->sit_dirty_map, sbi->main_segs) {
		struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

		memcpy(se->ckpt_valid_map, se->valid_map, SIT_VBLOCK_MAP_SIZE);
		se->ckpt_valid_blocks = se->valid_blocks;
	}
	bitmap_zero(sm->sit_dirty_map, sbi->main_segs);
	sm->sit_dirty = 0;
	for_each_set_bit(segno, sm->prefree_map, sbi->main_segs) {
		if (f2fs_seg_entry(sbi, segno)->valid_blocks || f2fs_is_curseg(sbi, segno))
			continue;
		clear_bit(segno, sm->inuse_map);
		sm->free_segs++;
	}
	bitmap_zero(sm->prefree_map, sbi->main_segs);
	sm->prefree_segs = 0;
	for_each_set_bit(secno, sbi->gc.victim_map, sbi->total_sections) {
		u32 first = secno * sbi->segs_per_sec, i;

		for (i = 0; i < sbi->segs_per_sec; i++)
			if (test_bit(first + i, sm->inuse_map))
				break;
		if (i < sbi->segs_per_sec)
			continue;
		clear_bit(secno, sbi->gc.victim_map);
		sbi->stats.gc_secs_freed++;
	}
	mutex_unlock(&sm->seg_lock);
}

/*
 * ---- Failed writes ---------------------------------------------------------
 *
 * Blocks are written out of place: when a write fails, the in-memory NAT
 * entry or data address already names the new block, which holds nothing
 * readable.  The checkpoint that would make that durable fails too
 * (wb_error), so the disk keeps the previous state; but in memory the page
 * is the only good copy.  It is dirtied again (from process context: bio
 * completion cannot) so that reclaim and drop_caches keep it, and reads
 * go on returning what was written.  The mount is read-only by then, so
 * writeback leaves such pages alone until unmount discards them.  Meta
 * blocks (checkpoint, NAT, SIT, summaries) are left out: they matter only
 * to writes, which have stopped, and the meta cache cannot hold dirty
 * pages.
 */
struct f2fs_failed_page {
	struct list_head list;
	struct page *page;
};

static void redirty_failed(struct work_struct *work)
{
	struct f2fs_sb_info *sbi = container_of(work, struct f2fs_sb_info,
						failed_work);
	struct f2fs_failed_page *fp, *tmp;
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&sbi->failed_lock, flags);
	list_splice_init(&sbi->failed_pages, &list);
	spin_unlock_irqrestore(&sbi->failed_lock, flags);
	list_for_each_entry_safe(fp, tmp, &list, list) {
		lock_page(fp->page);
		if (fp->page->mapping)
			set_page_dirty(fp->page);
		unlock_page(fp->page);
		put_page(fp->page);
		kfree(fp);
	}
}

/**
 * f2fs_init_failed_writes - set up the failed-write list of a mount.
 * @sbi: the mount.
 */
void f2fs_init_failed_writes(struct f2fs_sb_info *sbi)
{
	spin_lock_init(&sbi->failed_lock);
	INIT_LIST_HEAD(&sbi->failed_pages);
	INIT_WORK(&sbi->failed_work, redirty_failed);
}

/**
 * f2fs_flush_failed_writes - finish with pages whose write failed.
 * @sbi: the mount, with no write in flight (before its inodes go).
 */
void f2fs_flush_failed_writes(struct f2fs_sb_info *sbi)
{
	flush_work(&sbi->failed_work);
}

/* In bio completion: remember @page for redirty_failed(). */
static void keep_failed_page(struct f2fs_sb_info *sbi, struct page *page)
{
	struct f2fs_failed_page *fp;
	unsigned long flags;

	if (page->mapping == sbi->meta_inode->i_mapping)
		return;
	fp = kmalloc(sizeof(*fp), GFP_ATOMIC | __GFP_NOWARN);
	if (!fp)
		return;		/* then a re-read after eviction fails */
	get_page(page);
	fp->page = page;
	spin_lock_irqsave(&sbi->failed_lock, flags);
	list_add_tail(&fp->list, &sbi->failed_pages);
	spin_unlock_irqrestore(&sbi->failed_lock, flags);
	schedule_work(&sbi->failed_work);
}

static void write_end_io(struct bio *bio, unsigned int epoch)
{
	struct f2fs_sb_info *sbi = bio->bi_private;
	bool wake;
	struct bio_vec *bv;
	struct bvec_iter_all iter;
	int pages = 0, first = 0;
	pgoff_t first_index = 0;
	unsigned long first_ino = 0;

	/* One message per mount: the first error says what follows. */
	if (bio->bi_status && !atomic_xchg(&sbi->wb_error, 1))
		first = 1;
	bio_for_each_segment_all(bv, bio, iter) {
		struct page *page = bv->bv_page;

		/*
		 * A meta cache page's index is its block address, a node
		 * page's its nid, a data page's its file offset: the bio's
		 * own sector has moved on by now.
		 */
		if (!pages) {
			first_ino = page->mapping->host->i_ino;
			first_index = page->index;
		}
		if (bio->bi_status) {
			mapping_set_error(page->mapping, -EIO);
			keep_failed_page(sbi, page);
		}
		end_page_writeback(page);
		pages++;
	}
	if (first && first_ino == sbi->meta_inode->i_ino)
		f2fs_err(sbi, "cannot write meta block %lu (%d): no checkpoint will be written, the last one stays in force (further write errors are not logged)",
			 first_index, blk_status_to_errno(bio->bi_status));
	else if (first && first_ino == sbi->node_inode->i_ino)
		f2fs_err(sbi, "write error %d on %d node blocks from nid %lu: no checkpoint will be written, the last one stays in force (further write errors are not logged)",
			 blk_status_to_errno(bio->bi_status), pages,
			 first_index);
	else if (first)
		f2fs_err(sbi, "write error %d on %d data blocks from inode %lu page %lu: no checkpoint will be written, the last one stays in force (further write errors are not logged)",
			 blk_status_to_errno(bio->bi_status), pages,
			 first_ino, first_index);
	bio_put(bio);
	wake = atomic_sub_and_test(pages, &sbi->wb_epoch_pending[epoch]);
	if (atomic_sub_and_test(pages, &sbi->wb_pending) || wake)
		wake_up_all(&sbi->wb_wait);
}

/* A bio holds blocks of one write epoch, which its end_io names. */
static void write_end_io_epoch0(struct bio *bio)
{
	write_end_io(bio, 0);
}

static void write_end_io_epoch1(struct bio *bio)
{
	write_end_io(bio, 1);
}

static void write_end_io_no_epoch(struct bio *bio)
{
	write_end_io(bio, F2FS_EPOCH_NONE);
}

static struct bio *new_write_bio(struct f2fs_sb_info *sbi, u32 blkaddr,
				 blk_opf_t flags, unsigned short vecs,
				 unsigned int epoch)
{
	struct bio *bio = bio_alloc(sbi->sb->s_bdev, vecs,
				    REQ_OP_WRITE | flags, GFP_NOIO);

	bio->bi_iter.bi_sector = (sector_t)blkaddr << (F2FS_BLKSIZE_BITS - 9);
	bio->bi_end_io = epoch == F2FS_EPOCH_NONE ? write_end_io_no_epoch :
			 epoch ? write_end_io_epoch1 : write_end_io_epoch0;
	bio->bi_private = sbi;
	return bio;
}

/* Send a write bio, counted for the mean bio size in debugfs. */
static void send_write_bio(struct bio *bio)
{
	struct f2fs_sb_info *sbi = bio->bi_private;

	atomic64_inc(&sbi->stats.wb_bios);
	atomic64_add(bio->bi_iter.bi_size >> F2FS_BLKSIZE_BITS,
		     &sbi->stats.wb_bio_blocks);
	submit_bio(bio);
}

/**
 * f2fs_submit_write - write one page to a block, asynchronously.
 * @sbi: the mount.  The block comes from f2fs_alloc_block(), which counted
 *	it in sbi->wb_pending already.
 * @page: a page already under writeback (set_page_writeback()); writeback
 *	ends when the write completes.
 * @blkaddr: the target block.
 * @flags: extra request flags.
 * @epoch: the block's write epoch (struct f2fs_block_owner).
 */
void f2fs_submit_write(struct f2fs_sb_info *sbi, struct page *page,
		       u32 blkaddr, blk_opf_t flags, unsigned int epoch)
{
	struct bio *bio = new_write_bio(sbi, blkaddr, flags, 1, epoch);

	__bio_add_page(bio, page, PAGE_SIZE, 0);
	send_write_bio(bio);
}

/*
 * A pass's batch is sent when the pass ends, and also whenever the pass
 * sleeps: for a page lock, a node page, a mutex, memory or a device tag.
 * Its pages are under writeback and counted as in flight, and whoever holds
 * what the pass sleeps on may be waiting for those very pages (a writer
 * holding the next page locked and waiting for a checkpoint, the checkpoint
 * waiting for every block in flight).  The block layer offers the hook:
 * a callback on the task's plug runs when the task is about to sleep, as
 * md's RAID code uses it.  Going to sleep is no place to submit a bio
 * (submit_bio may itself sleep), so the callback hands the bios to a work
 * item on f2fs_batch_wq, which has a rescuer: the bios must go out under
 * memory pressure too, reclaim may be what waits for them.
 */
static struct workqueue_struct *f2fs_batch_wq;

/**
 * struct f2fs_unplug - the plug callback of a batch that holds bios.
 * @cb: registered on current->plug by blk_check_plugged() (first member:
 *	the block layer allocates and lists it).
 * @work: sends @bios when the callback ran on the way to sleep.
 * @bios: the batch's bios, taken over by the callback.
 *
 * Owned by the task of the pass until the callback runs, then by @work;
 * freed by whichever sends the bios, or by f2fs_batch_submit().
 */
struct f2fs_unplug {
	struct blk_plug_cb cb;
	struct work_struct work;
	struct bio *bios[F2FS_NR_LOGS];
};

static void send_unplugged(struct work_struct *work)
{
	struct f2fs_unplug *u = container_of(work, struct f2fs_unplug, work);
	unsigned int i;

	for (i = 0; i < F2FS_NR_LOGS; i++)
		if (u->bios[i])
			send_write_bio(u->bios[i]);
	kfree(u);
}

/* The plug is flushed: sleeping (@from_schedule) or at blk_finish_plug(). */
static void batch_unplug(struct blk_plug_cb *cb, bool from_schedule)
{
	struct f2fs_unplug *u = container_of(cb, struct f2fs_unplug, cb);
	struct f2fs_wbatch *b = cb->data;
	struct f2fs_sb_info *sbi = NULL;
	unsigned int i;

	b->unplug = NULL;
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		u->bios[i] = b->log[i].bio;
		b->log[i].bio = NULL;
		if (u->bios[i])
			sbi = u->bios[i]->bi_private;
	}
	if (from_schedule && sbi) {
		atomic64_inc(&sbi->stats.wb_slept_batches);
		INIT_WORK(&u->work, send_unplugged);
		queue_work(f2fs_batch_wq, &u->work);
	} else {
		send_unplugged(&u->work);
	}
}

/**
 * f2fs_batch_write - write a page as part of a batch of adjacent blocks.
 * @sbi: the mount (the block is counted in sbi->wb_pending already).
 * @b: the batch of the caller's writeback pass.
 * @page: a page under writeback.
 * @blkaddr: its new block.
 * @flags: extra request flags.
 * @epoch: the block's write epoch (struct f2fs_block_owner).
 * @type: the log the block came from (each log has its own bio).
 *
 * A log hands out adjacent blocks, so one writepages pass over a file
 * mostly writes a run of them: the run goes to the device as one bio, not
 * one bio per page.  A bio stops at what the device takes in one request
 * (its segments, physically adjacent pages making one, and its sectors):
 * a larger one would be split, and each split's tail sent alone.  A block
 * that does not follow the log's last one sends that log's bio first.  The
 * caller sends the batch with f2fs_batch_submit() before it returns; should
 * it sleep before that, the batch goes out on its own (see f2fs_batch_wq
 * above).  Without a plug on the task the page is sent at once.
 */
void f2fs_batch_write(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
		      struct page *page, u32 blkaddr, blk_opf_t flags,
		      unsigned int epoch, enum f2fs_log_type type)
{
	typeof(b->log[0]) *l = &b->log[type];
	struct request_queue *q;
	struct blk_plug_cb *cb;
	struct bio *bio;

	/* bio_add_page() refuses a page past the bio's vector count. */
	if (l->bio && blkaddr == l->next_blk && epoch == l->epoch &&
	    l->bio->bi_opf == (REQ_OP_WRITE | flags) &&
	    l->bio->bi_iter.bi_size < l->max_bytes &&
	    bio_add_page(l->bio, page, PAGE_SIZE, 0) == PAGE_SIZE) {
		l->next_blk++;
		return;
	}
	/* Each of these may sleep, and so send the whole batch meanwhile. */
	bio = l->bio;
	l->bio = NULL;
	if (bio)
		send_write_bio(bio);
	/* A bio the device takes whole: a split's tail would be a request. */
	q = bdev_get_queue(sbi->sb->s_bdev);
	bio = new_write_bio(sbi, blkaddr, flags,
			    min_t(unsigned int, BIO_MAX_VECS,
				  queue_max_segments(q)), epoch);
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	/* From here to storing the bio nothing sleeps (GFP_ATOMIC). */
	if (!b->unplug) {
		cb = blk_check_plugged(batch_unplug, b,
				       sizeof(struct f2fs_unplug));
		if (!cb) {
			send_write_bio(bio);
			return;
		}
		b->unplug = container_of(cb, struct f2fs_unplug, cb);
	}
	l->bio = bio;
	l->next_blk = blkaddr + 1;
	l->epoch = epoch;
	l->max_bytes = queue_max_sectors(q) << SECTOR_SHIFT;
}

/**
 * f2fs_batch_submit - send what a batch holds.
 * @b: the batch; empty afterwards, and no longer known to the task's plug
 *	(which may outlive the caller's frame: a plug started by an outer
 *	caller, such as the flusher's, is the one in force).
 */
void f2fs_batch_submit(struct f2fs_wbatch *b)
{
	struct bio *bios[F2FS_NR_LOGS];
	unsigned int i;

	if (!b->unplug)
		return;		/* empty: the callback took the bios, or none */
	/* Unhook first: submit_bio() may sleep, which would run the hook. */
	list_del(&b->unplug->cb.list);
	kfree(b->unplug);
	b->unplug = NULL;
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		bios[i] = b->log[i].bio;
		b->log[i].bio = NULL;
	}
	for (i = 0; i < F2FS_NR_LOGS; i++)
		if (bios[i])
			send_write_bio(bios[i]);
}

/**
 * f2fs_create_batch_wq - create the workqueue that sends the batches of
 *	passes gone to sleep (module load).
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_create_batch_wq(void)
{
	f2fs_batch_wq = alloc_workqueue("f2fs_batch", WQ_MEM_RECLAIM, 0);
	return f2fs_batch_wq ? 0 : -ENOMEM;
}

/**
 * f2fs_destroy_batch_wq - drain and free it (module unload).
 */
void f2fs_destroy_batch_wq(void)
{
	destroy_workqueue(f2fs_batch_wq);
}

/**
 * f2fs_count_in_flight - count a block as in flight until its bio ends.
 * @sbi: the mount.
 * @chain: the block is in the log of the fsync chain (roll-forward
 *	recovery follows that log's blocks one to the next, so an fsync
 *	record is found only if every block before it there is written).
 *
 * Every block written through f2fs_batch_write() or f2fs_submit_write() is
 * counted so first; the bio's end_io uncounts it and wakes the waiters of
 * f2fs_wait_writes() and f2fs_wait_epoch().  A caller whose block an fsync
 * may wait for holds sm.seg_lock, which orders it with an epoch flip.
 *
 * Return: the write epoch the block counts in, for its bio: 0 or 1 for a
 * block of the chain, else F2FS_EPOCH_NONE.
 */
unsigned int f2fs_count_in_flight(struct f2fs_sb_info *sbi, bool chain)
{
	unsigned int epoch = chain ? READ_ONCE(sbi->wb_epoch) : F2FS_EPOCH_NONE;

	atomic_inc(&sbi->wb_pending);
	atomic_inc(&sbi->wb_epoch_pending[epoch]);
	return epoch;
}

/**
 * f2fs_wait_writes - wait until every block allocated so far is written.
 * @sbi: the mount.
 */
void f2fs_wait_writes(struct f2fs_sb_info *sbi)
{
	wait_event(sbi->wb_wait, !atomic_read(&sbi->wb_pending));
}

/**
 * f2fs_wait_epoch - wait until every block of the fsync chain's log
 *	allocated so far is written, but not for blocks allocated while
 *	waiting.
 * @sbi: the mount.
 *
 * New blocks go to the other epoch from here on; the wait is for the old
 * epoch's blocks only, so that a steady writer cannot keep it waiting, as
 * it can f2fs_wait_writes().  An fsync waits so for its record and for
 * every node block before it in the warm node chain, which recovery must
 * be able to follow up to the record.  Data blocks are not waited for
 * here: the file's own are waited for by f2fs_fsync_node_pages() through
 * its page cache, and other files' are no part of the chain (a data block of another file
 * held in the flusher's block plug made fsyncs beside a creator of small
 * files wait for up to 700 ms when all logs counted).
 */
void f2fs_wait_epoch(struct f2fs_sb_info *sbi)
{
	unsigned int old;

	mutex_lock(&sbi->epoch_lock);
	mutex_lock(&sbi->sm.seg_lock);
	old = sbi->wb_epoch;
	sbi->wb_epoch = !old;
	mutex_unlock(&sbi->sm.seg_lock);
	wait_event(sbi->wb_wait, !atomic_read(&sbi->wb_epoch_pending[old]));
	mutex_unlock(&sbi->epoch_lock);
}

/*
 * ---- Roll-forward recovery support ---------------------------------------
 *
 * Recovery (recovery.c) claims the data blocks fsync wrote after the
 * checkpoint, keeps the segments of the fsync chain from being reused
 * before its own checkpoint is durable, and moves the warm node log off
 * the chain before that checkpoint writes nodes.
 */

/**
 * f2fs_claim_block - mark a block written after the checkpoint as in use.
 * @sbi: the mount, during recovery.
 * @blkaddr: a main-area block.
 * @type: the data log type to give the segment if it was free.
 * @sum: the block's owner, for its segment summary.
 *
 * Return: 0; -EFSCORRUPTED when the block is outside the main area or
 * already in use (at the checkpoint or claimed by an earlier record);
 * -EIO or -ENOMEM when its segment summary cannot be read.
 */
int f2fs_claim_block(struct f2fs_sb_info *sbi, u32 blkaddr,
		     enum f2fs_log_type type, const struct f2fs_summary *sum)
{
	struct f2fs_sm_info *sm = &sbi->sm;
	struct f2fs_seg_entry *se;
	struct f2fs_summary_block *sb;
	struct page *ssa = NULL;
	u32 segno, ofs;
	int err = 0;

	if (!f2fs_valid_main_addr(sbi, blkaddr))
		return -EFSCORRUPTED;
	segno = f2fs_seg_of(sbi, blkaddr);
	ofs = (blkaddr - sbi->main_blkaddr) & (sbi->blocks_per_seg - 1);
	mutex_lock(&sm->seg_lock);
	se = f2fs_seg_entry(sbi, segno);
	if (f2fs_test_bit_msb(ofs, se->valid_map) ||
	    f2fs_test_bit_msb(ofs, se->ckpt_valid_map)) {
		err = -EFSCORRUPTED;
		goto unlock;
	}
	if (f2fs_is_curseg(sbi, segno)) {
		unsigned int i;

		for (i = 0; i < F2FS_NR_LOGS; i++)
			if (sbi->curseg[i].segno == segno)
				break;
		if (f2fs_is_node_log(i)) {
			err = -EFSCORRUPTED;	/* data in a node log */
			goto unlock;
		}
		sbi->curseg[i].sum->entries[ofs] = *sum;
	} else {
		/*
		 * Segments outside the logs keep their summary in the SSA;
		 * rewriting entries of unused blocks in place is harmless to
		 * the checkpoint in force.
		 */
		ssa = f2fs_get_meta_page(sbi, sbi->ssa_blkaddr + segno);
		if (IS_ERR(ssa)) {
			err = PTR_ERR(ssa);
			goto unlock;
		}
		sb = kmalloc(F2FS_BLKSIZE, GFP_NOFS);
		if (!sb) {
			err = -ENOMEM;
			goto put_ssa;
		}
		memcpy(sb, page_address(ssa), F2FS_BLKSIZE);
		if (!test_bit(segno, sm->inuse_map) || !se->valid_blocks)
			memset(sb->entries, 0, sizeof(sb->entries));
		sb->entries[ofs] = *sum;
		sum_footer(sb, type);
		err = f2fs_write_meta_block(sbi, sbi->ssa_blkaddr + segno, sb, 0);
		kfree(sb);
		if (err)
			goto put_ssa;
	}
	if (!test_bit(segno, sm->inuse_map)) {
		set_bit(segno, sm->inuse_map);
		sm->free_segs--;
		se->type = type;
	}
	if (__test_and_clear_bit(segno, sm->prefree_map))
		sm->prefree_segs--;
	f2fs_set_bit_msb(ofs, se->valid_map);
	f2fs_set_bit_msb(ofs, se->ckpt_valid_map);
	se->valid_blocks++;
	se->mtime = f2fs_now_elapsed(sbi);
	mark_sit_dirty(sbi, segno);
put_ssa:
	if (ssa)
		put_page(ssa);
unlock:
	mutex_unlock(&sm->seg_lock);
	return err;
}

/**
 * f2fs_hold_segment - keep a free segment from reuse until a checkpoint.
 * @sbi: the mount, during recovery.
 * @segno: a segment holding blocks of the fsync chain.
 *
 * A free segment becomes prefree: allocation skips it, and the checkpoint
 * that ends recovery frees it again.  Segments in use are left alone (the
 * blocks of the chain in them are not reusable before a checkpoint).
 */
void f2fs_hold_segment(struct f2fs_sb_info *sbi, u32 segno)
{
	struct f2fs_sm_info *sm = &sbi->sm;

	if (segno >= sbi->main_segs)
		return;
	mutex_lock(&sm->seg_lock);
	if (!test_bit(segno, sm->inuse_map)) {
		set_bit(segno, sm->inuse_map);
		sm->free_segs--;
		mark_prefree(sbi, segno);
	}
	mutex_unlock(&sm->seg_lock);
}

/**
 * f2fs_move_log - make a log continue in a new segment.
 * @sbi: the mount.
 * @type: the log.
 *
 * Return: 0, -ENOSPC, or -EIO when the old segment's summary cannot be
 * written.
 */
int f2fs_move_log(struct f2fs_sb_info *sbi, enum f2fs_log_type type)
{
	int err;

	mutex_lock(&sbi->sm.seg_lock);
	err = new_segment(sbi, type);
	mutex_unlock(&sbi->sm.seg_lock);
	return err;
}
