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
 *   sbi->nm.nat_lock (rwsem) > nat entry fields, nm.nat_seq (changes
 *   of the fields, for node.c's lockless readers)
 *   fi->ext_lock (rwlock) protects the in-memory largest extent
 */
#ifndef _F2FS_LOCAL_H
#define _F2FS_LOCAL_H

#include <linux/fs.h>
#include <linux/types.h>
#include <linux/pagemap.h>
#include <linux/rwsem.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/ktime.h>
#include <linux/blk_types.h>
#include <linux/writeback.h>
#include <linux/crc32.h>
#include <linux/magic.h>
#include <linux/atomic.h>
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

/* Mount options (super.c lists them), bits of struct f2fs_options.flags. */
#define F2FS_OPT_BG_GC_OFF		BIT(0)	/* background_gc=off */
#define F2FS_OPT_NO_HEAP		BIT(1)	/* no_heap */
#define F2FS_OPT_DISCARD		BIT(2)	/* discard */
#define F2FS_OPT_NO_ROLL_FORWARD	BIT(3)	/* disable_roll_forward */
#define F2FS_OPT_NO_EXT_IDENTIFY	BIT(4)	/* disable_ext_identify */
#define F2FS_OPT_LAZYTIME		BIT(5)	/* lazytime */
#define F2FS_OPT_USER_XATTR		BIT(6)	/* user_xattr (xattr.c) */
#define F2FS_OPT_ACL			BIT(7)	/* acl (acl.c) */
#define F2FS_OPT_INLINE_XATTR		BIT(8)	/* inline_xattr (xattr.c) */
#define F2FS_OPT_INLINE_DATA		BIT(9)	/* inline_data (data.c) */
#define F2FS_OPT_INLINE_DENTRY		BIT(10)	/* inline_dentry (dir.c) */
#define F2FS_OPT_ALLOC_DEFAULT		BIT(11)	/* alloc_mode=default, else reuse */

/**
 * struct f2fs_options - the mount options in force.
 * @flags: F2FS_OPT_* bits.
 * @active_logs: logs in use (active_logs=2|4|6).
 *
 * Set at mount; a remount replaces the whole struct (the VFS serialises
 * remounts); readers elsewhere read single bits.
 */
struct f2fs_options {
	u32 flags;
	unsigned int active_logs;
};

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

/*
 * Write epochs (struct f2fs_sb_info.wb_epoch): blocks of the fsync chain's
 * log count in epoch 0 or 1, all others in this one, which nothing waits
 * for by itself.
 */
#define F2FS_EPOCH_NONE		2

static inline bool f2fs_is_node_log(unsigned int type)
{
	return type >= F2FS_LOG_HOT_NODE;
}

/* Allocation mode of a log, as recorded in the checkpoint. */
#define F2FS_ALLOC_LFS		0
#define F2FS_ALLOC_SSR		1

/* What a block write is for, as the f2fs_block_write event reports it. */
enum f2fs_write_cause {
	F2FS_WRITE_DATA,	/* file data, by writeback or fsync */
	F2FS_WRITE_GC,		/* file data moved by the cleaner */
	F2FS_WRITE_NODE,	/* a node block */
};

/**
 * struct f2fs_block_owner - whose block f2fs_alloc_block() hands out.
 * @ino: the inode the block belongs to.
 * @index: the page index in the file for data, the node id for a node.
 * @old_blkaddr: where the block was written before (NULL_ADDR or NEW_ADDR
 *	when it had no block yet).
 * @cause: enum f2fs_write_cause.
 * @epoch: set by f2fs_alloc_block(): the write epoch the block counts in,
 *	to be passed to f2fs_submit_write() or f2fs_batch_write().
 *
 * The trace event reads the owner: the summary entry is what goes to disk.
 */
struct f2fs_block_owner {
	u32 ino;
	u32 index;
	u32 old_blkaddr;
	int cause;
	unsigned int epoch;
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
 * @checkpointed: the last checkpoint's NAT has a block for @nid (fsync
 *	uses it to tell a node written since from one the checkpoint has).
 *
 * The tree and the fields change under nm.nat_lock, the fields also inside
 * nm.nat_seq's write sections; lookups read them under RCU and nm.nat_seq
 * (node.c, nat_cache_read()), and removed entries are freed after a grace
 * period.  An entry changed
 * since the last checkpoint carries F2FS_NAT_DIRTY (an xarray mark) and is
 * written by the next checkpoint; dirty entries are never dropped.
 */
struct f2fs_nat_cached {
	u32 nid;
	u32 ino;
	u32 blkaddr;
	u8 version;
	bool checkpointed;
};

/**
 * struct f2fs_nm_info - node manager state.
 * @nat_blkaddr: first block of the NAT area.
 * @nat_blocks: NAT blocks in one copy.
 * @max_nid: first nid that the NAT cannot address.
 * @nat_bitmap: copy of the checkpoint's NAT version bitmap: bit set means the
 *	second copy of that NAT block is current.  Read-only after mount.
 * @nat_bitmap_bytes: size of @nat_bitmap.
 * @nat_lock: serialises changes of @nat_tree, its entries and
 *	@nat_count (lookups take no lock: see struct f2fs_nat_cached).
 * @nat_seq: bumped around every change of a cached entry's fields, under
 *	@nat_lock held for write.
 * @nat_tree: nid -> struct f2fs_nat_cached.
 * @nat_count: number of cached entries.
 * @nat_dirty: number of entries marked F2FS_NAT_DIRTY.
 * @nid_lock: protects @free_nids, @free_cnt and @next_scan, and is held
 *	across a scan of the NAT for free nids.
 * @free_nids: nids known free on disk and in the cache, ready to allocate.
 * @free_cnt: entries used in @free_nids.
 * @next_scan: nid where the next scan for free nids starts.
 * @shrinker: gives clean entries of @nat_tree back under memory pressure
 *	(they are what the NAT on disk says; dirty ones are never dropped).
 * @shrinker_on: @shrinker is registered (set and cleared at mount and
 *	unmount only).
 * @shrink_next: nid where the shrinker's next scan starts (@nat_lock).
 * @fsync_nodes: the node blocks other than inodes' own (direct, indirect,
 *	xattr) dirtied since the last checkpoint, keyed by fsync_key() of
 *	their inode and nid, each valued with the @fsync_seq stamped on it
 *	when its page last turned dirty (the xarray's own lock; emptied by
 *	the checkpoint once every node page is written): an fsync writes the
 *	dirty ones of its file from there, without scanning the mount's dirty
 *	nodes (node.c, f2fs_node_dirty_folio()).
 * @fsync_inodes: the same for inode blocks, keyed by their nid.
 * @fsync_seq: the last stamp given.
 * @fsync_nodes_lossy: an insert into @fsync_nodes or @fsync_inodes failed
 *	(no memory), or the keys do not fit in a long: fsync scans every
 *	dirty node page, and writes a record every time, until the next
 *	checkpoint (READ_ONCE/WRITE_ONCE).
 * @fsync_index_faults: the next this many inserts into @fsync_nodes or
 *	@fsync_inodes fail as if out of memory (debugfs fail_fsync_index,
 *	for tests of the scan that follows; atomic).
 * @inode_pages_dirtied: clean inode blocks that f2fs_update_inode() has
 *	dirtied since the mount (atomic).
 * @inode_pages_relieved: @inode_pages_dirtied when node writeback last
 *	started on their account (f2fs_relieve_nodes(); atomic, by cmpxchg).
 */
struct f2fs_nm_info {
	u32 nat_blkaddr;
	u32 nat_blocks;
	u32 max_nid;
	u8 *nat_bitmap;
	u32 nat_bitmap_bytes;
	struct rw_semaphore nat_lock;
	seqcount_t nat_seq;
	struct xarray nat_tree;
	unsigned long nat_count;
	unsigned long nat_dirty;
	struct mutex nid_lock;		/* free nid list and NAT scans */
	u32 *free_nids;
	unsigned int free_cnt;
	u32 next_scan;
	struct shrinker shrinker;
	bool shrinker_on;
	unsigned long shrink_next;
	struct xarray fsync_nodes;
	struct xarray fsync_inodes;
	atomic64_t fsync_seq;
	bool fsync_nodes_lossy;
	atomic_t fsync_index_faults;
	atomic_long_t inode_pages_dirtied;
	atomic_long_t inode_pages_relieved;
};

/* The key of a node of inode @ino in nm.fsync_nodes, in a 64-bit long. */
static inline unsigned long fsync_key(u32 ino, u32 nid)
{
	return (unsigned long)(((u64)ino << 32) | nid);
}

#define F2FS_NAT_DIRTY		XA_MARK_0
#define F2FS_FREE_NID_BATCH	256
/* Times sync and fsync make room for pages writeback kept dirty. */
#define F2FS_ROOM_RETRIES	4
/*
 * Dirty NAT entries that trigger a checkpoint: a tenth of the NAT, as
 * stock's dirty_nats_ratio, and at least F2FS_CP_DIRTY_NATS_MIN.  A fixed
 * 4,096 made rm -r of a kernel tree (19,000 inodes freed) checkpoint
 * several times before its sync, where stock writes nothing.
 */
#define F2FS_CP_DIRTY_NATS_MIN	4096
#define F2FS_CP_DIRTY_NATS_PCT	10

/**
 * struct f2fs_seg_entry - in-memory SIT entry of one main-area segment.
 * @valid_blocks: blocks in use now.
 * @ckpt_valid_blocks: blocks in use at the last checkpoint.
 * @type: log type that last wrote the segment.
 * @mtime: age stamp (seconds of filesystem lifetime) of the last change.
 * @valid_map: in-use blocks now (f2fs bit order, MSB first).
 * @ckpt_valid_map: blocks that cannot be reused before the next
 *	checkpoint: those in use at the last checkpoint, and those allocated
 *	since (an fsync record may still point at them, see recovery.c).
 *
 * Protected by sm.seg_lock.
 */
struct f2fs_seg_entry {
	u16 valid_blocks;
	u16 ckpt_valid_blocks;
	u8 type;
	u64 mtime;
	u8 valid_map[SIT_VBLOCK_MAP_SIZE];
	u8 ckpt_valid_map[SIT_VBLOCK_MAP_SIZE];
};

/**
 * struct f2fs_sm_info - segment manager state.
 * @seg_lock: protects everything below and the six struct f2fs_curseg.
 * @sentries: one entry per main-area segment.
 * @inuse_map: bit set when a segment is not free (holds or held blocks
 *	since the last checkpoint, or is a current segment).
 * @prefree_map: segments emptied since the last checkpoint; they become
 *	free when the next checkpoint is durable.
 * @sit_dirty_map: segments whose SIT entry changed since the checkpoint.
 * @free_segs: segments clear in @inuse_map.
 * @prefree_segs: bits set in @prefree_map.
 * @sit_dirty: bits set in @sit_dirty_map.
 * @sit_blocks: SIT blocks in one copy.
 * @sit_bitmap: the SIT version bitmap inside sbi->ckpt (bit set: the
 *	second copy of that SIT block is current).
 * @mount_elapsed: filesystem lifetime in seconds at mount.
 * @mount_time: ktime_get_boottime_seconds() at mount.
 * @rsvd_segs: segments the cleaner keeps free (rsvd_segment_count).
 * @ssr_next: where the next search for an SSR segment starts.
 * @ssa_staged_map: segments whose summary block waits in the meta cache for
 *	the next checkpoint (each page pinned by a reference until written).
 * @ssa_staged: bits set in @ssa_staged_map.
 */
struct f2fs_sm_info {
	struct mutex seg_lock;		/* SIT entries, maps, logs */
	struct f2fs_seg_entry *sentries;
	unsigned long *inuse_map;
	unsigned long *prefree_map;
	unsigned long *sit_dirty_map;
	unsigned int free_segs;
	unsigned int prefree_segs;
	unsigned int sit_dirty;
	u32 sit_blocks;
	u8 *sit_bitmap;
	u64 mount_elapsed;
	u64 mount_time;
	unsigned int rsvd_segs;
	u32 ssr_next;
	unsigned long *ssa_staged_map;
	unsigned int ssa_staged;
};

/**
 * struct f2fs_curseg - one active log as loaded from the checkpoint.
 * @segno: current segment number.
 * @blkoff: next block offset to write in the segment.
 * @alloc_type: LFS (0) or SSR (1) as recorded in the checkpoint.
 * @sum: the segment's summary block, with the journal of this log.
 *
 * All fields are protected by sm.seg_lock once the mount is writable.
 */
struct f2fs_curseg {
	u32 segno;
	u16 blkoff;
	u8 alloc_type;
	struct f2fs_summary_block *sum;
};

/* Garbage collection: who runs it, and how it picks victims. */
enum f2fs_gc_type {
	F2FS_GC_FG = 0,		/* a writer short of space, synchronous */
	F2FS_GC_BG,		/* the per-mount thread, when idle */
	F2FS_NR_GC_TYPES,
};

enum f2fs_gc_policy {
	F2FS_GC_GREEDY = 0,	/* fewest valid blocks */
	F2FS_GC_COST_BENEFIT,	/* age against utilisation */
	F2FS_NR_GC_POLICIES,
};

/* Reasons for a checkpoint (counted, and reported by the trace events). */
enum f2fs_cp_reason {
	F2FS_CP_UMOUNT,
	F2FS_CP_SYNC,
	F2FS_CP_FSYNC,
	F2FS_CP_SPACE,
	F2FS_CP_REMOUNT,
	F2FS_CP_RECOVERY,
	F2FS_CP_PERIODIC,
	F2FS_NR_CP_REASONS,
};

/**
 * struct f2fs_cp_phases - where one checkpoint spent its time (ns).
 * @block_ns: holding off operations (taking cp_rwsem exclusive).
 * @flush_ns: writing dentry pages, inode fields and node pages.
 * @wait_ns: waiting for the mount's writes still in flight.
 * @nat_ns: flushing dirty NAT entries.
 * @sit_ns: flushing dirty SIT entries.
 * @pack_ns: the node summaries and the checkpoint pack itself.
 * @total_ns: the whole checkpoint, from before @block_ns.
 */
struct f2fs_cp_phases {
	u64 block_ns;
	u64 flush_ns;
	u64 wait_ns;
	u64 nat_ns;
	u64 sit_ns;
	u64 pack_ns;
	u64 total_ns;
};

/* Where a NAT lookup found its entry (trace events and counters). */
enum f2fs_nat_source {
	F2FS_NAT_CACHE = 0,	/* the in-memory NAT entry cache */
	F2FS_NAT_JOURNAL,	/* the NAT journal of the hot data summary */
	F2FS_NAT_BLOCK,		/* a NAT block (through the meta page cache) */
	F2FS_NR_NAT_SOURCES,
};

/* What an fsync wrote: a record, or a checkpoint and why (counted, traced). */
enum f2fs_fsync_kind {
	F2FS_FSYNC_RECORD = 0,	/* an fsync record, rolled forward after a crash */
	F2FS_FSYNC_CP_NOT_FILE,	/* not a regular file (a directory ...) */
	F2FS_FSYNC_CP_LINKS,	/* hard links, or no link at all */
	F2FS_FSYNC_CP_CHANGED,	/* linked, renamed, shrunk or inline data moved */
	F2FS_FSYNC_CP_NEW_DIR,	/* a new file in a directory not checkpointed */
	F2FS_FSYNC_CP_SPACE,	/* space, NAT cache or logs short for records */
	F2FS_FSYNC_CP_WB_KEPT,	/* writeback left a page for a running checkpoint */
	F2FS_FSYNC_UNCHANGED,	/* nothing changed since the last record: no write */
	F2FS_NR_FSYNC_KINDS,
};

/* f2fs_fsync_node_pages(): nothing changed since the file's last record. */
#define F2FS_FSYNC_NOTHING	1

/* How a node block read was issued. */
enum f2fs_node_read_kind {
	F2FS_NODE_READ_SYNC = 0,	/* a reader waits for it */
	F2FS_NODE_READ_RA,		/* issued ahead of need (readahead) */
	F2FS_NR_NODE_READ_KINDS,
};

/**
 * struct f2fs_stats - counters of one mount, for debugfs and the toolkit.
 * @gc_calls: GC passes per enum f2fs_gc_type.
 * @gc_victims: victims chosen per enum f2fs_gc_policy.
 * @gc_victim_valid: sum of the valid blocks of the victims when chosen
 *	(divided by @gc_victims: average victim utilisation).
 * @gc_secs_freed: victim sections freed by a checkpoint (sm.seg_lock).
 * @gc_data_moved: data blocks GC moved.
 * @gc_node_moved: node blocks GC moved.
 * @gc_time_ns: time spent in GC passes.
 *	The other GC counters change under gc.gc_mutex.
 * @lfs_blocks: blocks allocated per log type in LFS mode.
 * @ssr_blocks: blocks allocated per log type in SSR mode.
 * @segs_opened: segments opened per log type and mode (F2FS_ALLOC_LFS,
 *	F2FS_ALLOC_SSR).
 * @ssr_victim_valid: valid blocks of the segments SSR chose to recycle,
 *	summed when chosen (divided by the SSR segments opened: their
 *	average utilisation).
 * @discarded_segs: segments discarded after the checkpoint that freed
 *	them (mount option discard).
 * @discard_errors: discard requests the device failed.
 * @alloc_nospace: segment allocations refused per log type because only
 *	the cleaner's room was left (the write waits for cleaning).
 *	The allocation counters change under sm.seg_lock.
 * @cp_calls: checkpoints written (or attempted) per enum f2fs_cp_reason.
 * @cp_skipped: checkpoint calls that found nothing to write.
 * @cp_errors: checkpoints that failed.
 * @cp_last_ns: duration of the last checkpoint.
 * @cp_max_ns: longest checkpoint.
 * @cp_total_ns: time spent in checkpoints (divided by the sum of
 *	@cp_calls: average duration).
 *	The checkpoint counters change under cp_mutex.
 * @nat_flushes: NAT flushes (one per checkpoint that reaches it).
 * @nat_shrunk: clean NAT cache entries given back to memory pressure.
 * @nat_journal_entries: dirty NAT entries written into the NAT journal.
 * @nat_block_entries: dirty NAT entries written into NAT blocks.
 * @nat_blocks_written: NAT blocks written.
 * @sit_flushes: SIT flushes.
 * @sit_journal_entries: dirty SIT entries written into the SIT journal.
 * @sit_block_entries: dirty SIT entries written through SIT blocks.
 * @sit_blocks_written: SIT blocks written.
 *	The flush counters change under cp_mutex (and cp_rwsem exclusive).
 * @extent_lookups: extent cache lookups (atomic).
 * @extent_hits: lookups the extent cache answered (atomic).
 * @extent_updates: changes of a cached extent (atomic).
 * @nat_lookups: NAT lookups per enum f2fs_nat_source (atomic).
 * @node_reads: node block reads per enum f2fs_node_read_kind (atomic).
 * @node_ra_neighbours: of the readahead reads, those of neighbours: node
 *	blocks no caller asked for, that follow one asked for (atomic).
 * @fsyncs: fsync calls per enum f2fs_fsync_kind (atomic).
 * @fsync_no_inode: of the records, those that left the inode block out
 *	(f2fs_inode_block_current(), atomic).
 * @fsync_no_scan: of the records, those that found the file's dirty
 *	nodes in nm.fsync_nodes, without scanning the mount's (atomic).
 * @room_calls: writers (or the cleaner thread) that had to make room
 *	before dirtying more (f2fs_make_room(), atomic).
 * @room_enospc: of those, how many got -ENOSPC (atomic).
 * @wb_deferred: pages writeback kept dirty for lack of room (atomic).
 * @wb_cp_busy: data pages writeback kept dirty because a checkpoint held
 *	or wanted the operations lock (atomic).
 * @wb_bios: write bios sent for data and node blocks (atomic).
 * @wb_bio_blocks: the blocks in them (atomic): their ratio is the mean
 *	bio, which the device may merge or split further.
 * @wb_slept_batches: batches sent early because their pass slept
 *	(f2fs_batch_write(), atomic).
 * @rf_files: files rolled forward by recovery at mount.
 * @rf_blocks: data blocks recovery adopted.
 *
 * All fields only grow while mounted; readers may read them without the
 * locks (a torn read of a 64-bit counter cannot happen on 64-bit hosts).
 */
struct f2fs_stats {
	u64 gc_calls[F2FS_NR_GC_TYPES];
	u64 gc_victims[F2FS_NR_GC_POLICIES];
	u64 gc_victim_valid;
	u64 gc_secs_freed;
	u64 gc_data_moved;
	u64 gc_node_moved;
	u64 gc_time_ns;
	u64 lfs_blocks[F2FS_NR_LOGS];
	u64 ssr_blocks[F2FS_NR_LOGS];
	u64 segs_opened[F2FS_NR_LOGS][2];
	u64 ssr_victim_valid;
	u64 discarded_segs;
	u64 discard_errors;
	u64 alloc_nospace[F2FS_NR_LOGS];
	u64 cp_calls[F2FS_NR_CP_REASONS];
	u64 cp_skipped;
	u64 cp_errors;
	u64 cp_last_ns;
	u64 cp_max_ns;
	u64 cp_total_ns;
	u64 nat_flushes;
	u64 nat_shrunk;
	u64 nat_journal_entries;
	u64 nat_block_entries;
	u64 nat_blocks_written;
	u64 sit_flushes;
	u64 sit_journal_entries;
	u64 sit_block_entries;
	u64 sit_blocks_written;
	atomic64_t extent_lookups;
	atomic64_t extent_hits;
	atomic64_t extent_updates;
	atomic64_t nat_lookups[F2FS_NR_NAT_SOURCES];
	atomic64_t node_reads[F2FS_NR_NODE_READ_KINDS];
	atomic64_t node_ra_neighbours;
	atomic64_t fsyncs[F2FS_NR_FSYNC_KINDS];
	atomic64_t fsync_no_inode;
	atomic64_t fsync_no_scan;
	atomic64_t room_calls;
	atomic64_t room_enospc;
	atomic64_t wb_deferred;
	atomic64_t wb_cp_busy;
	atomic64_t wb_bios;
	atomic64_t wb_bio_blocks;
	atomic64_t wb_slept_batches;
	u64 rf_files;
	u64 rf_blocks;
};

/**
 * struct f2fs_gc_info - garbage collection state of a mount.
 * @gc_mutex: one GC pass at a time; protects @last_victim, @min_mtime and
 *	the GC counters in struct f2fs_stats.
 * @thread: the background GC thread, or NULL (set and cleared by mount,
 *	remount and unmount, which the VFS serialises).
 * @wait: the thread sleeps here between passes.
 * @victim_map: sections chosen as victims and not yet freed by a
 *	checkpoint (sm.seg_lock).
 * @last_victim: where each policy's next window starts.
 * @min_mtime: oldest segment mtime seen, for cost-benefit ages.
 * @last_op: jiffies of the last user operation (written racily, read to
 *	tell whether the device is idle).
 * @running: the task running a pass, whose allocations may take the
 *	reserved segments (set and cleared under @gc_mutex, read locklessly
 *	by the allocator, which only compares it with current).
 * @urgent: writeback found no room; the thread makes room at once
 *	(written locklessly, a hint).
 */
struct f2fs_gc_info {
	struct mutex gc_mutex;		/* one GC pass at a time */
	struct task_struct *thread;
	wait_queue_head_t wait;
	unsigned long *victim_map;
	u32 last_victim[F2FS_NR_GC_POLICIES];
	u64 min_mtime;
	unsigned long last_op;
	struct task_struct *running;
	bool urgent;
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
 * @stat_lock: protects the four counters above.
 * @meta_inode: internal inode caching meta blocks.
 * @node_inode: internal inode caching node blocks.
 * @nm: node manager.
 * @curseg: the six logs from the checkpoint.
 * @ro_forced: the mount was asked rw but runs read-only.
 * @recovery_pending: the warm node log holds fsynced nodes written after
 *	the checkpoint, which a read-write mount rolls forward.
 * @recovering: roll-forward recovery is replaying them; writeback waits
 *	for the checkpoint that ends it (set and cleared by mount).
 * @opt: the mount options.
 * @sm: segment manager (SIT, free segments); set up for writable mounts.
 * @writable: the segment manager and free nid list are set up.
 * @stopped: writes stopped for good after a write error (a checkpoint
 *	failed, or refused to run after a failed write): sync, fsync and
 *	checkpoints report -EIO and a remount cannot make the mount
 *	writable again; cleared only by a new mount (set under cp_mutex
 *	and cp_rwsem, read locklessly: f2fs_writes_failed()).
 * @cp_rwsem: operations that change metadata hold it shared; a checkpoint
 *	holds it exclusive so that it captures a consistent state.
 * @cp_mutex: serialises checkpoints.
 * @cp_task: the task writing a checkpoint (it writes pages without
 *	taking @cp_rwsem again).
 * @cp_work: the periodic checkpoint (checkpoint.c), queued while the
 *	mount is writable; started and cancelled under s_umount.
 * @inode_lock: protects @dirty_inodes and @orphans.
 * @dirty_inodes: inodes whose in-memory fields are newer than their node
 *	page (struct f2fs_inode_info.dirty_list).
 * @nr_dirty_inodes: entries on @dirty_inodes (read locklessly for space
 *	estimates).
 * @dirty_dirs: directories with dirty dentry pages, which a checkpoint
 *	must write (struct f2fs_inode_info.dirty_dir_list).
 * @orphans: inode numbers unlinked but still open (struct f2fs_orphan).
 * @orphan_count: entries on @orphans.
 * @wb_pending: blocks allocated by f2fs_alloc_block() whose write has not
 *	completed yet (counted from the allocation, so that waiting for zero
 *	also covers writes about to be submitted).
 * @evicting: evictions copying a dirty inode's fields into its node page
 *	without cp_rwsem (inode.c, evict_linked(); raised under @inode_lock
 *	with the unlisting, woken with wake_up_var() at zero): the checkpoint
 *	waits for them before it writes the nodes.
 * @wb_wait: woken when @wb_pending, or a count of @wb_epoch_pending, drops
 *	to zero.
 * @wb_epoch: the write epoch new blocks of the fsync chain's log count in,
 *	0 or 1 (sm.seg_lock).
 * @wb_epoch_pending: @wb_pending split by epoch: blocks of the log that
 *	holds fsync records (the warm node log, or the one it is folded
 *	onto) in epoch 0 or 1, every other block in F2FS_EPOCH_NONE.
 *	f2fs_wait_epoch() flips @wb_epoch and waits for the old epoch's
 *	count only, so that an fsync waits for the chain's blocks allocated
 *	before its record, not for a steady writer's later ones, nor for
 *	blocks the chain does not need.
 * @epoch_lock: serialises f2fs_wait_epoch(), so an epoch is flipped only
 *	once the one before it has drained.
 * @wb_error: a write failed; the next checkpoint must not claim success.
 * @wb_blocked: writeback kept a page dirty for lack of room since sync
 *	last looked (sync writes such pages again after making room).
 * @failed_lock: protects @failed_pages (taken in bio completion).
 * @failed_pages: pages whose write failed, to be dirtied again by
 *	@failed_work (struct f2fs_failed_page).
 * @failed_work: keeps such pages dirty, so that they stay in memory: the
 *	in-memory NAT and extents already point at the blocks that failed.
 * @stats: counters for debugfs and the toolkit (locks: see the struct).
 * @gc: garbage collection state.
 * @debugfs_dir: this mount's folder in debugfs (f2fs/<dev>/), or NULL.
 * @debugfs_list: on the list of mounts that debugfs status shows (under
 *	the list's mutex in debug.c).
 * @proc_dir: this mount's folder in /proc/fs/f2fs/, or NULL.
 *
 * Everything else is set at mount and then only read.
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

	spinlock_t stat_lock;		/* block, node, inode counts */
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
	bool recovering;

	struct f2fs_options opt;
	struct f2fs_sm_info sm;
	bool writable;
	bool stopped;
	struct rw_semaphore cp_rwsem;
	struct mutex cp_mutex;		/* one checkpoint at a time */
	struct task_struct *cp_task;
	struct delayed_work cp_work;
	spinlock_t inode_lock;		/* dirty inode/dir and orphan lists */
	struct list_head dirty_inodes;
	unsigned int nr_dirty_inodes;
	struct list_head dirty_dirs;
	struct list_head orphans;
	unsigned int orphan_count;
	atomic_t wb_pending;
	atomic_t evicting;
	wait_queue_head_t wb_wait;
	unsigned int wb_epoch;
	atomic_t wb_epoch_pending[F2FS_EPOCH_NONE + 1];
	struct mutex epoch_lock;	/* serialises f2fs_wait_epoch() */
	atomic_t wb_error;
	atomic_t wb_blocked;
	spinlock_t failed_lock;		/* protects failed_pages */
	struct list_head failed_pages;
	struct work_struct failed_work;
	struct f2fs_stats stats;
	struct f2fs_gc_info gc;
	struct dentry *debugfs_dir;
	struct list_head debugfs_list;
	struct proc_dir_entry *proc_dir;
};

/**
 * struct f2fs_orphan - an unlinked inode that is still open.
 * @list: on sbi->orphans, under sbi->inode_lock.
 * @ino: its inode number.
 */
struct f2fs_orphan {
	struct list_head list;
	u32 ino;
};

/**
 * struct f2fs_wbatch - adjacent blocks of one writeback pass, one bio per
 *	log (a pass writes to several logs at once: the checkpoint's node
 *	flush takes directory inodes to the hot node log and file inodes to
 *	the warm one, and one bio for both would break at every switch).
 *	It lives on the stack of the pass; every field belongs to that task.
 * @log: per log type:
 * @log.bio: the bio being filled, or NULL.
 * @log.next_blk: the block that may join it next.
 * @log.epoch: the write epoch of its blocks (one bio, one epoch).
 * @log.max_bytes: the largest bio the device takes whole, read from its
 *	queue when @log.bio was made.
 * @unplug: the callback registered on the task's block plug while any
 *	@log.bio is held, or NULL: if the task sleeps, it sends the bios (see
 *	f2fs_batch_write()).
 */
struct f2fs_wbatch {
	struct {
		struct bio *bio;
		u32 next_blk;
		unsigned int epoch;
		unsigned int max_bytes;
	} log[F2FS_NR_LOGS];
	struct f2fs_unplug *unplug;
};

/*
 * i_advise bits of the format: the cold and hot advice (data.c), and
 * blocks preallocated past i_size (falloc.c; recovery then keeps the size).
 */
#define F2FS_FADVISE_COLD	0x01
#define F2FS_FADVISE_KEEP_SIZE	0x10
#define F2FS_FADVISE_HOT	0x20

/**
 * struct f2fs_inode_info - in-memory inode.
 * @vfs_inode: the VFS inode.
 * @i_flags: on-disk i_flags (FS_*_FL bits; changed by fileattr_set under
 *	the inode lock, read locklessly).
 * @i_advise: on-disk i_advise (cold bit etc.).
 * @i_inline: on-disk i_inline flags.
 * @i_dir_level: dentry level offset for large directories.
 * @i_current_depth: number of hash levels of a directory.
 * @i_pino: parent inode number.
 * @i_xattr_nid: node holding the out-of-inode xattrs.
 * @i_extra_isize: extra attribute bytes (0 without F2FS_EXTRA_ATTR).
 * @i_inline_xattr_addrs: inline xattr size in 4-byte units.
 * @i_crtime: creation time when the image records it.
 * @i_xattr_sem: orders readers and writers of the xattr list (the inline
 *	area and the xattr node); @i_xattr_nid changes under it too (xattr.c).
 * @ext_lock: protects @ext.
 * @ext: the largest extent of the file, in memory (fofs, blk, len).
 * @dirty_list: on sbi->dirty_inodes while @meta_dirty (sbi->inode_lock).
 * @meta_dirty: in-memory fields not yet copied to the node page
 *	(sbi->inode_lock).
 * @dirty_dir_list: on sbi->dirty_dirs while @dir_dirty (sbi->inode_lock).
 * @dir_dirty: a directory with dentry pages not yet written.
 * @need_cp_ver: checkpoint version current when the inode was linked,
 *	renamed, shrunk or converted from inline data: until the next
 *	checkpoint, fsync must write a checkpoint (roll-forward cannot
 *	replay those changes).
 * @dent_rec_ver: checkpoint version current when an fsync record last
 *	wrote the inode block with the dentry mark (under sbi->cp_rwsem held
 *	shared by the fsync; a checkpoint changes the version): until the
 *	next checkpoint, recovery finds that block in the chain, so later
 *	records need not carry the mark again.
 *
 * @cp_busy: a checkpoint took the inode off one of the lists and is
 *	writing it (sbi->inode_lock; set only under sbi->cp_rwsem held
 *	exclusively).
 *
 * A checkpoint uses the inodes it takes off the lists without taking
 * references: the eviction of a linked inode (f2fs_evict_inode(), without
 * cp_rwsem, so that reclaim frees inodes while a checkpoint that may
 * itself wait for memory holds it) waits while @cp_busy, and other
 * entries leave the lists only under sbi->cp_rwsem.
 *
 * The other fields change under the inode's i_rwsem (and, for directory
 * depth, the directory's i_rwsem), with sbi->cp_rwsem held shared.
 * @rec_seq: nm.fsync_seq when the inode's last durable record with its
 *	inode block began: its node blocks dirtied up to then are in it
 *	(sbi->inode_lock; node.c, changed_since_record()).
 * @rec_iseq: the stamp of the inode block that record wrote, in
 *	nm.fsync_inodes (sbi->inode_lock).
 * @wr_first: first block that the buffered write in progress reserved
 *	before its copy (i_rwsem; f2fs_reserve_write()).
 * @wr_end: the block after the last one it reserved: f2fs_write_begin()
 *	takes no node lock for [@wr_first, @wr_end).  Both are 0 outside
 *	f2fs_file_write_iter().
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
	struct rw_semaphore i_xattr_sem;	/* xattr list, @i_xattr_nid */
	rwlock_t ext_lock;
	struct {
		u32 fofs;
		u32 blk;
		u32 len;
	} ext;
	struct list_head dirty_list;
	bool meta_dirty;
	struct list_head dirty_dir_list;
	bool dir_dirty;
	bool cp_busy;
	u64 need_cp_ver;
	u64 dent_rec_ver;
	u64 rec_seq;
	u64 rec_iseq;
	u64 wr_first;
	u64 wr_end;
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

/*
 * i_blocks changes under inode->i_lock, as inode_add_bytes() does it: node
 * creation and block charges run under different node page locks (writeback
 * and a writer, a page fault and a writer).
 */
static inline void f2fs_i_blocks_add(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	inode->i_blocks += F2FS_BLKSIZE >> 9;
	spin_unlock(&inode->i_lock);
}

static inline void f2fs_i_blocks_sub(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	if (inode->i_blocks >= (F2FS_BLKSIZE >> 9))
		inode->i_blocks -= F2FS_BLKSIZE >> 9;
	spin_unlock(&inode->i_lock);
}

static inline unsigned int f2fs_cp_dirty_nats(struct f2fs_sb_info *sbi)
{
	return max_t(unsigned int, F2FS_CP_DIRTY_NATS_MIN,
		     sbi->nm.max_nid / 100 * F2FS_CP_DIRTY_NATS_PCT);
}

static inline bool f2fs_has_feature(struct f2fs_sb_info *sbi, u32 mask)
{
	return (sbi->features & mask) != 0;
}

static inline bool f2fs_opt(struct f2fs_sb_info *sbi, u32 flag)
{
	return READ_ONCE(sbi->opt.flags) & flag;
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

/* The on-disk a/c/m times: seconds and nanoseconds in separate fields. */
static inline void f2fs_time_from_disk(struct timespec64 *t, __le64 sec,
				       __le32 nsec)
{
	t->tv_sec = le64_to_cpu(sec);
	t->tv_nsec = le32_to_cpu(nsec);
}

/* Is blkaddr a real block of the main area? */
static inline bool f2fs_valid_main_addr(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	return blkaddr >= sbi->main_blkaddr && blkaddr < sbi->max_blkaddr;
}

/*
 * Only regular files keep a largest extent (i_ext), as in the stock
 * module, which drops (and rewrites) the extent of any other inode.
 */
static inline bool f2fs_may_extent(struct inode *inode)
{
	return S_ISREG(inode->i_mode);
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

/*
 * A write failed on this mount (or a checkpoint did): nothing written from
 * now on can become durable, so writers stop quietly; the first failure
 * logged one message, the checkpoint that stops writes another.
 */
static inline bool f2fs_writes_failed(struct f2fs_sb_info *sbi)
{
	return atomic_read(&sbi->wb_error) || READ_ONCE(sbi->stopped);
}

static inline bool f2fs_inline_data(struct inode *inode)
{
	return F2FS_I(inode)->i_inline & F2FS_INLINE_DATA;
}

static inline bool f2fs_inline_dentry(struct inode *inode)
{
	return F2FS_I(inode)->i_inline & F2FS_INLINE_DENTRY;
}

/*
 * Corruption found in a cached block (node, inode or dentry block) is
 * reported once: the page stays cached and is met again on every access
 * (readahead alone may map a block twice), and each access fails, but only
 * the first one logs.  PG_checked marks a page whose corruption was
 * reported.
 */
static inline bool f2fs_report_once(struct page *page)
{
	if (PageChecked(page))
		return false;
	SetPageChecked(page);
	return true;
}

/* Node footer helpers. */
static inline u32 f2fs_node_ofs(const struct f2fs_node *rn)
{
	return le32_to_cpu(rn->footer.flag) >> OFFSET_BIT_SHIFT;
}

static inline bool f2fs_node_is_dnode(const struct f2fs_node *rn)
{
	u32 ofs = f2fs_node_ofs(rn);

	/* Indirect nodes sit at offsets 3, 4 + 1018 and 5 + 2 * 1018 and up. */
	if (ofs == 3 || ofs == 4 + NIDS_PER_BLOCK || ofs == 5 + 2 * NIDS_PER_BLOCK)
		return false;
	if (ofs >= 6 + 2 * NIDS_PER_BLOCK) {
		ofs -= 6 + 2 * NIDS_PER_BLOCK;
		if (!(ofs % (NIDS_PER_BLOCK + 1)))
			return false;
	}
	return true;
}

static inline bool f2fs_node_is_cold(const struct f2fs_node *rn)
{
	return le32_to_cpu(rn->footer.flag) & BIT(COLD_BIT_SHIFT);
}

static inline void f2fs_set_bit_msb(unsigned int nr, u8 *map)
{
	map[nr >> 3] |= 0x80 >> (nr & 7);
}

static inline void f2fs_clear_bit_msb(unsigned int nr, u8 *map)
{
	map[nr >> 3] &= ~(0x80 >> (nr & 7));
}

static inline void f2fs_change_bit_msb(unsigned int nr, u8 *map)
{
	map[nr >> 3] ^= 0x80 >> (nr & 7);
}

/* f2fs_get_node_page() offset that accepts whatever the footer says. */
#define F2FS_ANY_NOFS	U32_MAX

static inline struct f2fs_seg_entry *f2fs_seg_entry(struct f2fs_sb_info *sbi,
						    u32 segno)
{
	return &sbi->sm.sentries[segno];
}

/* Is @segno one of the logs' current segments?  Under sm.seg_lock. */
static inline bool f2fs_is_curseg(struct f2fs_sb_info *sbi, u32 segno)
{
	unsigned int i;

	for (i = 0; i < F2FS_NR_LOGS; i++)
		if (sbi->curseg[i].segno == segno)
			return true;
	return false;
}

static inline u32 f2fs_seg_of(struct f2fs_sb_info *sbi, u32 blkaddr)
{
	return (blkaddr - sbi->main_blkaddr) >> sbi->log_blocks_per_seg;
}

static inline u32 f2fs_seg_blkaddr(struct f2fs_sb_info *sbi, u32 segno)
{
	return sbi->main_blkaddr + (segno << sbi->log_blocks_per_seg);
}

static inline u64 f2fs_now_elapsed(struct f2fs_sb_info *sbi)
{
	return sbi->sm.mount_elapsed + ktime_get_boottime_seconds() -
	       sbi->sm.mount_time;
}

/*
 * Fold a log type onto the logs in use, as the design maps them: with four
 * logs, directory data stays hot and other data goes cold, and direct nodes
 * of files stay warm while the rest goes cold; with two, all data is hot
 * data and all nodes are hot nodes.
 */
static inline enum f2fs_log_type f2fs_active_log(struct f2fs_sb_info *sbi,
						 enum f2fs_log_type t)
{
	if (sbi->opt.active_logs == 2)
		return t < F2FS_LOG_HOT_NODE ? F2FS_LOG_HOT_DATA :
					       F2FS_LOG_HOT_NODE;
	if (sbi->opt.active_logs == 4) {
		if (t == F2FS_LOG_WARM_DATA)
			return F2FS_LOG_COLD_DATA;
		if (t == F2FS_LOG_HOT_NODE)
			return F2FS_LOG_COLD_NODE;
	}
	return t;
}

/*
 * A change that roll-forward recovery cannot replay (a new link, a rename,
 * a shrinking truncate, inline data leaving the inode): fsync of @inode
 * writes a checkpoint until the next one is written anyway.
 */
static inline void f2fs_set_need_cp(struct inode *inode)
{
	F2FS_I(inode)->need_cp_ver = F2FS_I_SB(inode)->cp_ver;
}

/* Operations that change metadata run inside f2fs_lock_op/unlock_op. */
static inline void f2fs_lock_op(struct f2fs_sb_info *sbi)
{
	down_read(&sbi->cp_rwsem);
}

static inline void f2fs_unlock_op(struct f2fs_sb_info *sbi)
{
	up_read(&sbi->cp_rwsem);
}

/* Writeback may run inside a checkpoint, which holds cp_rwsem already. */
static inline bool f2fs_in_checkpoint(struct f2fs_sb_info *sbi)
{
	return READ_ONCE(sbi->cp_task) == current;
}

/**
 * struct f2fs_dnode - where one file block's address lives.
 * @inode: the file.
 * @page: the locked node page holding the address (inode or direct node).
 * @nid: that node's nid.
 * @slot: index of the address in the node's address array.
 * @addrs: the node's address array (i_addr past the extra area, or
 *	dn.addr).
 * @nr_addrs: entries in @addrs.
 * @base: file block index of @addrs[0].
 */
struct f2fs_dnode {
	struct inode *inode;
	struct page *page;
	u32 nid;
	unsigned int slot;
	__le32 *addrs;
	unsigned int nr_addrs;
	u64 base;
};

/**
 * struct f2fs_dentry_view - one dentry area, block or inline, seen alike.
 * @max: number of slots.
 * @bitmap: slot validity bitmap (little-endian bit order).
 * @dentry: slot entries.
 * @names: slot names, F2FS_SLOT_LEN bytes each.
 * @page: the page holding the area (for f2fs_report_once()).
 */
struct f2fs_dentry_view {
	struct page *page;
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

/* f2fs_err() about corruption in a cached page, once per page. */
#define f2fs_err_page(sbi, page, fmt, ...)				\
	do {								\
		if (f2fs_report_once(page))				\
			f2fs_err(sbi, fmt, ##__VA_ARGS__);		\
	} while (0)

/* super.c */
extern struct kmem_cache *f2fs_inode_cachep;

/* debug.c */
void f2fs_debugfs_init(void);
void f2fs_debugfs_exit(void);
void f2fs_debugfs_register(struct f2fs_sb_info *sbi);
void f2fs_debugfs_unregister(struct f2fs_sb_info *sbi);

/* procfs.c */
void f2fs_proc_init(void);
void f2fs_proc_exit(void);
void f2fs_proc_register(struct f2fs_sb_info *sbi);
void f2fs_proc_unregister(struct f2fs_sb_info *sbi);

/* checkpoint.c */
struct page *f2fs_get_meta_page(struct f2fs_sb_info *sbi, u32 blkaddr);
int f2fs_write_meta_block(struct f2fs_sb_info *sbi, u32 blkaddr,
			  const void *buf, blk_opf_t flags);
void f2fs_queue_meta_page(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
			  struct page *page, blk_opf_t flags);
int f2fs_queue_meta_block(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
			  u32 blkaddr, const void *buf);
int f2fs_write_checkpoint(struct f2fs_sb_info *sbi, enum f2fs_cp_reason why);
void f2fs_periodic_cp(struct work_struct *work);
void f2fs_start_periodic_cp(struct f2fs_sb_info *sbi);
void f2fs_stop_periodic_cp(struct f2fs_sb_info *sbi);
int f2fs_add_orphan(struct f2fs_sb_info *sbi, u32 ino);
void f2fs_remove_orphan(struct f2fs_sb_info *sbi, u32 ino);
int f2fs_recover_orphans(struct f2fs_sb_info *sbi);
void f2fs_free_orphans(struct f2fs_sb_info *sbi);
int f2fs_read_meta_blocks(struct f2fs_sb_info *sbi, u32 blkaddr, void *buf,
			  unsigned int count);
int f2fs_load_checkpoint(struct f2fs_sb_info *sbi);
extern const struct address_space_operations f2fs_meta_aops;

/* segment.c */
int f2fs_load_cursegs(struct f2fs_sb_info *sbi);
void f2fs_free_cursegs(struct f2fs_sb_info *sbi);
int f2fs_build_sit(struct f2fs_sb_info *sbi);
void f2fs_destroy_sit(struct f2fs_sb_info *sbi);
int f2fs_alloc_block(struct f2fs_sb_info *sbi, enum f2fs_log_type type,
		     const struct f2fs_summary *sum,
		     struct f2fs_block_owner *owner, u32 *blkaddr,
		     u32 *next_blkaddr);
void f2fs_invalidate_block(struct f2fs_sb_info *sbi, u32 blkaddr);
bool f2fs_space_low(struct f2fs_sb_info *sbi);
bool f2fs_space_short(struct f2fs_sb_info *sbi);
unsigned int f2fs_dirty_need_segs(struct f2fs_sb_info *sbi);
unsigned int f2fs_gc_room_segs(struct f2fs_sb_info *sbi);
int f2fs_flush_sit(struct f2fs_sb_info *sbi, struct f2fs_wbatch *batch);
void f2fs_sit_checkpointed(struct f2fs_sb_info *sbi);
void f2fs_discard_prefree(struct f2fs_sb_info *sbi);
unsigned int f2fs_free_segments(struct f2fs_sb_info *sbi);
void f2fs_submit_write(struct f2fs_sb_info *sbi, struct page *page,
		       u32 blkaddr, blk_opf_t flags, unsigned int epoch);
void f2fs_batch_write(struct f2fs_sb_info *sbi, struct f2fs_wbatch *b,
		      struct page *page, u32 blkaddr, blk_opf_t flags,
		      unsigned int epoch, enum f2fs_log_type type);
void f2fs_batch_submit(struct f2fs_wbatch *b);
unsigned int f2fs_count_in_flight(struct f2fs_sb_info *sbi, bool chain);
void f2fs_write_staged_summaries(struct f2fs_sb_info *sbi);
int f2fs_create_batch_wq(void);
void f2fs_destroy_batch_wq(void);
void f2fs_init_failed_writes(struct f2fs_sb_info *sbi);
void f2fs_flush_failed_writes(struct f2fs_sb_info *sbi);
void f2fs_wait_writes(struct f2fs_sb_info *sbi);
void f2fs_wait_epoch(struct f2fs_sb_info *sbi);
int f2fs_claim_block(struct f2fs_sb_info *sbi, u32 blkaddr,
		     enum f2fs_log_type type, const struct f2fs_summary *sum);
void f2fs_hold_segment(struct f2fs_sb_info *sbi, u32 segno);
int f2fs_move_log(struct f2fs_sb_info *sbi, enum f2fs_log_type type);

/* gc.c */
unsigned int f2fs_free_sections(struct f2fs_sb_info *sbi);
bool f2fs_need_gc(struct f2fs_sb_info *sbi);
int f2fs_gc(struct f2fs_sb_info *sbi, enum f2fs_gc_type type);
int f2fs_make_room(struct f2fs_sb_info *sbi);
int f2fs_balance_fs(struct f2fs_sb_info *sbi);
void f2fs_wake_cleaner(struct f2fs_sb_info *sbi);
int f2fs_start_gc_thread(struct f2fs_sb_info *sbi);
void f2fs_stop_gc_thread(struct f2fs_sb_info *sbi);
int f2fs_init_gc(struct f2fs_sb_info *sbi);
void f2fs_destroy_gc(struct f2fs_sb_info *sbi);

/* node.c */
int f2fs_init_node_manager(struct f2fs_sb_info *sbi);
void f2fs_destroy_node_manager(struct f2fs_sb_info *sbi);
int f2fs_register_nat_shrinker(struct f2fs_sb_info *sbi);
int f2fs_get_node_info(struct f2fs_sb_info *sbi, u32 nid,
		       struct f2fs_nat_cached *ni);
struct page *f2fs_get_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				u32 ofs);
struct page *f2fs_get_gc_node_page(struct f2fs_sb_info *sbi,
				   const struct f2fs_nat_cached *seen);
unsigned int f2fs_ra_node_pages(struct f2fs_sb_info *sbi, const u32 *nids,
				unsigned int n);
unsigned int f2fs_ra_node_siblings(struct f2fs_sb_info *sbi,
				   const __le32 *nids, unsigned int slot);
int f2fs_create_nat_cache(void);
void f2fs_destroy_nat_cache(void);
int f2fs_alloc_nid(struct f2fs_sb_info *sbi, u32 ino, u32 *nid);
void f2fs_alloc_nid_failed(struct f2fs_sb_info *sbi, u32 nid);
void f2fs_set_node_addr(struct f2fs_sb_info *sbi, u32 nid, u32 blkaddr);
struct page *f2fs_new_node_page(struct inode *inode, u32 nid, u32 ofs);
void f2fs_free_node(struct inode *inode, u32 nid);
int f2fs_flush_nat(struct f2fs_sb_info *sbi, struct f2fs_wbatch *batch);
int f2fs_init_free_nids(struct f2fs_sb_info *sbi);
int f2fs_sync_node_pages(struct f2fs_sb_info *sbi);
void f2fs_relieve_nodes(struct f2fs_sb_info *sbi);
u32 f2fs_next_free_nid(struct f2fs_sb_info *sbi);
int f2fs_move_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 blkaddr);
bool f2fs_nid_checkpointed(struct f2fs_sb_info *sbi, u32 nid);
int f2fs_fsync_node_pages(struct inode *inode, bool datasync);
int f2fs_recover_inode_page(struct f2fs_sb_info *sbi, const struct f2fs_node *src);
void f2fs_drop_recovered_inode(struct f2fs_sb_info *sbi, u32 ino);
extern const struct address_space_operations f2fs_node_aops;

/* recovery.c */
int f2fs_read_main_blocks(struct f2fs_sb_info *sbi, u32 blkaddr,
			  struct page **pages, unsigned int count);
int f2fs_read_main_block(struct f2fs_sb_info *sbi, u32 blkaddr,
			 struct page *page);
u64 f2fs_chain_ver(struct f2fs_sb_info *sbi);
int f2fs_roll_forward_pending(struct f2fs_sb_info *sbi, unsigned int *inodes);
int f2fs_recover_fsync_data(struct f2fs_sb_info *sbi);

/* inode.c */
struct inode *f2fs_iget(struct super_block *sb, unsigned long ino);
struct inode *f2fs_iget_gc(struct super_block *sb, unsigned long ino);
struct inode *f2fs_iget_orphan(struct super_block *sb, unsigned long ino);
struct inode *f2fs_new_inode(struct inode *dir, umode_t mode,
			     const struct qstr *name);
int f2fs_update_inode(struct inode *inode);
bool f2fs_inode_fields_written(struct inode *inode);
bool f2fs_inode_block_current(struct inode *inode, bool datasync);
int f2fs_set_inode_name(struct inode *inode, const struct qstr *name);
void f2fs_mark_meta_dirty(struct inode *inode);
int f2fs_sync_dirty_inodes(struct f2fs_sb_info *sbi);
void f2fs_evict_inode(struct inode *inode);
void f2fs_dirty_inode(struct inode *inode, int flags);
int f2fs_write_inode(struct inode *inode, struct writeback_control *wbc);

/* data.c */
int f2fs_map_blocks(struct inode *inode, u64 index, u32 max, u32 *blkaddr);
int f2fs_submit_page_read(struct f2fs_sb_info *sbi, struct page *page,
			  u32 blkaddr);
void f2fs_read_end_io(struct bio *bio);
int f2fs_get_dnode(struct inode *inode, u64 index, bool create,
		   struct f2fs_dnode *dn);
void f2fs_put_dnode(struct f2fs_dnode *dn);
int f2fs_reserve_block(struct inode *inode, u64 index);
void f2fs_reserve_write(struct inode *inode, loff_t pos, size_t count);
int f2fs_reserve_write_end(struct inode *inode);
int f2fs_charge_data_block(struct inode *inode);
void f2fs_uncharge_data_block(struct inode *inode);
void f2fs_free_data_addr(struct inode *inode, __le32 *addr, u64 fofs);
int f2fs_truncate_blocks(struct inode *inode, u64 from);
int f2fs_convert_inline_data(struct inode *inode);
int f2fs_truncate_inline_data(struct inode *inode, loff_t size);
int f2fs_lookup_addr(struct inode *inode, u64 index, u32 *blkaddr);
u64 f2fs_start_index(struct inode *inode, u32 nofs);
int f2fs_move_data_page(struct inode *inode, u64 index);
struct page *f2fs_get_new_data_page(struct inode *inode, u64 index);
int f2fs_recover_data_block(struct inode *inode, u64 index, u32 blkaddr);
void f2fs_extent_update(struct inode *inode, u64 fofs, u32 blkaddr);
struct page *f2fs_get_locked_node(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				  u32 ofs);
void f2fs_set_file_temperature(struct inode *inode, const struct qstr *name);
extern const struct vm_operations_struct f2fs_file_vm_ops;
extern const struct address_space_operations f2fs_data_aops;

/* hash.c */
__le32 f2fs_dentry_hash(const u8 *name, unsigned int len);

/* dir.c */
struct f2fs_dir_entry *f2fs_find_entry(struct inode *dir,
				       const struct qstr *name,
				       struct page **res_page);
unsigned char f2fs_ftype_to_dtype(u8 ftype);
int f2fs_add_link(struct inode *dir, const struct qstr *name,
		  struct inode *inode);
void f2fs_delete_entry(struct inode *dir, struct f2fs_dir_entry *de,
		       struct page *page);
void f2fs_set_link(struct inode *dir, struct f2fs_dir_entry *de,
		   struct page *page, struct inode *inode);
int f2fs_make_empty(struct inode *dir, struct inode *parent);
bool f2fs_empty_dir(struct inode *dir);
struct f2fs_dir_entry *f2fs_parent_entry(struct inode *dir,
					 struct page **res_page);
int f2fs_convert_inline_dir(struct inode *dir);
extern const struct file_operations f2fs_dir_operations;

/* namei.c: the operations of directories, symlinks and device nodes */
extern const struct inode_operations f2fs_special_inode_operations;
extern const struct inode_operations f2fs_symlink_inode_operations; /* page links */
extern const struct inode_operations f2fs_dir_inode_operations;

/* file.c: regular files */
extern const struct inode_operations f2fs_file_inode_operations;
extern const struct file_operations f2fs_file_operations; /* buffered, mmap, O_DIRECT */
int f2fs_getattr(struct user_namespace *mnt_userns, const struct path *path,
		 struct kstat *stat, u32 request_mask, unsigned int flags);
int f2fs_setattr(struct user_namespace *mnt_userns, struct dentry *dentry,
		 struct iattr *attr);
int f2fs_sync_file(struct file *file, loff_t start, loff_t end,
		   int datasync); /* fsync and fdatasync of files and directories */

/* ioctl.c */
struct fileattr;
void f2fs_set_inode_flags(struct inode *inode, u32 flags);
int f2fs_fileattr_get(struct dentry *dentry, struct fileattr *fa); /* lsattr */
int f2fs_fileattr_set(struct user_namespace *mnt_userns,
		      struct dentry *dentry, struct fileattr *fa);
long f2fs_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
long f2fs_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* export.c */
struct export_operations;
extern const struct export_operations f2fs_export_ops;

/* falloc.c */
struct fiemap_extent_info;
struct swap_info_struct;
long f2fs_fallocate(struct file *file, int mode, loff_t offset, loff_t len);
loff_t f2fs_llseek(struct file *file, loff_t offset, int whence);
int f2fs_fiemap(struct inode *inode, struct fiemap_extent_info *fieinfo,
		u64 start, u64 len);
sector_t f2fs_bmap(struct address_space *mapping, sector_t block);
int f2fs_swap_activate(struct swap_info_struct *sis, struct file *file,
		       sector_t *span);
void f2fs_swap_deactivate(struct file *file);
int f2fs_truncate_same_size(struct inode *inode);

#endif /* _F2FS_LOCAL_H */
