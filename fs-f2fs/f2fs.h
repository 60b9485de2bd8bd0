/* SPDX-License-Identifier: GPL-2.0 */
/*
 * f2fs.h - in-memory structures shared by every part of the module.
 *
 * The on-disk format comes from <linux/f2fs_fs.h>; this header holds only
 * what lives in memory: the per-mount state (struct f2fs_sb_info), the
 * per-inode state (struct f2fs_inode_info), the NAT entry cache, the current
 * segment summaries, and the small helpers that turn on-disk fields into
 * addresses.
 *
 * The mount keeps three kinds of cached pages, each in the address space of
 * an internal inode, so that the page cache does the caching and the
 * locking:
 *   - meta pages (checkpoint, NAT, SIT, SSA blocks): index == block address;
 *   - node pages (inodes, direct and indirect nodes): index == nid, and the
 *     block address comes from the NAT at read time;
 *   - data and dentry pages: in the owning inode's own mapping.
 *
 * Locking rules, in the order they nest:
 *   sbi->nm.nat_lock (rwsem) > nat entry fields
 *   fi->ext_lock (rwlock) protects the in-memory largest extent
 */
#ifndef _F2FS_LOCAL_H
#define _F2FS_LOCAL_H

#include <linux/fs.h>
#include <linux/types.h>
#include <linux/pagemap.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <linux/crc32.h>
#include <linux/magic.h>
#include <linux/f2fs_fs.h>

/* Block addresses are 32-bit (<linux/f2fs_fs.h> uses this type). */
typedef u32 block_t;

/* Corruption is reported as EUCLEAN, as ext4 and xfs do. */
#define EFSCORRUPTED	EUCLEAN

/* Feature bits of f2fs_super_block.feature (format, not in the header). */
#define F2FS_FEAT_ENCRYPT		0x0001
#define F2FS_FEAT_BLKZONED		0x0002
#define F2FS_FEAT_ATOMIC_WRITE		0x0004
#define F2FS_FEAT_EXTRA_ATTR		0x0008
#define F2FS_FEAT_PRJQUOTA		0x0010
#define F2FS_FEAT_INODE_CHKSUM		0x0020
#define F2FS_FEAT_FLEXIBLE_INLINE_XATTR	0x0040
#define F2FS_FEAT_QUOTA_INO		0x0080
#define F2FS_FEAT_INODE_CRTIME		0x0100
#define F2FS_FEAT_LOST_FOUND		0x0200
#define F2FS_FEAT_VERITY		0x0400
#define F2FS_FEAT_SB_CHKSUM		0x0800
#define F2FS_FEAT_CASEFOLD		0x1000
#define F2FS_FEAT_COMPRESSION		0x2000
#define F2FS_FEAT_RO			0x4000

/* Log (current segment) types, the six logs of the design. */
enum f2fs_log_type {
	F2FS_LOG_HOT_DATA = 0,
	F2FS_LOG_WARM_DATA,
	F2FS_LOG_COLD_DATA,
	F2FS_LOG_HOT_NODE,
	F2FS_LOG_WARM_NODE,
	F2FS_LOG_COLD_NODE,
	F2FS_NR_LOGS,
};

#define F2FS_NR_DATA_LOGS	3
#define F2FS_NR_NODE_LOGS	3

/* Bytes of a summary block that hold entries + journal, not the footer. */
#define F2FS_SUM_PAYLOAD	(F2FS_BLKSIZE - SUM_FOOTER_SIZE)

/* First bytes of i_addr[] that an inline area skips (i_addr[0]). */
#define F2FS_INLINE_RESERVED_ADDRS	1

/* Extra attribute area size when every known extra field is present. */
#define F2FS_MAX_EXTRA_ISIZE					\
	(offsetof(struct f2fs_inode, i_extra_end) -		\
	 offsetof(struct f2fs_inode, i_extra_isize))

/**
 * struct f2fs_nat_cached - one cached NAT entry.
 * @nid: node id (the key in nm.nat_tree).
 * @ino: inode owning the node.
 * @blkaddr: where the node lives, NULL_ADDR when the nid is free.
 * @version: node version from the NAT entry.
 *
 * Entries are immutable once inserted while the mount is read-only;
 * the tree itself is protected by nm.nat_lock.
 */
struct f2fs_nat_cached {
	u32 nid;
	u32 ino;
	u32 blkaddr;
	u8 version;
};

/**
 * struct f2fs_nm_info - node manager state.
 * @nat_blkaddr: first block of the NAT area.
 * @nat_blocks: NAT blocks in one copy.
 * @max_nid: first nid that the NAT cannot address.
 * @nat_bitmap: copy of the checkpoint's NAT version bitmap: bit set means the
 *	second copy of that NAT block is current.  Read-only after mount.
 * @nat_bitmap_bytes: size of @nat_bitmap.
 * @nat_lock: protects @nat_tree and @nat_count.
 * @nat_tree: nid -> struct f2fs_nat_cached.
 * @nat_count: number of cached entries.
 */
struct f2fs_nm_info {
	u32 nat_blkaddr;
	u32 nat_blocks;
	u32 max_nid;
	u8 *nat_bitmap;
	u32 nat_bitmap_bytes;
	struct rw_semaphore nat_lock;
	struct xarray nat_tree;
	unsigned long nat_count;
};

/**
 * struct f2fs_curseg - one active log as loaded from the checkpoint.
 * @segno: current segment number.
 * @blkoff: next block offset to write in the segment.
 * @alloc_type: LFS (0) or SSR (1) as recorded in the checkpoint.
 * @sum: the segment's summary block, with the journal of this log.
 *
 * Read-only after mount for now; the write path will add a mutex here.
 */
struct f2fs_curseg {
	u32 segno;
	u16 blkoff;
	u8 alloc_type;
	struct f2fs_summary_block *sum;
};

/**
 * struct f2fs_sb_info - per-mount state.
 * @sb: the VFS superblock.
 * @raw_super: validated copy of the on-disk superblock.
 * @ckpt: the current checkpoint block plus its payload blocks.
 * @ckpt_size: bytes at @ckpt (1 + cp_payload blocks).
 * @cp_addr: first block of the checkpoint pack in use.
 * @cp_ver: its version.
 * @log_blocks_per_seg: log2 blocks per segment.
 * @blocks_per_seg: blocks per segment.
 * @segs_per_sec: segments per section.
 * @total_sections: sections in the main area.
 * @main_segs: segments in the main area.
 * @seg0_blkaddr: block address of segment 0.
 * @main_blkaddr: first block of the main area.
 * @max_blkaddr: first block past the main area.
 * @ssa_blkaddr: first block of the SSA.
 * @sit_blkaddr: first block of the SIT.
 * @root_ino: root inode number.
 * @node_ino: node inode number.
 * @meta_ino: meta inode number.
 * @features: superblock feature bits.
 * @user_block_count: from the checkpoint.
 * @total_valid_blocks: valid blocks in the main area (checkpoint).
 * @valid_node_count: valid nodes (checkpoint).
 * @valid_inode_count: valid inodes (checkpoint).
 * @total_node_count: nids the NAT can address.
 * @stat_lock: protects the four counters above once writes exist.
 * @meta_inode: internal inode caching meta blocks.
 * @node_inode: internal inode caching node blocks.
 * @nm: node manager.
 * @curseg: the six logs from the checkpoint.
 * @s_flags_ro_forced: the mount was asked rw but runs read-only.
 * @recovery_pending: the checkpoint is not an unmount checkpoint, so
 *	roll-forward data may be waiting for a read-write mount.
 *
 * Everything except the counters and @nm is set at mount and then only read.
 */
struct f2fs_sb_info {
	struct super_block *sb;
	struct f2fs_super_block *raw_super;
	struct f2fs_checkpoint *ckpt;
	size_t ckpt_size;
	u32 cp_addr;
	u64 cp_ver;

	unsigned int log_blocks_per_seg;
	unsigned int blocks_per_seg;
	unsigned int segs_per_sec;
	unsigned int total_sections;
	unsigned int main_segs;
	u32 seg0_blkaddr;
	u32 main_blkaddr;
	u32 max_blkaddr;
	u32 ssa_blkaddr;
	u32 sit_blkaddr;
	u32 root_ino;
	u32 node_ino;
	u32 meta_ino;
	u32 features;

	spinlock_t stat_lock;
	u64 user_block_count;
	u64 total_valid_blocks;
	u32 valid_node_count;
	u32 valid_inode_count;
	u32 total_node_count;

	struct inode *meta_inode;
	struct inode *node_inode;
	struct f2fs_nm_info nm;
	struct f2fs_curseg curseg[F2FS_NR_LOGS];

	bool ro_forced;
	bool recovery_pending;
};

/**
 * struct f2fs_inode_info - in-memory inode.
 * @vfs_inode: the VFS inode.
 * @i_flags: on-disk i_flags.
 * @i_advise: on-disk i_advise (cold bit etc.).
 * @i_inline: on-disk i_inline flags.
 * @i_dir_level: dentry level offset for large directories.
 * @i_current_depth: number of hash levels of a directory.
 * @i_pino: parent inode number.
 * @i_xattr_nid: node holding the out-of-inode xattrs.
 * @i_extra_isize: extra attribute bytes (0 without F2FS_EXTRA_ATTR).
 * @i_inline_xattr_addrs: inline xattr size in 4-byte units.
 * @i_crtime: creation time when the image records it.
 * @ext_lock: protects @ext.
 * @ext: the largest extent of the file, in memory (fofs, blk, len).
 *
 * Fields other than @ext are set by iget and only read afterwards.
 */
struct f2fs_inode_info {
	struct inode vfs_inode;
	u32 i_flags;
	u8 i_advise;
	u8 i_inline;
	u8 i_dir_level;
	u32 i_current_depth;
	u32 i_pino;
	u32 i_xattr_nid;
	u16 i_extra_isize;
	u16 i_inline_xattr_addrs;
	struct timespec64 i_crtime;
	rwlock_t ext_lock;
	struct {
		u32 fofs;
		u32 blk;
		u32 len;
	} ext;
};

static inline struct f2fs_sb_info *F2FS_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct f2fs_sb_info *F2FS_I_SB(struct inode *inode)
{
	return F2FS_SB(inode->i_sb);
}

static inline struct f2fs_inode_info *F2FS_I(struct inode *inode)
{
	return container_of(inode, struct f2fs_inode_info, vfs_inode);
}

static inline bool f2fs_has_feature(struct f2fs_sb_info *sbi, u32 mask)
{
	return (sbi->features & mask) != 0;
}

static inline bool f2fs_cp_flag(struct f2fs_sb_info *sbi, u32 flag)
{
	return (le32_to_cpu(sbi->ckpt->ckpt_flags) & flag) != 0;
}

/* f2fs bitmaps number bits from the most significant bit of each byte. */
static inline bool f2fs_test_bit_msb(unsigned int nr, const u8 *map)
{
	return map[nr >> 3] & (0x80 >> (nr & 7));
}

/* Checksum used by every f2fs metadata block: crc32 seeded with magic. */
static inline u32 f2fs_crc(const void *buf, size_t len)
{
	return crc32_le(F2FS_SUPER_MAGIC, buf, len);
}

/* Is blkaddr a real block of the main area? */
static inline bool f2fs_valid_main_addr(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	return blkaddr >= sbi->main_blkaddr && blkaddr < sbi->max_blkaddr;
}

/* Inline data and dentries sit in i_addr[], after extra attributes. */
static inline unsigned int f2fs_extra_addrs(struct inode *inode)
{
	return F2FS_I(inode)->i_extra_isize / sizeof(__le32);
}

static inline unsigned int f2fs_addrs_per_inode(struct inode *inode)
{
	return DEF_ADDRS_PER_INODE - f2fs_extra_addrs(inode) -
	       F2FS_I(inode)->i_inline_xattr_addrs;
}

static inline unsigned int f2fs_max_inline_data(struct inode *inode)
{
	return sizeof(__le32) * (f2fs_addrs_per_inode(inode) -
				 F2FS_INLINE_RESERVED_ADDRS);
}

static inline void *f2fs_inline_addr(struct inode *inode, struct f2fs_node *rn)
{
	return &rn->i.i_addr[f2fs_extra_addrs(inode) +
			     F2FS_INLINE_RESERVED_ADDRS];
}

static inline bool f2fs_inline_data(struct inode *inode)
{
	return F2FS_I(inode)->i_inline & F2FS_INLINE_DATA;
}

static inline bool f2fs_inline_dentry(struct inode *inode)
{
	return F2FS_I(inode)->i_inline & F2FS_INLINE_DENTRY;
}

/* Node footer helpers. */
static inline u32 f2fs_node_ofs(const struct f2fs_node *rn)
{
	return le32_to_cpu(rn->footer.flag) >> OFFSET_BIT_SHIFT;
}

/**
 * struct f2fs_dentry_view - one dentry area, block or inline, seen alike.
 * @max: number of slots.
 * @bitmap: slot validity bitmap (little-endian bit order).
 * @dentry: slot entries.
 * @names: slot names, F2FS_SLOT_LEN bytes each.
 */
struct f2fs_dentry_view {
	unsigned int max;
	const u8 *bitmap;
	struct f2fs_dir_entry *dentry;
	u8 (*names)[F2FS_SLOT_LEN];
};

#define f2fs_err(sbi, fmt, ...)						\
	pr_err("f2fs (%s): " fmt "\n", (sbi)->sb->s_id, ##__VA_ARGS__)
#define f2fs_warn(sbi, fmt, ...)					\
	pr_warn("f2fs (%s): " fmt "\n", (sbi)->sb->s_id, ##__VA_ARGS__)
#define f2fs_info(sbi, fmt, ...)					\
	pr_info("f2fs (%s): " fmt "\n", (sbi)->sb->s_id, ##__VA_ARGS__)

/* super.c */
extern struct kmem_cache *f2fs_inode_cachep;

/* checkpoint.c */
struct page *f2fs_get_meta_page(struct f2fs_sb_info *sbi, u32 blkaddr);
int f2fs_read_meta_blocks(struct f2fs_sb_info *sbi, u32 blkaddr, void *buf,
			  unsigned int count);
int f2fs_load_checkpoint(struct f2fs_sb_info *sbi);
extern const struct address_space_operations f2fs_meta_aops;

/* segment.c */
int f2fs_load_cursegs(struct f2fs_sb_info *sbi);
void f2fs_free_cursegs(struct f2fs_sb_info *sbi);

/* node.c */
int f2fs_init_node_manager(struct f2fs_sb_info *sbi);
void f2fs_destroy_node_manager(struct f2fs_sb_info *sbi);
int f2fs_get_node_info(struct f2fs_sb_info *sbi, u32 nid,
		       struct f2fs_nat_cached *ni);
struct page *f2fs_get_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				u32 ofs);
int f2fs_create_nat_cache(void);
void f2fs_destroy_nat_cache(void);
extern const struct address_space_operations f2fs_node_aops;

/* inode.c */
struct inode *f2fs_iget(struct super_block *sb, unsigned long ino);

/* data.c */
int f2fs_map_blocks(struct inode *inode, u64 index, u32 max, u32 *blkaddr);
int f2fs_submit_page_read(struct f2fs_sb_info *sbi, struct page *page,
			  u32 blkaddr);
extern const struct address_space_operations f2fs_data_aops;

/* hash.c */
__le32 f2fs_dentry_hash(const u8 *name, unsigned int len);

/* dir.c */
struct f2fs_dir_entry *f2fs_find_entry(struct inode *dir,
				       const struct qstr *name,
				       struct page **res_page);
unsigned char f2fs_ftype_to_dtype(u8 ftype);
extern const struct file_operations f2fs_dir_operations;

/* namei.c */
extern const struct inode_operations f2fs_dir_inode_operations;
extern const struct inode_operations f2fs_symlink_inode_operations;
extern const struct inode_operations f2fs_special_inode_operations;

/* file.c */
extern const struct file_operations f2fs_file_operations;
extern const struct inode_operations f2fs_file_inode_operations;
int f2fs_getattr(struct user_namespace *mnt_userns, const struct path *path,
		 struct kstat *stat, u32 request_mask, unsigned int flags);

#endif /* _F2FS_LOCAL_H */
