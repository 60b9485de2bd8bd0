// SPDX-License-Identifier: GPL-2.0
/*
 * debug.c - debugfs statistics: f2fs/status and f2fs/<dev>/stats.
 *
 * Module load creates the f2fs folder in debugfs with one "status" file
 * covering every mount; each mount (read-write or read-only) adds a folder
 * named after its device with a "stats" file, removed again at unmount.
 *
 * "status" comes in two parts.  First, for every mount, the section that
 * Debian's f2fstat parses: it reads only the first 4 KiB and takes "key:
 * value" lines by their exact key ("Utilization", "  - Node", "CP calls",
 * ...), and a line without a colon would swallow the key of the line after
 * it, so every line of that part has one.  Then, for every mount, the
 * remaining figures: the logs, GC, checkpoints, NAT and SIT flushes, the
 * extent cache and the metadata read path.  "stats" holds the same
 * counters as "key value" lines for tools; trace-events/README.md lists
 * the keys.
 *
 * Readers take no lock the filesystem waits on, except briefly the inode
 * list spinlock to count dirty directories: counters are read with
 * READ_ONCE() or atomic64_read() (they only grow, and 64-bit loads do not
 * tear here), so a line may be a moment older than the next one.  The
 * in-memory SIT is scanned only while the mount is writable, which is when
 * it exists; it is freed only after the mount left the list.  The mutex
 * below guards the list of mounts; debugfs removal waits for readers of a
 * mount's own file before the mount is freed.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include "f2fs.h"

static struct dentry *f2fs_debugfs_root;
static LIST_HEAD(f2fs_debugfs_mounts);
static DEFINE_MUTEX(f2fs_debugfs_lock);

static const char *const log_names[F2FS_NR_LOGS] = {
	"hot_data", "warm_data", "cold_data", "hot_node", "warm_node",
	"cold_node",
};

static const char *const log_titles[F2FS_NR_LOGS] = {
	"HOT_DATA", "WARM_DATA", "COLD_DATA", "HOT_NODE", "WARM_NODE",
	"COLD_NODE",
};

static const char *const cp_reason_names[F2FS_NR_CP_REASONS] = {
	"umount", "sync", "fsync", "space", "remount", "recovery", "periodic",
};

static const char *const gc_type_names[F2FS_NR_GC_TYPES] = { "fg", "bg" };

static const char *const gc_policy_names[F2FS_NR_GC_POLICIES] = {
	"greedy", "cost_benefit",
};

static const char *const nat_source_names[F2FS_NR_NAT_SOURCES] = {
	"cache", "journal", "block",
};

static const char *const node_read_names[F2FS_NR_NODE_READ_KINDS] = {
	"sync", "ra",
};

static const char *const alloc_names[2] = { "lfs", "ssr" };
static const char *const fsync_kind_names[F2FS_NR_FSYNC_KINDS] = {
	"record", "cp_not_file", "cp_links", "cp_changed", "cp_new_dir",
	"cp_space", "cp_wb_kept", "unchanged",
};

/* Segment counts by fill; computed from the SIT of a writable mount. */
struct seg_counts {
	unsigned int valid;	/* full */
	unsigned int dirty;	/* partly valid */
	unsigned int free;
	unsigned int prefree;
};

static void count_segments(struct f2fs_sb_info *sbi, struct seg_counts *c)
{
	unsigned int segno, vb;

	memset(c, 0, sizeof(*c));
	if (!READ_ONCE(sbi->writable)) {
		c->free = le32_to_cpu(sbi->ckpt->free_segment_count);
		return;
	}
	c->free = READ_ONCE(sbi->sm.free_segs);
	c->prefree = READ_ONCE(sbi->sm.prefree_segs);
	for (segno = 0; segno < sbi->main_segs; segno++) {
		vb = READ_ONCE(sbi->sm.sentries[segno].valid_blocks);
		if (vb >= sbi->blocks_per_seg)
			c->valid++;
		else if (vb)
			c->dirty++;
	}
}

/* Dirty pages of a mapping, counted under RCU from the page cache tags. */
static unsigned long count_dirty_pages(struct address_space *mapping)
{
	XA_STATE(xas, &mapping->i_pages, 0);
	unsigned long n = 0;
	void *entry;

	rcu_read_lock();
	xas_for_each_marked(&xas, entry, ULONG_MAX, PAGECACHE_TAG_DIRTY) {
		if (xas_retry(&xas, entry))
			continue;
		n++;
	}
	rcu_read_unlock();
	return n;
}

static unsigned int count_dirty_dirs(struct f2fs_sb_info *sbi)
{
	struct list_head *p;
	unsigned int n = 0;

	spin_lock(&sbi->inode_lock);
	list_for_each(p, &sbi->dirty_dirs)
		n++;
	spin_unlock(&sbi->inode_lock);
	return n;
}

/* A rough estimate of the memory this mount holds outside the page cache. */
static u64 memory_bytes(struct f2fs_sb_info *sbi)
{
	u64 b = sizeof(*sbi) + sizeof(*sbi->raw_super) + sbi->ckpt_size +
		F2FS_NR_LOGS * F2FS_BLKSIZE;

	b += (u64)READ_ONCE(sbi->nm.nat_count) *
	     sizeof(struct f2fs_nat_cached);
	if (READ_ONCE(sbi->writable)) {
		b += (u64)sbi->main_segs * sizeof(struct f2fs_seg_entry);
		b += 3 * BITS_TO_LONGS(sbi->main_segs) * sizeof(long);
		b += F2FS_FREE_NID_BATCH * sizeof(u32);
	}
	return b;
}

static u64 sum_u64(const u64 *v, unsigned int n)
{
	u64 s = 0;

	while (n--)
		s += READ_ONCE(v[n]);
	return s;
}

static u64 ratio_pct(u64 part, u64 whole)
{
	return whole ? div64_u64(part * 100, whole) : 0;
}

static u64 cp_calls(struct f2fs_stats *st)
{
	return sum_u64(st->cp_calls, F2FS_NR_CP_REASONS);
}

/* The part of status that f2fstat parses: every line has a colon. */
static void show_compat(struct seq_file *m, struct f2fs_sb_info *sbi,
			int idx)
{
	struct f2fs_stats *st = &sbi->stats;
	u64 user, valid, lfs = 0, ssr = 0, lfs_segs = 0, ssr_segs = 0;
	u32 nodes, inodes;
	struct seg_counts sc;
	unsigned int i;

	spin_lock(&sbi->stat_lock);
	user = sbi->user_block_count;
	valid = sbi->total_valid_blocks;
	nodes = sbi->valid_node_count;
	inodes = sbi->valid_inode_count;
	spin_unlock(&sbi->stat_lock);
	count_segments(sbi, &sc);
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		lfs += READ_ONCE(st->lfs_blocks[i]);
		ssr += READ_ONCE(st->ssr_blocks[i]);
		lfs_segs += READ_ONCE(st->segs_opened[i][F2FS_ALLOC_LFS]);
		ssr_segs += READ_ONCE(st->segs_opened[i][F2FS_ALLOC_SSR]);
	}

	seq_printf(m, "\n=====[ partition info(%s). #%d, %s, CP: %s]=====\n",
		   sbi->sb->s_id, idx, sb_rdonly(sbi->sb) ? "RO" : "RW",
		   f2fs_cp_flag(sbi, CP_ERROR_FLAG) ? "Error" : "Good");
	seq_printf(m, "Utilization: %llu%% (%llu valid blocks, %llu user blocks)\n",
		   ratio_pct(valid, user), valid, user);
	seq_printf(m, "  - Node: %u (Inode: %u, Other: %u)\n", nodes, inodes,
		   nodes - inodes);
	seq_printf(m, "  - Data: %llu\n", valid - nodes);
	seq_printf(m, "Main area: %u segs, %u secs\n", sbi->main_segs,
		   sbi->total_sections);
	seq_printf(m, "  - Valid: %u\n", sc.valid);
	seq_printf(m, "  - Dirty: %u\n", sc.dirty);
	seq_printf(m, "  - Prefree: %u\n", sc.prefree);
	seq_printf(m, "  - Free: %u (%u)\n", sc.free,
		   sc.free / sbi->segs_per_sec);
	seq_printf(m, "CP calls: %llu (BG: %llu)\n", cp_calls(st),
		   READ_ONCE(st->cp_calls[F2FS_CP_PERIODIC]));
	seq_printf(m, "GC calls: %llu (BG: %llu)\n",
		   sum_u64(st->gc_calls, F2FS_NR_GC_TYPES),
		   READ_ONCE(st->gc_calls[F2FS_GC_BG]));
	seq_puts(m, "Dirty:\n");
	seq_printf(m, "  - nodes: %lu pages\n",
		   count_dirty_pages(sbi->node_inode->i_mapping));
	seq_printf(m, "  - dents: %u dirs\n", count_dirty_dirs(sbi));
	seq_printf(m, "  - meta: %lu pages\n",
		   count_dirty_pages(sbi->meta_inode->i_mapping));
	seq_printf(m, "  - NATs: %lu/%lu\n", READ_ONCE(sbi->nm.nat_dirty),
		   READ_ONCE(sbi->nm.nat_count));
	seq_printf(m, "  - SITs: %u/%u\n",
		   READ_ONCE(sbi->writable) ? READ_ONCE(sbi->sm.sit_dirty) : 0,
		   sbi->main_segs);
	seq_printf(m, "  - free_nids: %u\n",
		   READ_ONCE(sbi->writable) ? READ_ONCE(sbi->nm.free_cnt) : 0);
	seq_printf(m, "SSR: %llu blocks in %llu segments\n", ssr, ssr_segs);
	seq_printf(m, "LFS: %llu blocks in %llu segments\n", lfs, lfs_segs);
	seq_printf(m, "Memory: %llu KB\n", div_u64(memory_bytes(sbi), 1024));
}

/* The rest of status: the figures f2fstat does not know. */
static void show_details(struct seq_file *m, struct f2fs_sb_info *sbi)
{
	struct f2fs_stats *st = &sbi->stats;
	u64 n, victims, ext_lookups, ext_hits;
	unsigned int i;

	seq_printf(m, "\n=====[ details(%s): cp_ver %llu ]=====\n",
		   sbi->sb->s_id, READ_ONCE(sbi->cp_ver));
	seq_puts(m, "Logs: segno, blkoff, blocks and segments by LFS and SSR\n");
	for (i = 0; i < F2FS_NR_LOGS; i++)
		seq_printf(m, "  - %s: segno %u, blkoff %u, LFS %llu blocks in %llu segs, SSR %llu blocks in %llu segs\n",
			   log_titles[i], READ_ONCE(sbi->curseg[i].segno),
			   READ_ONCE(sbi->curseg[i].blkoff),
			   READ_ONCE(st->lfs_blocks[i]),
			   READ_ONCE(st->segs_opened[i][F2FS_ALLOC_LFS]),
			   READ_ONCE(st->ssr_blocks[i]),
			   READ_ONCE(st->segs_opened[i][F2FS_ALLOC_SSR]));

	victims = sum_u64(st->gc_victims, F2FS_NR_GC_POLICIES);
	seq_printf(m, "GC: FG %llu, BG %llu calls, %llu ns\n",
		   READ_ONCE(st->gc_calls[F2FS_GC_FG]),
		   READ_ONCE(st->gc_calls[F2FS_GC_BG]),
		   READ_ONCE(st->gc_time_ns));
	seq_printf(m, "  - victims: greedy %llu, cost-benefit %llu, average valid blocks %llu\n",
		   READ_ONCE(st->gc_victims[F2FS_GC_GREEDY]),
		   READ_ONCE(st->gc_victims[F2FS_GC_COST_BENEFIT]),
		   victims ? div64_u64(READ_ONCE(st->gc_victim_valid), victims) : 0);
	seq_printf(m, "  - moved: %llu data, %llu node blocks; %llu sections freed\n",
		   READ_ONCE(st->gc_data_moved), READ_ONCE(st->gc_node_moved),
		   READ_ONCE(st->gc_secs_freed));

	n = cp_calls(st);
	seq_printf(m, "Checkpoints: %llu written, %llu skipped, %llu failed\n",
		   n, READ_ONCE(st->cp_skipped), READ_ONCE(st->cp_errors));
	seq_puts(m, "  - by reason:");
	for (i = 0; i < F2FS_NR_CP_REASONS; i++)
		seq_printf(m, " %s %llu", cp_reason_names[i],
			   READ_ONCE(st->cp_calls[i]));
	seq_putc(m, '\n');
	seq_printf(m, "  - duration: last %llu, average %llu, max %llu ns\n",
		   READ_ONCE(st->cp_last_ns),
		   n ? div64_u64(READ_ONCE(st->cp_total_ns), n) : 0,
		   READ_ONCE(st->cp_max_ns));
	seq_printf(m, "NAT flushes: %llu; entries: journal %llu, blocks %llu; %llu blocks written\n",
		   READ_ONCE(st->nat_flushes), READ_ONCE(st->nat_journal_entries),
		   READ_ONCE(st->nat_block_entries),
		   READ_ONCE(st->nat_blocks_written));
	seq_printf(m, "SIT flushes: %llu; entries: journal %llu, blocks %llu; %llu blocks written\n",
		   READ_ONCE(st->sit_flushes), READ_ONCE(st->sit_journal_entries),
		   READ_ONCE(st->sit_block_entries),
		   READ_ONCE(st->sit_blocks_written));

	ext_lookups = atomic64_read(&st->extent_lookups);
	ext_hits = atomic64_read(&st->extent_hits);
	seq_printf(m, "Extent cache: %llu lookups, %llu hits (%llu%%), %llu updates\n",
		   ext_lookups, ext_hits, ratio_pct(ext_hits, ext_lookups),
		   (u64)atomic64_read(&st->extent_updates));
	seq_printf(m, "NAT lookups: cache %llu, journal %llu, block %llu\n",
		   (u64)atomic64_read(&st->nat_lookups[F2FS_NAT_CACHE]),
		   (u64)atomic64_read(&st->nat_lookups[F2FS_NAT_JOURNAL]),
		   (u64)atomic64_read(&st->nat_lookups[F2FS_NAT_BLOCK]));
	seq_printf(m, "Node reads: sync %llu, readahead %llu\n",
		   (u64)atomic64_read(&st->node_reads[F2FS_NODE_READ_SYNC]),
		   (u64)atomic64_read(&st->node_reads[F2FS_NODE_READ_RA]));
}

static int status_show(struct seq_file *m, void *unused)
{
	struct f2fs_sb_info *sbi;
	int idx = 0;

	mutex_lock(&f2fs_debugfs_lock);
	list_for_each_entry(sbi, &f2fs_debugfs_mounts, debugfs_list)
		show_compat(m, sbi, idx++);
	list_for_each_entry(sbi, &f2fs_debugfs_mounts, debugfs_list)
		show_details(m, sbi);
	mutex_unlock(&f2fs_debugfs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static void kv(struct seq_file *m, const char *key, u64 val)
{
	seq_printf(m, "%s %llu\n", key, val);
}

/* "<prefix>_<name> value" for each element of an array of counters. */
static void kv_array(struct seq_file *m, const char *prefix,
		     const char *const *names, const u64 *vals, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		seq_printf(m, "%s_%s %llu\n", prefix, names[i],
			   READ_ONCE(vals[i]));
}

static void kv_atomic_array(struct seq_file *m, const char *prefix,
			    const char *const *names, atomic64_t *vals,
			    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		seq_printf(m, "%s_%s %llu\n", prefix, names[i],
			   (u64)atomic64_read(&vals[i]));
}

static int stats_show(struct seq_file *m, void *unused)
{
	struct f2fs_sb_info *sbi = m->private;
	struct f2fs_stats *st = &sbi->stats;
	bool writable = READ_ONCE(sbi->writable);
	struct seg_counts sc;
	unsigned int i, j;
	u64 n;

	/* State of the mount. */
	kv(m, "cp_ver", READ_ONCE(sbi->cp_ver));
	kv(m, "writable", writable);
	spin_lock(&sbi->stat_lock);
	kv(m, "user_blocks", sbi->user_block_count);
	kv(m, "valid_blocks", sbi->total_valid_blocks);
	kv(m, "valid_nodes", sbi->valid_node_count);
	kv(m, "valid_inodes", sbi->valid_inode_count);
	spin_unlock(&sbi->stat_lock);
	count_segments(sbi, &sc);
	kv(m, "main_segs", sbi->main_segs);
	kv(m, "valid_segs", sc.valid);
	kv(m, "dirty_segs", sc.dirty);
	kv(m, "prefree_segs", sc.prefree);
	kv(m, "free_segs", sc.free);
	kv(m, "dirty_nats", READ_ONCE(sbi->nm.nat_dirty));
	kv(m, "cached_nats", READ_ONCE(sbi->nm.nat_count));
	kv(m, "dirty_sits", writable ? READ_ONCE(sbi->sm.sit_dirty) : 0);
	kv(m, "free_nids", writable ? READ_ONCE(sbi->nm.free_cnt) : 0);
	kv(m, "dirty_inodes", READ_ONCE(sbi->nr_dirty_inodes));
	for (i = 0; i < F2FS_NR_LOGS; i++) {
		seq_printf(m, "curseg_%s %u\n", log_names[i],
			   READ_ONCE(sbi->curseg[i].segno));
		seq_printf(m, "blkoff_%s %u\n", log_names[i],
			   READ_ONCE(sbi->curseg[i].blkoff));
	}

	/* Allocation per log. */
	kv_array(m, "lfs_blocks", log_names, st->lfs_blocks, F2FS_NR_LOGS);
	kv_array(m, "ssr_blocks", log_names, st->ssr_blocks, F2FS_NR_LOGS);
	for (i = 0; i < F2FS_NR_LOGS; i++)
		for (j = 0; j < 2; j++)
			seq_printf(m, "segs_opened_%s_%s %llu\n", log_names[i],
				   alloc_names[j],
				   READ_ONCE(st->segs_opened[i][j]));
	kv(m, "ssr_victim_valid", READ_ONCE(st->ssr_victim_valid));
	kv(m, "discarded_segs", READ_ONCE(st->discarded_segs));
	kv(m, "discard_errors", READ_ONCE(st->discard_errors));

	/* Room for writers: the reserve, what dirty pages need, refusals. */
	kv(m, "rsvd_segs", writable ? sbi->sm.rsvd_segs : 0);
	kv(m, "dirty_need_segs", writable ? f2fs_dirty_need_segs(sbi) : 0);
	kv(m, "room_calls", atomic64_read(&st->room_calls));
	kv(m, "room_enospc", atomic64_read(&st->room_enospc));
	kv(m, "wb_deferred", atomic64_read(&st->wb_deferred));
	kv(m, "wb_cp_busy", atomic64_read(&st->wb_cp_busy));
	kv(m, "wb_bios", atomic64_read(&st->wb_bios));
	kv(m, "wb_bio_blocks", atomic64_read(&st->wb_bio_blocks));
	kv(m, "wb_slept_batches", atomic64_read(&st->wb_slept_batches));
	kv_array(m, "alloc_nospace", log_names, st->alloc_nospace,
		 F2FS_NR_LOGS);

	/* Cleaning. */
	kv_array(m, "gc_calls", gc_type_names, st->gc_calls, F2FS_NR_GC_TYPES);
	kv_array(m, "gc_victims", gc_policy_names, st->gc_victims,
		 F2FS_NR_GC_POLICIES);
	kv(m, "gc_victim_valid", READ_ONCE(st->gc_victim_valid));
	kv(m, "gc_secs_freed", READ_ONCE(st->gc_secs_freed));
	kv(m, "gc_data_moved", READ_ONCE(st->gc_data_moved));
	kv(m, "gc_node_moved", READ_ONCE(st->gc_node_moved));
	kv(m, "gc_time_ns", READ_ONCE(st->gc_time_ns));

	/* Checkpoints. */
	n = cp_calls(st);
	kv(m, "cp_calls", n);
	kv_array(m, "cp", cp_reason_names, st->cp_calls, F2FS_NR_CP_REASONS);
	kv(m, "cp_skipped", READ_ONCE(st->cp_skipped));
	kv(m, "cp_errors", READ_ONCE(st->cp_errors));
	kv(m, "cp_last_ns", READ_ONCE(st->cp_last_ns));
	kv(m, "cp_max_ns", READ_ONCE(st->cp_max_ns));
	kv(m, "cp_total_ns", READ_ONCE(st->cp_total_ns));
	kv(m, "cp_avg_ns", n ? div64_u64(READ_ONCE(st->cp_total_ns), n) : 0);

	/* NAT and SIT flushes. */
	kv(m, "nat_flushes", READ_ONCE(st->nat_flushes));
	kv(m, "nat_shrunk", READ_ONCE(st->nat_shrunk));
	kv(m, "nat_journal_entries", READ_ONCE(st->nat_journal_entries));
	kv(m, "nat_block_entries", READ_ONCE(st->nat_block_entries));
	kv(m, "nat_blocks_written", READ_ONCE(st->nat_blocks_written));
	kv(m, "sit_flushes", READ_ONCE(st->sit_flushes));
	kv(m, "sit_journal_entries", READ_ONCE(st->sit_journal_entries));
	kv(m, "sit_block_entries", READ_ONCE(st->sit_block_entries));
	kv(m, "sit_blocks_written", READ_ONCE(st->sit_blocks_written));

	/* Extent cache and metadata reads. */
	kv(m, "extent_lookups", atomic64_read(&st->extent_lookups));
	kv(m, "extent_hits", atomic64_read(&st->extent_hits));
	kv(m, "extent_updates", atomic64_read(&st->extent_updates));
	kv_atomic_array(m, "nat_lookups", nat_source_names, st->nat_lookups,
			F2FS_NR_NAT_SOURCES);
	kv_atomic_array(m, "node_reads", node_read_names, st->node_reads,
			F2FS_NR_NODE_READ_KINDS);
	kv(m, "node_ra_neighbours", atomic64_read(&st->node_ra_neighbours));

	/* fsync and roll-forward recovery. */
	kv_atomic_array(m, "fsync", fsync_kind_names, st->fsyncs,
			F2FS_NR_FSYNC_KINDS);
	kv(m, "fsync_no_inode", atomic64_read(&st->fsync_no_inode));
	kv(m, "fsync_no_scan", atomic64_read(&st->fsync_no_scan));
	kv(m, "fsync_index_lossy", READ_ONCE(sbi->nm.fsync_nodes_lossy));
	kv(m, "rf_files", READ_ONCE(st->rf_files));
	kv(m, "rf_blocks", READ_ONCE(st->rf_blocks));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/**
 * f2fs_debugfs_init - create the f2fs folder and its status file.
 *
 * Called at module load.  Without debugfs the module works the same; the
 * files are simply absent.
 */
void f2fs_debugfs_init(void)
{
	f2fs_debugfs_root = debugfs_create_dir("f2fs", NULL);
	debugfs_create_file("status", 0444, f2fs_debugfs_root, NULL,
			    &status_fops);
}

/**
 * f2fs_debugfs_exit - remove what f2fs_debugfs_init() created.
 */
void f2fs_debugfs_exit(void)
{
	debugfs_remove(f2fs_debugfs_root);
	f2fs_debugfs_root = NULL;
}

/**
 * f2fs_debugfs_register - show a mount in status and give it a stats file.
 * @sbi: a mount whose fill_super has succeeded.
 */
void f2fs_debugfs_register(struct f2fs_sb_info *sbi)
{
	sbi->debugfs_dir = debugfs_create_dir(sbi->sb->s_id, f2fs_debugfs_root);
	debugfs_create_file("stats", 0444, sbi->debugfs_dir, sbi, &stats_fops);
	debugfs_create_atomic_t("fail_fsync_index", 0600, sbi->debugfs_dir,
				&sbi->nm.fsync_index_faults);
	mutex_lock(&f2fs_debugfs_lock);
	list_add_tail(&sbi->debugfs_list, &f2fs_debugfs_mounts);
	mutex_unlock(&f2fs_debugfs_lock);
}

/**
 * f2fs_debugfs_unregister - undo f2fs_debugfs_register() at unmount.
 * @sbi: the mount; on return no debugfs reader uses it any more.
 */
void f2fs_debugfs_unregister(struct f2fs_sb_info *sbi)
{
	mutex_lock(&f2fs_debugfs_lock);
	list_del_init(&sbi->debugfs_list);
	mutex_unlock(&f2fs_debugfs_lock);
	debugfs_remove(sbi->debugfs_dir);
	sbi->debugfs_dir = NULL;
}
