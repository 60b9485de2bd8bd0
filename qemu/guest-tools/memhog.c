// SPDX-License-Identifier: GPL-2.0
/*
 * memhog - take more anonymous memory than the guest has, so that the
 * kernel swaps, and check that every page comes back as it was written.
 *
 *   memhog MIB [SEED] [ROUNDS]
 *
 * Allocates MIB MiB of private anonymous memory and fills every 4 KiB
 * page with words derived from SEED and the page number.  Then, ROUNDS
 * times (default 2), it walks all pages in a seeded random order, checks
 * each page's contents and rewrites it with the next round's pattern, so
 * that pages go out to swap and come back several times with changed
 * contents.  SEED defaults to a random one; it is printed with the
 * command that replays the run.
 *
 * Output: "memhog: seed N (replay: memhog MIB N ROUNDS)", then one line
 * per round ("memhog: round R: P pages checked"), and on a mismatch the
 * first bad page with the word found and the word expected.  Exit status:
 * 0 when every page came back intact, 1 on a mismatch or an allocation
 * failure, 2 on bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define WORDS (PAGE / sizeof(uint64_t))

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* The word every page holds in round @round: one value per page and round. */
static uint64_t pattern(uint64_t seed, uint64_t page, unsigned int round)
{
	return mix(seed ^ mix(page * 0x9e3779b97f4a7c15ULL + round));
}

static void fill(uint64_t *p, uint64_t v)
{
	size_t i;

	for (i = 0; i < WORDS; i++)
		p[i] = v + i;
}

static int usage(void)
{
	fprintf(stderr, "usage: memhog MIB [SEED] [ROUNDS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long mib, rounds = 2, r;
	uint64_t seed, pages, i, *order;
	char *mem, *end;

	if (argc < 2 || argc > 4)
		return usage();
	mib = strtoul(argv[1], &end, 10);
	if (*end || !mib)
		return usage();
	if (argc > 2) {
		seed = strtoull(argv[2], &end, 10);
		if (*end)
			return usage();
	} else {
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	}
	if (argc > 3) {
		rounds = strtoul(argv[3], &end, 10);
		if (*end || !rounds)
			return usage();
	}
	printf("memhog: seed %llu (replay: memhog %lu %llu %lu)\n",
	       (unsigned long long)seed, mib, (unsigned long long)seed, rounds);
	fflush(stdout);
	pages = (uint64_t)mib * (1024 * 1024 / PAGE);
	mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	order = malloc(pages * sizeof(*order));
	if (mem == MAP_FAILED || !order) {
		perror("memhog: allocation");
		return 1;
	}
	for (i = 0; i < pages; i++) {
		fill((uint64_t *)(mem + i * PAGE), pattern(seed, i, 0));
		order[i] = i;
	}
	for (r = 1; r <= rounds; r++) {
		uint64_t x = mix(seed + r);

		/* A seeded shuffle: pages come back in no useful order. */
		for (i = pages - 1; i > 0; i--) {
			uint64_t j, t;

			x = mix(x + i);
			j = x % (i + 1);
			t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (i = 0; i < pages; i++) {
			uint64_t pg = order[i], *p = (uint64_t *)(mem + pg * PAGE);
			uint64_t want = pattern(seed, pg, r - 1);
			size_t w;

			for (w = 0; w < WORDS; w++) {
				if (p[w] != want + w) {
					printf("memhog: round %lu: page %llu word %zu is %#llx, want %#llx\n",
					       r, (unsigned long long)pg, w,
					       (unsigned long long)p[w],
					       (unsigned long long)(want + w));
					return 1;
				}
			}
			fill(p, pattern(seed, pg, r));
		}
		printf("memhog: round %lu: %llu pages checked\n", r,
		       (unsigned long long)pages);
		fflush(stdout);
	}
	return 0;
}
