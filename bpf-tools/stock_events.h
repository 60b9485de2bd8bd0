/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stock_events.h - the records of the stock f2fs module's trace events
 * (Debian 12's 6.1 kernel), as SEC("tracepoint/f2fs/...") programs see
 * them.  The layouts are copied from the format files of the running
 * kernel, saved in bpf-tools/stock-6.1-events.txt (scripts/stock-reference.sh
 * records them again).  STOCK_FIELDS lists every field the tools read with
 * its offset and size: the BPF objects check the structs against it at
 * compile time, and user space checks the running kernel's format files
 * against it before attaching (check_stock_fields() in common.c), so a
 * kernel whose records differ gets a clear error instead of wrong numbers.
 *
 * Some stock events share a name with ours (f2fs_gc_begin, f2fs_gc_end,
 * f2fs_iget_exit) but not the layout: a tool picks one program set for the
 * module it finds, never both.
 */
#ifndef STOCK_EVENTS_H
#define STOCK_EVENTS_H

#include "f2fs_events.h"

/* Values of the stock kernel's enums (fs/f2fs/segment.h, f2fs.h). */
enum { ST_BG_GC = 0, ST_FG_GC = 1 };			/* gc_type */
enum { ST_GC_CB = 0, ST_GC_GREEDY = 1, ST_GC_AT = 2 };	/* gc_mode */
enum { ST_LFS = 0, ST_SSR = 1, ST_AT_SSR = 2 };		/* alloc_mode */
enum { ST_DATA = 0, ST_NODE = 1, ST_META = 2 };		/* enum page_type */
enum { ST_HOT = 0, ST_WARM = 1, ST_COLD = 2 };		/* enum temp_type */
#define ST_REQ_OP_READ	0
#define ST_REQ_RAHEAD	(1U << 19)	/* "R" in the format's flag list */
#define ST_ENOENT	2
#define ST_ENODATA	61
/*
 * Checkpoint reasons are flags (CP_UMOUNT 0x1 ... CP_RESIZE 0x80): a
 * checkpoint counts under its lowest flag, "other" when none is set.
 */
#define ST_NR_CP_REASONS 9
/* The GC policy index the tools use: ours 0 greedy, 1 cost-benefit; stock adds 2 age-threshold. */
#define NR_POLICIES 3
#define POLICY_AT 2

/* f2fs_write_checkpoint: reason, and a message that names the phase */
struct tps_write_checkpoint {
	struct tp_common c;
	__u32 dev;
	int reason;
	__u32 dest_msg;		/* __data_loc char[]: offset | length << 16 */
};

/* f2fs_get_victim: a victim chosen by GC (alloc_mode LFS) or SSR */
struct tps_get_victim {
	struct tp_common c;
	__u32 dev;
	int type;
	int gc_type;
	int alloc_mode;
	int gc_mode;
	unsigned int victim, cost, ofs_unit, pre_victim, prefree, free;
};

struct tps_gc_begin {
	struct tp_common c;
	__u32 dev;
	int gc_type;
};

struct tps_gc_end {
	struct tp_common c;
	__u32 dev;
	int ret;
	int seg_freed;
	int sec_freed;
};

/* f2fs_submit_page_write and f2fs_submit_page_bio (one event class) */
struct tps_page_bio {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	unsigned long index;
	__u32 old_blkaddr, new_blkaddr;
	__u32 op, op_flags;
	int temp;
	int type;
};

/* f2fs_lookup_start, f2fs_iget (the inode's fields follow) */
struct tps_ino {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
};

struct tps_lookup_end {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	__u32 name;		/* __data_loc char[] */
	__u32 cino;		/* nid_t: (nid_t)-1 when the name is not there */
	int err;
};

struct tps_iget_exit {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	int ret;
};

/* f2fs_readdir: fired once per getdents call, at its end */
struct tps_readdir {
	struct tp_common c;
	__u32 dev;
	unsigned long ino;
	long long start, end;
	int err;
};

/* X(event, struct, member, field name in the format file, offset, size) */
#define STOCK_FIELDS(X) \
	X(f2fs_write_checkpoint, tps_write_checkpoint, dev, dev, 8, 4) \
	X(f2fs_write_checkpoint, tps_write_checkpoint, reason, reason, 12, 4) \
	X(f2fs_write_checkpoint, tps_write_checkpoint, dest_msg, dest_msg, 16, 4) \
	X(f2fs_get_victim, tps_get_victim, dev, dev, 8, 4) \
	X(f2fs_get_victim, tps_get_victim, type, type, 12, 4) \
	X(f2fs_get_victim, tps_get_victim, gc_type, gc_type, 16, 4) \
	X(f2fs_get_victim, tps_get_victim, alloc_mode, alloc_mode, 20, 4) \
	X(f2fs_get_victim, tps_get_victim, gc_mode, gc_mode, 24, 4) \
	X(f2fs_get_victim, tps_get_victim, victim, victim, 28, 4) \
	X(f2fs_get_victim, tps_get_victim, cost, cost, 32, 4) \
	X(f2fs_get_victim, tps_get_victim, ofs_unit, ofs_unit, 36, 4) \
	X(f2fs_gc_begin, tps_gc_begin, dev, dev, 8, 4) \
	X(f2fs_gc_begin, tps_gc_begin, gc_type, gc_type, 12, 4) \
	X(f2fs_gc_end, tps_gc_end, dev, dev, 8, 4) \
	X(f2fs_gc_end, tps_gc_end, ret, ret, 12, 4) \
	X(f2fs_gc_end, tps_gc_end, sec_freed, sec_freed, 20, 4) \
	X(f2fs_submit_page_write, tps_page_bio, dev, dev, 8, 4) \
	X(f2fs_submit_page_write, tps_page_bio, ino, ino, 16, 8) \
	X(f2fs_submit_page_write, tps_page_bio, new_blkaddr, new_blkaddr, 36, 4) \
	X(f2fs_submit_page_write, tps_page_bio, op, op, 40, 4) \
	X(f2fs_submit_page_write, tps_page_bio, temp, temp, 48, 4) \
	X(f2fs_submit_page_write, tps_page_bio, type, type, 52, 4) \
	X(f2fs_submit_page_bio, tps_page_bio, dev, dev, 8, 4) \
	X(f2fs_submit_page_bio, tps_page_bio, new_blkaddr, new_blkaddr, 36, 4) \
	X(f2fs_submit_page_bio, tps_page_bio, op, op, 40, 4) \
	X(f2fs_submit_page_bio, tps_page_bio, op_flags, op_flags, 44, 4) \
	X(f2fs_submit_page_bio, tps_page_bio, type, type, 52, 4) \
	X(f2fs_lookup_start, tps_ino, dev, dev, 8, 4) \
	X(f2fs_lookup_end, tps_lookup_end, dev, dev, 8, 4) \
	X(f2fs_lookup_end, tps_lookup_end, cino, cino, 28, 4) \
	X(f2fs_lookup_end, tps_lookup_end, err, err, 32, 4) \
	X(f2fs_iget, tps_ino, dev, dev, 8, 4) \
	X(f2fs_iget_exit, tps_iget_exit, dev, dev, 8, 4) \
	X(f2fs_iget_exit, tps_iget_exit, ret, ret, 24, 4) \
	X(f2fs_readdir, tps_readdir, dev, dev, 8, 4) \
	X(f2fs_readdir, tps_readdir, err, err, 40, 4)

#define STOCK_FIELD_ASSERT(ev, st, m, f, off, sz) \
	_Static_assert(__builtin_offsetof(struct st, m) == off && \
		       sizeof(((struct st *)0)->m) == sz, #st "." #m);
STOCK_FIELDS(STOCK_FIELD_ASSERT)
#undef STOCK_FIELD_ASSERT

#endif
