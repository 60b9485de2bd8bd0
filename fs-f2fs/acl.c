// SPDX-License-Identifier: GPL-2.0
/*
 * acl.c - POSIX ACLs, kept as xattrs in the stock module's format.
 *
 * The VFS does the ACL work (permission checks through get_acl(), the
 * system.posix_acl_* xattr names, inheritance in posix_acl_create(), mode
 * changes in posix_acl_chmod()); this file only moves ACLs between their
 * in-memory form and their on-disk value (struct f2fs_acl_header, then
 * short entries for the owner, group, mask and other, long ones with an
 * id for named users and groups, see xattr.h), stored in the access
 * (index 2) or default (index 3) namespace under an empty name.
 *
 * Ids are stored as seen from the initial user namespace.  Setting an
 * access ACL also sets the mode bits it implies (and drops an ACL the
 * mode alone expresses), under the same f2fs_lock_op() as the xattr.
 */
#include <linux/slab.h>
#include "f2fs.h"
#include "xattr.h"

static bool acl_tag_long(u16 tag)
{
	return tag == ACL_USER || tag == ACL_GROUP;
}

/* Decode an on-disk ACL value; ERR_PTR(-EINVAL) when it is malformed. */
static struct posix_acl *acl_from_disk(const void *value, size_t size)
{
	const void *p = value + sizeof(struct f2fs_acl_header);
	const void *end = value + size;
	const struct f2fs_acl_header *h = value;
	struct posix_acl_entry *pa;
	struct posix_acl *acl;
	unsigned int count = 0;
	u16 tag;

	if (size < sizeof(*h) || le32_to_cpu(h->a_version) != F2FS_ACL_VERSION)
		return ERR_PTR(-EINVAL);
	while (p + sizeof(struct f2fs_acl_entry_short) <= end) {
		tag = le16_to_cpu(((const struct f2fs_acl_entry_short *)p)->e_tag);
		p += acl_tag_long(tag) ? sizeof(struct f2fs_acl_entry) :
					 sizeof(struct f2fs_acl_entry_short);
		count++;
	}
	if (p != end)
		return ERR_PTR(-EINVAL);
	if (!count)
		return NULL;
	acl = posix_acl_alloc(count, GFP_NOFS);
	if (!acl)
		return ERR_PTR(-ENOMEM);
	p = value + sizeof(*h);
	for (pa = acl->a_entries; pa < acl->a_entries + count; pa++) {
		const struct f2fs_acl_entry *e = p;

		pa->e_tag = le16_to_cpu(e->e_tag);
		pa->e_perm = le16_to_cpu(e->e_perm);
		switch (pa->e_tag) {
		case ACL_USER_OBJ:
		case ACL_GROUP_OBJ:
		case ACL_MASK:
		case ACL_OTHER:
			p += sizeof(struct f2fs_acl_entry_short);
			break;
		case ACL_USER:
			pa->e_uid = make_kuid(&init_user_ns,
					      le32_to_cpu(e->e_id));
			p += sizeof(*e);
			break;
		case ACL_GROUP:
			pa->e_gid = make_kgid(&init_user_ns,
					      le32_to_cpu(e->e_id));
			p += sizeof(*e);
			break;
		default:
			posix_acl_release(acl);
			return ERR_PTR(-EINVAL);
		}
	}
	return acl;
}

/* Encode @acl; the value is returned (kfree it) with its size in @size. */
static void *acl_to_disk(const struct posix_acl *acl, size_t *size)
{
	const struct posix_acl_entry *pa, *pa_end;
	struct f2fs_acl_header *h;
	void *value, *p;

	value = kmalloc(sizeof(*h) + acl->a_count * sizeof(struct f2fs_acl_entry),
			GFP_NOFS);
	if (!value)
		return ERR_PTR(-ENOMEM);
	h = value;
	h->a_version = cpu_to_le32(F2FS_ACL_VERSION);
	p = value + sizeof(*h);
	FOREACH_ACL_ENTRY(pa, acl, pa_end) {
		struct f2fs_acl_entry *e = p;

		e->e_tag = cpu_to_le16(pa->e_tag);
		e->e_perm = cpu_to_le16(pa->e_perm);
		switch (pa->e_tag) {
		case ACL_USER:
			e->e_id = cpu_to_le32(from_kuid(&init_user_ns,
							pa->e_uid));
			p += sizeof(*e);
			break;
		case ACL_GROUP:
			e->e_id = cpu_to_le32(from_kgid(&init_user_ns,
							pa->e_gid));
			p += sizeof(*e);
			break;
		case ACL_USER_OBJ:
		case ACL_GROUP_OBJ:
		case ACL_MASK:
		case ACL_OTHER:
			p += sizeof(struct f2fs_acl_entry_short);
			break;
		default:
			kfree(value);
			return ERR_PTR(-EINVAL);
		}
	}
	*size = p - value;
	return value;
}

static int acl_index(int type)
{
	return type == ACL_TYPE_ACCESS ? F2FS_XATTR_INDEX_POSIX_ACL_ACCESS :
					 F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT;
}

/**
 * f2fs_get_acl - inode_operations.get_acl: read an ACL from its xattr.
 * @inode: the inode.
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT.
 * @rcu: called in RCU walk mode (we may sleep, so we decline).
 *
 * Return: the ACL, NULL when there is none, ERR_PTR(-ECHILD) in RCU mode,
 * ERR_PTR(-EFSCORRUPTED) for a malformed value, or the errors of
 * f2fs_getxattr().
 */
struct posix_acl *f2fs_get_acl(struct inode *inode, int type, bool rcu)
{
	int index = acl_index(type);
	struct posix_acl *acl;
	void *value = NULL;
	int size;

	if (rcu)
		return ERR_PTR(-ECHILD);
	size = f2fs_getxattr(inode, index, "", NULL, 0);
	if (size > 0) {
		value = kmalloc(size, GFP_NOFS);
		if (!value)
			return ERR_PTR(-ENOMEM);
		size = f2fs_getxattr(inode, index, "", value, size);
	}
	if (size > 0) {
		acl = acl_from_disk(value, size);
		if (acl == ERR_PTR(-EINVAL)) {
			f2fs_err(F2FS_I_SB(inode), "inode %lu: malformed ACL",
				 inode->i_ino);
			acl = ERR_PTR(-EFSCORRUPTED);
		}
	} else if (size == -ENODATA || !size) {
		acl = NULL;
	} else {
		acl = ERR_PTR(size);
	}
	kfree(value);
	return acl;
}

/*
 * Store @acl (NULL removes it) with cp_rwsem held shared.  With
 * @update_mode, an access ACL also sets the mode it implies, and one the
 * mode expresses alone is not stored.
 */
static int set_acl_locked(struct user_namespace *mnt_userns,
			  struct inode *inode, struct posix_acl *acl, int type,
			  bool update_mode)
{
	umode_t mode = inode->i_mode;
	void *value = NULL;
	size_t size = 0;
	int err;

	if (type == ACL_TYPE_ACCESS && acl && update_mode) {
		err = posix_acl_update_mode(mnt_userns, inode, &mode, &acl);
		if (err)
			return err;
	}
	if (type == ACL_TYPE_DEFAULT && !S_ISDIR(inode->i_mode))
		return acl ? -EACCES : 0;
	if (acl) {
		value = acl_to_disk(acl, &size);
		if (IS_ERR(value))
			return PTR_ERR(value);
	}
	err = f2fs_setxattr_locked(inode, acl_index(type), "", value, size, 0);
	kfree(value);
	if (err == -ENODATA)
		err = 0;	/* removing an ACL that was not there */
	if (err)
		return err;
	if (mode != inode->i_mode) {
		inode->i_mode = mode;
		inode->i_ctime = current_time(inode);
		f2fs_mark_meta_dirty(inode);
	}
	set_cached_acl(inode, type, acl);	/* the VFS's copy, now current */
	return 0;
}

/**
 * f2fs_set_acl - inode_operations.set_acl: store an ACL (setfacl, chmod).
 * @mnt_userns: idmapping of the mount.
 * @inode: the inode.
 * @acl: the ACL, or NULL to remove it.
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT.
 *
 * Return: 0; -EACCES for a default ACL on a non-directory; the errors of
 * posix_acl_update_mode() (-EPERM) and of f2fs_setxattr() (-E2BIG,
 * -ENOSPC, -EIO, -EFSCORRUPTED, -ENOMEM).
 */
int f2fs_set_acl(struct user_namespace *mnt_userns, struct inode *inode,
		 struct posix_acl *acl, int type)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	int err;

	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	f2fs_lock_op(sbi);
	err = set_acl_locked(mnt_userns, inode, acl, type, true);
	f2fs_unlock_op(sbi);
	return err;
}

/**
 * f2fs_init_acl - inherit the parent's default ACL into a new inode.
 * @inode: the new inode (its mode is adjusted in place).
 * @dir: the parent.
 *
 * Called with cp_rwsem held shared.
 *
 * Return: 0, or the errors of posix_acl_create() and of storing the ACLs.
 */
int f2fs_init_acl(struct inode *inode, struct inode *dir)
{
	struct posix_acl *default_acl, *acl;
	int err;

	err = posix_acl_create(dir, &inode->i_mode, &default_acl, &acl);
	if (err)
		return err;
	if (default_acl) {
		err = set_acl_locked(&init_user_ns, inode, default_acl,
				     ACL_TYPE_DEFAULT, false);
		posix_acl_release(default_acl);
	}
	if (acl) {
		if (!err)
			err = set_acl_locked(&init_user_ns, inode, acl,
					     ACL_TYPE_ACCESS, false);
		posix_acl_release(acl);
	}
	return err;
}
