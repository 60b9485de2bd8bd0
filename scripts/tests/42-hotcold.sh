#!/bin/sh
# desc: hot/cold separation: with active_logs=6, 4 and 2, dentry blocks, file data, .mp4/.jpg data (cold extensions), .db data (hot extension), directory and file inodes, direct and indirect nodes land in segments of the log type the design assigns (read back with dump.f2fs from the NAT, the inodes and the SIT)
# disks: 256M
# timeout: 400
set -eu
. /tests/lib.sh
. /tests/corrupt.inc

F=/mnt/f2fs
use_module ours

# field VALUE-NAME FILE: value of "name [0x...: dec]" lines of dump.f2fs -i
field() { grep "^$1 " "$2" | head -1 | sed 's/.*: *\([0-9]*\)\].*/\1/'; }

seg_type() {  # seg_type BLKADDR: log type of the segment holding the block
	_seg=$(( ($1 - MAIN) / 512 ))
	sed -n "s/^segno: *${_seg}[^0-9].*seg_type: *\([0-9]*\).*/\1/p" /tmp/dump_sit
}

node_addr() {  # node_addr NID: block address of a node from the NAT dump
	awk -v n="$1" '$1 == "nid:" && $2 == n { print $8 }' /tmp/dump_nat
}

check() {  # check WHAT BLKADDR EXPECTED
	_t=$(seg_type "$2")
	[ "$_t" = "$3" ] || fail "active_logs=$LOGS: $1 (block $2) is in a segment of type '$_t', expected $3"
	note "active_logs=$LOGS: $1 -> type $_t"
}

for LOGS in 6 4 2; do
	mkfs.f2fs -q -f -e mp4,jpg -E db /dev/vda || fail "mkfs failed"
	mount -t f2fs -o active_logs=$LOGS /dev/vda $F || fail "mount -o active_logs=$LOGS failed"
	grep -q "active_logs=$LOGS" /proc/mounts || [ $LOGS = 6 ] || fail "active_logs missing from /proc/mounts"
	mkdir $F/d
	i=0
	# 200 names: more than an inline directory holds (182), so d has dentry blocks
	while [ $i -lt 200 ]; do echo $i > $F/d/entry$i; i=$((i + 1)); done
	head -c 16000000 /dev/urandom > $F/d/plain
	head -c 300000 /dev/urandom > $F/d/movie.mp4
	head -c 300000 /dev/urandom > $F/d/pic.jpg
	head -c 300000 /dev/urandom > $F/d/state.db
	D=$(stat -c %i $F/d); P=$(stat -c %i $F/d/plain)
	M=$(stat -c %i $F/d/movie.mp4); J=$(stat -c %i $F/d/pic.jpg)
	H=$(stat -c %i $F/d/state.db)
	umount $F
	fsck_clean /dev/vda
	MAIN=$(get_le32 /dev/vda $((1024 + 92)))
	cd /tmp
	rm -f dump_sit dump_nat
	dump.f2fs -s 0~-1 /dev/vda </dev/null >/dev/null 2>&1
	dump.f2fs -n 0~-1 /dev/vda </dev/null >/dev/null 2>&1
	for ino in $D $P $M $J $H; do
		dump.f2fs -i "$(printf 0x%x "$ino")" /dev/vda </dev/null > /tmp/ino.$ino 2>&1 || true
	done
	cd /
	case $LOGS in
	6) HD=0 WD=1 CD=2 HN=3 WN=4 CN=5 ;;
	4) HD=0 WD=2 CD=2 HN=5 WN=4 CN=5 ;;
	2) HD=0 WD=0 CD=0 HN=3 WN=3 CN=3 ;;
	esac
	check "dentry block of d" "$(field 'i_addr\[0x0\]' /tmp/ino.$D)" $HD
	check "data of plain" "$(field 'i_addr\[0x0\]' /tmp/ino.$P)" $WD
	check "data of movie.mp4" "$(field 'i_addr\[0x0\]' /tmp/ino.$M)" $CD
	check "data of pic.jpg" "$(field 'i_addr\[0x0\]' /tmp/ino.$J)" $CD
	check "data of state.db (hot extension)" "$(field 'i_addr\[0x0\]' /tmp/ino.$H)" $HD
	check "inode of directory d" "$(node_addr $D)" $HN
	check "inode of plain" "$(node_addr $P)" $WN
	check "direct node of plain" "$(node_addr "$(field 'i_nid\[0\]' /tmp/ino.$P)")" $WN
	check "indirect node of plain" "$(node_addr "$(field 'i_nid\[2\]' /tmp/ino.$P)")" $CN
	stock_unchanged /dev/vda "active_logs=$LOGS"
done
