#!/bin/bash
# record.sh - what "make record" does: boot a guest like "make run DEMO=1"
# (the demo workload of qemu/demo.sh on a fresh 256 MiB image made with
# "mkfs.f2fs -e mp4"), record the bpf tools' JSON lines with f2fs-record
# for SECS seconds, stop the workload, record a cold du, stop the tools,
# then unmount and check the image with fsck.f2fs (lib.sh's fsck_clean).
# The recording goes to build/recordings/demo-<date>/ (and
# build/recordings/latest points to it) for "make dashboard".
#   SECS=120     seconds of recording (after WARMUP seconds of workload)
#   WARMUP=10    seconds of demo workload before the recording starts
#   INTERVAL=2   seconds per report of every tool
#   F2FS=stock   the stock module instead of ours
#   OUT=DIR      the recording's directory instead (no "latest" link)
#   RUN_DIR=DIR  where the disk image and the guest's logs go (build/record)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${SECS:-120} WARMUP=${WARMUP:-10} INTERVAL=${INTERVAL:-2}
for v in SECS WARMUP INTERVAL; do
	case ${!v} in ''|*[!0-9]*) echo "record: $v must be a number of seconds, not '${!v}'" >&2; exit 2 ;; esac
done
[ "$INTERVAL" -gt 0 ] || { echo "record: INTERVAL must be at least 1" >&2; exit 2; }
RUN_DIR=${RUN_DIR:-$ROOT/build/record}
link=0
if [ -z "${OUT:-}" ]; then
	OUT=$ROOT/build/recordings/demo-$(date +%Y%m%d-%H%M%S)-${F2FS:-ours}
	link=1
fi
mkdir -p "$RUN_DIR"
disk=$RUN_DIR/disk.img
rm -f "$disk"
truncate -s 256M "$disk"
mkfs.f2fs -q -f -e mp4 "$disk" > /dev/null
R=/host/recording
cmd="set -e; . /tests/lib.sh; sleep $WARMUP
RECORD_LABEL='make record: the demo workload (${F2FS:-ours} module)' f2fs-record start $R -i $INTERVAL
sleep $SECS
kill \$(cat /tmp/demo.pids); sleep 1
f2fs-record du $R
f2fs-record stop $R
umount /mnt/f2fs
fsck_clean /dev/vda"
echo "record: ${WARMUP}s of demo workload, then ${SECS}s recorded (every ${INTERVAL}s) and a cold du (TCG: about $((WARMUP + SECS + 60))s)" >&2
rc=0
"$ROOT/qemu/boot.sh" -m -c "$cmd" -d "$disk" -T $((WARMUP + SECS + 600)) -n record -l "$RUN_DIR/log" -a "quiet demo=1" || rc=$?
log=$RUN_DIR/log
[ $rc = 0 ] || echo "record: the guest exited $rc (its output: $log/output.log, console: $log/console.log)" >&2
[ -f "$log/recording/meta.json" ] || { echo "record: no recording in $log/recording" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
cp -r "$log/recording" "$OUT"
cp "$log/output.log" "$log/dmesg.log" "$OUT/" 2>/dev/null || true
[ $link = 0 ] || ln -sfn "$(basename "$OUT")" "$ROOT/build/recordings/latest"
echo "record: $OUT$([ $link = 0 ] || echo ' (make dashboard renders it)')" >&2
exit $rc
