// SPDX-License-Identifier: GPL-2.0
/*
 * checkpoint.c - meta block cache and checkpoint pack selection.
 *
 * Every metadata block outside the main area (checkpoint packs, SIT, NAT,
 * SSA) is read through the meta inode, whose page index is the block
 * address itself, so repeated reads of NAT or summary blocks hit the page
 * cache.
 *
 * A checkpoint pack is a run of blocks that starts and ends with a copy of
 * struct f2fs_checkpoint; each copy carries a CRC and the same version.
 * Two packs alternate, one segment apart.  Mount picks the newer pack whose
 * both ends are valid, so a write torn in the middle of a pack leaves the
 * older, complete pack in force.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

static int f2fs_meta_read_folio(struct file *file, struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_SB(folio->mapping->host->i_sb);

	return f2fs_submit_page_read(sbi, &folio->page, folio->index);
}

const struct address_space_operations f2fs_meta_aops = {
	.read_folio	= f2fs_meta_read_folio,
};

/**
 * f2fs_get_meta_page - read one metadata block through the meta cache.
 * @sbi: the mount.
 * @blkaddr: block address, which must lie before the main area.
 *
 * Return: the uptodate page with a reference held (release it with
 * put_page()), or ERR_PTR(-EFSCORRUPTED) for an address outside the meta
 * areas, or ERR_PTR(-EIO) on a read error.
 */
struct page *f2fs_get_meta_page(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	struct page *page;

	if (blkaddr < sbi->seg0_blkaddr || blkaddr >= sbi->main_blkaddr) {
		f2fs_err(sbi, "meta block address %u outside [%u, %u)",
			 blkaddr, sbi->seg0_blkaddr, sbi->main_blkaddr);
		return ERR_PTR(-EFSCORRUPTED);
	}
	page = read_mapping_page(sbi->meta_inode->i_mapping, blkaddr, NULL);
	if (IS_ERR(page))
		return ERR_PTR(-EIO);
	return page;
}

/**
 * f2fs_read_meta_blocks - copy consecutive metadata blocks into a buffer.
 * @sbi: the mount.
 * @blkaddr: first block.
 * @buf: destination, @count blocks long.
 * @count: number of blocks.
 *
 * Return: 0, or the error of f2fs_get_meta_page().
 */
int f2fs_read_meta_blocks(struct f2fs_sb_info *sbi, u32 blkaddr, void *buf,
			  unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		struct page *page = f2fs_get_meta_page(sbi, blkaddr + i);

		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy(buf + i * F2FS_BLKSIZE, page_address(page),
		       F2FS_BLKSIZE);
		put_page(page);
	}
	return 0;
}

/* Why a pack that mkfs.f2fs left for the first checkpoint is not used. */
static const char cp_unwritten[] = "never written (version zero)";

/*
 * Check one checkpoint block: the checksum offset must be in range and the
 * CRC stored there must match.  Returns the version, or 0 with *why set.
 */
static u64 cp_block_version(struct f2fs_sb_info *sbi, u32 blkaddr,
			    struct page **pagep, const char **why)
{
	struct f2fs_checkpoint *cp;
	struct page *page;
	u32 crc_ofs;

	*pagep = NULL;
	page = f2fs_get_meta_page(sbi, blkaddr);
	if (IS_ERR(page)) {
		*why = "read error";
		return 0;
	}
	cp = page_address(page);
	crc_ofs = le32_to_cpu(cp->checksum_offset);
	if (crc_ofs < CP_MIN_CHKSUM_OFFSET || crc_ofs > CP_CHKSUM_OFFSET ||
	    crc_ofs % sizeof(__le32)) {
		*why = "bad checksum offset";
		goto bad;
	}
	if (f2fs_crc(cp, crc_ofs) !=
	    le32_to_cpu(*(__le32 *)((u8 *)cp + crc_ofs))) {
		*why = "CRC mismatch";
		goto bad;
	}
	if (!le64_to_cpu(cp->checkpoint_ver)) {
		*why = cp_unwritten;
		goto bad;
	}
	*pagep = page;
	return le64_to_cpu(cp->checkpoint_ver);
bad:
	put_page(page);
	return 0;
}

/*
 * Validate a whole pack starting at @start: both ends valid, same version,
 * a sane block count.  Returns the version (0 when invalid, with *why set)
 * and the page of the first block.
 */
static u64 cp_pack_version(struct f2fs_sb_info *sbi, u32 start,
			   struct page **first, const char **why)
{
	struct f2fs_checkpoint *cp;
	struct page *last;
	u64 ver1, ver2;
	u32 total;

	ver1 = cp_block_version(sbi, start, first, why);
	if (!ver1)
		return 0;
	cp = page_address(*first);
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	/* Smallest: two checkpoint blocks around one compact summary block. */
	if (total < 3 || total > sbi->blocks_per_seg) {
		*why = "bad pack size";
		goto bad;
	}
	ver2 = cp_block_version(sbi, start + total - 1, &last, why);
	if (!ver2) {
		*why = "last block invalid";
		goto bad;
	}
	put_page(last);
	if (ver1 != ver2) {
		*why = "torn pack: versions differ";
		goto bad;
	}
	return ver1;
bad:
	put_page(*first);
	*first = NULL;
	return 0;
}

/* Geometry checks of the chosen checkpoint against the superblock. */
static int check_cp(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	struct f2fs_checkpoint *cp = sbi->ckpt;
	u32 sit_segs = le32_to_cpu(raw->segment_count_sit);
	u32 nat_segs = le32_to_cpu(raw->segment_count_nat);
	u32 payload = le32_to_cpu(raw->cp_payload);
	u32 start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	u32 total = le32_to_cpu(cp->cp_pack_total_block_count);
	u64 user = le64_to_cpu(cp->user_block_count);
	u64 valid = le64_to_cpu(cp->valid_block_count);
	u32 meta, sums, i, j;

	meta = le32_to_cpu(raw->segment_count_ckpt) + sit_segs + nat_segs +
	       le32_to_cpu(raw->segment_count_ssa) +
	       le32_to_cpu(cp->rsvd_segment_count);
	if (meta >= le32_to_cpu(raw->segment_count)) {
		f2fs_err(sbi, "checkpoint reserves more segments than exist");
		return -EFSCORRUPTED;
	}
	if (!user || user > (u64)sbi->main_segs * sbi->blocks_per_seg ||
	    valid > user) {
		f2fs_err(sbi, "checkpoint block counts invalid (user %llu, valid %llu)",
			 user, valid);
		return -EFSCORRUPTED;
	}
	if (le32_to_cpu(cp->free_segment_count) > sbi->main_segs) {
		f2fs_err(sbi, "checkpoint free segment count invalid");
		return -EFSCORRUPTED;
	}
	if (le32_to_cpu(cp->sit_ver_bitmap_bytesize) !=
	    ((sit_segs / 2) << sbi->log_blocks_per_seg) / 8 ||
	    le32_to_cpu(cp->nat_ver_bitmap_bytesize) !=
	    ((nat_segs / 2) << sbi->log_blocks_per_seg) / 8) {
		f2fs_err(sbi, "checkpoint version bitmap sizes invalid");
		return -EFSCORRUPTED;
	}
	/*
	 * The data logs' summaries take one or two blocks in the compact
	 * form, three in the full one; an unmount pack adds the node logs'.
	 */
	sums = (le32_to_cpu(cp->ckpt_flags) & CP_COMPACT_SUM_FLAG) ? 1 :
	       F2FS_NR_DATA_LOGS;
	if (le32_to_cpu(cp->ckpt_flags) & (CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG))
		sums += F2FS_NR_NODE_LOGS;
	if (start_sum < 1 + payload || (u64)start_sum + sums > total - 1) {
		f2fs_err(sbi, "checkpoint summary start %u invalid", start_sum);
		return -EFSCORRUPTED;
	}
	for (i = 0; i < F2FS_NR_NODE_LOGS; i++) {
		if (le32_to_cpu(cp->cur_node_segno[i]) >= sbi->main_segs ||
		    le16_to_cpu(cp->cur_node_blkoff[i]) > sbi->blocks_per_seg)
			goto bad_curseg;
		if (le32_to_cpu(cp->cur_data_segno[i]) >= sbi->main_segs ||
		    le16_to_cpu(cp->cur_data_blkoff[i]) > sbi->blocks_per_seg)
			goto bad_curseg;
	}
	for (i = 0; i < F2FS_NR_NODE_LOGS; i++)
		for (j = 0; j < F2FS_NR_DATA_LOGS; j++)
			if (cp->cur_node_segno[i] == cp->cur_data_segno[j])
				goto bad_curseg;
	if (le32_to_cpu(cp->valid_node_count) > sbi->total_node_count ||
	    le32_to_cpu(cp->valid_inode_count) >
	    le32_to_cpu(cp->valid_node_count)) {
		f2fs_err(sbi, "checkpoint node counts invalid");
		return -EFSCORRUPTED;
	}
	return 0;
bad_curseg:
	f2fs_err(sbi, "checkpoint current segments invalid");
	return -EFSCORRUPTED;
}

/**
 * f2fs_load_checkpoint - choose the newest valid checkpoint pack.
 * @sbi: the mount, with the superblock geometry and meta inode set up.
 *
 * Reads both packs, keeps the newer valid one (with its payload blocks) in
 * sbi->ckpt, and checks it against the superblock.
 *
 * Return: 0; -EFSCORRUPTED when no pack is valid or the chosen pack does not
 * fit the superblock; -ENOMEM.
 */
int f2fs_load_checkpoint(struct f2fs_sb_info *sbi)
{
	u32 cp_blkaddr = le32_to_cpu(sbi->raw_super->cp_blkaddr);
	u32 payload = le32_to_cpu(sbi->raw_super->cp_payload);
	const char *why1 = NULL, *why2 = NULL;
	struct page *p1, *p2, *cur;
	u64 v1, v2;
	int err;

	v1 = cp_pack_version(sbi, cp_blkaddr, &p1, &why1);
	v2 = cp_pack_version(sbi, cp_blkaddr + sbi->blocks_per_seg, &p2,
			     &why2);
	if (!v1 && !v2) {
		f2fs_err(sbi, "no valid checkpoint pack (pack 1: %s, pack 2: %s)",
			 why1, why2);
		return -EFSCORRUPTED;
	}
	/*
	 * Versions only grow; compare as the wrapping counters they are.  On
	 * a tie pack 1 wins, as in f2fs-tools and the stock module: sload.f2fs
	 * and fsck.f2fs rewrite the pack in use without bumping its version,
	 * and leave mkfs's pack 2 at the same version.
	 */
	if (v1 && (!v2 || (s64)(v2 - v1) <= 0)) {
		cur = p1;
		sbi->cp_addr = cp_blkaddr;
		sbi->cp_ver = v1;
	} else {
		cur = p2;
		sbi->cp_addr = cp_blkaddr + sbi->blocks_per_seg;
		sbi->cp_ver = v2;
	}
	/* mkfs writes only one pack: its other pack is not worth a word. */
	if ((!v1 || !v2) && (v1 ? why2 : why1) != cp_unwritten)
		f2fs_info(sbi, "checkpoint pack %d not valid (%s), using pack %d",
			  v1 ? 2 : 1, v1 ? why2 : why1, v1 ? 1 : 2);

	sbi->ckpt_size = (1 + payload) * F2FS_BLKSIZE;
	sbi->ckpt = kvmalloc(sbi->ckpt_size, GFP_KERNEL);
	if (!sbi->ckpt) {
		err = -ENOMEM;
		goto out_put_pages;
	}
	memcpy(sbi->ckpt, page_address(cur), F2FS_BLKSIZE);
	err = f2fs_read_meta_blocks(sbi, sbi->cp_addr + 1,
				    (u8 *)sbi->ckpt + F2FS_BLKSIZE, payload);
	if (err)
		goto out_free_ckpt;
	err = check_cp(sbi);
	if (err)
		goto out_free_ckpt;
	goto out_put_pages;

out_free_ckpt:
	kvfree(sbi->ckpt);
	sbi->ckpt = NULL;
out_put_pages:
	if (p1)
		put_page(p1);
	if (p2)
		put_page(p2);
	return err;
}

/*
 * ---- Writing checkpoints ---------------------------------------------------
 *
 * A checkpoint makes the in-memory state durable as one consistent cut:
 *
 *   1. operations that change metadata are held off (cp_rwsem exclusive);
 *   2. dentry pages of directories are written, then every dirty inode's
 *      fields go to its node page, then all dirty node pages are written
 *      to the node logs, and every write is waited for;
 *   3. dirty NAT and SIT entries go to the journals or to the other copy
 *      of their blocks, and the node logs' summaries to the SSA;
 *   4. the pack is written to the pack not in use: checkpoint block,
 *      payload, orphan inode blocks, the data logs' summaries (and the
 *      node logs' at unmount), then - after a cache flush - the closing
 *      checkpoint block with FUA.  Only that last block makes the new
 *      pack valid, so a crash at any point leaves the previous one in
 *      force.
 */

/*
 * The cache page of meta block @blkaddr, locked, holding @buf, with no
 * write of it in flight (a queued one in @b, if any, is sent first).
 */
static struct page *fill_meta_page(struct f2fs_sb_info *sbi,
				   struct f2fs_wbatch *b, u32 blkaddr,
				   const void *buf)
{
	struct page *page;

	if (blkaddr < sbi->seg0_blkaddr || blkaddr >= sbi->main_blkaddr) {
		f2fs_err(sbi, "refusing meta write to block %u", blkaddr);
		return ERR_PTR(-EFSCORRUPTED);
	}
	page = grab_cache_page(sbi->meta_inode->i_mapping, blkaddr);
	if (!page)
		return ERR_PTR(-ENOMEM);
	if (PageWriteback(page)) {
		if (b)
			f2fs_batch_submit(b);	/* it may hold this page */
		wait_on_page_writeback(page);
	}
	memcpy(page_address(page), buf, F2FS_BLKSIZE);
	SetPageUptodate(page);
	return page;
}

/**
 * f2fs_write_meta_block - write one metadata block through the meta cache.
 * @sbi: the mount.
 * @blkaddr: block address in the meta areas.
 * @buf: F2FS_BLKSIZE bytes.
 * @flags: extra request flags (REQ_PREFLUSH, REQ_FUA ...).
 *
 * The write is synchronous; the cached copy is updated too.
 *
 * Return: 0, -ENOMEM, -EFSCORRUPTED for a block outside the meta areas,
 * or -EIO.
 */
int f2fs_write_meta_block(struct f2fs_sb_info *sbi, u32 blkaddr,
			  const void *buf, blk_opf_t flags)
{
	struct page *page = fill_meta_page(sbi, NULL, blkaddr, buf);
	struct bio *bio;
	int err;

	if (IS_ERR(page))
		return PTR_ERR(page);
	bio = bio_alloc(sbi->sb->s_bdev, 1,
			REQ_OP_WRITE | REQ_META | REQ_SYNC | flags, GFP_NOIO);
	bio->bi_iter.bi_sector = (sector_t)blkaddr << (F2FS_BLKSIZE_BITS - 9);
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	unlock_page(page);
	put_page(page);
	/* The first failed write of the mount is reported, not the others. */
	if (err && !atomic_xchg(&sbi->wb_error, 1))
		f2fs_err(sbi, "cannot write meta block %u (%d): no checkpoint will be written, the last one stays in force (further write errors are not logged)",
			 blkaddr, err);
	return err;
}

/**
 * f2fs_queue_meta_page - write a locked meta cache page asynchronously, in
 *	a batch of adjacent blocks.
 * @sbi: the mount.
 * @b: the batch (its first slot); the caller sends it.
 * @page: a locked page of the meta cache, whose index is its block address;
 *	unlocked on return, the caller's reference kept.
 * @flags: REQ_META and any other write flags.
 *
 * The write counts as in flight (f2fs_wait_writes() waits for it); a
 * write error is reported by the bio's end_io and sets sbi->wb_error.
 */
void f2fs_queue_meta_page(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
			  struct page *page, blk_opf_t flags)
{
	set_page_writeback(page);
	unlock_page(page);
	/* Not in the fsync chain: no fsync waits for a meta block. */
	f2fs_batch_write(sbi, b, page, page->index, flags,
			 f2fs_count_in_flight(sbi, false), 0);
}

/**
 * f2fs_queue_meta_block - write one metadata block through the meta cache,
 *	asynchronously, in a batch of adjacent blocks.
 * @sbi: the mount, inside a checkpoint (nothing else allocates blocks:
 *	the batch's first slot, a data log's, is free).
 * @b: the checkpoint's batch; f2fs_batch_submit() sends it.
 * @blkaddr: block address in the meta areas.
 * @buf: F2FS_BLKSIZE bytes, copied before the call returns.
 *
 * The checkpoint used to write its NAT, SIT, summary and pack blocks one
 * synchronous request each; queued, adjacent ones share a bio and none
 * waits for another.  The write counts as in flight: the caller waits with
 * f2fs_wait_writes() and checks sbi->wb_error before it commits.
 *
 * Return: 0, -ENOMEM, or -EFSCORRUPTED for a block outside the meta areas.
 */
int f2fs_queue_meta_block(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
			  u32 blkaddr, const void *buf)
{
	struct page *page = fill_meta_page(sbi, b, blkaddr, buf);

	if (IS_ERR(page))
		return PTR_ERR(page);
	f2fs_queue_meta_page(sbi, b, page, REQ_META | REQ_SYNC);
	put_page(page);
	return 0;
}

/**
 * f2fs_add_orphan - remember an unlinked inode that is still open.
 * @sbi: the mount.
 * @ino: the inode.
 *
 * Checkpoints record it, so that a mount after a crash frees it.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_add_orphan(struct f2fs_sb_info *sbi, u32 ino)
{
	struct f2fs_orphan *o = kmalloc(sizeof(*o), GFP_NOFS);

	if (!o)
		return -ENOMEM;
	o->ino = ino;
	spin_lock(&sbi->inode_lock);
	list_add_tail(&o->list, &sbi->orphans);
	sbi->orphan_count++;
	spin_unlock(&sbi->inode_lock);
	return 0;
}

/**
 * f2fs_remove_orphan - forget an orphan whose inode has been freed.
 * @sbi: the mount.
 * @ino: the inode.
 */
void f2fs_remove_orphan(struct f2fs_sb_info *sbi, u32 ino)
{
	struct f2fs_orphan *o;

	spin_lock(&sbi->inode_lock);
	list_for_each_entry(o, &sbi->orphans, list) {
		if (o->ino == ino) {
			list_del(&o->list);
			sbi->orphan_count--;
			kfree(o);
			break;
		}
	}
	spin_unlock(&sbi->inode_lock);
}

/**
 * f2fs_free_orphans - drop the orphan list at unmount.
 * @sbi: the mount.
 */
void f2fs_free_orphans(struct f2fs_sb_info *sbi)
{
	struct f2fs_orphan *o, *tmp;

	list_for_each_entry_safe(o, tmp, &sbi->orphans, list)
		kfree(o);
	INIT_LIST_HEAD(&sbi->orphans);
	sbi->orphan_count = 0;
}

/**
 * f2fs_recover_orphans - free the inodes a crashed mount left as orphans.
 * @sbi: a mount that just became writable.
 *
 * Return: 0, or the error of reading an orphan block or inode.
 */
int f2fs_recover_orphans(struct f2fs_sb_info *sbi)
{
	u32 start, n, i, j, payload = le32_to_cpu(sbi->raw_super->cp_payload);
	int err = 0;

	if (!f2fs_cp_flag(sbi, CP_ORPHAN_PRESENT_FLAG))
		return 0;
	start = sbi->cp_addr + 1 + payload;
	n = le32_to_cpu(sbi->ckpt->cp_pack_start_sum) - 1 - payload;
	for (i = 0; i < n && !err; i++) {
		struct f2fs_orphan_block *ob;
		struct page *page = f2fs_get_meta_page(sbi, start + i);
		u32 cnt;

		if (IS_ERR(page))
			return PTR_ERR(page);
		ob = page_address(page);
		cnt = le32_to_cpu(ob->entry_count);
		if (cnt > F2FS_ORPHANS_PER_BLOCK) {
			f2fs_err(sbi, "orphan block %u holds %u entries", i, cnt);
			put_page(page);
			return -EFSCORRUPTED;
		}
		for (j = 0; j < cnt; j++) {
			struct inode *inode;

			inode = f2fs_iget_orphan(sbi->sb, le32_to_cpu(ob->ino[j]));
			if (IS_ERR(inode)) {
				err = PTR_ERR(inode);
				break;
			}
			clear_nlink(inode);
			iput(inode);	/* eviction frees it */
		}
		put_page(page);
	}
	if (!err)
		f2fs_info(sbi, "freed the orphan inodes of the last mount");
	return err;
}

static void write_orphan_blocks(struct f2fs_sb_info *sbi,
				struct f2fs_wbatch *b, u32 blk,
				unsigned int nblocks, struct list_head *list,
				int *err)
{
	struct f2fs_orphan_block *ob;
	struct f2fs_orphan *o;
	unsigned int idx = 0, n = 0;

	ob = kzalloc(F2FS_BLKSIZE, GFP_NOFS);
	if (!ob) {
		*err = -ENOMEM;
		return;
	}
	list_for_each_entry(o, list, list) {
		ob->ino[n++] = cpu_to_le32(o->ino);
		if (n == F2FS_ORPHANS_PER_BLOCK || list_is_last(&o->list, list)) {
			ob->blk_addr = cpu_to_le16(idx + 1);
			ob->blk_count = cpu_to_le16(nblocks);
			ob->entry_count = cpu_to_le32(n);
			if (!*err)
				*err = f2fs_queue_meta_block(sbi, b, blk + idx,
							     ob);
			memset(ob, 0, F2FS_BLKSIZE);
			idx++;
			n = 0;
		}
	}
	kfree(ob);
}

/*
 * The compact form of the data logs' summaries, as stock writes it when it
 * is shorter: the NAT journal (the hot data log's) and the SIT journal (the
 * cold data log's), then the used entries of the hot, warm and cold data
 * logs one after another, F2FS_SUM_PAYLOAD bytes to a block and no footer.
 * Fills @buf (two zeroed blocks) and returns the blocks used, 1 or 2; or 0
 * when the entries need three blocks or more (the full form is no longer).
 * sm.seg_lock held: the logs do not move.
 */
static unsigned int pack_compact_sums(struct f2fs_sb_info *sbi, u8 *buf)
{
	const unsigned int first = (F2FS_SUM_PAYLOAD - 2 * SUM_JOURNAL_SIZE) /
				   SUMMARY_SIZE;
	const unsigned int per_block = F2FS_SUM_PAYLOAD / SUMMARY_SIZE;
	unsigned int used[F2FS_NR_DATA_LOGS], n = 0, ofs, blk = 0, i, j;

	for (i = 0; i < F2FS_NR_DATA_LOGS; i++) {
		struct f2fs_curseg *cs = &sbi->curseg[i];

		/* SSR fills holes anywhere in the segment: all entries go. */
		used[i] = cs->alloc_type ? sbi->blocks_per_seg : cs->blkoff;
		n += used[i];
	}
	if (n > first + per_block)
		return 0;
	memcpy(buf, &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal,
	       SUM_JOURNAL_SIZE);
	memcpy(buf + SUM_JOURNAL_SIZE,
	       &sbi->curseg[F2FS_LOG_COLD_DATA].sum->journal, SUM_JOURNAL_SIZE);
	ofs = 2 * SUM_JOURNAL_SIZE;
	for (i = 0; i < F2FS_NR_DATA_LOGS; i++) {
		for (j = 0; j < used[i]; j++) {
			if (ofs + SUMMARY_SIZE > F2FS_SUM_PAYLOAD) {
				blk++;
				ofs = 0;
			}
			memcpy(buf + blk * F2FS_BLKSIZE + ofs,
			       &sbi->curseg[i].sum->entries[j], SUMMARY_SIZE);
			ofs += SUMMARY_SIZE;
		}
	}
	return blk + 1;
}

static int write_cp_pack(struct f2fs_sb_info *sbi, enum f2fs_cp_reason why,
			 struct f2fs_wbatch *b)
{
	struct f2fs_checkpoint *cp = sbi->ckpt;
	u32 cp_start = le32_to_cpu(sbi->raw_super->cp_blkaddr);
	u32 payload = le32_to_cpu(sbi->raw_super->cp_payload);
	u32 crc_ofs = le32_to_cpu(cp->checksum_offset);
	bool umount = why == F2FS_CP_UMOUNT;
	unsigned int orphans, i, compact = 0, dsums = F2FS_NR_DATA_LOGS;
	unsigned int nsums = umount ? F2FS_NR_NODE_LOGS : 0;
	u8 *cbuf;
	u32 start, total, blk, flags;
	int err = 0;

	start = sbi->cp_addr == cp_start ? cp_start + sbi->blocks_per_seg :
					   cp_start;
	/* Without memory for it, the full form does. */
	cbuf = kzalloc(2 * F2FS_BLKSIZE, GFP_NOFS);
	/* The summaries are packed as the logs stand in the pack. */
	mutex_lock(&sbi->sm.seg_lock);
	if (cbuf)
		compact = pack_compact_sums(sbi, cbuf);
	if (compact)
		dsums = compact;
	spin_lock(&sbi->inode_lock);
	orphans = GET_ORPHAN_BLOCKS(sbi->orphan_count);
	spin_unlock(&sbi->inode_lock);
	total = 1 + payload + orphans + dsums + nsums + 1;
	if (total > sbi->blocks_per_seg) {
		mutex_unlock(&sbi->sm.seg_lock);
		f2fs_err(sbi, "too many orphan inodes for a checkpoint pack");
		err = -ENOSPC;
		goto free_cbuf;
	}

	cp->checkpoint_ver = cpu_to_le64(sbi->cp_ver + 1);
	spin_lock(&sbi->stat_lock);
	cp->valid_block_count = cpu_to_le64(sbi->total_valid_blocks);
	cp->valid_node_count = cpu_to_le32(sbi->valid_node_count);
	cp->valid_inode_count = cpu_to_le32(sbi->valid_inode_count);
	spin_unlock(&sbi->stat_lock);
	cp->free_segment_count = cpu_to_le32(sbi->sm.free_segs +
					     sbi->sm.prefree_segs);
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		struct f2fs_curseg *cs = &sbi->curseg[i];

		if (i < F2FS_NR_DATA_LOGS) {
			cp->cur_data_segno[i] = cpu_to_le32(cs->segno);
			cp->cur_data_blkoff[i] = cpu_to_le16(cs->blkoff);
		} else {
			cp->cur_node_segno[i - 3] = cpu_to_le32(cs->segno);
			cp->cur_node_blkoff[i - 3] = cpu_to_le16(cs->blkoff);
		}
		cp->alloc_type[i] = cs->alloc_type;
	}
	mutex_unlock(&sbi->sm.seg_lock);
	flags = le32_to_cpu(cp->ckpt_flags) & CP_ERROR_FLAG;
	if (umount)
		flags |= CP_UMOUNT_FLAG;
	if (orphans)
		flags |= CP_ORPHAN_PRESENT_FLAG;
	if (compact)
		flags |= CP_COMPACT_SUM_FLAG;
	cp->ckpt_flags = cpu_to_le32(flags);
	cp->cp_pack_total_block_count = cpu_to_le32(total);
	cp->cp_pack_start_sum = cpu_to_le32(1 + payload + orphans);
	cp->next_free_nid = cpu_to_le32(f2fs_next_free_nid(sbi));
	cp->elapsed_time = cpu_to_le64(f2fs_now_elapsed(sbi));
	*(__le32 *)((u8 *)cp + crc_ofs) = cpu_to_le32(f2fs_crc(cp, crc_ofs));

	blk = start;
	err = f2fs_queue_meta_block(sbi, b, blk++, cp);
	for (i = 0; i < payload && !err; i++)
		err = f2fs_queue_meta_block(sbi, b, blk++,
					    (u8 *)cp + (i + 1) * F2FS_BLKSIZE);
	if (!err && orphans) {
		/* The list cannot change: operations are held off. */
		write_orphan_blocks(sbi, b, blk, orphans, &sbi->orphans, &err);
		blk += orphans;
	}
	for (i = 0; i < compact && !err; i++)
		err = f2fs_queue_meta_block(sbi, b, blk++,
					    cbuf + i * F2FS_BLKSIZE);
	/* The full form's data summaries, then an unmount's node ones. */
	for (i = compact ? F2FS_NR_DATA_LOGS : 0;
	     i < F2FS_NR_DATA_LOGS + nsums && !err; i++) {
		struct f2fs_summary_block *sum = sbi->curseg[i].sum;

		sum->footer.entry_type = i < F2FS_NR_DATA_LOGS ? SUM_TYPE_DATA :
								 SUM_TYPE_NODE;
		err = f2fs_queue_meta_block(sbi, b, blk++, sum);
	}
	/* The NAT, SIT and SSA blocks queued before these, too. */
	f2fs_batch_submit(b);
	f2fs_wait_writes(sbi);
	if (!err && atomic_read(&sbi->wb_error))
		err = -EIO;
	if (err)
		goto free_cbuf;
	/* Everything before must be durable before the pack closes. */
	err = f2fs_write_meta_block(sbi, blk, cp, REQ_PREFLUSH | REQ_FUA);
	if (err)
		goto free_cbuf;
	sbi->cp_addr = start;
	sbi->cp_ver++;
free_cbuf:
	kfree(cbuf);
	return err;
}

static bool nothing_to_write(struct f2fs_sb_info *sbi)
{
	bool idle;

	spin_lock(&sbi->inode_lock);
	idle = list_empty(&sbi->dirty_inodes) && list_empty(&sbi->dirty_dirs);
	spin_unlock(&sbi->inode_lock);
	return idle && !sbi->nm.nat_dirty && !sbi->sm.sit_dirty &&
	       !sbi->sm.prefree_segs &&
	       !mapping_tagged(sbi->node_inode->i_mapping, PAGECACHE_TAG_DIRTY);
}

/* Close a checkpoint phase that began at @since; returns the time now. */
static u64 cp_phase_end(u64 *phase_ns, u64 since)
{
	u64 now = ktime_get_ns();

	*phase_ns = now - since;
	return now;
}

/* Count a written (or failed) checkpoint; cp_mutex held. */
static void cp_account(struct f2fs_sb_info *sbi, enum f2fs_cp_reason why,
		       int err, u64 total_ns)
{
	struct f2fs_stats *st = &sbi->stats;

	st->cp_calls[why]++;
	if (err)
		st->cp_errors++;
	st->cp_last_ns = total_ns;
	st->cp_total_ns += total_ns;
	if (total_ns > st->cp_max_ns)
		st->cp_max_ns = total_ns;
}

/*
 * A checkpoint failed, or a write failed before it: stop writing for good,
 * with one message.  The version bitmaps may already point at blocks the
 * failed pack would have used, so nothing more is risked against the
 * pack that is still in force.  Called with cp_rwsem held exclusively.
 */
static void stop_writes(struct f2fs_sb_info *sbi, int err)
{
	f2fs_err(sbi, "checkpoint failed (%d): the previous one stays in force; the filesystem is now read-only",
		 err);
	sbi->writable = false;
	WRITE_ONCE(sbi->stopped, true);
	sbi->sb->s_flags |= SB_RDONLY;
}

/**
 * f2fs_write_checkpoint - make the current state durable.
 * @sbi: the mount.
 * @why: the reason (an unmount checkpoint also stores the node logs'
 *	summaries and marks the pack clean).
 *
 * Does nothing on a read-only mount (but fails on one that a write error
 * stopped), or when nothing changed since a
 * checkpoint that already has what @why needs (counted as skipped, with
 * no trace event).  Each phase is timed for the f2fs_cp_end event and the
 * debugfs counters.
 *
 * Return: 0; -EIO when a write failed, now or since the last checkpoint,
 * or writes were stopped by such a failure (the previous checkpoint stays
 * in force, and the mount stays read-only); -ENOMEM; -ENOSPC when the logs
 * have no room for the nodes.
 */
int f2fs_write_checkpoint(struct f2fs_sb_info *sbi, enum f2fs_cp_reason why)
{
	struct f2fs_stats *st = &sbi->stats;
	struct f2fs_cp_phases ph = {};
	struct f2fs_wbatch batch = {};
	struct blk_plug plug;
	u64 start, t, nat_before, sit_before, ver;
	int err;

	if (!sbi->writable)
		return sbi->stopped ? -EIO : 0;
	mutex_lock(&sbi->cp_mutex);
	start = ktime_get_ns();
	down_write(&sbi->cp_rwsem);
	WRITE_ONCE(sbi->cp_task, current);
	t = cp_phase_end(&ph.block_ns, start);
	if (!sbi->writable) {
		/* Stopped while this one waited. */
		err = sbi->stopped ? -EIO : 0;
		goto out;
	}
	if (atomic_read(&sbi->wb_error)) {
		/* A write failed since the last one: nothing more is written. */
		err = -EIO;
		stop_writes(sbi, err);
		goto out;
	}
	if (nothing_to_write(sbi) &&
	    (why != F2FS_CP_UMOUNT || f2fs_cp_flag(sbi, CP_UMOUNT_FLAG))) {
		if (why != F2FS_CP_PERIODIC)	/* an idle tick is no call */
			st->cp_skipped++;
		err = 0;
		goto out;
	}
	ver = sbi->cp_ver + 1;
	trace_f2fs_cp_begin(sbi->sb, why, ver, sbi->nm.nat_dirty,
			    sbi->sm.sit_dirty, sbi->sm.prefree_segs);
	nat_before = st->nat_journal_entries + st->nat_block_entries;
	sit_before = st->sit_journal_entries + st->sit_block_entries;

	err = f2fs_sync_dirty_inodes(sbi);
	if (!err)
		err = f2fs_sync_node_pages(sbi);
	f2fs_write_staged_summaries(sbi);
	t = cp_phase_end(&ph.flush_ns, t);
	f2fs_wait_writes(sbi);
	t = cp_phase_end(&ph.wait_ns, t);
	if (!err && atomic_read(&sbi->wb_error))
		err = -EIO;
	blk_start_plug(&plug);
	if (!err) {
		err = f2fs_flush_nat(sbi, &batch);
		t = cp_phase_end(&ph.nat_ns, t);
	}
	if (!err) {
		err = f2fs_flush_sit(sbi, &batch);
		t = cp_phase_end(&ph.sit_ns, t);
	}
	if (!err) {
		err = write_cp_pack(sbi, why, &batch);
		cp_phase_end(&ph.pack_ns, t);
	}
	/* After an error: what was queued still goes, and is waited for. */
	f2fs_batch_submit(&batch);
	blk_finish_plug(&plug);
	f2fs_wait_writes(sbi);
	if (!err) {
		f2fs_discard_prefree(sbi);
		f2fs_sit_checkpointed(sbi);
	} else {
		stop_writes(sbi, err);
	}
	ph.total_ns = ktime_get_ns() - start;
	cp_account(sbi, why, err, ph.total_ns);
	trace_f2fs_cp_end(sbi->sb, why, ver, err, &ph,
			  st->nat_journal_entries + st->nat_block_entries -
			  nat_before,
			  st->sit_journal_entries + st->sit_block_entries -
			  sit_before);
out:
	WRITE_ONCE(sbi->cp_task, NULL);
	up_write(&sbi->cp_rwsem);
	mutex_unlock(&sbi->cp_mutex);
	return err;
}

/*
 * ---- Periodic checkpoint ---------------------------------------------------
 *
 * Writeback writes data blocks, but only a checkpoint makes them part of
 * the filesystem (roll-forward recovers fsync'ed files only): without one,
 * a power cut loses everything written since the last sync, however old.
 * Every cp_interval seconds, a writable mount with anything dirty writes
 * a checkpoint, as stock does every 60 s.  Node pages are left to it
 * (node.c: writeback writes them only under memory pressure).
 */
static unsigned int cp_interval = 60;
module_param(cp_interval, uint, 0644);
MODULE_PARM_DESC(cp_interval, "seconds between periodic checkpoints (0: none)");

/**
 * f2fs_periodic_cp - the periodic checkpoint's work item.
 * @work: sbi->cp_work.
 */
void f2fs_periodic_cp(struct work_struct *work)
{
	struct f2fs_sb_info *sbi = container_of(to_delayed_work(work),
						struct f2fs_sb_info, cp_work);
	struct super_block *sb = sbi->sb;

	/* cp_interval turned 0 since this was queued: none, and no more. */
	if (!READ_ONCE(cp_interval))
		return;
	/* A frozen filesystem writes nothing: try again next time. */
	if (sbi->writable && sb_start_intwrite_trylock(sb)) {
		f2fs_write_checkpoint(sbi, F2FS_CP_PERIODIC);
		sb_end_intwrite(sb);
	}
	if (sbi->writable && READ_ONCE(cp_interval))
		queue_delayed_work(system_unbound_wq, &sbi->cp_work,
				   READ_ONCE(cp_interval) * HZ);
}

/**
 * f2fs_start_periodic_cp - start periodic checkpoints (writable mount).
 * @sbi: the mount.
 */
void f2fs_start_periodic_cp(struct f2fs_sb_info *sbi)
{
	unsigned int secs = READ_ONCE(cp_interval);

	if (secs)
		queue_delayed_work(system_unbound_wq, &sbi->cp_work, secs * HZ);
}

/**
 * f2fs_stop_periodic_cp - stop them, waiting for one in progress.
 * @sbi: the mount.
 */
void f2fs_stop_periodic_cp(struct f2fs_sb_info *sbi)
{
	cancel_delayed_work_sync(&sbi->cp_work);
}
