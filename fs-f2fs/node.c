// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - node manager: NAT lookups and the node page cache.
 *
 * Every node (inode, direct node, indirect node) is named by a nid; the NAT
 * maps a nid to the block that holds the node's latest copy.  This is what
 * lets f2fs write nodes out of place without updating their parents: only
 * the NAT entry changes (the "wandering tree" fix of the design).
 *
 * A lookup goes, in order, to:
 *   1. the NAT entry cache (an xarray keyed by nid, changed under
 *      nm.nat_lock; see below for its readers);
 *   2. the NAT journal held in the hot data log's summary, which carries
 *      entries newer than the NAT blocks;
 *   3. the NAT block, from whichever of its two copies the checkpoint's NAT
 *      version bitmap marks as current.
 * What was found in 2 or 3 is inserted into the cache.
 *
 * A writable mount changes entries in the cache only, marks them dirty,
 * and the checkpoint writes them: into the NAT journal when they fit,
 * otherwise into the other copy of each affected NAT block (flipping its
 * bit in the version bitmap), so the previous checkpoint's NAT stays whole.
 * Free nids come from scanning NAT blocks for unused entries; a nid freed
 * since the last checkpoint is not reused before the next one.
 *
 * Node pages are cached in the node inode's mapping with the nid as page
 * index.  Every reader names the node it expects (nid, owning ino, offset in
 * the inode's node tree) and the footer is checked against it, so a stale
 * or corrupt NAT entry is reported instead of followed.
 *
 * The two hot readers of the cache, f2fs_get_node_info() and the node
 * readahead, take no lock: they find the entry under RCU and copy it under
 * nm.nat_seq, which every change of an entry's fields bumps (under
 * nm.nat_lock), and entries are freed only after an RCU grace period.  A
 * read-locked rwsem made a writeback pass sleep whenever the writer beside
 * it held nat_lock to allocate its next direct node, and each sleep sent
 * the pass's bios unfinished: 15-26 extra requests per GiB written.
 */
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/pagevec.h>
#include <linux/sort.h>
#include "f2fs.h"
#include "../trace-events/f2fs.h"

static struct kmem_cache *nat_entry_slab;

/*
 * One slab object of the NAT cache: the entry (what nm.nat_tree points at)
 * and the head that defers its freeing past lockless readers.
 */
struct nat_slot {
	struct f2fs_nat_cached ni;
	struct rcu_head rcu;
};

static struct f2fs_nat_cached *nat_slot_alloc(gfp_t gfp)
{
	struct nat_slot *slot = kmem_cache_alloc(nat_entry_slab, gfp);

	return slot ? &slot->ni : NULL;
}

/* Free at once: only for entries no reader can have seen. */
static void nat_slot_free(struct f2fs_nat_cached *e)
{
	kmem_cache_free(nat_entry_slab, container_of(e, struct nat_slot, ni));
}

static void nat_slot_free_rcu_cb(struct rcu_head *head)
{
	kmem_cache_free(nat_entry_slab,
			container_of(head, struct nat_slot, rcu));
}

/* Free an entry taken out of nm.nat_tree, after lockless readers. */
static void nat_slot_free_rcu(struct f2fs_nat_cached *e)
{
	call_rcu(&container_of(e, struct nat_slot, ni)->rcu,
		 nat_slot_free_rcu_cb);
}

/*
 * Bracket a change of a cached entry's fields, nm.nat_lock held for write.
 * Preemption stays off inside, so a lockless reader never spins on a
 * writer that is not running.
 */
static void nat_write_begin(struct f2fs_nm_info *nm)
{
	preempt_disable();
	write_seqcount_begin(&nm->nat_seq);
}

static void nat_write_end(struct f2fs_nm_info *nm)
{
	write_seqcount_end(&nm->nat_seq);
	preempt_enable();
}

/*
 * Copy the cached entry of @nid into @ni without nm.nat_lock.  Return:
 * whether the cache has @nid.
 */
static bool nat_cache_read(struct f2fs_nm_info *nm, u32 nid,
			   struct f2fs_nat_cached *ni)
{
	struct f2fs_nat_cached *e;
	unsigned int seq;
	bool found;

	rcu_read_lock();
	do {
		seq = read_seqcount_begin(&nm->nat_seq);
		e = xa_load(&nm->nat_tree, nid);
		found = !!e;
		if (e)	/* a copy torn by a writer is retried below */
			*ni = data_race(*e);
	} while (read_seqcount_retry(&nm->nat_seq, seq));
	rcu_read_unlock();
	return found;
}

/* Block holding the current copy of the NAT entries of @nid. */
static u32 nat_block_addr(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	u32 blk_ofs = nid / NAT_ENTRY_PER_BLOCK;
	u32 seg = blk_ofs >> sbi->log_blocks_per_seg;
	u32 addr;

	/* Copies alternate segment by segment: pair 0, pair 1, ... */
	addr = nm->nat_blkaddr + (seg << sbi->log_blocks_per_seg << 1) +
	       (blk_ofs & (sbi->blocks_per_seg - 1));
	if (f2fs_test_bit_msb(blk_ofs, nm->nat_bitmap))
		addr += sbi->blocks_per_seg;
	return addr;
}

/* The entry of @nid in its NAT block, read into @page. */
static struct f2fs_nat_entry *nat_entry_in(struct page *page, u32 nid)
{
	return &((struct f2fs_nat_block *)page_address(page))->
		entries[nid % NAT_ENTRY_PER_BLOCK];
}

static bool nat_from_journal(struct f2fs_sb_info *sbi, u32 nid,
			     struct f2fs_nat_entry *ne)
{
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal;
	unsigned int i, n = le16_to_cpu(j->n_nats);

	for (i = 0; i < n; i++) {
		if (le32_to_cpu(j->nat_j.entries[i].nid) == nid) {
			*ne = j->nat_j.entries[i].ne;
			return true;
		}
	}
	return false;
}

static void nat_cache_insert(struct f2fs_sb_info *sbi,
			     const struct f2fs_nat_cached *ni)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;

	e = nat_slot_alloc(GFP_NOFS);
	if (!e)
		return;		/* the cache is only an accelerator */
	*e = *ni;
	down_write(&nm->nat_lock);
	if (xa_insert(&nm->nat_tree, ni->nid, e, GFP_NOFS))
		nat_slot_free(e);
	else
		nm->nat_count++;
	up_write(&nm->nat_lock);
}

/**
 * f2fs_get_node_info - look up the NAT entry of a node.
 * @sbi: the mount.
 * @nid: node id.
 * @ni: filled with the entry.
 *
 * Return: 0; -EFSCORRUPTED when @nid is out of range or the entry points
 * outside the main area (logged when the entry is first read); -EIO or
 * -ENOMEM when the NAT block cannot be read.  A free nid is not an error
 * here: ni->blkaddr is then NULL_ADDR.
 */
int f2fs_get_node_info(struct f2fs_sb_info *sbi, u32 nid,
		       struct f2fs_nat_cached *ni)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_entry ne;
	enum f2fs_nat_source src = F2FS_NAT_CACHE;
	struct page *page;
	bool cached;

	if (nid < F2FS_RESERVED_NODE_NUM || nid >= nm->max_nid) {
		f2fs_err(sbi, "nid %u out of range", nid);
		return -EFSCORRUPTED;
	}

	cached = nat_cache_read(nm, nid, ni);
	if (!cached) {
		src = F2FS_NAT_JOURNAL;
		if (!nat_from_journal(sbi, nid, &ne)) {
			src = F2FS_NAT_BLOCK;
			page = f2fs_get_meta_page(sbi, nat_block_addr(sbi, nid));
			if (IS_ERR(page))
				return PTR_ERR(page);
			ne = *nat_entry_in(page, nid);
			put_page(page);
		}
		ni->nid = nid;
		ni->ino = le32_to_cpu(ne.ino);
		ni->blkaddr = le32_to_cpu(ne.block_addr);
		ni->version = ne.version;
		ni->checkpointed = ni->blkaddr != NULL_ADDR;
		/*
		 * Cached even when invalid, as it is on disk: every lookup
		 * still fails below, but only this first one logs.
		 */
		nat_cache_insert(sbi, ni);
	}
	atomic64_inc(&sbi->stats.nat_lookups[src]);
	trace_f2fs_nat_lookup(sbi->sb, nid, ni->ino, src, ni->blkaddr);
	if (ni->blkaddr != NULL_ADDR && ni->blkaddr != NEW_ADDR &&
	    !f2fs_valid_main_addr(sbi, ni->blkaddr)) {
		if (!cached)
			f2fs_err(sbi, "NAT entry of nid %u points to block %u outside the main area",
				 nid, ni->blkaddr);
		return -EFSCORRUPTED;
	}
	return 0;
}

static int f2fs_node_read_folio(struct file *file, struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_SB(folio->mapping->host->i_sb);
	struct f2fs_nat_cached ni;
	int err;

	err = f2fs_get_node_info(sbi, folio->index, &ni);
	if (!err && (ni.blkaddr == NULL_ADDR || ni.blkaddr == NEW_ADDR)) {
		f2fs_err(sbi, "node %lu is not allocated in the NAT",
			 folio->index);
		err = -EFSCORRUPTED;
	}
	if (err) {
		folio_set_error(folio);
		folio_unlock(folio);
		return err;
	}
	/* Readahead submits its own reads: a reader waits for this one. */
	atomic64_inc(&sbi->stats.node_reads[F2FS_NODE_READ_SYNC]);
	trace_f2fs_node_read(sbi->sb, ni.nid, ni.ino, ni.blkaddr,
			     F2FS_NODE_READ_SYNC);
	return f2fs_submit_page_read(sbi, &folio->page, ni.blkaddr);
}

static struct page *get_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				  u32 ofs, bool quiet)
{
	struct f2fs_nat_cached ni;
	struct f2fs_node *rn;
	struct page *page;
	int err;

	/* Validate the NAT entry first so that corruption is not an -EIO. */
	err = f2fs_get_node_info(sbi, nid, &ni);
	if (err)
		return ERR_PTR(err);
	if (ni.blkaddr == NEW_ADDR) {
		/* Created since the last write: it lives in the cache only. */
		page = find_get_page(sbi->node_inode->i_mapping, nid);
		if (page && !PageUptodate(page)) {
			put_page(page);
			page = NULL;
		}
	} else {
		page = NULL;
	}
	if (!page && (ni.blkaddr == NULL_ADDR || ni.blkaddr == NEW_ADDR)) {
		if (!quiet)
			f2fs_err(sbi, "node %u of inode %u is not allocated",
				 nid, ino);
		return ERR_PTR(-EFSCORRUPTED);
	}
	if (!page)
		page = read_mapping_page(sbi->node_inode->i_mapping, nid, NULL);
	if (IS_ERR(page))
		return ERR_PTR(-EIO);
	rn = page_address(page);
	if (le32_to_cpu(rn->footer.nid) != nid ||
	    le32_to_cpu(rn->footer.ino) != ino ||
	    (ofs != F2FS_ANY_NOFS && f2fs_node_ofs(rn) != ofs)) {
		if (quiet) {
			put_page(page);
			return ERR_PTR(-EFSCORRUPTED);
		}
		f2fs_err_page(sbi, page, "node %u footer (nid %u, ino %u, ofs %u) does not match (nid %u, ino %u, ofs %u)",
			      nid, le32_to_cpu(rn->footer.nid),
			      le32_to_cpu(rn->footer.ino), f2fs_node_ofs(rn),
			      nid, ino, ofs);
		put_page(page);
		return ERR_PTR(-EFSCORRUPTED);
	}
	return page;
}

/**
 * f2fs_get_node_page - read a node and check that it is the one expected.
 * @sbi: the mount.
 * @nid: node id.
 * @ino: inode that must own it.
 * @ofs: its offset in the inode's node tree (0 for the inode itself), or
 *	F2FS_ANY_NOFS when the caller learns it from the footer.
 *
 * Return: the uptodate page with a reference held (release with put_page()),
 * or ERR_PTR(-EFSCORRUPTED) when the footer names another node (logged once
 * per cached page), or the errors of f2fs_get_node_info() and of the read
 * (-EIO).
 */
struct page *f2fs_get_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 ino,
				u32 ofs)
{
	return get_node_page(sbi, nid, ino, ofs, false);
}

/**
 * f2fs_get_gc_node_page - read a node that the cleaner found through a
 * summary, whose owner may free or move it meanwhile.
 * @sbi: the mount.
 * @seen: its NAT entry as the caller read it.
 *
 * The cleaner holds no reference on the owner: between its NAT lookup and
 * the read, the file may be deleted (the entry becomes NULL_ADDR) or the
 * nid given to a new node.  That is a stale block, not corruption: it is
 * reported only when the NAT entry is still the one @seen.
 *
 * Return: the page as f2fs_get_node_page() returns it, NULL when the node
 * left @seen's entry, or its errors.
 */
struct page *f2fs_get_gc_node_page(struct f2fs_sb_info *sbi,
				   const struct f2fs_nat_cached *seen)
{
	struct f2fs_nat_cached now;
	struct page *page;

	page = get_node_page(sbi, seen->nid, seen->ino, F2FS_ANY_NOFS, true);
	if (!IS_ERR(page) || PTR_ERR(page) != -EFSCORRUPTED)
		return page;
	if (f2fs_get_node_info(sbi, seen->nid, &now) ||
	    now.blkaddr != seen->blkaddr || now.version != seen->version ||
	    now.ino != seen->ino)
		return NULL;
	/* The same entry: the node is bad, and this time it is said. */
	return get_node_page(sbi, seen->nid, seen->ino, F2FS_ANY_NOFS, false);
}

/*
 * ---- Node readahead ---------------------------------------------------------
 *
 * A caller that knows which nodes will be wanted soon (readdir: the inodes
 * of the entries it returns, which du and ls -l stat next) starts their
 * reads without waiting.  Each node not in the cache gets a locked,
 * !uptodate page in the node mapping; the read completion marks it
 * uptodate and unlocks it.  f2fs_get_node_page() then finds the page,
 * waiting on its lock if the read is still in flight, and checks its
 * footer as for any cached page.  A failed read leaves the page
 * !uptodate: the synchronous path reads it again and reports the error.
 * Readahead never reports errors itself; a bad NAT entry is logged by the
 * lookup, as it would be later by the reader.
 *
 * Neighbours: a tree written in one go (untar, cp -r) has its inodes in
 * the node log in the order they were made, so that the inodes of one
 * directory's entries lie among those of its subdirectories' entries,
 * which du and ls -lR stat next.  Reading only the entries asked for cuts
 * that run into many small requests, one or more per directory.  So each
 * block asked for also brings the valid node blocks that follow it in its
 * segment, up to node_ra_span blocks on: the segment's summary (SSA)
 * names each block's nid, and the nid's NAT entry, when it is at hand
 * without I/O, must name that very block.  A stale summary entry (of a
 * current segment) then fails the check, and only costs nothing read.
 * The SSA block itself is read synchronously, once per segment (512
 * nodes), and stays in the meta cache.
 */

/* Node blocks past each one asked for that readahead brings too. */
static unsigned int node_ra_span = 64;
module_param(node_ra_span, uint, 0644);
MODULE_PARM_DESC(node_ra_span, "node readahead also reads the valid node blocks up to this many blocks past each one asked for, in its segment (default 64, 0 = off)");

/* At most this many neighbours per readahead call. */
#define NODE_RA_NEIGHBOURS	256

/* A node being read ahead: its locked page and the block it comes from. */
struct node_ra {
	struct page *page;
	u32 blkaddr;
};

static int node_ra_cmp(const void *a, const void *b)
{
	const struct node_ra *x = a, *y = b;

	return x->blkaddr < y->blkaddr ? -1 : x->blkaddr > y->blkaddr;
}

/* The block of a cached NAT entry, without counting a lookup. */
static u32 nat_cached_addr(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nat_cached ni;

	return nat_cache_read(&sbi->nm, nid, &ni) ? ni.blkaddr : NULL_ADDR;
}

/*
 * The block of @nid if its NAT entry is at hand without I/O: cached, in
 * the journal, or in a NAT block in the meta cache.  NULL_ADDR otherwise.
 */
static u32 nat_addr_noio(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nat_entry ne;
	struct page *page;
	u32 addr = nat_cached_addr(sbi, nid);

	if (addr != NULL_ADDR || nid < F2FS_RESERVED_NODE_NUM ||
	    nid >= sbi->nm.max_nid)
		return addr;
	if (nat_from_journal(sbi, nid, &ne))
		return le32_to_cpu(ne.block_addr);
	page = find_get_page(sbi->meta_inode->i_mapping,
			     nat_block_addr(sbi, nid));
	if (!page)
		return NULL_ADDR;
	if (PageUptodate(page))
		addr = le32_to_cpu(nat_entry_in(page, nid)->block_addr);
	put_page(page);
	return addr;
}

/*
 * Add a locked page for @nid to the node mapping if no page is there and
 * the node lives in a block.  Returns the page with a reference, or NULL.
 */
static struct page *node_ra_page(struct f2fs_sb_info *sbi, u32 nid,
				 struct f2fs_nat_cached *ni)
{
	struct address_space *mapping = sbi->node_inode->i_mapping;
	gfp_t gfp = readahead_gfp_mask(mapping);
	struct folio *folio;
	u32 addr;

	if (nid < F2FS_RESERVED_NODE_NUM || nid >= sbi->nm.max_nid)
		return NULL;
	folio = filemap_get_folio(mapping, nid);
	if (folio) {
		folio_put(folio);
		return NULL;
	}
	if (f2fs_get_node_info(sbi, nid, ni) || ni->blkaddr == NULL_ADDR ||
	    ni->blkaddr == NEW_ADDR)
		return NULL;
	folio = filemap_alloc_folio(gfp, 0);
	if (!folio)
		return NULL;
	if (filemap_add_folio(mapping, folio, nid, gfp)) {
		folio_put(folio);	/* someone else has it (or no memory) */
		return NULL;
	}
	/*
	 * Now that the locked page is in the mapping the node cannot be
	 * written: take the block again in case a write moved it between
	 * the lookup and here.  If it was freed meanwhile, the page stays
	 * !uptodate and a reader reads (and fails) synchronously.
	 */
	addr = nat_cached_addr(sbi, nid);
	if (addr == NULL_ADDR || addr == NEW_ADDR ||
	    !f2fs_valid_main_addr(sbi, addr)) {
		folio_unlock(folio);
		folio_put(folio);
		return NULL;
	}
	ni->blkaddr = addr;
	return &folio->page;
}

/* Is @blkaddr among the first @nr of @ra (sorted by block)? */
static bool ra_has(const struct node_ra *ra, unsigned int nr, u32 blkaddr)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ra[mid].blkaddr == blkaddr)
			return true;
		if (ra[mid].blkaddr < blkaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Add to @ra (@nr nodes sorted by block, room for @cap) the neighbours of
 * each: see "Neighbours" above.  Returns the new count; @ra is no longer
 * sorted.
 */
static unsigned int ra_neighbours(struct f2fs_sb_info *sbi,
				  struct node_ra *ra, unsigned int nr,
				  unsigned int cap)
{
	unsigned int asked = nr, span = READ_ONCE(node_ra_span), i;
	struct f2fs_nat_cached ni;
	struct page *ssa = NULL;
	u32 segno = U32_MAX, from = 0, blk, end, seg_end, nid;

	for (i = 0; i < asked && nr < cap && span; i++) {
		u32 b = ra[i].blkaddr;

		if (f2fs_seg_of(sbi, b) != segno) {
			if (ssa)
				put_page(ssa);
			segno = f2fs_seg_of(sbi, b);
			ssa = f2fs_get_meta_page(sbi, sbi->ssa_blkaddr + segno);
			if (IS_ERR(ssa)) {
				ssa = NULL;
				break;
			}
			from = 0;
		}
		seg_end = f2fs_seg_blkaddr(sbi, segno) + sbi->blocks_per_seg;
		end = min_t(u32, b + 1 + span, seg_end);
		/* Windows overlap: start where the last one ended. */
		for (blk = max(b + 1, from); blk < end && nr < cap; blk++) {
			struct f2fs_summary_block *sum = page_address(ssa);

			if (ra_has(ra, asked, blk))
				continue;
			nid = le32_to_cpu(sum->entries[blk -
					f2fs_seg_blkaddr(sbi, segno)].nid);
			if (nat_addr_noio(sbi, nid) != blk)
				continue;
			ra[nr].page = node_ra_page(sbi, nid, &ni);
			if (!ra[nr].page)
				continue;
			/* Where it is now, should it have moved since. */
			ra[nr].blkaddr = ni.blkaddr;
			atomic64_inc(&sbi->stats.node_reads[F2FS_NODE_READ_RA]);
			atomic64_inc(&sbi->stats.node_ra_neighbours);
			trace_f2fs_node_read(sbi->sb, nid, ni.ino, ra[nr].blkaddr,
					     F2FS_NODE_READ_RA);
			nr++;
		}
		from = max(from, end);
	}
	if (ssa)
		put_page(ssa);
	return nr;
}

/**
 * f2fs_ra_node_pages - start reading nodes that are not in the cache.
 * @sbi: the mount.
 * @nids: the nodes; free, invalid, repeated and cached ones are skipped.
 * @n: how many.
 *
 * The valid node blocks that follow each in its segment come too (see
 * "Neighbours" above).  Reads are sorted by block and contiguous blocks go
 * in one bio.  Each read is counted in node_reads_ra and fires
 * f2fs_node_read (READAHEAD).
 * Nothing waits for the reads; on any failure (no memory, a bad NAT
 * entry) the node is simply not read ahead.
 *
 * Return: the number of nodes whose read was started.
 */
unsigned int f2fs_ra_node_pages(struct f2fs_sb_info *sbi, const u32 *nids,
				unsigned int n)
{
	struct block_device *bdev = sbi->sb->s_bdev;
	struct f2fs_nat_cached ni;
	struct node_ra *ra;
	struct blk_plug plug;
	unsigned int i, j, nr = 0;

	if (!n)
		return 0;
	ra = kmalloc_array(n + NODE_RA_NEIGHBOURS, sizeof(*ra),
			   GFP_NOFS | __GFP_NOWARN);
	if (!ra)
		return 0;
	for (i = 0; i < n; i++) {
		ra[nr].page = node_ra_page(sbi, nids[i], &ni);
		if (!ra[nr].page)
			continue;
		ra[nr].blkaddr = ni.blkaddr;
		atomic64_inc(&sbi->stats.node_reads[F2FS_NODE_READ_RA]);
		trace_f2fs_node_read(sbi->sb, nids[i], ni.ino, ni.blkaddr,
				     F2FS_NODE_READ_RA);
		nr++;
	}
	sort(ra, nr, sizeof(*ra), node_ra_cmp, NULL);
	if (nr) {
		nr = ra_neighbours(sbi, ra, nr, n + NODE_RA_NEIGHBOURS);
		sort(ra, nr, sizeof(*ra), node_ra_cmp, NULL);
	}

	blk_start_plug(&plug);
	for (i = 0; i < nr; i = j) {
		struct bio *bio;

		for (j = i + 1; j < nr && j - i < BIO_MAX_VECS &&
		     ra[j].blkaddr == ra[j - 1].blkaddr + 1; j++)
			;
		bio = bio_alloc(bdev, j - i, REQ_OP_READ | REQ_META | REQ_RAHEAD,
				GFP_NOFS);
		bio->bi_iter.bi_sector = (sector_t)ra[i].blkaddr <<
					 (F2FS_BLKSIZE_BITS - 9);
		bio->bi_end_io = f2fs_read_end_io;
		for (; i < j; i++) {
			__bio_add_page(bio, ra[i].page, PAGE_SIZE, 0);
			put_page(ra[i].page);	/* the locked page is cached */
		}
		submit_bio(bio);
	}
	blk_finish_plug(&plug);
	kfree(ra);
	return nr;
}

/*
 * Siblings: a file read in sequence (readahead) needs its direct nodes one
 * after another, and those under one indirect node were mostly written
 * together.  When the walk to a block finds its direct node not cached,
 * f2fs_ra_node_siblings() starts the reads of that node and of the next
 * ones its indirect node names, so that they come in a few requests
 * instead of one synchronous read per 4 MiB of file (a file rewritten in
 * place, or allocated around other logs' segments with alloc_mode=reuse,
 * is not one extent and needs them all).
 */
static unsigned int node_ra_siblings = 16;
module_param(node_ra_siblings, uint, 0644);
MODULE_PARM_DESC(node_ra_siblings, "a sequential read that needs a direct node not cached also reads ahead this many of the direct nodes that follow it under its indirect node (default 16, at most 64, 0 = off)");

#define NODE_RA_SIBLINGS_MAX	64

/**
 * f2fs_ra_node_siblings - read a direct node and the siblings after it.
 * @sbi: the mount.
 * @nids: the indirect node's nid slots (read without its page lock: a
 *	slot that changes meanwhile only costs a useless or missed read).
 * @slot: the slot of the direct node about to be read.
 *
 * Does nothing when that node is cached or node_ra_siblings is 0.
 * Otherwise starts the reads as f2fs_ra_node_pages() does.
 *
 * Return: the number of nodes whose read was started.
 */
unsigned int f2fs_ra_node_siblings(struct f2fs_sb_info *sbi,
				   const __le32 *nids, unsigned int slot)
{
	unsigned int want = min_t(unsigned int, READ_ONCE(node_ra_siblings),
				  NODE_RA_SIBLINGS_MAX);
	u32 buf[NODE_RA_SIBLINGS_MAX];
	struct folio *folio;
	unsigned int n = 0;
	u32 nid;

	if (!want || slot >= NIDS_PER_BLOCK)
		return 0;
	nid = le32_to_cpu(READ_ONCE(nids[slot]));
	folio = filemap_get_folio(sbi->node_inode->i_mapping, nid);
	if (folio) {
		folio_put(folio);
		return 0;
	}
	for (; slot < NIDS_PER_BLOCK && n < want; slot++) {
		nid = le32_to_cpu(READ_ONCE(nids[slot]));
		if (nid)
			buf[n++] = nid;
	}
	return f2fs_ra_node_pages(sbi, buf, n);
}

/**
 * f2fs_init_node_manager - set up NAT geometry and the version bitmap.
 * @sbi: the mount, with sbi->ckpt loaded.
 *
 * Return: 0, or -EFSCORRUPTED when the bitmap does not fit the pack.
 */
int f2fs_init_node_manager(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_checkpoint *cp = sbi->ckpt;
	u32 sit_bytes = le32_to_cpu(cp->sit_ver_bitmap_bytesize);
	const u8 *src;

	nm->nat_blkaddr = le32_to_cpu(raw->nat_blkaddr);
	nm->nat_blocks = (le32_to_cpu(raw->segment_count_nat) / 2) <<
			 sbi->log_blocks_per_seg;
	nm->max_nid = nm->nat_blocks * NAT_ENTRY_PER_BLOCK;
	nm->nat_bitmap_bytes = le32_to_cpu(cp->nat_ver_bitmap_bytesize);
	init_rwsem(&nm->nat_lock);
	seqcount_init(&nm->nat_seq);
	xa_init(&nm->nat_tree);
	xa_init(&nm->fsync_nodes);
	xa_init(&nm->fsync_inodes);
	atomic64_set(&nm->fsync_seq, 0);
	nm->fsync_nodes_lossy = BITS_PER_LONG < 64;
	atomic_set(&nm->fsync_index_faults, 0);

	/*
	 * Where the NAT bitmap sits in the pack: after a CRC word with
	 * CP_LARGE_NAT_BITMAP_FLAG, first when the SIT bitmap moved to the
	 * payload blocks, else after the SIT bitmap.
	 */
	if (f2fs_cp_flag(sbi, CP_LARGE_NAT_BITMAP_FLAG))
		src = cp->sit_nat_version_bitmap + sizeof(__le32);
	else if (le32_to_cpu(raw->cp_payload))
		src = cp->sit_nat_version_bitmap;
	else
		src = cp->sit_nat_version_bitmap + sit_bytes;
	if (src + nm->nat_bitmap_bytes > (u8 *)cp + sbi->ckpt_size) {
		f2fs_err(sbi, "NAT version bitmap does not fit the checkpoint");
		return -EFSCORRUPTED;
	}
	/* Kept in place: a checkpoint writes the flipped bits back. */
	nm->nat_bitmap = (u8 *)src;
	mutex_init(&nm->nid_lock);
	return 0;
}

static unsigned long nat_shrink_count(struct shrinker *shrink,
				      struct shrink_control *sc)
{
	struct f2fs_nm_info *nm = container_of(shrink, struct f2fs_nm_info,
					       shrinker);
	unsigned long cached = READ_ONCE(nm->nat_count);
	unsigned long dirty = READ_ONCE(nm->nat_dirty);

	return cached > dirty ? cached - dirty : 0;
}

/*
 * Drop up to sc->nr_to_scan clean entries, going round the nid space from
 * where the last scan stopped.  A clean entry holds what the NAT (or its
 * journal) says, so the next lookup reads it back.  Reclaim may come from
 * inside our own allocations, which hold nat_lock: only try it.
 */
static unsigned long nat_shrink_scan(struct shrinker *shrink,
				     struct shrink_control *sc)
{
	struct f2fs_nm_info *nm = container_of(shrink, struct f2fs_nm_info,
					       shrinker);
	struct f2fs_sb_info *sbi = container_of(nm, struct f2fs_sb_info, nm);
	unsigned long idx, freed = 0, seen = 0, total;
	struct f2fs_nat_cached *e;

	if (!down_write_trylock(&nm->nat_lock))
		return SHRINK_STOP;
	total = nm->nat_count;
	idx = nm->shrink_next;
	while (freed < sc->nr_to_scan && seen < total) {
		e = xa_find(&nm->nat_tree, &idx, ULONG_MAX, XA_PRESENT);
		if (!e) {
			if (!nm->shrink_next)
				break;
			nm->shrink_next = 0;
			idx = 0;
			continue;
		}
		seen++;
		if (!xa_get_mark(&nm->nat_tree, idx, F2FS_NAT_DIRTY)) {
			xa_erase(&nm->nat_tree, idx);
			nat_slot_free_rcu(e);
			nm->nat_count--;
			freed++;
		}
		nm->shrink_next = ++idx;
	}
	sbi->stats.nat_shrunk += freed;
	up_write(&nm->nat_lock);
	return freed;
}

/**
 * f2fs_register_nat_shrinker - let memory pressure trim the NAT cache.
 * @sbi: the mount, its node manager set up.
 *
 * Return: 0, or the error of register_shrinker() (-ENOMEM).
 */
int f2fs_register_nat_shrinker(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	int err;

	nm->shrinker.count_objects = nat_shrink_count;
	nm->shrinker.scan_objects = nat_shrink_scan;
	nm->shrinker.seeks = DEFAULT_SEEKS;
	err = register_shrinker(&nm->shrinker, "f2fs-nat:%s", sbi->sb->s_id);
	nm->shrinker_on = !err;
	return err;
}

/**
 * f2fs_destroy_node_manager - free the NAT cache and bitmap.
 * @sbi: the mount.
 */
void f2fs_destroy_node_manager(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;
	unsigned long idx;

	if (nm->shrinker_on)
		unregister_shrinker(&nm->shrinker);
	nm->shrinker_on = false;

	/* Unmounting: no lookup can run any more. */
	xa_for_each(&nm->nat_tree, idx, e)
		nat_slot_free(e);
	xa_destroy(&nm->nat_tree);
	xa_destroy(&nm->fsync_nodes);
	xa_destroy(&nm->fsync_inodes);
	nm->nat_count = 0;
	nm->nat_dirty = 0;
	nm->nat_bitmap = NULL;
	kfree(nm->free_nids);
	nm->free_nids = NULL;
}

/**
 * f2fs_create_nat_cache - create the slab for cached NAT entries.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_create_nat_cache(void)
{
	nat_entry_slab = kmem_cache_create("f2fs_nat_cached",
					   sizeof(struct nat_slot), 0,
					   SLAB_RECLAIM_ACCOUNT, NULL);
	return nat_entry_slab ? 0 : -ENOMEM;
}

/**
 * f2fs_destroy_nat_cache - destroy the slab of f2fs_create_nat_cache().
 */
void f2fs_destroy_nat_cache(void)
{
	rcu_barrier();		/* the shrinker's deferred frees */
	kmem_cache_destroy(nat_entry_slab);
}

static void nat_mark_dirty(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;

	if (!xa_get_mark(&nm->nat_tree, nid, F2FS_NAT_DIRTY)) {
		xa_set_mark(&nm->nat_tree, nid, F2FS_NAT_DIRTY);
		nm->nat_dirty++;
	}
}

/*
 * The cached entry of @nid, read from disk first if needed, returned with
 * nm.nat_lock held exclusive; NULL (unlocked) when it cannot be read.
 */
static struct f2fs_nat_cached *nat_entry_get(struct f2fs_sb_info *sbi,
					     u32 nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached ni, *e;

	for (;;) {
		down_write(&nm->nat_lock);
		e = xa_load(&nm->nat_tree, nid);
		if (e)
			return e;
		up_write(&nm->nat_lock);
		if (f2fs_get_node_info(sbi, nid, &ni))
			return NULL;
		down_write(&nm->nat_lock);
		if (!xa_load(&nm->nat_tree, nid)) {
			e = nat_slot_alloc(GFP_NOFS | __GFP_NOFAIL);
			*e = ni;
			if (xa_insert(&nm->nat_tree, nid, e,
				      GFP_NOFS | __GFP_NOFAIL))
				nat_slot_free(e);
			else
				nm->nat_count++;
		}
		up_write(&nm->nat_lock);
	}
}

/**
 * f2fs_set_node_addr - record where a node now lives.
 * @sbi: the mount.
 * @nid: the node, which must have been looked up or allocated before.
 * @blkaddr: its new block, NEW_ADDR (allocated, not yet written) or
 *	NULL_ADDR (freed; the node version is bumped so that stale copies of
 *	the node are never mistaken for live ones).
 */
void f2fs_set_node_addr(struct f2fs_sb_info *sbi, u32 nid, u32 blkaddr)
{
	struct f2fs_nat_cached *e = nat_entry_get(sbi, nid);

	if (!e)
		return;
	nat_write_begin(&sbi->nm);
	if (blkaddr == NULL_ADDR && e->blkaddr != NEW_ADDR)
		e->version++;
	e->blkaddr = blkaddr;
	nat_write_end(&sbi->nm);
	nat_mark_dirty(sbi, nid);
	up_write(&sbi->nm.nat_lock);
}

/* Is @nid usable for a new node: free on disk and not touched since? */
static bool nid_is_free(struct f2fs_sb_info *sbi, u32 nid, u32 disk_addr)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal;
	struct f2fs_nat_cached *e;
	unsigned int i;
	bool free = disk_addr == NULL_ADDR;

	for (i = 0; i < le16_to_cpu(j->n_nats); i++) {
		if (le32_to_cpu(j->nat_j.entries[i].nid) == nid) {
			free = !j->nat_j.entries[i].ne.block_addr;
			break;
		}
	}
	down_read(&nm->nat_lock);
	e = xa_load(&nm->nat_tree, nid);
	if (e && (e->blkaddr != NULL_ADDR ||
		  xa_get_mark(&nm->nat_tree, nid, F2FS_NAT_DIRTY)))
		free = false;
	up_read(&nm->nat_lock);
	return free;
}

/*
 * Refill the free nid list by scanning NAT blocks from nm->next_scan;
 * nid_lock held.  The next scan resumes at the first nid this one did not
 * look at, even inside a block: new nodes then fill each NAT block before
 * the next, and a tree's NAT entries stay in as few blocks as stock's.
 * (Resuming at the next block wasted every free nid past the batch's
 * 256th: 10,400 inodes took 40 NAT blocks instead of 23, each one more
 * block for a checkpoint to write and for a cold lookup to read.)
 */
static int scan_free_nids(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	u32 blocks = nm->nat_blocks, start = nm->next_scan, resume = 0;
	u32 b, i, nid, first, end;
	unsigned int scanned;

	if (start >= blocks * NAT_ENTRY_PER_BLOCK)
		start = 0;
	/* One lap, plus the head of the first block when it began inside. */
	for (scanned = 0; scanned <= blocks; scanned++) {
		struct f2fs_nat_block *nb;
		struct page *page;

		b = (start / NAT_ENTRY_PER_BLOCK + scanned) % blocks;
		first = scanned ? 0 : start % NAT_ENTRY_PER_BLOCK;
		end = scanned < blocks ? NAT_ENTRY_PER_BLOCK :
					 start % NAT_ENTRY_PER_BLOCK;
		if (first >= end)
			break;
		nid = b * NAT_ENTRY_PER_BLOCK;
		page = f2fs_get_meta_page(sbi, nat_block_addr(sbi, nid));
		if (IS_ERR(page))
			return PTR_ERR(page);
		nb = page_address(page);
		for (i = first; i < end; i++) {
			nid = b * NAT_ENTRY_PER_BLOCK + i;
			if (nm->free_cnt >= F2FS_FREE_NID_BATCH)
				break;
			if (nid < F2FS_RESERVED_NODE_NUM || nid == sbi->root_ino)
				continue;
			if (nid_is_free(sbi, nid,
					le32_to_cpu(nb->entries[i].block_addr)))
				nm->free_nids[nm->free_cnt++] = nid;
		}
		put_page(page);
		resume = (b * NAT_ENTRY_PER_BLOCK + i) %
			 (blocks * NAT_ENTRY_PER_BLOCK);
		if (nm->free_cnt >= F2FS_FREE_NID_BATCH / 2 ||
		    (nm->free_cnt && scanned >= 8))
			break;
	}
	nm->next_scan = resume;
	/* Hand out low nids first, as the scan found them. */
	for (i = 0; i < nm->free_cnt / 2; i++)
		swap(nm->free_nids[i], nm->free_nids[nm->free_cnt - 1 - i]);
	return nm->free_cnt ? 0 : -ENOSPC;
}

/**
 * f2fs_init_free_nids - prepare nid allocation for a writable mount.
 * @sbi: the mount.
 *
 * Return: 0 or -ENOMEM.
 */
int f2fs_init_free_nids(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	u32 hint = le32_to_cpu(sbi->ckpt->next_free_nid);

	nm->free_nids = kcalloc(F2FS_FREE_NID_BATCH, sizeof(u32), GFP_KERNEL);
	if (!nm->free_nids)
		return -ENOMEM;
	nm->free_cnt = 0;
	nm->next_scan = hint < nm->max_nid ? hint : 0;
	return 0;
}

/**
 * f2fs_alloc_nid - take a free nid for a new node of inode @ino.
 * @sbi: the mount.
 * @ino: the owning inode (the nid itself for a new inode: pass 0).
 * @nid: set to the nid.
 *
 * The nid's NAT entry becomes NEW_ADDR.  Undo with f2fs_alloc_nid_failed()
 * if the node is not created after all.
 *
 * Return: 0, -ENOSPC when the NAT has no free entry, or -EIO.
 */
int f2fs_alloc_nid(struct f2fs_sb_info *sbi, u32 ino, u32 *nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;
	int err = 0;
	u32 n;

	mutex_lock(&nm->nid_lock);
	for (;;) {
		if (!nm->free_cnt) {
			err = scan_free_nids(sbi);
			if (err)
				break;
		}
		n = nm->free_nids[--nm->free_cnt];
		e = nat_entry_get(sbi, n);
		if (!e) {
			err = -EIO;
			break;
		}
		if (e->blkaddr != NULL_ADDR) {
			up_write(&nm->nat_lock);
			continue;	/* taken since the scan */
		}
		nat_write_begin(nm);
		e->ino = ino ? ino : n;
		e->blkaddr = NEW_ADDR;
		nat_write_end(nm);
		nat_mark_dirty(sbi, n);
		up_write(&nm->nat_lock);
		*nid = n;
		break;
	}
	mutex_unlock(&nm->nid_lock);
	return err;
}

/**
 * f2fs_alloc_nid_failed - give back a nid from f2fs_alloc_nid() unused.
 * @sbi: the mount.
 * @nid: the nid.
 */
void f2fs_alloc_nid_failed(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_nat_cached *e;

	mutex_lock(&nm->nid_lock);
	e = nat_entry_get(sbi, nid);
	if (e) {
		nat_write_begin(nm);
		e->blkaddr = NULL_ADDR;
		e->ino = 0;
		nat_write_end(nm);
		up_write(&nm->nat_lock);
	}
	mutex_unlock(&nm->nid_lock);
}

/**
 * f2fs_next_free_nid - hint for the checkpoint's next_free_nid field.
 * @sbi: the mount.
 *
 * Return: a nid where a scan for free nids may start.
 */
u32 f2fs_next_free_nid(struct f2fs_sb_info *sbi)
{
	u32 n;

	mutex_lock(&sbi->nm.nid_lock);
	n = sbi->nm.free_cnt ? sbi->nm.free_nids[sbi->nm.free_cnt - 1] :
			       sbi->nm.next_scan;
	mutex_unlock(&sbi->nm.nid_lock);
	return n;
}

static bool charge_blocks(struct f2fs_sb_info *sbi, bool node, bool inode)
{
	bool ok = false;

	spin_lock(&sbi->stat_lock);
	if (sbi->total_valid_blocks + 1 <= sbi->user_block_count &&
	    (!node || sbi->valid_node_count + 1 <= sbi->total_node_count)) {
		sbi->total_valid_blocks++;
		if (node)
			sbi->valid_node_count++;
		if (inode)
			sbi->valid_inode_count++;
		ok = true;
	}
	spin_unlock(&sbi->stat_lock);
	return ok;
}

/* Undo charge_blocks() for a node (and an inode). */
static void uncharge_node(struct f2fs_sb_info *sbi, bool inode)
{
	spin_lock(&sbi->stat_lock);
	sbi->total_valid_blocks--;
	sbi->valid_node_count--;
	if (inode)
		sbi->valid_inode_count--;
	spin_unlock(&sbi->stat_lock);
}

/**
 * f2fs_new_node_page - create a new, empty node in the page cache.
 * @inode: the owning inode.
 * @nid: from f2fs_alloc_nid() (the inode number itself for an inode).
 * @ofs: the node's offset in the inode's node tree (0 for the inode).
 *
 * The footer is filled in, the page is dirty, and the block and node
 * counts (and i_blocks for nodes other than the inode) are charged.
 *
 * Return: the locked page, or ERR_PTR(-ENOSPC) / ERR_PTR(-ENOMEM).  On
 * error the caller still owns @nid and gives it back.
 */
struct page *f2fs_new_node_page(struct inode *inode, u32 nid, u32 ofs)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_node *rn;
	struct page *page;
	u32 flag;

	if (!charge_blocks(sbi, true, ofs == 0))
		return ERR_PTR(-ENOSPC);
	page = grab_cache_page(sbi->node_inode->i_mapping, nid);
	if (!page) {
		uncharge_node(sbi, ofs == 0);
		return ERR_PTR(-ENOMEM);
	}
	wait_on_page_writeback(page);
	rn = page_address(page);
	memset(rn, 0, PAGE_SIZE);
	flag = ofs << OFFSET_BIT_SHIFT;
	/* The design's cold bit: nodes of files, not of directories. */
	if (!S_ISDIR(inode->i_mode))
		flag |= BIT(COLD_BIT_SHIFT);
	rn->footer.nid = cpu_to_le32(nid);
	rn->footer.ino = cpu_to_le32(ofs ? inode->i_ino : nid);
	rn->footer.flag = cpu_to_le32(flag);
	rn->footer.cp_ver = cpu_to_le64(sbi->cp_ver);
	SetPageUptodate(page);
	set_page_dirty(page);
	if (ofs)
		f2fs_i_blocks_add(inode);
	return page;
}

/**
 * f2fs_free_node - release a node: its block, NAT entry, counts and page.
 * @inode: the owning inode.
 * @nid: the node (the inode's own nid releases the inode block).
 *
 * The caller must not hold the node's page lock.
 */
void f2fs_free_node(struct inode *inode, u32 nid)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct address_space *nmap = sbi->node_inode->i_mapping;
	struct f2fs_nat_cached ni;
	loff_t pos = (loff_t)nid << PAGE_SHIFT;

	/*
	 * Drop the cached page first, waiting for a writeback of it that may
	 * be moving the node to a new block: reading the NAT before that
	 * could free the old block while the write points the NAT at a new
	 * one, which would then stay in use with no owner.
	 */
	truncate_inode_pages_range(nmap, pos, pos + PAGE_SIZE - 1);
	if (f2fs_get_node_info(sbi, nid, &ni))
		return;
	if (ni.blkaddr == NULL_ADDR)
		return;
	f2fs_invalidate_block(sbi, ni.blkaddr);
	f2fs_set_node_addr(sbi, nid, NULL_ADDR);
	uncharge_node(sbi, nid == inode->i_ino);
	if (nid != inode->i_ino)
		f2fs_i_blocks_sub(inode);
}

static enum f2fs_log_type node_log_type(struct f2fs_node *rn)
{
	if (!f2fs_node_is_dnode(rn))
		return F2FS_LOG_COLD_NODE;
	return f2fs_node_is_cold(rn) ? F2FS_LOG_WARM_NODE : F2FS_LOG_HOT_NODE;
}

/*
 * Write one locked node page (its dirty bit already cleared) to a new block
 * of its log; the caller holds sbi->cp_rwsem (shared, or by being the
 * checkpoint).  @marks are the footer's fsync and dentry bits for an fsync
 * record (0 for any other write, which clears them).  Returns with the page
 * unlocked, and submitted (or in @batch, when given), on success; locked on
 * error.
 */
static int write_node_page(struct f2fs_sb_info *sbi, struct page *page,
			   u32 marks, blk_opf_t opf, struct f2fs_wbatch *batch)
{
	struct f2fs_block_owner owner = { .cause = F2FS_WRITE_NODE };
	struct f2fs_summary sum = {};
	struct f2fs_nat_cached ni;
	struct f2fs_node *rn = page_address(page);
	enum f2fs_log_type type = node_log_type(rn);
	u32 nid = page->index, newaddr, next, flag;
	int err;

	err = f2fs_get_node_info(sbi, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr == NULL_ADDR) {
		/* Freed before it was written: nothing to write. */
		unlock_page(page);
		return 0;
	}
	sum.nid = cpu_to_le32(nid);
	sum.version = ni.version;
	owner.ino = ni.ino;
	owner.index = nid;
	owner.old_blkaddr = ni.blkaddr;
	/*
	 * Writeback starts only once the block is allocated: until then the
	 * page keeps its dirty tag, so that an fsync looking for this inode's
	 * dirty nodes finds it and waits on its lock, which orders this block
	 * before the fsync mark.
	 */
	err = f2fs_alloc_block(sbi, type, &sum, &owner, &newaddr, &next);
	if (err)
		return err;
	set_page_writeback(page);
	flag = le32_to_cpu(rn->footer.flag) &
	       ~(BIT(FSYNC_BIT_SHIFT) | BIT(DENT_BIT_SHIFT));
	rn->footer.flag = cpu_to_le32(flag | marks);
	rn->footer.cp_ver = cpu_to_le64(f2fs_chain_ver(sbi));
	rn->footer.next_blkaddr = cpu_to_le32(next);
	f2fs_set_node_addr(sbi, nid, newaddr);
	if (ni.blkaddr != NEW_ADDR)
		f2fs_invalidate_block(sbi, ni.blkaddr);
	unlock_page(page);
	if (batch)
		f2fs_batch_write(sbi, batch, page, newaddr, REQ_META | opf,
				 owner.epoch, type);
	else
		f2fs_submit_write(sbi, page, newaddr, REQ_META | opf,
				  owner.epoch);
	return 0;
}

static int do_node_writepage(struct page *page, struct writeback_control *wbc,
			     void *batch)
{
	struct f2fs_sb_info *sbi = F2FS_SB(page->mapping->host->i_sb);
	bool in_cp = f2fs_in_checkpoint(sbi);
	int err;

	/* During recovery only its checkpoint writes: the chain must stay. */
	if (!sbi->writable || (sbi->recovering && !in_cp))
		goto redirty;
	if (!in_cp && !down_read_trylock(&sbi->cp_rwsem))
		goto redirty;
	err = write_node_page(sbi, page, 0, wbc_to_write_flags(wbc), batch);
	if (!in_cp)
		f2fs_unlock_op(sbi);
	if (!err)
		return 0;
	if (err == -ENOSPC && !in_cp)
		f2fs_wake_cleaner(sbi);	/* the checkpoint writes it */
	else if (err != -EAGAIN && !f2fs_writes_failed(sbi))
		f2fs_err(sbi, "cannot write node %lu (%d)", page->index, err);
redirty:
	redirty_page_for_writepage(wbc, page);
	unlock_page(page);
	return 0;
}

static int f2fs_node_writepage(struct page *page, struct writeback_control *wbc)
{
	return do_node_writepage(page, wbc, NULL);
}

/*
 * Does @mapping have at least @n dirty pages?  A bounded walk of the
 * dirty tag: the node cache keeps no count of its own.
 */
static bool dirty_at_least(struct address_space *mapping, unsigned long n)
{
	XA_STATE(xas, &mapping->i_pages, 0);
	unsigned long seen = 0;
	struct folio *folio;

	rcu_read_lock();
	xas_for_each_marked(&xas, folio, ULONG_MAX, PAGECACHE_TAG_DIRTY) {
		if (xas_retry(&xas, folio))
			continue;
		if (++seen >= n)
			break;
	}
	rcu_read_unlock();
	return seen >= n;
}

/*
 * Dirty node pages below which background writeback leaves them to the
 * checkpoint: 1/64 of memory (4 MiB in 256 MiB), at most eight segments'
 * worth, stock's own bar.  Far below the background dirty threshold (10%
 * of available memory by default), so the flusher is never left with
 * only pages it skips while over that threshold.
 */
static unsigned long bg_node_pages(struct f2fs_sb_info *sbi)
{
	return min_t(unsigned long, 8 * sbi->blocks_per_seg,
		     totalram_pages() / 64);
}

/*
 * Node writeback sends runs of adjacent node blocks as single bios (see
 * f2fs_batch_write(), which also sends the batch should the pass sleep: a
 * data writer may hold a parent node locked while it waits for a child's
 * write).
 */
static int write_node_pages(struct address_space *mapping,
			    struct writeback_control *wbc)
{
	struct f2fs_wbatch batch = {};
	struct blk_plug plug;
	int err;

	blk_start_plug(&plug);
	err = write_cache_pages(mapping, wbc, do_node_writepage, &batch);
	f2fs_batch_submit(&batch);
	blk_finish_plug(&plug);
	return err;
}

static int f2fs_node_writepages(struct address_space *mapping,
				struct writeback_control *wbc)
{
	struct f2fs_sb_info *sbi = F2FS_SB(mapping->host->i_sb);

	/*
	 * Node blocks count only once a checkpoint points at them, and data
	 * writeback dirties them again: the flusher writes them only to
	 * relieve memory (reclaim, and background writeback once they are
	 * many: bg_node_pages()).  Its periodic and sync passes leave them
	 * to the checkpoint that follows (sync's ->sync_fs, or the periodic
	 * one), which writes each of them once.  A pass of sync that writes
	 * them before the data they point to had them written twice (untar
	 * + sync: 18% more sectors than stock); background passes during a
	 * 1 GiB dd wrote each direct node several times, a few blocks per
	 * request, as data writeback filled it (170 requests where stock's
	 * checkpoint takes three).
	 */
	if (!f2fs_in_checkpoint(sbi) && !wbc->for_reclaim &&
	    (wbc->for_background ?
	     !dirty_at_least(mapping, bg_node_pages(sbi)) :
	     (wbc->sync_mode == WB_SYNC_NONE || wbc->for_sync))) {
		wbc->pages_skipped++;
		return 0;
	}
	return write_node_pages(mapping, wbc);
}

/**
 * f2fs_relieve_nodes - start writing node pages once inode updates have
 * dirtied many clean ones.
 * @sbi: the mount; the caller holds no page lock, and cp_rwsem only by
 * being the checkpoint.
 *
 * f2fs_update_inode() rereads inode blocks that reclaim dropped, and
 * dirties them.  Nothing else limits those pages: writeback skips most
 * node passes (f2fs_node_writepages()), reclaim frees only clean pages
 * (kswapd writes a few dirty ones), and while a checkpoint holds
 * cp_rwsem nobody but the checkpoint may write a node page.  A checkpoint
 * copying 40,000 evicted inodes filled a 256 MiB guest so, and its next
 * reread's GFP_NOFS allocation looped in reclaim for good (test 64's
 * umount).  Every bg_node_pages() such pages, this sends the node pages
 * dirty so far, without waiting: once written they can be reclaimed.
 * Pages that were dirty already do not count: an untar's new inodes
 * must wait for their data's addresses, or they are written twice.
 */
void f2fs_relieve_nodes(struct f2fs_sb_info *sbi)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE,
		.nr_to_write = LONG_MAX,
		.range_end = LLONG_MAX,
	};
	long now = atomic_long_read(&nm->inode_pages_dirtied);
	long last = atomic_long_read(&nm->inode_pages_relieved);

	if (now - last < (long)bg_node_pages(sbi) ||
	    atomic_long_cmpxchg(&nm->inode_pages_relieved, last, now) != last)
		return;
	write_node_pages(sbi->node_inode->i_mapping, &wbc);
}

/**
 * f2fs_move_node_page - have a node block rewritten elsewhere.
 * @sbi: the mount.
 * @nid: the node the block's summary names.
 * @blkaddr: the block to move.
 *
 * Garbage collection moves a node by dirtying its page: the next write of
 * the page (by writeback or by the checkpoint that follows GC) takes a new
 * block in the node's log and invalidates @blkaddr.  A block that no longer
 * holds the current copy of @nid is left alone.
 *
 * Return: 1 when the page was dirtied, 0 when the block is stale, or a
 * read error.
 */
int f2fs_move_node_page(struct f2fs_sb_info *sbi, u32 nid, u32 blkaddr)
{
	struct f2fs_nat_cached ni;
	struct page *page;
	int err;

	err = f2fs_get_node_info(sbi, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr != blkaddr)
		return 0;
	page = f2fs_get_gc_node_page(sbi, &ni);
	if (IS_ERR_OR_NULL(page))
		return PTR_ERR_OR_ZERO(page);
	/* A checkpoint must not find the page dirtied after its node flush. */
	f2fs_lock_op(sbi);
	lock_page(page);
	err = 0;
	if (page->mapping == sbi->node_inode->i_mapping) {
		wait_on_page_writeback(page);
		/* Written meanwhile: it left @blkaddr already. */
		if (!f2fs_get_node_info(sbi, nid, &ni) && ni.blkaddr == blkaddr) {
			set_page_dirty(page);
			err = 1;
		}
	}
	unlock_page(page);
	f2fs_unlock_op(sbi);
	put_page(page);
	return err;
}

/**
 * f2fs_nid_checkpointed - does the last checkpoint have a block for @nid?
 * @sbi: the mount.
 * @nid: a node id.
 *
 * Return: true when the checkpoint's NAT maps @nid to a block (a node
 * created since, or whose NAT entry cannot be read, gives false).
 */
bool f2fs_nid_checkpointed(struct f2fs_sb_info *sbi, u32 nid)
{
	struct f2fs_nat_cached ni;

	return !f2fs_get_node_info(sbi, nid, &ni) && ni.checkpointed;
}

/* Lock a dirty node page of @ino found by a tag lookup, or drop it. */
static bool lock_fsync_page(struct f2fs_sb_info *sbi, struct page *page,
			    u32 ino)
{
	struct f2fs_node *rn = page_address(page);

	lock_page(page);
	if (page->mapping != sbi->node_inode->i_mapping ||
	    le32_to_cpu(rn->footer.ino) != ino || !f2fs_node_is_dnode(rn)) {
		unlock_page(page);
		return false;
	}
	wait_on_page_writeback(page);
	if (!clear_page_dirty_for_io(page)) {
		unlock_page(page);
		return false;
	}
	return true;
}

/* Write a locked node page of an fsync record; on failure keep it dirty. */
static int write_record_page(struct f2fs_sb_info *sbi, struct page *page,
			     u32 marks, struct f2fs_wbatch *batch)
{
	int err = write_node_page(sbi, page, marks, REQ_SYNC, batch);

	if (err) {
		set_page_dirty(page);
		unlock_page(page);
	}
	return err;
}

/*
 * Keep @page (referenced) as the last node found in *@held, and write the
 * one held before it if it is still a dirty direct node of @ino.
 */
static int hold_write_prev(struct f2fs_sb_info *sbi, struct page *page,
			   u32 ino, struct f2fs_wbatch *batch,
			   struct page **held)
{
	int err = 0;

	swap(page, *held);
	if (!page)
		return 0;
	if (lock_fsync_page(sbi, page, ino))
		err = write_record_page(sbi, page, 0, batch);
	put_page(page);
	return err;
}

/*
 * Write the dirty direct nodes of @ino other than the inode itself, except
 * the last one found, which is left to the caller in *@held (referenced,
 * not locked: it may carry the fsync mark; the caller puts it on error
 * too).  A page another writer is writing now is locked until it has its
 * block, so locking each tagged page also orders such writes before the
 * fsync mark.  This scans every dirty node page of the mount: it serves
 * when nm.fsync_nodes lost an entry.
 */
static int fsync_dnodes(struct f2fs_sb_info *sbi, u32 ino,
			struct f2fs_wbatch *batch, struct page **held)
{
	struct address_space *mapping = sbi->node_inode->i_mapping;
	struct pagevec pvec;
	pgoff_t index = 0;
	unsigned int i, n;
	int err = 0;

	*held = NULL;
	pagevec_init(&pvec);
	while (!err && (n = pagevec_lookup_tag(&pvec, mapping, &index,
					       PAGECACHE_TAG_DIRTY))) {
		for (i = 0; i < n && !err; i++) {
			struct page *page = pvec.pages[i];
			struct f2fs_node *rn = page_address(page);

			if (page->index == ino ||
			    le32_to_cpu(rn->footer.ino) != ino)
				continue;
			get_page(page);
			err = hold_write_prev(sbi, page, ino, batch, held);
		}
		pagevec_release(&pvec);
		cond_resched();
	}
	return err;
}

/*
 * The same as fsync_dnodes(), for the node pages nm.fsync_nodes has for
 * @ino (f2fs_node_dirty_folio()): every one is locked, dirty or not, as
 * the scan locks every tagged page, and they come in nid order, as there.
 */
static int fsync_own_dnodes(struct f2fs_sb_info *sbi, u32 ino,
			    struct f2fs_wbatch *batch, struct page **held)
{
	struct address_space *mapping = sbi->node_inode->i_mapping;
	struct page *page;
	unsigned long key;
	void *entry;
	int err = 0;

	*held = NULL;
	xa_for_each_range(&sbi->nm.fsync_nodes, key, entry, fsync_key(ino, 0),
			  fsync_key(ino, U32_MAX)) {
		page = find_get_page(mapping, (u32)key);
		if (!page)
			continue;
		err = hold_write_prev(sbi, page, ino, batch, held);
		if (err)
			break;
		cond_resched();
	}
	return err;
}

/*
 * The value nm.fsync_seq has now, once every entry stamped with it or less
 * is in its index: each is stamped and stored under its index's lock, so
 * taking both locks after reading the counter waits for the stores.
 */
static u64 fsync_seq_now(struct f2fs_nm_info *nm)
{
	u64 seq = atomic64_read(&nm->fsync_seq);

	xa_lock(&nm->fsync_nodes);
	xa_unlock(&nm->fsync_nodes);
	xa_lock(&nm->fsync_inodes);
	xa_unlock(&nm->fsync_inodes);
	return seq;
}

/*
 * Has anything a record of @inode carries changed since its last record
 * with the inode block was durable?  A node block of it dirtied since (an
 * entry of nm.fsync_nodes past what that record covered, rec_seq, or of
 * nm.fsync_inodes past rec_iseq), or its fields, if it is listed dirty and
 * they differ from its inode block.  After a checkpoint the indexes have
 * nothing of it until it changes again.
 */
static bool changed_since_record(struct f2fs_sb_info *sbi, struct inode *inode)
{
	struct f2fs_inode_info *fi = F2FS_I(inode);
	u32 ino = inode->i_ino;
	u64 seq, iseq;
	unsigned long key;
	void *entry;
	bool dirty;

	if (READ_ONCE(sbi->nm.fsync_nodes_lossy))
		return true;
	spin_lock(&sbi->inode_lock);
	dirty = fi->meta_dirty;
	seq = fi->rec_seq;
	iseq = max(fi->rec_seq, fi->rec_iseq);
	spin_unlock(&sbi->inode_lock);
	entry = xa_load(&sbi->nm.fsync_inodes, ino);
	if (entry && xa_to_value(entry) > iseq)
		return true;
	xa_for_each_range(&sbi->nm.fsync_nodes, key, entry, fsync_key(ino, 0),
			  fsync_key(ino, U32_MAX))
		if (xa_to_value(entry) > seq)
			return true;
	/* listed dirty: changed unless the fields are in the block already */
	return dirty && !f2fs_inode_fields_written(inode);
}

/* The entry of the inode block of @ino, which the caller holds locked. */
static u64 inode_entry_seq(struct f2fs_sb_info *sbi, u32 ino)
{
	void *entry = xa_load(&sbi->nm.fsync_inodes, ino);

	return entry ? xa_to_value(entry) : 0;
}

/**
 * f2fs_fsync_node_pages - write an fsync record of a regular file.
 * @inode: the file, whose data pages are written already.
 * @datasync: an fdatasync (the times need not be durable).
 *
 * The file's dirty direct nodes go to the warm node log, and then its
 * inode block, carrying the fsync mark (and the dentry mark when the
 * checkpoint does not have the inode yet, so that recovery links it into
 * its parent by the name kept in the inode).  When the inode block on disk
 * still holds the file but for a grown size (f2fs_inode_block_current()),
 * it stays out, and the last direct node carries the mark: an append of
 * whole blocks past the inode's own addresses then costs one node block,
 * as in stock f2fs.  The blocks of the record go out as one bio where they
 * are adjacent.  Every block allocated before the mark is waited for and
 * the device cache flushed, so the chain of warm node blocks from the
 * checkpoint up to the mark is durable on return.
 *
 * Nothing is written, nor the cache flushed, when nothing a record carries
 * changed since the file's last record with its inode block was durable
 * (or since the checkpoint): that state is on the device already.
 *
 * Return: 0; F2FS_FSYNC_NOTHING when nothing changed; -ENOSPC when the
 * log has no room, or -EAGAIN when a link or rename made a record unfit
 * meanwhile (the caller falls back to a checkpoint in both cases); -EIO;
 * or a node read error.
 */
int f2fs_fsync_node_pages(struct inode *inode, bool datasync)
{
	struct f2fs_sb_info *sbi = F2FS_I_SB(inode);
	struct f2fs_inode_info *fi = F2FS_I(inode);
	u32 ino = inode->i_ino, marks = BIT(FSYNC_BIT_SHIFT);
	struct f2fs_wbatch batch = {};
	struct page *ipage, *last;
	struct blk_plug plug;
	u64 seq, iseq = 0;
	bool no_inode;
	int err;

	f2fs_lock_op(sbi);
	/* Links and renames hold cp_rwsem: re-check what the caller saw. */
	if (inode->i_nlink != 1 || F2FS_I(inode)->need_cp_ver == sbi->cp_ver) {
		err = -EAGAIN;
		goto unlock_op;
	}
	/*
	 * An inode the checkpoint lacks goes with the dentry mark, once per
	 * checkpoint: recovery takes the mark from the last inode block up
	 * to a record's fsync mark, or rebuilds the inode from it.
	 */
	if (!f2fs_nid_checkpointed(sbi, ino) &&
	    F2FS_I(inode)->dent_rec_ver != sbi->cp_ver) {
		if (!f2fs_nid_checkpointed(sbi, F2FS_I(inode)->i_pino)) {
			err = -EAGAIN;
			goto unlock_op;
		}
		marks |= BIT(DENT_BIT_SHIFT);
	}
	if (!(marks & BIT(DENT_BIT_SHIFT)) && !changed_since_record(sbi, inode)) {
		f2fs_unlock_op(sbi);
		return F2FS_FSYNC_NOTHING;
	}
	/* every node dirtied up to here is in the index for the walk */
	seq = fsync_seq_now(&sbi->nm);
	no_inode = !(marks & BIT(DENT_BIT_SHIFT)) &&
		   f2fs_inode_block_current(inode, datasync);
	blk_start_plug(&plug);
	if (READ_ONCE(sbi->nm.fsync_nodes_lossy)) {
		err = fsync_dnodes(sbi, ino, &batch, &last);
	} else {
		err = fsync_own_dnodes(sbi, ino, &batch, &last);
		atomic64_inc(&sbi->stats.fsync_no_scan);
	}
	if (err)
		goto put_last;
	if (last && lock_fsync_page(sbi, last, ino)) {
		err = write_record_page(sbi, last, no_inode ? marks : 0, &batch);
		if (err || no_inode) {
			if (!err)
				atomic64_inc(&sbi->stats.fsync_no_inode);
			goto put_last;
		}
	}
	err = f2fs_update_inode(inode);
	if (err)
		goto put_last;
	ipage = f2fs_get_node_page(sbi, ino, ino, 0);
	if (IS_ERR(ipage)) {
		err = PTR_ERR(ipage);
		goto put_last;
	}
	lock_page(ipage);
	wait_on_page_writeback(ipage);
	/* the block holds every change up to here (a later one: a later seq) */
	iseq = inode_entry_seq(sbi, ino);
	/* Written even when clean: the record needs its mark. */
	clear_page_dirty_for_io(ipage);
	err = write_record_page(sbi, ipage, marks, &batch);
	if (!err && (marks & BIT(DENT_BIT_SHIFT)))
		F2FS_I(inode)->dent_rec_ver = sbi->cp_ver;
	put_page(ipage);
put_last:
	if (last)
		put_page(last);
	f2fs_batch_submit(&batch);
	blk_finish_plug(&plug);
unlock_op:
	f2fs_unlock_op(sbi);
	if (err)
		return err;
	/*
	 * The record's nodes may point at blocks of this file whose writes
	 * began after the caller's wait: a page outside an O_SYNC write's
	 * range, a page written back again for a concurrent writer, or one
	 * the cleaner moved.  Each such page was under writeback before its
	 * block went into a node, so waiting for the file's pages under
	 * writeback now covers every block the record can name (the epoch
	 * below covers only the warm node chain).
	 */
	filemap_fdatawait_keep_errors(inode->i_mapping);
	f2fs_wait_epoch(sbi);
	if (atomic_read(&sbi->wb_error))
		return -EIO;
	err = blkdev_issue_flush(sbi->sb->s_bdev);
	if (!err && iseq) {
		/* durable: the record covers the index up to seq, and iseq */
		spin_lock(&sbi->inode_lock);
		fi->rec_seq = max(fi->rec_seq, seq);
		fi->rec_iseq = max(fi->rec_iseq, iseq);
		spin_unlock(&sbi->inode_lock);
	}
	return err;
}

/**
 * f2fs_recover_inode_page - recreate an inode that only an fsync record has.
 * @sbi: the mount, during recovery.
 * @src: the inode block from the record.
 *
 * The inode's nid becomes allocated again and its block is rebuilt in the
 * node cache from @src, without its block addresses and node ids: recovery
 * replays those into the new tree, charging them as it goes.
 *
 * Return: 0; -EFSCORRUPTED when the nid is in use already; -ENOSPC;
 * -ENOMEM; or a NAT read error.
 */
int f2fs_recover_inode_page(struct f2fs_sb_info *sbi, const struct f2fs_node *src)
{
	u32 ino = le32_to_cpu(src->footer.ino);
	struct f2fs_nat_cached *e;
	struct f2fs_inode *ri;
	struct f2fs_node *rn;
	struct page *page;
	unsigned int extra, naddrs, xattr;
	u32 flag;

	e = nat_entry_get(sbi, ino);
	if (!e)
		return -EIO;
	if (e->blkaddr != NULL_ADDR) {
		up_write(&sbi->nm.nat_lock);
		return -EFSCORRUPTED;
	}
	nat_write_begin(&sbi->nm);
	e->ino = ino;
	e->blkaddr = NEW_ADDR;
	nat_write_end(&sbi->nm);
	nat_mark_dirty(sbi, ino);
	up_write(&sbi->nm.nat_lock);

	if (!charge_blocks(sbi, true, true)) {
		f2fs_set_node_addr(sbi, ino, NULL_ADDR);
		return -ENOSPC;
	}
	page = grab_cache_page(sbi->node_inode->i_mapping, ino);
	if (!page) {
		uncharge_node(sbi, true);
		f2fs_set_node_addr(sbi, ino, NULL_ADDR);
		return -ENOMEM;
	}
	rn = page_address(page);
	memcpy(rn, src, PAGE_SIZE);
	ri = &rn->i;
	flag = le32_to_cpu(rn->footer.flag) &
	       ~(BIT(FSYNC_BIT_SHIFT) | BIT(DENT_BIT_SHIFT));
	rn->footer.flag = cpu_to_le32(flag);
	rn->footer.next_blkaddr = 0;
	memset(ri->i_nid, 0, sizeof(ri->i_nid));
	ri->i_xattr_nid = 0;
	/* Block addresses come back through the replay; inline data stays. */
	if (!(ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) {
		extra = ri->i_inline & F2FS_EXTRA_ATTR ?
			le16_to_cpu(ri->i_extra_isize) / sizeof(__le32) : 0;
		xattr = ri->i_inline & F2FS_INLINE_XATTR ?
			DEFAULT_INLINE_XATTR_ADDRS : 0;
		if (extra && f2fs_has_feature(sbi, F2FS_FEAT_FLEXIBLE_INLINE_XATTR))
			xattr = le16_to_cpu(ri->i_inline_xattr_size);
		naddrs = DEF_ADDRS_PER_INODE;
		if (extra + xattr < naddrs) {
			naddrs -= extra + xattr;
			memset(&ri->i_addr[extra], 0, naddrs * sizeof(__le32));
		}
	}
	ri->i_blocks = cpu_to_le64(1);
	memset(&ri->i_ext, 0, sizeof(ri->i_ext));
	SetPageUptodate(page);
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	return 0;
}

/**
 * f2fs_drop_recovered_inode - undo f2fs_recover_inode_page().
 * @sbi: the mount, during recovery.
 * @ino: the rebuilt inode, which could not be read back.
 */
void f2fs_drop_recovered_inode(struct f2fs_sb_info *sbi, u32 ino)
{
	loff_t pos = (loff_t)ino << PAGE_SHIFT;

	truncate_inode_pages_range(sbi->node_inode->i_mapping, pos,
				   pos + PAGE_SIZE - 1);
	f2fs_set_node_addr(sbi, ino, NULL_ADDR);
	uncharge_node(sbi, true);
}

/**
 * f2fs_sync_node_pages - write every dirty node page and wait for them.
 * @sbi: the mount, inside a checkpoint.
 *
 * Node writeback that fails (a log without room) leaves the page dirty;
 * the checkpoint must then not commit NAT and SIT entries that the nodes
 * on disk do not match.
 *
 * Return: 0; -EIO; -ENOSPC when a node page is still dirty afterwards.
 */
int f2fs_sync_node_pages(struct f2fs_sb_info *sbi)
{
	struct address_space *mapping = sbi->node_inode->i_mapping;
	int err = filemap_write_and_wait(mapping);

	if (!err && mapping_tagged(mapping, PAGECACHE_TAG_DIRTY)) {
		f2fs_err(sbi, "node blocks could not be written (no free segment)");
		err = -ENOSPC;
	}
	if (!err) {
		/* No node is dirty, and none is dirtied under cp_rwsem. */
		xa_destroy(&sbi->nm.fsync_nodes);
		xa_destroy(&sbi->nm.fsync_inodes);
		WRITE_ONCE(sbi->nm.fsync_nodes_lossy, BITS_PER_LONG < 64);
	}
	return err;
}

/**
 * f2fs_flush_nat - write the changed NAT entries for a checkpoint.
 * @sbi: the mount, inside a checkpoint, after every node is written.
 * @batch: the checkpoint's batch of meta writes (f2fs_queue_meta_block()).
 *
 * Entries in the NAT journal are folded into the dirty set first, so the
 * journal is rewritten as a whole: with the dirty entries if they fit,
 * empty otherwise (every dirty entry then goes to its NAT block's other
 * copy).  Freed entries leave the cache afterwards so that their nids can
 * be found free again.
 *
 * Return: 0, -ENOMEM, or the error of a meta read or write.
 */
int f2fs_flush_nat(struct f2fs_sb_info *sbi, struct f2fs_wbatch *batch)
{
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_journal *j = &sbi->curseg[F2FS_LOG_HOT_DATA].sum->journal;
	struct f2fs_nat_block *buf = NULL;
	struct f2fs_nat_cached *e;
	unsigned long nid;
	u32 cur_blk = U32_MAX;
	unsigned int i, n = 0, before = le16_to_cpu(j->n_nats);
	unsigned int in_blocks = 0, blocks = 0;
	int err = 0;

	/* Fold the journal into the cache (the cache is newer if both). */
	for (i = 0; i < le16_to_cpu(j->n_nats); i++) {
		u32 jn = le32_to_cpu(j->nat_j.entries[i].nid);

		e = nat_entry_get(sbi, jn);
		if (!e)
			return -EIO;
		nat_mark_dirty(sbi, jn);
		up_write(&nm->nat_lock);
	}

	down_write(&nm->nat_lock);
	if (nm->nat_dirty <= NAT_JOURNAL_ENTRIES) {
		xa_for_each_marked(&nm->nat_tree, nid, e, F2FS_NAT_DIRTY) {
			struct nat_journal_entry *je = &j->nat_j.entries[n++];

			je->nid = cpu_to_le32(nid);
			je->ne.version = e->version;
			je->ne.ino = cpu_to_le32(e->ino);
			je->ne.block_addr = cpu_to_le32(e->blkaddr);
		}
		j->n_nats = cpu_to_le16(n);
		goto clean;
	}

	buf = kmalloc(F2FS_BLKSIZE, GFP_NOFS);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	j->n_nats = 0;
	xa_for_each_marked(&nm->nat_tree, nid, e, F2FS_NAT_DIRTY) {
		u32 b = nid / NAT_ENTRY_PER_BLOCK;
		struct f2fs_nat_entry *ne;

		if (b != cur_blk) {
			if (cur_blk != U32_MAX) {
				u32 addr = nat_block_addr(sbi, cur_blk *
							  NAT_ENTRY_PER_BLOCK);

				err = f2fs_queue_meta_block(sbi, batch, addr,
							    buf);
				if (err)
					goto out;
				blocks++;
			}
			err = f2fs_read_meta_blocks(sbi, nat_block_addr(sbi, nid),
						    buf, 1);
			if (err)
				goto out;
			cur_blk = b;
			f2fs_change_bit_msb(b, nm->nat_bitmap);
		}
		if (e->blkaddr == NEW_ADDR)
			f2fs_err(sbi, "node %lu allocated but never written", nid);
		ne = &buf->entries[nid % NAT_ENTRY_PER_BLOCK];
		ne->version = e->version;
		ne->ino = cpu_to_le32(e->ino);
		ne->block_addr = cpu_to_le32(e->blkaddr);
		in_blocks++;
	}
	if (cur_blk != U32_MAX) {
		err = f2fs_queue_meta_block(sbi, batch,
					    nat_block_addr(sbi, cur_blk *
							   NAT_ENTRY_PER_BLOCK),
					    buf);
		if (err)
			goto out;
		blocks++;
	}
clean:
	sbi->stats.nat_flushes++;
	sbi->stats.nat_journal_entries += n;
	sbi->stats.nat_block_entries += in_blocks;
	sbi->stats.nat_blocks_written += blocks;
	trace_f2fs_nat_flush(sbi->sb, before, n, in_blocks, n, blocks);
	xa_for_each_marked(&nm->nat_tree, nid, e, F2FS_NAT_DIRTY) {
		xa_clear_mark(&nm->nat_tree, nid, F2FS_NAT_DIRTY);
		nat_write_begin(nm);
		e->checkpointed = e->blkaddr != NULL_ADDR;
		nat_write_end(nm);
		if (e->blkaddr == NULL_ADDR) {
			xa_erase(&nm->nat_tree, nid);
			nat_slot_free_rcu(e);
			nm->nat_count--;
		}
	}
	nm->nat_dirty = 0;
out:
	up_write(&nm->nat_lock);
	kfree(buf);
	return err;
}

/*
 * Every node page is dirtied through here.  When a node page of a file or
 * directory turns dirty, it is stamped with the next nm.fsync_seq, after
 * the page is tagged dirty: an inode block in nm.fsync_inodes under its
 * nid, any other node in nm.fsync_nodes under its inode and nid (a dense
 * index for the many inodes, and a sparse one for the few files large
 * enough to have other nodes).  The indexes only grow until a checkpoint
 * has written every node page and empties them (f2fs_sync_node_pages(),
 * under cp_rwsem held exclusively).  Nodes of files are dirtied under
 * cp_rwsem held shared, as f2fs_fsync_node_pages() reads the indexes, so
 * an fsync finds every dirty node of its file there, and can tell whether
 * any changed since its last record.  Stock f2fs scans every dirty node
 * page of the mount for each fsync instead: beside an untar, that is
 * thousands of inode blocks each time.
 */
static bool f2fs_node_dirty_folio(struct address_space *mapping,
				  struct folio *folio)
{
	struct f2fs_sb_info *sbi = F2FS_SB(mapping->host->i_sb);
	struct f2fs_nm_info *nm = &sbi->nm;
	struct f2fs_node *rn = folio_address(folio);
	u32 ino = le32_to_cpu(rn->footer.ino);
	bool newly = filemap_dirty_folio(mapping, folio);
	struct xarray *xa;
	unsigned long key;
	void *old;

	if (!ino || READ_ONCE(nm->fsync_nodes_lossy))
		return newly;
	if (ino == folio->index) {
		xa = &nm->fsync_inodes;
		key = ino;
	} else {
		xa = &nm->fsync_nodes;
		key = fsync_key(ino, folio->index);
	}
	if (!newly && xa_load(xa, key))
		return newly;
	if (unlikely(atomic_read(&nm->fsync_index_faults)) &&
	    atomic_dec_if_positive(&nm->fsync_index_faults) >= 0) {
		old = XA_ERROR(-ENOMEM);	/* an injected failure */
	} else {
		/*
		 * Without memory (test 4b's swap hog) the store fails quietly:
		 * the index turns lossy and fsync scans until the checkpoint.
		 */
		xa_lock(xa);
		old = __xa_store(xa, key,
				 xa_mk_value(atomic64_inc_return(&nm->fsync_seq)),
				 GFP_NOWAIT | __GFP_NOWARN);
		xa_unlock(xa);
	}
	if (xa_is_err(old))
		WRITE_ONCE(nm->fsync_nodes_lossy, true);
	return newly;
}

const struct address_space_operations f2fs_node_aops = {
	.read_folio	= f2fs_node_read_folio,
	.writepage	= f2fs_node_writepage,
	.writepages	= f2fs_node_writepages,
	.dirty_folio	= f2fs_node_dirty_folio,
};
