// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_meta.bpf.c - lookup, iget and readdir latency, with the node reads
 * and NAT lookups each of them waits for.  A per-thread record holds the
 * operations in progress (iget runs inside lookup) and the thread's last
 * event, so that the time between two events is charged to what started it.
 *
 * The stock module (st_*): f2fs_lookup_start/_end bracket a lookup (its
 * end reports -ENOENT for names it found too, as d_splice_alias returns
 * NULL: a name was not there when cino is (nid_t)-1); f2fs_iget and
 * f2fs_iget_exit fire only at the end of an iget (success, failure), so
 * igets are counted but not timed; f2fs_readdir fires at the end of a
 * getdents call, which is timed from the getdents64 system call's entry
 * (syscalls/sys_enter_getdents64) when it is traced; node reads and NAT
 * block reads are f2fs_submit_page_bio reads (NODE, readahead when
 * REQ_RAHEAD; META in the NAT area), fired when submitted, as our
 * f2fs_node_read is.  The NAT cache and journal are not seen.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "f2fs_events.h"
#include "stock.bpf.h"
#include "f2fs_meta.h"
#include "bits.bpf.h"

const volatile __u32 targ_dev = 0;
const volatile __u32 nat_start = 0, nat_end = 0;	/* stock: the NAT area's blocks */
struct meta_totals totals = {};

struct thread {
	__u64 start[NR_OPS];
	__u64 last_ts;		/* the thread's last f2fs event */
	__u32 active;		/* bit per operation in progress */
	__u32 last_kind;	/* TM_* the time since last_ts belongs to */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct thread);
} threads SEC(".maps");

static __always_inline __u32 tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/* Charge now - last_ts to @kind of every operation in progress. */
static __always_inline void charge(struct thread *t, __u64 now, __u32 kind)
{
	__u64 d = now - t->last_ts;
	int i;

	if (kind >= NR_TM)
		return;
	for (i = 0; i < NR_OPS; i++)
		if (t->active & (1 << i))
			__sync_fetch_and_add(&totals.op[i].time_ns[kind], d);
	t->last_ts = now;
}

static __always_inline int op_start(int op)
{
	struct thread *t, zero = {};
	__u32 id = tid();
	__u64 now;

	now = bpf_ktime_get_ns();
	t = bpf_map_lookup_elem(&threads, &id);
	if (!t) {
		bpf_map_update_elem(&threads, &id, &zero, BPF_ANY);
		t = bpf_map_lookup_elem(&threads, &id);
		if (!t)
			return 0;
		t->last_ts = now;
		t->last_kind = TM_OTHER;
	}
	charge(t, now, t->last_kind);
	t->last_kind = TM_OTHER;
	t->start[op] = now;
	t->active |= 1 << op;
	return 0;
}

static __always_inline int op_enter(__u32 dev, int op)
{
	if (DEV_FILTER(dev))
		return 0;
	return op_start(op);
}

/* Forget @op of this thread without counting it. */
static __always_inline void op_drop(int op)
{
	__u32 id = tid();
	struct thread *t = bpf_map_lookup_elem(&threads, &id);

	if (!t)
		return;
	t->active &= ~(1U << op);
	if (!t->active)
		bpf_map_delete_elem(&threads, &id);
}

/* Count @op without a latency (stock events that only mark the end). */
static __always_inline void op_count(int op, int ret)
{
	if (op >= NR_OPS)
		return;
	__sync_fetch_and_add(&totals.op[op].count, 1);
	if (ret < 0)
		__sync_fetch_and_add(&totals.op[op].errors, 1);
}

static __always_inline int op_exit(__u32 dev, int op, int ret, int special)
{
	__u32 id = tid(), slot;
	struct thread *t;
	__u64 now, lat;

	if (DEV_FILTER(dev))
		return 0;
	t = bpf_map_lookup_elem(&threads, &id);
	if (!t || !(t->active & (1 << op)))
		return 0;	/* entered before we attached */
	now = bpf_ktime_get_ns();
	charge(t, now, t->last_kind);
	t->last_kind = TM_OTHER;
	lat = now - t->start[op];
	slot = log2_slot(lat / 1000);
	if (slot >= META_SLOTS)
		slot = META_SLOTS - 1;
	__sync_fetch_and_add(&totals.op[op].count, 1);
	__sync_fetch_and_add(&totals.op[op].timed, 1);
	__sync_fetch_and_add(&totals.op[op].total_ns, lat);
	__sync_fetch_and_add(&totals.op[op].hist[slot], 1);
	if (ret < 0)
		__sync_fetch_and_add(&totals.op[op].errors, 1);
	if (special)
		__sync_fetch_and_add(&totals.op[op].special, 1);
	t->active &= ~(1U << op);
	if (!t->active)
		bpf_map_delete_elem(&threads, &id);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_lookup_enter")
int on_lookup_enter(struct tp_ino_enter *ctx)
{
	return op_enter(ctx->dev, OP_LOOKUP);
}

SEC("tracepoint/f2fs/f2fs_lookup_exit")
int on_lookup_exit(struct tp_lookup_exit *ctx)
{
	return op_exit(ctx->dev, OP_LOOKUP, ctx->ret, !ctx->ret && !ctx->found_ino);
}

SEC("tracepoint/f2fs/f2fs_iget_enter")
int on_iget_enter(struct tp_ino_enter *ctx)
{
	return op_enter(ctx->dev, OP_IGET);
}

SEC("tracepoint/f2fs/f2fs_iget_exit")
int on_iget_exit(struct tp_iget_exit *ctx)
{
	return op_exit(ctx->dev, OP_IGET, ctx->ret, ctx->from_disk);
}

SEC("tracepoint/f2fs/f2fs_readdir_enter")
int on_readdir_enter(struct tp_ino_enter *ctx)
{
	return op_enter(ctx->dev, OP_READDIR);
}

SEC("tracepoint/f2fs/f2fs_readdir_exit")
int on_readdir_exit(struct tp_readdir_exit *ctx)
{
	return op_exit(ctx->dev, OP_READDIR, ctx->ret, 0);
}

/* A node block read of kind @k submitted by this thread. */
static __always_inline int node_read(__u32 k)
{
	__u32 id = tid();
	struct thread *t;
	int i;

	if (k >= NR_NODE_READ_KINDS)
		return 0;
	__sync_fetch_and_add(&totals.node_reads[k], 1);
	t = bpf_map_lookup_elem(&threads, &id);
	if (!t || !t->active) {
		__sync_fetch_and_add(&totals.unattributed_reads, 1);
		return 0;
	}
	charge(t, bpf_ktime_get_ns(), t->last_kind);
	t->last_kind = k == NODE_READ_SYNC ? TM_NODE_SYNC : TM_NODE_RA;
	for (i = 0; i < NR_OPS; i++)
		if (t->active & (1 << i))
			__sync_fetch_and_add(&totals.op[i].node_reads[k], 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_node_read")
int on_node_read(struct tp_node_read *ctx)
{
	if (DEV_FILTER(ctx->dev))
		return 0;
	return node_read(ctx->kind);
}

SEC("tracepoint/f2fs/f2fs_nat_lookup")
int on_nat_lookup(struct tp_nat_lookup *ctx)
{
	__u32 s = ctx->source, id = tid(), kind;
	struct thread *t;
	int i;

	if (DEV_FILTER(ctx->dev) || s >= NR_NAT_SOURCES)
		return 0;
	__sync_fetch_and_add(&totals.nat[s], 1);
	t = bpf_map_lookup_elem(&threads, &id);
	if (!t || !t->active)
		return 0;
	/* the event follows the NAT block read, if there was one */
	kind = t->last_kind;
	if (kind == TM_OTHER && s == NAT_BLOCK)
		kind = TM_NAT_BLOCK;
	charge(t, bpf_ktime_get_ns(), kind);
	t->last_kind = TM_OTHER;
	for (i = 0; i < NR_OPS; i++)
		if (t->active & (1 << i))
			__sync_fetch_and_add(&totals.op[i].nat[s], 1);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_lookup_start")
int st_lookup_start(struct tps_ino *ctx)
{
	return op_enter(ctx->dev, OP_LOOKUP);
}

SEC("tracepoint/f2fs/f2fs_lookup_end")
int st_lookup_end(struct tps_lookup_end *ctx)
{
	int err = ctx->err == -ST_ENOENT ? 0 : ctx->err;

	return op_exit(ctx->dev, OP_LOOKUP, err,
		       ctx->cino == 0xffffffff && ctx->err == -ST_ENOENT);
}

SEC("tracepoint/f2fs/f2fs_iget")
int st_iget(struct tps_ino *ctx)
{
	if (!DEV_FILTER(ctx->dev))
		op_count(OP_IGET, 0);
	return 0;
}

SEC("tracepoint/f2fs/f2fs_iget_exit")
int st_iget_exit(struct tps_iget_exit *ctx)
{
	if (!DEV_FILTER(ctx->dev))
		op_count(OP_IGET, ctx->ret);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getdents64")
int st_getdents_enter(void *ctx)
{
	(void)ctx;
	return op_start(OP_READDIR);	/* any file system: f2fs_readdir tells */
}

SEC("tracepoint/syscalls/sys_exit_getdents64")
int st_getdents_exit(void *ctx)
{
	(void)ctx;
	op_drop(OP_READDIR);	/* not an f2fs directory of ours */
	return 0;
}

SEC("tracepoint/f2fs/f2fs_readdir")
int st_readdir(struct tps_readdir *ctx)
{
	__u32 id = tid();
	struct thread *t;

	if (DEV_FILTER(ctx->dev)) {
		op_drop(OP_READDIR);
		return 0;
	}
	t = bpf_map_lookup_elem(&threads, &id);
	if (t && (t->active & (1 << OP_READDIR)))
		return op_exit(ctx->dev, OP_READDIR, ctx->err, 0);
	op_count(OP_READDIR, ctx->err);	/* getdents not traced: no latency */
	return 0;
}

SEC("tracepoint/f2fs/f2fs_submit_page_bio")
int st_page_bio(struct tps_page_bio *ctx)
{
	__u32 id = tid(), blk = ctx->new_blkaddr;
	struct thread *t;
	int i;

	if (DEV_FILTER(ctx->dev) || ctx->op != ST_REQ_OP_READ)
		return 0;
	if (ctx->type == ST_NODE)
		return node_read(ctx->op_flags & ST_REQ_RAHEAD ? NODE_READ_RA : NODE_READ_SYNC);
	if (ctx->type != ST_META || blk < nat_start || blk >= nat_end)
		return 0;
	/* a NAT block read: the time until the thread's next event is its wait */
	__sync_fetch_and_add(&totals.nat[NAT_BLOCK], 1);
	t = bpf_map_lookup_elem(&threads, &id);
	if (!t || !t->active)
		return 0;
	charge(t, bpf_ktime_get_ns(), t->last_kind);
	t->last_kind = TM_NAT_BLOCK;
	for (i = 0; i < NR_OPS; i++)
		if (t->active & (1 << i))
			__sync_fetch_and_add(&totals.op[i].nat[NAT_BLOCK], 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
