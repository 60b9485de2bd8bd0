#!/bin/sh
# desc: every form of a checkpoint pack crosses between the modules: compact data summaries in one and in two blocks, the full form, and a pack with an orphan block, each written by a sync (not an unmount) of one module, the device copied while mounted, then mounted by the other module: contents match the reference, fsck.f2fs is clean before and after
# disks: 256M 256M
# timeout: 420
#
# The pack's length depends on its form, and a reader that assumes three
# summary blocks refuses a compact pack of four blocks or more (our module
# did, before: a stock crash image with an orphan or with two compact
# blocks would not mount).  Writers: the stock module and the module under
# test; each case's form is checked in the copied image (fsck.f2fs -d 1),
# so that a workload that stops producing it fails here.
set -eu
. /tests/lib.sh

REF=/tmp/ref
CP_COMPACT=4 CP_ORPHAN=2
head -c 4500000 /dev/urandom > /tmp/rand

other() { if [ "$1" = stock ]; then echo "$F2FS_VARIANT"; else echo stock; fi; }

# pack_field NAME: a field of the copied image's current checkpoint
pack_field() {
	fsck.f2fs -d 1 /dev/vdb </dev/null 2>/dev/null |
		awk -v f="$1" '$1 == f { sub(/.*: */, ""); sub(/\].*/, ""); print; exit }'
}

# workload CASE DIR: the files of CASE under DIR (the same on tmpfs)
workload() {
	mkdir -p "$2/d"
	case $1 in
	full)	# 511 warm and 511 cold (.jpg) blocks, the rest of each log's
		# first segment, and 600 empty files in one directory, which
		# need dentry blocks (hot data) even with inline dentries:
		# over 1,023 entries
		head -c $((511 * 4096)) /tmp/rand > "$2/warm"
		tail -c $((511 * 4096)) /tmp/rand > "$2/photo.jpg"
		j=0
		while [ $j -lt 600 ]; do : > "$2/d/empty-file-number-$j"; j=$((j + 1)); done
		return ;;
	esac
	i=1
	while [ $i -le 8 ]; do head -c $((i * 3000)) /tmp/rand > "$2/d/f$i"; i=$((i + 1)); done
	# about 460 warm data blocks: over the 439 entries of one block
	[ "$1" != two ] || head -c $((460 * 4096)) /tmp/rand > "$2/warm"
}

run_case() {	# run_case WRITER CASE
	w=$1 c=$2 r=$(other "$1")
	rm -rf "$REF"
	mkdir -p "$REF"
	workload "$c" "$REF"
	treesum -f type,mode,nlink,size,link,content "$REF" > /tmp/ref.man ||
		fail "treesum of the reference failed"

	use_module "$w"
	mkfs.f2fs -q -f /dev/vda >/dev/null || fail "mkfs.f2fs failed"
	opts=""
	[ "$w" = stock ] && opts="-o noinline_dentry"
	mount -t f2fs $opts /dev/vda /mnt/f2fs || fail "$w: mount failed"
	workload "$c" /mnt/f2fs
	if [ "$c" = orphan ]; then
		head -c 20000 /tmp/rand > /mnt/f2fs/open-unlinked
		exec 3< /mnt/f2fs/open-unlinked
		rm /mnt/f2fs/open-unlinked
	fi
	sync
	# the device as a power cut would leave it after the sync
	dd if=/dev/vda of=/dev/vdb bs=1M 2>/dev/null || fail "copy of vda failed"
	[ "$c" = orphan ] && exec 3<&-
	umount /mnt/f2fs || fail "$w: umount failed"

	flags=$(pack_field ckpt_flags) total=$(pack_field cp_pack_total_block_count)
	start=$(pack_field cp_pack_start_sum)
	[ -n "$flags" ] && [ -n "$total" ] && [ -n "$start" ] ||
		fail "$w/$c: cannot read the checkpoint fields with fsck.f2fs -d 1"
	offs=$(fsck.f2fs -d 1 /dev/vdb </dev/null 2>/dev/null |
		awk '$1 ~ /^cur_data_blkoff\[[012]\]$/ { sub(/.*: */, ""); sub(/\].*/, ""); printf "%s%s", s, $0; s = "+" }')
	form="flags $flags, $total blocks, summaries from block $start, data log offsets $offs"
	case $c in
	one)	[ $((flags & CP_COMPACT)) != 0 ] && [ $((total - start)) = 2 ] ||
			fail "$w/$c: not a one-block compact pack ($form)" ;;
	two)	[ $((flags & CP_COMPACT)) != 0 ] && [ $((total - start)) = 3 ] ||
			fail "$w/$c: not a two-block compact pack ($form)" ;;
	full)	[ $((flags & CP_COMPACT)) = 0 ] && [ $((total - start)) = 4 ] ||
			fail "$w/$c: not a full-form pack ($form)" ;;
	orphan)	[ $((flags & CP_ORPHAN)) != 0 ] && [ "$start" -ge 2 ] ||
			fail "$w/$c: no orphan block in the pack ($form)" ;;
	esac
	note "$w/$c: $form"
	fsck_clean /dev/vdb

	use_module "$r"
	mount -t f2fs /dev/vdb /mnt/f2fs ||
		fail "$r cannot mount the $c pack $w wrote ($form): $(dmesg | grep -i f2fs | tail -2 | tr '\n' ' ')"
	[ ! -e /mnt/f2fs/open-unlinked ] || fail "$r: the orphan is visible"
	same_tree /tmp/ref.man /mnt/f2fs "$c pack by $w, read by $r"
	echo more > /mnt/f2fs/after
	umount /mnt/f2fs || fail "$r: umount failed"
	fsck_clean /dev/vdb
	note "$w/$c: $r mounted it, read it right, wrote to it; fsck clean"
}

for w in stock "$F2FS_VARIANT"; do
	for c in ${CASES:-one orphan two full}; do
		run_case "$w" "$c"
	done
done

