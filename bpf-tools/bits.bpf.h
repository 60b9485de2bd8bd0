/* SPDX-License-Identifier: GPL-2.0 */
/* bits.bpf.h - small helpers for the BPF programs of the f2fs tools. */
#ifndef BITS_BPF_H
#define BITS_BPF_H

/* Histogram slot of v: 0 for 0, else 1 + floor(log2(v)). */
static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 s = 0;

	if (v >> 32) { v >>= 32; s += 32; }
	if (v >> 16) { v >>= 16; s += 16; }
	if (v >> 8) { v >>= 8; s += 8; }
	if (v >> 4) { v >>= 4; s += 4; }
	if (v >> 2) { v >>= 2; s += 2; }
	if (v >> 1) { s += 1; }
	return v ? s + 1 : 0;
}

/* Only events of the device chosen by user space (0: every device). */
#define DEV_FILTER(dev) (targ_dev && (dev) != targ_dev)

#endif
