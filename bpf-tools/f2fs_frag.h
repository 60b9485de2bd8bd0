/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_frag.h - shared by f2fs_frag.bpf.c and f2fs_frag.c. */
#ifndef F2FS_FRAG_H
#define F2FS_FRAG_H

#define FR_MAX_BLOCKS (256 * 1024)	/* (ino, index) -> block: default, -m */
#define FR_MAX_FILES 65536

struct fr_key {
	__u32 ino;
	__u32 index;
};

/* Per file, from the blocks written since the tool started. */
struct fr_file {
	__s64 extents;		/* runs of consecutive indices at consecutive blocks */
	__u64 blocks;		/* distinct indices seen */
	__u64 writes;		/* blocks written (rewrites and GC moves included) */
	__u64 untracked;	/* blocks not recorded: the block map was full */
};

struct fr_totals {
	__u64 writes;		/* data blocks written (DATA and GC) */
	__u64 gc_moves;		/* of which moved by the cleaner (ours) */
	__u64 untracked;	/* not recorded: the block map was full */
	__u64 files_dropped;	/* not recorded: the file map was full */
};

#endif
