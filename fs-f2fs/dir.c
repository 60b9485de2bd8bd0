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

static void view_block(struct f2fs_dentry_view *v, struct f2fs_dentry_block *b)
{
	v->max = NR_DENTRY_IN_BLOCK;
	v->bitmap = b->dentry_bitmap;
	v->dentry = b->dentry;
	v->names = b->filename;
}

static void view_inline(struct f2fs_dentry_view *v, struct inode *dir,
			struct f2fs_node *rn)
{
	u8 *base = f2fs_inline_addr(dir, rn);
	unsigned int size = f2fs_max_inline_data(dir);
	unsigned int nr = size * BITS_PER_BYTE /
			  ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * BITS_PER_BYTE + 1);
	unsigned int bitmap = DIV_ROUND_UP(nr, BITS_PER_BYTE);
	unsigned int reserved = size - ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * nr +
					bitmap);

	v->max = nr;
	v->bitmap = base;
	v->dentry = (struct f2fs_dir_entry *)(base + bitmap + reserved);
	v->names = (u8 (*)[F2FS_SLOT_LEN])(base + bitmap + reserved +
					   SIZE_OF_DIR_ENTRY * nr);
}

/*
 * Check the slot at @bit: a sane name length that fits the area.  Returns
 * the number of slots it spans, or 0 when corrupt.
 */
static unsigned int slot_span(struct inode *dir,
			      const struct f2fs_dentry_view *v,
			      unsigned int bit)
{
	unsigned int len = le16_to_cpu(v->dentry[bit].name_len);
	unsigned int slots = GET_DENTRY_SLOTS(len);

	if (!len || len > F2FS_NAME_LEN || bit + slots > v->max) {
		f2fs_err(F2FS_I_SB(dir), "directory %lu: corrupt dentry at slot %u (name length %u)",
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
	view_inline(&v, dir, page_address(ipage));
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
			view_block(&v, page_address(page));
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
 * position of slot 0.  Returns 1 when the caller's buffer is full, 0 when
 * the view is done, or a negative error.
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
		ctx->pos = base + bit;
		if (!dir_emit(ctx, v->names[bit], le16_to_cpu(de->name_len),
			      le32_to_cpu(de->ino),
			      f2fs_ftype_to_dtype(de->file_type)))
			return 1;
		bit += slots;
	}
	ctx->pos = base + v->max;
	return 0;
}

static int f2fs_readdir(struct file *file, struct dir_context *ctx)
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
		view_inline(&v, dir, page_address(ipage));
		if (ctx->pos < v.max)
			ret = emit_view(dir, &v, ctx, 0, ctx->pos);
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
		view_block(&v, page_address(page));
		ret = emit_view(dir, &v, ctx, n * NR_DENTRY_IN_BLOCK, start);
		put_page(page);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return 0;
}

const struct file_operations f2fs_dir_operations = {
	.llseek		= generic_file_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= f2fs_readdir,
};
