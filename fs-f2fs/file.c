// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - file operations of regular files and the shared getattr.
 *
 * Reads go through the generic page cache paths (read_iter, mmap, splice),
 * which call into data.c for block mapping and readahead.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include "f2fs.h"

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

const struct file_operations f2fs_file_operations = {
	.llseek		= generic_file_llseek,
	.read_iter	= generic_file_read_iter,
	.mmap		= generic_file_readonly_mmap,
	.splice_read	= generic_file_splice_read,
};

const struct inode_operations f2fs_file_inode_operations = {
	.getattr	= f2fs_getattr,
};
