#!/bin/sh
# desc: power cuts: fsync workloads killed (QEMU SIGKILL) at seeded random moments; after each cut the next boot mounts our module read-write, checks every fsynced state with crashwl check (heavy workload: thousands of fsynced files plus an unsynced churn directory that must read back whole), umounts and needs fsck.f2fs clean; the stock module checks a copy of the same image as a reference; once per sweep a read-only mount (must say recovery is pending and not write) and a disable_roll_forward mount
# host: scripts/crash-test.sh CUTS=2 SIZE=256M DELAY_MIN=140 DELAY_MAX=200
# timeout: 1200
#
# This is the guest half of scripts/crash-test.sh (which check.sh runs on
# the host because of the "host:" line above); booting it alone does
# nothing useful.  One boot = check the previous cut (if any) + start the
# next cut's workload, which runs until the host kills QEMU.  Parameters
# come from /work/cut.env (written by the host):
#   CHECK_DIR  directory (under /mnt/f2fs) of the cut to check; its CWL log
#              is /work/prev.log; CHECK_SEED its seed (for churncheck)
#   RO_CHECK   1: first mount read-only (recovery pending, md5 unchanged)
#   DRF_CHECK  1: copy the device to vdb, mount it -o disable_roll_forward,
#              umount, fsck.f2fs clean
#   STOCK_CHECK 1: copy the cut image to vdb before our module mounts it;
#              after our check, the stock module mounts the copy
#              read-write and the same checks run on it (a reference: its
#              result is reported, the cut's verdict is ours)
#   RUN_SEED   seed of the workload to start (empty: none, end the boot)
#   RUN_DIR    its directory; MKFS=1: mkfs.f2fs first; RUN_SECS: its limit
#   WORKLOAD   heavy: crashwl run -H -B BUDGET in RUN_DIR and, at the same
#              time, crashwl churn (never synced) in RUN_DIR.churn; light:
#              crashwl run (the light mix) alone
#   INJECT     stray: plant a stray file before the check (harness self-test)
# Results go to /work/check.result, one line each:
#   CHECK PASS|FAIL ..., RO PASS|FAIL|INFO ..., DRF PASS|FAIL|SKIP ...,
#   STOCK PASS|FAIL ..., CANON PASS|FAIL ... (stock_unchanged after a
#   clean check), RUN FAIL ...
# vda: the filesystem (aged across cuts); vdb: scratch copy for DRF_CHECK
# and STOCK_CHECK.
set -eu
. /tests/lib.sh

MNT=/mnt/f2fs
R=/work/check.result
[ -f /work/cut.env ] || fail "no /work/cut.env: run this through scripts/crash-test.sh"
CHECK_DIR="" CHECK_SEED="" RO_CHECK=0 DRF_CHECK=0 STOCK_CHECK=0 RUN_SEED="" RUN_DIR=""
MKFS=0 RUN_SECS=300 INJECT="" WORKLOAD=light BUDGET=96
. /work/cut.env
: > $R

bad=0
res() { echo "$*" >> $R; echo "crash: $*"; }
cfail() { res "CHECK FAIL $*"; bad=1; }

# fsck_ok DEV: like fsck_clean (lib.sh) but returns a status instead of failing
fsck_ok() {
	_rc=0
	fsck.f2fs "$1" </dev/null >/tmp/fsck.log 2>&1 || _rc=$?
	if [ "$_rc" != 0 ] || grep -qE "$FSCK_BAD" /tmp/fsck.log; then
		cp /tmp/fsck.log "/work/fsck-$(basename "$1").log"
		grep -E "$FSCK_BAD" /tmp/fsck.log | head -20
		return 1
	fi
	return 0
}
# canon DEV LABEL: stock_unchanged (lib.sh) as a CANON result line: the
# image our module left (recovered, or with the records dropped) must be
# canonical.  In a subshell: stock_unchanged ends the test on a failure.
canon() {
	if (stock_unchanged "$1" "$2") > /tmp/canon.out 2>&1; then
		res "CANON PASS $1: $(grep -o 'canonical: .*' /tmp/canon.out | head -1)"
	else
		head -40 /tmp/canon.out
		res "CANON FAIL $1: $(grep '^FAIL: ' /tmp/canon.out | tail -1 | sed 's/^FAIL: //')"
		bad=1
	fi
}
# klog_since N: kernel log lines after the first N
klog_since() { dmesg | tail -n +$(($1 + 1)); }
klines() { dmesg | wc -l; }
# kmsg N: the f2fs kernel messages after line N, on one line
kmsg() { klog_since "$1" | grep -i 'f2fs' | grep -v 'harness:' | tail -3 | sed 's/^\[[^]]*\] //' | paste -sd'|' -; }

# verify ROOT PREFIX: crashwl check of ROOT/CHECK_DIR against the CWL log
# (output /work/PREFIX.out) and, for a cut of the heavy workload,
# crashwl churncheck of ROOT/CHECK_DIR.churn (/work/PREFIX-churn.out).
# Prints the summary or the first problems on one line; status 1 on any.
verify() {
	_rc=0 _sum=""
	crashwl check "$1/$CHECK_DIR" /work/prev.log > "/work/$2.out" 2>&1 || _rc=$?
	if [ "$_rc" = 0 ]; then
		_sum=$(tail -1 "/work/$2.out")
	else
		_sum="crashwl check exit $_rc: $(tail -1 "/work/$2.out"); first: $(grep -m1 '^VIOLATION' "/work/$2.out" || true)"
	fi
	if [ "$WORKLOAD" = heavy ]; then
		_c=0
		crashwl churncheck "$1/$CHECK_DIR.churn" "$CHECK_SEED" > "/work/$2-churn.out" 2>&1 || _c=$?
		if [ "$_c" = 0 ]; then
			_sum="$_sum; $(tail -1 "/work/$2-churn.out" | sed 's/^crashwl //; s/seed [0-9]*, //')"
		else
			_sum="$_sum; churncheck exit $_c: $(grep -m1 '^VIOLATION' "/work/$2-churn.out" || tail -1 "/work/$2-churn.out")"
			[ "$_rc" != 0 ] || _rc=$_c
		fi
	fi
	echo "$_sum"
	return "$_rc"
}

if [ -n "$CHECK_DIR" ]; then
	note "checking the cut of $CHECK_DIR ($(wc -l < /work/prev.log) workload log lines captured)"
	if [ "$RO_CHECK" = 1 ]; then
		m0=$(sumdev /dev/vda)
		k=$(klines)
		if mount -t f2fs -o ro /dev/vda $MNT; then
			n=$(ls $MNT/"$CHECK_DIR" 2>/dev/null | wc -l)
			umount $MNT
			msg=$(klog_since "$k" | grep -i 'pending' | head -1 || true)
			m1=$(sumdev /dev/vda)
			if [ "$F2FS_VARIANT" != ours ]; then
				res "RO INFO ($F2FS_VARIANT module) md5 $( [ "$m0" = "$m1" ] && echo unchanged || echo changed), message: ${msg:-none}"
			elif [ "$m0" != "$m1" ]; then
				res "RO FAIL a read-only mount after the cut wrote to the device (md5 $m0 -> $m1)"; bad=1
			elif [ -z "$msg" ]; then
				res "RO FAIL the read-only mount after the cut did not say that recovery is pending"; bad=1
				klog_since "$k" | sed 's/^/  /'
			else
				res "RO PASS md5 unchanged, $n entries readable, kernel: ${msg#*] }"
			fi
		else
			res "RO FAIL read-only mount after the cut failed"; bad=1
		fi
	fi
	if [ "$DRF_CHECK" = 1 ]; then
		mkdir -p /mnt/b
		dd if=/dev/vda of=/dev/vdb bs=1M 2>/dev/null
		k=$(klines)
		if mount -t f2fs -o disable_roll_forward /dev/vdb /mnt/b 2>/tmp/mount.err; then
			n=$(ls /mnt/b/"$CHECK_DIR" 2>/dev/null | wc -l)
			# content is not required (fsynced data since the last
			# checkpoint may be lost), but say what crashwl check sees
			crashwl check /mnt/b/"$CHECK_DIR" /work/prev.log > /work/drf-check.out 2>&1 || true
			if ! umount /mnt/b; then
				res "DRF FAIL umount after the disable_roll_forward mount failed"; bad=1
			elif fsck_ok /dev/vdb; then
				res "DRF PASS mounted with disable_roll_forward ($n entries), fsck.f2fs clean; content (not required): $(tail -n1 /work/drf-check.out | sed 's/(seed [0-9]*, //; s/ (.*//')"
				canon /dev/vdb "drf-$CHECK_DIR"
			else
				res "DRF FAIL fsck.f2fs not clean after a disable_roll_forward mount"; bad=1
			fi
		elif klog_since "$k" | grep -qiE 'unrecognized mount option|unknown option'; then
			res "DRF SKIP the module does not parse disable_roll_forward yet: $(klog_since "$k" | grep -iE 'unrecognized|unknown' | head -1 | sed 's/^\[[^]]*\] //')"
		else
			res "DRF FAIL mount -o disable_roll_forward failed: $(cat /tmp/mount.err)"; bad=1
			klog_since "$k" | tail -5 | sed 's/^/  /'
		fi
	fi

	if [ "$STOCK_CHECK" = 1 ]; then
		# the reference copy, taken before our module touches the image
		dd if=/dev/vda of=/dev/vdb bs=1M 2>/dev/null || { res "STOCK FAIL copying vda to vdb"; STOCK_CHECK=0; }
	fi

	k=$(klines)
	if mount -t f2fs /dev/vda $MNT 2>/tmp/mount.err; then
		klog_since "$k" | sed 's/^/  kernel: /'
		if ! grep " $MNT " /proc/mounts | grep -q ' rw[ ,]'; then
			cfail "the mount after the cut is read-only: $(klog_since "$k" | grep -iE 'cannot write|read-only' | head -2 | tr '\n' ' ')"
		fi
		if [ "$INJECT" = stray ]; then
			echo planted > $MNT/"$CHECK_DIR"/stray
			note "INJECT=stray: planted $CHECK_DIR/stray, the check must fail"
		fi
		rc=0
		sum=$(verify $MNT check) || rc=$?
		head -40 /work/check.out
		[ ! -f /work/check-churn.out ] || head -20 /work/check-churn.out
		[ "$rc" = 0 ] || cfail "$sum"
		umount $MNT || cfail "umount after the check failed"
		if fsck_ok /dev/vda; then
			note "fsck.f2fs /dev/vda clean"
			canon /dev/vda "cut-$CHECK_DIR"
		else
			cfail "fsck.f2fs not clean after the check"
		fi
		[ $bad = 1 ] || res "CHECK PASS $sum"
	else
		cfail "our module refused the read-write mount after the cut: $(kmsg "$k") ($(cat /tmp/mount.err))"
		klog_since "$k" | tail -10 | sed 's/^/  /'
	fi

	if [ "$STOCK_CHECK" = 1 ]; then
		# the same checks on the copy, with Debian's stock f2fs module
		mkdir -p /mnt/b
		if use_module stock; then
			k=$(klines)
			if mount -t f2fs /dev/vdb /mnt/b 2>/tmp/mount.err; then
				rc=0
				ssum=$(verify /mnt/b stock) || rc=$?
				ro=$(grep ' /mnt/b ' /proc/mounts | grep -q ' rw[ ,]' && echo rw || echo "READ-ONLY")
				if ! umount /mnt/b; then
					res "STOCK FAIL umount of the stock module's mount failed"
				elif [ "$rc" != 0 ]; then
					res "STOCK FAIL ($ro) $ssum"
				elif ! fsck_ok /dev/vdb; then
					res "STOCK FAIL ($ro) fsck.f2fs not clean after the stock module's mount; $ssum"
				else
					res "STOCK PASS ($ro, fsck clean) $ssum"
				fi
			else
				res "STOCK FAIL the stock module refused the mount: $(kmsg "$k") ($(cat /tmp/mount.err))"
			fi
		else
			res "STOCK FAIL cannot load the stock module"
		fi
		use_module ours || { res "RUN FAIL cannot load our module again"; exit 1; }
	fi
	[ $bad = 0 ] || MKFS=1
fi

if [ -n "$RUN_SEED" ]; then
	if [ "$MKFS" = 1 ]; then
		mkfs.f2fs -f -q /dev/vda > /dev/null || { res "RUN FAIL mkfs"; exit 1; }
		note "fresh mkfs.f2fs on /dev/vda"
	fi
	mount -t f2fs /dev/vda $MNT || { res "RUN FAIL mount before the workload"; exit 1; }
	rm -rf $MNT/c[0-9]*
	mkdir $MNT/"$RUN_DIR"
	[ "$WORKLOAD" != heavy ] || mkdir $MNT/"$RUN_DIR".churn
	sync
	note "df: $(df -k $MNT | awk 'NR == 2 { print $3 " KiB used, " $4 " KiB free" }')"
	echo "@@CRASH-RUN-START seed $RUN_SEED dir $RUN_DIR workload $WORKLOAD"
	rc=0
	if [ "$WORKLOAD" = heavy ]; then
		# the churn: never synced; its errors (only) go to the console
		crashwl churn $MNT/"$RUN_DIR".churn "$RUN_SEED" -t "$RUN_SECS" > /tmp/churn.out 2> /dev/ttyS0 &
		# straight to the serial port: crashwl drains it (tcdrain) after each line
		crashwl run $MNT/"$RUN_DIR" "$RUN_SEED" -H -B "$BUDGET" -t "$RUN_SECS" > /dev/ttyS0 || rc=$?
	else
		crashwl run $MNT/"$RUN_DIR" "$RUN_SEED" -t "$RUN_SECS" > /dev/ttyS0 || rc=$?
	fi
	res "RUN FAIL the workload ended (exit $rc) before the power cut"
	exit 1
fi
exit $bad
