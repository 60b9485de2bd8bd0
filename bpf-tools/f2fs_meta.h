/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_meta.h - shared by f2fs_meta.bpf.c and f2fs_meta.c. */
#ifndef F2FS_META_H
#define F2FS_META_H

#define META_SLOTS 32	/* log2 of the latency in usecs */
enum { OP_LOOKUP, OP_IGET, OP_READDIR, NR_OPS };
/*
 * Where an operation's time goes, cut at the thread's events: from a node
 * read to the thread's next f2fs event is that read's wait (sync or
 * readahead); up to a NAT lookup served from a NAT block is that block's
 * read; everything else (dentry block reads, CPU) is "other".
 */
enum { TM_NODE_SYNC, TM_NODE_RA, TM_NAT_BLOCK, TM_OTHER, NR_TM };

struct meta_op {
	__u64 count;
	__u64 errors;		/* ret < 0 */
	__u64 timed;		/* operations with a latency (stock: see f2fs_meta.bpf.c) */
	__u64 total_ns;
	__u64 hist[META_SLOTS];
	__u64 node_reads[2];	/* sync, readahead, while the op was running */
	__u64 nat[3];		/* cache, journal, block (stock: [2] = NAT block reads) */
	__u64 time_ns[NR_TM];
	__u64 special;		/* lookup: name not found; iget: read from disk */
};

/* Running totals since the tool started; user space takes differences. */
struct meta_totals {
	struct meta_op op[NR_OPS];
	__u64 node_reads[2];	/* every node read of the device */
	__u64 nat[3];		/* every NAT lookup of the device (stock: [2] NAT block reads) */
	__u64 unattributed_reads; /* node reads outside the three ops */
};

#endif
