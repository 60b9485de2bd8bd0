// SPDX-License-Identifier: GPL-2.0
/*
 * gc.c - cleaning: choosing victim sections and moving their valid blocks.
 *
 * Logs only ever append, so overwritten and deleted blocks leave holes in
 * segments that no log will write again.  Cleaning turns such dirty
 * sections back into free ones: it picks a victim section, moves the
 * blocks still valid there to a log, and lets the next checkpoint free
 * the section (a block the last checkpoint references is never reused
 * before a new checkpoint, see segment.c).
 *
 * Two cleaners share this code, as in the design:
 *   - foreground GC runs in a writer that finds free sections down to what
 *     the next checkpoint and the reserve need.  It picks the section with
 *     the fewest valid blocks (greedy), moves them, and checkpoints, until
 *     enough sections are free;
 *   - background GC is a per-mount thread that wakes at an interval, and
 *     when the device has been idle and enough space is invalid, cleans one
 *     section chosen by cost-benefit: old sections with few valid blocks
 *     first, so that cold data is compacted and hot data gets time to die.
 *     Its interval grows when there is nothing to do or the device is busy,
 *     and shrinks while it finds work.
 *
 * Victim search is bounded: each policy scans a window of sections that
 * starts where its last search stopped.  Sections chosen as victims are
 * remembered in a bitmap until a checkpoint frees them, so background GC
 * never picks the same section twice and foreground GC finishes them
 * first.  The current segments of the logs are never victims.
 *
 * The owner of each valid block comes from the segment's summary in the
 * SSA, and is checked against the owner's node before anything moves: a
 * data block is moved only while its direct node still points to it, a
 * node block only while the NAT still does.  Data blocks are rewritten
 * through the page cache (data.c), so page locks order GC against writes
 * and truncates of the same file; node blocks are dirtied and rewritten by
 * the checkpoint or writeback (node.c).
 *
 * Locking: sbi->gc.gc_mutex makes passes exclusive; sm.seg_lock covers the
 * victim search and the victim bitmap.  GC takes cp_rwsem only around
 * each block's rewrite, and holds no lock across iget()/iput().
 */
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/writeback.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

/* Background GC intervals, tunable in /sys/module/f2fs/parameters/. */
static unsigned int bg_gc_min_ms = 10000;
module_param(bg_gc_min_ms, uint, 0644);
MODULE_PARM_DESC(bg_gc_min_ms, "shortest background GC interval (ms)");
static unsigned int bg_gc_max_ms = 30000;
module_param(bg_gc_max_ms, uint, 0644);
MODULE_PARM_DESC(bg_gc_max_ms, "longest background GC interval while busy (ms)");
static unsigned int bg_gc_nogc_ms = 300000;
module_param(bg_gc_nogc_ms, uint, 0644);
MODULE_PARM_DESC(bg_gc_nogc_ms, "background GC interval when there is nothing to clean (ms)");
static unsigned int bg_gc_idle_ms = 1000;
module_param(bg_gc_idle_ms, uint, 0644);
MODULE_PARM_DESC(bg_gc_idle_ms, "quiet time after the last operation before the device counts as idle (ms)");

/* Sections each policy scans per search. */
#define GREEDY_WINDOW		4096
#define COST_BENEFIT_WINDOW	1024
/* Victims a foreground pass cleans at least before it gives up. */
#define FG_GC_STALL_ROUNDS	4
/* Background GC wants holes of this share of user blocks (percent) ... */
#define BG_GC_INVALID_PCT	5
/* ... and user-free space below this share of it plus the holes. */
#define BG_GC_FREE_PCT		40

static unsigned int blocks_per_sec(struct f2fs_sb_info *sbi)
{
	return sbi->blocks_per_seg * sbi->segs_per_sec;
}

/**
 * f2fs_free_sections - sections whose segments are all free.
 * @sbi: the mount.
 *
 * Return: free segments divided by segments per section (a section with
 * some free segments counts in part, which is what allocation sees).
 */
unsigned int f2fs_free_sections(struct f2fs_sb_info *sbi)
{
	return f2fs_free_segments(sbi) / sbi->segs_per_sec;
}

/**
 * f2fs_need_gc - should foreground cleaning run?
 * @sbi: the mount.
 *
 * Return: true when free segments are short of the reserve plus what the
 * dirty pages need (f2fs_space_low()), on a writable mount.
 */
bool f2fs_need_gc(struct f2fs_sb_info *sbi)
{
	return sbi->writable && f2fs_space_low(sbi);
}

/* Can section @secno be cleaned, and what does it hold?  seg_lock held. */
static bool sec_candidate(struct f2fs_sb_info *sbi, u32 secno,
			  unsigned int *valid, u64 *mtime)
{
	u32 first = secno * sbi->segs_per_sec, i;
	unsigned int used = 0;

	*valid = 0;
	*mtime = 0;
	for (i = 0; i < sbi->segs_per_sec; i++) {
		u32 segno = first + i;
		struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

		if (f2fs_is_curseg(sbi, segno))
			return false;
		if (!test_bit(segno, sbi->sm.inuse_map))
			continue;
		*valid += se->valid_blocks;
		*mtime += se->mtime;
		used++;
	}
	if (!*valid || *valid >= blocks_per_sec(sbi))
		return false;
	*mtime = div_u64(*mtime, used);
	return true;
}

/*
 * Cost-benefit cost of a section (lower is better): the benefit of the
 * design, free space gained times age over the cost of reading and
 * writing the valid blocks, (1 - u) * age / (1 + u), in percent steps
 * and turned around so that the smallest value wins like greedy's.
 */
static u64 cb_cost(struct f2fs_sb_info *sbi, unsigned int valid, u64 mtime,
		   u64 now)
{
	struct f2fs_gc_info *gc = &sbi->gc;
	u64 u = div_u64((u64)valid * 100, blocks_per_sec(sbi)), age = 0;

	if (mtime < gc->min_mtime)
		gc->min_mtime = mtime;
	/* Age in percent of the oldest section's. */
	if (now > gc->min_mtime && now >= mtime)
		age = div64_u64((now - mtime) * 100, now - gc->min_mtime);
	return 10000 - div64_u64((100 - u) * age * 100, 100 + u);
}

/**
 * struct gc_victim - outcome of a victim search.
 * @secno: the victim section.
 * @valid: its valid blocks.
 * @age: seconds of filesystem lifetime since it last changed.
 * @cost: its cost under the policy (greedy: valid blocks).
 * @scanned: sections looked at.
 * @search_ns: time the search took.
 */
struct gc_victim {
	u32 secno;
	unsigned int valid;
	u64 age;
	u64 cost;
	unsigned int scanned;
	u64 search_ns;
};

/*
 * Choose a victim.  Foreground GC first finishes sections chosen earlier;
 * otherwise the policy's window is scanned from where it stopped last.
 * The chosen section enters the victim bitmap.
 */
static bool select_victim(struct f2fs_sb_info *sbi, enum f2fs_gc_type type,
			  enum f2fs_gc_policy policy, struct gc_victim *v)
{
	struct f2fs_gc_info *gc = &sbi->gc;
	u32 total = sbi->total_sections, secno, n, window;
	u64 now = f2fs_now_elapsed(sbi), mtime, age, cost;
	unsigned int valid;
	bool found = false;

	v->search_ns = ktime_get_ns();
	v->scanned = 0;
	mutex_lock(&sbi->sm.seg_lock);
	if (type == F2FS_GC_FG) {
		for_each_set_bit(secno, gc->victim_map, total) {
			v->scanned++;
			if (!sec_candidate(sbi, secno, &valid, &mtime))
				continue;
			if (!found || valid < v->valid) {
				v->secno = secno;
				v->valid = valid;
				v->cost = valid;
				v->age = now > mtime ? now - mtime : 0;
				found = true;
			}
		}
		if (found)
			goto out;
	}

	window = min_t(u32, total, policy == F2FS_GC_GREEDY ? GREEDY_WINDOW :
						      COST_BENEFIT_WINDOW);
	secno = gc->last_victim[policy] % total;
	for (n = 0; n < window; n++, secno = (secno + 1) % total) {
		v->scanned++;
		if (type == F2FS_GC_BG && test_bit(secno, gc->victim_map))
			continue;
		if (!sec_candidate(sbi, secno, &valid, &mtime))
			continue;
		if (policy == F2FS_GC_GREEDY)
			cost = valid;
		else
			cost = cb_cost(sbi, valid, mtime, now);
		age = now > mtime ? now - mtime : 0;
		if (!found || cost < v->cost) {
			v->secno = secno;
			v->valid = valid;
			v->cost = cost;
			v->age = age;
			found = true;
		}
	}
	gc->last_victim[policy] = secno;
	if (found)
		set_bit(v->secno, gc->victim_map);
out:
	mutex_unlock(&sbi->sm.seg_lock);
	v->search_ns = ktime_get_ns() - v->search_ns;
	return found;
}

/*
 * Move one data block whose summary is @sum.  Returns 1 when moved, 0 when
 * the block turned out stale (its owner no longer points to it), or an
 * error.
 */
static int move_data_block(struct f2fs_sb_info *sbi, u32 blkaddr,
			   const struct f2fs_summary *sum)
{
	u32 nid = le32_to_cpu(sum->nid), ofs = le16_to_cpu(sum->ofs_in_node);
	struct f2fs_nat_cached ni;
	struct f2fs_node *rn;
	struct inode *inode;
	struct page *page;
	u32 nofs, addr = NULL_ADDR, extra;
	int err;

	err = f2fs_get_node_info(sbi, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr == NULL_ADDR || ni.version != sum->version)
		return 0;
	page = f2fs_get_gc_node_page(sbi, &ni);
	if (IS_ERR_OR_NULL(page))
		return PTR_ERR_OR_ZERO(page);	/* NULL: freed meanwhile */
	rn = page_address(page);
	nofs = f2fs_node_ofs(rn);
	if (!nofs) {
		extra = (rn->i.i_inline & F2FS_EXTRA_ATTR) ?
			le16_to_cpu(rn->i.i_extra_isize) / sizeof(__le32) : 0;
		if (nid == ni.ino && extra + ofs < DEF_ADDRS_PER_INODE &&
		    !(rn->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
			addr = le32_to_cpu(rn->i.i_addr[extra + ofs]);
	} else if (f2fs_node_is_dnode(rn) && ofs < DEF_ADDRS_PER_BLOCK) {
		addr = le32_to_cpu(rn->dn.addr[ofs]);
	}
	put_page(page);
	if (addr != blkaddr)
		return 0;

	inode = f2fs_iget_gc(sbi->sb, ni.ino);
	if (IS_ERR(inode))
		return 0;	/* being freed: its blocks go with it */
	err = f2fs_move_data_page(inode, f2fs_start_index(inode, nofs) + ofs);
	iput(inode);
	return err ? err : 1;
}

/* Move the valid blocks of one segment; counts go to *data and *node. */
static int gc_segment(struct f2fs_sb_info *sbi, u32 segno, unsigned int *data,
		      unsigned int *node)
{
	struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);
	u8 map[SIT_VBLOCK_MAP_SIZE];
	struct f2fs_summary_block *sum;
	struct page *page;
	bool is_node;
	u8 type;
	unsigned int off;
	int err = 0, ret;

	mutex_lock(&sbi->sm.seg_lock);
	memcpy(map, se->valid_map, sizeof(map));
	type = se->type;
	mutex_unlock(&sbi->sm.seg_lock);

	page = f2fs_get_meta_page(sbi, sbi->ssa_blkaddr + segno);
	if (IS_ERR(page))
		return PTR_ERR(page);
	sum = page_address(page);
	is_node = sum->footer.entry_type == SUM_TYPE_NODE;
	if (is_node != f2fs_is_node_log(type)) {
		if (f2fs_report_once(page))
			f2fs_err(sbi, "segment %u: summary says %s blocks, the SIT %s blocks; not cleaning it",
				 segno, is_node ? "node" : "data",
				 is_node ? "data" : "node");
		put_page(page);
		return -EFSCORRUPTED;
	}

	for (off = 0; off < sbi->blocks_per_seg; off++) {
		u32 blkaddr = f2fs_seg_blkaddr(sbi, segno) + off;

		if (!f2fs_test_bit_msb(off, map))
			continue;
		if (is_node)
			ret = f2fs_move_node_page(sbi, le32_to_cpu(sum->entries[off].nid),
						  blkaddr);
		else
			ret = move_data_block(sbi, blkaddr, &sum->entries[off]);
		if (ret > 0) {
			if (is_node)
				(*node)++;
			else
				(*data)++;
		} else if (ret == -ENOMEM || ret == -EROFS) {
			err = ret;
			break;
		}
		/* A block that cannot be read stays; the section with it. */
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
	}
	put_page(page);
	return err;
}

static int gc_section(struct f2fs_sb_info *sbi, u32 secno, unsigned int *data,
		      unsigned int *node)
{
	u32 first = secno * sbi->segs_per_sec, i;
	int err;

	for (i = 0; i < sbi->segs_per_sec; i++) {
		if (!test_bit(first + i, sbi->sm.inuse_map) ||
		    !f2fs_seg_entry(sbi, first + i)->valid_blocks)
			continue;
		err = gc_segment(sbi, first + i, data, node);
		if (err)
			return err;
	}
	return 0;
}

/* Segments in use and partly valid, for the gc_begin event only. */
static unsigned int count_dirty_segs(struct f2fs_sb_info *sbi)
{
	unsigned int n = 0;
	u32 segno;

	mutex_lock(&sbi->sm.seg_lock);
	for_each_set_bit(segno, sbi->sm.inuse_map, sbi->main_segs)
		if (f2fs_seg_entry(sbi, segno)->valid_blocks < sbi->blocks_per_seg &&
		    !f2fs_is_curseg(sbi, segno))
			n++;
	mutex_unlock(&sbi->sm.seg_lock);
	return n;
}

/**
 * f2fs_gc - run one garbage collection pass.
 * @sbi: the mount.
 * @type: F2FS_GC_FG (a writer short of space: greedy victims, cleaned and
 *	checkpointed until enough sections are free) or F2FS_GC_BG (the
 *	thread: one cost-benefit victim, freed by a later checkpoint).
 *
 * Called without cp_rwsem, page locks or new inodes held.  A background
 * pass gives way when another pass runs.
 *
 * Return: 0 when a pass cleaned something (or, in the foreground, when
 * enough sections are free); -ENODATA when no section is worth cleaning;
 * -EBUSY when a background pass found GC running; -ENOSPC when the
 * foreground pass could not free enough sections; -EROFS on a read-only
 * mount; -EIO after a failed write; or the error of a checkpoint.
 */
int f2fs_gc(struct f2fs_sb_info *sbi, enum f2fs_gc_type type)
{
	enum f2fs_gc_policy policy = type == F2FS_GC_FG ? F2FS_GC_GREEDY :
							  F2FS_GC_COST_BENEFIT;
	struct f2fs_gc_info *gc = &sbi->gc;
	struct f2fs_stats *st = &sbi->stats;
	unsigned int data = 0, node = 0, rounds = 0, stalled = 0, best;
	struct gc_victim v;
	u64 start, freed0;
	int err = 0;

	if (type == F2FS_GC_BG) {
		if (!mutex_trylock(&gc->gc_mutex))
			return -EBUSY;
	} else {
		mutex_lock(&gc->gc_mutex);
	}
	if (!sbi->writable) {
		mutex_unlock(&gc->gc_mutex);
		return -EROFS;
	}
	if (f2fs_writes_failed(sbi)) {
		/* Nothing it moves could become durable. */
		mutex_unlock(&gc->gc_mutex);
		return -EIO;
	}
	start = ktime_get_ns();
	st->gc_calls[type]++;
	freed0 = READ_ONCE(st->gc_secs_freed);
	if (trace_f2fs_gc_begin_enabled())
		trace_f2fs_gc_begin(sbi->sb, type, f2fs_free_sections(sbi),
				    READ_ONCE(sbi->sm.prefree_segs),
				    count_dirty_segs(sbi));

	if (type == F2FS_GC_FG) {
		/* Writers queue here: the pass before may have done enough. */
		if (!f2fs_need_gc(sbi))
			goto out;
		/* Prefree sections need only a checkpoint. */
		if (READ_ONCE(sbi->sm.prefree_segs)) {
			err = f2fs_write_checkpoint(sbi, F2FS_CP_SPACE);
			if (err || !f2fs_need_gc(sbi))
				goto out;
		}
	}
	best = f2fs_free_segments(sbi);
	WRITE_ONCE(gc->running, current);
	for (;;) {
		if (!select_victim(sbi, type, policy, &v)) {
			err = type == F2FS_GC_FG ? -ENOSPC : -ENODATA;
			break;
		}
		st->gc_victims[policy]++;
		st->gc_victim_valid += v.valid;
		trace_f2fs_gc_victim(sbi->sb, type, policy,
				     v.secno * sbi->segs_per_sec, v.secno,
				     v.valid, v.age, v.cost, v.scanned,
				     v.search_ns);
		err = gc_section(sbi, v.secno, &data, &node);
		if (type == F2FS_GC_BG || err)
			break;
		err = f2fs_write_checkpoint(sbi, F2FS_CP_SPACE);
		/* Not emptied (blocks in use elsewhere): let others try. */
		mutex_lock(&sbi->sm.seg_lock);
		clear_bit(v.secno, gc->victim_map);
		mutex_unlock(&sbi->sm.seg_lock);
		if (err || !f2fs_need_gc(sbi))
			break;
		/*
		 * A nearly full victim gains little: a section with v valid of
		 * its b blocks frees b - v, so about b / (b - v) victims make
		 * one segment.  Give up when twice that many (and at least
		 * FG_GC_STALL_ROUNDS) brought no new free segment, or after a
		 * sweep of every section: moving blocks frees nothing more.
		 */
		if (f2fs_free_segments(sbi) > best) {
			best = f2fs_free_segments(sbi);
			stalled = 0;
		} else if (++stalled >= FG_GC_STALL_ROUNDS + 2 * blocks_per_sec(sbi) /
			   max_t(unsigned int, 1, blocks_per_sec(sbi) - v.valid)) {
			err = -ENOSPC;
			break;
		}
		if (++rounds >= sbi->total_sections) {
			err = -ENOSPC;
			break;
		}
	}
	WRITE_ONCE(gc->running, NULL);
out:
	st->gc_data_moved += data;
	st->gc_node_moved += node;
	start = ktime_get_ns() - start;
	st->gc_time_ns += start;
	trace_f2fs_gc_end(sbi->sb, type, err,
			  READ_ONCE(st->gc_secs_freed) - freed0, data, node,
			  start, f2fs_free_sections(sbi));
	mutex_unlock(&gc->gc_mutex);
	return err;
}

/*
 * ---- Making room for writers -------------------------------------------
 *
 * Every operation that dirties pages first checks that free segments
 * cover what is dirty (f2fs_balance_fs()).  When they do not, room is
 * made in the cheapest order that works:
 *
 *   1. dirty pages are written back: each counts in full against free
 *      space until then, and writing it may reuse a hole (SSR) instead;
 *   2. a checkpoint turns prefree segments free and makes the holes of
 *      blocks freed since the last one reusable;
 *   3. foreground cleaning moves the valid blocks of the emptiest
 *      sections and checkpoints, until the reserve is back.
 *
 * A writer is refused (-ENOSPC) only when even then what is dirty would
 * not fit beside the room cleaning itself needs (f2fs_space_short()):
 * the device holds so many valid blocks that moving them frees nothing.
 */

/* Have the flusher write this filesystem's dirty pages (and wait for it). */
static void write_back_dirty(struct f2fs_sb_info *sbi)
{
	try_to_writeback_inodes_sb(sbi->sb, WB_REASON_FS_FREE_SPACE);
}

/**
 * f2fs_make_room - bring free segments back up before dirtying more.
 * @sbi: the mount.
 *
 * Called without cp_rwsem, page locks or new inodes held.
 *
 * Return: 0 when what is dirty fits with room to spare; -ENOSPC when it
 * does not even after writeback, a checkpoint and cleaning; -EROFS when
 * the mount is read-only.
 */
int f2fs_make_room(struct f2fs_sb_info *sbi)
{
	unsigned int before = f2fs_free_segments(sbi);
	u64 start = ktime_get_ns();
	int err = 0;

	if (!sbi->writable)
		return -EROFS;
	atomic64_inc(&sbi->stats.room_calls);
	write_back_dirty(sbi);
	if (f2fs_space_low(sbi))
		err = f2fs_write_checkpoint(sbi, F2FS_CP_SPACE);
	if (!err && f2fs_space_low(sbi)) {
		err = f2fs_gc(sbi, F2FS_GC_FG);
		if (err == -ENOSPC)
			err = 0;
	}
	if (!err && f2fs_space_short(sbi)) {
		atomic64_inc(&sbi->stats.room_enospc);
		err = -ENOSPC;
	}
	trace_f2fs_make_room(sbi->sb, before, f2fs_free_segments(sbi),
			     f2fs_dirty_need_segs(sbi), err,
			     ktime_get_ns() - start);
	return err;
}

/**
 * f2fs_balance_fs - make room, if needed, before an operation dirties pages.
 * @sbi: the mount.
 *
 * Called without cp_rwsem, page locks or new inodes held.  Many dirty NAT
 * entries make the next checkpoint long, and prefree segments are space
 * that only a checkpoint returns: either starts one, the latter only once
 * fewer than half the segments are free (before that the space is not
 * missed, and an rm -r writes nothing until sync, as with stock f2fs).
 * Then, when free segments are short of the reserve plus what the dirty
 * pages need, f2fs_make_room() runs.
 *
 * Return: 0, or -ENOSPC when no room can be made (see f2fs_make_room()).
 */
int f2fs_balance_fs(struct f2fs_sb_info *sbi)
{
	if (!sbi->writable)
		return 0;
	WRITE_ONCE(sbi->gc.last_op, jiffies);
	if (READ_ONCE(sbi->nm.nat_dirty) >= f2fs_cp_dirty_nats(sbi) ||
	    (READ_ONCE(sbi->sm.prefree_segs) >=
	     max_t(unsigned int, 8, sbi->main_segs / 16) &&
	     f2fs_free_segments(sbi) < sbi->main_segs / 2))
		f2fs_write_checkpoint(sbi, F2FS_CP_SPACE);
	if (!f2fs_space_low(sbi))
		return 0;
	return f2fs_make_room(sbi);
}

/**
 * f2fs_wake_cleaner - ask the cleaner thread to make room now.
 * @sbi: the mount.
 *
 * Writeback that found no room for a page (it keeps the page dirty) calls
 * this, since it cannot clean itself: it may hold locks cleaning needs.
 */
void f2fs_wake_cleaner(struct f2fs_sb_info *sbi)
{
	atomic64_inc(&sbi->stats.wb_deferred);
	atomic_set(&sbi->wb_blocked, 1);
	if (!READ_ONCE(sbi->gc.urgent)) {
		WRITE_ONCE(sbi->gc.urgent, true);
		wake_up(&sbi->gc.wait);
	}
}

/*
 * Is enough space invalid, and free space short, for background GC?  As
 * in the design, the overprovision area does not count as free for users:
 * cleaning is worth it when the holes in written segments are a fair
 * share of the user capacity and most of the space users could still
 * get is in holes rather than in free segments.
 */
static bool bg_gc_worth(struct f2fs_sb_info *sbi)
{
	unsigned int free_segs = f2fs_free_segments(sbi);
	unsigned int ovp = le32_to_cpu(sbi->ckpt->overprov_segment_count);
	u64 written = (u64)(sbi->main_segs - free_segs) * sbi->blocks_per_seg;
	u64 free_user = 0, valid, holes;

	if (free_segs > ovp)
		free_user = (u64)(free_segs - ovp) * sbi->blocks_per_seg;
	spin_lock(&sbi->stat_lock);
	valid = sbi->total_valid_blocks;
	spin_unlock(&sbi->stat_lock);
	holes = written > valid ? written - valid : 0;
	return holes * 100 > sbi->user_block_count * BG_GC_INVALID_PCT &&
	       free_user * 100 < (free_user + holes) * BG_GC_FREE_PCT;
}

static bool device_idle(struct f2fs_sb_info *sbi)
{
	return !atomic_read(&sbi->wb_pending) &&
	       time_after(jiffies, READ_ONCE(sbi->gc.last_op) +
			  msecs_to_jiffies(bg_gc_idle_ms));
}

/* Free segments short of the overprovision area: SSR recycles holes. */
static bool space_tight(struct f2fs_sb_info *sbi)
{
	return f2fs_free_segments(sbi) + READ_ONCE(sbi->sm.prefree_segs) <
	       le32_to_cpu(sbi->ckpt->overprov_segment_count);
}

/*
 * The cleaner thread.  It makes room at once when writeback found none
 * (gc.urgent) or free space is short of the reserve, whether or not the
 * device is idle.  Otherwise it cleans one cost-benefit victim per wake-up
 * when enough space is invalid: while the device is idle, as in the
 * design, and also while it is busy once free space no longer covers the
 * overprovision area, so that writers meet fewer foreground passes.
 */
static int gc_thread(void *data)
{
	struct f2fs_sb_info *sbi = data;
	struct f2fs_gc_info *gc = &sbi->gc;
	unsigned int wait_ms = bg_gc_min_ms;
	int err;

	set_freezable();
	while (!kthread_should_stop()) {
		wait_event_freezable_timeout(gc->wait, kthread_should_stop() ||
					     READ_ONCE(gc->urgent),
					     msecs_to_jiffies(wait_ms));
		if (kthread_should_stop())
			break;
		if (READ_ONCE(gc->urgent) || f2fs_space_low(sbi)) {
			WRITE_ONCE(gc->urgent, false);
			/* Back off while nothing more can be freed. */
			if (f2fs_make_room(sbi))
				wait_ms = min(2 * wait_ms, bg_gc_max_ms);
			else
				wait_ms = bg_gc_min_ms / 10;
			continue;
		}
		if (!device_idle(sbi) && !space_tight(sbi)) {
			wait_ms = min(wait_ms + bg_gc_min_ms, bg_gc_max_ms);
			continue;
		}
		if (!bg_gc_worth(sbi)) {
			wait_ms = bg_gc_nogc_ms;
			continue;
		}
		err = f2fs_gc(sbi, F2FS_GC_BG);
		if (err == -ENODATA || err == -EROFS)
			wait_ms = bg_gc_nogc_ms;
		else if (err == -EBUSY)
			wait_ms = min(wait_ms + bg_gc_min_ms, bg_gc_max_ms);
		else
			wait_ms = space_tight(sbi) ? bg_gc_min_ms / 4 :
						     bg_gc_min_ms;
		/* Sections it emptied come back with a checkpoint. */
		if (READ_ONCE(sbi->sm.prefree_segs) >=
		    max_t(unsigned int, 8, sbi->main_segs / 16))
			f2fs_write_checkpoint(sbi, F2FS_CP_SPACE);
	}
	return 0;
}

/**
 * f2fs_start_gc_thread - start background GC for a writable mount.
 * @sbi: the mount.
 *
 * Does nothing when the thread runs, or when mounted with
 * background_gc_off.
 *
 * Return: 0, or the error of kthread_run().
 */
int f2fs_start_gc_thread(struct f2fs_sb_info *sbi)
{
	struct task_struct *t;

	if (sbi->gc.thread || f2fs_opt(sbi, F2FS_OPT_BG_GC_OFF))
		return 0;
	t = kthread_run(gc_thread, sbi, "f2fs_gc-%u:%u",
			MAJOR(sbi->sb->s_dev), MINOR(sbi->sb->s_dev));
	if (IS_ERR(t))
		return PTR_ERR(t);
	sbi->gc.thread = t;
	return 0;
}

/**
 * f2fs_stop_gc_thread - stop background GC and wait for its pass to end.
 * @sbi: the mount.
 */
void f2fs_stop_gc_thread(struct f2fs_sb_info *sbi)
{
	if (!sbi->gc.thread)
		return;
	kthread_stop(sbi->gc.thread);
	sbi->gc.thread = NULL;
}

/**
 * f2fs_init_gc - set up GC state for a writable mount.
 * @sbi: the mount, with the SIT built.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_init_gc(struct f2fs_sb_info *sbi)
{
	struct f2fs_gc_info *gc = &sbi->gc;
	u32 segno;

	gc->victim_map = bitmap_zalloc(sbi->total_sections, GFP_KERNEL);
	if (!gc->victim_map)
		return -ENOMEM;
	gc->min_mtime = U64_MAX;
	for (segno = 0; segno < sbi->main_segs; segno++)
		if (test_bit(segno, sbi->sm.inuse_map))
			gc->min_mtime = min(gc->min_mtime,
					    f2fs_seg_entry(sbi, segno)->mtime);
	gc->last_op = jiffies;
	return 0;
}

/**
 * f2fs_destroy_gc - free what f2fs_init_gc() allocated.
 * @sbi: the mount, with the thread stopped.
 */
void f2fs_destroy_gc(struct f2fs_sb_info *sbi)
{
	bitmap_free(sbi->gc.victim_map);
	sbi->gc.victim_map = NULL;
}
