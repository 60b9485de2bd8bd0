/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xattr.h - on-disk format of extended attributes and POSIX ACLs.
 *
 * The format is the one the stock f2fs module writes, so that images move
 * between the two in both directions:
 *
 *   - An inode's xattrs form one list that starts in the inode's inline
 *     xattr area (the last i_inline_xattr_addrs words of i_addr[], when
 *     F2FS_INLINE_XATTR is set) and carries on, as if the two were one
 *     buffer, into the xattr node (i_xattr_nid), a node block whose first
 *     F2FS_XATTR_BLOCK_BYTES bytes (all but the node footer) hold the rest.
 *     The xattr node's footer offset is F2FS_XATTR_NODE_OFS.
 *   - The list begins with struct f2fs_xattr_header (magic 0xF2F52011,
 *     refcount 1), followed by entries of struct f2fs_xattr_entry: the
 *     name index (the namespace, F2FS_XATTR_INDEX_*), the name length,
 *     the value size, then the name without its namespace prefix and the
 *     value right after it; each entry is padded to 4 bytes.  A zero
 *     32-bit word, or the end of the space, ends the list.
 *   - A POSIX ACL is the value of an entry of index 2 (access) or 3
 *     (default) with an empty name: struct f2fs_acl_header (version 1),
 *     then one entry per ACL entry, short (tag and permissions) for
 *     ACL_USER_OBJ, ACL_GROUP_OBJ, ACL_MASK and ACL_OTHER, long (with the
 *     uid or gid) for ACL_USER and ACL_GROUP.
 *
 * Everything on disk is little-endian.
 */
#ifndef _F2FS_XATTR_H
#define _F2FS_XATTR_H

#include <linux/posix_acl.h>
#include <linux/xattr.h>

/* h_magic of every xattr list */
#define F2FS_XATTR_MAGIC		0xF2F52011

/*
 * Namespaces (e_name_index), the numbers of the on-disk format: an entry
 * keeps its name without the prefix, the index says which prefix.
 */
enum {
	F2FS_XATTR_INDEX_USER = 1,		/* "user." */
	F2FS_XATTR_INDEX_POSIX_ACL_ACCESS,	/* system.posix_acl_access */
	F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT,	/* system.posix_acl_default */
	F2FS_XATTR_INDEX_TRUSTED,		/* "trusted." */
	F2FS_XATTR_INDEX_SECURITY = 6,		/* "security." (5 is unused) */
};

/**
 * struct f2fs_xattr_header - start of an inode's xattr list.
 * @h_magic: F2FS_XATTR_MAGIC.
 * @h_refcount: 1 (xattr lists are never shared).
 * @h_reserved: zero.
 */
struct f2fs_xattr_header {
	__le32 h_magic;
	__le32 h_refcount;
	__u32 h_reserved[4];
};

/**
 * struct f2fs_xattr_entry - one attribute of the list.
 * @e_name_index: namespace, F2FS_XATTR_INDEX_*.
 * @e_name_len: bytes of @e_name.
 * @e_value_size: bytes of the value, which follows the name.
 * @e_name: the name within the namespace (not NUL-terminated).
 */
struct f2fs_xattr_entry {
	__u8 e_name_index;
	__u8 e_name_len;
	__le16 e_value_size;
	char e_name[];
};

/* Entries are padded to this many bytes. */
#define F2FS_XATTR_ALIGN(len)	ALIGN(len, 4)

/* Bytes an entry with a @nlen-byte name and a @vlen-byte value takes. */
#define F2FS_XATTR_ENTRY_BYTES(nlen, vlen)				\
	F2FS_XATTR_ALIGN(sizeof(struct f2fs_xattr_entry) + (nlen) + (vlen))

/* Bytes of the xattr node that hold the list (all but the footer). */
#define F2FS_XATTR_BLOCK_BYTES	(PAGE_SIZE - sizeof(struct node_footer))

/* Footer offset of an xattr node: every offset bit set. */
#define F2FS_XATTR_NODE_OFS	(U32_MAX >> OFFSET_BIT_SHIFT)

#define F2FS_ACL_VERSION	1

/**
 * struct f2fs_acl_header - start of an ACL value.
 * @a_version: F2FS_ACL_VERSION.
 */
struct f2fs_acl_header {
	__le32 a_version;
};

/**
 * struct f2fs_acl_entry - ACL_USER or ACL_GROUP entry.
 * @e_tag: ACL_* tag.
 * @e_perm: permission bits.
 * @e_id: uid or gid.
 */
struct f2fs_acl_entry {
	__le16 e_tag;
	__le16 e_perm;
	__le32 e_id;
};

/**
 * struct f2fs_acl_entry_short - entry without an id (owner, group, mask,
 *	other).
 * @e_tag: ACL_* tag.
 * @e_perm: permission bits.
 */
struct f2fs_acl_entry_short {
	__le16 e_tag;
	__le16 e_perm;
};

struct f2fs_sb_info;

/* xattr.c */
extern const struct xattr_handler *f2fs_xattr_handlers[];
int f2fs_getxattr(struct inode *inode, int index, const char *name,
		  void *buf, size_t size);
int f2fs_setxattr(struct inode *inode, int index, const char *name,
		  const void *value, size_t size, int flags);
int f2fs_setxattr_locked(struct inode *inode, int index, const char *name,
			 const void *value, size_t size, int flags);
ssize_t f2fs_listxattr(struct dentry *dentry, char *buf, size_t size);
int f2fs_init_inode_xattrs(struct inode *inode, struct inode *dir,
			   const struct qstr *name);
int f2fs_recover_xattr_node(struct inode *inode, const struct f2fs_node *rn);
void f2fs_recover_inline_xattrs(struct inode *inode, struct f2fs_node *dst,
				const struct f2fs_node *src);

/* acl.c */
struct posix_acl *f2fs_get_acl(struct inode *inode, int type, bool rcu);
int f2fs_set_acl(struct user_namespace *mnt_userns, struct inode *inode,
		 struct posix_acl *acl, int type);
int f2fs_init_acl(struct inode *inode, struct inode *dir);

#endif /* _F2FS_XATTR_H */
