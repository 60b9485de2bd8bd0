#!/bin/bash
# run.sh - what "make run" does: boot a guest with a fresh 256M f2fs image
# (build/run/disk.img) mounted at /mnt/f2fs through the chosen module.
#   CMD='...'   run that command non-interactively, exit with its status
#   F2FS=stock  use the stock module instead of ours
#   DEMO=1      mkfs with "-e mp4", start the demo workload (qemu/demo.sh)
#               and open f2fs-top on the console (with CMD: before CMD)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN=$ROOT/build/run
mkdir -p "$RUN"
rm -f "$RUN/disk.img"
truncate -s 256M "$RUN/disk.img"
extra=quiet
if [ "${DEMO:-0}" = 1 ]; then
	mkfs.f2fs -q -f -e mp4 "$RUN/disk.img" >/dev/null
	extra="quiet demo=1"
else
	mkfs.f2fs -q -f "$RUN/disk.img" >/dev/null
fi
if [ -n "${CMD:-}" ]; then
	rc=0
	V=1 "$ROOT/qemu/boot.sh" -m -c "$CMD" -d "$RUN/disk.img" -T "${TIMEOUT:-0}" -n run -l "$RUN/log" -a "$extra" || rc=$?
	[ $rc = 0 ] || echo "run: guest command exited with status $rc (logs: build/run/log/)" >&2
	exit $rc
else
	echo "run: booting (TCG, ~10 s); leave with 'poweroff' or Ctrl-A X" >&2
	[ "${DEMO:-0}" = 1 ] && echo "run: DEMO=1: a background workload and f2fs-top (q leaves it for the shell)" >&2
	[ "${DEMO:-0}" = 1 ] && set -- -a "demo=1"
	exec "$ROOT/qemu/boot.sh" -m -i -d "$RUN/disk.img" -n run -l "$RUN/log" "$@"
fi
