/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pattern.h - the bytes mmapwrite and shortwrite write: a pure function of
 * a seed and the file offset, so that the same command on two filesystems
 * (ours and the tmpfs reference) gives the same content.
 */
#ifndef GUEST_TOOLS_PATTERN_H
#define GUEST_TOOLS_PATTERN_H

#include <stdint.h>

static inline unsigned char pattern(uint64_t seed, uint64_t off)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + off * 0xbf58476d1ce4e5b9ULL;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 29;
	return (unsigned char)x;
}

#endif
