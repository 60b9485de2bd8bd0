// SPDX-License-Identifier: GPL-2.0
/*
 * data.c - mapping file offsets to blocks, and the data read path.
 *
 * A file block index is resolved through the inode's node tree:
 *
 *   inode:          addrs_per_inode data pointers, then five nids:
 *   i_nid[0], [1]:  direct nodes          (1018 pointers each)
 *   i_nid[2], [3]:  indirect nodes        (1018 direct nodes each)
 *   i_nid[4]:       double indirect node  (1018 indirect nodes)
 *
 * Each node also has a fixed "offset" in the tree (0 for the inode, 1 and 2
 * for the direct nodes, ...), stored in its footer; the walk computes the
 * offset it expects and f2fs_get_node_page() checks it.
 *
 * Before walking, the per-inode largest extent (the design's extent cache)
 * is consulted; a walk that finds a longer contiguous run than the cached
 * one replaces it.  The page cache side uses mpage with a get_block
 * callback, so readahead builds large bios from contiguous runs.  Inline
 * data is copied out of the inode block instead.
 */
#include <linux/bio.h>
#include <linux/buffer_head.h>
#include <linux/mpage.h>
#include "f2fs.h"

/* Max depth of a path: inode, indirect, indirect, direct. */
#define F2FS_PATH_MAX	4

struct f2fs_node_path {
	int level;			/* number of node hops below the inode */
	u32 slot[F2FS_PATH_MAX];	/* index inside each node on the path */
	u32 nofs[F2FS_PATH_MAX];	/* expected footer offset of each node */
};

/*
 * Work out which nodes lead to block @index.  slot[0] indexes the inode's
 * i_addr[] (or, for i_nid[k], DEF_ADDRS_PER_INODE + 1 + k), and nofs[i] is
 * the tree offset of the node reached at hop i.  Returns -EFBIG past the
 * largest offset the tree can address.
 */
static int node_path(struct inode *inode, u64 index, struct f2fs_node_path *p)
{
	const u64 in_inode = f2fs_addrs_per_inode(inode);
	const u64 per_dnode = DEF_ADDRS_PER_BLOCK;
	const u64 per_ind = (u64)DEF_ADDRS_PER_BLOCK * NIDS_PER_BLOCK;
	const u64 per_dind = per_ind * NIDS_PER_BLOCK;
	u64 b = index;

	p->nofs[0] = 0;
	if (b < in_inode) {
		p->level = 0;
		p->slot[0] = b;
		return 0;
	}
	b -= in_inode;
	if (b < 2 * per_dnode) {
		u32 k = b / per_dnode;	/* first or second direct node */

		p->level = 1;
		p->slot[0] = NODE_DIR1_BLOCK + k;
		p->nofs[1] = 1 + k;
		p->slot[1] = b % per_dnode;
		return 0;
	}
	b -= 2 * per_dnode;
	if (b < 2 * per_ind) {
		u32 k = b / per_ind;	/* first or second indirect node */
		u32 ind_nofs = 3 + k * (NIDS_PER_BLOCK + 1);

		b %= per_ind;
		p->level = 2;
		p->slot[0] = NODE_IND1_BLOCK + k;
		p->nofs[1] = ind_nofs;
		p->slot[1] = b / per_dnode;
		p->nofs[2] = ind_nofs + 1 + p->slot[1];
		p->slot[2] = b % per_dnode;
		return 0;
	}
	b -= 2 * per_ind;
	if (b < per_dind) {
		u32 dind_nofs = 5 + 2 * NIDS_PER_BLOCK;

		p->level = 3;
		p->slot[0] = NODE_DIND_BLOCK;
		p->nofs[1] = dind_nofs;
		p->slot[1] = b / per_ind;
		p->nofs[2] = dind_nofs + 1 + p->slot[1] * (NIDS_PER_BLOCK + 1);
		p->slot[2] = (b / per_dnode) % NIDS_PER_BLOCK;
		p->nofs[3] = p->nofs[2] + 1 + p->slot[2];
		p->slot[3] = b % per_dnode;
		return 0;
	}
	return -EFBIG;
}

static bool extent_lookup(struct inode *inode, u64 index, u32 *blkaddr,
			  u32 *len)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	bool hit = false;

	read_lock(&fi->ext_lock);
	if (fi->ext.len && index >= fi->ext.fofs &&
	    index < (u64)fi->ext.fofs + fi->ext.len) {
		u32 d = index - fi->ext.fofs;

		*blkaddr = fi->ext.blk + d;
		*len = fi->ext.len - d;
		hit = true;
	}
	read_unlock(&fi->ext_lock);
	return hit;
}

static void extent_offer(struct inode *inode, u64 fofs, u32 blk, u32 len)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);

	if (len < 2 || fofs > U32_MAX)
		return;
	write_lock(&fi->ext_lock);
	if (len > fi->ext.len) {
		fi->ext.fofs = fofs;
		fi->ext.blk = blk;
		fi->ext.len = len;
	}
	write_unlock(&fi->ext_lock);
}

static int check_data_addr(struct inode *inode, u32 blkaddr)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);

	if (blkaddr == NULL_ADDR || blkaddr == NEW_ADDR ||
	    f2fs_valid_main_addr(sbi, blkaddr))
		return 0;
	f2fs_err(sbi, "inode %lu: data block address %u outside the main area",
		 inode->i_ino, blkaddr);
	return -EFSCORRUPTED;
}

/*
 * Resolve @index through the node tree.  On success *blkaddr is the block
 * (NULL_ADDR for a hole) and the return value is the number of blocks that
 * follow contiguously in the same node (at least 1, at most @max).
 */
static int walk_node_tree(struct inode *inode, u64 index, u32 max,
			  u32 *blkaddr)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_node_path path;
	struct page *page;
	struct f2fs_node *rn;
	__le32 *addrs;
	u32 nid, n, avail, i;
	int level, err;

	*blkaddr = NULL_ADDR;
	if (node_path(inode, index, &path))
		return 1;	/* past the format's limit: a hole */

	page = f2fs_get_node_page(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	for (level = 1; level <= path.level; level++) {
		rn = page_address(page);
		if (level == 1)
			nid = le32_to_cpu(rn->i.i_nid[path.slot[0] -
						      NODE_DIR1_BLOCK]);
		else
			nid = le32_to_cpu(rn->in.nid[path.slot[level - 1]]);
		put_page(page);
		if (!nid)
			return 1;	/* the whole subtree is a hole */
		page = f2fs_get_node_page(sbi, nid, inode->i_ino,
					  path.nofs[level]);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}

	rn = page_address(page);
	if (path.level == 0) {
		addrs = rn->i.i_addr + f2fs_extra_addrs(inode);
		avail = f2fs_addrs_per_inode(inode);
	} else {
		addrs = rn->dn.addr;
		avail = DEF_ADDRS_PER_BLOCK;
	}
	i = path.slot[path.level];
	*blkaddr = le32_to_cpu(addrs[i]);
	err = check_data_addr(inode, *blkaddr);
	n = 1;
	if (!err && f2fs_valid_main_addr(sbi, *blkaddr)) {
		while (i + n < avail && n < max &&
		       le32_to_cpu(addrs[i + n]) == *blkaddr + n &&
		       f2fs_valid_main_addr(sbi, *blkaddr + n))
			n++;
	}
	put_page(page);
	if (err)
		return err;
	if (*blkaddr == NEW_ADDR)
		*blkaddr = NULL_ADDR;
	return n;
}

/**
 * f2fs_map_blocks - find the blocks that hold a run of file blocks.
 * @inode: a regular file, directory or symlink without inline data.
 * @index: first file block.
 * @max: at most this many blocks are reported contiguous.
 * @blkaddr: set to the first block address, or NULL_ADDR for a hole.
 *
 * Return: the number of contiguous blocks mapped from @index (1 for a
 * hole), or -EFSCORRUPTED for a node or address that fails validation, or
 * -EIO on a read error.
 */
int f2fs_map_blocks(struct inode *inode, u64 index, u32 max, u32 *blkaddr)
{
	u32 len;
	int n;

	if (extent_lookup(inode, index, blkaddr, &len))
		return min(len, max);
	n = walk_node_tree(inode, index, DEF_ADDRS_PER_BLOCK, blkaddr);
	if (n > 0 && *blkaddr != NULL_ADDR)
		extent_offer(inode, index, *blkaddr, n);
	return n > 0 ? min_t(u32, n, max) : n;
}

static int f2fs_get_block(struct inode *inode, sector_t iblock,
			  struct buffer_head *bh, int create)
{
	u32 max = bh->b_size >> inode->i_blkbits;
	u32 blkaddr;
	int n;

	n = f2fs_map_blocks(inode, iblock, max ? max : 1, &blkaddr);
	if (n < 0)
		return n;
	if (blkaddr != NULL_ADDR) {
		map_bh(bh, inode->i_sb, blkaddr);
		bh->b_size = (size_t)n << inode->i_blkbits;
	}
	return 0;
}

static void f2fs_read_end_io(struct bio *bio)
{
	struct folio_iter fi;

	bio_for_each_folio_all(fi, bio) {
		if (bio->bi_status)
			folio_set_error(fi.folio);
		else
			folio_mark_uptodate(fi.folio);
		folio_unlock(fi.folio);
	}
	bio_put(bio);
}

/**
 * f2fs_submit_page_read - read one block into a locked page.
 * @sbi: the mount.
 * @page: a locked page; it is unlocked when the read completes, and marked
 *	uptodate on success.
 * @blkaddr: the block to read.
 *
 * Return: 0 (the page is unlocked asynchronously).
 */
int f2fs_submit_page_read(struct f2fs_sb_info *sbi, struct page *page,
			  u32 blkaddr)
{
	struct bio *bio;

	bio = bio_alloc(sbi->sb->s_bdev, 1, REQ_OP_READ | REQ_META, GFP_NOIO);
	bio->bi_iter.bi_sector = (sector_t)blkaddr << (F2FS_BLKSIZE_BITS - 9);
	bio->bi_end_io = f2fs_read_end_io;
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	submit_bio(bio);
	return 0;
}

/* Copy inline data out of the inode block into page 0. */
static int read_inline_folio(struct inode *inode, struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct page *ipage;
	size_t max = f2fs_max_inline_data(inode);
	void *dst;

	if (folio->index) {
		folio_zero_range(folio, 0, folio_size(folio));
		goto done;
	}
	ipage = f2fs_get_node_page(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage)) {
		folio_unlock(folio);
		return PTR_ERR(ipage);
	}
	dst = kmap_local_folio(folio, 0);
	memcpy(dst, f2fs_inline_addr(inode, page_address(ipage)), max);
	memset(dst + max, 0, PAGE_SIZE - max);
	kunmap_local(dst);
	put_page(ipage);
done:
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int f2fs_read_data_folio(struct file *file, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;

	if (f2fs_inline_data(inode))
		return read_inline_folio(inode, folio);
	return mpage_read_folio(folio, f2fs_get_block);
}

static void f2fs_readahead(struct readahead_control *rac)
{
	if (f2fs_inline_data(rac->mapping->host))
		return;		/* read_folio handles the single page */
	mpage_readahead(rac, f2fs_get_block);
}

const struct address_space_operations f2fs_data_aops = {
	.read_folio	= f2fs_read_data_folio,
	.readahead	= f2fs_readahead,
};
