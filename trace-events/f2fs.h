/* SPDX-License-Identifier: GPL-2.0 */
/*
 * f2fs.h - trace events of our f2fs module (TRACE_SYSTEM f2fs).
 *
 * The events answer questions about the filesystem directly, rather than
 * mirroring its functions: how each log consumes space, what cleaning
 * costs, where a checkpoint spends its time, how much metadata each
 * checkpoint writes, how well the extent cache works, and where the time
 * of a cold "du" goes.  trace-events/README.md documents every field; the
 * BPF tools read these records by their format files, so fields are only
 * ever added at the end of an event.
 *
 * Every event begins with "dev" (the device, printed as "dev = (major,
 * minor)") and, where the event concerns one inode, "ino".  Enums are
 * exported with TRACE_DEFINE_ENUM and printed by name.  Times are in ns.
 *
 * The module compiles this header with CREATE_TRACE_POINTS in exactly one
 * file (fs-f2fs/trace.c); fs-f2fs/Kbuild puts this folder on the include
 * path so that <trace/define_trace.h> finds it again as "./f2fs.h".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM f2fs

#if !defined(_F2FS_OBS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _F2FS_OBS_TRACE_H

#include <linux/tracepoint.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include "../fs-f2fs/f2fs.h"

TRACE_DEFINE_ENUM(F2FS_LOG_HOT_DATA);
TRACE_DEFINE_ENUM(F2FS_LOG_WARM_DATA);
TRACE_DEFINE_ENUM(F2FS_LOG_COLD_DATA);
TRACE_DEFINE_ENUM(F2FS_LOG_HOT_NODE);
TRACE_DEFINE_ENUM(F2FS_LOG_WARM_NODE);
TRACE_DEFINE_ENUM(F2FS_LOG_COLD_NODE);
TRACE_DEFINE_ENUM(F2FS_GC_FG);
TRACE_DEFINE_ENUM(F2FS_GC_BG);
TRACE_DEFINE_ENUM(F2FS_GC_GREEDY);
TRACE_DEFINE_ENUM(F2FS_GC_COST_BENEFIT);
TRACE_DEFINE_ENUM(F2FS_CP_UMOUNT);
TRACE_DEFINE_ENUM(F2FS_CP_SYNC);
TRACE_DEFINE_ENUM(F2FS_CP_FSYNC);
TRACE_DEFINE_ENUM(F2FS_CP_SPACE);
TRACE_DEFINE_ENUM(F2FS_CP_REMOUNT);
TRACE_DEFINE_ENUM(F2FS_CP_RECOVERY);
TRACE_DEFINE_ENUM(F2FS_CP_PERIODIC);
TRACE_DEFINE_ENUM(F2FS_NAT_CACHE);
TRACE_DEFINE_ENUM(F2FS_NAT_JOURNAL);
TRACE_DEFINE_ENUM(F2FS_NAT_BLOCK);
TRACE_DEFINE_ENUM(F2FS_NODE_READ_SYNC);
TRACE_DEFINE_ENUM(F2FS_NODE_READ_RA);
TRACE_DEFINE_ENUM(F2FS_FSYNC_RECORD);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_NOT_FILE);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_LINKS);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_CHANGED);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_NEW_DIR);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_SPACE);
TRACE_DEFINE_ENUM(F2FS_FSYNC_CP_WB_KEPT);
TRACE_DEFINE_ENUM(F2FS_FSYNC_UNCHANGED);
TRACE_DEFINE_ENUM(F2FS_WRITE_DATA);
TRACE_DEFINE_ENUM(F2FS_WRITE_GC);
TRACE_DEFINE_ENUM(F2FS_WRITE_NODE);

#define show_f2fs_write_cause(c)					\
	__print_symbolic(c,						\
		{ F2FS_WRITE_DATA,	"DATA" },			\
		{ F2FS_WRITE_GC,	"GC" },				\
		{ F2FS_WRITE_NODE,	"NODE" })

#define show_f2fs_fsync_kind(k)						\
	__print_symbolic(k,						\
		{ F2FS_FSYNC_RECORD,	  "RECORD" },			\
		{ F2FS_FSYNC_CP_NOT_FILE, "CP_NOT_FILE" },		\
		{ F2FS_FSYNC_CP_LINKS,	  "CP_LINKS" },			\
		{ F2FS_FSYNC_CP_CHANGED,  "CP_CHANGED" },		\
		{ F2FS_FSYNC_CP_NEW_DIR,  "CP_NEW_DIR" },		\
		{ F2FS_FSYNC_CP_SPACE,	  "CP_SPACE" },		\
		{ F2FS_FSYNC_CP_WB_KEPT,  "CP_WB_KEPT" },		\
		{ F2FS_FSYNC_UNCHANGED,	  "UNCHANGED" })

#define show_f2fs_log(t)						\
	__print_symbolic(t,						\
		{ F2FS_LOG_HOT_DATA,	"HOT_DATA" },			\
		{ F2FS_LOG_WARM_DATA,	"WARM_DATA" },			\
		{ F2FS_LOG_COLD_DATA,	"COLD_DATA" },			\
		{ F2FS_LOG_HOT_NODE,	"HOT_NODE" },			\
		{ F2FS_LOG_WARM_NODE,	"WARM_NODE" },			\
		{ F2FS_LOG_COLD_NODE,	"COLD_NODE" })

#define show_f2fs_alloc_mode(m)						\
	__print_symbolic(m,						\
		{ F2FS_ALLOC_LFS,	"LFS" },			\
		{ F2FS_ALLOC_SSR,	"SSR" })

#define show_f2fs_gc_type(t)						\
	__print_symbolic(t,						\
		{ F2FS_GC_FG,		"FG" },				\
		{ F2FS_GC_BG,		"BG" })

#define show_f2fs_gc_policy(p)						\
	__print_symbolic(p,						\
		{ F2FS_GC_GREEDY,	"GREEDY" },			\
		{ F2FS_GC_COST_BENEFIT,	"COST_BENEFIT" })

#define show_f2fs_cp_reason(r)						\
	__print_symbolic(r,						\
		{ F2FS_CP_UMOUNT,	"UMOUNT" },			\
		{ F2FS_CP_SYNC,		"SYNC" },			\
		{ F2FS_CP_FSYNC,	"FSYNC" },			\
		{ F2FS_CP_SPACE,	"SPACE" },			\
		{ F2FS_CP_REMOUNT,	"REMOUNT" },			\
		{ F2FS_CP_RECOVERY,	"RECOVERY" },			\
		{ F2FS_CP_PERIODIC,	"PERIODIC" })

#define show_f2fs_nat_source(s)						\
	__print_symbolic(s,						\
		{ F2FS_NAT_CACHE,	"CACHE" },			\
		{ F2FS_NAT_JOURNAL,	"JOURNAL" },			\
		{ F2FS_NAT_BLOCK,	"BLOCK" })

#define show_f2fs_node_read(k)						\
	__print_symbolic(k,						\
		{ F2FS_NODE_READ_SYNC,	"SYNC" },			\
		{ F2FS_NODE_READ_RA,	"READAHEAD" })

/* ---- Segment allocation ------------------------------------------------ */

TRACE_EVENT(f2fs_segment_alloc,
	TP_PROTO(struct super_block *sb, int log_type, unsigned int old_segno,
		 unsigned int new_segno, unsigned int old_secno,
		 unsigned int new_secno, int mode, unsigned int free_segs),
	TP_ARGS(sb, log_type, old_segno, new_segno, old_secno, new_secno,
		mode, free_segs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, log_type)
		__field(unsigned int, old_segno)
		__field(unsigned int, new_segno)
		__field(unsigned int, old_secno)
		__field(unsigned int, new_secno)
		__field(int, mode)
		__field(unsigned int, free_segs)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->log_type = log_type;
		__entry->old_segno = old_segno;
		__entry->new_segno = new_segno;
		__entry->old_secno = old_secno;
		__entry->new_secno = new_secno;
		__entry->mode = mode;
		__entry->free_segs = free_segs;
	),
	TP_printk("dev = (%d,%d), log = %s, segno %u -> %u, secno %u -> %u, mode = %s, free_segs = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_log(__entry->log_type),
		  __entry->old_segno, __entry->new_segno,
		  __entry->old_secno, __entry->new_secno,
		  show_f2fs_alloc_mode(__entry->mode), __entry->free_segs)
);

/*
 * Slack space recycling chose a dirty segment for a log: a victim
 * selection like GC's, but its valid blocks stay where they are and the
 * log fills its holes.
 */
TRACE_EVENT(f2fs_ssr_victim,
	TP_PROTO(struct super_block *sb, int log_type, unsigned int segno,
		 int seg_type, unsigned int valid_blocks,
		 unsigned int reusable_blocks, unsigned int nr_scanned,
		 u64 search_ns),
	TP_ARGS(sb, log_type, segno, seg_type, valid_blocks, reusable_blocks,
		nr_scanned, search_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, log_type)
		__field(unsigned int, segno)
		__field(int, seg_type)
		__field(unsigned int, valid_blocks)
		__field(unsigned int, reusable_blocks)
		__field(unsigned int, nr_scanned)
		__field(u64, search_ns)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->log_type = log_type;
		__entry->segno = segno;
		__entry->seg_type = seg_type;
		__entry->valid_blocks = valid_blocks;
		__entry->reusable_blocks = reusable_blocks;
		__entry->nr_scanned = nr_scanned;
		__entry->search_ns = search_ns;
	),
	TP_printk("dev = (%d,%d), log = %s, segno = %u, seg_type = %s, valid_blocks = %u, reusable_blocks = %u, nr_scanned = %u, search_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_log(__entry->log_type), __entry->segno,
		  show_f2fs_log(__entry->seg_type), __entry->valid_blocks,
		  __entry->reusable_blocks, __entry->nr_scanned,
		  (unsigned long long)__entry->search_ns)
);

/*
 * One block was handed out to a data or node write: the per-file view of
 * where writes go (which log, LFS or SSR, new or overwrite, moved by GC).
 * Off by default: it fires for every block written.
 */
TRACE_EVENT(f2fs_block_write,
	TP_PROTO(struct super_block *sb, const struct f2fs_block_owner *owner,
		 u32 new_blkaddr, int log_type, int mode),
	TP_ARGS(sb, owner, new_blkaddr, log_type, mode),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(u32, index)
		__field(u32, old_blkaddr)
		__field(u32, new_blkaddr)
		__field(int, log_type)
		__field(int, mode)
		__field(int, cause)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->ino = owner->ino;
		__entry->index = owner->index;
		__entry->old_blkaddr = owner->old_blkaddr;
		__entry->new_blkaddr = new_blkaddr;
		__entry->log_type = log_type;
		__entry->mode = mode;
		__entry->cause = owner->cause;
	),
	TP_printk("dev = (%d,%d), ino = %lu, index = %u, old_blkaddr = 0x%x, new_blkaddr = 0x%x, log = %s, mode = %s, cause = %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __entry->index,
		  __entry->old_blkaddr, __entry->new_blkaddr,
		  show_f2fs_log(__entry->log_type),
		  show_f2fs_alloc_mode(__entry->mode),
		  show_f2fs_write_cause(__entry->cause))
);

/* Segments a checkpoint freed were discarded (mount option discard). */
TRACE_EVENT(f2fs_discard,
	TP_PROTO(struct super_block *sb, unsigned int segno, unsigned int nr_segs),
	TP_ARGS(sb, segno, nr_segs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, segno)
		__field(unsigned int, nr_segs)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->segno = segno;
		__entry->nr_segs = nr_segs;
	),
	TP_printk("dev = (%d,%d), segno = %u, nr_segs = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->segno, __entry->nr_segs)
);

/* ---- Garbage collection (called from gc.c) ------------------------------ */

TRACE_EVENT(f2fs_gc_begin,
	TP_PROTO(struct super_block *sb, int gc_type, unsigned int free_secs,
		 unsigned int prefree_segs, unsigned int dirty_segs),
	TP_ARGS(sb, gc_type, free_secs, prefree_segs, dirty_segs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, gc_type)
		__field(unsigned int, free_secs)
		__field(unsigned int, prefree_segs)
		__field(unsigned int, dirty_segs)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->gc_type = gc_type;
		__entry->free_secs = free_secs;
		__entry->prefree_segs = prefree_segs;
		__entry->dirty_segs = dirty_segs;
	),
	TP_printk("dev = (%d,%d), gc_type = %s, free_secs = %u, prefree_segs = %u, dirty_segs = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_gc_type(__entry->gc_type), __entry->free_secs,
		  __entry->prefree_segs, __entry->dirty_segs)
);

TRACE_EVENT(f2fs_gc_victim,
	TP_PROTO(struct super_block *sb, int gc_type, int policy,
		 unsigned int segno, unsigned int secno,
		 unsigned int valid_blocks, unsigned long long age,
		 unsigned long long cost, unsigned int nr_scanned,
		 u64 search_ns),
	TP_ARGS(sb, gc_type, policy, segno, secno, valid_blocks, age, cost,
		nr_scanned, search_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, gc_type)
		__field(int, policy)
		__field(unsigned int, segno)
		__field(unsigned int, secno)
		__field(unsigned int, valid_blocks)
		__field(unsigned long long, age)
		__field(unsigned long long, cost)
		__field(unsigned int, nr_scanned)
		__field(u64, search_ns)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->gc_type = gc_type;
		__entry->policy = policy;
		__entry->segno = segno;
		__entry->secno = secno;
		__entry->valid_blocks = valid_blocks;
		__entry->age = age;
		__entry->cost = cost;
		__entry->nr_scanned = nr_scanned;
		__entry->search_ns = search_ns;
	),
	TP_printk("dev = (%d,%d), gc_type = %s, policy = %s, segno = %u, secno = %u, valid_blocks = %u, age = %llu, cost = %llu, nr_scanned = %u, search_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_gc_type(__entry->gc_type),
		  show_f2fs_gc_policy(__entry->policy), __entry->segno,
		  __entry->secno, __entry->valid_blocks, __entry->age,
		  __entry->cost, __entry->nr_scanned,
		  (unsigned long long)__entry->search_ns)
);

TRACE_EVENT(f2fs_gc_end,
	TP_PROTO(struct super_block *sb, int gc_type, int ret,
		 unsigned int secs_freed, unsigned int data_moved,
		 unsigned int node_moved, u64 duration_ns,
		 unsigned int free_secs),
	TP_ARGS(sb, gc_type, ret, secs_freed, data_moved, node_moved,
		duration_ns, free_secs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, gc_type)
		__field(int, ret)
		__field(unsigned int, secs_freed)
		__field(unsigned int, data_moved)
		__field(unsigned int, node_moved)
		__field(u64, duration_ns)
		__field(unsigned int, free_secs)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->gc_type = gc_type;
		__entry->ret = ret;
		__entry->secs_freed = secs_freed;
		__entry->data_moved = data_moved;
		__entry->node_moved = node_moved;
		__entry->duration_ns = duration_ns;
		__entry->free_secs = free_secs;
	),
	TP_printk("dev = (%d,%d), gc_type = %s, ret = %d, secs_freed = %u, data_moved = %u, node_moved = %u, duration_ns = %llu, free_secs = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_gc_type(__entry->gc_type), __entry->ret,
		  __entry->secs_freed, __entry->data_moved,
		  __entry->node_moved,
		  (unsigned long long)__entry->duration_ns,
		  __entry->free_secs)
);

/*
 * A writer (or the cleaner thread) found free segments short of what is
 * dirty plus the reserve, and made room: writeback, a checkpoint, then
 * foreground cleaning.  ret is -ENOSPC when even that left no room.
 */
TRACE_EVENT(f2fs_make_room,
	TP_PROTO(struct super_block *sb, unsigned int free_before,
		 unsigned int free_after, unsigned int need_segs, int ret,
		 u64 duration_ns),
	TP_ARGS(sb, free_before, free_after, need_segs, ret, duration_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, free_before)
		__field(unsigned int, free_after)
		__field(unsigned int, need_segs)
		__field(int, ret)
		__field(u64, duration_ns)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->free_before = free_before;
		__entry->free_after = free_after;
		__entry->need_segs = need_segs;
		__entry->ret = ret;
		__entry->duration_ns = duration_ns;
	),
	TP_printk("dev = (%d,%d), free_before = %u, free_after = %u, need_segs = %u, ret = %d, duration_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->free_before, __entry->free_after,
		  __entry->need_segs, __entry->ret,
		  (unsigned long long)__entry->duration_ns)
);

/* ---- Checkpoints --------------------------------------------------------- */

TRACE_EVENT(f2fs_cp_begin,
	TP_PROTO(struct super_block *sb, int reason, u64 cp_ver,
		 unsigned int dirty_nats, unsigned int dirty_sits,
		 unsigned int prefree_segs),
	TP_ARGS(sb, reason, cp_ver, dirty_nats, dirty_sits, prefree_segs),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, reason)
		__field(u64, cp_ver)
		__field(unsigned int, dirty_nats)
		__field(unsigned int, dirty_sits)
		__field(unsigned int, prefree_segs)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->reason = reason;
		__entry->cp_ver = cp_ver;
		__entry->dirty_nats = dirty_nats;
		__entry->dirty_sits = dirty_sits;
		__entry->prefree_segs = prefree_segs;
	),
	TP_printk("dev = (%d,%d), reason = %s, cp_ver = %llu, dirty_nats = %u, dirty_sits = %u, prefree_segs = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_cp_reason(__entry->reason),
		  (unsigned long long)__entry->cp_ver, __entry->dirty_nats,
		  __entry->dirty_sits, __entry->prefree_segs)
);

TRACE_EVENT(f2fs_cp_end,
	TP_PROTO(struct super_block *sb, int reason, u64 cp_ver, int ret,
		 const struct f2fs_cp_phases *ph, unsigned int nat_entries,
		 unsigned int sit_entries),
	TP_ARGS(sb, reason, cp_ver, ret, ph, nat_entries, sit_entries),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, reason)
		__field(u64, cp_ver)
		__field(int, ret)
		__field(u64, total_ns)
		__field(u64, block_ns)
		__field(u64, flush_ns)
		__field(u64, nat_ns)
		__field(u64, sit_ns)
		__field(u64, pack_ns)
		__field(u64, wait_ns)
		__field(unsigned int, nat_entries)
		__field(unsigned int, sit_entries)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->reason = reason;
		__entry->cp_ver = cp_ver;
		__entry->ret = ret;
		__entry->total_ns = ph->total_ns;
		__entry->block_ns = ph->block_ns;
		__entry->flush_ns = ph->flush_ns;
		__entry->nat_ns = ph->nat_ns;
		__entry->sit_ns = ph->sit_ns;
		__entry->pack_ns = ph->pack_ns;
		__entry->wait_ns = ph->wait_ns;
		__entry->nat_entries = nat_entries;
		__entry->sit_entries = sit_entries;
	),
	TP_printk("dev = (%d,%d), reason = %s, cp_ver = %llu, ret = %d, total_ns = %llu, block_ns = %llu, flush_ns = %llu, nat_ns = %llu, sit_ns = %llu, pack_ns = %llu, wait_ns = %llu, nat_entries = %u, sit_entries = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_f2fs_cp_reason(__entry->reason),
		  (unsigned long long)__entry->cp_ver, __entry->ret,
		  (unsigned long long)__entry->total_ns,
		  (unsigned long long)__entry->block_ns,
		  (unsigned long long)__entry->flush_ns,
		  (unsigned long long)__entry->nat_ns,
		  (unsigned long long)__entry->sit_ns,
		  (unsigned long long)__entry->pack_ns,
		  (unsigned long long)__entry->wait_ns,
		  __entry->nat_entries, __entry->sit_entries)
);

/* ---- NAT and SIT flushes --------------------------------------------------- */

DECLARE_EVENT_CLASS(f2fs_journal_flush,
	TP_PROTO(struct super_block *sb, unsigned int journal_before,
		 unsigned int journal_entries, unsigned int block_entries,
		 unsigned int journal_after, unsigned int blocks),
	TP_ARGS(sb, journal_before, journal_entries, block_entries,
		journal_after, blocks),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, journal_before)
		__field(unsigned int, journal_entries)
		__field(unsigned int, block_entries)
		__field(unsigned int, journal_after)
		__field(unsigned int, blocks)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->journal_before = journal_before;
		__entry->journal_entries = journal_entries;
		__entry->block_entries = block_entries;
		__entry->journal_after = journal_after;
		__entry->blocks = blocks;
	),
	TP_printk("dev = (%d,%d), journal_before = %u, journal_entries = %u, block_entries = %u, journal_after = %u, blocks = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->journal_before, __entry->journal_entries,
		  __entry->block_entries, __entry->journal_after,
		  __entry->blocks)
);

DEFINE_EVENT(f2fs_journal_flush, f2fs_nat_flush,
	TP_PROTO(struct super_block *sb, unsigned int journal_before,
		 unsigned int journal_entries, unsigned int block_entries,
		 unsigned int journal_after, unsigned int blocks),
	TP_ARGS(sb, journal_before, journal_entries, block_entries,
		journal_after, blocks)
);

DEFINE_EVENT(f2fs_journal_flush, f2fs_sit_flush,
	TP_PROTO(struct super_block *sb, unsigned int journal_before,
		 unsigned int journal_entries, unsigned int block_entries,
		 unsigned int journal_after, unsigned int blocks),
	TP_ARGS(sb, journal_before, journal_entries, block_entries,
		journal_after, blocks)
);

/* ---- Extent cache ------------------------------------------------------------ */

TRACE_EVENT(f2fs_extent_lookup,
	TP_PROTO(struct inode *inode, u64 fofs, bool hit, u32 ext_fofs,
		 u32 ext_blk, u32 ext_len),
	TP_ARGS(inode, fofs, hit, ext_fofs, ext_blk, ext_len),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(u64, fofs)
		__field(bool, hit)
		__field(u32, ext_fofs)
		__field(u32, ext_blk)
		__field(u32, ext_len)
	),
	TP_fast_assign(
		__entry->dev = inode->i_sb->s_dev;
		__entry->ino = inode->i_ino;
		__entry->fofs = fofs;
		__entry->hit = hit;
		__entry->ext_fofs = hit ? ext_fofs : 0;
		__entry->ext_blk = hit ? ext_blk : 0;
		__entry->ext_len = hit ? ext_len : 0;
	),
	TP_printk("dev = (%d,%d), ino = %lu, fofs = %llu, %s, ext_fofs = %u, ext_blk = %u, ext_len = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino,
		  (unsigned long long)__entry->fofs,
		  __entry->hit ? "hit" : "miss", __entry->ext_fofs,
		  __entry->ext_blk, __entry->ext_len)
);

TRACE_EVENT(f2fs_extent_update,
	TP_PROTO(struct inode *inode, u32 fofs, u32 blk, u32 len),
	TP_ARGS(inode, fofs, blk, len),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(u32, fofs)
		__field(u32, blk)
		__field(u32, len)
	),
	TP_fast_assign(
		__entry->dev = inode->i_sb->s_dev;
		__entry->ino = inode->i_ino;
		__entry->fofs = fofs;
		__entry->blk = blk;
		__entry->len = len;
	),
	TP_printk("dev = (%d,%d), ino = %lu, fofs = %u, blk = %u, len = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __entry->fofs, __entry->blk,
		  __entry->len)
);

/* ---- Metadata read path ------------------------------------------------------ */

TRACE_EVENT(f2fs_nat_lookup,
	TP_PROTO(struct super_block *sb, u32 nid, u32 ino, int source,
		 u32 blkaddr),
	TP_ARGS(sb, nid, ino, source, blkaddr),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(u32, nid)
		__field(int, source)
		__field(u32, blkaddr)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->ino = ino;
		__entry->nid = nid;
		__entry->source = source;
		__entry->blkaddr = blkaddr;
	),
	TP_printk("dev = (%d,%d), ino = %lu, nid = %u, source = %s, blkaddr = %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __entry->nid,
		  show_f2fs_nat_source(__entry->source), __entry->blkaddr)
);

TRACE_EVENT(f2fs_node_read,
	TP_PROTO(struct super_block *sb, u32 nid, u32 ino, u32 blkaddr,
		 int kind),
	TP_ARGS(sb, nid, ino, blkaddr, kind),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(u32, nid)
		__field(u32, blkaddr)
		__field(int, kind)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->ino = ino;
		__entry->nid = nid;
		__entry->blkaddr = blkaddr;
		__entry->kind = kind;
	),
	TP_printk("dev = (%d,%d), ino = %lu, nid = %u, blkaddr = %u, kind = %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __entry->nid, __entry->blkaddr,
		  show_f2fs_node_read(__entry->kind))
);

TRACE_EVENT(f2fs_iget_enter,
	TP_PROTO(struct super_block *sb, unsigned long ino),
	TP_ARGS(sb, ino),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->ino = ino;
	),
	TP_printk("dev = (%d,%d), ino = %lu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino)
);

TRACE_EVENT(f2fs_iget_exit,
	TP_PROTO(struct super_block *sb, unsigned long ino, int ret,
		 bool from_disk, u64 latency_ns),
	TP_ARGS(sb, ino, ret, from_disk, latency_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(int, ret)
		__field(bool, from_disk)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->ino = ino;
		__entry->ret = ret;
		__entry->from_disk = from_disk;
		__entry->latency_ns = latency_ns;
	),
	TP_printk("dev = (%d,%d), ino = %lu, ret = %d, %s, latency_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __entry->ret,
		  __entry->from_disk ? "read" : "cached",
		  (unsigned long long)__entry->latency_ns)
);

TRACE_EVENT(f2fs_lookup_enter,
	TP_PROTO(struct inode *dir, struct dentry *dentry),
	TP_ARGS(dir, dentry),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__string(name, dentry->d_name.name)
	),
	TP_fast_assign(
		__entry->dev = dir->i_sb->s_dev;
		__entry->ino = dir->i_ino;
		__assign_str(name, dentry->d_name.name);
	),
	TP_printk("dev = (%d,%d), ino = %lu, name = %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __get_str(name))
);

TRACE_EVENT(f2fs_lookup_exit,
	TP_PROTO(struct inode *dir, struct dentry *dentry, u32 found_ino,
		 int ret, u64 latency_ns),
	TP_ARGS(dir, dentry, found_ino, ret, latency_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__string(name, dentry->d_name.name)
		__field(u32, found_ino)
		__field(int, ret)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		__entry->dev = dir->i_sb->s_dev;
		__entry->ino = dir->i_ino;
		__assign_str(name, dentry->d_name.name);
		__entry->found_ino = found_ino;
		__entry->ret = ret;
		__entry->latency_ns = latency_ns;
	),
	TP_printk("dev = (%d,%d), ino = %lu, name = %s, found_ino = %u, ret = %d, latency_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, __get_str(name),
		  __entry->found_ino, __entry->ret,
		  (unsigned long long)__entry->latency_ns)
);

TRACE_EVENT(f2fs_readdir_enter,
	TP_PROTO(struct inode *dir, loff_t pos),
	TP_ARGS(dir, pos),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(loff_t, pos)
	),
	TP_fast_assign(
		__entry->dev = dir->i_sb->s_dev;
		__entry->ino = dir->i_ino;
		__entry->pos = pos;
	),
	TP_printk("dev = (%d,%d), ino = %lu, pos = %lld",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, (long long)__entry->pos)
);

TRACE_EVENT(f2fs_readdir_exit,
	TP_PROTO(struct inode *dir, loff_t start_pos, loff_t end_pos, int ret,
		 u64 latency_ns),
	TP_ARGS(dir, start_pos, end_pos, ret, latency_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(loff_t, start_pos)
		__field(loff_t, end_pos)
		__field(int, ret)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		__entry->dev = dir->i_sb->s_dev;
		__entry->ino = dir->i_ino;
		__entry->start_pos = start_pos;
		__entry->end_pos = end_pos;
		__entry->ret = ret;
		__entry->latency_ns = latency_ns;
	),
	TP_printk("dev = (%d,%d), ino = %lu, start_pos = %lld, end_pos = %lld, ret = %d, latency_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, (long long)__entry->start_pos,
		  (long long)__entry->end_pos, __entry->ret,
		  (unsigned long long)__entry->latency_ns)
);

/* ---- fsync and roll-forward recovery ------------------------------------- */

TRACE_EVENT(f2fs_fsync,
	TP_PROTO(struct inode *inode, int kind, int datasync, int ret,
		 u64 duration_ns),
	TP_ARGS(inode, kind, datasync, ret, duration_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(ino_t, ino)
		__field(int, kind)
		__field(int, datasync)
		__field(int, ret)
		__field(u64, duration_ns)
	),
	TP_fast_assign(
		__entry->dev = inode->i_sb->s_dev;
		__entry->ino = inode->i_ino;
		__entry->kind = kind;
		__entry->datasync = datasync;
		__entry->ret = ret;
		__entry->duration_ns = duration_ns;
	),
	TP_printk("dev = (%d,%d), ino = %lu, kind = %s, datasync = %d, ret = %d, duration_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  (unsigned long)__entry->ino, show_f2fs_fsync_kind(__entry->kind),
		  __entry->datasync, __entry->ret,
		  (unsigned long long)__entry->duration_ns)
);

TRACE_EVENT(f2fs_recovery,
	TP_PROTO(struct super_block *sb, unsigned int chain_blocks,
		 unsigned int files, unsigned long data_blocks,
		 unsigned long refused, bool dropped, int ret,
		 u64 duration_ns),
	TP_ARGS(sb, chain_blocks, files, data_blocks, refused, dropped, ret,
		duration_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, chain_blocks)
		__field(unsigned int, files)
		__field(unsigned long, data_blocks)
		__field(unsigned long, refused)
		__field(bool, dropped)
		__field(int, ret)
		__field(u64, duration_ns)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->chain_blocks = chain_blocks;
		__entry->files = files;
		__entry->data_blocks = data_blocks;
		__entry->refused = refused;
		__entry->dropped = dropped;
		__entry->ret = ret;
		__entry->duration_ns = duration_ns;
	),
	TP_printk("dev = (%d,%d), chain_blocks = %u, files = %u, data_blocks = %lu, refused = %lu, dropped = %d, ret = %d, duration_ns = %llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->chain_blocks, __entry->files, __entry->data_blocks,
		  __entry->refused, __entry->dropped, __entry->ret,
		  (unsigned long long)__entry->duration_ns)
);

#endif /* _F2FS_OBS_TRACE_H */

/* This part must be outside the header guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE f2fs
#include <trace/define_trace.h>
