#!/bin/sh
# desc: harness self-test: guest boots, 9p share, the right f2fs module, no stock f2fs in /lib/modules, f2fs-tools, guest tools, stock_unchanged passes a fresh mkfs image and canoncheck names planted changes
# disks: 64M 16M
# timeout: 120
set -eu
# shellcheck source=scripts/tests/lib.sh
. /tests/lib.sh

kver=$(uname -r)
[ "$kver" = "$(cat /etc/kver)" ] || fail "kernel $kver is not the initramfs' $(cat /etc/kver)"

# 9p: write a file the host can see
echo "hello from $TEST_NAME" > /host/hello.txt
[ "$(cat /host/hello.txt)" = "hello from $TEST_NAME" ] || fail "9p share not writable"

# the chosen module, and nothing f2fs in the auto-load path
[ -d /sys/module/f2fs ] || fail "f2fs not loaded"
[ "$(f2fs_loaded)" = "$F2FS_VARIANT" ] || fail "loaded $(f2fs_loaded), wanted $F2FS_VARIANT"
if find /lib/modules -name 'f2fs.ko*' | grep -q .; then fail "an f2fs.ko is under /lib/modules"; fi
grep -q f2fs /proc/filesystems || fail "f2fs not in /proc/filesystems"
note "module $F2FS_VARIANT loaded, srcversion $(cat /sys/module/f2fs/srcversion 2>/dev/null || echo -)"

# disks
{ [ -b /dev/vda ] && [ -b /dev/vdb ]; } || fail "disks vda/vdb missing"
[ "$(cat /sys/block/vda/size)" = 131072 ] || fail "vda is not 64M"

# tools
mkfs.f2fs -q -f /dev/vda || fail "mkfs.f2fs failed"
fsck_clean /dev/vda
dump.f2fs -i 3 /dev/vda >/dev/null || fail "dump.f2fs failed"

# stock_unchanged: a fresh mkfs image is canonical (the stock module's
# read-only mount and walk change nothing), and canoncheck finds and names
# planted changes: a byte in the main area, and the root's NAT entry.
stock_unchanged /dev/vda mkfs
[ "$(f2fs_loaded)" = "$F2FS_VARIANT" ] || fail "stock_unchanged did not load the $F2FS_VARIANT module again"
le32() { od -A n -t u4 -j "$1" -N 4 /dev/vda | tr -d ' '; }
main=$(le32 $((1024 + 92))) nat=$(le32 $((1024 + 84)))
canoncheck save /dev/vda /tmp/cst > /dev/null || fail "canoncheck save failed"
printf 'X' | dd of=/dev/vda bs=1 seek=$(((main + 100) * 4096 + 7)) conv=notrunc 2>/dev/null
printf '\007' | dd of=/dev/vda bs=1 seek=$((nat * 4096 + 3 * 9)) conv=notrunc 2>/dev/null
rc=0
canoncheck diff /dev/vda /tmp/cst > /tmp/cdiff.txt || rc=$?
cat /tmp/cdiff.txt
[ $rc = 1 ] || fail "canoncheck diff exited $rc on a changed device, not 1"
grep -q "^block $((main + 100)) (main area segment 0 offset 100) changed" /tmp/cdiff.txt ||
	fail "canoncheck diff does not name the changed main-area block"
grep -q "^block $nat (NAT copy 1 block 0) changed" /tmp/cdiff.txt ||
	fail "canoncheck diff does not name the changed NAT block"
grep -q "nid 3: version 0 -> 7, ino 3 -> 3" /tmp/cdiff.txt ||
	fail "canoncheck diff does not decode the changed NAT entry of the root"
grep -q "^canoncheck: diff /dev/vda: 2 blocks changed: NAT 1 main 1" /tmp/cdiff.txt ||
	fail "canoncheck diff does not count 2 changed blocks"
note "canoncheck names a changed main-area block and a changed NAT entry"
mkfs.ext4 -q -F /dev/vdb || fail "mkfs.ext4 failed"
for t in mkfs.f2fs fsck.f2fs dump.f2fs f2fstat sload.f2fs defrag.f2fs resize.f2fs getdents-small; do
	command -v "$t" >/dev/null || fail "tool $t missing"
done

# corrupted image must be detected by fsck_clean (run in a subshell)
dd if=/dev/urandom of=/dev/vda bs=4096 seek=0 count=2 conv=notrunc 2>/dev/null
if (fsck_clean /dev/vda) >/dev/null 2>&1; then fail "fsck_clean missed destroyed superblocks"; fi

# guest tool works on a plain directory
mkdir -p /tmp/gd && touch /tmp/gd/a /tmp/gd/b
n=$(getdents-small /tmp/gd 32 2>/dev/null | wc -l)
[ "$n" = 4 ] || fail "getdents-small listed $n entries, expected 4"

# debugfs / tracefs
[ -d /sys/kernel/debug/f2fs ] || [ -d /sys/kernel/debug ] || fail "no debugfs"
[ -f /sys/kernel/tracing/trace ] || fail "no tracefs"

# switching modules back and forth (when both are present)
if [ -f /opt/f2fs/ours/f2fs.ko ]; then
	other=stock; [ "$F2FS_VARIANT" = stock ] && other=ours
	use_module "$other" || fail "cannot switch to $other"
	[ "$(f2fs_loaded)" = "$other" ] || fail "switch to $other did not take"
	use_module "$F2FS_VARIANT" || fail "cannot switch back"
fi
note "all harness checks passed"
