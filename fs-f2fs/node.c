// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - node manager: NAT lookups and the node page cache.
 *
 * Every node (inode, direct node, indirect node) is named by a nid; the NAT
 * maps a nid to the block that holds the node's latest copy.  This is what
 * lets f2fs write nodes out of place without updating their parents: only
 * the NAT entry changes (the "wandering tree" fix of the design).
 *
 * A lookup goes, in order, to:
 *   1. the NAT entry cache (an xarray keyed by nid, under nm.nat_lock);
 *   2. the NAT journal held in the hot data log's summary, which carries
 *      entries newer than the NAT blocks;
 *   3. the NAT block, from whichever of its two copies the checkpoint's NAT
 *      version bitmap marks as current.
 * What was found in 2 or 3 is inserted into the cache.
 *
 * Node pages are cached in the node inode's mapping with the nid as page
 * index.  Every reader names the node it expects (nid, owning ino, offset in
 * the inode's node tree) and the footer is checked against it, so a stale
 * or corrupt NAT entry is reported instead of followed.
 */
#include <linux/slab.h>
#include "f2fs.h"

static struct kmem_cache *nat_entry_slab;

/* Block holding the current copy of the NAT entries of @nid. */
static u32 nat_block_addr(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	u32 blk_ofs = nid / NAT_ENTRY_PER_BLOCK;
	u32 seg = blk_ofs >> sbi->log_blocks_per_seg;
	u32 addr;

	/* Copies alternate segment by segment: pair 0, pair 1, ... */
	addr = nm->nat_blkaddr + (seg << sbi->log_blocks_per_seg << 1) +
	       (blk_ofs & (sbi->blocks_per_seg - 1));
	if (f2fs_test_bit_msb(blk_ofs, nm->nat_bitmap))
		addr += sbi->blocks_per_seg;
	return addr;
}

static bool nat_from_journal(struct f2fs_sb_info *sbi, u32 nid,
			     struct f2fs_nat_entry *ne)
{
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal;
	unsigned int i, n = le16_to_cpu(j->n_nats);

	for (i = 0; i < n; i++) {
		if (le32_to_cpu(j->nat_j.entries[i].nid) == nid) {
			*ne = j->nat_j.entries[i].ne;
			return true;
		}
	}
	return false;
}

static void nat_cache_insert(struct f2fs_sb_info *sbi,
			     const struct f2fs_nat_cached *ni)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;

	e = kmem_cache_alloc(nat_entry_slab, GFP_NOFS);
	if (!e)
		return;		/* the cache is only an accelerator */
	*e = *ni;
	down_write(&nm->nat_lock);
	if (xa_insert(&nm->nat_tree, ni->nid, e, GFP_NOFS))
		kmem_cache_free(nat_entry_slab, e);
	else
		nm->nat_count++;
	up_write(&nm->nat_lock);
}

/**
 * f2fs_get_node_info - look up the NAT entry of a node.
 * @sbi: the mount.
 * @nid: node id.
 * @ni: filled with the entry.
 *
 * Return: 0; -EFSCORRUPTED when @nid is out of range or the entry points
 * outside the main area; -EIO or -ENOMEM when the NAT block cannot be read.
 * A free nid is not an error here: ni->blkaddr is then NULL_ADDR.
 */
int f2fs_get_node_info(struct f2fs_sb_info *sbi, u32 nid,
		       struct f2fs_nat_cached *ni)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;
	struct f2fs_nat_entry ne;
	struct page *page;

	if (nid < F2FS_RESERVED_NODE_NUM || nid >= nm->max_nid) {
		f2fs_err(sbi, "nid %u out of range", nid);
		return -EFSCORRUPTED;
	}

	down_read(&nm->nat_lock);
	e = xa_load(&nm->nat_tree, nid);
	if (e)
		*ni = *e;
	up_read(&nm->nat_lock);
	if (e)
		return 0;

	if (!nat_from_journal(sbi, nid, &ne)) {
		page = f2fs_get_meta_page(sbi, nat_block_addr(sbi, nid));
		if (IS_ERR(page))
			return PTR_ERR(page);
		ne = ((struct f2fs_nat_block *)page_address(page))->
			entries[nid % NAT_ENTRY_PER_BLOCK];
		put_page(page);
	}

	ni->nid = nid;
	ni->ino = le32_to_cpu(ne.ino);
	ni->blkaddr = le32_to_cpu(ne.block_addr);
	ni->version = ne.version;
	if (ni->blkaddr != NULL_ADDR && ni->blkaddr != NEW_ADDR &&
	    !f2fs_valid_main_addr(sbi, ni->blkaddr)) {
		f2fs_err(sbi, "NAT entry of nid %u points to block %u outside the main area",
			 nid, ni->blkaddr);
		return -EFSCORRUPTED;
	}
	nat_cache_insert(sbi, ni);
	return 0;
}

static int f2fs_node_read_folio(struct file *file, struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_SB(folio->mapping->host->i_sb);
	struct f2fs_nat_cached ni;
	int err;

	err = f2fs_get_node_info(sbi, folio->index, &ni);
	if (!err && (ni.blkaddr == NULL_ADDR || ni.blkaddr == NEW_ADDR)) {
		f2fs_err(sbi, "node %lu is not allocated in the NAT",
			 folio->index);
		err = -EFSCORRUPTED;
	}
	if (err) {
		folio_set_error(folio);
		folio_unlock(folio);
		return err;
	}
	return f2fs_submit_page_read(sbi, &folio->page, ni.blkaddr);
}

const struct address_space_operations f2fs_node_aops = {
	.read_folio	= f2fs_node_read_folio,
};

/**
 * f2fs_get_node_page - read a node and check that it is the one expected.
 * @sbi: the mount.
 * @nid: node id.
 * @ino: inode that must own it.
 * @ofs: its offset in the inode's node tree (0 for the inode itself).
 *
 * Return: the uptodate page with a reference held (release with put_page()),
 * or ERR_PTR(-EFSCORRUPTED) when the footer names another node, or the
 * errors of f2fs_get_node_info() and of the read (-EIO).
 */
struct page *f2fs_get_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				u32 ofs)
{
	struct f2fs_nat_cached ni;
	struct f2fs_node *rn;
	struct page *page;
	int err;

	/* Validate the NAT entry first so that corruption is not an -EIO. */
	err = f2fs_get_node_info(sbi, nid, &ni);
	if (err)
		return ERR_PTR(err);
	if (ni.blkaddr == NULL_ADDR || ni.blkaddr == NEW_ADDR) {
		f2fs_err(sbi, "node %u of inode %u is not allocated", nid, ino);
		return ERR_PTR(-EFSCORRUPTED);
	}
	page = read_mapping_page(sbi->node_inode->i_mapping, nid, NULL);
	if (IS_ERR(page))
		return ERR_PTR(-EIO);
	rn = page_address(page);
	if (le32_to_cpu(rn->footer.nid) != nid ||
	    le32_to_cpu(rn->footer.ino) != ino || f2fs_node_ofs(rn) != ofs) {
		f2fs_err(sbi, "node %u footer (nid %u, ino %u, ofs %u) does not match (nid %u, ino %u, ofs %u)",
			 nid, le32_to_cpu(rn->footer.nid),
			 le32_to_cpu(rn->footer.ino), f2fs_node_ofs(rn),
			 nid, ino, ofs);
		put_page(page);
		return ERR_PTR(-EFSCORRUPTED);
	}
	return page;
}

/**
 * f2fs_init_node_manager - set up NAT geometry and the version bitmap.
 * @sbi: the mount, with sbi->ckpt loaded.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_init_node_manager(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_checkpoint *cp = sbi->ckpt;
	u32 sit_bytes = le32_to_cpu(cp->sit_ver_bitmap_bytesize);
	const u8 *src;

	nm->nat_blkaddr = le32_to_cpu(raw->nat_blkaddr);
	nm->nat_blocks = (le32_to_cpu(raw->segment_count_nat) / 2) <<
			 sbi->log_blocks_per_seg;
	nm->max_nid = nm->nat_blocks * NAT_ENTRY_PER_BLOCK;
	nm->nat_bitmap_bytes = le32_to_cpu(cp->nat_ver_bitmap_bytesize);
	init_rwsem(&nm->nat_lock);
	xa_init(&nm->nat_tree);

	/*
	 * Where the NAT bitmap sits in the pack: after a CRC word with
	 * CP_LARGE_NAT_BITMAP_FLAG, first when the SIT bitmap moved to the
	 * payload blocks, else after the SIT bitmap.
	 */
	if (f2fs_cp_flag(sbi, CP_LARGE_NAT_BITMAP_FLAG))
		src = cp->sit_nat_version_bitmap + sizeof(__le32);
	else if (le32_to_cpu(raw->cp_payload))
		src = cp->sit_nat_version_bitmap;
	else
		src = cp->sit_nat_version_bitmap + sit_bytes;
	if (src + nm->nat_bitmap_bytes > (u8 *)cp + sbi->ckpt_size) {
		f2fs_err(sbi, "NAT version bitmap does not fit the checkpoint");
		return -EFSCORRUPTED;
	}
	nm->nat_bitmap = kmemdup(src, nm->nat_bitmap_bytes, GFP_KERNEL);
	if (!nm->nat_bitmap)
		return -ENOMEM;
	return 0;
}

/**
 * f2fs_destroy_node_manager - free the NAT cache and bitmap.
 * @sbi: the mount.
 */
void f2fs_destroy_node_manager(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;
	unsigned long idx;

	xa_for_each(&nm->nat_tree, idx, e)
		kmem_cache_free(nat_entry_slab, e);
	xa_destroy(&nm->nat_tree);
	nm->nat_count = 0;
	kfree(nm->nat_bitmap);
	nm->nat_bitmap = NULL;
}

/**
 * f2fs_create_nat_cache - create the slab for cached NAT entries.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_create_nat_cache(void)
{
	nat_entry_slab = kmem_cache_create("f2fs_nat_cached",
					   sizeof(struct f2fs_nat_cached), 0,
					   SLAB_RECLAIM_ACCOUNT, NULL);
	return nat_entry_slab ? 0 : -ENOMEM;
}

/**
 * f2fs_destroy_nat_cache - destroy the slab of f2fs_create_nat_cache().
 */
void f2fs_destroy_nat_cache(void)
{
	kmem_cache_destroy(nat_entry_slab);
}
