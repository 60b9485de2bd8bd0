/* SPDX-License-Identifier: GPL-2.0 */
/* f2fs_hotcold.h - shared by f2fs_hotcold.bpf.c and f2fs_hotcold.c. */
#ifndef F2FS_HOTCOLD_H
#define F2FS_HOTCOLD_H

/* Running totals: segments opened per log type and allocation mode. */
struct hc_totals {
	__u64 segs[6][2];
};

#endif
