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
 * Writes are out of place.  write_begin (or page_mkwrite) reserves the
 * block: its address becomes NEW_ADDR, creating direct and indirect nodes
 * on the way, and the block counts are charged so that ENOSPC is reported
 * to the writer, not lost in writeback.  A buffered write of more than a
 * page reserves all its blocks first, one direct node lock for up to 1018
 * of them (f2fs_reserve_write()), so that the copy loop does not take the
 * node page lock per page while the flusher, right behind it, needs the
 * same lock to store each written address.  Writeback then takes a block from
 * the right log (hot for dentries, cold for cold files, warm otherwise),
 * records the owner in the log's summary, and puts the new address into
 * the direct node, whose page becomes dirty; the old block is invalidated.
 *
 * Before walking, the per-inode largest extent (the design's extent cache)
 * is consulted; a walk that finds a longer contiguous run than the cached
 * one replaces it.  The page cache side uses mpage with a get_block
 * callback, so readahead builds large bios from contiguous runs.  Inline
 * data is copied out of the inode block instead.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/buffer_head.h>
#include <linux/mpage.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

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

/**
 * f2fs_start_index - first file block addressed by a node.
 * @inode: the file.
 * @nofs: the node's offset in the file's node tree (from its footer); it
 *	must be the inode (0) or a direct node.
 *
 * The inverse of the walk above: direct nodes are numbered in tree order,
 * skipping the indirect nodes between them.
 *
 * Return: the file block index of the node's first address.
 */
u64 f2fs_start_index(struct inode *inode, u32 nofs)
{
	const u32 n = NIDS_PER_BLOCK;
	u64 nth;	/* how many direct nodes come before this one */

	if (!nofs)
		return 0;
	if (nofs <= 2) {
		nth = nofs - 1;
	} else if (nofs <= 3 + n) {		/* under the first indirect */
		nth = 2 + (nofs - 4);
	} else if (nofs <= 4 + 2 * n) {		/* under the second indirect */
		nth = 2 + n + (nofs - 5 - n);
	} else {				/* under the double indirect */
		u32 r = nofs - (6 + 2 * n);

		nth = 2 + 2 * n + (u64)(r / (n + 1)) * n + r % (n + 1) - 1;
	}
	return f2fs_addrs_per_inode(inode) + nth * DEF_ADDRS_PER_BLOCK;
}

static bool extent_lookup(struct inode *inode, u64 index, u32 *blkaddr,
			  u32 *len)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct f2fs_stats *st = &F2FS_I_SB(inode)->stats;
	u32 fofs, blk, elen;
	bool hit = false;

	if (!f2fs_may_extent(inode))
		return false;
	read_lock(&fi->ext_lock);
	fofs = fi->ext.fofs;
	blk = fi->ext.blk;
	elen = fi->ext.len;
	read_unlock(&fi->ext_lock);
	if (elen && index >= fofs && index < (u64)fofs + elen) {
		*blkaddr = blk + (u32)(index - fofs);
		*len = elen - (u32)(index - fofs);
		hit = true;
		atomic64_inc(&st->extent_hits);
	}
	atomic64_inc(&st->extent_lookups);
	trace_f2fs_extent_lookup(inode, index, hit, fofs, blk, elen);
	return hit;
}

static void extent_offer(struct inode *inode, u64 fofs, u32 blk, u32 len)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);

	bool changed = false;

	if (len < 2 || fofs > U32_MAX || !f2fs_may_extent(inode))
		return;
	write_lock(&fi->ext_lock);
	if (len > fi->ext.len) {
		fi->ext.fofs = fofs;
		fi->ext.blk = blk;
		fi->ext.len = len;
		changed = true;
	}
	write_unlock(&fi->ext_lock);
	if (changed) {
		atomic64_inc(&F2FS_I_SB(inode)->stats.extent_updates);
		trace_f2fs_extent_update(inode, fofs, blk, len);
	}
}

/* Logged once per node page: readahead may map the same block twice. */
static int check_data_addr(struct inode *inode, struct page *node_page,
			   u32 blkaddr)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);

	if (blkaddr == NULL_ADDR || blkaddr == NEW_ADDR ||
	    f2fs_valid_main_addr(sbi, blkaddr))
		return 0;
	f2fs_err_page(sbi, node_page,
		      "inode %lu: data block address %u outside the main area",
		      inode->i_ino, blkaddr);
	return -EFSCORRUPTED;
}

/*
 * Resolve @index through the node tree.  On success *blkaddr is the block
 * (NULL_ADDR for a hole; NEW_ADDR, reserved or preallocated, as a hole too
 * unless @keep_new) and the return value is the number of blocks that
 * follow contiguously in the same node (at least 1, at most @max).
 * @ra: the caller reads in sequence; a direct node under an indirect one
 * that is not cached comes with its next siblings (f2fs_ra_node_siblings).
 */
static int walk_node_tree(struct inode *inode, u64 index, u32 max,
			  u32 *blkaddr, bool keep_new, bool ra)
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
		if (ra && nid && level >= 2 && level == path.level)
			f2fs_ra_node_siblings(sbi, rn->in.nid,
					      path.slot[level - 1]);
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
	err = check_data_addr(inode, page, *blkaddr);
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
	if (*blkaddr == NEW_ADDR && !keep_new)
		*blkaddr = NULL_ADDR;
	return n;
}

/**
 * f2fs_lookup_addr - the address a file block's slot holds.
 * @inode: a regular file without inline data.
 * @index: file block index.
 * @blkaddr: set to the address: NULL_ADDR for a hole, NEW_ADDR for a
 *	reserved or preallocated block, or a written block.
 *
 * Return: 0, -EFSCORRUPTED for a node or address that fails validation,
 * or -EIO on a read error.
 */
int f2fs_lookup_addr(struct inode *inode, u64 index, u32 *blkaddr)
{
	int n = walk_node_tree(inode, index, 1, blkaddr, true, false);

	return n < 0 ? n : 0;
}

/**
 * f2fs_map_blocks - find the blocks that hold a run of file blocks.
 * @inode: a regular file, directory or symlink without inline data.
 * @index: first file block.
 * @max: at most this many blocks are reported contiguous.  More than one
 *	is a run read in sequence (readahead, swapon): a direct node read
 *	from disk then brings the next ones with it.
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
	n = walk_node_tree(inode, index, DEF_ADDRS_PER_BLOCK, blkaddr, false,
			   max > 1);
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

/**
 * f2fs_read_end_io - completion of a read bio: each folio becomes
 *	uptodate (or gets the error flag) and is unlocked.
 * @bio: the bio, put here.
 */
void f2fs_read_end_io(struct bio *bio)
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

/*
 * Inline data lives in the inode block; page 0 of the file is its copy in
 * the page cache.  Readers fill the page from the inode block; writers
 * write the page as for any file, and writeback copies it back into the
 * inode block (write_inline_page()), which the node flush writes.  Page
 * 0's lock orders every step: the inline flag is tested and cleared
 * (f2fs_convert_inline_data()) only under it, so a writer or writeback
 * that saw an inline file under that lock keeps one until it unlocks.
 */

/* Fill locked page 0 from the inode block. */
static int fill_inline_page(struct inode *inode, struct page *page)
{
	struct page *ipage;
	size_t max = f2fs_max_inline_data(inode);
	void *dst;

	ipage = f2fs_get_node_page(F2FS_I_SB(inode), inode->i_ino,
				   inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	dst = kmap_local_page(page);
	memcpy(dst, f2fs_inline_addr(inode, page_address(ipage)), max);
	memset(dst + max, 0, PAGE_SIZE - max);
	kunmap_local(dst);
	put_page(ipage);
	SetPageUptodate(page);
	return 0;
}

/* Copy locked page 0 into the inode block, which becomes dirty. */
static int write_inline_page(struct inode *inode, struct page *page)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct f2fs_node *rn;
	struct page *ipage;
	void *src;

	ipage = f2fs_get_locked_node(F2FS_I_SB(inode), inode->i_ino,
				     inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	rn = page_address(ipage);
	src = kmap_local_page(page);
	memcpy(f2fs_inline_addr(inode, rn), src, f2fs_max_inline_data(inode));
	kunmap_local(src);
	fi->i_inline |= F2FS_DATA_EXIST;
	rn->i.i_inline = fi->i_inline;
	set_page_dirty(ipage);
	unlock_page(ipage);
	put_page(ipage);
	return 0;
}

static int read_inline_folio(struct inode *inode, struct folio *folio)
{
	int err = 0;

	if (folio->index) {
		folio_zero_range(folio, 0, folio_size(folio));
		folio_mark_uptodate(folio);
	} else {
		err = fill_inline_page(inode, &folio->page);
	}
	folio_unlock(folio);
	return err;
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

/**
 * f2fs_extent_update - keep the largest extent true after an address change.
 * @inode: the file.
 * @fofs: the file block whose address changed.
 * @blkaddr: its new address (NULL_ADDR or NEW_ADDR when it has none).
 *
 * The extent is cut where it no longer holds, and grows when @blkaddr
 * continues it, which keeps sequentially written files a single extent.
 */
void f2fs_extent_update(struct inode *inode, u64 fofs, u32 blkaddr)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	bool valid = f2fs_valid_main_addr(sbi, blkaddr);
	u32 old_fofs, old_blk, old_len, new_fofs, new_blk, new_len;

	if (!f2fs_may_extent(inode))
		return;
	write_lock(&fi->ext_lock);
	old_fofs = fi->ext.fofs;
	old_blk = fi->ext.blk;
	old_len = fi->ext.len;
	if (fi->ext.len && fofs >= fi->ext.fofs &&
	    fofs < (u64)fi->ext.fofs + fi->ext.len) {
		u32 left = fofs - fi->ext.fofs;
		u32 right = fi->ext.len - left - 1;

		if (left >= right) {
			fi->ext.len = left;
		} else {
			fi->ext.blk += left + 1;
			fi->ext.fofs += left + 1;
			fi->ext.len = right;
		}
	}
	if (valid && fofs <= U32_MAX) {
		if (fi->ext.len && fofs == (u64)fi->ext.fofs + fi->ext.len &&
		    blkaddr == fi->ext.blk + fi->ext.len)
			fi->ext.len++;
		else if (!fi->ext.len)
			fi->ext.fofs = fofs, fi->ext.blk = blkaddr,
			fi->ext.len = 1;
	}
	new_fofs = fi->ext.fofs;
	new_blk = fi->ext.blk;
	new_len = fi->ext.len;
	write_unlock(&fi->ext_lock);
	if (new_fofs != old_fofs || new_blk != old_blk || new_len != old_len) {
		atomic64_inc(&sbi->stats.extent_updates);
		trace_f2fs_extent_update(inode, new_fofs, new_blk, new_len);
	}
}

/* Lock a node page for change; it may have left the cache meanwhile. */
static int lock_node_page(struct f2fs_sb_info *sbi, struct page *page)
{
	lock_page(page);
	if (page->mapping != sbi->node_inode->i_mapping) {
		unlock_page(page);
		return -EAGAIN;
	}
	wait_on_page_writeback(page);
	return 0;
}

/**
 * f2fs_get_locked_node - read a node, checked as f2fs_get_node_page() does,
 * and lock it for change (waiting for writeback to end).
 * @sbi: the mount.
 * @nid: node id.
 * @ino: owning inode.
 * @ofs: offset in the inode's node tree.
 *
 * Return: the locked page, or the errors of f2fs_get_node_page().
 */
struct page *f2fs_get_locked_node(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				  u32 ofs)
{
	struct page *page;
	int err;

	do {
		page = f2fs_get_node_page(sbi, nid, ino, ofs);
		if (IS_ERR(page))
			return page;
		err = lock_node_page(sbi, page);
		if (err)
			put_page(page);
	} while (err == -EAGAIN);
	return page;
}

/*
 * The first file block past the subtree of the node that @p reaches at hop
 * @level (a direct node covers DEF_ADDRS_PER_BLOCK blocks, an indirect
 * node NIDS_PER_BLOCK direct nodes, ...), @index being a block in it.
 */
static u64 next_index_past(const struct f2fs_node_path *p, int level,
			   u64 index)
{
	u64 span = 1, within = 0;
	int j;

	for (j = p->level; j >= level; j--) {
		within += p->slot[j] * span;
		span *= j == p->level ? DEF_ADDRS_PER_BLOCK : NIDS_PER_BLOCK;
	}
	return index - within + span;
}

/**
 * f2fs_get_dnode - find (or create) the node that holds a block's address.
 * @inode: the file (not inline).
 * @index: file block index.
 * @create: create missing direct and indirect nodes on the way.
 * @dn: filled in; dn->page is locked and referenced until
 *	f2fs_put_dnode().
 *
 * Only the node returned is locked, and a parent only while a child is
 * created under it: the inode block is the root of every walk, and
 * writeback locking it for each page it writes while the writer locked it
 * for each page it reserves made the two take turns (and the writeback's
 * batch went out at every turn).  Reading a parent's slot unlocked is safe
 * because nodes are only freed by truncation, which first takes the page
 * lock of every page in the range (callers here hold the page lock of
 * @index, or i_rwsem, which truncation holds).
 *
 * Creating nodes needs sbi->cp_rwsem held shared by the caller.
 *
 * Return: 0; -ENOENT when a node is missing and @create is false (then
 * dn->base is the first file block past the missing node's subtree, so
 * that a caller looking for data can skip the hole); -EFBIG
 * past the largest file; -ENOSPC; or a node read error.
 */
int f2fs_get_dnode(struct inode *inode, u64 index, bool create,
		   struct f2fs_dnode *dn)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_node_path path;
	struct page *page, *parent;
	bool locked, parent_locked;
	struct f2fs_node *rn;
	__le32 *slotp;
	u32 nid;
	int level, err;

	if (node_path(inode, index, &path))
		return -EFBIG;
walk:
	page = f2fs_get_node_page(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	locked = false;
	nid = inode->i_ino;
	for (level = 1; level <= path.level; level++) {
		parent = page;
		parent_locked = locked;
		rn = page_address(parent);
		if (level == 1)
			slotp = &rn->i.i_nid[path.slot[0] - NODE_DIR1_BLOCK];
		else
			slotp = &rn->in.nid[path.slot[level - 1]];
		nid = le32_to_cpu(READ_ONCE(*slotp));
		if (!nid && !parent_locked) {
			/* Missing: look again with the parent locked. */
			if (lock_node_page(sbi, parent)) {
				put_page(parent);	/* left the cache */
				goto walk;
			}
			parent_locked = true;
			nid = le32_to_cpu(*slotp);
		}
		if (!nid) {
			if (!create) {
				/* falloc.c: where the missing subtree ends */
				dn->base = next_index_past(&path, level, index);
				err = -ENOENT;
				goto put_parent;
			}
			err = f2fs_alloc_nid(sbi, inode->i_ino, &nid);
			if (err)
				goto put_parent;
			page = f2fs_new_node_page(inode, nid, path.nofs[level]);
			if (IS_ERR(page)) {
				f2fs_alloc_nid_failed(sbi, nid);
				err = PTR_ERR(page);
				goto put_parent;
			}
			locked = true;		/* a new node comes locked */
			WRITE_ONCE(*slotp, cpu_to_le32(nid));
			set_page_dirty(parent);
			f2fs_mark_meta_dirty(inode);	/* i_blocks grew */
		} else {
			page = f2fs_get_node_page(sbi, nid, inode->i_ino,
						  path.nofs[level]);
			if (IS_ERR(page)) {
				err = PTR_ERR(page);
				goto put_parent;
			}
			locked = false;
		}
		if (parent_locked)
			unlock_page(parent);
		put_page(parent);
	}
	if (!locked && lock_node_page(sbi, page)) {
		put_page(page);
		page = f2fs_get_locked_node(sbi, nid, inode->i_ino,
					    path.nofs[path.level]);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}

	rn = page_address(page);
	dn->inode = inode;
	dn->page = page;
	dn->nid = nid;
	dn->slot = path.slot[path.level];
	if (path.level == 0) {
		dn->addrs = rn->i.i_addr + f2fs_extra_addrs(inode);
		dn->nr_addrs = f2fs_addrs_per_inode(inode);
	} else {
		dn->addrs = rn->dn.addr;
		dn->nr_addrs = DEF_ADDRS_PER_BLOCK;
	}
	dn->base = index - dn->slot;
	return 0;

put_parent:
	if (parent_locked)
		unlock_page(parent);
	put_page(parent);
	return err;
}

/**
 * f2fs_put_dnode - release what f2fs_get_dnode() returned.
 * @dn: the dnode.
 */
void f2fs_put_dnode(struct f2fs_dnode *dn)
{
	unlock_page(dn->page);
	put_page(dn->page);
	dn->page = NULL;
}

static u32 dn_addr(struct f2fs_dnode *dn)
{
	return le32_to_cpu(dn->addrs[dn->slot]);
}

static void set_dn_addr(struct f2fs_dnode *dn, u32 blkaddr)
{
	dn->addrs[dn->slot] = cpu_to_le32(blkaddr);
	set_page_dirty(dn->page);
	f2fs_extent_update(dn->inode, dn->base + dn->slot, blkaddr);
}

/* The SSA entry of the block at @dn's slot: its node, offset, version. */
static int dnode_summary(struct f2fs_dnode *dn, struct f2fs_summary *sum)
{
	struct f2fs_nat_cached ni;
	int err;

	err = f2fs_get_node_info(F2FS_I_SB(dn->inode), dn->nid, &ni);
	if (err)
		return err;
	sum->nid = cpu_to_le32(dn->nid);
	sum->ofs_in_node = cpu_to_le16(dn->slot);
	sum->version = ni.version;
	return 0;
}

/**
 * f2fs_charge_data_block - charge one data block to the filesystem and
 *	to a file (valid_block_count and i_blocks), as a reservation does.
 * @inode: the file.
 *
 * Return: 0, or -ENOSPC when the user blocks are all taken.
 */
int f2fs_charge_data_block(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	int err = 0;

	spin_lock(&sbi->stat_lock);
	if (sbi->total_valid_blocks + 1 > sbi->user_block_count)
		err = -ENOSPC;
	else
		sbi->total_valid_blocks++;
	spin_unlock(&sbi->stat_lock);
	if (!err) {
		f2fs_i_blocks_add(inode);
		f2fs_mark_meta_dirty(inode);
	}
	return err;
}

/**
 * f2fs_uncharge_data_block - undo f2fs_charge_data_block().
 * @inode: the file.
 */
void f2fs_uncharge_data_block(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);

	spin_lock(&sbi->stat_lock);
	sbi->total_valid_blocks--;
	spin_unlock(&sbi->stat_lock);
	f2fs_i_blocks_sub(inode);
	f2fs_mark_meta_dirty(inode);
}

/**
 * f2fs_reserve_block - make sure a file block has an address or NEW_ADDR.
 * @inode: the file (not inline).
 * @index: file block index.
 *
 * Called with sbi->cp_rwsem held shared.  Does nothing when the block
 * already has an address.
 *
 * Return: 0, -ENOSPC, -EFBIG, or a node read error.
 */
int f2fs_reserve_block(struct inode *inode, u64 index)
{
	struct f2fs_dnode dn;
	int err;

	err = f2fs_get_dnode(inode, index, true, &dn);
	if (err)
		return err;
	if (dn_addr(&dn) == NULL_ADDR) {
		err = f2fs_charge_data_block(inode);
		if (!err)
			set_dn_addr(&dn, NEW_ADDR);
	}
	f2fs_put_dnode(&dn);
	return err;
}

/**
 * f2fs_reserve_write - reserve the blocks of a buffered write before the
 *	copy.
 * @inode: a regular file, inode lock held until f2fs_reserve_write_end().
 * @pos: where the write starts.
 * @count: its length, after generic_write_checks().
 *
 * Every hole of the range becomes NEW_ADDR and is charged, one direct node
 * at a time under cp_rwsem.  The reserved range is kept in the inode
 * (wr_first, wr_end) for f2fs_write_begin(), which then skips its per-page
 * reservation: under the inode lock nothing can punch those blocks again.
 * On any error the reservation stops where it is; write_begin reserves the
 * rest per page and reports the error at the right byte.  Writes that stay
 * inline, single-page writes and files with blocks fallocated past i_size
 * (KEEP_SIZE: f2fs_reserve_write_end() could not tell those from ours) are
 * left to write_begin.
 */
void f2fs_reserve_write(struct inode *inode, loff_t pos, size_t count)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	u64 first = pos >> PAGE_SHIFT;
	u64 last = DIV_ROUND_UP(pos + count, PAGE_SIZE);
	u64 index = first;
	struct f2fs_dnode dn;
	bool dirty;
	int err = 0;

	fi->wr_first = 0;
	fi->wr_end = 0;
	if (last - first < 2 || (fi->i_advise & F2FS_FADVISE_KEEP_SIZE))
		return;
	/* Two pages or more cannot stay inline. */
	if (f2fs_inline_data(inode) && f2fs_convert_inline_data(inode))
		return;
	while (index < last && !err) {
		f2fs_lock_op(sbi);
		err = f2fs_get_dnode(inode, index, true, &dn);
		if (err) {
			f2fs_unlock_op(sbi);
			break;
		}
		/*
		 * set_dn_addr() without its set_page_dirty() per slot: the
		 * node page is dirtied once, and its fsync index looked up
		 * once, for up to 1018 blocks.
		 */
		dirty = false;
		for (; dn.slot < dn.nr_addrs && index < last; dn.slot++, index++) {
			if (dn_addr(&dn) != NULL_ADDR)
				continue;
			err = f2fs_charge_data_block(inode);
			if (err)
				break;
			dn.addrs[dn.slot] = cpu_to_le32(NEW_ADDR);
			f2fs_extent_update(inode, dn.base + dn.slot, NEW_ADDR);
			dirty = true;
		}
		if (dirty)
			set_page_dirty(dn.page);
		f2fs_put_dnode(&dn);
		f2fs_unlock_op(sbi);
		cond_resched();
	}
	fi->wr_first = first;
	fi->wr_end = index;
}

/**
 * f2fs_reserve_write_end - after the copy: free what a short write left
 *	reserved past i_size.
 * @inode: the file, inode lock held.
 *
 * A write cut short (a fault in the user buffer, a signal, ENOSPC or an
 * I/O error part way) leaves NEW_ADDR blocks past the new i_size, charged
 * and possibly in new nodes; they are truncated, and fsync writes a
 * checkpoint until the next one, as after any truncate, so that a node
 * recorded for roll-forward in the meantime is not replayed.
 *
 * Return: 0, or a node read error from the truncate (-EIO,
 * -EFSCORRUPTED).
 */
int f2fs_reserve_write_end(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	loff_t isize = i_size_read(inode);
	u64 end = fi->wr_end;
	int err;

	fi->wr_first = 0;
	fi->wr_end = 0;
	if (DIV_ROUND_UP(isize, PAGE_SIZE) >= end)
		return 0;
	truncate_pagecache(inode, isize);
	f2fs_lock_op(sbi);
	err = f2fs_truncate_blocks(inode, DIV_ROUND_UP(isize, PAGE_SIZE));
	f2fs_set_need_cp(inode);
	f2fs_unlock_op(sbi);
	f2fs_mark_meta_dirty(inode);
	return err;
}

/*
 * Does @name carry extension @ext?  As the stock module does, ".ext" may
 * also start a longer suffix ("x.mp4.tmp" is an mp4 being written).
 */
static bool name_has_ext(const u8 *name, unsigned int len, const char *ext)
{
	size_t elen = strnlen(ext, F2FS_EXTENSION_LEN);
	unsigned int i;

	if (!elen || len < elen + 2)
		return false;
	for (i = 1; i + elen < len; i++)
		if (name[i] == '.' &&
		    !strncasecmp((const char *)name + i + 1, ext, elen))
			return true;
	return false;
}

/**
 * f2fs_set_file_temperature - classify a new file by its name's extension.
 * @inode: the new regular file.
 * @name: its name.
 *
 * The superblock's extension list holds extension_count cold extensions,
 * followed by hot_ext_count hot ones (mkfs.f2fs -e and -E).  Mounted with
 * disable_ext_identify, every new file stays warm.
 */
void f2fs_set_file_temperature(struct inode *inode, const struct qstr *name)
{
	struct f2fs_super_block *raw = F2FS_I_SB(inode)->raw_super;
	unsigned int cold = le32_to_cpu(raw->extension_count);
	unsigned int n = cold + raw->hot_ext_count, i;

	if (f2fs_opt(F2FS_I_SB(inode), F2FS_OPT_NO_EXT_IDENTIFY))
		return;
	for (i = 0; i < n && i < F2FS_MAX_EXTENSION; i++) {
		if (!name_has_ext(name->name, name->len,
				  (const char *)raw->extension_list[i]))
			continue;
		F2FS_I(inode)->i_advise |= i < cold ? F2FS_FADVISE_COLD :
						      F2FS_FADVISE_HOT;
		return;
	}
}

static enum f2fs_log_type data_log_type(struct inode *inode)
{
	u8 adv = F2FS_I(inode)->i_advise;

	if (S_ISDIR(inode->i_mode) || (adv & F2FS_FADVISE_HOT))
		return F2FS_LOG_HOT_DATA;
	if (adv & F2FS_FADVISE_COLD)
		return F2FS_LOG_COLD_DATA;
	return F2FS_LOG_WARM_DATA;
}

/*
 * Write one locked data page out of place into log @type, in @batch when
 * given (see f2fs_batch_write()); @cause is F2FS_WRITE_DATA or, for the
 * cleaner, F2FS_WRITE_GC.  Returns with the page unlocked on success, still
 * locked on error.
 */
static int write_data_page(struct page *page, struct writeback_control *wbc,
			   enum f2fs_log_type type, int cause,
			   struct f2fs_wbatch *batch)
{
	struct inode *inode = page->mapping->host;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_block_owner owner = {
		.ino = inode->i_ino,
		.index = page->index,
		.cause = cause,
	};
	struct f2fs_summary sum = {};
	struct f2fs_dnode dn;
	u32 old, newaddr, next;
	int err;

	err = f2fs_get_dnode(inode, page->index, true, &dn);
	if (err)
		return err;
	old = dn_addr(&dn);
	owner.old_blkaddr = old;
	err = dnode_summary(&dn, &sum);
	if (err)
		goto put_dnode;
	if (old == NULL_ADDR) {
		err = f2fs_charge_data_block(inode);
		if (err)
			goto put_dnode;
	}
	set_page_writeback(page);
	err = f2fs_alloc_block(sbi, type, &sum, &owner, &newaddr, &next);
	if (err) {
		end_page_writeback(page);
		if (old == NULL_ADDR)
			f2fs_uncharge_data_block(inode);
		goto put_dnode;
	}
	set_dn_addr(&dn, newaddr);
	if (old != NULL_ADDR && old != NEW_ADDR)
		f2fs_invalidate_block(sbi, old);
	f2fs_put_dnode(&dn);
	f2fs_mark_meta_dirty(inode);	/* the extent may have changed */
	unlock_page(page);
	if (batch)
		f2fs_batch_write(sbi, batch, page, newaddr,
				 wbc_to_write_flags(wbc), owner.epoch, type);
	else
		f2fs_submit_write(sbi, page, newaddr, wbc_to_write_flags(wbc),
				  owner.epoch);
	return 0;

put_dnode:
	f2fs_put_dnode(&dn);
	return err;
}

static int do_write_data_page(struct page *page, struct writeback_control *wbc,
			      void *batch)
{
	struct inode *inode = page->mapping->host;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	loff_t isize = i_size_read(inode);
	pgoff_t end = isize >> PAGE_SHIFT;
	bool in_cp = f2fs_in_checkpoint(sbi);
	int err;

	if (page->index >= end) {
		unsigned int ofs = isize & (PAGE_SIZE - 1);

		if (page->index > end || !ofs) {
			/* Wholly past EOF: truncated under us. */
			unlock_page(page);
			return 0;
		}
		zero_user_segment(page, ofs, PAGE_SIZE);
	}
	if (!sbi->writable || (sbi->recovering && !in_cp) ||
	    (f2fs_inline_data(inode) && page->index))
		goto redirty;
	if (!in_cp && !down_read_trylock(&sbi->cp_rwsem))
		goto cp_busy;
	if (f2fs_inline_data(inode)) {
		err = write_inline_page(inode, page);
		if (!in_cp)
			f2fs_unlock_op(sbi);
		if (!err)
			unlock_page(page);
		goto written;
	}
	err = write_data_page(page, wbc, data_log_type(inode),
			      F2FS_WRITE_DATA, batch);
	if (!in_cp)
		f2fs_unlock_op(sbi);
written:
	if (!err)
		return 0;
	if (err == -EAGAIN)
		goto cp_busy;
	if (err == -ENOSPC) {
		/* Kept for later: the cleaner makes room, sync waits for it. */
		f2fs_wake_cleaner(sbi);
		goto redirty;
	}
	if (f2fs_writes_failed(sbi)) {
		/* Reported once already; the page stays in memory. */
		mapping_set_error(page->mapping, -EIO);
		goto redirty;
	}
	f2fs_err(sbi, "inode %lu: cannot write block %lu (%d)", inode->i_ino,
		 page->index, err);
	mapping_set_error(page->mapping, err);
	unlock_page(page);
	return err;
cp_busy:
	/* The checkpoint writes it; fsync sees the count (file.c). */
	atomic64_inc(&sbi->stats.wb_cp_busy);
redirty:
	redirty_page_for_writepage(wbc, page);
	unlock_page(page);
	return 0;
}

/* ->writepage: one page, one bio (reclaim, and callers outside a pass). */
static int f2fs_write_data_page(struct page *page,
				struct writeback_control *wbc)
{
	return do_write_data_page(page, wbc, NULL);
}

/*
 * ->writepages: runs of adjacent blocks go to the device as single bios
 * (see f2fs_batch_write(), which also sends the batch should the pass
 * sleep: a flusher sleeping on a page lock with its batch unsent deadlocked
 * against a truncate that held the lock and waited for a checkpoint, which
 * waited for the batch).
 *
 * The flusher hands out passes of 1,024 pages (4 MiB) or multiples, which a
 * device taking 1,280 KiB per request (virtio's default) cuts into three
 * full bios and a 256 KiB tail.  A background pass is stretched to whole
 * bios instead (and the extra pages charged back to its count), as ext4
 * once did for delayed allocation: a 1 GiB file then goes out in full-size
 * requests.
 */
static int f2fs_write_data_pages(struct address_space *mapping,
				 struct writeback_control *wbc)
{
	struct request_queue *q = bdev_get_queue(mapping->host->i_sb->s_bdev);
	long bio_pages = queue_max_sectors(q) >> (PAGE_SHIFT - SECTOR_SHIFT);
	struct f2fs_wbatch batch = {};
	struct blk_plug plug;
	long extra = 0;
	int err;

	if (wbc->sync_mode == WB_SYNC_NONE && wbc->range_cyclic &&
	    bio_pages > 1 && wbc->nr_to_write > bio_pages &&
	    wbc->nr_to_write < LONG_MAX / 2) {
		extra = roundup(wbc->nr_to_write, bio_pages) - wbc->nr_to_write;
		wbc->nr_to_write += extra;
	}
	blk_start_plug(&plug);
	err = write_cache_pages(mapping, wbc, do_write_data_page, &batch);
	f2fs_batch_submit(&batch);
	blk_finish_plug(&plug);
	wbc->nr_to_write -= extra;
	return err;
}

/**
 * f2fs_recover_data_block - adopt a block that an fsync record points to.
 * @inode: the file being recovered.
 * @index: file block index.
 * @blkaddr: the block fsync wrote for it after the checkpoint.
 *
 * The block becomes the file's (claimed in the SIT with a summary naming
 * its node, and charged), and the block it replaces is freed.  NULL_ADDR
 * makes the offset a hole again.  Called by recovery with sbi->cp_rwsem
 * held shared.
 *
 * Return: 1 when @blkaddr became the file's; 0 when the file has it
 * already, or for NULL_ADDR; -EFSCORRUPTED when the block is not one fsync
 * could have written (the caller skips it); -ENOSPC; or a node read error.
 */
int f2fs_recover_data_block(struct inode *inode, u64 index, u32 blkaddr)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_summary sum = {};
	struct f2fs_dnode dn;
	u32 old;
	int err;

	err = f2fs_get_dnode(inode, index, blkaddr != NULL_ADDR, &dn);
	if (err == -ENOENT && blkaddr == NULL_ADDR)
		return 0;	/* a hole already */
	if (err)
		return err;
	old = dn_addr(&dn);
	if (old == blkaddr)
		goto put_dnode;
	if (blkaddr == NULL_ADDR) {
		/* Truncated or punched after the checkpoint. */
		set_dn_addr(&dn, NULL_ADDR);
		if (old != NEW_ADDR)
			f2fs_invalidate_block(sbi, old);
		f2fs_uncharge_data_block(inode);
		goto put_dnode;
	}
	err = dnode_summary(&dn, &sum);
	if (err)
		goto put_dnode;
	if (old == NULL_ADDR) {
		err = f2fs_charge_data_block(inode);
		if (err)
			goto put_dnode;
	}
	err = f2fs_claim_block(sbi, blkaddr,
			       f2fs_active_log(sbi, data_log_type(inode)), &sum);
	if (err) {
		if (old == NULL_ADDR)
			f2fs_uncharge_data_block(inode);
		goto put_dnode;
	}
	set_dn_addr(&dn, blkaddr);
	if (old != NULL_ADDR && old != NEW_ADDR)
		f2fs_invalidate_block(sbi, old);
	err = 1;
put_dnode:
	f2fs_put_dnode(&dn);
	return err;
}

/**
 * f2fs_move_data_page - rewrite one file block into the cold data log.
 * @inode: the file owning the block (checked by the caller against the
 *	block's summary and node).
 * @index: the file block index.
 *
 * Garbage collection moves a valid block by reading it through the page
 * cache and writing the page out of place again, so that a concurrent
 * write or truncate of the same page is serialised by the page lock: a
 * page truncated meanwhile is skipped, and a page dirtied meanwhile is
 * written with its newest contents.  The write is submitted, not waited
 * for; the checkpoint that follows waits for it.  Called without
 * sbi->cp_rwsem and without page locks held.
 *
 * Return: 0 (also when the page no longer needs a move), or the error of
 * the read or the write.
 */
int f2fs_move_data_page(struct inode *inode, u64 index)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct address_space *mapping = inode->i_mapping;
	struct writeback_control wbc = {
		.sync_mode = WB_SYNC_ALL,
		.nr_to_write = 1,
	};
	struct page *page;
	loff_t isize;
	u32 blkaddr;
	int err;

	/*
	 * falloc.c: the invalidate lock keeps punch and zero range (which
	 * hold it exclusive) from freeing the block while it moves, and a
	 * swapfile's blocks never move (swap writes them by address).
	 */
	filemap_invalidate_lock_shared(mapping);
	if (IS_SWAPFILE(inode)) {
		err = -ETXTBSY;
		goto unlock_mapping;
	}
	err = f2fs_map_blocks(inode, index, 1, &blkaddr);
	if (err < 0)
		goto unlock_mapping;
	err = 0;
	if (blkaddr == NULL_ADDR)
		goto unlock_mapping;	/* punched: nothing to move */
retry:
	page = read_mapping_page(mapping, index, NULL);
	if (IS_ERR(page)) {
		err = PTR_ERR(page);
		goto unlock_mapping;
	}
	lock_page(page);
	isize = i_size_read(inode);
	if (page->mapping != mapping || f2fs_inline_data(inode) ||
	    (loff_t)index << PAGE_SHIFT >= isize) {
		err = 0;	/* truncated meanwhile: nothing to move */
		goto unlock;
	}
	if (!down_read_trylock(&sbi->cp_rwsem)) {
		/* A checkpoint waits: let it pass without holding the page. */
		unlock_page(page);
		put_page(page);
		f2fs_lock_op(sbi);
		f2fs_unlock_op(sbi);
		goto retry;
	}
	wait_on_page_writeback(page);
	/*
	 * Dirty it first, as any write does: that attaches the inode to its
	 * writeback context (a page only read so far may have none), and
	 * writeback accounting stays balanced.
	 */
	set_page_dirty(page);
	clear_page_dirty_for_io(page);
	if (((loff_t)index + 1) << PAGE_SHIFT > isize)
		zero_user_segment(page, isize & (PAGE_SIZE - 1), PAGE_SIZE);
	err = write_data_page(page, &wbc, F2FS_LOG_COLD_DATA,
			      F2FS_WRITE_GC, NULL);
	f2fs_unlock_op(sbi);
	if (!err) {
		put_page(page);
		goto unlock_mapping;
	}
	set_page_dirty(page);	/* written later, by writeback */
unlock:
	unlock_page(page);
	put_page(page);
unlock_mapping:
	filemap_invalidate_unlock_shared(mapping);
	return err;
}

/**
 * f2fs_convert_inline_data - move inline data into a regular block.
 * @inode: a regular file or symlink, inline or not.
 *
 * Called without page 0's lock and without sbi->cp_rwsem (writers hold
 * i_rwsem; page faults do not, page 0's lock serialises them).  Page 0
 * takes the data and becomes dirty, with block 0 reserved; a file whose
 * inline area never held data keeps a hole there.  The inode block loses
 * the inline flag.
 *
 * Return: 0, -ENOSPC, or a read error.
 */
int f2fs_convert_inline_data(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct page *page, *ipage;
	struct f2fs_node *rn;
	bool has_data;
	int err;

retry:
	if (!f2fs_inline_data(inode))
		return 0;
	page = read_mapping_page(inode->i_mapping, 0, NULL);
	if (IS_ERR(page))
		return PTR_ERR(page);
	lock_page(page);
	if (page->mapping != inode->i_mapping) {
		/* Truncated meanwhile. */
		unlock_page(page);
		put_page(page);
		goto retry;
	}
	err = 0;
	if (!f2fs_inline_data(inode))
		goto unlock_page;	/* converted meanwhile */
	f2fs_lock_op(sbi);
	ipage = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage)) {
		err = PTR_ERR(ipage);
		goto unlock_op;
	}
	has_data = PageDirty(page) || (fi->i_inline & F2FS_DATA_EXIST);
	rn = page_address(ipage);
	memset(f2fs_inline_addr(inode, rn), 0, f2fs_max_inline_data(inode));
	fi->i_inline &= ~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
	rn->i.i_inline = fi->i_inline;
	set_page_dirty(ipage);
	unlock_page(ipage);
	put_page(ipage);
	if (has_data) {
		/*
		 * Data moving out goes with a checkpoint; an empty inline area
		 * (a new file's first write past the limit) does not need one:
		 * recovery clears the inline area of an inode whose record has
		 * none (recovery.c).
		 */
		f2fs_set_need_cp(inode);
		err = f2fs_reserve_block(inode, 0);
		if (!err)
			set_page_dirty(page);
	}
	f2fs_mark_meta_dirty(inode);
unlock_op:
	f2fs_unlock_op(sbi);
unlock_page:
	unlock_page(page);
	put_page(page);
	return err;
}

/**
 * f2fs_truncate_inline_data - cut inline data at a new, smaller size.
 * @inode: an inline file whose page cache was cut at @size already.
 * @size: the new size.
 *
 * The inode block's copy is zeroed past @size, so that a later growth
 * reads zeros there.
 *
 * Return: 0 or a node read error.
 */
int f2fs_truncate_inline_data(struct inode *inode, loff_t size)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	unsigned int max = f2fs_max_inline_data(inode);
	struct f2fs_node *rn;
	struct page *ipage;

	if (size >= max)
		return 0;
	ipage = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	rn = page_address(ipage);
	memset(f2fs_inline_addr(inode, rn) + size, 0, max - size);
	if (!size)
		fi->i_inline &= ~F2FS_DATA_EXIST;
	rn->i.i_inline = fi->i_inline;
	set_page_dirty(ipage);
	unlock_page(ipage);
	put_page(ipage);
	return 0;
}

static int f2fs_write_begin(struct file *file, struct address_space *mapping,
			    loff_t pos, unsigned int len, struct page **pagep,
			    void **fsdata)
{
	struct inode *inode = mapping->host;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	pgoff_t index = pos >> PAGE_SHIFT;
	struct page *page;
	u32 blkaddr;
	int err;

	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	if (f2fs_inline_data(inode) && pos + len <= f2fs_max_inline_data(inode)) {
		page = grab_cache_page_write_begin(mapping, 0);
		if (!page)
			return -ENOMEM;
		if (f2fs_inline_data(inode)) {
			/* Stays inline: no block, writeback copies the page. */
			wait_for_stable_page(page);
			if (!PageUptodate(page)) {
				err = fill_inline_page(inode, page);
				if (err)
					goto put_page;
			}
			*pagep = page;
			return 0;
		}
		unlock_page(page);
		put_page(page);
	}
	err = f2fs_convert_inline_data(inode);
	if (err)
		return err;
	page = grab_cache_page_write_begin(mapping, index);
	if (!page)
		return -ENOMEM;
	/* Reserved by f2fs_reserve_write() under the same inode lock? */
	if (index < READ_ONCE(fi->wr_first) || index >= READ_ONCE(fi->wr_end)) {
		f2fs_lock_op(sbi);
		err = f2fs_reserve_block(inode, index);
		f2fs_unlock_op(sbi);
		if (err)
			goto put_page;
	}
	wait_for_stable_page(page);
	if (len == PAGE_SIZE || PageUptodate(page))
		goto done;
	err = f2fs_map_blocks(inode, index, 1, &blkaddr);
	if (err < 0)
		goto put_page;
	if (blkaddr == NULL_ADDR) {
		zero_user_segment(page, 0, PAGE_SIZE);
		SetPageUptodate(page);
		goto done;
	}
	f2fs_submit_page_read(sbi, page, blkaddr);
	lock_page(page);
	if (page->mapping != mapping) {
		err = -EAGAIN;
		goto put_page;
	}
	if (!PageUptodate(page)) {
		err = -EIO;
		goto put_page;
	}
done:
	*pagep = page;
	return 0;
put_page:
	unlock_page(page);
	put_page(page);
	return err;
}

static int f2fs_write_end(struct file *file, struct address_space *mapping,
			  loff_t pos, unsigned int len, unsigned int copied,
			  struct page *page, void *fsdata)
{
	struct inode *inode = mapping->host;

	if (!PageUptodate(page)) {
		if (copied < len) {
			copied = 0;
			goto unlock;
		}
		SetPageUptodate(page);
	}
	set_page_dirty(page);
	if (pos + copied > i_size_read(inode)) {
		i_size_write(inode, pos + copied);
		f2fs_mark_meta_dirty(inode);
	}
unlock:
	unlock_page(page);
	put_page(page);
	return copied;
}

/* Direct I/O falls back to buffered I/O: report nothing done. */
static ssize_t f2fs_direct_io(struct kiocb *iocb, struct iov_iter *iter)
{
	return 0;
}

static bool f2fs_dirty_data_folio(struct address_space *mapping,
				  struct folio *folio)
{
	struct inode *inode = mapping->host;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);

	if (!filemap_dirty_folio(mapping, folio))
		return false;
	if (S_ISDIR(inode->i_mode) && !READ_ONCE(fi->dir_dirty)) {
		spin_lock(&sbi->inode_lock);
		if (!fi->dir_dirty) {
			fi->dir_dirty = true;
			list_add_tail(&fi->dirty_dir_list, &sbi->dirty_dirs);
		}
		spin_unlock(&sbi->inode_lock);
	}
	return true;
}

/**
 * f2fs_free_data_addr - free one data address of a node being truncated
 *	or punched.
 * @inode: the file.
 * @addr: the address slot in a locked node page (the caller dirties it);
 *	it becomes NULL_ADDR.
 * @fofs: the file block index of the slot.
 *
 * A written block is invalidated in the SIT; a written or reserved
 * (NEW_ADDR) block is uncharged; the extent cache is cut.
 */
void f2fs_free_data_addr(struct inode *inode, __le32 *addr, u64 fofs)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u32 blkaddr = le32_to_cpu(*addr);

	if (blkaddr == NULL_ADDR)
		return;
	*addr = 0;
	if (blkaddr != NEW_ADDR)
		f2fs_invalidate_block(sbi, blkaddr);
	f2fs_uncharge_data_block(inode);
	f2fs_extent_update(inode, fofs, NULL_ADDR);
}

static int truncate_subtree(struct inode *inode, u32 nid, u32 nofs,
			    int depth, u64 base, u64 from);

/* Truncate the subtree a nid slot points to, clearing the slot if freed. */
static int truncate_slot(struct inode *inode, __le32 *slot, u32 nofs,
			 int depth, u64 base, u64 from)
{
	int ret = truncate_subtree(inode, le32_to_cpu(*slot), nofs, depth,
				   base, from);

	if (ret > 0)
		*slot = 0;
	return ret < 0 ? ret : 0;
}

/*
 * Free the addresses >= @from under node @nid (depth 0: direct node,
 * 1: indirect, 2: double indirect) covering file blocks from @base.
 * Returns 1 when the node itself was freed, 0 when it stays, or an error.
 */
static int truncate_subtree(struct inode *inode, u32 nid, u32 nofs,
			    int depth, u64 base, u64 from)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u64 per_child = depth == 2 ? (u64)DEF_ADDRS_PER_BLOCK * NIDS_PER_BLOCK :
				     DEF_ADDRS_PER_BLOCK;
	struct f2fs_node *rn;
	struct page *page;
	unsigned int i;
	int err = 0;

	page = f2fs_get_locked_node(sbi, nid, inode->i_ino, nofs);
	if (IS_ERR(page))
		return PTR_ERR(page);
	rn = page_address(page);
	if (!depth) {
		for (i = 0; i < DEF_ADDRS_PER_BLOCK; i++)
			if (base + i >= from && rn->dn.addr[i])
				f2fs_free_data_addr(inode, &rn->dn.addr[i], base + i);
	} else {
		for (i = 0; i < NIDS_PER_BLOCK; i++) {
			u64 cbase = base + i * per_child;
			u32 cnid = le32_to_cpu(rn->in.nid[i]), cnofs;

			if (!cnid || cbase + per_child <= from)
				continue;
			cnofs = depth == 1 ? nofs + 1 + i :
				nofs + 1 + i * (NIDS_PER_BLOCK + 1);
			err = truncate_slot(inode, &rn->in.nid[i], cnofs,
					    depth - 1, cbase, from);
			if (err)
				break;
		}
	}
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	if (err)
		return err;
	if (base >= from) {
		f2fs_free_node(inode, nid);
		return 1;
	}
	return 0;
}

/**
 * f2fs_truncate_blocks - free every block of a file from a block index on.
 * @inode: the file.
 * @from: first file block to free.
 *
 * Called with sbi->cp_rwsem held shared.  Nodes that no longer cover any
 * block are freed too.  Inline data and inline dentries need nothing
 * here: they live in the inode block, where i_addr[] holds no addresses;
 * nor do device, FIFO and socket inodes, whose i_addr[] holds the device
 * number.
 *
 * Return: 0 or a node read error.
 */
int f2fs_truncate_blocks(struct inode *inode, u64 from)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u64 in_inode = f2fs_addrs_per_inode(inode);
	u64 span[5], base;
	int depth[5] = { 0, 0, 1, 1, 2 };
	struct f2fs_node *rn;
	struct page *ipage;
	unsigned int k;
	u32 nofs[5];
	u64 i;
	int err = 0;

	if (f2fs_inline_data(inode) || f2fs_inline_dentry(inode))
		return 0;
	if (!S_ISREG(inode->i_mode) && !S_ISDIR(inode->i_mode) &&
	    !S_ISLNK(inode->i_mode))
		return 0;
	span[0] = DEF_ADDRS_PER_BLOCK;
	span[1] = span[0];
	span[2] = (u64)DEF_ADDRS_PER_BLOCK * NIDS_PER_BLOCK;
	span[3] = span[2];
	span[4] = span[2] * NIDS_PER_BLOCK;
	nofs[0] = 1;
	nofs[1] = 2;
	nofs[2] = 3;
	nofs[3] = 4 + NIDS_PER_BLOCK;
	nofs[4] = 5 + 2 * NIDS_PER_BLOCK;

	ipage = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	rn = page_address(ipage);
	for (i = from; i < in_inode; i++)
		f2fs_free_data_addr(inode,
				    &rn->i.i_addr[f2fs_extra_addrs(inode) + i], i);
	base = in_inode;
	for (k = 0; k < 5; k++) {
		u32 nid = le32_to_cpu(rn->i.i_nid[k]);

		if (nid && base + span[k] > from) {
			err = truncate_slot(inode, &rn->i.i_nid[k], nofs[k],
					    depth[k], base, from);
			if (err)
				break;
		}
		base += span[k];
	}
	set_page_dirty(ipage);
	unlock_page(ipage);
	put_page(ipage);
	f2fs_mark_meta_dirty(inode);
	return err;
}

static vm_fault_t f2fs_page_mkwrite(struct vm_fault *vmf)
{
	struct page *page = vmf->page;
	struct inode *inode = file_inode(vmf->vma->vm_file);
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	vm_fault_t ret = VM_FAULT_LOCKED;
	int err;

	/* A shared mapping made before chattr +i or +a may not write. */
	if (IS_IMMUTABLE(inode) || IS_APPEND(inode))
		return VM_FAULT_SIGBUS;
	sb_start_pagefault(inode->i_sb);
	file_update_time(vmf->vma->vm_file);
	err = f2fs_balance_fs(sbi);
	/* Pages of a shared mapping are written as blocks. */
	if (!err)
		err = f2fs_convert_inline_data(inode);
	if (err) {
		ret = vmf_error(err);
		goto out;
	}
	lock_page(page);
	if (page->mapping != inode->i_mapping ||
	    page_offset(page) >= i_size_read(inode)) {
		unlock_page(page);
		ret = VM_FAULT_NOPAGE;
		goto out;
	}
	/*
	 * falloc.c: swap writes an active swapfile's blocks by address, and
	 * our writeback would move them; checked under the page lock, which
	 * swap_activate's writeback takes after setting S_SWAPFILE.
	 */
	if (IS_SWAPFILE(inode)) {
		unlock_page(page);
		ret = VM_FAULT_SIGBUS;
		goto out;
	}
	f2fs_lock_op(sbi);
	err = f2fs_reserve_block(inode, page->index);
	f2fs_unlock_op(sbi);
	if (err) {
		unlock_page(page);
		ret = vmf_error(err);
		goto out;
	}
	set_page_dirty(page);
	wait_for_stable_page(page);
out:
	sb_end_pagefault(inode->i_sb);
	return ret;
}

/* Mapped file pages: generic faults, our page_mkwrite. */
const struct vm_operations_struct f2fs_file_vm_ops = {
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
	.page_mkwrite	= f2fs_page_mkwrite,
};

const struct address_space_operations f2fs_data_aops = {
	/* reads */
	.read_folio	= f2fs_read_data_folio,
	.readahead	= f2fs_readahead,
	/* buffered writes and writeback */
	.write_begin	= f2fs_write_begin,
	.write_end	= f2fs_write_end,
	.dirty_folio	= f2fs_dirty_data_folio,	/* counts dirty pages */
	.writepages	= f2fs_write_data_pages,
	.writepage	= f2fs_write_data_page,
	.direct_IO	= f2fs_direct_io,
	.bmap		= f2fs_bmap,			/* falloc.c */
	.swap_activate	= f2fs_swap_activate,		/* falloc.c */
	.swap_deactivate = f2fs_swap_deactivate,	/* falloc.c */
};
