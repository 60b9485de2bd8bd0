#!/bin/sh
# desc: full device (issue 15): per configuration (fill level, SSR, section size, active_logs, sync mode) fill, churn a multiple of the device with overwrites, whole-file rewrites, deletes and new files, verify; umount must write its checkpoint (no "checkpoint failed"/"cannot write"/-28 in dmesg), the remount read-write must succeed, every byte verifies, fsck clean; no ENOSPC, fsync or sync failure while df shows space
# disks: 512M
# prep: 62-full-device.prep
# timeout: 5400
#
# The configurations come from 62-full-device.prep (read it for the
# covering set of the full form, make aging, and the four of the short
# form, make check).  Each one, on a fresh mkfs.f2fs -s SEGS of MIB:
#   ssr module parameter; mount -o active_logs=LOGS
#   ager fill LEVEL%, then ager churn CHURN MiB at LEVEL% (the sync mode
#   adds syncfs/fsync), then ager verify
#   the GC/SSR counters of debugfs f2fs/vda/stats, saved as
#   /host/stats-NAME.txt (build/logs/62-full-device/)
#   umount: dmesg since the configuration began must hold no checkpoint
#   failure, no "cannot write" and no -28 (ENOSPC); fsck.f2fs clean
#   mount read-write (must succeed, and be read-write), ager verify,
#   umount, the same dmesg check, fsck.f2fs clean
# The churn may take 2 s per MiB (at least 600 s; ten times what it takes
# on a quiet machine, or more): a slower one is stopped there and is a
# problem (checks and verification of what it did still run).  All
# configurations share BUDGET seconds (prep: 1500 short, 4800 full): the
# churn stops at the budget's end less 300 s for the checks, and the
# configurations not begun then are listed as not run (a failure), so the
# table is written before the guest's timeout.
# A failed step is a problem of the configuration, whose remaining steps
# still run where they can (the image after a failed umount checkpoint is
# saved as build/work/62-full-device/NAME.img); the test fails if any
# configuration has one.  A command that makes no progress (its
# /proc/PID/io stands still) for STALL seconds is a hang: the test prints
# its kernel stack and the blocked tasks (sysrq w), writes its result and
# powers the guest off at once (a sync would hang too), naming the
# configurations not run.  The results table goes to the output and to
# /host/matrix.txt: seconds of the fill, the churn and the checks after
# it; from the stats before the first umount: foreground and background
# GC passes, whether foreground GC ran, blocks moved, write amplification
# (1 + moved / blocks ager wrote in the fill and churn), sections freed,
# blocks written by SSR, room_calls (writers that made room), wb_deferred
# (writeback pages kept dirty for want of room), room_enospc; and the
# ENOSPC that ager met where df agreed ("-": not in these stats).
#
# Workloads (ager options):
#   mix     -w 10 -v 50 -L MIB/32 -D -e: 10% of the operations rewrite a
#           whole file, half the large files (MIB/128 to MIB/32, not 4-16
#           MiB, which would swing the utilisation of a small device by
#           tens of percent) are .mp4 (cold), small directories of 8 files
#           made and removed as they fill and empty.  The page cache holds
#           at most MIB/16 of dirty data (vm.dirty_bytes; writeback starts
#           at MIB/32): with the guest's default limits (20% and 10% of
#           1 GiB) the whole filesystem stays in the cache, and the churn
#           never reaches the device before the umount
#   issue1  -w 20 -L 4 -e: issue 15's first workload: mixed sizes (many
#           small, some of 1-4 MiB), overwrites, whole-file rewrites, deletes
#           at 86-90%, no fsync, then umount (1300 MiB on 512 MiB);
#           the kernel's default dirty limits, as in the issue
#   issue2  -v 100 -D -e -k 4: its second one: every 4-16 MiB file an
#           .mp4, small directories, random rewrites at 86-90% with a sync
#           every 4 operations
# Sync modes: none; sync = -k 8 -f 2 (syncfs every 8 operations, fsync of
# every 2nd file written); sync4 = -k 4.  -e: an ENOSPC counts only where
# df agrees that the space is gone (ager exits 3 otherwise); those are
# counted in the table (column enospc).
#
# Replay: SEED=N make check T=62 (FULLDEV=full for the full form,
# FULLDEV_ONLY='98%-s4' for some configurations).  F2FS=stock runs the
# same configurations on the stock module (no ssr parameter, no stats).
set -eu
. /tests/lib.sh

# shellcheck disable=SC1091
. /work/params
note "params: $(cat /work/params)"
: "${SEED:?}" "${FORM:?}" "${CONFIGS:?}" "${ONLY?}" "${BUDGET:?}"
only=""
[ -z "$ONLY" ] || only=" FULLDEV_ONLY='$ONLY'"
note "replay: SEED=$SEED FULLDEV=$FORM$only make check T=62"
F=/mnt/f2fs
S=/sys/kernel/debug/f2fs/vda/stats
SSR=/sys/module/f2fs/parameters/ssr
STALL=180
VARIANT=${F2FS_VARIANT:-ours}
use_module "$VARIANT"
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug
exec 3>&1
: > /tmp/results

# stat_of KEY: a counter of the stats saved before the first umount ("-": none)
stat_of() { awk -v k="$1" '$1 == k { v = $2 } END { print v == "" ? "-" : v }' /tmp/stats; }

# guard CMD...: run CMD; a hang when its /proc/PID/io stands still for
# STALL seconds (see the top).  Returns CMD's status.
guard() {
	"$@" &
	_pid=$! _last="" _since=$(date +%s)
	while [ "$(cut -d' ' -f3 /proc/$_pid/stat 2>/dev/null || echo Z)" != Z ]; do
		sleep 1
		_io=$(cat /proc/$_pid/io 2>/dev/null || true)
		if [ "$_io" != "$_last" ]; then
			_last=$_io _since=$(date +%s)
		elif [ $(($(date +%s) - _since)) -ge $STALL ]; then
			hang "$_pid" "$*"
		fi
	done
	wait "$_pid"
}

# hang PID CMD: report a hang and end the test at once (see the top).
hang() {
	exec 1>&3 2>&3
	echo "HANG: '$2' (pid $1) made no progress for $STALL s in configuration $NAME"
	echo "--- its kernel stack:"
	cat "/proc/$1/stack" 2>/dev/null || true
	echo "--- f2fs stats:"
	cat $S > /tmp/hang-stats 2>/dev/null &
	sleep 2
	grep -E '^(free|dirty|prefree)_segs|^gc_calls|^ssr_blocks|^cp_(calls|errors)|^writable' /tmp/hang-stats | paste -sd' ' -
	echo w > /proc/sysrq-trigger
	sleep 2
	echo "--- kernel log since the configuration began:"
	dmesg_since | tail -n 80
	echo "HANG $NAME $2" >> /tmp/results
	summary
	echo "configurations not run: $(remaining)"
	echo "62-full-device FAIL hang in $NAME: $2" > /host/result
	echo 1 > /host/exit
	dmesg > /host/dmesg.log
	sleep 2
	poweroff -f
}

# mark WHAT: a marker in the kernel log; dmesg_since [WHAT]: the kernel log
# (raw: <level> first) since that marker (default: the configuration's)
mark() { echo "62-full-device: $NAME: $1" > /dev/kmsg; }
dmesg_since() { dmesg -r | awk -v m="62-full-device: $NAME: ${1:-begin}" 'f; index($0, m) { f = 1 }'; }

# problem MSG: a failed step of this configuration (it goes on)
problem() {
	echo "PROBLEM ($NAME): $*"
	echo "$*" >> /tmp/problems
}

# check_dmesg WHEN MARK: no checkpoint failure, write failure or ENOSPC
# (-28), and no f2fs error or warning at all, in the kernel log since MARK
BAD_LOG='checkpoint failed|cannot write|could not be written|-28([^0-9]|$)|^<[0-4]>.*(f2fs|F2FS)'
check_dmesg() {
	dmesg_since "$2" | grep -E "$BAD_LOG" > /tmp/bad.log || true
	[ -s /tmp/bad.log ] || return 0
	head -n 8 /tmp/bad.log
	problem "$1: $(wc -l < /tmp/bad.log) kernel log lines like: $(head -n1 /tmp/bad.log | cut -c1-160)"
	return 1
}

# run_ager WHAT ARGS...: ager on the configuration's directory and model;
# a non-zero exit is a problem (3: ENOSPC with df showing space).  The
# churn gets SLOW_S seconds per MiB (at least 600 s): then SIGTERM stops it
# between two operations (exit 5), a problem, but what it did verifies.
SLOW_S=2
run_ager() {
	_what=$1
	shift
	_rc=0 _limit=""
	if [ "$_what" = churn ]; then
		_limit=$((CHURN * SLOW_S))
		[ $_limit -ge 600 ] || _limit=600
		_left=$((DEADLINE - $(date +%s)))
		[ $_limit -le $_left ] || _limit=$_left
		[ $_limit -ge 1 ] || _limit=1
	fi
	guard ${_limit:+timeout -s TERM $_limit} ager -d $F/w -m /tmp/model "$@" > /tmp/ager.out 2>&1 || _rc=$?
	cat /tmp/ager.out
	case $_rc in
	0) return 0 ;;
	5)
		problem "$_what: too slow: $(grep -o 'stopped.*' /tmp/ager.out | head -n1) in the $_limit s allowed ($SLOW_S s per MiB)"
		return 0
		;;
	3) problem "$_what: ENOSPC while df shows space available: $(grep ENOSPC /tmp/ager.out | head -n1)" ;;
	4) problem "$_what: the filesystem stayed full (df agrees): ENOSPC at $LEVEL%" ;;
	*) problem "$_what: ager exit $_rc: $(grep '^ager:' /tmp/ager.out | head -n1)" ;;
	esac
	return 1
}

# unmount WHEN MARK: umount (it must write its checkpoint: check_dmesg
# since MARK), then fsck
unmount() {
	_rc=0
	guard umount $F || _rc=$?
	[ $_rc = 0 ] || problem "$1: umount failed (exit $_rc)"
	check_dmesg "$1" "$2" || {
		[ -e "/work/$NAME.img" ] || {
			dd if=/dev/vda of="/work/$NAME.img" bs=1M count="$MIB" 2>/dev/null &&
				note "image saved: build/work/$TEST_NAME/$NAME.img"
		}
	}
	if ! (fsck_clean /dev/vda) > /tmp/fsck.out 2>&1; then
		tail -n 20 /tmp/fsck.out
		cp /tmp/fsck.out "/host/fsck-$NAME.log"
		problem "$1: fsck.f2fs not clean (build/logs/$TEST_NAME/fsck-$NAME.log)"
	else
		tail -n1 /tmp/fsck.out
	fi
}

# one configuration (the fields of the prep's list); problems in /tmp/problems
run_config() {
	: > /tmp/problems
	t0=$(date +%s)
	mark begin
	if [ "$WL" = mix ]; then
		echo $((MIB << 15)) > /proc/sys/vm/dirty_background_bytes
		echo $((MIB << 16)) > /proc/sys/vm/dirty_bytes
	else
		echo 10 > /proc/sys/vm/dirty_background_ratio
		echo 20 > /proc/sys/vm/dirty_ratio
	fi
	if [ "$VARIANT" = ours ]; then
		[ "$SSRV" = 1 ] && echo Y > $SSR || echo N > $SSR
	fi
	guard mkfs.f2fs -q -f -s "$SEGS" /dev/vda $((MIB * 2048)) > /dev/null || { problem "mkfs failed"; return; }
	guard mount -t f2fs -o active_logs="$LOGS" /dev/vda $F || { problem "mount failed"; dmesg_since | tail -n 5; return; }
	mkdir $F/w
	rm -f /tmp/model
	ok=0 enospc=0 wkib=0
	# shellcheck disable=SC2086
	if run_ager fill -s "$CSEED" $WOPTS fill "$LEVEL"; then
		enospc=$(enospc_of) wkib=$(written_of)
		t1=$(date +%s)
		if run_ager churn $WOPTS $SOPTS churn "$CHURN" "$LEVEL"; then
			ok=1
			enospc=$((enospc + $(enospc_of))) wkib=$((wkib + $(written_of)))
			run_ager "verify before umount" verify || ok=0
		fi
	fi
	t1=${t1:-$(date +%s)} t2=$(date +%s)
	df -k $F | tail -n1
	if [ "$VARIANT" = ours ]; then cp $S /tmp/stats; cp $S "/host/stats-$NAME.txt"; else : > /tmp/stats; fi
	unmount "first umount" begin
	mark remount
	if ! guard mount -t f2fs /dev/vda $F; then
		problem "the mount after the umount failed: $(dmesg_since remount | grep -E 'f2fs|F2FS' | tail -n1)"
		dmesg_since remount | tail -n 5
	else
		grep -qE " $F f2fs rw[, ]" /proc/mounts || problem "the remount is not read-write: $(grep " $F " /proc/mounts)"
		if [ $ok = 1 ]; then run_ager "verify after remount" verify || true; fi
		unmount "second umount" remount
	fi
	t3=$(date +%s)
	fg=$(stat_of gc_calls_fg)
	case $fg in -) ran=- ;; 0) ran=no ;; *) ran=yes ;; esac
	moved=$(awk '$1 ~ /^gc_(data|node)_moved$/ { s += $2; n++ } END { print n ? s : "-" }' /tmp/stats)
	ssr=$(awk '$1 ~ /^ssr_blocks_/ { s += $2; n++ } END { print n ? s : "-" }' /tmp/stats)
	wa=$(awk -v m="$moved" -v w="$wkib" 'BEGIN { if (m == "-" || !w) print "-"; else printf "%.2f", 1 + m / (w / 4) }')
	res=ok
	[ -s /tmp/problems ] && res=FAIL
	printf '%-34s %-4s %5s %5s %5s %6s %6s %6s %7s %6s %6s %10s %6s %6s %6s %6s %s\n' "$NAME" "$res" \
		$((t1 - t0)) $((t2 - t1)) $((t3 - t2)) "$fg" "$(stat_of gc_calls_bg)" "$ran" \
		"$moved" "$wa" "$(stat_of gc_secs_freed)" "$ssr" "$(stat_of room_calls)" \
		"$(stat_of wb_deferred)" "$(stat_of room_enospc)" "$enospc" \
		"$(paste -sd';' /tmp/problems | cut -c1-300)" >> /tmp/results
	note "$NAME: $(tail -n1 /tmp/results)"
}

# enospc_of: the ENOSPC that df agreed with, from ager's "ops" line;
# written_of: the KiB it wrote, from its report
enospc_of() { awk '$1 == "ops" { v = $NF } END { print v + 0 }' /tmp/ager.out; }
written_of() { awk '{ for (i = 1; i < NF; i++) if ($i == "written_kib") v = $(i + 1) } END { print v + 0 }' /tmp/ager.out; }

summary() {
	{
		echo "configuration                      res   fill churn check  gc_fg  gc_bg fg_ran   moved     wa  freed ssr_blocks   room  defer r_nosp enospc problems"
		cat /tmp/results
	} | tee /host/matrix.txt
}

remaining() { echo "$TODO"; }

selected() {  # selected NAME: in FULLDEV_ONLY (or no selection)
	[ -z "$ONLY" ] && return 0
	for _p in $ONLY; do
		case $1 in *"$_p"*) return 0 ;; esac
	done
	return 1
}

i=0 TODO=$CONFIGS NAME="" late=""
DEADLINE=$(($(date +%s) + BUDGET - 300))
for cfg in $CONFIGS; do
	i=$((i + 1))
	TODO=${TODO#"$cfg"}
	TODO=${TODO# }
	IFS=: read -r MIB LEVEL SSRV SEGS LOGS SYNC CHURN WL <<EOF
$cfg
EOF
	NAME="$LEVEL%-s$SEGS-l$LOGS-ssr$SSRV-$SYNC-${MIB}M"
	[ "$WL" = mix ] || NAME="$WL-$NAME"
	selected "$NAME" || continue
	if [ "$(date +%s)" -ge "$DEADLINE" ]; then
		late="$late $NAME"
		echo "NOT RUN $NAME (the ${BUDGET} s budget is spent)" >> /tmp/results
		continue
	fi
	CSEED=$((SEED + i))
	case $WL in
	mix) WOPTS="-w 10 -v 50 -L $((MIB / 32)) -D -e" ;;
	issue1) WOPTS="-w 20 -L 4 -e" ;;
	issue2) WOPTS="-v 100 -D -e" ;;
	*) fail "unknown workload $WL in $cfg" ;;
	esac
	case $SYNC in
	none) SOPTS="" ;;
	sync) SOPTS="-k 8 -f 2" ;;
	sync4) SOPTS="-k 4" ;;
	*) fail "unknown sync mode $SYNC in $cfg" ;;
	esac
	echo "=== $i: $NAME: $MIB MiB, fill $LEVEL%, SSR $SSRV, $SEGS segment(s) per section, active_logs=$LOGS, sync $SYNC, churn $CHURN MiB, workload $WL (ager $WOPTS $SOPTS, seed $CSEED)"
	run_config
	if grep -q " $F " /proc/mounts; then guard umount $F || true; fi
done
summary
[ -z "$late" ] || note "not run, the budget being spent:$late"
if grep -qE '^([^ ]+ +FAIL|HANG|NOT RUN) ' /tmp/results; then
	fail "$(grep -cE '^([^ ]+ +FAIL|HANG|NOT RUN) ' /tmp/results) of $(wc -l < /tmp/results) configurations failed or did not run"
fi
[ -s /tmp/results ] || fail "no configuration matched FULLDEV_ONLY='$ONLY'"
note "all $(wc -l < /tmp/results) configurations passed"
