// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - file operations of regular files and the shared getattr.
 *
 * Reads and writes go through the generic page cache paths (read_iter,
 * write_iter, mmap, splice), which call into data.c for block mapping,
 * readahead, block reservation and writeback.  fsync writes the file's
 * pages and then either an fsync record for roll-forward recovery
 * (node.c, recovery.c) or a checkpoint.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include "f2fs.h"
#include "xattr.h"
#include "../trace-events/f2fs.h"

/**
 * f2fs_getattr - fill a kstat, adding the creation time when recorded.
 * @mnt_userns: idmapping of the mount.
 * @path: the object.
 * @stat: filled in.
 * @request_mask: STATX_* fields asked for.
 * @flags: AT_* flags.
 *
 * Return: 0.
 */
int f2fs_getattr(struct user_namespace *mnt_userns, const struct path *path,
		 struct kstat *stat, u32 request_mask, unsigned int flags)
{
	struct inode *inode = d_inode(path->dentry);
	struct f2fs_inode_info *fi = F2FS_I(inode);

	if ((request_mask & STATX_BTIME) &&
	    (fi->i_crtime.tv_sec || fi->i_crtime.tv_nsec)) {
		stat->result_mask |= STATX_BTIME;
		stat->btime = fi->i_crtime;
	}
	if (fi->i_flags & FS_APPEND_FL)
		stat->attributes |= STATX_ATTR_APPEND;
	if (fi->i_flags & FS_IMMUTABLE_FL)
		stat->attributes |= STATX_ATTR_IMMUTABLE;
	if (fi->i_flags & FS_NODUMP_FL)
		stat->attributes |= STATX_ATTR_NODUMP;
	stat->attributes_mask |= STATX_ATTR_APPEND | STATX_ATTR_IMMUTABLE |
				 STATX_ATTR_NODUMP;
	generic_fillattr(mnt_userns, inode, stat);
	/*
	 * Inline data and dentries live in the inode block, which i_blocks
	 * does not count; report their bytes as used sectors, as the stock
	 * module does, so that du sees them.
	 */
	if ((S_ISREG(inode->i_mode) && f2fs_inline_data(inode)) ||
	    f2fs_inline_dentry(inode))
		stat->blocks += (stat->size + 511) >> 9;
	return 0;
}

/*
 * Zero the tail of the block that holds the new end of file.  A
 * preallocated block is zeroed and written too, as the stock module does
 * (it becomes data for SEEK_DATA); a hole stays a hole.
 */
static int zero_partial_block(struct inode *inode, loff_t size)
{
	unsigned int ofs = size & (PAGE_SIZE - 1);
	pgoff_t index = size >> PAGE_SHIFT;
	struct page *page;
	u32 blkaddr;
	int n;

	if (!ofs)
		return 0;
	page = find_lock_page(inode->i_mapping, index);
	if (!page) {
		n = f2fs_lookup_addr(inode, index, &blkaddr);
		if (n < 0)
			return n;
		if (blkaddr == NULL_ADDR)
			return 0;	/* a hole reads as zeros anyway */
		page = read_mapping_page(inode->i_mapping, index, NULL);
		if (IS_ERR(page))
			return PTR_ERR(page);
		lock_page(page);
	}
	wait_for_stable_page(page);
	zero_user_segment(page, ofs, PAGE_SIZE);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	return 0;
}

static int change_size(struct inode *inode, loff_t size)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	loff_t old = i_size_read(inode);
	int err;

	if (f2fs_inline_data(inode) && size <= f2fs_max_inline_data(inode)) {
		/* Stays inline: cut the cached page, then the inode block. */
		truncate_setsize(inode, size);
		err = 0;
		if (size < old) {
			f2fs_lock_op(sbi);
			err = f2fs_truncate_inline_data(inode, size);
			f2fs_set_need_cp(inode);
			f2fs_unlock_op(sbi);
		}
		goto done;
	}
	err = f2fs_convert_inline_data(inode);
	if (err)
		return err;
	truncate_setsize(inode, size);
	if (size < old) {
		err = zero_partial_block(inode, size);
		if (err)
			return err;
		f2fs_lock_op(sbi);
		err = f2fs_truncate_blocks(inode, DIV_ROUND_UP(size, PAGE_SIZE));
		/* Under cp_rwsem: no checkpoint between the two. */
		f2fs_set_need_cp(inode);
		f2fs_unlock_op(sbi);
	}
done:
	inode->i_mtime = current_time(inode);
	inode->i_ctime = inode->i_mtime;
	f2fs_mark_meta_dirty(inode);
	return err;
}

/**
 * f2fs_setattr - change attributes, including the size.
 * @mnt_userns: idmapping of the mount.
 * @dentry: the object.
 * @attr: what to change.
 *
 * Return: 0, or the errors of setattr_prepare(), of block reservation
 * (-ENOSPC), of reading nodes (-EIO, -EFSCORRUPTED) and of rewriting the
 * access ACL for a new mode (-E2BIG, -ENOMEM).
 */
int f2fs_setattr(struct user_namespace *mnt_userns, struct dentry *dentry,
		 struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err;

	/* A descriptor opened before chattr +i/+a can still ftruncate. */
	if ((attr->ia_valid & ATTR_SIZE) &&
	    (IS_IMMUTABLE(inode) || IS_APPEND(inode)))
		return -EPERM;
	err = setattr_prepare(mnt_userns, dentry, attr);
	if (err)
		return err;
	if ((attr->ia_valid & ATTR_SIZE) &&
	    attr->ia_size != i_size_read(inode)) {
		if (!S_ISREG(inode->i_mode))
			return -EINVAL;
		err = change_size(inode, attr->ia_size);
		if (err)
			return err;
	} else if ((attr->ia_valid & ATTR_SIZE) && S_ISREG(inode->i_mode)) {
		err = f2fs_truncate_same_size(inode);	/* falloc.c */
		if (err)
			return err;
	}
	setattr_copy(mnt_userns, inode, attr);
	f2fs_mark_meta_dirty(inode);
	/* A new mode changes the access ACL too (acl.c). */
	if (attr->ia_valid & ATTR_MODE)
		err = posix_acl_chmod(mnt_userns, inode, inode->i_mode);
	return err;
}

/*
 * Must this fsync write a checkpoint?  Roll-forward recovery replays a
 * regular file's data, size and attributes, and links a new file into its
 * parent by the name stored in its inode; it cannot replay other links,
 * renames or shrinking, nor a file whose parent directory the checkpoint
 * does not have yet.  Space short of the reserve also needs a checkpoint,
 * which frees prefree segments.
 */
static enum f2fs_fsync_kind fsync_kind(struct inode *inode)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);

	if (!S_ISREG(inode->i_mode))
		return F2FS_FSYNC_CP_NOT_FILE;
	if (inode->i_nlink != 1)
		return F2FS_FSYNC_CP_LINKS;
	if (fi->need_cp_ver == sbi->cp_ver)
		return F2FS_FSYNC_CP_CHANGED;
	if (sbi->opt.active_logs == 2 || f2fs_space_low(sbi) ||
	    sbi->nm.nat_dirty >= f2fs_cp_dirty_nats(sbi))
		return F2FS_FSYNC_CP_SPACE;
	if (!f2fs_nid_checkpointed(sbi, inode->i_ino) &&
	    !f2fs_nid_checkpointed(sbi, fi->i_pino))
		return F2FS_FSYNC_CP_NEW_DIR;
	return F2FS_FSYNC_RECORD;
}

/*
 * Write and wait for a range of a file's pages.  Writeback keeps a page
 * dirty when it finds no room for it (data.c): then the cleaner makes
 * room and the range is written again, a few times before giving up.
 * It also keeps a page dirty when a checkpoint holds (or waits for) the
 * operations lock, since it must not wait for it with the page locked;
 * *@kept then tells the caller that only a checkpoint, which writes every
 * dirty page itself, makes the range durable: a record would point at
 * blocks never written.
 */
static int f2fs_write_range_roomy(struct file *file, loff_t start, loff_t end,
				  bool *kept)
{
	struct inode *inode = file_inode(file);
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	unsigned int tries;
	s64 deferred, busy;
	int err;

	*kept = false;
	for (tries = 0;; tries++) {
		deferred = atomic64_read(&sbi->stats.wb_deferred);
		busy = atomic64_read(&sbi->stats.wb_cp_busy);
		err = file_write_and_wait_range(file, start, end);
		if (err || !sbi->writable ||
		    !filemap_range_needs_writeback(inode->i_mapping, start, end))
			return err;
		if (atomic64_read(&sbi->stats.wb_deferred) == deferred) {
			/* Dirtied again by a writer, or kept for a checkpoint. */
			*kept = atomic64_read(&sbi->stats.wb_cp_busy) != busy;
			return 0;
		}
		if (tries == F2FS_ROOM_RETRIES) {
			f2fs_err(sbi, "inode %lu: no room to write its dirty pages",
				 inode->i_ino);
			return -ENOSPC;
		}
		err = f2fs_make_room(sbi);
		if (err)
			return err;
	}
}

/**
 * f2fs_sync_file - make a file's data and metadata durable.
 * @file: the file.
 * @start: first byte.
 * @end: last byte.
 * @datasync: only data and what is needed to read it back (the times
 *	need not be durable; otherwise as a full fsync).
 *
 * Writes the range; then either an fsync record (the file's direct nodes
 * and inode in the warm node log, see f2fs_fsync_node_pages()), which the
 * next mount rolls forward, or, where recovery could not replay the
 * change, a checkpoint.
 *
 * Return: 0, or the error of writeback, of the record or of the checkpoint.
 */
int f2fs_sync_file(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file_inode(file);
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u64 t0 = trace_f2fs_fsync_enabled() ? ktime_get_ns() : 0;
	enum f2fs_fsync_kind kind;
	bool kept;
	int err;

	err = f2fs_write_range_roomy(file, start, end, &kept);
	if (err)
		return err;
	/* After a write error nothing written since is known durable. */
	if (f2fs_writes_failed(sbi))
		return -EIO;
	if (sb_rdonly(inode->i_sb) || !sbi->writable)
		return 0;
	kind = kept ? F2FS_FSYNC_CP_WB_KEPT : fsync_kind(inode);
	err = -ENOSPC;
	if (kind == F2FS_FSYNC_RECORD)
		err = f2fs_fsync_node_pages(inode, datasync);
	if (err == F2FS_FSYNC_NOTHING) {
		kind = F2FS_FSYNC_UNCHANGED;
		err = 0;
	}
	if (err == -ENOSPC || err == -EAGAIN) {
		if (kind == F2FS_FSYNC_RECORD)
			kind = err == -EAGAIN ? F2FS_FSYNC_CP_CHANGED :
						F2FS_FSYNC_CP_SPACE;
		err = f2fs_write_checkpoint(sbi, F2FS_CP_FSYNC);
	}
	atomic64_inc(&sbi->stats.fsyncs[kind]);
	if (trace_f2fs_fsync_enabled())
		trace_f2fs_fsync(inode, kind, datasync, err,
				 t0 ? ktime_get_ns() - t0 : 0);
	return err;
}

/*
 * A descriptor opened before chattr +i or +a keeps its write access; the
 * flags are checked again here, as the VFS checked them at open.
 */
static ssize_t f2fs_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	ssize_t ret;
	int err;

	if (IS_IMMUTABLE(inode) ||
	    (IS_APPEND(inode) && !(iocb->ki_flags & IOCB_APPEND)))
		return -EPERM;
	/* generic_file_write_iter(), with the blocks reserved before the copy */
	inode_lock(inode);
	ret = generic_write_checks(iocb, from);
	if (ret > 0) {
		f2fs_reserve_write(inode, iocb->ki_pos, ret);
		ret = __generic_file_write_iter(iocb, from);
		err = f2fs_reserve_write_end(inode);
		if (err && !ret)
			ret = err;
	}
	inode_unlock(inode);
	/* O_SYNC and O_DSYNC: the bytes written, or the sync's error */
	return ret > 0 ? generic_write_sync(iocb, ret) : ret;
}

static int f2fs_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	file_accessed(file);
	vma->vm_ops = &f2fs_file_vm_ops;
	return 0;
}

const struct file_operations f2fs_file_operations = {
	.llseek		= f2fs_llseek,		/* falloc.c */
	.read_iter	= generic_file_read_iter,
	.write_iter	= f2fs_file_write_iter,
	.mmap		= f2fs_file_mmap,
	/*
	 * Inline data stays inline for writers; it moves to a block when it
	 * outgrows the inode block, for a shared writable mapping's first
	 * fault, and for fallocate (data.c, falloc.c).
	 */
	.open		= generic_file_open,
	.fsync		= f2fs_sync_file,
	.unlocked_ioctl	= f2fs_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= f2fs_compat_ioctl,
#endif
	.splice_read	= generic_file_splice_read,
	.splice_write	= iter_file_splice_write,
	.fallocate	= f2fs_fallocate,	/* falloc.c */
};

const struct inode_operations f2fs_file_inode_operations = {
	.getattr	= f2fs_getattr,
	.setattr	= f2fs_setattr,
	.listxattr	= f2fs_listxattr,
	.get_acl	= f2fs_get_acl,
	.set_acl	= f2fs_set_acl,
	.fileattr_get	= f2fs_fileattr_get,
	.fileattr_set	= f2fs_fileattr_set,
	.fiemap		= f2fs_fiemap,		/* falloc.c */
};
