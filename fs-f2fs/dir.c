// SPDX-License-Identifier: GPL-2.0
/*
 * dir.c - multi-level hash directories: lookup and readdir.
 *
 * A directory is a series of hash levels.  Level L has B(L) buckets of
 * K(L) dentry blocks each, where B(L) = 2^(L + i_dir_level) (capped at
 * MAX_DIR_BUCKETS) and K(L) is 2 in the lower half of the levels and 4 in
 * the upper half.  The levels are laid out one after another in the
 * directory's block space.  A name with hash h lives in bucket h % B(L) of
 * some level L < i_current_depth; lookup therefore reads at most K(L)
 * blocks per level, independent of the directory size.
 *
 * A dentry block holds 214 slots: a validity bitmap, the 11-byte entries
 * and 8-byte name slots; a name longer than 8 bytes occupies consecutive
 * slots.  Small directories may instead keep the same structure inline in
 * the inode block (F2FS_INLINE_DENTRY), with a slot count derived from the
 * inline area size.  Both are handled through struct f2fs_dentry_view.
 *
 * readdir walks blocks in order; the position is block * 214 + slot (or just
 * the slot for inline directories), so it can resume at any entry.
 */
#include <linux/buffer_head.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

static void view_block(struct f2fs_dentry_view *v, struct page *page)
{
	struct f2fs_dentry_block *b = page_address(page);

	v->page = page;
	v->max = NR_DENTRY_IN_BLOCK;
	v->bitmap = b->dentry_bitmap;
	v->dentry = b->dentry;
	v->names = b->filename;
}

static void view_inline(struct f2fs_dentry_view *v, struct inode *dir,
			struct page *ipage)
{
	u8 *base = f2fs_inline_addr(dir, page_address(ipage));
	unsigned int size = f2fs_max_inline_data(dir);
	unsigned int nr = size * BITS_PER_BYTE /
			  ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * BITS_PER_BYTE + 1);
	unsigned int bitmap = DIV_ROUND_UP(nr, BITS_PER_BYTE);
	unsigned int reserved = size - ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * nr +
					bitmap);

	v->page = ipage;
	v->max = nr;
	v->bitmap = base;
	v->dentry = (struct f2fs_dir_entry *)(base + bitmap + reserved);
	v->names = (u8 (*)[F2FS_SLOT_LEN])(base + bitmap + reserved +
					   SIZE_OF_DIR_ENTRY * nr);
}

/*
 * Check the slot at @bit: a sane name length that fits the area.  Returns
 * the number of slots it spans, or 0 when corrupt (logged once per page).
 */
static unsigned int slot_span(struct inode *dir,
			      const struct f2fs_dentry_view *v,
			      unsigned int bit)
{
	unsigned int len = le16_to_cpu(v->dentry[bit].name_len);
	unsigned int slots = GET_DENTRY_SLOTS(len);

	if (!len || len > F2FS_NAME_LEN || bit + slots > v->max) {
		f2fs_err_page(F2FS_I_SB(dir), v->page,
			      "directory %lu: corrupt dentry at slot %u (name length %u)",
			      dir->i_ino, bit, len);
		return 0;
	}
	return slots;
}

static struct f2fs_dir_entry *find_in_view(struct inode *dir,
					   const struct f2fs_dentry_view *v,
					   const struct qstr *name,
					   __le32 hash, int *err)
{
	unsigned int bit = 0, slots;

	*err = 0;
	while (bit < v->max) {
		struct f2fs_dir_entry *de;

		if (!test_bit_le(bit, v->bitmap)) {
			bit++;
			continue;
		}
		slots = slot_span(dir, v, bit);
		if (!slots) {
			*err = -EFSCORRUPTED;
			return NULL;
		}
		de = &v->dentry[bit];
		if (de->hash_code == hash &&
		    le16_to_cpu(de->name_len) == name->len &&
		    !memcmp(v->names[bit], name->name, name->len))
			return de;
		bit += slots;
	}
	return NULL;
}

static unsigned long level_buckets(unsigned int level, unsigned int dir_level)
{
	if (level + dir_level < MAX_DIR_HASH_DEPTH / 2)
		return 1UL << (level + dir_level);
	return MAX_DIR_BUCKETS;
}

static unsigned int bucket_blocks(unsigned int level)
{
	return level < MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

/* First block of bucket @bucket of level @level. */
static u64 bucket_block_index(unsigned int level, unsigned int dir_level,
			      unsigned long bucket)
{
	u64 idx = 0;
	unsigned int i;

	for (i = 0; i < level; i++)
		idx += (u64)level_buckets(i, dir_level) * bucket_blocks(i);
	return idx + (u64)bucket * bucket_blocks(level);
}

static struct f2fs_dir_entry *find_inline(struct inode *dir,
					  const struct qstr *name,
					  struct page **res_page)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	struct f2fs_dentry_view v;
	struct f2fs_dir_entry *de;
	struct page *ipage;
	int err;

	ipage = f2fs_get_node_page(sbi, dir->i_ino, dir->i_ino, 0);
	if (IS_ERR(ipage))
		return ERR_CAST(ipage);
	view_inline(&v, dir, ipage);
	de = find_in_view(dir, &v, name, f2fs_dentry_hash(name->name, name->len),
			  &err);
	if (de) {
		*res_page = ipage;
		return de;
	}
	put_page(ipage);
	return err ? ERR_PTR(err) : NULL;
}

/**
 * f2fs_find_entry - look a name up in a directory.
 * @dir: the directory.
 * @name: the name.
 * @res_page: on success, the page holding the returned entry; the caller
 *	releases it with put_page().
 *
 * Return: the entry, NULL when the name is absent, or ERR_PTR(-EIO) /
 * ERR_PTR(-EFSCORRUPTED).
 */
struct f2fs_dir_entry *f2fs_find_entry(struct inode *dir,
				       const struct qstr *name,
				       struct page **res_page)
{
	struct f2fs_inode_info *fi = F2FS_I(dir);
	u64 nblocks = DIV_ROUND_UP(i_size_read(dir), F2FS_BLKSIZE);
	__le32 hash;
	unsigned int level;

	if (f2fs_inline_dentry(dir))
		return find_inline(dir, name, res_page);

	hash = f2fs_dentry_hash(name->name, name->len);
	for (level = 0; level < fi->i_current_depth; level++) {
		unsigned long nb = level_buckets(level, fi->i_dir_level);
		u64 blk = bucket_block_index(level, fi->i_dir_level,
					     le32_to_cpu(hash) % nb);
		u64 end = blk + bucket_blocks(level);

		for (; blk < end && blk < nblocks; blk++) {
			struct f2fs_dentry_view v;
			struct f2fs_dir_entry *de;
			struct page *page;
			int err;

			page = read_mapping_page(dir->i_mapping, blk, NULL);
			if (IS_ERR(page))
				return ERR_CAST(page);
			view_block(&v, page);
			de = find_in_view(dir, &v, name, hash, &err);
			if (de) {
				*res_page = page;
				return de;
			}
			put_page(page);
			if (err)
				return ERR_PTR(err);
		}
	}
	return NULL;
}

/**
 * f2fs_ftype_to_dtype - convert an on-disk file type to a DT_* value.
 * @ftype: F2FS_FT_* value.
 *
 * Return: the DT_* value, DT_UNKNOWN for an unknown type.
 */
unsigned char f2fs_ftype_to_dtype(u8 ftype)
{
	static const unsigned char map[F2FS_FT_MAX] = {
		[F2FS_FT_UNKNOWN]	= DT_UNKNOWN,
		[F2FS_FT_REG_FILE]	= DT_REG,
		[F2FS_FT_DIR]		= DT_DIR,
		[F2FS_FT_CHRDEV]	= DT_CHR,
		[F2FS_FT_BLKDEV]	= DT_BLK,
		[F2FS_FT_FIFO]		= DT_FIFO,
		[F2FS_FT_SOCK]		= DT_SOCK,
		[F2FS_FT_SYMLINK]	= DT_LNK,
	};

	return ftype < F2FS_FT_MAX ? map[ftype] : DT_UNKNOWN;
}

/*
 * Emit the entries of one view from slot @start.  @base is the readdir
 * position of slot 0; ctx->pos always names the first slot not yet
 * returned.  Returns 1 when the caller's buffer is full, 0 when the view
 * is done, or a negative error.
 */
static int emit_view(struct inode *dir, const struct f2fs_dentry_view *v,
		     struct dir_context *ctx, loff_t base, unsigned int start)
{
	unsigned int bit = start, slots;

	while (bit < v->max) {
		struct f2fs_dir_entry *de;

		if (!test_bit_le(bit, v->bitmap)) {
			bit++;
			continue;
		}
		slots = slot_span(dir, v, bit);
		if (!slots)
			return -EFSCORRUPTED;
		de = &v->dentry[bit];
		if (!dir_emit(ctx, v->names[bit], le16_to_cpu(de->name_len),
			      le32_to_cpu(de->ino),
			      f2fs_ftype_to_dtype(de->file_type)))
			return 1;
		bit += slots;
		/*
		 * Past the emitted entry, so that a call stopped by a corrupt
		 * entry further on resumes at that entry and fails, rather
		 * than emitting this one again (forever).
		 */
		ctx->pos = base + bit;
	}
	ctx->pos = base + v->max;
	return 0;
}

/*
 * Whether readdir reads ahead the inode blocks of the entries it returns
 * (they are usually stat'ed next: du, ls -l, find -size).
 */
static bool readdir_ra = true;
module_param(readdir_ra, bool, 0644);
MODULE_PARM_DESC(readdir_ra, "readdir reads ahead the inodes of its entries (default on)");

/*
 * Start reading the inode blocks of the entries of @v from slot @start
 * whose inodes are not in the inode cache.  The names are not checked
 * here: emit_view() does that, and a bad inode number is skipped.
 */
static void ra_view_inodes(struct inode *dir, const struct f2fs_dentry_view *v,
			   unsigned int start)
{
	struct super_block *sb = dir->i_sb;
	unsigned int bit, n = 0;
	u32 *nids;

	if (!readdir_ra || start >= v->max)
		return;
	nids = kmalloc_array(v->max - start, sizeof(*nids),
			     GFP_NOFS | __GFP_NOWARN);
	if (!nids)
		return;
	rcu_read_lock();
	for (bit = start; bit < v->max; bit++) {
		unsigned int len;
		u32 ino;

		if (!test_bit_le(bit, v->bitmap))
			continue;
		ino = le32_to_cpu(v->dentry[bit].ino);
		if (!find_inode_by_ino_rcu(sb, ino))
			nids[n++] = ino;
		/* The other slots of a long name carry no entry. */
		len = le16_to_cpu(v->dentry[bit].name_len);
		if (len && len <= F2FS_NAME_LEN)
			bit += GET_DENTRY_SLOTS(len) - 1;
	}
	rcu_read_unlock();
	f2fs_ra_node_pages(F2FS_SB(sb), nids, n);
	kfree(nids);
}

static int read_dir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct f2fs_dentry_view v;
	u64 nblocks, n;
	int ret = 0;

	if (f2fs_inline_dentry(dir)) {
		struct page *ipage;

		ipage = f2fs_get_node_page(F2FS_I_SB(dir), dir->i_ino,
					   dir->i_ino, 0);
		if (IS_ERR(ipage))
			return PTR_ERR(ipage);
		view_inline(&v, dir, ipage);
		if (ctx->pos < v.max) {
			ra_view_inodes(dir, &v, ctx->pos);
			ret = emit_view(dir, &v, ctx, 0, ctx->pos);
		}
		put_page(ipage);
		return ret < 0 ? ret : 0;
	}

	nblocks = DIV_ROUND_UP(i_size_read(dir), F2FS_BLKSIZE);
	for (n = ctx->pos / NR_DENTRY_IN_BLOCK; n < nblocks; n++) {
		struct page *page;
		unsigned int start = 0;

		if (ctx->pos > n * NR_DENTRY_IN_BLOCK)
			start = ctx->pos - n * NR_DENTRY_IN_BLOCK;
		/* Large directories: read the following blocks ahead. */
		page = find_get_page(dir->i_mapping, n);
		if (page)
			put_page(page);
		else
			page_cache_sync_readahead(dir->i_mapping, &file->f_ra,
						  file, n, nblocks - n);
		page = read_mapping_page(dir->i_mapping, n, file);
		if (IS_ERR(page))
			return PTR_ERR(page);
		view_block(&v, page);
		ra_view_inodes(dir, &v, start);
		ret = emit_view(dir, &v, ctx, n * NR_DENTRY_IN_BLOCK, start);
		put_page(page);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return 0;
}

static int f2fs_readdir(struct file *file, struct dir_context *ctx)
{
	u64 t0 = trace_f2fs_readdir_exit_enabled() ? ktime_get_ns() : 0;
	struct inode *dir = file_inode(file);
	loff_t start = ctx->pos;
	int ret;

	trace_f2fs_readdir_enter(dir, start);
	ret = read_dir(file, ctx);
	if (trace_f2fs_readdir_exit_enabled())
		trace_f2fs_readdir_exit(dir, start, ctx->pos, ret,
					t0 ? ktime_get_ns() - t0 : 0);
	return ret;
}

/*
 * ---- Changing directories -------------------------------------------------
 *
 * All of these run with the directory's i_rwsem held and sbi->cp_rwsem
 * held shared.  Dentry pages are changed in the page cache, locked, and
 * written later by writeback or by the checkpoint.
 */

static u8 mode_to_ftype(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:	return F2FS_FT_REG_FILE;
	case S_IFDIR:	return F2FS_FT_DIR;
	case S_IFCHR:	return F2FS_FT_CHRDEV;
	case S_IFBLK:	return F2FS_FT_BLKDEV;
	case S_IFIFO:	return F2FS_FT_FIFO;
	case S_IFSOCK:	return F2FS_FT_SOCK;
	case S_IFLNK:	return F2FS_FT_SYMLINK;
	}
	return F2FS_FT_UNKNOWN;
}

/* First run of @slots free slots in @v, or v->max. */
static unsigned int find_free_slots(const struct f2fs_dentry_view *v,
				    unsigned int slots)
{
	unsigned int bit = 0, run;

	while (bit + slots <= v->max) {
		for (run = 0; run < slots; run++)
			if (test_bit_le(bit + run, v->bitmap))
				break;
		if (run == slots)
			return bit;
		bit += run + 1;
	}
	return v->max;
}

static void put_entry(struct f2fs_dentry_view *v, unsigned int bit,
		      const struct qstr *name, __le32 hash, u32 ino, u8 ftype)
{
	unsigned int slots = GET_DENTRY_SLOTS(name->len), i;
	struct f2fs_dir_entry *de = &v->dentry[bit];

	de->hash_code = hash;
	de->ino = cpu_to_le32(ino);
	de->name_len = cpu_to_le16(name->len);
	de->file_type = ftype;
	memcpy(v->names[bit], name->name, name->len);
	for (i = 0; i < slots; i++)
		__set_bit_le(bit + i, (void *)v->bitmap);
}

/* Read (or, for a hole, zero) dentry page @index of @dir, locked. */
static struct page *get_dentry_page(struct inode *dir, u64 index)
{
	struct page *page;

	page = read_mapping_page(dir->i_mapping, index, NULL);
	if (IS_ERR(page))
		return page;
	lock_page(page);
	if (page->mapping != dir->i_mapping) {
		unlock_page(page);
		put_page(page);
		return ERR_PTR(-EAGAIN);
	}
	wait_for_stable_page(page);
	return page;
}

static void dir_changed(struct inode *dir)
{
	dir->i_mtime = current_time(dir);
	dir->i_ctime = dir->i_mtime;
	f2fs_mark_meta_dirty(dir);
}

/**
 * f2fs_convert_inline_dir - move inline dentries into dentry block 0.
 * @dir: the directory (inline or not).
 *
 * Level 0 has a single bucket, so every name may live in block 0; the
 * entries keep their slots.
 *
 * Return: 0, -ENOSPC, or a read error.
 */
int f2fs_convert_inline_dir(struct inode *dir)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(dir);
	struct f2fs_inode_info *fi = F2FS_I(dir);
	struct f2fs_dentry_view iv, bv;
	struct page *ipage, *page;
	unsigned int bit;
	int err;

	if (!f2fs_inline_dentry(dir))
		return 0;
	page = grab_cache_page(dir->i_mapping, 0);
	if (!page)
		return -ENOMEM;
	ipage = f2fs_get_locked_node(sbi, dir->i_ino, dir->i_ino, 0);
	if (IS_ERR(ipage)) {
		err = PTR_ERR(ipage);
		goto put_page;
	}
	zero_user_segment(page, 0, PAGE_SIZE);
	view_inline(&iv, dir, ipage);
	view_block(&bv, page);
	for (bit = 0; bit < iv.max; bit++) {
		if (!test_bit_le(bit, iv.bitmap))
			continue;
		__set_bit_le(bit, (void *)bv.bitmap);
		bv.dentry[bit] = iv.dentry[bit];
		memcpy(bv.names[bit], iv.names[bit], F2FS_SLOT_LEN);
	}
	SetPageUptodate(page);
	memset(f2fs_inline_addr(dir, page_address(ipage)), 0,
	       f2fs_max_inline_data(dir));
	fi->i_inline &= ~F2FS_INLINE_DENTRY;
	((struct f2fs_node *)page_address(ipage))->i.i_inline = fi->i_inline;
	set_page_dirty(ipage);
	unlock_page(ipage);
	put_page(ipage);
	err = f2fs_reserve_block(dir, 0);
	if (err)
		goto put_page;
	set_page_dirty(page);
	if (i_size_read(dir) < PAGE_SIZE)
		i_size_write(dir, PAGE_SIZE);
	fi->i_current_depth = max_t(u32, fi->i_current_depth, 1);
	f2fs_mark_meta_dirty(dir);
put_page:
	unlock_page(page);
	put_page(page);
	return err;
}

/*
 * Put a name into the inline dentries of @dir when it has room.  Returns 0,
 * -ENOSPC when the inline area is full (the caller moves it to a block),
 * or a node read error.
 */
static int add_inline_link(struct inode *dir, const struct qstr *name,
			   __le32 hash, struct inode *inode)
{
	struct f2fs_dentry_view v;
	struct page *ipage;
	unsigned int bit;

	ipage = f2fs_get_locked_node(F2FS_I_SB(dir), dir->i_ino, dir->i_ino, 0);
	if (IS_ERR(ipage))
		return PTR_ERR(ipage);
	view_inline(&v, dir, ipage);
	bit = find_free_slots(&v, GET_DENTRY_SLOTS(name->len));
	if (bit < v.max) {
		put_entry(&v, bit, name, hash, inode->i_ino,
			  mode_to_ftype(inode->i_mode));
		set_page_dirty(ipage);
		dir_changed(dir);
	}
	unlock_page(ipage);
	put_page(ipage);
	return bit < v.max ? 0 : -ENOSPC;
}

/**
 * f2fs_add_link - add a name for @inode in @dir.
 * @dir: the directory.
 * @name: the name, known to be absent.
 * @inode: what it names.
 *
 * The name goes to the first level, from the lowest, whose bucket for the
 * name's hash has room; when none has, the directory grows a level.
 *
 * Return: 0, -ENOSPC (also when MAX_DIR_HASH_DEPTH levels are full), or a
 * read error.
 */
int f2fs_add_link(struct inode *dir, const struct qstr *name,
		  struct inode *inode)
{
	struct f2fs_inode_info *fi = F2FS_I(dir);
	unsigned int slots = GET_DENTRY_SLOTS(name->len), level;
	__le32 hash = f2fs_dentry_hash(name->name, name->len);
	int err;

	if (f2fs_inline_dentry(dir)) {
		err = add_inline_link(dir, name, hash, inode);
		if (err != -ENOSPC)
			return err;
		err = f2fs_convert_inline_dir(dir);
		if (err)
			return err;
	}
	for (level = 0; level < MAX_DIR_HASH_DEPTH; level++) {
		unsigned long nb = level_buckets(level, fi->i_dir_level);
		u64 blk = bucket_block_index(level, fi->i_dir_level,
					     le32_to_cpu(hash) % nb);
		u64 end = blk + bucket_blocks(level);

		if (level >= fi->i_current_depth) {
			fi->i_current_depth = level + 1;
			f2fs_mark_meta_dirty(dir);
		}
		for (; blk < end; blk++) {
			struct f2fs_dentry_view v;
			struct page *page;
			unsigned int bit;

			page = get_dentry_page(dir, blk);
			if (IS_ERR(page))
				return PTR_ERR(page);
			view_block(&v, page);
			bit = find_free_slots(&v, slots);
			if (bit >= v.max) {
				unlock_page(page);
				put_page(page);
				continue;
			}
			err = f2fs_reserve_block(dir, blk);
			if (!err) {
				put_entry(&v, bit, name, hash, inode->i_ino,
					  mode_to_ftype(inode->i_mode));
				set_page_dirty(page);
				if (i_size_read(dir) < (blk + 1) << PAGE_SHIFT)
					i_size_write(dir, (blk + 1) << PAGE_SHIFT);
				dir_changed(dir);
			}
			unlock_page(page);
			put_page(page);
			return err;
		}
	}
	return -ENOSPC;
}

/* Locate @de inside @page: the view it belongs to and its slot. */
static unsigned int entry_slot(struct inode *dir, struct page *page,
			       struct f2fs_dir_entry *de,
			       struct f2fs_dentry_view *v)
{
	if (f2fs_inline_dentry(dir))
		view_inline(v, dir, page);
	else
		view_block(v, page);
	return de - v->dentry;
}

/**
 * f2fs_delete_entry - remove an entry found by f2fs_find_entry().
 * @dir: the directory.
 * @de: the entry.
 * @page: the page f2fs_find_entry() returned (a reference is dropped).
 */
void f2fs_delete_entry(struct inode *dir, struct f2fs_dir_entry *de,
		       struct page *page)
{
	struct f2fs_dentry_view v;
	unsigned int bit, slots, i;

	/* A dentry block, or the inode block holding inline dentries. */
	lock_page(page);
	wait_on_page_writeback(page);
	bit = entry_slot(dir, page, de, &v);
	slots = GET_DENTRY_SLOTS(le16_to_cpu(de->name_len));
	for (i = 0; i < slots && bit + i < v.max; i++)
		__clear_bit_le(bit + i, (void *)v.bitmap);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	dir_changed(dir);
}

/**
 * f2fs_set_link - point an existing entry at another inode (rename).
 * @dir: the directory.
 * @de: the entry, from f2fs_find_entry().
 * @page: its page (a reference is dropped).
 * @inode: the new target.
 */
void f2fs_set_link(struct inode *dir, struct f2fs_dir_entry *de,
		   struct page *page, struct inode *inode)
{
	/* A dentry block, or the inode block holding inline dentries. */
	lock_page(page);
	wait_on_page_writeback(page);
	de->ino = cpu_to_le32(inode->i_ino);
	de->file_type = mode_to_ftype(inode->i_mode);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	dir_changed(dir);
}

/**
 * f2fs_make_empty - give a new directory its "." and ".." entries.
 * @dir: the new directory.
 * @parent: its parent.
 *
 * Return: 0, -ENOSPC or -ENOMEM.
 */
int f2fs_make_empty(struct inode *dir, struct inode *parent)
{
	struct qstr dot = QSTR_INIT(".", 1), dotdot = QSTR_INIT("..", 2);
	struct f2fs_dentry_view v;
	struct page *page;
	int err;

	if (f2fs_inline_dentry(dir)) {
		/* As stock: the size of an inline directory is its area's. */
		page = f2fs_get_locked_node(F2FS_I_SB(dir), dir->i_ino,
					    dir->i_ino, 0);
		if (IS_ERR(page))
			return PTR_ERR(page);
		view_inline(&v, dir, page);
		put_entry(&v, 0, &dot, 0, dir->i_ino, F2FS_FT_DIR);
		put_entry(&v, 1, &dotdot, 0, parent->i_ino, F2FS_FT_DIR);
		set_page_dirty(page);
		unlock_page(page);
		put_page(page);
		i_size_write(dir, f2fs_max_inline_data(dir));
		f2fs_mark_meta_dirty(dir);
		return 0;
	}
	page = grab_cache_page(dir->i_mapping, 0);
	if (!page)
		return -ENOMEM;
	err = f2fs_reserve_block(dir, 0);
	if (err)
		goto out;
	zero_user_segment(page, 0, PAGE_SIZE);
	view_block(&v, page);
	put_entry(&v, 0, &dot, 0, dir->i_ino, F2FS_FT_DIR);
	put_entry(&v, 1, &dotdot, 0, parent->i_ino, F2FS_FT_DIR);
	SetPageUptodate(page);
	set_page_dirty(page);
	i_size_write(dir, PAGE_SIZE);
	f2fs_mark_meta_dirty(dir);
out:
	unlock_page(page);
	put_page(page);
	return err;
}

/**
 * f2fs_empty_dir - does a directory hold nothing but "." and ".."?
 * @dir: the directory.
 *
 * Return: true when empty; false when not, or when a block cannot be read
 * (so that a damaged directory is never removed with entries in it).
 */
bool f2fs_empty_dir(struct inode *dir)
{
	u64 nblocks = DIV_ROUND_UP(i_size_read(dir), F2FS_BLKSIZE), n;
	struct f2fs_dentry_view v;
	struct page *page;
	unsigned int bit;

	if (f2fs_inline_dentry(dir)) {
		page = f2fs_get_node_page(F2FS_I_SB(dir), dir->i_ino,
					  dir->i_ino, 0);
		if (IS_ERR(page))
			return false;
		view_inline(&v, dir, page);
		bit = find_next_bit_le(v.bitmap, v.max, 0);
		while (bit < v.max) {
			unsigned int len = le16_to_cpu(v.dentry[bit].name_len);

			if (!(len == 1 && v.names[bit][0] == '.') &&
			    !(len == 2 && v.names[bit][0] == '.' &&
			      v.names[bit][1] == '.'))
				break;
			bit = find_next_bit_le(v.bitmap, v.max, bit + 1);
		}
		put_page(page);
		return bit >= v.max;
	}
	for (n = 0; n < nblocks; n++) {
		page = read_mapping_page(dir->i_mapping, n, NULL);
		if (IS_ERR(page))
			return false;
		view_block(&v, page);
		/* Block 0 holds "." and ".." in its first two slots. */
		bit = find_next_bit_le(v.bitmap, v.max, n ? 0 : 2);
		put_page(page);
		if (bit < v.max)
			return false;
	}
	return true;
}

/**
 * f2fs_parent_entry - find the ".." entry of a directory.
 * @dir: the directory.
 * @res_page: set to the page holding it (release with put_page()).
 *
 * Return: the entry, NULL when missing, or an ERR_PTR().
 */
struct f2fs_dir_entry *f2fs_parent_entry(struct inode *dir,
					 struct page **res_page)
{
	struct qstr dotdot = QSTR_INIT("..", 2);

	return f2fs_find_entry(dir, &dotdot, res_page);
}

const struct file_operations f2fs_dir_operations = {
	.llseek		= generic_file_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= f2fs_readdir,
	.fsync		= f2fs_sync_file,
	.unlocked_ioctl	= f2fs_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= f2fs_compat_ioctl,
#endif
};
