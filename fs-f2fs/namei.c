// SPDX-License-Identifier: GPL-2.0
/*
 * namei.c - inode operations of directories, symlinks and special files.
 *
 * Name resolution goes through f2fs_find_entry() (dir.c) and f2fs_iget()
 * (inode.c); this file wires them, and the namespace changes, into the
 * VFS.  Every change runs inside f2fs_lock_op(), so that a checkpoint sees
 * either none or all of it: the new inode, its dentry, the link counts.
 * Symlink targets are stored as file data (or inline data) and read
 * through the page cache.
 */
#include "f2fs.h"
#include "xattr.h"
#include "../trace-events/f2fs.h"

static struct dentry *lookup_inode(struct inode *dir, struct dentry *dentry,
				   u32 *found)
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
		*found = ino;
		inode = f2fs_iget(dir->i_sb, ino);
		if (IS_ERR(inode))
			return ERR_CAST(inode);
	}
	return d_splice_alias(inode, dentry);
}

static struct dentry *f2fs_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	u64 t0 = trace_f2fs_lookup_exit_enabled() ? ktime_get_ns() : 0;
	struct dentry *ret;
	u32 found = 0;

	trace_f2fs_lookup_enter(dir, dentry);
	ret = lookup_inode(dir, dentry, &found);
	if (trace_f2fs_lookup_exit_enabled())
		trace_f2fs_lookup_exit(dir, dentry, found, PTR_ERR_OR_ZERO(ret),
				       t0 ? ktime_get_ns() - t0 : 0);
	return ret;
}

/*
 * A directory flagged dirsync (chattr +D, or a sync/dirsync mount) makes a
 * change of its entries durable before the call returns: a checkpoint, as
 * the stock module writes.
 */
static int dirsync(struct inode *dir, int err)
{
	if (err || !IS_DIRSYNC(dir))
		return err;
	return f2fs_write_checkpoint(F2FS_I_SB(dir), F2FS_CP_SYNC);
}

/* Undo a half-made inode: no link, so eviction frees it. */
static void drop_new_inode(struct inode *inode)
{
	clear_nlink(inode);
	unlock_new_inode(inode);
	iput(inode);
}

static int new_entry(struct inode *dir, struct dentry *dentry, umode_t mode,
		     dev_t rdev)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	struct inode *inode;
	int err;

	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	f2fs_lock_op(sbi);
	inode = f2fs_new_inode(dir, mode, &dentry->d_name);
	if (IS_ERR(inode)) {
		f2fs_unlock_op(sbi);
		return PTR_ERR(inode);
	}
	if (!S_ISREG(mode) && !S_ISDIR(mode))
		init_special_inode(inode, mode, rdev);
	/* ACLs and security label (xattr.c). */
	err = f2fs_init_inode_xattrs(inode, dir, &dentry->d_name);
	if (!err && S_ISDIR(mode)) {
		set_nlink(inode, 2);
		err = f2fs_make_empty(inode, dir);
	}
	if (!err)
		err = f2fs_add_link(dir, &dentry->d_name, inode);
	if (err) {
		f2fs_unlock_op(sbi);
		drop_new_inode(inode);
		return err;
	}
	if (S_ISDIR(mode))
		inc_nlink(dir);
	f2fs_mark_meta_dirty(inode);
	f2fs_unlock_op(sbi);
	d_instantiate_new(dentry, inode);
	return 0;
}

static int f2fs_create(struct user_namespace *mnt_userns, struct inode *dir,
		       struct dentry *dentry, umode_t mode, bool excl)
{
	return dirsync(dir, new_entry(dir, dentry, S_IFREG | (mode & ~S_IFMT), 0));
}

static int f2fs_mkdir(struct user_namespace *mnt_userns, struct inode *dir,
		      struct dentry *dentry, umode_t mode)
{
	return dirsync(dir, new_entry(dir, dentry, S_IFDIR | mode, 0));
}

static int f2fs_mknod(struct user_namespace *mnt_userns, struct inode *dir,
		      struct dentry *dentry, umode_t mode, dev_t rdev)
{
	return dirsync(dir, new_entry(dir, dentry, mode, rdev));
}

static int f2fs_symlink(struct user_namespace *mnt_userns, struct inode *dir,
			struct dentry *dentry, const char *symname)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	size_t len = strlen(symname) + 1;
	struct inode *inode;
	int err;

	if (len > PAGE_SIZE)
		return -ENAMETOOLONG;
	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	f2fs_lock_op(sbi);
	inode = f2fs_new_inode(dir, S_IFLNK | 0777, &dentry->d_name);
	/* The security label (xattr.c); symlinks have no ACLs. */
	err = IS_ERR(inode) ? 0 :
	      f2fs_init_inode_xattrs(inode, dir, &dentry->d_name);
	f2fs_unlock_op(sbi);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (err)
		goto discard;
	/* The target is file data, written through the page cache. */
	err = page_symlink(inode, symname, len);
	if (err)
		goto discard;
	f2fs_lock_op(sbi);
	err = f2fs_add_link(dir, &dentry->d_name, inode);
	f2fs_mark_meta_dirty(inode);
	f2fs_unlock_op(sbi);
	if (err)
		goto discard;
	d_instantiate_new(dentry, inode);
	return dirsync(dir, 0);
discard:
	drop_new_inode(inode);
	return err;
}

static int f2fs_link(struct dentry *old_dentry, struct inode *dir,
		     struct dentry *dentry)
{
	struct inode *inode = d_inode(old_dentry);
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	int err;

	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	f2fs_lock_op(sbi);
	err = f2fs_add_link(dir, &dentry->d_name, inode);
	if (!err) {
		inode->i_ctime = current_time(inode);
		inc_nlink(inode);
		f2fs_set_need_cp(inode);
		ihold(inode);
		f2fs_mark_meta_dirty(inode);
		d_instantiate(dentry, inode);
	}
	f2fs_unlock_op(sbi);
	return dirsync(dir, err);
}

/* One link less for @inode; at zero it becomes an orphan until evicted. */
static void drop_link(struct f2fs_sb_info *sbi, struct inode *inode,
		      bool is_dir)
{
	inode->i_ctime = current_time(inode);
	if (is_dir)
		clear_nlink(inode);
	else
		drop_nlink(inode);
	if (!inode->i_nlink)
		f2fs_add_orphan(sbi, inode->i_ino);
	f2fs_mark_meta_dirty(inode);
}

/* Remove @dentry's name from @dir and drop the link it held. */
static int remove_name(struct inode *dir, struct dentry *dentry, bool is_dir)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	struct f2fs_dir_entry *de;
	struct page *page;

	de = f2fs_find_entry(dir, &dentry->d_name, &page);
	if (IS_ERR(de))
		return PTR_ERR(de);
	if (!de)
		return -ENOENT;
	f2fs_lock_op(sbi);
	f2fs_delete_entry(dir, de, page);
	drop_link(sbi, d_inode(dentry), is_dir);
	if (is_dir) {
		drop_nlink(dir);	/* its ".." */
		f2fs_mark_meta_dirty(dir);
	}
	f2fs_unlock_op(sbi);
	/* Deleting frees space: never refused, but may need a checkpoint. */
	f2fs_balance_fs(sbi);
	return 0;
}

static int f2fs_unlink(struct inode *dir, struct dentry *dentry)
{
	return dirsync(dir, remove_name(dir, dentry, false));
}

static int f2fs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!f2fs_empty_dir(d_inode(dentry)))
		return -ENOTEMPTY;
	return dirsync(dir, remove_name(dir, dentry, true));
}

static int f2fs_rename(struct user_namespace *mnt_userns,
		       struct inode *old_dir, struct dentry *old_dentry,
		       struct inode *new_dir, struct dentry *new_dentry,
		       unsigned int flags)
{
	struct inode *new_inode = d_inode(new_dentry);	/* NULL: a new name */
	struct inode *old_inode = d_inode(old_dentry);
	struct f2fs_sb_info *sbi = F2FS_I_SB(old_dir);
	struct page *dotdot_page = NULL, *old_page, *new_page;
	struct f2fs_dir_entry *dotdot_de = NULL, *old_de, *new_de;
	bool is_dir = S_ISDIR(old_inode->i_mode);
	int err;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if (new_inode && S_ISDIR(new_inode->i_mode) && !f2fs_empty_dir(new_inode))
		return -ENOTEMPTY;
	err = f2fs_balance_fs(sbi);
	if (err)
		return err;

	/* Entries move between pages when a directory leaves inline form. */
	f2fs_lock_op(sbi);
	err = f2fs_convert_inline_dir(old_dir);
	if (!err)
		err = f2fs_convert_inline_dir(new_dir);
	if (!err && is_dir)
		err = f2fs_convert_inline_dir(old_inode);
	f2fs_unlock_op(sbi);
	if (err)
		return err;

	old_de = f2fs_find_entry(old_dir, &old_dentry->d_name, &old_page);
	if (IS_ERR_OR_NULL(old_de))
		return old_de ? PTR_ERR(old_de) : -ENOENT;
	if (is_dir && old_dir != new_dir) {
		dotdot_de = f2fs_parent_entry(old_inode, &dotdot_page);
		if (IS_ERR_OR_NULL(dotdot_de)) {
			err = dotdot_de ? PTR_ERR(dotdot_de) : -EFSCORRUPTED;
			goto put_old;
		}
	}

	f2fs_lock_op(sbi);
	if (new_inode) {
		new_de = f2fs_find_entry(new_dir, &new_dentry->d_name, &new_page);
		if (IS_ERR_OR_NULL(new_de)) {
			err = new_de ? PTR_ERR(new_de) : -ENOENT;
			goto unlock;
		}
		f2fs_set_link(new_dir, new_de, new_page, old_inode);
		drop_link(sbi, new_inode, S_ISDIR(new_inode->i_mode));
	} else {
		err = f2fs_add_link(new_dir, &new_dentry->d_name, old_inode);
		if (err)
			goto unlock;
		/* The ".." of a directory moving in: one more link. */
		if (is_dir && old_dir != new_dir)
			inc_nlink(new_dir);
	}
	f2fs_delete_entry(old_dir, old_de, old_page);
	old_page = NULL;
	old_inode->i_ctime = current_time(old_inode);
	F2FS_I(old_inode)->i_pino = new_dir->i_ino;
	/* Done whatever it returns: a bad inode block was logged. */
	f2fs_set_inode_name(old_inode, &new_dentry->d_name);
	f2fs_set_need_cp(old_inode);
	f2fs_mark_meta_dirty(old_inode);
	/* Its ".." left old_dir, or it replaced a directory there. */
	if (is_dir && (new_inode || old_dir != new_dir))
		drop_nlink(old_dir);
	if (dotdot_de) {
		f2fs_set_link(old_inode, dotdot_de, dotdot_page, new_dir);
		dotdot_page = NULL;
	}
	f2fs_mark_meta_dirty(old_dir);
	f2fs_mark_meta_dirty(new_dir);
unlock:
	f2fs_unlock_op(sbi);
	if (dotdot_page)
		put_page(dotdot_page);
put_old:
	if (old_page)
		put_page(old_page);
	if (!err && old_dir != new_dir)
		err = dirsync(old_dir, 0);
	return dirsync(new_dir, err);
}

const struct inode_operations f2fs_dir_inode_operations = {
	/* names that come and go */
	.lookup		= f2fs_lookup,
	.create		= f2fs_create,
	.link		= f2fs_link,
	.unlink		= f2fs_unlink,
	.rename		= f2fs_rename,
	.symlink	= f2fs_symlink,
	.mknod		= f2fs_mknod,
	.mkdir		= f2fs_mkdir,
	.rmdir		= f2fs_rmdir,
	/* attributes */
	.getattr	= f2fs_getattr,
	.setattr	= f2fs_setattr,
	.listxattr	= f2fs_listxattr,
	.get_acl	= f2fs_get_acl,
	.set_acl	= f2fs_set_acl,
	.fileattr_get	= f2fs_fileattr_get,	/* ioctl.c */
	.fileattr_set	= f2fs_fileattr_set,	/* ioctl.c */
};

const struct inode_operations f2fs_symlink_inode_operations = {
	.get_link	= page_get_link,
	.getattr	= f2fs_getattr,
	.setattr	= f2fs_setattr,
	.listxattr	= f2fs_listxattr,
};

const struct inode_operations f2fs_special_inode_operations = {
	.getattr	= f2fs_getattr,
	.setattr	= f2fs_setattr,
	.listxattr	= f2fs_listxattr,
	.get_acl	= f2fs_get_acl,
	.set_acl	= f2fs_set_acl,
};
