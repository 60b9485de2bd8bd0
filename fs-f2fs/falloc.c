// SPDX-License-Identifier: GPL-2.0
/*
 * falloc.c - preallocation, holes and block maps of regular files.
 *
 * fallocate(2):
 *
 *   mode 0, FALLOC_FL_KEEP_SIZE    every hole in the range becomes NEW_ADDR
 *	in its direct node, charged to valid_block_count and i_blocks like
 *	a block reserved by write_begin, so that ENOSPC is returned now and
 *	not at writeback.  Blocks are reserved one direct node at a time
 *	under cp_rwsem; when the space runs out, what was reserved stays
 *	and i_size (mode 0) grows to cover it, as the stock module does.
 *	KEEP_SIZE past i_size sets the format's "keep size" advise bit.
 *   FALLOC_FL_PUNCH_HOLE          partial blocks at the ends are zeroed
 *	through the page cache (only where there is data: a hole stays a
 *	hole); whole blocks leave the page cache and their addresses become
 *	NULL_ADDR, freed in the SIT (written blocks) and uncharged.  Direct
 *	nodes stay, as after the stock module's punch.
 *   FALLOC_FL_ZERO_RANGE          whole blocks become NEW_ADDR (a written
 *	block is invalidated, a hole reserved); partial blocks are zeroed in
 *	the page cache, with a block reserved.  i_size grows unless
 *	KEEP_SIZE.
 *   truncate(2) to the current size frees the blocks preallocated past
 *	i_size (KEEP_SIZE), as the stock module's truncate does for any
 *	size not above i_size (f2fs_truncate_same_size(), from setattr).
 *   COLLAPSE_RANGE, INSERT_RANGE  not supported (EOPNOTSUPP): shifting
 *	addresses between direct nodes would also rewrite the summary of
 *	every moved block.
 *
 * Each call holds the inode lock and the mapping's invalidate lock, so
 * neither writers nor page faults nor readahead repopulate the page cache
 * over a range whose blocks change; garbage collection takes the same
 * invalidate lock shared before it moves a block (data.c), so it never
 * moves a block that a punch frees.  f2fs_balance_fs() runs before those
 * locks are taken, since the cleaner it may start needs them.  Every
 * change marks the inode as needing a checkpoint on fsync.
 *
 * SEEK_DATA and SEEK_HOLE follow the stock module: a written block is
 * data; a NEW_ADDR block is data for SEEK_DATA only when its page is
 * dirty (written, not yet on disk) and is never a hole for SEEK_HOLE;
 * missing direct nodes are holes, skipped a whole subtree at a time.
 * Inline data is one data range up to i_size.
 *
 * FIEMAP reports written runs with their physical addresses, NEW_ADDR
 * runs as FIEMAP_EXTENT_UNWRITTEN at physical 0 (as the stock module
 * does), or, when the page is dirty, FIEMAP_EXTENT_DELALLOC (| UNKNOWN);
 * every extent is FIEMAP_EXTENT_MERGED, as stock's; FIEMAP_FLAG_SYNC
 * writes the file first.  Inline data is one DATA_INLINE | NOT_ALIGNED extent
 * whose physical address is the byte in the inode block.
 *
 * bmap (FIBMAP) writes dirty pages first and maps written blocks only.
 *
 * Swapfiles: swap writes pages straight to the block addresses mapped at
 * swapon, so those blocks must not move while swap is on.  Writers,
 * truncate and fallocate are refused by the VFS (S_SWAPFILE), writes
 * through a shared mapping by page_mkwrite (SIGBUS, as on the stock
 * module: our writeback would move the block); the cleaner skips the
 * file's blocks (f2fs_move_data_page() refuses an S_SWAPFILE inode).
 * swap_activate sets S_SWAPFILE, waits for the blocks in flight to move,
 * then writes the dirty pages (a shared mapping may have dirtied them,
 * over holes too) and maps the final layout.  A file with holes or
 * preallocated (unwritten) blocks is refused with a message: swap would
 * write where no block is allocated.
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include "f2fs.h"

/* What one file block holds, as seek and fiemap see it. */
enum falloc_blk {
	FALLOC_HOLE,		/* NULL_ADDR or no direct node */
	FALLOC_DATA,		/* a written block */
	FALLOC_UNWRITTEN,	/* NEW_ADDR, page clean or absent */
	FALLOC_DELALLOC,	/* NEW_ADDR under a dirty page */
};

static enum falloc_blk blk_kind(struct inode *inode, u64 index, u32 addr)
{
	if (addr == NULL_ADDR)
		return FALLOC_HOLE;
	if (addr != NEW_ADDR)
		return FALLOC_DATA;
	if (index <= ULONG_MAX &&
	    xa_get_mark(&inode->i_mapping->i_pages, index, PAGECACHE_TAG_DIRTY))
		return FALLOC_DELALLOC;
	return FALLOC_UNWRITTEN;
}

/*
 * Callback of walk_addrs(): 0 to go on, 1 to stop, < 0 for an error.  It
 * runs with the direct node locked: it must not fault on user memory.
 */
typedef int (*walk_fn)(void *arg, u64 index, u32 addr);

/*
 * Call @fn for each block address from @start up to @end (exclusive).  A
 * missing node is reported once, as NULL_ADDR at its first block, and
 * skipped.  Returns 1 when @fn stopped the walk, 0 at @end or past the
 * largest file, or an error.
 */
static int walk_addrs(struct inode *inode, u64 start, u64 end, walk_fn fn,
		      void *arg)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_dnode dn;
	u64 index = start;
	u32 addr;
	int err, ret = 0;

	while (index < end) {
		dn.base = index + 1;
		err = f2fs_get_dnode(inode, index, false, &dn);
		if (err == -EFBIG)
			return 0;
		if (err == -ENOENT) {
			ret = fn(arg, index, NULL_ADDR);
			if (ret)
				return ret;
			index = max(dn.base, index + 1);
			continue;
		}
		if (err)
			return err;
		for (; dn.slot < dn.nr_addrs && index < end; dn.slot++, index++) {
			addr = le32_to_cpu(dn.addrs[dn.slot]);
			if (addr != NULL_ADDR && addr != NEW_ADDR &&
			    !f2fs_valid_main_addr(sbi, addr)) {
				f2fs_err_page(sbi, dn.page,
					      "inode %lu: data block address %u outside the main area",
					      inode->i_ino, addr);
				ret = -EFSCORRUPTED;
				break;
			}
			ret = fn(arg, index, addr);
			if (ret)
				break;
		}
		f2fs_put_dnode(&dn);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/* Zero @len bytes at @pos inside one block through the page cache. */
static int zero_in_block(struct inode *inode, loff_t pos, unsigned int len,
			 bool reserve)
{
	struct address_space *mapping = inode->i_mapping;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	pgoff_t index = pos >> PAGE_SHIFT;
	struct page *page;
	u32 blkaddr;
	int err;

	if (!len || (!reserve && pos >= i_size_read(inode)))
		return 0;
	page = find_lock_page(mapping, index);
	if (!page || !PageDirty(page)) {
		err = f2fs_map_blocks(inode, index, 1, &blkaddr);
		if (err < 0)
			goto put_page;
		if (blkaddr == NULL_ADDR && !reserve) {
			/* A hole or an unwritten block: zeros already. */
			if (page)
				zero_user(page, pos & (PAGE_SIZE - 1), len);
			err = 0;
			goto put_page;
		}
	}
	if (!page) {
		page = read_mapping_page(mapping, index, NULL);
		if (IS_ERR(page))
			return PTR_ERR(page);
		lock_page(page);
		if (page->mapping != mapping) {
			err = -EAGAIN;
			goto put_page;
		}
	}
	if (reserve) {
		f2fs_lock_op(sbi);
		err = f2fs_reserve_block(inode, index);
		f2fs_unlock_op(sbi);
		if (err)
			goto put_page;
	}
	wait_for_stable_page(page);
	zero_user(page, pos & (PAGE_SIZE - 1), len);
	set_page_dirty(page);
	err = 0;
put_page:
	if (page) {
		unlock_page(page);
		put_page(page);
	}
	return err;
}

/*
 * Zero the partial blocks of [@start, @end) and return the range of whole
 * blocks between them in *@first, *@last (empty when @first >= @last).
 */
static int zero_partial_blocks(struct inode *inode, loff_t start, loff_t end,
			       bool reserve, u64 *first, u64 *last)
{
	unsigned int head = start & (PAGE_SIZE - 1);
	unsigned int tail = end & (PAGE_SIZE - 1);
	int err;

	*first = DIV_ROUND_UP(start, PAGE_SIZE);
	*last = end >> PAGE_SHIFT;
	if (*first > *last)	/* within one block */
		return zero_in_block(inode, start, end - start, reserve);
	err = zero_in_block(inode, start, head ? PAGE_SIZE - head : 0,
			    reserve);
	if (!err)
		err = zero_in_block(inode, end - tail, tail, reserve);
	return err;
}

/* What change_blocks() does to each block. */
enum change_op {
	CHANGE_PUNCH,		/* free it: NULL_ADDR */
	CHANGE_ZERO,		/* NEW_ADDR: a written block is freed */
	CHANGE_RESERVE,		/* NEW_ADDR where it was a hole */
};

/*
 * Apply @op to the blocks [@first, @last), one direct node at a time under
 * cp_rwsem; *@done is where it stopped (at an error: the block that
 * failed).
 */
static int change_blocks(struct inode *inode, u64 first, u64 last,
			 enum change_op op, u64 *done)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_dnode dn;
	u64 index = first;
	u32 addr;
	int err = 0;

	while (index < last) {
		f2fs_lock_op(sbi);
		dn.base = index + 1;
		err = f2fs_get_dnode(inode, index, op != CHANGE_PUNCH, &dn);
		if (err == -ENOENT && op == CHANGE_PUNCH) {
			f2fs_unlock_op(sbi);
			index = max(dn.base, index + 1);
			err = 0;
			continue;
		}
		if (err) {
			f2fs_unlock_op(sbi);
			break;
		}
		for (; dn.slot < dn.nr_addrs && index < last; dn.slot++, index++) {
			__le32 *slot = &dn.addrs[dn.slot];

			addr = le32_to_cpu(*slot);
			if (op == CHANGE_PUNCH) {
				if (addr != NULL_ADDR)
					f2fs_free_data_addr(inode, slot, index);
				continue;
			}
			if (addr == NULL_ADDR) {
				err = f2fs_charge_data_block(inode);
				if (err)
					break;
			} else if (addr != NEW_ADDR && op == CHANGE_ZERO) {
				f2fs_invalidate_block(sbi, addr);
				f2fs_extent_update(inode, index, NEW_ADDR);
			} else {
				continue;
			}
			*slot = cpu_to_le32(NEW_ADDR);
		}
		set_page_dirty(dn.page);
		f2fs_put_dnode(&dn);
		f2fs_set_need_cp(inode);
		f2fs_unlock_op(sbi);
		if (err)
			break;
		cond_resched();
	}
	*done = min(index, last);
	f2fs_mark_meta_dirty(inode);
	return err;
}

static int punch_hole(struct inode *inode, loff_t offset, loff_t len)
{
	u64 first, last, done;
	int err;

	/* As the stock module: nothing to do from i_size on. */
	if (offset >= i_size_read(inode))
		return 0;
	err = zero_partial_blocks(inode, offset, offset + len, false, &first,
				  &last);
	if (err || first >= last)
		return err;
	truncate_pagecache_range(inode, first << PAGE_SHIFT,
				 (last << PAGE_SHIFT) - 1);
	return change_blocks(inode, first, last, CHANGE_PUNCH, &done);
}

/* After a reservation up to @end (or *@done blocks on error): i_size. */
static void grow_size(struct inode *inode, int mode, loff_t end)
{
	if (end <= i_size_read(inode))
		return;
	if (mode & FALLOC_FL_KEEP_SIZE)
		F2FS_I(inode)->i_advise |= F2FS_FADVISE_KEEP_SIZE;
	else
		i_size_write(inode, end);
	f2fs_mark_meta_dirty(inode);
}

static int zero_range(struct inode *inode, int mode, loff_t offset,
		      loff_t len)
{
	loff_t end = offset + len;
	u64 first, last, done;
	int err;

	err = inode_newsize_ok(inode, end);
	if (err)
		return err;
	err = zero_partial_blocks(inode, offset, end, true, &first, &last);
	if (err)
		return err;
	if (first < last) {
		truncate_pagecache_range(inode, first << PAGE_SHIFT,
					 (last << PAGE_SHIFT) - 1);
		err = change_blocks(inode, first, last, CHANGE_ZERO, &done);
		if (err) {
			if (done > first)
				grow_size(inode, mode, done << PAGE_SHIFT);
			return err;
		}
	}
	grow_size(inode, mode, end);
	return 0;
}

/* Mode 0 and KEEP_SIZE: every hole of the range becomes NEW_ADDR. */
static int expand(struct inode *inode, int mode, loff_t offset, loff_t len)
{
	loff_t end = offset + len;
	u64 first = offset >> PAGE_SHIFT, done;
	int err;

	err = inode_newsize_ok(inode, end);
	if (err)
		return err;
	err = change_blocks(inode, first, DIV_ROUND_UP(end, PAGE_SIZE),
			    CHANGE_RESERVE, &done);
	if (!err) {
		grow_size(inode, mode, end);
		return 0;
	}
	/* What was reserved stays, and i_size covers it, as stock does. */
	if (done > first)
		grow_size(inode, mode, min_t(loff_t, end, done << PAGE_SHIFT));
	return err;
}

/**
 * f2fs_truncate_same_size - truncate(2) to the current size: free what
 *	fallocate (KEEP_SIZE) preallocated past i_size.
 * @inode: a regular file, inode lock held (setattr).
 *
 * The stock module's truncate frees every block past i_size whenever the
 * new size is not above the old one, the same size included; this does
 * the same for files that got blocks past i_size (the KEEP_SIZE advise
 * bit, which stays set, as on stock).
 *
 * Return: 0, or a node read error (-EIO, -EFSCORRUPTED).
 */
int f2fs_truncate_same_size(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct address_space *mapping = inode->i_mapping;
	loff_t isize = i_size_read(inode);
	int err;

	if (!(F2FS_I(inode)->i_advise & F2FS_FADVISE_KEEP_SIZE) ||
	    f2fs_inline_data(inode))
		return 0;
	filemap_invalidate_lock(mapping);
	truncate_pagecache(inode, isize);
	f2fs_lock_op(sbi);
	err = f2fs_truncate_blocks(inode, DIV_ROUND_UP(isize, PAGE_SIZE));
	/* Under cp_rwsem: no checkpoint between the two. */
	f2fs_set_need_cp(inode);
	f2fs_unlock_op(sbi);
	filemap_invalidate_unlock(mapping);
	f2fs_mark_meta_dirty(inode);
	return err;
}

/**
 * f2fs_fallocate - preallocate, punch or zero a range of a regular file.
 * @file: the file.
 * @mode: 0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | KEEP_SIZE,
 *	FALLOC_FL_ZERO_RANGE (optionally | KEEP_SIZE).
 * @offset: first byte.
 * @len: bytes (the VFS checked that the range is valid).
 *
 * See the comment at the top of this file.
 *
 * Return: 0; -EOPNOTSUPP for other modes; -EINVAL for a non-regular file;
 * -EPERM on an immutable file, or to punch or zero an append-only one;
 * -EROFS on an image served read-only; -ENOSPC when the blocks do not
 * fit (what was reserved before stays); -EFBIG past the largest file; or
 * a node read error (-EIO, -EFSCORRUPTED).
 */
long f2fs_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file_inode(file);
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct address_space *mapping = inode->i_mapping;
	long err;

	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE |
		     FALLOC_FL_ZERO_RANGE))
		return -EOPNOTSUPP;
	if (!sbi->writable)
		return -EROFS;
	err = f2fs_balance_fs(sbi);
	if (err)
		return err;

	inode_lock(inode);
	/*
	 * The VFS checked the flags before the inode lock; chattr changes
	 * them under it (ioctl.c), so check again: an immutable file takes
	 * no fallocate, an append-only one only a reservation.
	 */
	if (IS_IMMUTABLE(inode) ||
	    (IS_APPEND(inode) && (mode & ~FALLOC_FL_KEEP_SIZE))) {
		err = -EPERM;
		goto unlock_inode;
	}
	err = f2fs_convert_inline_data(inode);
	if (err)
		goto unlock_inode;
	filemap_invalidate_lock(mapping);
	if (mode & FALLOC_FL_PUNCH_HOLE)
		err = punch_hole(inode, offset, len);
	else if (mode & FALLOC_FL_ZERO_RANGE)
		err = zero_range(inode, mode, offset, len);
	else
		err = expand(inode, mode, offset, len);
	filemap_invalidate_unlock(mapping);
	if (!err) {
		inode->i_mtime = current_time(inode);
		inode->i_ctime = inode->i_mtime;
		f2fs_mark_meta_dirty(inode);
	}
unlock_inode:
	inode_unlock(inode);
	return err;
}

/* SEEK_DATA / SEEK_HOLE search state. */
struct seek_ctx {
	struct inode *inode;
	int whence;
	u64 found;
};

static int seek_fn(void *arg, u64 index, u32 addr)
{
	struct seek_ctx *c = arg;
	enum falloc_blk kind = blk_kind(c->inode, index, addr);
	bool hit;

	if (c->whence == SEEK_DATA)
		hit = kind == FALLOC_DATA || kind == FALLOC_DELALLOC;
	else
		hit = kind == FALLOC_HOLE;
	if (hit)
		c->found = index;
	return hit;
}

static loff_t seek_data_hole(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);
	struct seek_ctx c = { .inode = inode, .whence = whence };
	loff_t isize, pos;
	int ret;

	inode_lock_shared(inode);
	isize = i_size_read(inode);
	if (offset < 0 || offset >= isize) {
		pos = -ENXIO;
		goto unlock;
	}
	if (f2fs_inline_data(inode)) {
		pos = whence == SEEK_DATA ? offset : isize;
		goto set;
	}
	ret = walk_addrs(inode, offset >> PAGE_SHIFT,
			 DIV_ROUND_UP(isize, PAGE_SIZE), seek_fn, &c);
	if (ret < 0) {
		pos = ret;
		goto unlock;
	}
	if (!ret) {
		if (whence == SEEK_DATA) {
			pos = -ENXIO;
			goto unlock;
		}
		pos = isize;
		goto set;
	}
	pos = max_t(loff_t, offset, (loff_t)c.found << PAGE_SHIFT);
	if (pos > isize)
		pos = isize;
set:
	pos = vfs_setpos(file, pos, inode->i_sb->s_maxbytes);
unlock:
	inode_unlock_shared(inode);
	return pos;
}

/**
 * f2fs_llseek - llseek of regular files, with SEEK_DATA and SEEK_HOLE.
 * @file: the file.
 * @offset: the offset.
 * @whence: SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA or SEEK_HOLE.
 *
 * Return: the new position; -ENXIO for SEEK_DATA/SEEK_HOLE at or past
 * i_size, or SEEK_DATA with no data after @offset; -EINVAL for a bad
 * @whence or position; or a node read error.
 */
loff_t f2fs_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);

	if (whence == SEEK_DATA || whence == SEEK_HOLE)
		return seek_data_hole(file, offset, whence);
	return generic_file_llseek_size(file, offset, whence,
					inode->i_sb->s_maxbytes,
					i_size_read(inode));
}

/* FIEMAP search state: the extent being built. */
struct fiemap_ctx {
	struct inode *inode;
	enum falloc_blk kind;
	u64 start;	/* first block of the extent */
	u64 len;	/* blocks; 0 while none is open */
	u32 phys;	/* first block address (FALLOC_DATA) */
	u64 next;	/* where the walk stopped */
};

static int fiemap_fn(void *arg, u64 index, u32 addr)
{
	struct fiemap_ctx *c = arg;
	enum falloc_blk kind = blk_kind(c->inode, index, addr);

	if (c->len) {
		if (kind == c->kind && index == c->start + c->len &&
		    (kind != FALLOC_DATA || addr == c->phys + c->len)) {
			c->len++;
			return 0;
		}
		c->next = index;
		return 1;
	}
	if (kind == FALLOC_HOLE)
		return 0;
	c->kind = kind;
	c->start = index;
	c->len = 1;
	c->phys = addr;
	return 0;
}

/* The next extent from @index to @end; c->len is 0 when there is none. */
static int next_extent(struct fiemap_ctx *c, u64 index, u64 end)
{
	int ret;

	c->len = 0;
	c->next = end;
	ret = walk_addrs(c->inode, index, end, fiemap_fn, c);
	return ret < 0 ? ret : 0;
}

static int fill_extent(struct fiemap_extent_info *fieinfo,
		       const struct fiemap_ctx *c, bool last)
{
	/* Extents are merged from blocks: MERGED on each, as stock sets. */
	u32 flags = FIEMAP_EXTENT_MERGED | (last ? FIEMAP_EXTENT_LAST : 0);
	u64 phys = 0;

	if (c->kind == FALLOC_DATA)
		phys = (u64)c->phys << PAGE_SHIFT;
	else if (c->kind == FALLOC_UNWRITTEN)
		flags |= FIEMAP_EXTENT_UNWRITTEN;
	else
		flags |= FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN;
	return fiemap_fill_next_extent(fieinfo, c->start << PAGE_SHIFT, phys,
				       c->len << PAGE_SHIFT, flags);
}

static int fiemap_inline(struct inode *inode,
			 struct fiemap_extent_info *fieinfo, u64 start, u64 len)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	loff_t isize = i_size_read(inode);
	struct f2fs_nat_cached ni;
	struct page *ipage;
	u64 phys;
	int err;

	if (start >= isize)
		return 0;
	len = min_t(u64, len, isize - start);
	err = f2fs_get_node_info(sbi, inode->i_ino, &ni);
	if (err)
		return err;
	ipage = f2fs_get_node_page(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	phys = ((u64)ni.blkaddr << PAGE_SHIFT) +
	       ((u8 *)f2fs_inline_addr(inode, page_address(ipage)) -
		(u8 *)page_address(ipage)) + start;
	put_page(ipage);
	err = fiemap_fill_next_extent(fieinfo, start, phys, len,
				      FIEMAP_EXTENT_DATA_INLINE |
				      FIEMAP_EXTENT_NOT_ALIGNED |
				      FIEMAP_EXTENT_LAST);
	return err < 0 ? err : 0;
}

/**
 * f2fs_fiemap - report a file's extents (FS_IOC_FIEMAP).
 * @inode: the file.
 * @fieinfo: the request and the user's extent array.
 * @start: first byte asked for.
 * @len: bytes asked for.
 *
 * Written runs with their addresses, NEW_ADDR runs as unwritten (or
 * delayed, under dirty pages), holes skipped; see the top of this file.
 *
 * Return: 0, the errors of fiemap_prep() and of copying to the user
 * (-EFAULT), or a node read error.
 */
int f2fs_fiemap(struct inode *inode, struct fiemap_extent_info *fieinfo,
		u64 start, u64 len)
{
	struct fiemap_ctx c = { .inode = inode };
	struct fiemap_ctx prev;
	u64 end;
	int err;

	err = fiemap_prep(inode, fieinfo, start, &len, FIEMAP_FLAG_SYNC);
	if (err)
		return err;
	if (!len)
		return 0;
	inode_lock_shared(inode);
	if (f2fs_inline_data(inode)) {
		err = fiemap_inline(inode, fieinfo, start, len);
		goto unlock;
	}
	end = (start + len - 1) >> PAGE_SHIFT;
	end = end + 1;
	err = next_extent(&c, start >> PAGE_SHIFT, end);
	while (!err && c.len) {
		prev = c;
		err = next_extent(&c, prev.next, end);
		if (err)
			break;
		/* The last in range: is there any extent past it? */
		if (!c.len) {
			err = next_extent(&c, end, U64_MAX);
			if (err)
				break;
			err = fill_extent(fieinfo, &prev, !c.len);
			break;
		}
		err = fill_extent(fieinfo, &prev, false);
		if (err)
			break;
	}
	if (err > 0)
		err = 0;	/* the user's array is full */
unlock:
	inode_unlock_shared(inode);
	return err;
}

/**
 * f2fs_bmap - the block address of a file block (FIBMAP).
 * @mapping: the file's mapping.
 * @block: the file block.
 *
 * Dirty pages are written first, so that the address is the final one.
 *
 * Return: the block address, or 0 for a hole, an unwritten (preallocated)
 * block, inline data or an error.
 */
sector_t f2fs_bmap(struct address_space *mapping, sector_t block)
{
	struct inode *inode = mapping->host;
	u32 blkaddr;

	if (f2fs_inline_data(inode))
		return 0;
	if (mapping_tagged(mapping, PAGECACHE_TAG_DIRTY))
		filemap_write_and_wait(mapping);
	if (f2fs_map_blocks(inode, block, 1, &blkaddr) < 0)
		return 0;
	return blkaddr == NULL_ADDR ? 0 : blkaddr;
}

/* Map the swapfile's pages; returns the number of swap extents. */
static int map_swap_extents(struct inode *inode, struct swap_info_struct *sis,
			    sector_t *span)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u64 pages = min_t(u64, i_size_read(inode) >> PAGE_SHIFT, sis->max);
	u64 page_no = 0, lowest = U64_MAX, highest = 0, lo;
	u32 blkaddr;
	int n, ret, nr_extents = 0;

	while (page_no < pages) {
		n = f2fs_map_blocks(inode, page_no,
				    min_t(u64, pages - page_no, U32_MAX),
				    &blkaddr);
		if (n < 0)
			return n;
		if (blkaddr == NULL_ADDR) {
			f2fs_err(sbi, "swapon: inode %lu has a hole or a preallocated, unwritten block at page %llu; write the whole file (e.g. with dd) before mkswap",
				 inode->i_ino, page_no);
			return -EINVAL;
		}
		ret = add_swap_extent(sis, page_no, n, blkaddr);
		if (ret < 0)
			return ret;
		nr_extents += ret;
		/* The header page does not count in the span. */
		lo = page_no ? blkaddr : blkaddr + 1;
		if (lo <= (u64)blkaddr + n - 1) {
			lowest = min_t(u64, lowest, lo);
			highest = max_t(u64, highest, (u64)blkaddr + n - 1);
		}
		page_no += n;
	}
	if (!page_no)
		page_no = 1;	/* swapon reports the file empty */
	*span = lowest <= highest ? 1 + highest - lowest : 0;
	sis->max = page_no;
	sis->pages = page_no - 1;
	sis->highest_bit = page_no - 1;
	return nr_extents;
}

/**
 * f2fs_swap_activate - map a swapfile for swapon, pinning its blocks.
 * @sis: the swap area; sis->max holds the pages the header allows.
 * @file: the swapfile.
 * @span: set to the span of the blocks used.
 *
 * Called by swapon with the inode locked.  S_SWAPFILE is set first (the
 * cleaner leaves such files alone) and moves in flight are waited for;
 * then dirty pages are written, and every page must have a written block.
 *
 * Return: the number of swap extents, or -EINVAL (not a regular file,
 * inline data, holes or unwritten blocks), -EROFS (image served
 * read-only), -EBUSY (pages that could not be written), or the errors of
 * writeback, of reading nodes and of add_swap_extent().
 */
int f2fs_swap_activate(struct swap_info_struct *sis, struct file *file,
		       sector_t *span)
{
	struct address_space *mapping = file->f_mapping;
	struct inode *inode = mapping->host;
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	int ret;

	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (!sbi->writable || sb_rdonly(inode->i_sb)) {
		f2fs_err(sbi, "swapon: inode %lu: the filesystem is read-only",
			 inode->i_ino);
		return -EROFS;
	}
	if (f2fs_inline_data(inode)) {
		f2fs_err(sbi, "swapon: inode %lu is too small for swap (inline data)",
			 inode->i_ino);
		return -EINVAL;
	}
	inode->i_flags |= S_SWAPFILE;
	/* The cleaner moves blocks under this lock, shared: wait for it. */
	filemap_invalidate_lock(mapping);
	filemap_invalidate_unlock(mapping);
	ret = filemap_write_and_wait(mapping);
	if (ret)
		goto unpin;
	if (mapping_tagged(mapping, PAGECACHE_TAG_DIRTY)) {
		f2fs_err(sbi, "swapon: inode %lu: dirty pages could not be written (no room)",
			 inode->i_ino);
		ret = -EBUSY;
		goto unpin;
	}
	ret = map_swap_extents(inode, sis, span);
	if (ret >= 0)
		return ret;
unpin:
	inode->i_flags &= ~S_SWAPFILE;
	return ret;
}

/**
 * f2fs_swap_deactivate - swapoff (or a failed swapon) of a mapped file:
 *	its blocks may move again.
 * @file: the swapfile.
 */
void f2fs_swap_deactivate(struct file *file)
{
	struct inode *inode = file->f_mapping->host;

	inode_lock(inode);
	inode->i_flags &= ~S_SWAPFILE;
	inode_unlock(inode);
}
