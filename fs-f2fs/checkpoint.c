// SPDX-License-Identifier: GPL-2.0
/*
 * checkpoint.c - meta block cache and checkpoint pack selection.
 *
 * Every metadata block outside the main area (checkpoint packs, SIT, NAT,
 * SSA) is read through the meta inode, whose page index is the block
 * address itself, so repeated reads of NAT or summary blocks hit the page
 * cache.
 *
 * A checkpoint pack is a run of blocks that starts and ends with a copy of
 * struct f2fs_checkpoint; each copy carries a CRC and the same version.
 * Two packs alternate, one segment apart.  Mount picks the newer pack whose
 * both ends are valid, so a write torn in the middle of a pack leaves the
 * older, complete pack in force.
 */
#include <linux/bio.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "f2fs.h"

static int f2fs_meta_read_folio(struct file *file, struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_SB(folio->mapping->host->i_sb);

	return f2fs_submit_page_read(sbi, &folio->page, folio->index);
}

const struct address_space_operations f2fs_meta_aops = {
	.read_folio	= f2fs_meta_read_folio,
};

/**
 * f2fs_get_meta_page - read one metadata block through the meta cache.
 * @sbi: the mount.
 * @blkaddr: block address, which must lie before the main area.
 *
 * Return: the uptodate page with a reference held (release it with
 * put_page()), or ERR_PTR(-EFSCORRUPTED) for an address outside the meta
 * areas, or ERR_PTR(-EIO) on a read error.
 */
struct page *f2fs_get_meta_page(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	struct page *page;

	if (blkaddr < sbi->seg0_blkaddr || blkaddr >= sbi->main_blkaddr) {
		f2fs_err(sbi, "meta block address %u outside [%u, %u)",
			 blkaddr, sbi->seg0_blkaddr, sbi->main_blkaddr);
		return ERR_PTR(-EFSCORRUPTED);
	}
	page = read_mapping_page(sbi->meta_inode->i_mapping, blkaddr, NULL);
	if (IS_ERR(page))
		return ERR_PTR(-EIO);
	return page;
}

/**
 * f2fs_read_meta_blocks - copy consecutive metadata blocks into a buffer.
 * @sbi: the mount.
 * @blkaddr: first block.
 * @buf: destination, @count blocks long.
 * @count: number of blocks.
 *
 * Return: 0, or the error of f2fs_get_meta_page().
 */
int f2fs_read_meta_blocks(struct f2fs_sb_info *sbi, u32 blkaddr, void *buf,
			  unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		struct page *page = f2fs_get_meta_page(sbi, blkaddr + i);

		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy(buf + i * F2FS_BLKSIZE, page_address(page),
		       F2FS_BLKSIZE);
		put_page(page);
	}
	return 0;
}

/*
 * Check one checkpoint block: the checksum offset must be in range and the
 * CRC stored there must match.  Returns the version, or 0 with *why set.
 */
static u64 cp_block_version(struct f2fs_sb_info *sbi, u32 blkaddr,
			    struct page **pagep, const char **why)
{
	struct f2fs_checkpoint *cp;
	struct page *page;
	u32 crc_ofs;

	*pagep = NULL;
	page = f2fs_get_meta_page(sbi, blkaddr);
	if (IS_ERR(page)) {
		*why = "read error";
		return 0;
	}
	cp = page_address(page);
	crc_ofs = le32_to_cpu(cp->checksum_offset);
	if (crc_ofs < CP_MIN_CHKSUM_OFFSET || crc_ofs > CP_CHKSUM_OFFSET ||
	    crc_ofs % sizeof(__le32)) {
		*why = "bad checksum offset";
		goto bad;
	}
	if (f2fs_crc(cp, crc_ofs) !=
	    le32_to_cpu(*(__le32 *)((u8 *)cp + crc_ofs))) {
		*why = "CRC mismatch";
		goto bad;
	}
	*pagep = page;
	return le64_to_cpu(cp->checkpoint_ver);
bad:
	put_page(page);
	return 0;
}

/*
 * Validate a whole pack starting at @start: both ends valid, same version,
 * a sane block count.  Returns the version (0 when invalid, with *why set)
 * and the page of the first block.
 */
static u64 cp_pack_version(struct f2fs_sb_info *sbi, u32 start,
			   struct page **first, const char **why)
{
	struct f2fs_checkpoint *cp;
	struct page *last;
	u64 ver1, ver2;
	u32 total;

	ver1 = cp_block_version(sbi, start, first, why);
	if (!ver1)
		return 0;
	cp = page_address(*first);
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	if (total < 2 + F2FS_NR_DATA_LOGS || total > sbi->blocks_per_seg) {
		*why = "bad pack size";
		goto bad;
	}
	ver2 = cp_block_version(sbi, start + total - 1, &last, why);
	if (!ver2) {
		*why = "last block invalid";
		goto bad;
	}
	put_page(last);
	if (ver1 != ver2) {
		*why = "torn pack: versions differ";
		goto bad;
	}
	return ver1;
bad:
	put_page(*first);
	*first = NULL;
	return 0;
}

/* Geometry checks of the chosen checkpoint against the superblock. */
static int check_cp(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	struct f2fs_checkpoint *cp = sbi->ckpt;
	u32 sit_segs = le32_to_cpu(raw->segment_count_sit);
	u32 nat_segs = le32_to_cpu(raw->segment_count_nat);
	u32 payload = le32_to_cpu(raw->cp_payload);
	u32 start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	u32 total = le32_to_cpu(cp->cp_pack_total_block_count);
	u64 user = le64_to_cpu(cp->user_block_count);
	u64 valid = le64_to_cpu(cp->valid_block_count);
	u32 meta, i, j;

	meta = le32_to_cpu(raw->segment_count_ckpt) + sit_segs + nat_segs +
	       le32_to_cpu(raw->segment_count_ssa) +
	       le32_to_cpu(cp->rsvd_segment_count);
	if (meta >= le32_to_cpu(raw->segment_count)) {
		f2fs_err(sbi, "checkpoint reserves more segments than exist");
		return -EFSCORRUPTED;
	}
	if (!user || user > (u64)sbi->main_segs * sbi->blocks_per_seg ||
	    valid > user) {
		f2fs_err(sbi, "checkpoint block counts invalid (user %llu, valid %llu)",
			 user, valid);
		return -EFSCORRUPTED;
	}
	if (le32_to_cpu(cp->free_segment_count) > sbi->main_segs) {
		f2fs_err(sbi, "checkpoint free segment count invalid");
		return -EFSCORRUPTED;
	}
	if (le32_to_cpu(cp->sit_ver_bitmap_bytesize) !=
	    ((sit_segs / 2) << sbi->log_blocks_per_seg) / 8 ||
	    le32_to_cpu(cp->nat_ver_bitmap_bytesize) !=
	    ((nat_segs / 2) << sbi->log_blocks_per_seg) / 8) {
		f2fs_err(sbi, "checkpoint version bitmap sizes invalid");
		return -EFSCORRUPTED;
	}
	if (start_sum < 1 + payload ||
	    start_sum > total - 1 - F2FS_NR_DATA_LOGS) {
		f2fs_err(sbi, "checkpoint summary start %u invalid", start_sum);
		return -EFSCORRUPTED;
	}
	for (i = 0; i < F2FS_NR_NODE_LOGS; i++) {
		if (le32_to_cpu(cp->cur_node_segno[i]) >= sbi->main_segs ||
		    le16_to_cpu(cp->cur_node_blkoff[i]) > sbi->blocks_per_seg)
			goto bad_curseg;
		if (le32_to_cpu(cp->cur_data_segno[i]) >= sbi->main_segs ||
		    le16_to_cpu(cp->cur_data_blkoff[i]) > sbi->blocks_per_seg)
			goto bad_curseg;
	}
	for (i = 0; i < F2FS_NR_NODE_LOGS; i++)
		for (j = 0; j < F2FS_NR_DATA_LOGS; j++)
			if (cp->cur_node_segno[i] == cp->cur_data_segno[j])
				goto bad_curseg;
	if (le32_to_cpu(cp->valid_node_count) > sbi->total_node_count ||
	    le32_to_cpu(cp->valid_inode_count) >
	    le32_to_cpu(cp->valid_node_count)) {
		f2fs_err(sbi, "checkpoint node counts invalid");
		return -EFSCORRUPTED;
	}
	return 0;
bad_curseg:
	f2fs_err(sbi, "checkpoint current segments invalid");
	return -EFSCORRUPTED;
}

/**
 * f2fs_load_checkpoint - choose the newest valid checkpoint pack.
 * @sbi: the mount, with the superblock geometry and meta inode set up.
 *
 * Reads both packs, keeps the newer valid one (with its payload blocks) in
 * sbi->ckpt, and checks it against the superblock.
 *
 * Return: 0; -EFSCORRUPTED when no pack is valid or the chosen pack does not
 * fit the superblock; -ENOMEM.
 */
int f2fs_load_checkpoint(struct f2fs_sb_info *sbi)
{
	u32 cp_blkaddr = le32_to_cpu(sbi->raw_super->cp_blkaddr);
	u32 payload = le32_to_cpu(sbi->raw_super->cp_payload);
	const char *why1 = NULL, *why2 = NULL;
	struct page *p1, *p2, *cur;
	u64 v1, v2;
	int err;

	v1 = cp_pack_version(sbi, cp_blkaddr, &p1, &why1);
	v2 = cp_pack_version(sbi, cp_blkaddr + sbi->blocks_per_seg, &p2,
			     &why2);
	if (!v1 && !v2) {
		f2fs_err(sbi, "no valid checkpoint pack (pack 1: %s, pack 2: %s)",
			 why1, why2);
		return -EFSCORRUPTED;
	}
	/* Versions only grow; compare as the wrapping counters they are. */
	if (v1 && (!v2 || (s64)(v1 - v2) > 0)) {
		cur = p1;
		sbi->cp_addr = cp_blkaddr;
		sbi->cp_ver = v1;
	} else {
		cur = p2;
		sbi->cp_addr = cp_blkaddr + sbi->blocks_per_seg;
		sbi->cp_ver = v2;
	}
	/* mkfs writes only one pack, so this is normal on a fresh image. */
	if (!v1 || !v2)
		f2fs_info(sbi, "checkpoint pack %d not valid (%s), using pack %d",
			  v1 ? 2 : 1, v1 ? why2 : why1, v1 ? 1 : 2);

	sbi->ckpt_size = (1 + payload) * F2FS_BLKSIZE;
	sbi->ckpt = kvmalloc(sbi->ckpt_size, GFP_KERNEL);
	if (!sbi->ckpt) {
		err = -ENOMEM;
		goto out_put_pages;
	}
	memcpy(sbi->ckpt, page_address(cur), F2FS_BLKSIZE);
	err = f2fs_read_meta_blocks(sbi, sbi->cp_addr + 1,
				    (u8 *)sbi->ckpt + F2FS_BLKSIZE, payload);
	if (err)
		goto out_free_ckpt;
	err = check_cp(sbi);
	if (err)
		goto out_free_ckpt;
	goto out_put_pages;

out_free_ckpt:
	kvfree(sbi->ckpt);
	sbi->ckpt = NULL;
out_put_pages:
	if (p1)
		put_page(p1);
	if (p2)
		put_page(p2);
	return err;
}
