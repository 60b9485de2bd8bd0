// SPDX-License-Identifier: GPL-2.0
/*
 * recovery.c - roll-forward recovery of fsynced files.
 *
 * fsync does not write a checkpoint (file.c, node.c): it writes the file's
 * data, then its dirty direct nodes and its inode block to the warm node
 * log, the inode block last and marked with the fsync bit (and with the
 * dentry bit when the checkpoint does not have the inode yet).  When the
 * inode block on disk differs only in a size grown by whole blocks, the
 * inode block stays out and the last direct node carries the mark.  Every node
 * block records in its footer the checkpoint version it was written under
 * and the block its log hands out next, so the warm node log is a chain
 * that starts at the checkpoint's current block of that log.
 *
 * A read-write mount after a crash follows that chain:
 *
 *   1. walk: read blocks while their footer carries the checkpoint's
 *      version (a torn, stale or garbage block simply ends the chain),
 *      remembering each node and, per inode, the last fsync-marked one;
 *   2. inodes: every inode with a mark is brought to the state of its last
 *      inode block up to that mark - size, times, owner, mode - or, when
 *      the checkpoint lacks it, rebuilt from that block and linked into
 *      its parent under the name the inode keeps (the dentry mark);
 *   3. data: the direct nodes and inode blocks of those inodes, in chain
 *      order up to each inode's mark, are replayed address by address: a
 *      block written after the checkpoint is claimed in the SIT with a
 *      summary, charged, and the block it replaces freed; a block adopted
 *      from a node recorded after the inode's last inode block extends the
 *      size to cover it (as stock recovery does); blocks past the
 *      recovered size are truncated;
 *   4. the segments of the chain are held back from allocation, the logs
 *      the crashed mount wrote leave their segments (fsck wants nothing
 *      valid past a log's write pointer), and a checkpoint makes the
 *      result durable.  Until it is, writeback is held off (sbi->recovering)
 *      so that nothing overwrites the chain; a crash during recovery just
 *      replays the same chain again.
 *
 * Nodes after an inode's last mark, and inodes without a mark, are ignored:
 * only what fsync returned on is promised.  With -o disable_roll_forward
 * the chain is dropped by the same checkpoint, so it cannot come back.
 */
#include <linux/bio.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include "f2fs.h"
#include "xattr.h"
#include "../trace-events/f2fs.h"

/* One node block of the chain. */
struct chain_node {
	u32 blkaddr;
	u32 nid;
	u32 ino;
};

/* An inode with at least one fsync mark in the chain. */
struct fsync_inode {
	u32 last;		/* chain index of its last fsync-marked node */
	u32 icopy;		/* its last inode block up to @last, or U32_MAX */
	bool created;		/* rebuilt from @icopy: the checkpoint lacks it */
	struct inode *inode;	/* held from step 2 until after the checkpoint */
	struct inode *dir;	/* its parent, when step 2 linked it */
};

struct chain {
	struct chain_node *nodes;
	u32 count;
	u32 cap;
	struct xarray inodes;	/* ino -> struct fsync_inode */
	unsigned int nr_inodes;
	unsigned long data_blocks;	/* addresses adopted */
	unsigned long skipped;		/* addresses refused */
};

/**
 * f2fs_chain_ver - the version node footers carry under this checkpoint.
 * @sbi: the mount.
 *
 * The checkpoint version, with the pack's CRC in the upper half when the
 * checkpoint asks for it (CP_CRC_RECOVERY_FLAG, set by newer writers).
 *
 * Return: the value written to, and expected in, footer.cp_ver.
 */
u64 f2fs_chain_ver(struct f2fs_sb_info *sbi)
{
	u64 ver = sbi->cp_ver;

	if (f2fs_cp_flag(sbi, CP_CRC_RECOVERY_FLAG)) {
		u32 ofs = le32_to_cpu(sbi->ckpt->checksum_offset);

		ver |= (u64)le32_to_cpu(*(__le32 *)((u8 *)sbi->ckpt + ofs)) << 32;
	}
	return ver;
}

/**
 * f2fs_read_main_blocks - read consecutive blocks of the main area in one
 *	request, bypassing caches.
 * @sbi: the mount.
 * @blkaddr: the first block.
 * @pages: the caller's pages to read them into, one per block.
 * @count: how many, 1 to BIO_MAX_VECS.
 *
 * For mount-time scans (recovery, the node summaries of the current
 * segments): the block device's own cache is never used, since it may hold
 * copies older than what our writes (which bypass it) left on the device.
 *
 * Return: 0 or the error of the read.
 */
int f2fs_read_main_blocks(struct f2fs_sb_info *sbi, u32 blkaddr,
			  struct page **pages, unsigned int count)
{
	struct bio *bio;
	unsigned int i;
	int err;

	bio = bio_alloc(sbi->sb->s_bdev, count, REQ_OP_READ | REQ_META,
			GFP_NOFS);
	bio->bi_iter.bi_sector = (sector_t)blkaddr << (F2FS_BLKSIZE_BITS - 9);
	for (i = 0; i < count; i++)
		__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/**
 * f2fs_read_main_block - read one block of the main area, bypassing caches.
 * @sbi: the mount.
 * @blkaddr: the block.
 * @page: a page of the caller's to read it into.
 *
 * See f2fs_read_main_blocks().
 *
 * Return: 0 or the error of the read.
 */
int f2fs_read_main_block(struct f2fs_sb_info *sbi, u32 blkaddr,
			 struct page *page)
{
	return f2fs_read_main_blocks(sbi, blkaddr, &page, 1);
}

static void chain_free(struct chain *ch)
{
	struct fsync_inode *fi;
	unsigned long ino;

	xa_for_each(&ch->inodes, ino, fi) {
		if (fi->inode)
			iput(fi->inode);
		if (fi->dir)
			iput(fi->dir);
		kfree(fi);
	}
	xa_destroy(&ch->inodes);
	kvfree(ch->nodes);
}

static int chain_add(struct chain *ch, u32 blkaddr, const struct f2fs_node *rn)
{
	struct chain_node *cn;

	if (ch->count == ch->cap) {
		u32 cap = ch->cap ? ch->cap * 2 : 256;

		cn = kvmalloc_array(cap, sizeof(*cn), GFP_KERNEL);
		if (!cn)
			return -ENOMEM;
		if (ch->count)
			memcpy(cn, ch->nodes, ch->count * sizeof(*cn));
		kvfree(ch->nodes);
		ch->nodes = cn;
		ch->cap = cap;
	}
	cn = &ch->nodes[ch->count++];
	cn->blkaddr = blkaddr;
	cn->nid = le32_to_cpu(rn->footer.nid);
	cn->ino = le32_to_cpu(rn->footer.ino);
	return 0;
}

/* Remember that node @idx of the chain is an fsync mark of @ino. */
static int chain_mark(struct chain *ch, u32 ino, u32 idx)
{
	struct fsync_inode *fi = xa_load(&ch->inodes, ino);
	int err;

	if (!fi) {
		fi = kzalloc(sizeof(*fi), GFP_KERNEL);
		if (!fi)
			return -ENOMEM;
		fi->icopy = U32_MAX;
		err = xa_insert(&ch->inodes, ino, fi, GFP_KERNEL);
		if (err) {
			kfree(fi);
			return err;
		}
		ch->nr_inodes++;
	}
	fi->last = idx;
	return 0;
}

/*
 * Step 1: follow the warm node log from the checkpoint.  Only allocation
 * failures are errors; whatever ends the chain (a block of an older
 * version, a bad footer, a read error, an address outside the main area)
 * just ends it.
 */
static int walk_chain(struct f2fs_sb_info *sbi, struct chain *ch)
{
	struct f2fs_curseg *cs = &sbi->curseg[F2FS_LOG_WARM_NODE];
	u64 limit = (u64)sbi->main_segs << sbi->log_blocks_per_seg;
	u64 want = f2fs_chain_ver(sbi);
	u32 blk, nid, ino, i;
	struct f2fs_node *rn;
	struct page *page;
	int err = 0;

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	rn = page_address(page);
	blk = f2fs_seg_blkaddr(sbi, cs->segno) + cs->blkoff;
	while (f2fs_valid_main_addr(sbi, blk) && ch->count < limit) {
		if (f2fs_read_main_block(sbi, blk, page)) {
			f2fs_warn(sbi, "cannot read block %u of the fsync chain; recovery stops there",
				  blk);
			break;
		}
		if (le64_to_cpu(rn->footer.cp_ver) != want)
			break;
		nid = le32_to_cpu(rn->footer.nid);
		ino = le32_to_cpu(rn->footer.ino);
		if (nid < F2FS_RESERVED_NODE_NUM || nid >= sbi->nm.max_nid ||
		    ino < F2FS_RESERVED_NODE_NUM || ino >= sbi->nm.max_nid)
			break;
		/* Only an inode block sits at offset 0 of its own tree. */
		if (nid == ino ? f2fs_node_ofs(rn) : !f2fs_node_ofs(rn))
			break;
		err = chain_add(ch, blk, rn);
		if (err)
			break;
		if ((le32_to_cpu(rn->footer.flag) & BIT(FSYNC_BIT_SHIFT)) &&
		    f2fs_node_is_dnode(rn)) {
			err = chain_mark(ch, ino, ch->count - 1);
			if (err)
				break;
		}
		blk = le32_to_cpu(rn->footer.next_blkaddr);
	}
	__free_page(page);
	if (err)
		return err;
	/* Each inode's state is that of its last inode block up to its mark. */
	for (i = 0; i < ch->count; i++) {
		struct fsync_inode *fi;

		if (ch->nodes[i].nid != ch->nodes[i].ino)
			continue;
		fi = xa_load(&ch->inodes, ch->nodes[i].ino);
		if (fi && i <= fi->last)
			fi->icopy = i;
	}
	return 0;
}

/**
 * f2fs_roll_forward_pending - count the inodes fsynced after the checkpoint.
 * @sbi: the mount, with its checkpoint and logs loaded.
 * @inodes: set to the number of inodes a read-write mount would recover.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_roll_forward_pending(struct f2fs_sb_info *sbi, unsigned int *inodes)
{
	struct chain ch = {};
	int err = 0;

	*inodes = 0;
	xa_init(&ch.inodes);
	err = walk_chain(sbi, &ch);
	*inodes = ch.nr_inodes;
	chain_free(&ch);
	return err;
}

/* Is the inode block of a record one fsync of a regular file writes? */
static bool inode_copy_ok(struct f2fs_sb_info *sbi, const struct f2fs_inode *ri)
{
	u32 len = le32_to_cpu(ri->i_namelen), pino = le32_to_cpu(ri->i_pino);

	return S_ISREG(le16_to_cpu(ri->i_mode)) && le32_to_cpu(ri->i_links) &&
	       len && len <= F2FS_NAME_LEN && pino >= F2FS_RESERVED_NODE_NUM &&
	       pino < sbi->nm.max_nid &&
	       !(ri->i_inline & F2FS_INLINE_DENTRY) &&
	       le64_to_cpu(ri->i_size) <= sbi->sb->s_maxbytes;
}

/* Bring a cached inode to the attributes of its record. */
static int apply_inode_copy(struct inode *inode, const struct f2fs_node *src)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	const struct f2fs_inode *ri = &src->i;
	bool copy_inline = ri->i_inline & F2FS_INLINE_DATA;
	struct f2fs_node *rn;
	struct page *page;

	if (copy_inline && !f2fs_inline_data(inode))
		return -EFSCORRUPTED;	/* data never moves back inline */
	page = f2fs_get_locked_node(sbi, inode->i_ino, inode->i_ino, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	rn = page_address(page);
	/* The inline xattrs of the record (xattr.c). */
	f2fs_recover_inline_xattrs(inode, rn, src);
	set_page_dirty(page);
	if (f2fs_inline_data(inode)) {
		if (copy_inline) {
			memcpy(f2fs_inline_addr(inode, rn),
			       f2fs_inline_addr(inode, (struct f2fs_node *)src),
			       f2fs_max_inline_data(inode));
			fi->i_inline = (fi->i_inline & ~F2FS_DATA_EXIST) |
				       (ri->i_inline & F2FS_DATA_EXIST);
			rn->i.i_inline = fi->i_inline;
		} else {
			/* Converted since: the data block comes with the replay. */
			memset(f2fs_inline_addr(inode, rn), 0,
			       f2fs_max_inline_data(inode));
			fi->i_inline &= ~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
			rn->i.i_inline = fi->i_inline;
		}
	}
	unlock_page(page);
	put_page(page);
	inode->i_mode = (inode->i_mode & S_IFMT) |
			(le16_to_cpu(ri->i_mode) & ~S_IFMT);
	i_uid_write(inode, le32_to_cpu(ri->i_uid));
	i_gid_write(inode, le32_to_cpu(ri->i_gid));
	i_size_write(inode, le64_to_cpu(ri->i_size));
	f2fs_time_from_disk(&inode->i_atime, ri->i_atime, ri->i_atime_nsec);
	f2fs_time_from_disk(&inode->i_ctime, ri->i_ctime, ri->i_ctime_nsec);
	f2fs_time_from_disk(&inode->i_mtime, ri->i_mtime, ri->i_mtime_nsec);
	fi->i_advise = ri->i_advise;
	WRITE_ONCE(fi->i_flags, le32_to_cpu(ri->i_flags));
	f2fs_set_inode_flags(inode, fi->i_flags);
	f2fs_mark_meta_dirty(inode);
	return 0;
}

/*
 * Link a recovered inode into its parent under the name it keeps.  A name
 * that now names another file goes to the fsynced one: the other file's
 * link was made or kept by operations that were never made durable.
 *
 * The parent is returned in @dirp, referenced: until the superblock is
 * active, the last iput() evicts an inode at once, which would drop the
 * dentry page that writeback may not write during recovery.
 */
static int recover_dentry(struct f2fs_sb_info *sbi, struct inode *inode,
			  const struct f2fs_inode *ri, struct inode **dirp)
{
	struct qstr name = QSTR_INIT(ri->i_name, le32_to_cpu(ri->i_namelen));
	struct f2fs_dir_entry *de;
	struct inode *dir, *other;
	struct page *page;
	int err = 0;

	dir = f2fs_iget(sbi->sb, le32_to_cpu(ri->i_pino));
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	if (!S_ISDIR(dir->i_mode)) {
		err = -EFSCORRUPTED;
		goto put_dir;
	}
	de = f2fs_find_entry(dir, &name, &page);
	if (IS_ERR(de)) {
		err = PTR_ERR(de);
		goto put_dir;
	}
	if (de && le32_to_cpu(de->ino) == inode->i_ino) {
		put_page(page);
		goto put_dir;
	}
	if (de) {
		other = f2fs_iget(sbi->sb, le32_to_cpu(de->ino));
		if (IS_ERR(other) || S_ISDIR(other->i_mode)) {
			put_page(page);
			err = IS_ERR(other) ? PTR_ERR(other) : -EEXIST;
			if (!IS_ERR(other))
				iput(other);
			goto put_dir;
		}
		f2fs_lock_op(sbi);
		f2fs_delete_entry(dir, de, page);
		drop_nlink(other);
		other->i_ctime = current_time(other);
		if (!other->i_nlink)
			err = f2fs_add_orphan(sbi, other->i_ino);
		f2fs_mark_meta_dirty(other);
		f2fs_unlock_op(sbi);
		iput(other);	/* frees it when that was its last link */
		if (err)
			goto put_dir;
	}
	f2fs_lock_op(sbi);
	err = f2fs_add_link(dir, &name, inode);
	f2fs_unlock_op(sbi);
	if (!err) {
		*dirp = dir;
		return 0;
	}
put_dir:
	iput(dir);
	return err;
}

/*
 * Step 2a for one inode: rebuild it when the checkpoint lacks it.  All of
 * them are rebuilt before any is linked: linking may allocate nodes, and a
 * new nid must not be one that a later rebuilt inode needs.
 */
static int rebuild_inode(struct f2fs_sb_info *sbi, struct chain *ch, u32 ino,
			 struct fsync_inode *fi, struct page *page)
{
	struct f2fs_node *rn = page_address(page);
	struct f2fs_nat_cached ni;
	int err;

	if (fi->icopy == U32_MAX)
		return 0;
	err = f2fs_read_main_block(sbi, ch->nodes[fi->icopy].blkaddr, page);
	if (err)
		return err;
	if (!inode_copy_ok(sbi, &rn->i))
		return -EFSCORRUPTED;
	err = f2fs_get_node_info(sbi, ino, &ni);
	if (err || ni.blkaddr != NULL_ADDR)
		return err;
	if (le32_to_cpu(rn->i.i_links) != 1)
		return -EFSCORRUPTED;
	f2fs_lock_op(sbi);
	err = f2fs_recover_inode_page(sbi, rn);
	f2fs_unlock_op(sbi);
	if (!err)
		fi->created = true;
	return err;
}

/* Step 2b for one inode: its attributes, and its link when it is new. */
static int recover_inode(struct f2fs_sb_info *sbi, struct chain *ch, u32 ino,
			 struct fsync_inode *fi, struct page *page)
{
	struct f2fs_node *rn = page_address(page);
	struct inode *inode;
	int err;

	if (fi->icopy != U32_MAX) {
		err = f2fs_read_main_block(sbi, ch->nodes[fi->icopy].blkaddr, page);
		if (err)
			return err;
		if (!inode_copy_ok(sbi, &rn->i))
			return -EFSCORRUPTED;
	}
	inode = f2fs_iget(sbi->sb, ino);
	if (IS_ERR(inode)) {
		if (fi->created)
			f2fs_drop_recovered_inode(sbi, ino);
		return PTR_ERR(inode);
	}
	if (!S_ISREG(inode->i_mode)) {
		err = -EFSCORRUPTED;
		goto put_inode;
	}
	if (fi->icopy == U32_MAX) {
		/* Only direct nodes were recorded: the inode is unchanged. */
		fi->inode = inode;
		return 0;
	}
	err = fi->created ? 0 : apply_inode_copy(inode, rn);
	if (!err && (fi->created ||
		     (le32_to_cpu(rn->footer.flag) & BIT(DENT_BIT_SHIFT))))
		err = recover_dentry(sbi, inode, &rn->i, &fi->dir);
	if (!err) {
		fi->inode = inode;
		return 0;
	}
put_inode:
	if (fi->created)
		clear_nlink(inode);	/* eviction frees it again */
	iput(inode);
	return err;
}

/*
 * Step 3 for one record block: adopt each block address it holds.  With
 * @extend (a node recorded after the inode's last inode block), the size
 * grows over each block adopted past it, as stock recovery does: an fsync
 * that appended whole blocks past the inode's own addresses records only
 * the direct node (node.c).
 */
static int replay_node(struct f2fs_sb_info *sbi, struct chain *ch,
		       struct inode *inode, const struct f2fs_node *rn,
		       bool extend)
{
	const __le32 *addrs;
	unsigned int i, n;
	u64 start;
	int err;

	if (le32_to_cpu(rn->footer.nid) != inode->i_ino &&
	    f2fs_node_ofs(rn) == F2FS_XATTR_NODE_OFS) {
		/* The xattr node (xattr.c). */
		f2fs_lock_op(sbi);
		err = f2fs_recover_xattr_node(inode, rn);
		f2fs_unlock_op(sbi);
		return err;
	}
	if (le32_to_cpu(rn->footer.nid) == inode->i_ino) {
		if (rn->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY) ||
		    f2fs_inline_data(inode))
			return 0;	/* the inline data came with step 2 */
		addrs = rn->i.i_addr + f2fs_extra_addrs(inode);
		n = f2fs_addrs_per_inode(inode);
		start = 0;
	} else {
		if (!f2fs_node_is_dnode(rn) || f2fs_inline_data(inode))
			return 0;
		addrs = rn->dn.addr;
		n = DEF_ADDRS_PER_BLOCK;
		start = f2fs_start_index(inode, f2fs_node_ofs(rn));
	}
	for (i = 0; i < n; i++) {
		u32 addr = le32_to_cpu(addrs[i]);

		if (addr == NEW_ADDR)
			continue;	/* reserved, never written: nothing to adopt */
		f2fs_lock_op(sbi);
		err = f2fs_recover_data_block(inode, start + i, addr);
		f2fs_unlock_op(sbi);
		if (err > 0) {
			loff_t end = (loff_t)(start + i + 1) << PAGE_SHIFT;

			if (extend && i_size_read(inode) < end &&
			    !(F2FS_I(inode)->i_advise & F2FS_FADVISE_KEEP_SIZE))
				i_size_write(inode, end);
			ch->data_blocks++;
			continue;
		}
		if (err == -EFSCORRUPTED) {
			if (!ch->skipped++)
				f2fs_warn(sbi, "inode %lu: block %u for offset %llu is not one fsync wrote; skipped",
					  inode->i_ino, addr, start + i);
			continue;
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * Steps 2 and 3.  Errors of one inode skip that inode.  The inodes stay
 * referenced until the checkpoint has written them (chain_free()).
 */
static int replay_chain(struct f2fs_sb_info *sbi, struct chain *ch)
{
	struct fsync_inode *fi;
	unsigned long ino;
	struct page *page;
	u32 i;
	int err = 0;

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	xa_for_each(&ch->inodes, ino, fi) {
		err = rebuild_inode(sbi, ch, ino, fi, page);
		if (err == -ENOMEM)
			goto free_page;
		if (err)
			fi->icopy = U32_MAX;	/* reported by recover_inode() */
	}
	xa_for_each(&ch->inodes, ino, fi) {
		err = recover_inode(sbi, ch, ino, fi, page);
		if (err == -ENOMEM)
			goto free_page;
		if (err)
			f2fs_warn(sbi, "inode %lu: fsynced state not recovered (%d)",
				  ino, err);
	}
	for (i = 0; i < ch->count; i++) {
		struct chain_node *cn = &ch->nodes[i];

		fi = xa_load(&ch->inodes, cn->ino);
		if (!fi || !fi->inode || i > fi->last)
			continue;
		err = f2fs_read_main_block(sbi, cn->blkaddr, page);
		if (!err)
			err = replay_node(sbi, ch, fi->inode, page_address(page),
					  fi->icopy == U32_MAX || i > fi->icopy);
		if (err == -ENOMEM)
			goto free_page;
		if (err) {
			f2fs_warn(sbi, "inode %lu: data not fully recovered (%d)",
				  fi->inode->i_ino, err);
			iput(fi->inode);
			fi->inode = NULL;
		}
	}
	err = 0;
	xa_for_each(&ch->inodes, ino, fi) {
		struct inode *inode = fi->inode;

		if (!inode)
			continue;
		if (!f2fs_inline_data(inode)) {
			f2fs_lock_op(sbi);
			f2fs_truncate_blocks(inode, DIV_ROUND_UP(i_size_read(inode),
								 PAGE_SIZE));
			f2fs_unlock_op(sbi);
		}
		f2fs_mark_meta_dirty(inode);
	}
free_page:
	__free_page(page);
	return err;
}

/**
 * f2fs_recover_fsync_data - roll forward what fsync wrote after the
 * checkpoint, and checkpoint the result.
 * @sbi: a mount that just became writable (orphans already released).
 *
 * Does nothing after a clean unmount or when no node block follows the
 * checkpoint in the warm node log.  A chain without fsync marks, or with
 * disable_roll_forward any chain, is retired by the same checkpoint
 * without replaying it.  A read-only mount leaves it all for later (and a
 * remount read-write then refuses, see super.c).
 *
 * Return: 0; -ENOMEM; -ENOSPC or -EIO when the closing checkpoint cannot
 * be written (the mount then fails, and the chain stays for a later try).
 */
int f2fs_recover_fsync_data(struct f2fs_sb_info *sbi)
{
	struct chain ch = {};
	u64 t0 = ktime_get_ns();
	u32 i, seg, held = U32_MAX;
	int err;

	/*
	 * Also after an unmount checkpoint: fsyncs since the next mount left
	 * records that only this walk finds.
	 */
	xa_init(&ch.inodes);
	err = walk_chain(sbi, &ch);
	if (err || !ch.count)
		goto free_chain;

	/*
	 * Even a chain without marks is retired by a checkpoint: blocks of
	 * this version must not stay where a later walk could take them for
	 * records of the next crash.
	 */
	sbi->recovering = true;
	if (!ch.nr_inodes) {
		/* nothing to replay */
	} else if (f2fs_opt(sbi, F2FS_OPT_NO_ROLL_FORWARD)) {
		f2fs_warn(sbi, "disable_roll_forward: dropping what %u fsynced files wrote after the checkpoint",
			  ch.nr_inodes);
	} else {
		err = replay_chain(sbi, &ch);
		if (err)
			goto stop;
	}
	for (i = 0; i < ch.count; i++) {
		seg = f2fs_seg_of(sbi, ch.nodes[i].blkaddr);
		if (seg != held)
			f2fs_hold_segment(sbi, seg);
		held = seg;
	}
	/* Every data log: the crashed mount may have used more logs. */
	for (i = F2FS_LOG_HOT_DATA; i <= F2FS_LOG_COLD_DATA && !err; i++)
		err = f2fs_move_log(sbi, i);
	if (!err)
		err = f2fs_move_log(sbi, F2FS_LOG_WARM_NODE);
	if (!err)
		err = f2fs_write_checkpoint(sbi, F2FS_CP_RECOVERY);
stop:
	/*
	 * After a failure nothing may be written any more: the inodes
	 * released below would otherwise write over the chain that a later
	 * mount still needs.
	 */
	if (err)
		sbi->writable = false;
	sbi->recovering = false;
	if (!err && !f2fs_opt(sbi, F2FS_OPT_NO_ROLL_FORWARD)) {
		sbi->stats.rf_files += ch.nr_inodes;
		sbi->stats.rf_blocks += ch.data_blocks;
	}
	trace_f2fs_recovery(sbi->sb, ch.count, ch.nr_inodes, ch.data_blocks,
			    ch.skipped, f2fs_opt(sbi, F2FS_OPT_NO_ROLL_FORWARD), err,
			    ktime_get_ns() - t0);
	if (!err && !f2fs_opt(sbi, F2FS_OPT_NO_ROLL_FORWARD) && ch.nr_inodes)
		f2fs_info(sbi, "roll-forward recovery: %u fsynced files, %u chain blocks, %lu data blocks adopted (%lu refused), %llu ms",
			  ch.nr_inodes, ch.count, ch.data_blocks, ch.skipped,
			  div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
	if (err)
		f2fs_err(sbi, "roll-forward recovery failed (%d); mount with -o disable_roll_forward to drop the fsynced data",
			 err);
free_chain:
	chain_free(&ch);
	return err;
}
