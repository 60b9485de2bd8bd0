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
#include <linux/slab.h>
#include "f2fs.h"

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
