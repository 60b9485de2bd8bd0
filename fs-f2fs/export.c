// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - NFS export and open_by_handle_at(2).
 *
 * A file handle is the generic 32-bit one: inode number and generation
 * (i_generation, random at creation and stored in the inode block).  An
 * inode number is a nid, and nids are reused: a handle must not open
 * whatever inode holds its nid today.  So a handle resolves only when the
 * NAT says the nid is an allocated inode block (not a free nid, not a
 * direct or indirect node of another inode), the inode still has links,
 * and its generation matches the handle's; otherwise it is stale (ESTALE),
 * which is what NFS clients and open_by_handle_at(2) callers expect.  No
 * kernel message is written for stale handles: they are normal.
 *
 * A directory's parent comes from its ".." entry, so that disconnected
 * dentries (after a reboot of the server, or drop_caches) reconnect to the
 * tree.
 */
#include <linux/exportfs.h>
#include "f2fs.h"

static struct inode *f2fs_nfs_get_inode(struct super_block *sb, u64 ino,
					u32 generation)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);
	struct f2fs_nat_cached ni;
	struct inode *inode;
	int err;

	if (ino < F2FS_RESERVED_NODE_NUM || ino >= sbi->nm.max_nid ||
	    ino == sbi->node_ino || ino == sbi->meta_ino)
		return ERR_PTR(-ESTALE);
	err = f2fs_get_node_info(sbi, ino, &ni);
	if (err)
		return ERR_PTR(err);
	if (ni.blkaddr == NULL_ADDR || ni.ino != ino)
		return ERR_PTR(-ESTALE);
	inode = f2fs_iget(sb, ino);
	if (IS_ERR(inode))
		return ERR_CAST(inode);
	if (!inode->i_nlink ||
	    (generation && inode->i_generation != generation)) {
		iput(inode);
		return ERR_PTR(-ESTALE);
	}
	return inode;
}

static struct dentry *f2fs_fh_to_dentry(struct super_block *sb,
					struct fid *fid, int fh_len,
					int fh_type)
{
	return generic_fh_to_dentry(sb, fid, fh_len, fh_type,
				    f2fs_nfs_get_inode);
}

static struct dentry *f2fs_fh_to_parent(struct super_block *sb,
					struct fid *fid, int fh_len,
					int fh_type)
{
	return generic_fh_to_parent(sb, fid, fh_len, fh_type,
				    f2fs_nfs_get_inode);
}

static struct dentry *f2fs_get_parent(struct dentry *child)
{
	struct f2fs_dir_entry *de;
	struct page *page;
	u32 ino;

	de = f2fs_parent_entry(d_inode(child), &page);
	if (IS_ERR(de))
		return ERR_CAST(de);
	if (!de)
		return ERR_PTR(-ENOENT);
	ino = le32_to_cpu(de->ino);
	put_page(page);
	return d_obtain_alias(f2fs_iget(child->d_sb, ino));
}

/* The handle is exportfs's default: FILEID_INO32_GEN(_PARENT). */
const struct export_operations f2fs_export_ops = {
	.fh_to_dentry	= f2fs_fh_to_dentry,
	.fh_to_parent	= f2fs_fh_to_parent,
	.get_parent	= f2fs_get_parent,
};
