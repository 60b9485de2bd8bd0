#!/bin/sh
# desc: bad input: superblocks with the right magic but wrong log sizes, section geometry or area addresses fail to mount with the reason named
# disks: 256M
# timeout: 240
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

# case FIELD VALUE-EXPRESSION 'REASON'
try() {
	mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
	cur=$(get_le32 /dev/vda $((SB1 + $1)))
	new=$(($2))
	note "field at $1: $cur -> $new"
	sb_set "$1" "$new"
	bad_mount /dev/vda "$3"
}
try $SB_LOG_BLOCKSIZE 13 'block size is not 4096'
try $SB_LOG_BLOCKS_PER_SEG 10 'segment size is not 512 blocks'
try $SB_SEGS_PER_SEC 0 'bad section geometry'
try $SB_NAT_BLKADDR 'cur + 1' 'area addresses do not follow each other'
try $SB_CP_BLKADDR 'cur + 512' 'area addresses do not follow each other'
try $SB_MAIN_BLKADDR 'cur - 512' 'area addresses do not follow each other'
try $SB_SEGMENT_COUNT_MAIN 'cur + 100' 'areas larger than the segment count|section geometry'
try $SB_SEGMENT_COUNT 5 'bad segment count'
