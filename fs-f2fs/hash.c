// SPDX-License-Identifier: GPL-2.0
/*
 * hash.c - the directory entry hash.
 *
 * f2fs places a name in its multi-level hash directory by a 32-bit hash
 * computed with the TEA block cipher over the name in 16-byte chunks (the
 * same construction as ext3's htree "tea" hash).  The value is part of the
 * on-disk format: every dentry stores it, and a lookup only compares names
 * whose stored hash matches.  "." and ".." hash to 0.  All 32 bits are
 * kept: F2FS_HASH_COL_BIT is bit 63 and so never touches this value.
 */
#include "f2fs.h"

#define TEA_DELTA	0x9E3779B9U
#define TEA_ROUNDS	16

/* Mix one 16-byte block @k into the running state @h. */
static void tea_mix(u32 h[4], const u32 k[4])
{
	u32 x = h[0], y = h[1], sum = 0;
	int round;

	for (round = 0; round < TEA_ROUNDS; round++) {
		sum += TEA_DELTA;
		x += ((y << 4) + k[0]) ^ (y + sum) ^ ((y >> 5) + k[1]);
		y += ((x << 4) + k[2]) ^ (x + sum) ^ ((x >> 5) + k[3]);
	}
	h[0] += x;
	h[1] += y;
}

/*
 * Pack up to 16 bytes of @s (@remain bytes left in the name) into four
 * words, big-end first, padding with a pattern derived from @remain.
 */
static void pack_chunk(const u8 *s, unsigned int remain, u32 k[4])
{
	u32 pad = remain | (remain << 8);
	unsigned int n = min(remain, 16U);
	unsigned int w, i;

	pad |= pad << 16;
	for (w = 0; w < 4; w++) {
		u32 v = pad;
		unsigned int base = w * 4;

		if (base >= n) {
			k[w] = pad;
			continue;
		}
		for (i = base; i < base + 4 && i < n; i++)
			v = (v << 8) + s[i];
		k[w] = v;
	}
}

/**
 * f2fs_dentry_hash - hash a file name for directory placement.
 * @name: the name (not NUL-terminated).
 * @len: its length in bytes.
 *
 * Return: the on-disk hash value, little-endian.
 */
__le32 f2fs_dentry_hash(const u8 *name, unsigned int len)
{
	u32 h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	u32 k[4];

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return cpu_to_le32(F2FS_DOT_HASH);

	for (;;) {
		pack_chunk(name, len, k);
		tea_mix(h, k);
		if (len <= 16)
			break;
		name += 16;
		len -= 16;
	}
	return cpu_to_le32(h[0]);
}
