// SPDX-License-Identifier: GPL-2.0
/*
 * namei.c - inode operations of directories, symlinks and special files.
 *
 * Name resolution goes through f2fs_find_entry() (dir.c) and f2fs_iget()
 * (inode.c); this file only wires them into the VFS.  Symlink targets are
 * stored as file data (or inline data) and read through the page cache.
 */
#include "f2fs.h"

static struct dentry *f2fs_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	struct inode *inode = NULL;
	struct f2fs_dir_entry *de;
	struct page *page;

	if (dentry->d_name.len > F2FS_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	de = f2fs_find_entry(dir, &dentry->d_name, &page);
	if (IS_ERR(de))
		return ERR_CAST(de);
	if (de) {
		u32 ino = le32_to_cpu(de->ino);

		put_page(page);
		inode = f2fs_iget(dir->i_sb, ino);
		if (IS_ERR(inode))
			return ERR_CAST(inode);
	}
	return d_splice_alias(inode, dentry);
}

const struct inode_operations f2fs_dir_inode_operations = {
	.lookup		= f2fs_lookup,
	.getattr	= f2fs_getattr,
};

const struct inode_operations f2fs_symlink_inode_operations = {
	.get_link	= page_get_link,
	.getattr	= f2fs_getattr,
};

const struct inode_operations f2fs_special_inode_operations = {
	.getattr	= f2fs_getattr,
};
