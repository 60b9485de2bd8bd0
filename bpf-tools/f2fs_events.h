/* SPDX-License-Identifier: GPL-2.0 */
/*
 * f2fs_events.h - the records of our f2fs trace events, as BPF programs of
 * SEC("tracepoint/f2fs/...") see them.  The module has no BTF, so these
 * mirror TP_STRUCT__entry in trace-events/f2fs.h by hand: the 8-byte common
 * header, then the fields in order with their natural alignment (the
 * offsets equal those in events/f2fs/<event>/format; test 70 compares
 * them).  Fields are only ever added at the end of an event.
 */
#ifndef F2FS_EVENTS_H
#define F2FS_EVENTS_H

enum { LOG_HOT_DATA, LOG_WARM_DATA, LOG_COLD_DATA, LOG_HOT_NODE,
       LOG_WARM_NODE, LOG_COLD_NODE, NR_LOGS };
enum { ALLOC_LFS, ALLOC_SSR, NR_ALLOC };
enum { GC_FG, GC_BG, NR_GC_TYPES };
enum { GC_GREEDY, GC_COST_BENEFIT, NR_GC_POLICIES };
enum { CP_UMOUNT, CP_SYNC, CP_FSYNC, CP_SPACE, CP_REMOUNT, CP_RECOVERY,
       CP_PERIODIC, NR_CP_REASONS };

struct tp_common {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
};

struct tp_segment_alloc {
	struct tp_common c;
	__u32 dev;
	int log_type;
	unsigned int old_segno, new_segno, old_secno, new_secno;
	int mode;
	unsigned int free_segs;
};

/* f2fs_ssr_victim: a dirty segment a log recycles (fired before its segment_alloc) */
struct tp_ssr_victim {
	struct tp_common c;
	__u32 dev;
	int log_type;
	unsigned int segno;
	int seg_type;
	unsigned int valid_blocks, reusable_blocks, nr_scanned;
	__u64 search_ns;
};

struct tp_gc_victim {
	struct tp_common c;
	__u32 dev;
	int gc_type;
	int policy;
	unsigned int segno, secno, valid_blocks;
	unsigned long long age, cost;
	unsigned int nr_scanned;
	__u64 search_ns;
};

struct tp_gc_end {
	struct tp_common c;
	__u32 dev;
	int gc_type;
	int ret;
	unsigned int secs_freed, data_moved, node_moved;
	__u64 duration_ns;
	unsigned int free_secs;
};

struct tp_cp_end {
	struct tp_common c;
	__u32 dev;
	int reason;
	__u64 cp_ver;
	int ret;
	__u64 total_ns, block_ns, flush_ns, nat_ns, sit_ns, pack_ns, wait_ns;
	unsigned int nat_entries, sit_entries;
};

enum { NAT_CACHE, NAT_JOURNAL, NAT_BLOCK, NR_NAT_SOURCES };
enum { NODE_READ_SYNC, NODE_READ_RA, NR_NODE_READ_KINDS };

struct tp_extent_update {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	__u32 fofs, blk, len;
};

/* Metadata read path (ino_t is 8 bytes on x86-64). */
struct tp_nat_lookup {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	__u32 nid;
	int source;
	__u32 blkaddr;
};

struct tp_node_read {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	__u32 nid;
	__u32 blkaddr;
	int kind;
};

/* f2fs_iget_enter, f2fs_readdir_enter (pos follows), f2fs_lookup_enter */
struct tp_ino_enter {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
};

struct tp_iget_exit {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	int ret;
	_Bool from_disk;
	__u64 latency_ns;
};

struct tp_lookup_exit {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	__u32 name_loc;		/* __data_loc char[] name */
	__u32 found_ino;
	int ret;
	__u64 latency_ns;
};

struct tp_readdir_exit {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	long long start_pos, end_pos;
	int ret;
	__u64 latency_ns;
};

/* The offsets read from the guest's format files (Debian 6.1 kernel). */
#define TP_OFF(t, f, o) _Static_assert(__builtin_offsetof(struct t, f) == o, #t "." #f)
TP_OFF(tp_segment_alloc, free_segs, 36);
TP_OFF(tp_ssr_victim, segno, 16);
TP_OFF(tp_ssr_victim, reusable_blocks, 28);
TP_OFF(tp_ssr_victim, search_ns, 40);
TP_OFF(tp_gc_victim, valid_blocks, 28);
TP_OFF(tp_gc_victim, search_ns, 56);
TP_OFF(tp_gc_end, duration_ns, 32);
TP_OFF(tp_gc_end, free_secs, 40);
TP_OFF(tp_cp_end, total_ns, 32);
TP_OFF(tp_cp_end, wait_ns, 80);
TP_OFF(tp_cp_end, sit_entries, 92);
TP_OFF(tp_extent_update, len, 32);
TP_OFF(tp_nat_lookup, blkaddr, 32);
TP_OFF(tp_node_read, kind, 32);
TP_OFF(tp_iget_exit, latency_ns, 32);
TP_OFF(tp_lookup_exit, found_ino, 28);
TP_OFF(tp_lookup_exit, latency_ns, 40);
TP_OFF(tp_readdir_exit, ret, 40);
TP_OFF(tp_readdir_exit, latency_ns, 48);

#endif
