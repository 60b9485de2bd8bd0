#!/bin/sh
# desc: image fuzzer (issue 19), short form: seeded mutations (random bytes in every metadata area, field-aware changes to superblock, checkpoint, NAT, SIT, SSA, inodes, node footers, dentries, zeroed and duplicated blocks) of three base images (ours, stock with inline data/dentries, sload.f2fs); each image is mounted (rw, else ro), walked, written a little and unmounted under a watchdog: no splat, no hang, no leaked module reference with our module; the stock module runs the same images as the control (counted, never failing the test); plus the targeted case of node segments marked as data in the SIT
# disks: 128M
# prep: 25-fuzz.prep
# mem: 1G
# timeout: 900
# args: softlockup_panic=0 hung_task_panic=0 sysctl.kernel.panic_on_rcu_stall=0
set -eu
. /tests/lib.sh
. /tests/fuzz.inc

# make fuzz passes fuzz_n=N fuzz_module=ours|stock|both seed=S (scripts/fuzz.sh)
N=$(cmdline_get fuzz_n || echo 30)
MODULES=$(cmdline_get fuzz_module || echo both)
case $MODULES in both) MODULES="ours stock" ;; ours|stock) ;; *) fail "fuzz_module=$MODULES: want ours, stock or both" ;; esac
SEED=$(test_seed)
# images SEED*10000+1 ..: a run's seeds never overlap another seed's;
# make fuzz resumes a run past a hang of the control with fuzz_skip=K
# (images K+1 .. N)
FIRST=$((SEED % 400000 * 10000))
SKIP=$(cmdline_get fuzz_skip || echo 0)
case $SKIP in ''|*[!0-9]*) fail "fuzz_skip=$SKIP: want a number" ;; esac
[ "$SKIP" -lt "$N" ] || fail "fuzz_skip=$SKIP: not below fuzz_n=$N"
note "fuzz: $((N - SKIP)) images per module ($MODULES), seeds $((FIRST + SKIP + 1))..$((FIRST + N)) (replay one: f2fsfuzz -s SEED -i base-<base>.img -o OUT)"
modprobe loop 2>/dev/null || true
[ -b /dev/loop0 ] || fail "no /dev/loop0"

fuzz_make_bases /dev/vda
: > /tmp/fz.step
fuzz_watchdog &
WD=$!
# the watchdog holds the output pipe open: it must not outlive the test
trap '_rc=$?; kill $WD 2>/dev/null; exit $_rc' EXIT

for m in $MODULES; do
	fuzz_run "$m" $((FIRST + SKIP)) $((N - SKIP))
	[ "$m" != ours ] || [ "$FZ_OURS_BAD" = 0 ] || break
done
fuzz_summary
[ "$FZ_OURS_BAD" = 0 ] || fail "our module: splat, hang or leaked reference (image kept in /host/fuzz, see above)"

# The targeted case (issue 19): every node segment marked as data in the
# SIT.  The stock module refuses such a mount ("SIT is corrupted node#
# ..."); what ours does is reported: a read-write mount that then writes
# to the image is the weak spot the issue names.
for b in $FUZZ_BASES; do
	for m in ours stock; do
		use_module $m || fail "cannot load the $m module"
		fuzz_console $m
		f2fsfuzz node-as-data -i "/tmp/base-$b.img" -o /tmp/fz.img > /tmp/fz.muts ||
			fail "node-as-data: no node segment in the $b base image"
		echo "$m node-as-data $b" > /tmp/fz.cur
		sum0=$(sumdev /tmp/fz.img)
		losetup /dev/loop0 /tmp/fz.img
		dmesg -c > /dev/null
		note "node-as-data, $b base, $m module: mounting"
		if step mount mount -t f2fs /dev/loop0 $FM 2> /tmp/fz.merr; then
			step scribble f2fsfuzz scribble $FM > /tmp/fz.scr 2>&1 || true
			step umount umount $FM || fail "node-as-data: umount failed ($m, $b)"
			what="mounted read-write; $(sed 's/^f2fsfuzz: //' /tmp/fz.scr)"
		else
			what="refused rw: $(sed 's/.*failed: //' /tmp/fz.merr); $(dmesg | grep -o '(loop0).*' | head -1)"
		fi
		step losetup losetup -d /dev/loop0
		if dmesg | grep -qE "$FUZZ_BAD"; then
			if [ $m = ours ]; then
				dmesg | grep -E -A 20 "$FUZZ_BAD" | head -40
				fail "node-as-data ($b): our module splat"
			fi
			dmesg -c > "/host/fuzz/stock-node-as-data-$b.klog"
			what="$what; SPLAT (kept in fuzz/stock-node-as-data-$b.klog)"
		fi
		if [ "$(sumdev /tmp/fz.img)" != "$sum0" ]; then
			fsck.f2fs /tmp/fz.img < /dev/null > /tmp/nd.fsck 2>&1 || true
			what="$what; image changed, fsck.f2fs after: $(grep -cE '\[Fail\]|\[ASSERT\]|\[FIX\]' /tmp/nd.fsck) problems ($(grep -oE '\[(ASSERT|FIX)\].*' /tmp/nd.fsck | head -2 | cut -c1-90 | tr '\n' ';'))"
		else
			what="$what; image unchanged"
		fi
		note "node-as-data, $b base, $m module: $what"
		echo "node-as-data $b $m: $what" >> /host/fuzz/node-as-data.txt
	done
done
