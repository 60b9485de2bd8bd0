/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_hotcold.h - shared by f2fs_hotcold.bpf.c and f2fs_hotcold.c. */
#ifndef F2FS_HOTCOLD_H
#define F2FS_HOTCOLD_H

#define HC_MAX_SEGS (1 << 20)	/* segment -> log map (1 MiB) */
#define HC_MAX_FILES 16384

/* Running totals: segments opened per log type and allocation mode (ours). */
struct hc_totals {
	__u64 segs[6][2];
	__u64 log_blocks[6];	/* stock: blocks written per log (f2fs_submit_page_write) */
	__u64 file_blocks;	/* blocks attributed to a file and a log */
	__u64 unknown_log;	/* blocks in a segment whose log is not known */
	__u64 dropped;		/* the per-file map was full */
};

/* Per file, drained by user space every interval. */
struct hc_file {
	__u64 blocks[6];
};

/* The last extent seen per file, to tell a written block from a cut. */
struct hc_extent {
	__u32 fofs, blk, len;
};

#endif
