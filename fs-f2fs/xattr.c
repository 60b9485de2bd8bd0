// SPDX-License-Identifier: GPL-2.0
/*
 * xattr.c - extended attributes: user, trusted, security and the POSIX
 * ACL names, stored as the stock module stores them (format in xattr.h).
 *
 * An inode's attributes are one list spread over two places: its inline
 * xattr area (inodes created with the inline_xattr option, the default,
 * or by a stock module that used it) and its xattr node (i_xattr_nid), a
 * node block allocated the first time the list no longer fits inline.
 *
 * Every operation works on a private copy of the whole list:
 *
 *   read:  the inline area and the node's payload are copied, one after
 *          the other, into a zeroed buffer a word longer than the room (so
 *          that a list filling the room still ends in a zero word), and
 *          the entries are walked once to validate them: an entry that
 *          runs past the room is corruption, reported once and answered
 *          with -EFSCORRUPTED;
 *   change: the entry is removed (the entries after it move down) and/or
 *          appended at the end, in the copy;
 *   write: the copy goes back to the inline area and to the node; a list
 *          that outgrows the inline area gets its xattr node here, under
 *          the same f2fs_lock_op() as the change, so a checkpoint sees the
 *          inode, its i_xattr_nid and the node together.
 *
 * Locking: fi->i_xattr_sem orders readers and writers of one inode's
 * list (writers also hold the inode's i_rwsem through the VFS, and
 * sbi->cp_rwsem shared); it nests inside cp_rwsem and outside node page
 * locks (the inode page is locked before the xattr node).  Writers call
 * f2fs_balance_fs() before taking cp_rwsem.
 *
 * The xattr node is an ordinary direct node to the rest of the module:
 * charged as a node (and to i_blocks), written with the file's other
 * direct nodes by fsync, moved by the cleaner like any node, and freed
 * with the inode.  Roll-forward recovery replays a recorded copy of it
 * through f2fs_recover_xattr_node(), and the recorded inline area through
 * f2fs_recover_inline_xattrs().
 */
#include <linux/slab.h>
#include <linux/security.h>
#include <linux/posix_acl_xattr.h>
#include <linux/sched/mm.h>
#include "f2fs.h"
#include "xattr.h"

/* Zero bytes kept past the room, so that a full list still ends. */
#define XATTR_PAD	sizeof(__le32)

/* Longest name within a namespace (e_name_len is one byte). */
#define XATTR_NAME_MAX_LEN	255

/**
 * struct xattr_list - a private copy of an inode's attribute list.
 * @buf: the list, @room + XATTR_PAD bytes, zero past @used.
 * @room: bytes of the inline area plus the xattr node's payload.
 * @used: bytes of the header and the entries, up to the end word.
 */
struct xattr_list {
	void *buf;
	unsigned int room;
	unsigned int used;
};

static unsigned int inline_bytes(struct inode *inode)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);

	if (!(fi->i_inline & F2FS_INLINE_XATTR))
		return 0;
	return fi->i_inline_xattr_addrs * sizeof(__le32);
}

static void *inline_area(struct inode *inode, struct f2fs_node *rn)
{
	return &rn->i.i_addr[DEF_ADDRS_PER_INODE -
			     F2FS_I(inode)->i_inline_xattr_addrs];
}

static struct f2fs_xattr_entry *first_entry(void *buf)
{
	return buf + sizeof(struct f2fs_xattr_header);
}

static unsigned int entry_bytes(const struct f2fs_xattr_entry *e)
{
	return F2FS_XATTR_ENTRY_BYTES(e->e_name_len,
				      le16_to_cpu(e->e_value_size));
}

static struct f2fs_xattr_entry *next_entry(struct f2fs_xattr_entry *e)
{
	return (void *)e + entry_bytes(e);
}

static bool is_end(const struct f2fs_xattr_entry *e)
{
	return !*(const u32 *)e;
}

/* Largest value one attribute can have in @inode's room. */
static size_t max_value_size(struct inode *inode)
{
	return inline_bytes(inode) + F2FS_XATTR_BLOCK_BYTES -
	       sizeof(struct f2fs_xattr_header) -
	       sizeof(struct f2fs_xattr_entry);
}

/*
 * Copy @inode's list into @l and validate it.  Called with i_xattr_sem
 * held.  Returns 0, -ENOMEM, or the node read errors; -EFSCORRUPTED for a
 * list that runs past its room or has a bad header (reported once, on
 * the inode's page).
 */
static int read_list(struct inode *inode, struct xattr_list *l)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	u32 xnid = F2FS_I(inode)->i_xattr_nid;
	unsigned int inl = inline_bytes(inode);
	struct f2fs_xattr_header *h;
	struct f2fs_xattr_entry *e;
	struct page *ipage, *xpage;
	void *end;
	int err = 0;

	l->room = inl + F2FS_XATTR_BLOCK_BYTES;
	l->buf = kzalloc(l->room + XATTR_PAD, GFP_NOFS);
	if (!l->buf)
		return -ENOMEM;
	ipage = f2fs_get_node_page(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage)) {
		err = PTR_ERR(ipage);
		goto free_buf;
	}
	if (inl)
		memcpy(l->buf, inline_area(inode, page_address(ipage)), inl);
	if (xnid) {
		xpage = f2fs_get_node_page(sbi, xnid, inode->i_ino,
					   F2FS_XATTR_NODE_OFS);
		if (IS_ERR(xpage)) {
			err = PTR_ERR(xpage);
			goto put_ipage;
		}
		memcpy(l->buf + inl, page_address(xpage),
		       F2FS_XATTR_BLOCK_BYTES);
		put_page(xpage);
	}

	h = l->buf;
	if (!h->h_magic && !h->h_refcount) {
		/* Never had an attribute: start the list. */
		h->h_magic = cpu_to_le32(F2FS_XATTR_MAGIC);
		h->h_refcount = cpu_to_le32(1);
	} else if (le32_to_cpu(h->h_magic) != F2FS_XATTR_MAGIC) {
		f2fs_err_page(sbi, ipage, "inode %lu: bad xattr magic 0x%x",
			      inode->i_ino, le32_to_cpu(h->h_magic));
		err = -EFSCORRUPTED;
		goto put_ipage;
	}
	end = l->buf + l->room;
	for (e = first_entry(l->buf); (void *)e < end && !is_end(e);
	     e = next_entry(e)) {
		if ((void *)next_entry(e) > end) {
			f2fs_err_page(sbi, ipage, "inode %lu: xattr entry at byte %ld runs past the xattr space",
				      inode->i_ino, (long)((void *)e - l->buf));
			err = -EFSCORRUPTED;
			goto put_ipage;
		}
	}
	l->used = (void *)e - l->buf;
	put_page(ipage);
	return 0;

put_ipage:
	put_page(ipage);
free_buf:
	kfree(l->buf);
	l->buf = NULL;
	return err;
}

static struct f2fs_xattr_entry *find_entry(struct xattr_list *l, int index,
					   const char *name, size_t len)
{
	struct f2fs_xattr_entry *e;
	void *end = l->buf + l->used;

	for (e = first_entry(l->buf); (void *)e < end; e = next_entry(e)) {
		if (e->e_name_index == index && e->e_name_len == len &&
		    !memcmp(e->e_name, name, len))
			return e;
	}
	return NULL;
}

/*
 * The locked xattr node of @inode for a rewrite, allocated (and recorded
 * in the locked inode page @ipage and in the inode) when the inode has
 * none.  Called under cp_rwsem shared.  Returns the page or an ERR_PTR.
 */
static struct page *xattr_page_for_write(struct inode *inode,
					 struct page *ipage)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct page *xpage;
	u32 nid;
	int err;

	if (fi->i_xattr_nid)
		return f2fs_get_locked_node(sbi, fi->i_xattr_nid, inode->i_ino,
					    F2FS_XATTR_NODE_OFS);
	err = f2fs_alloc_nid(sbi, inode->i_ino, &nid);
	if (err)
		return ERR_PTR(err);
	xpage = f2fs_new_node_page(inode, nid, F2FS_XATTR_NODE_OFS);
	if (IS_ERR(xpage)) {
		f2fs_alloc_nid_failed(sbi, nid);
		return xpage;
	}
	fi->i_xattr_nid = nid;
	((struct f2fs_node *)page_address(ipage))->i.i_xattr_nid =
		cpu_to_le32(nid);
	set_page_dirty(ipage);
	f2fs_mark_meta_dirty(inode);
	return xpage;
}

/*
 * Write @l back: the inline part into the inode page, the rest into the
 * xattr node, which is allocated when the list no longer fits inline.
 * Called with i_xattr_sem held for writing and cp_rwsem shared.
 */
static int write_list(struct inode *inode, struct xattr_list *l)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	unsigned int inl = inline_bytes(inode);
	bool need_node = F2FS_I(inode)->i_xattr_nid ||
			 l->used + XATTR_PAD > inl;
	struct page *ipage, *xpage = NULL;

	ipage = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	if (need_node) {
		xpage = xattr_page_for_write(inode, ipage);
		if (IS_ERR(xpage)) {
			unlock_page(ipage);
			put_page(ipage);
			return PTR_ERR(xpage);
		}
	}
	if (inl) {
		memcpy(inline_area(inode, page_address(ipage)), l->buf, inl);
		set_page_dirty(ipage);
	}
	if (xpage) {
		memcpy(page_address(xpage), l->buf + inl,
		       F2FS_XATTR_BLOCK_BYTES);
		set_page_dirty(xpage);
		unlock_page(xpage);
		put_page(xpage);
	}
	unlock_page(ipage);
	put_page(ipage);
	return 0;
}

/**
 * f2fs_getxattr - read one attribute.
 * @inode: the inode.
 * @index: namespace, F2FS_XATTR_INDEX_*.
 * @name: name within the namespace.
 * @buf: where the value goes, or NULL to learn its size.
 * @size: bytes of @buf.
 *
 * Return: the value's size; -ENODATA when there is no such attribute;
 * -ERANGE when @buf is too small or the name too long; -ENOMEM; or the
 * errors of reading the list (-EIO, -EFSCORRUPTED).
 */
int f2fs_getxattr(struct inode *inode, int index, const char *name,
		  void *buf, size_t size)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	size_t len = strlen(name);
	struct f2fs_xattr_entry *e;
	struct xattr_list l;
	int err;

	if (len > XATTR_NAME_MAX_LEN)
		return -ERANGE;
	down_read(&fi->i_xattr_sem);
	err = read_list(inode, &l);
	up_read(&fi->i_xattr_sem);
	if (err)
		return err;
	e = find_entry(&l, index, name, len);
	if (!e) {
		err = -ENODATA;
	} else {
		err = le16_to_cpu(e->e_value_size);
		if (buf && err > size)
			err = -ERANGE;
		else if (buf)
			memcpy(buf, e->e_name + e->e_name_len, err);
	}
	kfree(l.buf);
	return err;
}

/**
 * f2fs_setxattr_locked - create, replace or remove one attribute, with
 * sbi->cp_rwsem held shared by the caller.
 * @inode: the inode.
 * @index: namespace, F2FS_XATTR_INDEX_*.
 * @name: name within the namespace.
 * @value: the new value, or NULL to remove the attribute.
 * @size: bytes of @value.
 * @flags: XATTR_CREATE (fail if it exists) or XATTR_REPLACE (fail if
 *	it does not), or 0.
 *
 * Return: 0; -EEXIST (XATTR_CREATE); -ENODATA (XATTR_REPLACE, or removing
 * an attribute that does not exist); -ERANGE for a name longer than 255
 * bytes; -E2BIG when the value cannot fit, or the inode's xattr space is
 * full; -ENOSPC when no node can be allocated for it; -ENOMEM; or the
 * errors of reading the list (-EIO, -EFSCORRUPTED).
 */
int f2fs_setxattr_locked(struct inode *inode, int index, const char *name,
			 const void *value, size_t size, int flags)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	size_t len = strlen(name);
	struct f2fs_xattr_entry *e;
	struct xattr_list l;
	unsigned int need, avail;
	int err;

	if (len > XATTR_NAME_MAX_LEN)
		return -ERANGE;
	if (value && size > max_value_size(inode))
		return -E2BIG;
	down_write(&fi->i_xattr_sem);
	err = read_list(inode, &l);
	if (err)
		goto unlock;
	e = find_entry(&l, index, name, len);
	if (e && (flags & XATTR_CREATE)) {
		err = -EEXIST;
		goto free_list;
	}
	if (!e && ((flags & XATTR_REPLACE) || !value)) {
		err = -ENODATA;
		goto free_list;
	}
	/* The same value again changes nothing (as stock: not even ctime). */
	if (e && value && le16_to_cpu(e->e_value_size) == size &&
	    !memcmp(e->e_name + len, value, size))
		goto free_list;
	if (value) {
		/* As stock: the list may fill the room; the end is implied. */
		need = F2FS_XATTR_ENTRY_BYTES(len, size);
		avail = l.room - l.used + (e ? entry_bytes(e) : 0);
		if (need > avail) {
			err = -E2BIG;
			goto free_list;
		}
	}
	if (e) {
		unsigned int gone = entry_bytes(e);
		void *rest = (void *)e + gone;

		memmove(e, rest, l.buf + l.used - rest);
		l.used -= gone;
		memset(l.buf + l.used, 0, gone);
	}
	if (value) {
		e = l.buf + l.used;
		e->e_name_index = index;
		e->e_name_len = len;
		e->e_value_size = cpu_to_le16(size);
		memcpy(e->e_name, name, len);
		memcpy(e->e_name + len, value, size);
		l.used += need;
	}
	err = write_list(inode, &l);
	if (!err) {
		inode->i_ctime = current_time(inode);
		f2fs_mark_meta_dirty(inode);
	}
free_list:
	kfree(l.buf);
unlock:
	up_write(&fi->i_xattr_sem);
	return err;
}

/**
 * f2fs_setxattr - f2fs_setxattr_locked() for a caller without cp_rwsem.
 * @inode: the inode.
 * @index: namespace, F2FS_XATTR_INDEX_*.
 * @name: name within the namespace.
 * @value: the new value, or NULL to remove the attribute.
 * @size: bytes of @value.
 * @flags: XATTR_CREATE, XATTR_REPLACE or 0.
 *
 * Makes room first (f2fs_balance_fs()), as every writer does.
 *
 * Return: as f2fs_setxattr_locked(); -ENOSPC also when no room can be
 * made.
 */
int f2fs_setxattr(struct inode *inode, int index, const char *name,
		  const void *value, size_t size, int flags)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	int err;

	err = f2fs_balance_fs(sbi);
	if (err)
		return err;
	f2fs_lock_op(sbi);
	err = f2fs_setxattr_locked(inode, index, name, value, size, flags);
	f2fs_unlock_op(sbi);
	return err;
}

static int xattr_get(const struct xattr_handler *handler,
		     struct dentry *unused, struct inode *inode,
		     const char *name, void *buf, size_t size)
{
	if (handler->flags == F2FS_XATTR_INDEX_USER &&
	    !f2fs_opt(F2FS_I_SB(inode), F2FS_OPT_USER_XATTR))
		return -EOPNOTSUPP;
	return f2fs_getxattr(inode, handler->flags, name, buf, size);
}

static int xattr_set(const struct xattr_handler *handler,
		     struct user_namespace *mnt_userns, struct dentry *unused,
		     struct inode *inode, const char *name, const void *value,
		     size_t size, int flags)
{
	if (handler->flags == F2FS_XATTR_INDEX_USER &&
	    !f2fs_opt(F2FS_I_SB(inode), F2FS_OPT_USER_XATTR))
		return -EOPNOTSUPP;
	return f2fs_setxattr(inode, handler->flags, name, value, size, flags);
}

static bool user_list(struct dentry *dentry)
{
	return f2fs_opt(F2FS_SB(dentry->d_sb), F2FS_OPT_USER_XATTR);
}

static bool trusted_list(struct dentry *dentry)
{
	return capable(CAP_SYS_ADMIN);
}

static const struct xattr_handler user_handler = {
	.prefix	= XATTR_USER_PREFIX,
	.flags	= F2FS_XATTR_INDEX_USER,
	.list	= user_list,
	.get	= xattr_get,
	.set	= xattr_set,
};

static const struct xattr_handler trusted_handler = {
	.prefix	= XATTR_TRUSTED_PREFIX,
	.flags	= F2FS_XATTR_INDEX_TRUSTED,
	.list	= trusted_list,
	.get	= xattr_get,
	.set	= xattr_set,
};

static const struct xattr_handler security_handler = {
	.flags	= F2FS_XATTR_INDEX_SECURITY,
	.prefix	= XATTR_SECURITY_PREFIX,
	.set	= xattr_set,
	.get	= xattr_get,
};

/* The VFS's handlers serve system.posix_acl_* through our get/set_acl. */
const struct xattr_handler *f2fs_xattr_handlers[] = {
	&posix_acl_access_xattr_handler,	/* system.posix_acl_access */
	&posix_acl_default_xattr_handler,
	&user_handler,
	&security_handler,
	&trusted_handler,
	NULL,
};

static const struct xattr_handler *handler_of(int index)
{
	switch (index) {
	case F2FS_XATTR_INDEX_USER:
		return &user_handler;
	case F2FS_XATTR_INDEX_TRUSTED:
		return &trusted_handler;
	case F2FS_XATTR_INDEX_SECURITY:
		return &security_handler;
	case F2FS_XATTR_INDEX_POSIX_ACL_ACCESS:
		return &posix_acl_access_xattr_handler;
	case F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT:
		return &posix_acl_default_xattr_handler;
	}
	return NULL;	/* namespaces this module does not serve */
}

/**
 * f2fs_listxattr - inode_operations.listxattr: the names the caller may
 *	see, each with its namespace prefix and a terminating NUL.
 * @dentry: the object.
 * @buf: where the names go, or NULL to learn the size.
 * @size: bytes of @buf.
 *
 * Return: bytes of the names; -ERANGE when @buf is too small; -ENOMEM;
 * or the errors of reading the list (-EIO, -EFSCORRUPTED).
 */
ssize_t f2fs_listxattr(struct dentry *dentry, char *buf, size_t size)
{
	struct inode *inode = d_inode(dentry);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	const struct xattr_handler *h;
	struct f2fs_xattr_entry *e;
	struct xattr_list l;
	size_t total = 0, n, plen;
	const char *prefix;
	int err;

	down_read(&fi->i_xattr_sem);
	err = read_list(inode, &l);
	up_read(&fi->i_xattr_sem);
	if (err)
		return err;
	for (e = first_entry(l.buf); (void *)e < l.buf + l.used;
	     e = next_entry(e)) {
		h = handler_of(e->e_name_index);
		if (!h || (h->list && !h->list(dentry)))
			continue;
		prefix = xattr_prefix(h);
		plen = strlen(prefix);
		n = plen + e->e_name_len + 1;
		if (buf) {
			if (total + n > size) {
				total = -ERANGE;
				break;
			}
			memcpy(buf + total, prefix, plen);
			memcpy(buf + total + plen, e->e_name, e->e_name_len);
			buf[total + n - 1] = '\0';
		}
		total += n;
	}
	kfree(l.buf);
	return total;
}

static int init_security_xattrs(struct inode *inode,
				const struct xattr *xattrs, void *unused)
{
	const struct xattr *x;
	int err = 0;

	for (x = xattrs; x->name && !err; x++)
		err = f2fs_setxattr_locked(inode, F2FS_XATTR_INDEX_SECURITY,
					   x->name, x->value, x->value_len,
					   XATTR_CREATE);
	return err;
}

/**
 * f2fs_init_inode_xattrs - give a new inode its ACLs and security label.
 * @inode: the new inode, whose node block exists.
 * @dir: its parent.
 * @name: its name (for the LSM).
 *
 * Inherits @dir's default ACL (or applies the umask: with the acl option
 * the VFS leaves that to us), then asks the LSMs for a label.  Called
 * with sbi->cp_rwsem held shared; on error the caller drops the inode.
 *
 * Return: 0, or the errors of f2fs_setxattr_locked() and of the LSMs.
 */
int f2fs_init_inode_xattrs(struct inode *inode, struct inode *dir,
			   const struct qstr *name)
{
	unsigned int nofs;
	int err;

	/*
	 * The VFS helpers allocate with GFP_KERNEL (posix_acl_create()
	 * clones the default ACL so): under cp_rwsem, reclaim must not
	 * enter the filesystem (see set_inode_ops() in inode.c).
	 */
	nofs = memalloc_nofs_save();
	err = f2fs_init_acl(inode, dir);
	if (!err)
		err = security_inode_init_security(inode, dir, name,
						   init_security_xattrs, NULL);
	memalloc_nofs_restore(nofs);
	return err;
}

/**
 * f2fs_recover_xattr_node - replay an xattr node from an fsync record.
 * @inode: the recovered inode (roll-forward, cp_rwsem held shared).
 * @rn: the recorded xattr node.
 *
 * The recorded list replaces the inode's xattr node, which is allocated
 * when the checkpoint's inode has none (the record's nid is not reused:
 * the checkpoint never saw it).
 *
 * Return: 0, -ENOSPC, -ENOMEM, or a node read error.
 */
int f2fs_recover_xattr_node(struct inode *inode, const struct f2fs_node *rn)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	struct page *ipage, *xpage;

	down_write(&fi->i_xattr_sem);
	ipage = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(ipage)) {
		up_write(&fi->i_xattr_sem);
		return PTR_ERR(ipage);
	}
	xpage = xattr_page_for_write(inode, ipage);
	if (!IS_ERR(xpage)) {
		memcpy(page_address(xpage), rn, F2FS_XATTR_BLOCK_BYTES);
		set_page_dirty(xpage);
		unlock_page(xpage);
		put_page(xpage);
	}
	unlock_page(ipage);
	put_page(ipage);
	up_write(&fi->i_xattr_sem);
	return PTR_ERR_OR_ZERO(xpage);
}

/**
 * f2fs_recover_inline_xattrs - replay the inline xattr area of an fsync
 *	record into the inode's page.
 * @inode: the recovered inode.
 * @dst: its inode block (locked by the caller).
 * @src: the recorded inode block.
 *
 * Nothing is copied unless both have an inline area of the same size.
 */
void f2fs_recover_inline_xattrs(struct inode *inode, struct f2fs_node *dst,
				const struct f2fs_node *src)
{
	unsigned int inl = inline_bytes(inode);

	if (!inl || !(src->i.i_inline & F2FS_INLINE_XATTR) ||
	    (src->i.i_inline & F2FS_EXTRA_ATTR) !=
	    (dst->i.i_inline & F2FS_EXTRA_ATTR))
		return;
	memcpy(inline_area(inode, dst),
	       inline_area(inode, (struct f2fs_node *)src), inl);
}
