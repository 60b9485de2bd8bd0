// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - file flags (chattr/lsattr) and the ioctls of files and
 * directories.
 *
 * The flags live in the inode's on-disk i_flags, whose bits are the VFS's
 * FS_*_FL values, as the stock module writes them.  The 6.1 VFS turns
 * FS_IOC_GETFLAGS/SETFLAGS and FS_IOC_FSGETXATTR/FSSETXATTR into the
 * fileattr calls below, after it has checked ownership and
 * CAP_LINUX_IMMUTABLE; we decide which bits may change.  Users can set the
 * flags whose meaning we carry out: sync, dirsync, immutable, append-only,
 * noatime and nodump.  The bits of features we do not have (compression,
 * casefolding, project inheritance) are shown when an image has them but
 * cannot be changed; FS_INDEX_FL (hash-indexed directory) and
 * FS_INLINE_DATA_FL (shown for inline data or dentries) are the
 * filesystem's own and a request to change them is ignored, since chattr
 * hands back every bit it read.
 *
 * The VFS enforces immutable and append-only for opens, links, unlinks,
 * renames, truncates by path, fallocate and xattrs.  What it leaves to the
 * filesystem is a descriptor opened (or a mapping made) before the flag
 * was set: f2fs_file_write_iter(), f2fs_setattr() and page_mkwrite check
 * again.  Changing the flags dirties the inode like any attribute change;
 * roll-forward recovery replays the flags of an fsynced inode.
 */
#include <linux/fs.h>
#include <linux/fileattr.h>
#include <linux/compat.h>
#include <linux/uaccess.h>
#include "f2fs.h"

/* What lsattr may see, and what chattr may change. */
#define F2FS_SHOWN_FL	(FS_SYNC_FL | FS_IMMUTABLE_FL | FS_APPEND_FL |	  \
			 FS_NODUMP_FL | FS_NOATIME_FL | FS_INDEX_FL |	  \
			 FS_DIRSYNC_FL | FS_COMPR_FL | FS_NOCOMP_FL |	  \
			 FS_PROJINHERIT_FL | FS_CASEFOLD_FL)
#define F2FS_CHANGEABLE_FL (FS_SYNC_FL | FS_IMMUTABLE_FL | FS_APPEND_FL | \
			    FS_NODUMP_FL | FS_NOATIME_FL | FS_DIRSYNC_FL)

/**
 * f2fs_set_inode_flags - carry on-disk flags over to the VFS inode.
 * @inode: the inode.
 * @flags: its i_flags.
 */
void f2fs_set_inode_flags(struct inode *inode, u32 flags)
{
	unsigned int f = 0;

	if (flags & FS_SYNC_FL)
		f |= S_SYNC;
	if (flags & FS_APPEND_FL)
		f |= S_APPEND;
	if (flags & FS_IMMUTABLE_FL)
		f |= S_IMMUTABLE;
	if (flags & FS_NOATIME_FL)
		f |= S_NOATIME;
	if (flags & FS_DIRSYNC_FL)
		f |= S_DIRSYNC;
	inode_set_flags(inode, f,
			S_SYNC | S_APPEND | S_IMMUTABLE | S_NOATIME | S_DIRSYNC);
}

/**
 * f2fs_fileattr_get - inode_operations.fileattr_get: the flags for lsattr.
 * @dentry: the object.
 * @fa: filled in.
 *
 * Return: 0.
 */
int f2fs_fileattr_get(struct dentry *dentry, struct fileattr *fa)
{
	struct inode *inode = d_inode(dentry);
	u32 flags = READ_ONCE(F2FS_I(inode)->i_flags) & F2FS_SHOWN_FL;

	/* Data or entries inside the inode block, as stock reports them. */
	if (f2fs_inline_data(inode) || f2fs_inline_dentry(inode))
		flags |= FS_INLINE_DATA_FL;
	fileattr_fill_flags(fa, flags);
	return 0;
}

/**
 * f2fs_fileattr_set - inode_operations.fileattr_set: chattr.
 * @mnt_userns: idmapping of the mount.
 * @dentry: the object.
 * @fa: the flags wanted.  The VFS holds the inode lock and has checked
 *	ownership and CAP_LINUX_IMMUTABLE.
 *
 * Through FS_IOC_SETFLAGS every flag is given; through FS_IOC_FSSETXATTR
 * only the common ones, and the others stay as they are.
 *
 * Return: 0, -EOPNOTSUPP for a flag we cannot carry out or for xfs-only
 * attributes (extent size, project id), -EROFS on an image we serve
 * read-only.
 */
int f2fs_fileattr_set(struct user_namespace *mnt_userns,
		      struct dentry *dentry, struct fileattr *fa)
{
	struct inode *inode = d_inode(dentry);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	u32 mask = fa->flags_valid ? F2FS_SHOWN_FL : FS_COMMON_FL;
	u32 old = fi->i_flags, want;

	if (!F2FS_I_SB(inode)->writable)
		return -EROFS;
	if (fileattr_has_fsx(fa) ||
	    (fa->flags & ~mask & ~(FS_INDEX_FL | FS_INLINE_DATA_FL)))
		return -EOPNOTSUPP;
	mask &= ~FS_INDEX_FL;
	want = (old & ~mask) | (fa->flags & mask);
	if ((want ^ old) & ~F2FS_CHANGEABLE_FL)
		return -EOPNOTSUPP;
	if (want == old)
		return 0;
	WRITE_ONCE(fi->i_flags, want);
	f2fs_set_inode_flags(inode, want);
	inode->i_ctime = current_time(inode);
	f2fs_mark_meta_dirty(inode);
	return 0;
}

/**
 * f2fs_ioctl - file_operations.unlocked_ioctl of files and directories.
 * @file: the open file.
 * @cmd: FS_IOC_GETVERSION (the inode's generation, as NFS file handles
 *	carry it); the flag ioctls are the VFS's (see above).
 * @arg: user pointer.
 *
 * Return: 0, -EFAULT, or -ENOTTY for an ioctl we do not have.
 */
long f2fs_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file_inode(file);

	switch (cmd) {
	case FS_IOC_GETVERSION:
		return put_user(inode->i_generation, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

#ifdef CONFIG_COMPAT
/**
 * f2fs_compat_ioctl - the same for 32-bit callers.
 * @file: the open file.
 * @cmd: FS_IOC32_GETVERSION.
 * @arg: user pointer.
 *
 * Return: as f2fs_ioctl().
 */
long f2fs_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == FS_IOC32_GETVERSION)
		cmd = FS_IOC_GETVERSION;
	return f2fs_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif
