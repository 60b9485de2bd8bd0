// SPDX-License-Identifier: GPL-2.0
/*
 * inode.c - loading inodes from their node blocks.
 *
 * An f2fs inode is a node block (nid == ino) found through the NAT.  Its
 * i_addr[] area is shared: extra attributes first (when F2FS_EXTRA_ATTR is
 * set), then either data block pointers or inline data / inline dentries,
 * and inline xattrs at the end.  Everything that decides where those parts
 * begin and end is validated here, once, so that the rest of the module can
 * trust the in-memory copy.
 */
#include <linux/buffer_head.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

/* i_flags bits of the format that change how an inode must be read. */
#define F2FS_FL_COMPR		0x00000004
#define F2FS_FL_ENCRYPT		0x00000800
#define F2FS_FL_CASEFOLD	0x40000000

/* Largest inline xattr area that still leaves room for inline dentries. */
#define F2FS_MAX_INLINE_XATTR_ADDRS					\
	(DEF_ADDRS_PER_INODE - F2FS_MAX_EXTRA_ISIZE / sizeof(__le32) -	\
	 F2FS_INLINE_RESERVED_ADDRS - MIN_INLINE_DENTRY_SIZE / sizeof(__le32))

static void time_to_disk(const struct timespec64 *t, __le64 *sec,
			 __le32 *nsec)
{
	*sec = cpu_to_le64(t->tv_sec);
	*nsec = cpu_to_le32(t->tv_nsec);
}

static void load_extent(struct inode *inode, const struct f2fs_extent *e)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	u32 fofs = le32_to_cpu(e->fofs);
	u32 blk = le32_to_cpu(e->blk);
	u32 len = le32_to_cpu(e->len);

	if (!len)
		return;
	if (!f2fs_valid_main_addr(sbi, blk) ||
	    !f2fs_valid_main_addr(sbi, blk + len - 1) || blk + len < blk ||
	    fofs + len < fofs) {
		f2fs_warn(sbi, "inode %lu: ignoring invalid extent (%u, %u, %u)",
			  inode->i_ino, fofs, blk, len);
		return;
	}
	fi->ext.fofs = fofs;
	fi->ext.blk = blk;
	fi->ext.len = len;
}

/*
 * Validate and copy the on-disk inode in @page into @inode.  A bad inode
 * fails every lookup of it; the reason is logged once per cached page.
 * An orphan (from the checkpoint's orphan list) may have no links.
 */
static int read_raw_inode(struct inode *inode, struct page *page, bool orphan)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct f2fs_inode *ri = &((struct f2fs_node *)page_address(page))->i;
	umode_t mode = le16_to_cpu(ri->i_mode);
	u64 disk_blocks = le64_to_cpu(ri->i_blocks);
	u32 flags = le32_to_cpu(ri->i_flags);

	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK:
	case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		break;
	default:
		f2fs_err_page(sbi, page, "inode %lu: invalid mode 0%o",
			      inode->i_ino, mode);
		return -EFSCORRUPTED;
	}
	if (!le32_to_cpu(ri->i_links) && !orphan) {
		f2fs_err_page(sbi, page, "inode %lu: link count is zero",
			      inode->i_ino);
		return -EFSCORRUPTED;
	}
	if (!disk_blocks) {
		f2fs_err_page(sbi, page, "inode %lu: block count is zero",
			      inode->i_ino);
		return -EFSCORRUPTED;
	}
	if (disk_blocks > sbi->user_block_count) {
		f2fs_err_page(sbi, page, "inode %lu: block count %llu exceeds the %llu blocks of the filesystem",
			      inode->i_ino, disk_blocks, sbi->user_block_count);
		return -EFSCORRUPTED;
	}
	/*
	 * Mount refuses the encrypt, compression and casefold features
	 * (super.c), so such a flag here names a feature the image lacks:
	 * damage, not a format we cannot read.
	 */
	if (flags & (F2FS_FL_COMPR | F2FS_FL_ENCRYPT | F2FS_FL_CASEFOLD)) {
		f2fs_err_page(sbi, page, "inode %lu: flags %#x name a compressed, encrypted or casefolded file, and the superblock has no such feature",
			      inode->i_ino, flags);
		return -EFSCORRUPTED;
	}

	fi->i_inline = ri->i_inline;
	fi->i_advise = ri->i_advise;
	fi->i_flags = flags;
	fi->i_pino = le32_to_cpu(ri->i_pino);
	fi->i_xattr_nid = le32_to_cpu(ri->i_xattr_nid);
	fi->i_dir_level = ri->i_dir_level;
	fi->i_extra_isize = 0;
	if (fi->i_inline & F2FS_EXTRA_ATTR) {
		fi->i_extra_isize = le16_to_cpu(ri->i_extra_isize);
		if (!f2fs_has_feature(sbi, F2FS_FEAT_EXTRA_ATTR) ||
		    fi->i_extra_isize > F2FS_MAX_EXTRA_ISIZE ||
		    fi->i_extra_isize % sizeof(__le32)) {
			f2fs_err_page(sbi, page, "inode %lu: invalid extra attribute size %u",
				      inode->i_ino, fi->i_extra_isize);
			return -EFSCORRUPTED;
		}
	}
	if (fi->i_extra_isize &&
	    f2fs_has_feature(sbi, F2FS_FEAT_FLEXIBLE_INLINE_XATTR))
		fi->i_inline_xattr_addrs = le16_to_cpu(ri->i_inline_xattr_size);
	else if (fi->i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY))
		fi->i_inline_xattr_addrs = DEFAULT_INLINE_XATTR_ADDRS;
	else
		fi->i_inline_xattr_addrs = 0;
	if (fi->i_inline_xattr_addrs > F2FS_MAX_INLINE_XATTR_ADDRS) {
		f2fs_err_page(sbi, page, "inode %lu: invalid inline xattr size %u",
			      inode->i_ino, fi->i_inline_xattr_addrs);
		return -EFSCORRUPTED;
	}
	if (((fi->i_inline & F2FS_INLINE_DATA) &&
	     !S_ISREG(mode) && !S_ISLNK(mode)) ||
	    ((fi->i_inline & F2FS_INLINE_DENTRY) && !S_ISDIR(mode))) {
		f2fs_err_page(sbi, page, "inode %lu: inline flags 0x%x do not fit mode 0%o",
			      inode->i_ino, fi->i_inline, mode);
		return -EFSCORRUPTED;
	}

	inode->i_mode = mode;
	i_uid_write(inode, le32_to_cpu(ri->i_uid));
	i_gid_write(inode, le32_to_cpu(ri->i_gid));
	set_nlink(inode, le32_to_cpu(ri->i_links));
	inode->i_size = le64_to_cpu(ri->i_size);
	inode->i_blocks = (disk_blocks - 1) << (F2FS_BLKSIZE_BITS - 9);
	f2fs_time_from_disk(&inode->i_atime, ri->i_atime, ri->i_atime_nsec);
	f2fs_time_from_disk(&inode->i_ctime, ri->i_ctime, ri->i_ctime_nsec);
	f2fs_time_from_disk(&inode->i_mtime, ri->i_mtime, ri->i_mtime_nsec);
	inode->i_generation = le32_to_cpu(ri->i_generation);
	if (f2fs_has_feature(sbi, F2FS_FEAT_INODE_CRTIME) &&
	    fi->i_extra_isize >= offsetof(struct f2fs_inode, i_crtime_nsec) +
				 sizeof(__le32) -
				 offsetof(struct f2fs_inode, i_extra_isize)) {
		fi->i_crtime.tv_sec = le64_to_cpu(ri->i_crtime);
		fi->i_crtime.tv_nsec = le32_to_cpu(ri->i_crtime_nsec);
	}
	if (S_ISDIR(mode)) {
		fi->i_current_depth = le32_to_cpu(ri->i_current_depth);
		if (fi->i_current_depth > MAX_DIR_HASH_DEPTH) {
			f2fs_err_page(sbi, page, "directory %lu: depth %u too large",
				      inode->i_ino, fi->i_current_depth);
			return -EFSCORRUPTED;
		}
	}
	if (inode->i_size < 0 || inode->i_size > inode->i_sb->s_maxbytes ||
	    (S_ISLNK(mode) && inode->i_size >= PAGE_SIZE) ||
	    ((fi->i_inline & F2FS_INLINE_DATA) &&
	     inode->i_size > f2fs_max_inline_data(inode))) {
		f2fs_err_page(sbi, page, "inode %lu: invalid size %lld",
			      inode->i_ino, inode->i_size);
		return -EFSCORRUPTED;
	}
	f2fs_set_inode_flags(inode, flags);
	if (!(fi->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) &&
	    f2fs_may_extent(inode))
		load_extent(inode, &ri->i_ext);

	if (S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) ||
	    S_ISSOCK(mode)) {
		unsigned int base = f2fs_extra_addrs(inode);
		u32 old = le32_to_cpu(ri->i_addr[base]);

		inode->i_rdev = old ? old_decode_dev(old) :
			new_decode_dev(le32_to_cpu(ri->i_addr[base + 1]));
	}
	return 0;
}

static void set_inode_ops(struct inode *inode)
{
	switch (inode->i_mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &f2fs_file_inode_operations;
		inode->i_fop = &f2fs_file_operations;
		inode->i_mapping->a_ops = &f2fs_data_aops;
		break;
	case S_IFDIR:
		inode->i_op = &f2fs_dir_inode_operations;
		inode->i_fop = &f2fs_dir_operations;
		inode->i_mapping->a_ops = &f2fs_data_aops;
		break;
	case S_IFLNK:
		inode->i_op = &f2fs_symlink_inode_operations;
		inode_nohighmem(inode);
		inode->i_mapping->a_ops = &f2fs_data_aops;
		break;
	default:
		inode->i_op = &f2fs_special_inode_operations;
		init_special_inode(inode, inode->i_mode, inode->i_rdev);
		return;
	}
	/*
	 * Page cache allocations never recurse into filesystems, as in XFS:
	 * many of them happen under cp_rwsem (a dentry block in a link, a
	 * page that GC moves), and reclaim evicting one of our inodes takes
	 * cp_rwsem shared again, which a checkpoint waiting for it makes
	 * wait behind that checkpoint, and so behind the first holder.
	 */
	mapping_set_gfp_mask(inode->i_mapping,
			     mapping_gfp_mask(inode->i_mapping) & ~__GFP_FS);
}

static struct inode *read_inode(struct super_block *sb, unsigned long ino,
				bool orphan, bool gc, bool *from_disk)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);
	struct f2fs_nat_cached ni;
	struct inode *inode;
	struct page *page;
	int err;

	if (ino == sbi->node_ino || ino == sbi->meta_ino ||
	    ino < F2FS_RESERVED_NODE_NUM || ino >= sbi->nm.max_nid) {
		f2fs_err(sbi, "inode number %lu is not a file", ino);
		return ERR_PTR(-EFSCORRUPTED);
	}
	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;

	*from_disk = true;
	if (gc) {
		/* Deleted since the cleaner read its summary: not an error. */
		err = f2fs_get_node_info(sbi, ino, &ni);
		if (err)
			goto bad_inode;
		page = ni.blkaddr == NULL_ADDR || ni.ino != ino ? NULL :
					f2fs_get_gc_node_page(sbi, &ni);
		if (!page) {
			err = -ENOENT;
			goto bad_inode;
		}
	} else {
		page = f2fs_get_node_page(sbi, ino, ino, 0);
	}
	if (IS_ERR(page)) {
		err = PTR_ERR(page);
		goto bad_inode;
	}
	err = read_raw_inode(inode, page, orphan);
	put_page(page);
	if (err)
		goto bad_inode;
	set_inode_ops(inode);
	unlock_new_inode(inode);
	return inode;

bad_inode:
	iget_failed(inode);
	return ERR_PTR(err);
}

/* read_inode() between the iget enter and exit events. */
static struct inode *do_iget(struct super_block *sb, unsigned long ino,
			     bool orphan, bool gc)
{
	u64 t0 = trace_f2fs_iget_exit_enabled() ? ktime_get_ns() : 0;
	bool from_disk = false;
	struct inode *inode;

	trace_f2fs_iget_enter(sb, ino);
	inode = read_inode(sb, ino, orphan, gc, &from_disk);
	if (trace_f2fs_iget_exit_enabled())
		trace_f2fs_iget_exit(sb, ino, PTR_ERR_OR_ZERO(inode), from_disk,
				     t0 ? ktime_get_ns() - t0 : 0);
	return inode;
}

/**
 * f2fs_iget - get the in-memory inode for an inode number.
 * @sb: the superblock.
 * @ino: inode number (a nid).
 *
 * Return: the inode, or ERR_PTR(-EFSCORRUPTED) when the inode block fails
 * validation (flags of a feature the image lacks included), ERR_PTR(-EIO)
 * or ERR_PTR(-ENOMEM).
 */
struct inode *f2fs_iget(struct super_block *sb, unsigned long ino)
{
	return do_iget(sb, ino, false, false);
}

/**
 * f2fs_iget_gc - f2fs_iget() for the cleaner, which finds @ino through a
 * summary and holds no reference: the file may have been deleted since.
 * @sb: the superblock.
 * @ino: inode number.
 *
 * Return: as f2fs_iget(), or ERR_PTR(-ENOENT), without a message, when
 * the inode was freed (or its nid reused) meanwhile.
 */
struct inode *f2fs_iget_gc(struct super_block *sb, unsigned long ino)
{
	return do_iget(sb, ino, false, true);
}

/**
 * f2fs_iget_orphan - get an orphan inode, whose link count may be zero.
 * @sb: the superblock.
 * @ino: inode number from the checkpoint's orphan blocks.
 *
 * Return: as f2fs_iget().
 */
struct inode *f2fs_iget_orphan(struct super_block *sb, unsigned long ino)
{
	return do_iget(sb, ino, true, false);
}

/*
 * ---- Writing inodes ------------------------------------------------------
 *
 * In-memory inode fields reach the inode's node page lazily: changes mark
 * the inode "meta dirty" and put it on sbi->dirty_inodes, and the first
 * of writeback (->write_inode), a checkpoint or the eviction copies them
 * into the node page, which the checkpoint then writes with the other
 * nodes.
 *
 * A meta-dirty inode is dirty for the VFS too (I_DIRTY_SYNC), so that
 * reclaim never evicts it: the eviction would have to reread its inode
 * block, in kswapd, where the allocation fails ("page allocation failure"
 * in test 64's setup, and the fields were lost).  The flusher copies the
 * fields instead (f2fs_write_inode()), in a context that can wait for
 * memory, within dirty_expire_centisecs, and the inode is evictable after.
 */

/* Off sbi->dirty_inodes, with sbi->inode_lock held: was it meta-dirty? */
static bool unlist_meta(struct f2fs_sb_info *sbi, struct f2fs_inode_info *fi)
{
	if (!fi->meta_dirty)
		return false;
	list_del_init(&fi->dirty_list);
	fi->meta_dirty = false;
	sbi->nr_dirty_inodes--;
	return true;
}

static bool list_meta_dirty(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	bool added = false;

	if (!sbi->writable || READ_ONCE(fi->meta_dirty) ||
	    inode->i_ino < F2FS_RESERVED_NODE_NUM)
		return false;
	spin_lock(&sbi->inode_lock);
	if (!fi->meta_dirty) {
		fi->meta_dirty = true;
		list_add_tail(&fi->dirty_list, &sbi->dirty_inodes);
		sbi->nr_dirty_inodes++;
		added = true;
	}
	spin_unlock(&sbi->inode_lock);
	return added;
}

/**
 * f2fs_mark_meta_dirty - note that the inode block needs updating.
 * @inode: the inode.
 */
void f2fs_mark_meta_dirty(struct inode *inode)
{
	if (list_meta_dirty(inode))
		mark_inode_dirty_sync(inode);
}

/**
 * f2fs_dirty_inode - super_operations.dirty_inode: the VFS changed fields.
 * @inode: the inode.
 * @flags: I_DIRTY_* flags (unused: the VFS sets them itself after this).
 */
void f2fs_dirty_inode(struct inode *inode, int flags)
{
	list_meta_dirty(inode);
}

/**
 * f2fs_write_inode - super_operations.write_inode: copy a meta-dirty
 * inode's fields into its node page.
 * @inode: the inode.
 * @wbc: the writeback (unused: the page is written by the next checkpoint,
 * or by node writeback, and sync's ->sync_fs checkpoints).
 *
 * Under cp_rwsem shared, so no checkpoint is copying the same inode; its
 * allocation (GFP_NOFS) enters no filesystem.
 *
 * Return: 0, or the error of reading the inode block (the inode stays
 * meta-dirty, and writeback tries again).
 */
int f2fs_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	bool dirty;
	int err = 0;

	if (!READ_ONCE(fi->meta_dirty) || f2fs_in_checkpoint(sbi))
		return 0;
	f2fs_lock_op(sbi);
	spin_lock(&sbi->inode_lock);
	dirty = unlist_meta(sbi, fi);
	spin_unlock(&sbi->inode_lock);
	if (dirty && sbi->writable) {
		err = f2fs_update_inode(inode);
		if (err)
			f2fs_mark_meta_dirty(inode);
	}
	f2fs_unlock_op(sbi);
	if (dirty)
		f2fs_relieve_nodes(sbi);
	return err;
}

static void fill_raw_inode(struct inode *inode, struct f2fs_inode *ri)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);

	ri->i_mode = cpu_to_le16(inode->i_mode);
	ri->i_links = cpu_to_le32(inode->i_nlink);
	ri->i_uid = cpu_to_le32(i_uid_read(inode));	/* in init_user_ns */
	ri->i_gid = cpu_to_le32(i_gid_read(inode));
	ri->i_size = cpu_to_le64(i_size_read(inode));
	ri->i_advise = fi->i_advise;
	ri->i_blocks = cpu_to_le64((inode->i_blocks >> (F2FS_BLKSIZE_BITS - 9)) +
				   1);
	time_to_disk(&inode->i_atime, &ri->i_atime, &ri->i_atime_nsec);
	time_to_disk(&inode->i_ctime, &ri->i_ctime, &ri->i_ctime_nsec);
	time_to_disk(&inode->i_mtime, &ri->i_mtime, &ri->i_mtime_nsec);
	ri->i_generation = cpu_to_le32(inode->i_generation);
	ri->i_current_depth = cpu_to_le32(S_ISDIR(inode->i_mode) ?
					  fi->i_current_depth : 0);
	ri->i_xattr_nid = cpu_to_le32(fi->i_xattr_nid);
	ri->i_flags = cpu_to_le32(fi->i_flags);
	ri->i_pino = cpu_to_le32(fi->i_pino);
	ri->i_dir_level = fi->i_dir_level;
	ri->i_inline = fi->i_inline;
	read_lock(&fi->ext_lock);
	ri->i_ext.fofs = cpu_to_le32(fi->ext.fofs);
	ri->i_ext.blk = cpu_to_le32(fi->ext.blk);
	ri->i_ext.len = cpu_to_le32(fi->ext.len);
	read_unlock(&fi->ext_lock);
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) ||
	    S_ISFIFO(inode->i_mode) || S_ISSOCK(inode->i_mode)) {
		unsigned int base = f2fs_extra_addrs(inode);

		if (old_valid_dev(inode->i_rdev)) {
			ri->i_addr[base] = cpu_to_le32(old_encode_dev(inode->i_rdev));
			ri->i_addr[base + 1] = 0;
		} else {
			ri->i_addr[base] = 0;
			ri->i_addr[base + 1] =
				cpu_to_le32(new_encode_dev(inode->i_rdev));
		}
	}
}

/**
 * f2fs_update_inode - copy the in-memory inode into its node page.
 * @inode: the inode.
 *
 * Called with sbi->cp_rwsem held (shared, or by the checkpoint), or by
 * the eviction of a linked inode, which nobody else can reach.
 *
 * Return: 0 or the error of reading the inode block.
 */
int f2fs_update_inode(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct page *page;

	page = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	/* eviction calls this without cp_rwsem: the page may be in flight */
	wait_on_page_writeback(page);
	fill_raw_inode(inode, &((struct f2fs_node *)page_address(page))->i);
	if (set_page_dirty(page))
		atomic_long_inc(&sbi->nm.inode_pages_dirtied);
	unlock_page(page);
	put_page(page);
	return 0;
}

/*
 * Would f2fs_update_inode() leave the inode block @ri as it is, but for
 * the size, block count and extent when @grown, and the times when
 * @datasync?  @want is scratch space for the block it would write.
 */
static bool block_holds_inode(struct inode *inode, const struct f2fs_inode *ri,
			      struct f2fs_inode *want, bool grown, bool datasync)
{
	memcpy(want, ri, sizeof(*want));
	fill_raw_inode(inode, want);
	if (grown) {
		want->i_size = ri->i_size;
		want->i_blocks = ri->i_blocks;
		want->i_ext = ri->i_ext;
	}
	if (datasync) {
		want->i_atime = ri->i_atime;
		want->i_atime_nsec = ri->i_atime_nsec;
		want->i_ctime = ri->i_ctime;
		want->i_ctime_nsec = ri->i_ctime_nsec;
		want->i_mtime = ri->i_mtime;
		want->i_mtime_nsec = ri->i_mtime_nsec;
	}
	return !memcmp(want, ri, sizeof(*want));
}

/**
 * f2fs_inode_fields_written - does the inode block hold the in-memory inode?
 * @inode: the inode; the caller holds sbi->cp_rwsem shared.
 *
 * Fields changed since the inode was last listed dirty may have reached
 * its node page already (an fsync record copies them without taking the
 * inode off the dirty list, which stays for the checkpoint).
 *
 * Return: true when f2fs_update_inode() would change nothing in the inode
 * block; false otherwise, also on a read error or without memory.
 */
bool f2fs_inode_fields_written(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode *want;
	struct page *page;
	bool same = false;

	want = kmalloc(sizeof(*want), GFP_NOFS);
	if (!want)
		return false;
	page = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (!IS_ERR(page)) {
		same = block_holds_inode(inode,
					 &((struct f2fs_node *)page_address(page))->i,
					 want, false, false);
		unlock_page(page);
		put_page(page);
	}
	kfree(want);
	return same;
}

/**
 * f2fs_inode_block_current - may an fsync record leave the inode block out?
 * @inode: a regular file; the caller holds sbi->cp_rwsem shared.
 * @datasync: an fdatasync, which need not make the times durable.
 *
 * Recovery takes a file's attributes from its last inode block (in the
 * checkpoint or in the fsync chain) and extends its size over the blocks
 * that direct nodes recorded after that block adopt (recovery.c).  So a
 * record of direct nodes alone holds the file when the inode block last
 * written (its node page is clean) differs from the in-memory inode only in
 * size, block count and largest extent (and times, for fdatasync), and the
 * size, if it grew, ends on a block boundary in a written block: that
 * block is where recovery extends the size to.  An append of whole blocks
 * past the inode's own addresses is the case this serves: stock f2fs skips
 * the inode there too.
 *
 * Return: true when the record needs no inode block; false otherwise,
 * also on a read error (the inode block then goes, as always).
 */
bool f2fs_inode_block_current(struct inode *inode, bool datasync)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	loff_t size = i_size_read(inode), disk_size;
	struct f2fs_inode *ri, *want;
	struct page *page;
	bool same = false;
	u32 blkaddr;

	if (f2fs_inline_data(inode))
		return false;
	want = kmalloc(sizeof(*want), GFP_NOFS);
	if (!want)
		return false;
	page = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(page))
		goto free_want;
	ri = &((struct f2fs_node *)page_address(page))->i;
	disk_size = le64_to_cpu(ri->i_size);
	if (PageDirty(page) || size < disk_size ||
	    (size != disk_size && !PAGE_ALIGNED(size)))
		goto unlock_page;
	same = block_holds_inode(inode, ri, want, true, datasync);
unlock_page:
	unlock_page(page);
	put_page(page);
free_want:
	kfree(want);
	if (!same || size == disk_size)
		return same;
	/* Grown: recovery extends the size to the last written block only. */
	return !f2fs_lookup_addr(inode, (size >> PAGE_SHIFT) - 1, &blkaddr) &&
	       blkaddr != NULL_ADDR && blkaddr != NEW_ADDR;
}

/* The checkpoint is done with @fi; sbi->inode_lock is held. */
static void cp_done_with(struct f2fs_inode_info *fi)
{
	fi->cp_busy = false;
	smp_mb();	/* the store before wake_up_var()'s waiter check */
	wake_up_var(&fi->cp_busy);
}

/**
 * f2fs_sync_dirty_inodes - write dentry pages and inode fields for a
 * checkpoint.
 * @sbi: the mount; the caller holds sbi->cp_rwsem exclusively.
 *
 * Directories' dirty dentry pages are written (and waited for) first, as
 * they change the directories' nodes; then every meta-dirty inode is
 * copied into its node page, and those pages are sent in batches as they
 * pile up (f2fs_relieve_nodes()).
 *
 * Return: 0 or the first error.
 */
int f2fs_sync_dirty_inodes(struct f2fs_sb_info *sbi)
{
	struct f2fs_inode_info *fi;
	unsigned int budget;
	int err = 0, ret;

	spin_lock(&sbi->inode_lock);
	while (!list_empty(&sbi->dirty_dirs)) {
		fi = list_first_entry(&sbi->dirty_dirs, struct f2fs_inode_info,
				      dirty_dir_list);
		list_del_init(&fi->dirty_dir_list);
		fi->dir_dirty = false;
		fi->cp_busy = true;
		spin_unlock(&sbi->inode_lock);
		ret = filemap_write_and_wait(fi->vfs_inode.i_mapping);
		if (ret && !err)
			err = ret;
		spin_lock(&sbi->inode_lock);
		cp_done_with(fi);
	}
	/* Writers may re-dirty inodes meanwhile; do not chase them forever. */
	budget = 0;
	list_for_each_entry(fi, &sbi->dirty_inodes, dirty_list)
		budget++;
	while (budget-- && !list_empty(&sbi->dirty_inodes)) {
		fi = list_first_entry(&sbi->dirty_inodes, struct f2fs_inode_info,
				      dirty_list);
		unlist_meta(sbi, fi);
		fi->cp_busy = true;
		spin_unlock(&sbi->inode_lock);
		ret = f2fs_update_inode(&fi->vfs_inode);
		if (ret && !err)
			err = ret;
		/* Reclaim cannot write what this dirties: we do (test 64). */
		f2fs_relieve_nodes(sbi);
		spin_lock(&sbi->inode_lock);
		cp_done_with(fi);
	}
	spin_unlock(&sbi->inode_lock);
	/*
	 * An eviction that took a dirty inode off the list before we came
	 * to it copies its fields without cp_rwsem (evict_linked()): its node
	 * page must be dirty before the checkpoint writes the nodes, or the
	 * checkpoint would lack those fields and find the page dirtied behind
	 * its node flush (test 64 saw "node blocks could not be written" and
	 * a read-only filesystem so).  Evictions starting now find the lists
	 * empty of their inode and write nothing.
	 */
	wait_var_event(&sbi->evicting, !atomic_read(&sbi->evicting));
	return err;
}

/* Off both dirty lists, with sbi->inode_lock held: was it meta-dirty? */
static bool unlist(struct f2fs_sb_info *sbi, struct f2fs_inode_info *fi)
{
	bool dirty = unlist_meta(sbi, fi);

	if (fi->dir_dirty) {
		list_del_init(&fi->dirty_dir_list);
		fi->dir_dirty = false;
	}
	return dirty;
}

static void drop_from_dirty_lists(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);

	spin_lock(&sbi->inode_lock);
	unlist(sbi, F2FS_I(inode));
	spin_unlock(&sbi->inode_lock);
}

/*
 * Evict a linked inode without cp_rwsem: wait until no checkpoint is
 * writing it, take it off the dirty lists, and copy its fields into its
 * node page if they changed.  A checkpoint running meanwhile then has the
 * page dirty for the next one, as with a time update.
 */
static void evict_linked(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	bool dirty;

	for (;;) {
		spin_lock(&sbi->inode_lock);
		if (!fi->cp_busy)
			break;
		spin_unlock(&sbi->inode_lock);
		wait_var_event(&fi->cp_busy, !READ_ONCE(fi->cp_busy));
	}
	dirty = unlist(sbi, fi);
	if (dirty)
		atomic_inc(&sbi->evicting);
	spin_unlock(&sbi->inode_lock);
	if (dirty) {
		if (f2fs_update_inode(inode))
			f2fs_err(sbi, "inode %lu evicted, its last changes lost",
				 inode->i_ino);
		if (atomic_dec_and_test(&sbi->evicting))
			wake_up_var(&sbi->evicting);
		f2fs_relieve_nodes(sbi);
	}
}

/**
 * f2fs_evict_inode - the last reference is gone: save or free the inode.
 * @inode: the inode.
 *
 * An inode still linked gets its fields written to the node page; an
 * unlinked one has all its blocks and nodes freed and leaves the orphan
 * list.  A linked inode goes without cp_rwsem (evict_linked()), as in
 * stock f2fs: kswapd once waited for it behind a checkpoint that was
 * itself waiting for memory, which kswapd was to free (test 64, a hang).
 */
void f2fs_evict_inode(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	bool writable = sbi->writable && !is_bad_inode(inode) &&
			inode->i_ino >= F2FS_RESERVED_NODE_NUM;

	if (writable && inode->i_nlink &&
	    mapping_tagged(&inode->i_data, PAGECACHE_TAG_DIRTY))
		filemap_write_and_wait(&inode->i_data);
	truncate_inode_pages_final(&inode->i_data);
	if (!writable)
		goto out;
	if (inode->i_nlink) {
		evict_linked(inode);
		goto out;
	}

	f2fs_lock_op(sbi);
	f2fs_truncate_blocks(inode, 0);
	if (fi->i_xattr_nid)
		f2fs_free_node(inode, fi->i_xattr_nid);
	f2fs_free_node(inode, inode->i_ino);
	f2fs_remove_orphan(sbi, inode->i_ino);
	drop_from_dirty_lists(inode);
	f2fs_unlock_op(sbi);
out:
	clear_inode(inode);
}

/* The name an inode keeps for recovery (truncated to F2FS_NAME_LEN). */
static void set_raw_name(struct f2fs_inode *ri, const struct qstr *name)
{
	u32 len = min_t(u32, name->len, F2FS_NAME_LEN);

	memcpy(ri->i_name, name->name, len);
	memset(ri->i_name + len, 0, F2FS_NAME_LEN - len);
	ri->i_namelen = cpu_to_le32(len);
}

/**
 * f2fs_set_inode_name - record the name an inode was renamed to.
 * @inode: the inode, whose i_pino names its new parent.
 * @name: its new name there.
 *
 * The inode block keeps the name (with i_pino) for recovery, which links
 * a file new since the checkpoint under it; like the stock module, a
 * rename stores the new one.  Called with sbi->cp_rwsem held shared.
 *
 * Return: 0 or the error of reading the inode block.
 */
int f2fs_set_inode_name(struct inode *inode, const struct qstr *name)
{
	struct page *page;

	page = f2fs_get_locked_node(F2FS_I_SB(inode), inode->i_ino,
				    inode->i_ino, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	set_raw_name(&((struct f2fs_node *)page_address(page))->i, name);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	return 0;
}

/**
 * f2fs_new_inode - allocate an inode and its node block.
 * @dir: the parent directory.
 * @mode: type and permissions.
 * @name: the name it will get (stored in the inode, and used to pick the
 *	log of a regular file by extension).
 *
 * Called with sbi->cp_rwsem held shared.  The inode is returned locked
 * (I_NEW) with one link; the caller links it and unlocks it.
 *
 * Return: the inode, or ERR_PTR(-ENOSPC) / ERR_PTR(-ENOMEM).
 */
struct inode *f2fs_new_inode(struct inode *dir, umode_t mode,
			     const struct qstr *name)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	struct f2fs_inode_info *fi;
	struct f2fs_inode *ri;
	struct inode *inode;
	struct page *page;
	u32 ino;
	int err;

	inode = new_inode(dir->i_sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	err = f2fs_alloc_nid(sbi, 0, &ino);
	if (err)
		goto put_inode;
	fi = F2FS_I(inode);
	inode_init_owner(&init_user_ns, inode, dir, mode);
	inode->i_ino = ino;
	inode->i_blocks = 0;
	inode->i_mtime = current_time(inode);
	inode->i_atime = inode->i_mtime;
	inode->i_ctime = inode->i_mtime;
	fi->i_crtime = inode->i_mtime;
	inode->i_generation = get_random_u32();
	fi->i_pino = dir->i_ino;
	fi->i_current_depth = S_ISDIR(mode) ? 1 : 0;
	fi->i_dir_level = 0;
	fi->i_flags = F2FS_I(dir)->i_flags & (FS_NODUMP_FL | FS_NOATIME_FL);
	/* Hash-indexed, as the stock module marks every new directory. */
	if (S_ISDIR(mode))
		fi->i_flags |= FS_INDEX_FL;
	if (S_ISREG(mode))
		f2fs_set_file_temperature(inode, name);
	/* An inline xattr area at the end of i_addr[] (xattr.c), as stock. */
	if (f2fs_opt(sbi, F2FS_OPT_INLINE_XATTR)) {
		fi->i_inline |= F2FS_INLINE_XATTR;
		fi->i_inline_xattr_addrs = DEFAULT_INLINE_XATTR_ADDRS;
	}
	/*
	 * Small files, symlinks and directories start in the inode block
	 * (data.c, dir.c) and move out when they outgrow it.
	 */
	if ((S_ISREG(mode) || S_ISLNK(mode)) &&
	    f2fs_opt(sbi, F2FS_OPT_INLINE_DATA))
		fi->i_inline |= F2FS_INLINE_DATA;
	if (S_ISDIR(mode) && f2fs_opt(sbi, F2FS_OPT_INLINE_DENTRY)) {
		/* The format keeps the xattr area free beside inline dentries. */
		fi->i_inline |= F2FS_INLINE_DENTRY;
		fi->i_inline_xattr_addrs = DEFAULT_INLINE_XATTR_ADDRS;
	}
	set_inode_ops(inode);
	err = insert_inode_locked(inode);
	if (err)
		goto free_nid;

	page = f2fs_new_node_page(inode, ino, 0);
	if (IS_ERR(page)) {
		err = PTR_ERR(page);
		goto unlock_new;
	}
	ri = &((struct f2fs_node *)page_address(page))->i;
	fill_raw_inode(inode, ri);
	set_raw_name(ri, name);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	return inode;

unlock_new:
	f2fs_alloc_nid_failed(sbi, ino);
	make_bad_inode(inode);
	clear_nlink(inode);
	unlock_new_inode(inode);
	iput(inode);
	return ERR_PTR(err);
free_nid:
	f2fs_alloc_nid_failed(sbi, ino);
put_inode:
	make_bad_inode(inode);
	clear_nlink(inode);
	iput(inode);
	return ERR_PTR(err);
}
