#!/bin/bash
# record.sh - what "make record" does: boot "make run DEMO=1" (the demo
# workload of qemu/demo.sh on a fresh 256 MiB image), record the bpf tools'
# JSON lines with f2fs-record for SECS seconds, then a cold du, and keep the
# recording in build/recordings/demo-<date>/ (build/recordings/latest points
# to it) for "make dashboard".
#   SECS=120     seconds of recording (after WARMUP seconds of workload)
#   WARMUP=10    seconds of demo workload before the recording starts
#   INTERVAL=2   seconds per report of every tool
#   F2FS=stock   the stock module instead of ours
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${SECS:-120} WARMUP=${WARMUP:-10} INTERVAL=${INTERVAL:-2}
for v in SECS WARMUP INTERVAL; do
	case ${!v} in ''|*[!0-9]*) echo "record: $v must be a number of seconds, not '${!v}'" >&2; exit 2 ;; esac
done
[ "$INTERVAL" -gt 0 ] || { echo "record: INTERVAL must be at least 1" >&2; exit 2; }
RUNLOG=$ROOT/build/run/log
OUT=$ROOT/build/recordings/demo-$(date +%Y%m%d-%H%M%S)${F2FS:+-${F2FS}}
# the demo workload is stopped before the cold du, so that du is alone
cmd="sleep $WARMUP; RECORD_LABEL='make run DEMO=1 (${F2FS:-ours})' f2fs-record start /host/recording -i $INTERVAL && sleep $SECS"
cmd="$cmd && kill \$(cat /tmp/demo.pids); sleep 1; f2fs-record du /host/recording; f2fs-record stop /host/recording"
echo "record: ${WARMUP}s of demo workload, then ${SECS}s recorded (every ${INTERVAL}s) and a cold du (TCG: about $((WARMUP + SECS + 60))s)" >&2
rc=0
DEMO=1 CMD=$cmd TIMEOUT=$((WARMUP + SECS + 600)) "$ROOT/scripts/run.sh" || rc=$?
[ -f "$RUNLOG/recording/meta.json" ] || { echo "record: no recording in $RUNLOG/recording (guest log: $RUNLOG/console.log)" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
cp -r "$RUNLOG/recording" "$OUT"
cp "$RUNLOG/console.log" "$RUNLOG/dmesg.log" "$OUT/" 2>/dev/null || true
ln -sfn "$(basename "$OUT")" "$ROOT/build/recordings/latest"
echo "record: $OUT (make dashboard renders it)" >&2
exit $rc
