// SPDX-License-Identifier: GPL-2.0
/*
 * super.c - module entry, superblock validation and mounting.
 *
 * Mounting goes: superblock (either of two copies, each fully validated
 * against itself and the device), checkpoint (newest valid pack, see
 * checkpoint.c), node manager (NAT geometry and version bitmap), the six
 * logs' summaries (segment.c), then the root inode.  Every value read from
 * disk that later code uses as an address or a size is checked here or at
 * its first use, and a failure names the device and the reason once.
 *
 * A read-write mount also loads the SIT into memory (segment.c) and
 * prepares nid allocation (node.c); a read-only mount never writes a
 * block.  Images this module cannot yet write safely (a pending
 * roll-forward recovery, inode checksums, quota files, a large NAT bitmap)
 * are served read-only, with a message that says why.  Checkpoints are
 * written on sync, fsync, remount read-only and unmount.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/blkdev.h>
#include <linux/buffer_head.h>
#include <linux/statfs.h>
#include <linux/seq_file.h>
#include <linux/parser.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "f2fs.h"
#include "xattr.h"

struct kmem_cache *f2fs_inode_cachep;

/* Fixed inode numbers of the format. */
#define F2FS_NODE_INO_NUM	1
#define F2FS_META_INO_NUM	2
#define F2FS_ROOT_INO_NUM	3

/* Minimum sane segment count: 2 CP + 2 SIT + 2 NAT + 1 SSA + 6 logs. */
#define F2FS_MIN_SEGS		13

static const struct {
	u32 mask;
	const char *name;
} f2fs_unsupported[] = {
	{ F2FS_FEAT_ENCRYPT,	"encrypt" },
	{ F2FS_FEAT_BLKZONED,	"blkzoned" },
	{ F2FS_FEAT_VERITY,	"verity" },
	{ F2FS_FEAT_CASEFOLD,	"casefold" },
	{ F2FS_FEAT_COMPRESSION, "compression" },
};

static struct inode *f2fs_alloc_inode(struct super_block *sb)
{
	struct f2fs_inode_info *fi;

	fi = alloc_inode_sb(sb, f2fs_inode_cachep, GFP_NOFS);
	if (!fi)
		return NULL;
	fi->i_flags = 0;
	fi->i_advise = 0;
	fi->i_inline = 0;
	fi->need_cp_ver = 0;
	fi->dent_rec_ver = 0;
	fi->i_dir_level = 0;
	fi->i_current_depth = 0;
	fi->i_pino = 0;
	fi->i_xattr_nid = 0;
	fi->i_extra_isize = 0;
	fi->i_inline_xattr_addrs = 0;
	fi->i_crtime.tv_sec = 0;
	fi->i_crtime.tv_nsec = 0;
	fi->ext.fofs = 0;
	fi->ext.blk = 0;
	fi->ext.len = 0;
	INIT_LIST_HEAD(&fi->dirty_list);
	INIT_LIST_HEAD(&fi->dirty_dir_list);
	fi->meta_dirty = false;
	fi->dir_dirty = false;
	fi->cp_busy = false;
	fi->rec_seq = 0;
	fi->rec_iseq = 0;
	fi->wr_first = 0;
	fi->wr_end = 0;
	return &fi->vfs_inode;
}

static void f2fs_free_inode(struct inode *inode)
{
	kmem_cache_free(f2fs_inode_cachep, F2FS_I(inode));
}

static void f2fs_inode_init_once(void *p)
{
	struct f2fs_inode_info *fi = p;

	rwlock_init(&fi->ext_lock);
	init_rwsem(&fi->i_xattr_sem);
	inode_init_once(&fi->vfs_inode);
}

/* Release everything fill_super set up after the superblock. */
static void f2fs_release_mount(struct f2fs_sb_info *sbi)
{
	f2fs_stop_periodic_cp(sbi);
	f2fs_wait_writes(sbi);
	f2fs_flush_failed_writes(sbi);
	f2fs_destroy_gc(sbi);
	f2fs_free_orphans(sbi);
	f2fs_destroy_sit(sbi);
	f2fs_free_cursegs(sbi);
	f2fs_destroy_node_manager(sbi);
	iput(sbi->node_inode);
	iput(sbi->meta_inode);
	kvfree(sbi->ckpt);
	kfree(sbi->raw_super);
	kfree(sbi);
}

static void f2fs_put_super(struct super_block *sb)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);

	f2fs_debugfs_unregister(sbi);
	f2fs_proc_unregister(sbi);
	if (sbi->writable)
		f2fs_write_checkpoint(sbi, F2FS_CP_UMOUNT);
	sbi->writable = false;
	f2fs_release_mount(sbi);
	sb->s_fs_info = NULL;
}

/*
 * sync(2), syncfs(2) and unmount come here after writing back every dirty
 * page.  Pages that writeback kept dirty for lack of room (data.c) are
 * written again once the cleaner made room, so that nothing dirty is left
 * behind when the checkpoint is written.  s_umount is held, as
 * sync_inodes_sb() wants.
 */
static int f2fs_sync_fs(struct super_block *sb, int wait)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);
	unsigned int tries = 0;
	int err;

	if (!wait)
		return 0;
	while (sbi->writable && tries++ < F2FS_ROOM_RETRIES &&
	       atomic_xchg(&sbi->wb_blocked, 0)) {
		f2fs_make_room(sbi);
		sync_inodes_sb(sb);
	}
	err = f2fs_write_checkpoint(sbi, F2FS_CP_SYNC);
	if (!err && atomic_read(&sbi->wb_blocked)) {
		f2fs_err(sbi, "sync: no room to write every dirty page");
		err = -ENOSPC;
	}
	return err;
}

static int f2fs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct f2fs_sb_info *sbi = F2FS_SB(dentry->d_sb);
	u64 avail_nodes = sbi->total_node_count - F2FS_RESERVED_NODE_NUM;
	u64 user, valid_nodes;

	spin_lock(&sbi->stat_lock);
	user = sbi->user_block_count;
	buf->f_bfree = user - sbi->total_valid_blocks;
	valid_nodes = sbi->valid_node_count;
	spin_unlock(&sbi->stat_lock);

	buf->f_type = F2FS_SUPER_MAGIC;
	buf->f_bsize = F2FS_BLKSIZE;
	buf->f_blocks = le64_to_cpu(sbi->raw_super->block_count) -
			sbi->seg0_blkaddr;
	buf->f_bavail = buf->f_bfree;
	/* Each inode needs a node block, so inodes are bounded by both. */
	if (avail_nodes > user) {
		buf->f_files = user;
		buf->f_ffree = buf->f_bfree;
	} else {
		buf->f_files = avail_nodes;
		buf->f_ffree = min(avail_nodes - valid_nodes, buf->f_bfree);
	}
	buf->f_namelen = F2FS_NAME_LEN;
	buf->f_fsid = u64_to_fsid(huge_encode_dev(dentry->d_sb->s_bdev->bd_dev));
	return 0;
}

/*
 * ---- Mount options ---------------------------------------------------------
 *
 * Every option of the design, plus the spellings and defaults the stock
 * module accepts, so that a mount line written for it works here:
 *
 *   active_logs=2|4|6      logs the hot/cold separation uses (data.c and
 *                          node.c fold log types onto them);
 *   background_gc=on|off   the background cleaner (background_gc_off is the
 *                          design's spelling);
 *   alloc_mode=reuse|default  where logs open sections (segment.c): reuse
 *                          (the default, as stock) takes the first free
 *                          section from the start for every log; default
 *                          goes right from where the log is, then:
 *   heap, no_heap          at the end of the main area, heap turns nodes
 *                          and hot data left (the rest wrap); no_heap (the
 *                          default, as stock) takes nodes and hot data from
 *                          the first free section;
 *   discard, nodiscard     discard the segments a checkpoint frees (the
 *                          default when the device can discard);
 *   disable_roll_forward   drop what fsync wrote after the last checkpoint
 *                          instead of recovering it (recovery.c);
 *   disable_ext_identify   do not classify new files as hot or cold by
 *                          their extension;
 *   lazytime, nolazytime   keep timestamp-only changes in memory until the
 *                          inode is written for another reason (default on,
 *                          as in stock; mount(8) usually passes these as the
 *                          MS_LAZYTIME flag, which a remount applies);
 *   user_xattr, nouser_xattr  serve the user.* xattrs (default on, as
 *                          stock; xattr.c);
 *   acl, noacl             POSIX ACLs (default on, as stock; acl.c);
 *   inline_xattr, noinline_xattr  new inodes get an inline xattr area
 *                          (default on, as stock); existing inline areas
 *                          are read and written either way;
 *   inline_data, noinline_data  new regular files and symlinks keep up to
 *                          3.4 KiB of data in the inode block (default on,
 *                          as stock; data.c); existing inline files are
 *                          read and written either way;
 *   inline_dentry, noinline_dentry  new directories keep their first
 *                          entries in the inode block (default on, as
 *                          stock; dir.c).
 *
 * A remount takes the whole option string again (tools repeat what
 * /proc/mounts shows): options that can change take effect, the others
 * must repeat their current value or the remount is refused, naming the
 * option.
 */
enum {
	OPT_ACTIVE_LOGS, OPT_BG_GC, OPT_BG_GC_OFF, OPT_HEAP, OPT_NO_HEAP,
	OPT_DISCARD, OPT_NODISCARD, OPT_NO_ROLL_FORWARD, OPT_NO_EXT_IDENTIFY,
	OPT_LAZYTIME, OPT_NOLAZYTIME, OPT_USER_XATTR, OPT_NOUSER_XATTR,
	OPT_ACL, OPT_NOACL, OPT_INLINE_XATTR, OPT_NOINLINE_XATTR,
	OPT_INLINE_DATA, OPT_NOINLINE_DATA, OPT_INLINE_DENTRY,
	OPT_NOINLINE_DENTRY, OPT_ALLOC_MODE, OPT_ERR,
};

static const match_table_t f2fs_tokens = {
	{ OPT_ACTIVE_LOGS,	"active_logs=%u" },
	{ OPT_BG_GC,		"background_gc=%s" },
	{ OPT_BG_GC_OFF,	"background_gc_off" },
	{ OPT_HEAP,		"heap" },
	{ OPT_NO_HEAP,		"no_heap" },
	{ OPT_DISCARD,		"discard" },
	{ OPT_NODISCARD,	"nodiscard" },
	{ OPT_NO_ROLL_FORWARD,	"disable_roll_forward" },
	{ OPT_NO_EXT_IDENTIFY,	"disable_ext_identify" },
	{ OPT_LAZYTIME,		"lazytime" },
	{ OPT_NOLAZYTIME,	"nolazytime" },
	{ OPT_USER_XATTR,	"user_xattr" },
	{ OPT_NOUSER_XATTR,	"nouser_xattr" },
	{ OPT_ACL,		"acl" },
	{ OPT_NOACL,		"noacl" },
	{ OPT_INLINE_XATTR,	"inline_xattr" },
	{ OPT_NOINLINE_XATTR,	"noinline_xattr" },
	{ OPT_INLINE_DATA,	"inline_data" },
	{ OPT_NOINLINE_DATA,	"noinline_data" },
	{ OPT_INLINE_DENTRY,	"inline_dentry" },
	{ OPT_NOINLINE_DENTRY,	"noinline_dentry" },
	{ OPT_ALLOC_MODE,	"alloc_mode=%s" },
	{ OPT_ERR,		NULL },
};

/* Options a remount may change; the others must stay as they are. */
#define F2FS_OPT_REMOUNTABLE	(F2FS_OPT_BG_GC_OFF | F2FS_OPT_NO_HEAP | \
				 F2FS_OPT_DISCARD | F2FS_OPT_NO_EXT_IDENTIFY | \
				 F2FS_OPT_LAZYTIME | F2FS_OPT_USER_XATTR | \
				 F2FS_OPT_ACL | F2FS_OPT_INLINE_XATTR | \
				 F2FS_OPT_INLINE_DATA | F2FS_OPT_INLINE_DENTRY | \
				 F2FS_OPT_ALLOC_DEFAULT)

static const struct {
	u32 flag;
	const char *name;
} f2fs_opt_names[] = {
	{ F2FS_OPT_NO_ROLL_FORWARD,	"disable_roll_forward" },
};

/* The options of a fresh mount of @sb, before its option string. */
static void default_options(struct super_block *sb, struct f2fs_options *o)
{
	o->active_logs = F2FS_NR_LOGS;
	o->flags = F2FS_OPT_LAZYTIME | F2FS_OPT_USER_XATTR | F2FS_OPT_ACL |
		   F2FS_OPT_INLINE_XATTR | F2FS_OPT_INLINE_DATA |
		   F2FS_OPT_INLINE_DENTRY | F2FS_OPT_NO_HEAP;
	if (bdev_max_discard_sectors(sb->s_bdev))
		o->flags |= F2FS_OPT_DISCARD;
}

static void set_opt(struct f2fs_options *o, u32 flag, bool on)
{
	if (on)
		o->flags |= flag;
	else
		o->flags &= ~flag;
}

/*
 * The value of option @p ("name=value", the value matched into @arg) as one
 * of two words: 0 for @first, 1 for @second; -ENOMEM, or -EINVAL with one
 * line naming the option and the value.
 */
static int match_either(struct f2fs_sb_info *sbi, const char *p,
			substring_t *arg, const char *first,
			const char *second)
{
	const char *value = strchr(p, '=') + 1;
	char *v = match_strdup(arg);
	int ret;

	if (!v)
		return -ENOMEM;
	ret = !strcmp(v, first) ? 0 : !strcmp(v, second) ? 1 : -EINVAL;
	kfree(v);
	if (ret < 0)
		f2fs_err(sbi, "%.*s must be %s or %s, not \"%s\"",
			 (int)(value - 1 - p), p, first, second, value);
	return ret;
}

/*
 * Parse @options into @o, which holds the defaults (a mount) or the
 * options in force (a remount).  Returns 0 or -EINVAL with one line
 * naming the bad option.
 */
static int parse_options(struct f2fs_sb_info *sbi, char *options,
			 struct f2fs_options *o)
{
	substring_t args[MAX_OPT_ARGS];
	unsigned int n;
	char *p;
	int ret;

	while ((p = strsep(&options, ",")) != NULL) {
		if (!*p)
			continue;
		switch (match_token(p, f2fs_tokens, args)) {
		case OPT_ACTIVE_LOGS:
			if (match_uint(&args[0], &n) ||
			    (n != 2 && n != 4 && n != 6)) {
				f2fs_err(sbi, "active_logs must be 2, 4 or 6, not \"%s\"",
					 p + 12);
				return -EINVAL;
			}
			o->active_logs = n;
			break;
		case OPT_BG_GC:
			ret = match_either(sbi, p, &args[0], "on", "off");
			if (ret < 0)
				return ret;
			set_opt(o, F2FS_OPT_BG_GC_OFF, ret);
			break;
		case OPT_BG_GC_OFF:
			set_opt(o, F2FS_OPT_BG_GC_OFF, true);
			break;
		case OPT_ALLOC_MODE:
			ret = match_either(sbi, p, &args[0], "reuse", "default");
			if (ret < 0)
				return ret;
			set_opt(o, F2FS_OPT_ALLOC_DEFAULT, ret);
			break;
		case OPT_HEAP:
		case OPT_NO_HEAP:
			set_opt(o, F2FS_OPT_NO_HEAP, p[0] == 'n');
			break;
		case OPT_DISCARD:
			if (!bdev_max_discard_sectors(sbi->sb->s_bdev)) {
				f2fs_err(sbi, "discard: the device cannot discard");
				return -EINVAL;
			}
			set_opt(o, F2FS_OPT_DISCARD, true);
			break;
		case OPT_NODISCARD:
			set_opt(o, F2FS_OPT_DISCARD, false);
			break;
		case OPT_NO_ROLL_FORWARD:
			set_opt(o, F2FS_OPT_NO_ROLL_FORWARD, true);
			break;
		case OPT_NO_EXT_IDENTIFY:
			set_opt(o, F2FS_OPT_NO_EXT_IDENTIFY, true);
			break;
		case OPT_LAZYTIME:
		case OPT_NOLAZYTIME:
			set_opt(o, F2FS_OPT_LAZYTIME, p[0] == 'l');
			break;
		case OPT_USER_XATTR:
		case OPT_NOUSER_XATTR:
			set_opt(o, F2FS_OPT_USER_XATTR, p[0] != 'n');
			break;
		case OPT_ACL:
		case OPT_NOACL:
			set_opt(o, F2FS_OPT_ACL, p[0] != 'n');
			break;
		case OPT_INLINE_XATTR:
		case OPT_NOINLINE_XATTR:
			set_opt(o, F2FS_OPT_INLINE_XATTR, p[0] != 'n');
			break;
		case OPT_INLINE_DATA:
		case OPT_NOINLINE_DATA:
			set_opt(o, F2FS_OPT_INLINE_DATA, p[0] != 'n');
			break;
		case OPT_INLINE_DENTRY:
		case OPT_NOINLINE_DENTRY:
			set_opt(o, F2FS_OPT_INLINE_DENTRY, p[0] != 'n');
			break;
		default:
			f2fs_err(sbi, "unrecognized mount option \"%s\"", p);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Make the lazytime option the superblock's flag (the VFS acts on it),
 * and the acl option SB_POSIXACL (xattr hook: the VFS checks ACLs, and
 * leaves the umask to posix_acl_create(), when it is set).
 */
static void apply_sb_flags(struct super_block *sb, const struct f2fs_options *o)
{
	if (o->flags & F2FS_OPT_LAZYTIME)
		sb->s_flags |= SB_LAZYTIME;
	else
		sb->s_flags &= ~SB_LAZYTIME;
	if (o->flags & F2FS_OPT_ACL)
		sb->s_flags |= SB_POSIXACL;
	else
		sb->s_flags &= ~SB_POSIXACL;
}

/*
 * Check a remount's options against those in force: only the
 * remountable ones may differ.  Returns 0 or -EINVAL naming the option.
 */
static int check_remount(struct f2fs_sb_info *sbi, const struct f2fs_options *o)
{
	u32 fixed = (o->flags ^ sbi->opt.flags) & ~F2FS_OPT_REMOUNTABLE;
	unsigned int i;

	if (o->active_logs != sbi->opt.active_logs) {
		f2fs_err(sbi, "active_logs cannot change on remount (it is %u)",
			 sbi->opt.active_logs);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(f2fs_opt_names); i++) {
		if (fixed & f2fs_opt_names[i].flag) {
			f2fs_err(sbi, "%s cannot change on remount",
				 f2fs_opt_names[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

static int enable_writes(struct f2fs_sb_info *sbi);

static int f2fs_remount(struct super_block *sb, int *flags, char *data)
{
	struct f2fs_sb_info *sbi = F2FS_SB(sb);
	struct f2fs_options o = sbi->opt;
	bool gc_was_off = f2fs_opt(sbi, F2FS_OPT_BG_GC_OFF);
	int err;

	sync_filesystem(sb);
	/* mount(8) passes lazytime as a flag, or in the string below. */
	set_opt(&o, F2FS_OPT_LAZYTIME, *flags & SB_LAZYTIME);
	err = parse_options(sbi, data, &o);
	if (!err)
		err = check_remount(sbi, &o);
	if (err)
		return err;
	sbi->opt = o;
	apply_sb_flags(sb, &o);
	if (o.flags & F2FS_OPT_LAZYTIME)
		*flags |= SB_LAZYTIME;
	else
		*flags &= ~SB_LAZYTIME;
	if (sbi->writable && gc_was_off != f2fs_opt(sbi, F2FS_OPT_BG_GC_OFF)) {
		if (gc_was_off)
			err = f2fs_start_gc_thread(sbi);
		else
			f2fs_stop_gc_thread(sbi);
		if (err)
			return err;
	}
	if ((*flags & SB_RDONLY) && sbi->writable) {
		f2fs_stop_gc_thread(sbi);
		f2fs_stop_periodic_cp(sbi);
		err = f2fs_write_checkpoint(sbi, F2FS_CP_REMOUNT);
		if (!err)
			err = f2fs_write_checkpoint(sbi, F2FS_CP_UMOUNT);
		if (err) {
			f2fs_start_gc_thread(sbi);
			f2fs_start_periodic_cp(sbi);
			return err;
		}
		sbi->writable = false;
	} else if (!(*flags & SB_RDONLY) && !sbi->writable) {
		/*
		 * Recovery changes sizes and blocks of files this mount may
		 * have cached already, and links new ones: it runs at mount.
		 */
		if (sbi->recovery_pending) {
			f2fs_err(sbi, "fsynced files await roll-forward recovery: unmount, then mount read-write");
			return -EBUSY;
		}
		if (sbi->stopped) {
			f2fs_err(sbi, "writes stopped after an I/O error: unmount, check the device, and mount again");
			return -EIO;
		}
		err = enable_writes(sbi);
		if (err)
			return err;
	}
	return 0;
}

/* Every option in force, in a form parse_options() takes back. */
static int f2fs_show_options(struct seq_file *seq, struct dentry *root)
{
	struct f2fs_sb_info *sbi = F2FS_SB(root->d_sb);

	seq_printf(seq, ",active_logs=%u", sbi->opt.active_logs);
	seq_printf(seq, ",background_gc=%s",
		   f2fs_opt(sbi, F2FS_OPT_BG_GC_OFF) ? "off" : "on");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_DISCARD) ? ",discard" :
							 ",nodiscard");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_NO_HEAP) ? ",no_heap" : ",heap");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_ALLOC_DEFAULT) ?
		 ",alloc_mode=default" : ",alloc_mode=reuse");
	if (f2fs_opt(sbi, F2FS_OPT_NO_ROLL_FORWARD))
		seq_puts(seq, ",disable_roll_forward");
	if (f2fs_opt(sbi, F2FS_OPT_NO_EXT_IDENTIFY))
		seq_puts(seq, ",disable_ext_identify");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_USER_XATTR) ? ",user_xattr" :
							    ",nouser_xattr");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_ACL) ? ",acl" : ",noacl");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_INLINE_XATTR) ? ",inline_xattr" :
							      ",noinline_xattr");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_INLINE_DATA) ? ",inline_data" :
							     ",noinline_data");
	seq_puts(seq, f2fs_opt(sbi, F2FS_OPT_INLINE_DENTRY) ?
		 ",inline_dentry" : ",noinline_dentry");
	return 0;
}

static const struct super_operations f2fs_sops = {
	/* the inode cache: inode.c and this file */
	.alloc_inode	= f2fs_alloc_inode,
	.dirty_inode	= f2fs_dirty_inode,	/* inode.c */
	.write_inode	= f2fs_write_inode,	/* inode.c */
	.evict_inode	= f2fs_evict_inode,	/* inode.c */
	.free_inode	= f2fs_free_inode,
	/* the mount */
	.statfs		= f2fs_statfs,
	.show_options	= f2fs_show_options,
	.remount_fs	= f2fs_remount,
	.sync_fs	= f2fs_sync_fs,
	.put_super	= f2fs_put_super,
};

/* Superblock checks that need nothing but the superblock itself. */
static const char *check_raw_super(struct f2fs_super_block *raw)
{
	u32 log_bps = le32_to_cpu(raw->log_blocks_per_seg);
	u32 seg_count = le32_to_cpu(raw->segment_count);
	u32 ckpt = le32_to_cpu(raw->segment_count_ckpt);
	u32 sit = le32_to_cpu(raw->segment_count_sit);
	u32 nat = le32_to_cpu(raw->segment_count_nat);
	u32 ssa = le32_to_cpu(raw->segment_count_ssa);
	u32 main = le32_to_cpu(raw->segment_count_main);
	u32 segs_per_sec = le32_to_cpu(raw->segs_per_sec);
	u32 secs_per_zone = le32_to_cpu(raw->secs_per_zone);
	u32 sections = le32_to_cpu(raw->section_count);
	u32 seg0 = le32_to_cpu(raw->segment0_blkaddr);
	u32 log_sector = le32_to_cpu(raw->log_sectorsize);
	u64 bps, end;

	if (le32_to_cpu(raw->magic) != F2FS_SUPER_MAGIC)
		return "bad magic";
	if (le32_to_cpu(raw->feature) & F2FS_FEAT_SB_CHKSUM) {
		u32 ofs = le32_to_cpu(raw->checksum_offset);

		if (ofs != offsetof(struct f2fs_super_block, crc))
			return "bad checksum offset";
		if (f2fs_crc(raw, ofs) != le32_to_cpu(raw->crc))
			return "checksum mismatch";
	}
	if (le32_to_cpu(raw->log_blocksize) != F2FS_BLKSIZE_BITS)
		return "block size is not 4096";
	if (log_bps != 9)
		return "segment size is not 512 blocks";
	if (log_sector < F2FS_MIN_LOG_SECTOR_SIZE ||
	    log_sector > F2FS_MAX_LOG_SECTOR_SIZE ||
	    log_sector + le32_to_cpu(raw->log_sectors_per_block) !=
	    F2FS_BLKSIZE_BITS)
		return "bad sector size";
	bps = 1ULL << log_bps;
	if (seg_count < F2FS_MIN_SEGS || seg_count > F2FS_MAX_SEGMENT)
		return "bad segment count";
	if (ckpt != F2FS_CP_PACKS || !sit || sit % 2 || !nat || nat % 2 ||
	    !ssa || main < F2FS_NR_LOGS)
		return "bad area sizes";
	if ((u64)ckpt + sit + nat + ssa + main > seg_count)
		return "areas larger than the segment count";
	if (!segs_per_sec || segs_per_sec > main || !secs_per_zone ||
	    !sections || sections != main / segs_per_sec ||
	    secs_per_zone > sections)
		return "bad section geometry";
	if (le32_to_cpu(raw->cp_blkaddr) != seg0 ||
	    le32_to_cpu(raw->sit_blkaddr) != seg0 + ckpt * bps ||
	    le32_to_cpu(raw->nat_blkaddr) != le32_to_cpu(raw->sit_blkaddr) +
	    sit * bps ||
	    le32_to_cpu(raw->ssa_blkaddr) != le32_to_cpu(raw->nat_blkaddr) +
	    nat * bps ||
	    le32_to_cpu(raw->main_blkaddr) != le32_to_cpu(raw->ssa_blkaddr) +
	    ssa * bps)
		return "area addresses do not follow each other";
	end = (u64)le32_to_cpu(raw->main_blkaddr) + main * bps;
	if (end > seg0 + seg_count * bps)
		return "main area ends past the last segment";
	if (seg0 + seg_count * bps > le64_to_cpu(raw->block_count))
		return "segments extend past the block count";
	/* Room for every segment's SIT entry and SSA block. */
	if ((sit / 2) * bps * SIT_ENTRY_PER_BLOCK < main ||
	    ssa * bps < main)
		return "SIT or SSA too small for the main area";
	if (le32_to_cpu(raw->node_ino) != F2FS_NODE_INO_NUM ||
	    le32_to_cpu(raw->meta_ino) != F2FS_META_INO_NUM ||
	    le32_to_cpu(raw->root_ino) != F2FS_ROOT_INO_NUM)
		return "bad reserved inode numbers";
	if (le32_to_cpu(raw->cp_payload) > bps - 2 * F2FS_NR_LOGS - 2)
		return "bad checkpoint payload size";
	if (le32_to_cpu(raw->extension_count) > F2FS_MAX_EXTENSION ||
	    le32_to_cpu(raw->extension_count) + raw->hot_ext_count >
	    F2FS_MAX_EXTENSION)
		return "bad extension count";
	return NULL;
}

/*
 * Read superblock copy @index (0 or 1) and validate it, also against the
 * device size.  On success *out holds a kmalloc'ed copy.
 */
static int read_raw_super(struct super_block *sb, int index,
			  struct f2fs_super_block **out)
{
	u64 dev_blocks = bdev_nr_bytes(sb->s_bdev) >> F2FS_BLKSIZE_BITS;
	struct f2fs_super_block *raw;
	struct buffer_head *bh;
	const char *why;

	bh = sb_bread(sb, index);
	if (!bh) {
		pr_err("f2fs (%s): cannot read superblock %d\n", sb->s_id,
		       index + 1);
		return -EIO;
	}
	raw = kmemdup(bh->b_data + F2FS_SUPER_OFFSET, sizeof(*raw),
		      GFP_KERNEL);
	brelse(bh);
	if (!raw)
		return -ENOMEM;
	why = check_raw_super(raw);
	if (!why && le64_to_cpu(raw->block_count) > dev_blocks)
		why = "device is smaller than the filesystem";
	if (why) {
		bool magic_ok = le32_to_cpu(raw->magic) == F2FS_SUPER_MAGIC;

		pr_err("f2fs (%s): superblock %d invalid: %s\n", sb->s_id,
		       index + 1, why);
		kfree(raw);
		return magic_ok ? -EFSCORRUPTED : -EINVAL;
	}
	*out = raw;
	return 0;
}

static int check_features(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f2fs_unsupported); i++) {
		if (sbi->features & f2fs_unsupported[i].mask) {
			f2fs_err(sbi, "unsupported feature: %s",
				 f2fs_unsupported[i].name);
			return -EOPNOTSUPP;
		}
	}
	if (raw->devs[0].path[0]) {
		f2fs_err(sbi, "unsupported feature: multiple devices");
		return -EOPNOTSUPP;
	}
	return 0;
}

static void init_geometry(struct f2fs_sb_info *sbi)
{
	struct f2fs_super_block *raw = sbi->raw_super;
	unsigned int i;

	sbi->log_blocks_per_seg = le32_to_cpu(raw->log_blocks_per_seg);
	sbi->blocks_per_seg = 1U << sbi->log_blocks_per_seg;
	sbi->segs_per_sec = le32_to_cpu(raw->segs_per_sec);
	sbi->total_sections = le32_to_cpu(raw->section_count);
	sbi->main_segs = le32_to_cpu(raw->segment_count_main);
	sbi->seg0_blkaddr = le32_to_cpu(raw->segment0_blkaddr);
	sbi->main_blkaddr = le32_to_cpu(raw->main_blkaddr);
	sbi->max_blkaddr = sbi->main_blkaddr +
			   (sbi->main_segs << sbi->log_blocks_per_seg);
	sbi->ssa_blkaddr = le32_to_cpu(raw->ssa_blkaddr);
	sbi->sit_blkaddr = le32_to_cpu(raw->sit_blkaddr);
	sbi->root_ino = le32_to_cpu(raw->root_ino);
	sbi->node_ino = le32_to_cpu(raw->node_ino);
	sbi->meta_ino = le32_to_cpu(raw->meta_ino);
	sbi->features = le32_to_cpu(raw->feature);
	sbi->total_node_count = (le32_to_cpu(raw->segment_count_nat) / 2) *
				sbi->blocks_per_seg * NAT_ENTRY_PER_BLOCK;
	spin_lock_init(&sbi->stat_lock);
	init_rwsem(&sbi->cp_rwsem);
	mutex_init(&sbi->cp_mutex);
	INIT_DELAYED_WORK(&sbi->cp_work, f2fs_periodic_cp);
	spin_lock_init(&sbi->inode_lock);
	INIT_LIST_HEAD(&sbi->dirty_inodes);
	INIT_LIST_HEAD(&sbi->dirty_dirs);
	INIT_LIST_HEAD(&sbi->orphans);
	atomic_set(&sbi->wb_pending, 0);
	atomic_set(&sbi->evicting, 0);
	for (i = 0; i <= F2FS_EPOCH_NONE; i++)
		atomic_set(&sbi->wb_epoch_pending[i], 0);
	mutex_init(&sbi->epoch_lock);
	init_waitqueue_head(&sbi->wb_wait);
	atomic_set(&sbi->wb_error, 0);
	f2fs_init_failed_writes(sbi);
}

/* Why this image cannot be written by this module yet, or NULL. */
static const char *write_blocker(struct f2fs_sb_info *sbi)
{
	if (f2fs_has_feature(sbi, F2FS_FEAT_INODE_CHKSUM))
		return "inode checksums (inode_checksum feature) are not written yet";
	if (f2fs_has_feature(sbi, F2FS_FEAT_QUOTA_INO | F2FS_FEAT_PRJQUOTA))
		return "quota files are not maintained yet";
	if (f2fs_has_feature(sbi, F2FS_FEAT_RO))
		return "the image is marked read-only";
	if (f2fs_cp_flag(sbi, CP_LARGE_NAT_BITMAP_FLAG))
		return "large NAT bitmaps are not written yet";
	if (f2fs_cp_flag(sbi, CP_ERROR_FLAG))
		return "the checkpoint records an error; run fsck.f2fs";
	return NULL;
}

/*
 * Set up what writing needs: SIT in memory, free nids, then the cleanup of
 * a crash: orphans released, fsynced files rolled forward.
 */
static int enable_writes(struct f2fs_sb_info *sbi)
{
	const char *why = write_blocker(sbi);
	int err;

	if (why) {
		f2fs_err(sbi, "cannot write this image: %s", why);
		return -EROFS;
	}
	if (!sbi->sm.sentries) {
		err = f2fs_build_sit(sbi);
		if (err)
			goto destroy_sit;
		err = f2fs_init_free_nids(sbi);
		if (err)
			goto destroy_sit;
	}
	if (!sbi->gc.victim_map) {
		err = f2fs_init_gc(sbi);
		if (err)
			return err;
	}
	sbi->writable = true;
	err = f2fs_recover_orphans(sbi);
	if (!err)
		err = f2fs_recover_fsync_data(sbi);
	if (!err) {
		sbi->recovery_pending = false;
		err = f2fs_start_gc_thread(sbi);
	}
	if (!err)
		f2fs_start_periodic_cp(sbi);
	if (err) {
		sbi->writable = false;
		return err;
	}
	return 0;

destroy_sit:
	f2fs_destroy_sit(sbi);
	return err;
}

static struct inode *internal_inode(struct super_block *sb, u32 ino,
				    const struct address_space_operations *aops)
{
	struct inode *inode = iget_locked(sb, ino);

	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (inode->i_state & I_NEW) {
		inode->i_mode = S_IFREG;
		inode->i_mapping->a_ops = aops;
		mapping_set_gfp_mask(inode->i_mapping, GFP_NOFS);
		/*
		 * Writeback accounting needs the inode's writeback context,
		 * which dirtying a page attaches; meta pages are written
		 * without being dirtied (segment.c: summaries written behind).
		 */
		inode_attach_wb(inode, NULL);
		unlock_new_inode(inode);
	}
	return inode;
}

/* The largest file the node tree can address, in bytes. */
static loff_t max_file_size(void)
{
	u64 blocks = DEF_ADDRS_PER_INODE;
	u64 per = DEF_ADDRS_PER_BLOCK;

	blocks += 2 * per;
	per *= NIDS_PER_BLOCK;
	blocks += 2 * per;
	per *= NIDS_PER_BLOCK;
	blocks += per;
	return min_t(u64, blocks << F2FS_BLKSIZE_BITS, MAX_LFS_FILESIZE);
}

static int f2fs_fill_super(struct super_block *sb, void *data, int silent)
{
	struct f2fs_sb_info *sbi;
	struct inode *root;
	int err, err2;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	sbi->sb = sb;
	sb->s_fs_info = sbi;
	mutex_init(&sbi->gc.gc_mutex);
	init_waitqueue_head(&sbi->gc.wait);

	default_options(sb, &sbi->opt);
	err = parse_options(sbi, data, &sbi->opt);
	if (err)
		goto free_sbi;
	apply_sb_flags(sb, &sbi->opt);
	if (!sb_set_blocksize(sb, F2FS_BLKSIZE)) {
		f2fs_err(sbi, "device block size is larger than 4096");
		err = -EINVAL;
		goto free_sbi;
	}
	err = read_raw_super(sb, 0, &sbi->raw_super);
	if (err) {
		err2 = read_raw_super(sb, 1, &sbi->raw_super);
		if (err2) {
			f2fs_err(sbi, "no valid superblock");
			goto free_sbi;
		}
		f2fs_warn(sbi, "first superblock invalid, using the second copy");
	}
	init_geometry(sbi);
	err = check_features(sbi);
	if (err)
		goto free_raw_super;

	sb->s_magic = F2FS_SUPER_MAGIC;
	sb->s_op = &f2fs_sops;
	sb->s_xattr = f2fs_xattr_handlers;
	sb->s_export_op = &f2fs_export_ops;
	sb->s_maxbytes = max_file_size();
	sb->s_time_gran = 1;
	sb->s_max_links = U32_MAX;
	memcpy(&sb->s_uuid, sbi->raw_super->uuid, sizeof(sb->s_uuid));

	sbi->meta_inode = internal_inode(sb, sbi->meta_ino, &f2fs_meta_aops);
	if (IS_ERR(sbi->meta_inode)) {
		err = PTR_ERR(sbi->meta_inode);
		sbi->meta_inode = NULL;
		goto free_raw_super;
	}
	err = f2fs_load_checkpoint(sbi);
	if (err)
		goto put_meta_inode;
	sbi->user_block_count = le64_to_cpu(sbi->ckpt->user_block_count);
	sbi->total_valid_blocks = le64_to_cpu(sbi->ckpt->valid_block_count);
	sbi->valid_node_count = le32_to_cpu(sbi->ckpt->valid_node_count);
	sbi->valid_inode_count = le32_to_cpu(sbi->ckpt->valid_inode_count);

	sbi->node_inode = internal_inode(sb, sbi->node_ino, &f2fs_node_aops);
	if (IS_ERR(sbi->node_inode)) {
		err = PTR_ERR(sbi->node_inode);
		sbi->node_inode = NULL;
		goto free_ckpt;
	}
	err = f2fs_init_node_manager(sbi);
	if (!err)
		err = f2fs_register_nat_shrinker(sbi);
	if (err)
		goto free_nm;
	err = f2fs_load_cursegs(sbi);
	if (err)
		goto free_cursegs;

	if (sb_rdonly(sb)) {
		unsigned int pending;

		err = f2fs_roll_forward_pending(sbi, &pending);
		if (err)
			goto free_cursegs;
		sbi->recovery_pending = pending > 0;
		if (pending || !f2fs_cp_flag(sbi, CP_UMOUNT_FLAG))
			f2fs_info(sbi, "not cleanly unmounted: roll-forward recovery is pending (%u fsynced files); a read-write mount does it, this one shows the checkpoint",
				  pending);
	}
	if (sb_rdonly(sb) && f2fs_cp_flag(sbi, CP_ORPHAN_PRESENT_FLAG))
		f2fs_info(sbi, "orphan inodes are pending release by a read-write mount");

	root = f2fs_iget(sb, sbi->root_ino);
	if (IS_ERR(root)) {
		err = PTR_ERR(root);
		f2fs_err(sbi, "cannot read the root inode (%d)", err);
		goto free_cursegs;
	}
	if (!S_ISDIR(root->i_mode) || !root->i_size) {
		f2fs_err(sbi, "root inode is not a directory");
		iput(root);
		err = -EFSCORRUPTED;
		goto free_cursegs;
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		err = -ENOMEM;
		goto free_cursegs;
	}
	if (!sb_rdonly(sb)) {
		err = enable_writes(sbi);
		if (err == -EROFS) {
			f2fs_info(sbi, "mounting read-only");
			sbi->ro_forced = true;
			sb->s_flags |= SB_RDONLY;
		} else if (err) {
			goto put_root;
		}
	}
	f2fs_debugfs_register(sbi);
	f2fs_proc_register(sbi);
	f2fs_info(sbi, "mounted, checkpoint version %llu (pack %d)",
		  sbi->cp_ver,
		  sbi->cp_addr == le32_to_cpu(sbi->raw_super->cp_blkaddr) ?
		  1 : 2);
	return 0;

put_root:
	dput(sb->s_root);
	sb->s_root = NULL;
	f2fs_destroy_gc(sbi);
	f2fs_free_orphans(sbi);
	f2fs_destroy_sit(sbi);
free_cursegs:
	f2fs_free_cursegs(sbi);
free_nm:
	f2fs_destroy_node_manager(sbi);
	iput(sbi->node_inode);
free_ckpt:
	kvfree(sbi->ckpt);
put_meta_inode:
	iput(sbi->meta_inode);
free_raw_super:
	kfree(sbi->raw_super);
free_sbi:
	sb->s_fs_info = NULL;
	kfree(sbi);
	return err;
}

static struct dentry *f2fs_mount(struct file_system_type *fs_type, int flags,
				 const char *dev_name, void *data)
{
	return mount_bdev(fs_type, flags, dev_name, data, f2fs_fill_super);
}

/*
 * The cleaner holds inode references while it moves blocks, so it stops
 * before the VFS evicts the inodes of an unmounting filesystem.
 */
static void f2fs_kill_sb(struct super_block *sb)
{
	if (sb->s_fs_info) {
		f2fs_stop_gc_thread(F2FS_SB(sb));
		f2fs_stop_periodic_cp(F2FS_SB(sb));
	}
	kill_block_super(sb);
}

static struct file_system_type f2fs_fs_type = {
	.owner		= THIS_MODULE,
	.name		= "f2fs",
	.mount		= f2fs_mount,
	.kill_sb	= f2fs_kill_sb,
	.fs_flags	= FS_REQUIRES_DEV,
};
MODULE_ALIAS_FS("f2fs");

static int __init f2fs_init(void)
{
	int err;

	f2fs_inode_cachep = kmem_cache_create("f2fs_inode_cache",
					      sizeof(struct f2fs_inode_info), 0,
					      SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					      f2fs_inode_init_once);
	if (!f2fs_inode_cachep)
		return -ENOMEM;
	err = f2fs_create_nat_cache();
	if (err)
		goto destroy_inode_cache;
	err = f2fs_create_batch_wq();
	if (err)
		goto destroy_nat_cache;
	f2fs_debugfs_init();
	f2fs_proc_init();
	err = register_filesystem(&f2fs_fs_type);
	if (err)
		goto remove_stat_files;
	return 0;

remove_stat_files:
	f2fs_proc_exit();
	f2fs_debugfs_exit();
	f2fs_destroy_batch_wq();
destroy_nat_cache:
	f2fs_destroy_nat_cache();
destroy_inode_cache:
	kmem_cache_destroy(f2fs_inode_cachep);
	return err;
}

static void __exit f2fs_exit(void)
{
	unregister_filesystem(&f2fs_fs_type);
	f2fs_proc_exit();
	f2fs_debugfs_exit();
	/* Inodes are freed after an RCU grace period. */
	rcu_barrier();
	f2fs_destroy_batch_wq();
	f2fs_destroy_nat_cache();
	kmem_cache_destroy(f2fs_inode_cachep);
}

module_init(f2fs_init);
module_exit(f2fs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Flash-Friendly File System (out-of-tree, written here)");
