#!/bin/bash
# crash-test.sh - power-cut sweep: kill QEMU (SIGKILL) while fsync workloads
# run on our f2fs, then boot again and check what survived.
#
#   scripts/crash-test.sh [CUTS=30] [SEED=N] [SEEDS='S1 S2 ...'] [REMKFS=10]
#                         [WORKLOAD=heavy|light] [SIZE=512M] [BUDGET=MIB]
#                         [DELAY_MIN=140] [DELAY_MAX=390] [STOCK=1|0]
#                         [LOGDIR=DIR] [INJECT=stray]
#
# Boot k (k = 1..CUTS+1) runs scripts/tests/80-crash-powercut.sh in a guest:
# it checks cut k-1 (our module must mount it read-write; crashwl check
# against the CWL lines the host captured from boot k-1's console, and for
# the heavy workload crashwl churncheck of the churn directory; umount;
# fsck.f2fs clean) and then starts cut k in a new directory of the same
# (aged) filesystem, which is re-made with mkfs.f2fs every REMKFS cuts and
# after a failed check.  The host waits for the first CWL line on the
# console, sleeps the cut's delay (DELAY_MIN..DELAY_MAX tenths of a second,
# from the cut's seed) and kills QEMU with SIGKILL.
#
# WORKLOAD=heavy (the default): crashwl run -H (thousands of new files of
# up to 40 KiB, whole and partial blocks, each fsynced, some appends and
# overwrites; BUDGET MiB of live files at most, default 30% of SIZE) and at
# the same time crashwl churn in another directory (creates, overwrites,
# appends, truncates, unlinks, renames, never synced); SIZE 512M, delays
# 14.0-39.0 s.  WORKLOAD=light: crashwl run alone (the light mix, at most
# 256 files of whole blocks); SIZE 256M, delays 1.0-8.0 s.
#
# STOCK=1 (the default with our module): each cut image is also copied
# (before our module mounts it) and checked the same way with Debian's
# stock f2fs module, as a reference; its result is printed with the cut
# ("stock agrees"/"STOCK DISAGREES") and counted at the end, but the
# verdict is our module's.  The first check of the sweep also mounts
# read-only first (must say that recovery is pending and leave the
# device's md5 unchanged) and mounts a copy with -o disable_roll_forward
# (must give an fsck-clean filesystem; SKIP when the module does not know
# the option).  A kernel log with BUG:/Oops/WARNING:/... in either boot,
# or a churn error on the console, fails the cut.
#
# Seeds: SEED is the master seed (random if unset); cut k's seed is derived
# from it and printed.  SEEDS='S ...' runs exactly those cut seeds (one cut
# each, in order, on a fresh filesystem first), e.g. to replay a failed
# cut: scripts/crash-test.sh SEEDS=S.  The workload is replayed exactly;
# the moment of the kill is the same delay but TCG timing varies, so the
# image of a failed cut as it was before the check is kept
# (disk-before-check.img in the failing boot's log directory).
# Logs: LOGDIR (default build/logs/crash)/boot-K/ per boot (console.log,
# cwl.log = the CWL lines of the cut run in that boot, check.result,
# check.out, check-churn.out, stock.out, stock-churn.out, fsck reports),
# summary.txt.  Last line: "N cuts, N passed, N failed".
# INJECT=stray tests the harness itself: the guest drops a stray file into
# each cut's directory before the check, so every checked cut must FAIL
# (and the stock reference, checked on a copy without it, disagrees).
# Env: F2FS=ours|stock, QEMU_MEM (default 512M), V=1 (the guest notes).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
usage() { sed -n '2,53s/^# \{0,1\}//p' "$0"; exit 2; }
for a in "$@"; do
	case $a in
	CUTS=*|SEED=*|SEEDS=*|REMKFS=*|DELAY_MIN=*|DELAY_MAX=*|LOGDIR=*|WORK=*|SIZE=*|INJECT=*|\
	WORKLOAD=*|BUDGET=*|STOCK=*) export "${a?}" ;;
	*) usage ;;
	esac
done
WORKLOAD=${WORKLOAD:-heavy}
case $WORKLOAD in
heavy) SIZE=${SIZE:-512M} DELAY_MIN=${DELAY_MIN:-140} DELAY_MAX=${DELAY_MAX:-390} ;;
light) SIZE=${SIZE:-256M} DELAY_MIN=${DELAY_MIN:-10} DELAY_MAX=${DELAY_MAX:-80} ;;
*) echo "crash-test: WORKLOAD must be heavy or light, not '$WORKLOAD'" >&2; usage ;;
esac
CUTS=${CUTS:-30}
REMKFS=${REMKFS:-10}
if [ "${F2FS:-ours}" = stock ]; then STOCK=0; fi
STOCK=${STOCK:-1}
size_mib=$(( $(numfmt --from=iec "$SIZE" 2>/dev/null || echo 0) >> 20 ))
[ "$size_mib" -ge 64 ] || { echo "crash-test: SIZE must be a size of 64M or more (like 512M), got '$SIZE'" >&2; usage; }
for v in CUTS REMKFS DELAY_MIN DELAY_MAX STOCK ${BUDGET:+BUDGET}; do
	case ${!v} in ''|*[!0-9]*) echo "crash-test: $v must be a number, got '${!v}'" >&2; usage ;; esac
done
BUDGET=${BUDGET:-$((size_mib * 3 / 10))}
if [ "$DELAY_MAX" -lt "$DELAY_MIN" ] || [ "$CUTS" -lt 1 ] || [ "$REMKFS" -lt 1 ] || [ "$BUDGET" -lt 1 ]; then
	echo "crash-test: need DELAY_MIN <= DELAY_MAX, CUTS >= 1, REMKFS >= 1, BUDGET >= 1" >&2
	usage
fi
# the guest kernel (KERNEL=debug) and KERNEL_BAD, the log patterns that fail
# shellcheck source=qemu/kernel.sh
. "$ROOT/qemu/kernel.sh"
LOGROOT=${LOGDIR:-$BUILD/logs/crash}
WORKDIR=${WORK:-$BUILD/work/crash}
export QEMU_MEM=${QEMU_MEM:-512M}
[ -f "$KINITRD" ] || { echo "crash-test: make initramfs${KERNEL:+ KERNEL=$KERNEL} first" >&2; exit 2; }

if [ -z "${SEED:-}" ]; then SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); fi
seeds=()
if [ -n "${SEEDS:-}" ]; then
	read -r -a seeds <<< "$SEEDS"
	CUTS=${#seeds[@]}
else
	for ((k = 1; k <= CUTS; k++)); do
		seeds+=("$(printf 'cut %s %s' "$SEED" "$k" | cksum | cut -d' ' -f1)")
	done
fi

rm -rf "$LOGROOT" "$WORKDIR"
mkdir -p "$LOGROOT" "$WORKDIR"
LOGROOT=$(cd "$LOGROOT" && pwd)
disk=$WORKDIR/disk.img
scratch=$WORKDIR/scratch.img
truncate -s "$SIZE" "$disk" "$scratch"
summary=$LOGROOT/summary.txt
: > "$summary"
say() { echo "$*"; echo "$*" >> "$summary"; }

# the checker must catch planted faults (crashwl selftest, on the host)
if ! { gcc -O2 -Wall -o "$WORKDIR/crashwl" "$ROOT/qemu/guest-tools/crashwl.c" &&
       "$WORKDIR/crashwl" selftest "$WORKDIR/selftest" > "$LOGROOT/selftest.log" 2>&1; }; then
	tail -5 "$LOGROOT/selftest.log" 2>/dev/null
	say "crash-test: crashwl selftest failed (see $LOGROOT/selftest.log)"
	exit 1
fi
rm -rf "$WORKDIR/selftest" "$WORKDIR/selftest.selftest.log"
say "crash-test: $(tail -n1 "$LOGROOT/selftest.log")"
say "crash-test: master seed $SEED, $CUTS cuts, workload $WORKLOAD$([ "$WORKLOAD" = heavy ] && echo " (budget $BUDGET MiB)"), ${SIZE} disk, kill ${DELAY_MIN}..${DELAY_MAX} tenths of a second after the first CWL line, module ${F2FS:-ours}$([ "$STOCK" = 1 ] && echo ", stock module as a reference")"
say "crash-test: replay the sweep: scripts/crash-test.sh SEED=$SEED CUTS=$CUTS WORKLOAD=$WORKLOAD SIZE=$SIZE DELAY_MIN=$DELAY_MIN DELAY_MAX=$DELAY_MAX$([ "$WORKLOAD" = heavy ] && echo " BUDGET=$BUDGET"); one cut: SEEDS=<cut seed> with the same settings"
t0=$(date +%s)
pass=0 fail=0 spass=0 sfail=0 disagree=0 steps_ok=0 files_ok=0
prev_dir="" prev_seed="" mkfs_next=1 checks=0
# what a guest leaves in WORKDIR for the host (copied to the boot's logs)
OUTS="check.result check.out check-churn.out stock.out stock-churn.out drf-check.out prev.log fsck-vda.log fsck-vdb.log"

# bad patterns in the part of a console log before (part=check) or after
# (part=run) the guest's @@CRASH-RUN-START line
kbad() {
	local f=$1 part=$2
	[ -f "$f" ] || return 0
	tr -d '\r' < "$f" | awk -v p="$part" '/@@CRASH-RUN-START/ { run = 1 } (p == "run") == (run == 1)' \
		| grep -oE "$KERNEL_BAD" | sort -u | paste -sd, - || true
}

for ((b = 1; b <= CUTS + 1; b++)); do
	logdir=$LOGROOT/boot-$b
	run_seed="" run_dir="" delay=0
	if [ $b -le "$CUTS" ]; then
		run_seed=${seeds[$((b - 1))]}
		run_dir=c$b
		delay=$(( DELAY_MIN + $(printf 'delay %s' "$run_seed" | cksum | cut -d' ' -f1) % (DELAY_MAX - DELAY_MIN + 1) ))
	fi
	ro=0 drf=0
	if [ -n "$prev_dir" ] && [ $checks = 0 ]; then ro=1 drf=1; fi
	[ -n "$prev_dir" ] && checks=$((checks + 1))
	if [ $b -gt 1 ] && [ $(( (b - 1) % REMKFS )) = 0 ]; then mkfs_next=1; fi
	cat > "$WORKDIR/cut.env" <<-EOF
	CHECK_DIR=$prev_dir
	CHECK_SEED=$prev_seed
	RO_CHECK=$ro
	DRF_CHECK=$drf
	STOCK_CHECK=$STOCK
	RUN_SEED=$run_seed
	RUN_DIR=$run_dir
	MKFS=$mkfs_next
	RUN_SECS=300
	WORKLOAD=$WORKLOAD
	BUDGET=$BUDGET
	INJECT=${INJECT:-}
	EOF
	mkfs_next=0
	rm -f "$WORKDIR/qemu.pid" "$WORKDIR"/fsck-*.log
	for f in $OUTS; do rm -f "$WORKDIR/$f"; done
	[ -n "$prev_dir" ] && [ $b -gt 1 ] && cp "$LOGROOT/boot-$((b - 1))/cwl.log" "$WORKDIR/prev.log"
	[ -n "$prev_dir" ] && cp --sparse=always "$disk" "$WORKDIR/disk-before-check.img"

	for attempt in 1 2; do
		"$ROOT/qemu/boot.sh" -t 80-crash-powercut -d "$disk" -d "$scratch" -T 900 \
			-l "$logdir" -w "$WORKDIR" -p "$WORKDIR/qemu.pid" > "$WORKDIR/boot.out" 2>&1 &
		bpid=$!
		# a guest kernel that never reaches /init (TCG stalls in early
		# boot on a loaded host) has not touched the disks: boot again
		waited=0
		while kill -0 "$bpid" 2>/dev/null && ! grep -aq 'init: running test' "$logdir/console.log" 2>/dev/null; do
			sleep 0.5
			waited=$((waited + 1))
			[ $waited -lt 480 ] || break
		done
		if [ $attempt = 1 ] && kill -0 "$bpid" 2>/dev/null &&
		   ! grep -aq 'init: running test' "$logdir/console.log" 2>/dev/null; then
			kill -9 "$(cat "$WORKDIR/qemu.pid")" 2>/dev/null || true
			wait "$bpid" || true
			rm -rf "$logdir-hung"
			mv "$logdir" "$logdir-hung"
			say "  boot $b: the guest did not reach /init in 240s (boot stall, log ${logdir#"$ROOT"/}-hung); booting again"
			continue
		fi
		break
	done
	killed=0
	if [ -n "$run_seed" ]; then
		# wait for the first CWL line (or the boot ending on its own)
		waited=0
		while kill -0 "$bpid" 2>/dev/null; do
			if [ -f "$logdir/console.log" ] && grep -aq 'CWL [0-9]' "$logdir/console.log"; then break; fi
			sleep 0.2
			waited=$((waited + 1))
			[ $waited -lt 3000 ] || break
		done
		if kill -0 "$bpid" 2>/dev/null && grep -aq 'CWL [0-9]' "$logdir/console.log" 2>/dev/null; then
			sleep "$((delay / 10)).$((delay % 10))"
			qpid=$(cat "$WORKDIR/qemu.pid" 2>/dev/null || true)
			if [ -n "$qpid" ] && kill -9 "$qpid" 2>/dev/null; then
				killed=1
			fi
		fi
	fi
	rc=0
	wait "$bpid" || rc=$?
	cp "$WORKDIR/cut.env" "$logdir/" 2>/dev/null || true
	for f in $OUTS; do
		[ -f "$WORKDIR/$f" ] && cp "$WORKDIR/$f" "$logdir/"
	done
	if [ -n "$run_seed" ]; then
		tr -d '\r' < "$logdir/console.log" | grep -a 'CWL [0-9]' > "$logdir/cwl.log" || true
	fi

	# ---- verdict on cut b-1 (checked in this boot) ----
	if [ -n "$prev_dir" ]; then
		k=$((b - 1))
		reason=""
		if [ ! -s "$logdir/check.result" ]; then
			reason="no check result (guest crashed or hung in the check? boot exit $rc)"
		else
			while read -r what verdict rest; do
				case $what/$verdict in
				RO/INFO|DRF/SKIP|RO/PASS|DRF/PASS|CANON/PASS) say "  cut $k: $what $verdict $rest" ;;
				STOCK/*) ;;
				*/FAIL) [ "$what" = RUN ] || reason="${reason:+$reason; }$what: $rest" ;;
				esac
			done < "$logdir/check.result"
			grep -q '^CHECK PASS' "$logdir/check.result" || reason=${reason:-"no CHECK PASS line"}
		fi
		kb=$(kbad "$LOGROOT/boot-$k/console.log" run)
		[ -z "$kb" ] || reason="${reason:+$reason; }kernel log of the cut run has: $kb"
		if tr -d '\r' < "$LOGROOT/boot-$k/console.log" | grep -aq 'crashwl churn: error'; then
			reason="${reason:+$reason; }the churn failed during the cut run: $(tr -d '\r' < "$LOGROOT/boot-$k/console.log" | grep -a -m1 'crashwl churn: error')"
		fi
		kb=$(kbad "$logdir/console.log" check)
		[ -z "$kb" ] || reason="${reason:+$reason; }kernel log of the check has: $kb"
		info="seed ${seeds[$((k - 1))]}, $(grep -c 'CWL [0-9]' "$LOGROOT/boot-$k/cwl.log" || true) CWL lines"
		# the stock module's reference check of the same image
		stock=""
		if [ "$STOCK" = 1 ]; then
			stock=$(grep -m1 '^STOCK ' "$logdir/check.result" 2>/dev/null || echo "STOCK FAIL no result (the check boot ended before it)")
			ours_ok=$([ -z "$reason" ] && echo 1 || echo 0)
			stock_ok=$(case $stock in "STOCK PASS"*) echo 1 ;; *) echo 0 ;; esac)
			if [ "$stock_ok" = 1 ]; then spass=$((spass + 1)); else sfail=$((sfail + 1)); fi
			if [ "$ours_ok" = "$stock_ok" ]; then
				stock="stock agrees: ${stock#STOCK }"
			else
				disagree=$((disagree + 1))
				stock="STOCK DISAGREES: ${stock#STOCK }"
			fi
		fi
		if [ -z "$reason" ]; then
			pass=$((pass + 1))
			read -r st nfiles < <(sed -n 's/^CHECK PASS crashwl check: OK: .*last durable step \([0-9]*\) .*, \([0-9]*\) files, .*/\1 \2/p' "$logdir/check.result" | head -1)
			steps_ok=$((steps_ok + ${st:-0})) files_ok=$((files_ok + ${nfiles:-0}))
			say "PASS cut $k ($info; $(sed -n 's/^CHECK PASS crashwl check: OK: seed [0-9]*, //p' "$logdir/check.result" | sed 's/ ([^)]*)//'))"
			rm -f "$WORKDIR/disk-before-check.img"
		else
			fail=$((fail + 1))
			mv "$WORKDIR/disk-before-check.img" "$logdir/disk-before-check.img" 2>/dev/null || true
			say "FAIL cut $k ($info): $reason log: ${logdir#"$ROOT"/}$([ -f "$logdir/disk-before-check.img" ] && echo " image: ${logdir#"$ROOT"/}/disk-before-check.img") (replay: scripts/crash-test.sh SEEDS=${seeds[$((k - 1))]} WORKLOAD=$WORKLOAD SIZE=$SIZE)"
		fi
		[ -z "$stock" ] || say "  cut $k: $stock"
	fi

	# ---- cut b itself: did the power cut happen? ----
	prev_dir="" prev_seed=$run_seed
	if [ -n "$run_seed" ]; then
		if [ $killed = 1 ]; then
			say "  cut $b: seed $run_seed, killed QEMU $((delay / 10)).$((delay % 10))s after the first CWL line, $(grep -c 'CWL [0-9]' "$logdir/cwl.log" || true) CWL lines captured$(grep -q 'fresh mkfs' "$logdir/console.log" && echo ' (fresh mkfs)')"
			prev_dir=$run_dir
		else
			fail=$((fail + 1))
			why=$(grep -h '^RUN FAIL\|CHECK FAIL' "$logdir/check.result" 2>/dev/null | head -2 | tr '\n' ' ')
			say "FAIL cut $b (seed $run_seed): no power cut: the guest ended or never started the workload (boot exit $rc) ${why} log: ${logdir#"$ROOT"/}"
			mkfs_next=1
		fi
	fi
done

secs=$(( $(date +%s) - t0 ))
say "crash-test: master seed $SEED, ${secs}s"
[ "$STOCK" != 1 ] || say "stock module on the same images: $spass passed, $sfail failed; $disagree disagreement(s) with ours"
say "the passed cuts verified $steps_ok durable fsync steps, $files_ok files"
say "$CUTS cuts, $pass passed, $fail failed"
[ "$fail" = 0 ]
