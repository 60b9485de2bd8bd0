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

/* i_flags bits of the format that change how an inode must be read. */
#define F2FS_FL_COMPR		0x00000004
#define F2FS_FL_ENCRYPT		0x00000800
#define F2FS_FL_CASEFOLD	0x40000000

/* Largest inline xattr area that still leaves room for inline dentries. */
#define F2FS_MAX_INLINE_XATTR_ADDRS					\
	(DEF_ADDRS_PER_INODE - F2FS_MAX_EXTRA_ISIZE / sizeof(__le32) -	\
	 F2FS_INLINE_RESERVED_ADDRS - MIN_INLINE_DENTRY_SIZE / sizeof(__le32))

static void set_inode_flags(struct inode *inode, u32 flags)
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

/* Validate and copy the on-disk inode into @inode.  */
static int read_raw_inode(struct inode *inode, struct f2fs_inode *ri)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	umode_t mode = le16_to_cpu(ri->i_mode);
	u64 disk_blocks = le64_to_cpu(ri->i_blocks);
	u32 flags = le32_to_cpu(ri->i_flags);

	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK:
	case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		break;
	default:
		f2fs_err(sbi, "inode %lu: invalid mode 0%o", inode->i_ino, mode);
		return -EFSCORRUPTED;
	}
	if (!le32_to_cpu(ri->i_links)) {
		f2fs_err(sbi, "inode %lu: link count is zero", inode->i_ino);
		return -EFSCORRUPTED;
	}
	if (!disk_blocks) {
		f2fs_err(sbi, "inode %lu: block count is zero", inode->i_ino);
		return -EFSCORRUPTED;
	}
	if (flags & (F2FS_FL_COMPR | F2FS_FL_ENCRYPT | F2FS_FL_CASEFOLD)) {
		f2fs_err(sbi, "inode %lu: compressed, encrypted or casefolded files are not supported",
			 inode->i_ino);
		return -EOPNOTSUPP;
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
			f2fs_err(sbi, "inode %lu: invalid extra attribute size %u",
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
		f2fs_err(sbi, "inode %lu: invalid inline xattr size %u",
			 inode->i_ino, fi->i_inline_xattr_addrs);
		return -EFSCORRUPTED;
	}
	if (((fi->i_inline & F2FS_INLINE_DATA) &&
	     !S_ISREG(mode) && !S_ISLNK(mode)) ||
	    ((fi->i_inline & F2FS_INLINE_DENTRY) && !S_ISDIR(mode))) {
		f2fs_err(sbi, "inode %lu: inline flags 0x%x do not fit mode 0%o",
			 inode->i_ino, fi->i_inline, mode);
		return -EFSCORRUPTED;
	}

	inode->i_mode = mode;
	i_uid_write(inode, le32_to_cpu(ri->i_uid));
	i_gid_write(inode, le32_to_cpu(ri->i_gid));
	set_nlink(inode, le32_to_cpu(ri->i_links));
	inode->i_size = le64_to_cpu(ri->i_size);
	inode->i_blocks = (disk_blocks - 1) << (F2FS_BLKSIZE_BITS - 9);
	inode->i_atime.tv_sec = le64_to_cpu(ri->i_atime);
	inode->i_ctime.tv_sec = le64_to_cpu(ri->i_ctime);
	inode->i_mtime.tv_sec = le64_to_cpu(ri->i_mtime);
	inode->i_atime.tv_nsec = le32_to_cpu(ri->i_atime_nsec);
	inode->i_ctime.tv_nsec = le32_to_cpu(ri->i_ctime_nsec);
	inode->i_mtime.tv_nsec = le32_to_cpu(ri->i_mtime_nsec);
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
			f2fs_err(sbi, "directory %lu: depth %u too large",
				 inode->i_ino, fi->i_current_depth);
			return -EFSCORRUPTED;
		}
	}
	if (inode->i_size < 0 ||
	    (S_ISLNK(mode) && inode->i_size >= PAGE_SIZE) ||
	    ((fi->i_inline & F2FS_INLINE_DATA) &&
	     inode->i_size > f2fs_max_inline_data(inode))) {
		f2fs_err(sbi, "inode %lu: invalid size %lld", inode->i_ino,
			 inode->i_size);
		return -EFSCORRUPTED;
	}
	set_inode_flags(inode, flags);
	if (!(fi->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
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
		break;
	}
}

/**
 * f2fs_iget - get the in-memory inode for an inode number.
 * @sb: the superblock.
 * @ino: inode number (a nid).
 *
 * Return: the inode, or ERR_PTR(-EFSCORRUPTED) when the inode block fails
 * validation, ERR_PTR(-EOPNOTSUPP) for a format feature we cannot read,
 * ERR_PTR(-EIO) or ERR_PTR(-ENOMEM).
 */
struct inode *f2fs_iget(struct super_block *sb, unsigned long ino)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);
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

	page = f2fs_get_node_page(sbi, ino, ino, 0);
	if (IS_ERR(page)) {
		err = PTR_ERR(page);
		goto bad_inode;
	}
	err = read_raw_inode(inode, &((struct f2fs_node *)page_address(page))->i);
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
