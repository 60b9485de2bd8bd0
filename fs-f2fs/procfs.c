// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - the per-segment files of /proc/fs/f2fs/<dev>/, in the stock
 * module's layout.
 *
 * The stock f2fs module shows each mount's segments in two files, and
 * tools (ours among them: the segment map) read them on any kernel:
 *
 *   segment_info   "type|valid" for every main-area segment, ten to a line,
 *                  each line led by the number of its first segment;
 *   segment_bits   one line per segment: its number, "type|valid|", then
 *                  the 64 bytes of its validity bitmap in hex.
 *
 * Both begin with the same two header lines as the stock files.  The
 * figures come from the in-memory SIT, which exists once the mount has
 * been writable; a mount that never was shows the headers only.  Each
 * line is produced under sm.seg_lock, taken per line so that a reader
 * never holds up the allocator for the whole file.  Removal at unmount
 * (proc_remove()) waits for readers before the SIT goes away.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include "f2fs.h"

/* Segments per line of segment_info. */
#define SEGS_PER_INFO_LINE	10

static struct proc_dir_entry *f2fs_proc_root;

static const char segment_header[] =
	"segment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n";

/* The mount a file belongs to (its proc entry's data). */
static struct f2fs_sb_info *seq_sbi(struct seq_file *m)
{
	return pde_data(file_inode(m->file));
}

/* Lines after the header: segments (bits) or groups of ten (info). */
static loff_t seg_lines(struct f2fs_sb_info *sbi, bool bits)
{
	if (!sbi->sm.sentries)
		return 0;
	return bits ? sbi->main_segs :
		      DIV_ROUND_UP(sbi->main_segs, SEGS_PER_INFO_LINE);
}

/* Position 0 is the header; line n of the body is position n + 1. */
static void *seg_seq_pos(struct seq_file *m, loff_t *pos, bool bits)
{
	return *pos <= seg_lines(seq_sbi(m), bits) ? pos : NULL;
}

static void *info_seq_start(struct seq_file *m, loff_t *pos)
{
	return seg_seq_pos(m, pos, false);
}

static void *info_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return seg_seq_pos(m, pos, false);
}

static void *bits_seq_start(struct seq_file *m, loff_t *pos)
{
	return seg_seq_pos(m, pos, true);
}

static void *bits_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return seg_seq_pos(m, pos, true);
}

static void seg_seq_stop(struct seq_file *m, void *v)
{
}

/* A copy of one SIT entry's type, count and (optionally) bitmap. */
static void seg_snapshot(struct f2fs_sb_info *sbi, u32 segno, u8 *type,
			 u16 *valid, u8 *map)
{
	struct f2fs_seg_entry *se = f2fs_seg_entry(sbi, segno);

	*type = se->type;
	*valid = se->valid_blocks;
	if (map)
		memcpy(map, se->valid_map, SIT_VBLOCK_MAP_SIZE);
}

static int segment_info_show(struct seq_file *m, void *v)
{
	struct f2fs_sb_info *sbi = seq_sbi(m);
	loff_t line = *(loff_t *)v;
	u32 first, segno, end;
	u16 valid;
	u8 type;

	if (!line) {
		seq_printf(m, "format: segment_type|valid_blocks\n%s",
			   segment_header);
		return 0;
	}
	first = (line - 1) * SEGS_PER_INFO_LINE;
	end = min_t(u32, first + SEGS_PER_INFO_LINE, sbi->main_segs);
	seq_printf(m, "%-10u", first);
	mutex_lock(&sbi->sm.seg_lock);
	for (segno = first; segno < end; segno++) {
		seg_snapshot(sbi, segno, &type, &valid, NULL);
		seq_printf(m, "%u|%-3u%c", type, valid,
			   segno + 1 == end ? '\n' : ' ');
	}
	mutex_unlock(&sbi->sm.seg_lock);
	return 0;
}

static int segment_bits_show(struct seq_file *m, void *v)
{
	struct f2fs_sb_info *sbi = seq_sbi(m);
	loff_t line = *(loff_t *)v;
	u8 map[SIT_VBLOCK_MAP_SIZE];
	unsigned int i;
	u32 segno;
	u16 valid;
	u8 type;

	if (!line) {
		seq_printf(m, "format: segment_type|valid_blocks|bitmaps\n%s",
			   segment_header);
		return 0;
	}
	segno = line - 1;
	mutex_lock(&sbi->sm.seg_lock);
	seg_snapshot(sbi, segno, &type, &valid, map);
	mutex_unlock(&sbi->sm.seg_lock);
	seq_printf(m, "%-10u%u|%-3u|", segno, type, valid);
	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		seq_printf(m, " %.2x", map[i]);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations segment_info_sops = {
	.start	= info_seq_start,
	.next	= info_seq_next,
	.stop	= seg_seq_stop,
	.show	= segment_info_show,
};

static const struct seq_operations segment_bits_sops = {
	.start	= bits_seq_start,
	.next	= bits_seq_next,
	.stop	= seg_seq_stop,
	.show	= segment_bits_show,
};

/**
 * f2fs_proc_init - create /proc/fs/f2fs at module load.
 *
 * Without it the module works the same; the files are simply absent.
 */
void f2fs_proc_init(void)
{
	f2fs_proc_root = proc_mkdir("fs/f2fs", NULL);
}

/**
 * f2fs_proc_exit - remove what f2fs_proc_init() created.
 */
void f2fs_proc_exit(void)
{
	proc_remove(f2fs_proc_root);
	f2fs_proc_root = NULL;
}

/**
 * f2fs_proc_register - give a mount its folder and segment files.
 * @sbi: a mount whose fill_super has succeeded.
 */
void f2fs_proc_register(struct f2fs_sb_info *sbi)
{
	if (!f2fs_proc_root)
		return;
	sbi->proc_dir = proc_mkdir(sbi->sb->s_id, f2fs_proc_root);
	if (!sbi->proc_dir)
		return;
	proc_create_seq_data("segment_info", 0444, sbi->proc_dir,
			     &segment_info_sops, sbi);
	proc_create_seq_data("segment_bits", 0444, sbi->proc_dir,
			     &segment_bits_sops, sbi);
}

/**
 * f2fs_proc_unregister - remove the mount's folder at unmount.
 * @sbi: the mount; on return no reader uses it any more.
 */
void f2fs_proc_unregister(struct f2fs_sb_info *sbi)
{
	proc_remove(sbi->proc_dir);
	sbi->proc_dir = NULL;
}
