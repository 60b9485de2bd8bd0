#!/bin/bash
# stock-reference.sh - record what the stock f2fs module of the guest kernel
# offers the tools, into bpf-tools/: stock-6.1-events.txt (the f2fs trace
# events and each one's format file, from tracefs) and stock-6.1-status.txt
# (/sys/kernel/debug/f2fs/status with two f2fs mounted after a small
# workload).  bpf-tools/stock_events.h is written from these; run this again
# after a kernel update and compare (git diff bpf-tools/).
#
#   scripts/stock-reference.sh        (after make initramfs; one guest boot)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$ROOT/build/work/stock-reference
rm -rf "$W"
mkdir -p "$W"
truncate -s 256M "$W/a.img" "$W/b.img"
cat > "$W/cmd.sh" <<'GUEST'
umount /mnt/f2fs 2>/dev/null
. /lib/harness.sh
use_module stock || exit 1
T=/sys/kernel/tracing
{
	echo "# kernel $(uname -r), stock f2fs module; events in $T/events/f2fs/"
	for e in "$T"/events/f2fs/*/; do basename "$e"; done
	for e in "$T"/events/f2fs/*/format; do
		echo
		echo "===== $(basename "$(dirname "$e")")"
		cat "$e"
	done
} > /host/events.txt
mkdir -p /mnt/a /mnt/b
mkfs.f2fs -q -f /dev/vda && mkfs.f2fs -q -f /dev/vdb || exit 1
mount -t f2fs /dev/vda /mnt/a && mount -t f2fs /dev/vdb /mnt/b || exit 1
mkdir /mnt/a/d
i=0
while [ $i -lt 200 ]; do head -c $((i * 100)) /dev/urandom > /mnt/a/d/f$i; i=$((i + 1)); done
head -c 4000000 /dev/urandom > /mnt/a/big
sync
rm /mnt/a/d/f1*
sync
{
	echo "# kernel $(uname -r), stock f2fs module: /sys/kernel/debug/f2fs/status with vda (200 files of 0-20 KB, then f1* removed; a 4 MB file) and an empty vdb mounted"
	cat /sys/kernel/debug/f2fs/status
} > /host/status.txt
umount /mnt/a /mnt/b
GUEST
F2FS=stock "$ROOT/qemu/boot.sh" -c "$(cat "$W/cmd.sh")" -d "$W/a.img" -d "$W/b.img" -l "$W/log" -T 600
cp "$W/log/events.txt" "$ROOT/bpf-tools/stock-6.1-events.txt"
cp "$W/log/status.txt" "$ROOT/bpf-tools/stock-6.1-status.txt"
echo "stock-reference: wrote bpf-tools/stock-6.1-events.txt ($(grep -c '^=====' "$ROOT/bpf-tools/stock-6.1-events.txt") events) and bpf-tools/stock-6.1-status.txt"
