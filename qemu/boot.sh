#!/bin/bash
# boot.sh - boot the test guest once.
#
#   qemu/boot.sh [-t TEST | -c 'CMD' | -i] [-d DISK]... [-T SECS] [-l LOGDIR]
#                [-n NAME] [-w WORKDIR] [-m] [-a 'KERNEL ARGS'] [-p PIDFILE]
#                [-B BYTES_PER_SEC]
#
#   -t TEST    run /tests/TEST.sh in the guest
#   -c CMD     run shell command CMD in the guest (passed in a file on 9p)
#   -i         interactive shell on this terminal (default with neither)
#   -d DISK    raw disk image, attached as virtio disk (vda, vdb, ... in order)
#   -B BPS     cap the bandwidth of the -d disks that follow on the command
#              line at BPS bytes/s, reads and writes together (QEMU's
#              throttling.bps-total; make bench THROTTLE=, e.g. an SD
#              card's 10 MB/s); -B 0 ends it for the disks after that
#   -T SECS    kill QEMU after SECS seconds and report "timeout" (default 300,
#              0 = none; interactive runs have none)
#   -l LOGDIR  where console.log, dmesg.log, output.log, result go
#              (default build/logs/NAME); it is the guest's /host 9p share
#   -n NAME    name of the run (default: TEST, or "cmd"/"shell")
#   -w DIR     also share DIR with the guest at /work
#   -m         mount /dev/vda (f2fs) at /mnt/f2fs before the command/shell
#   -a ARGS    extra kernel command line
#   -p FILE    QEMU writes its pid to FILE (-pidfile), e.g. for a host-side
#              power cut (kill -9); boot.sh then exits 124 or 125
# Environment: F2FS=ours|stock (default ours), KVM=1 (use -accel kvm),
#   QEMU_MEM (default 1G), QEMU_SMP (default 2), V=1 (show console live),
#   KERNEL=debug (the debug kernel and its initramfs, qemu/kernel.sh),
#   QEMU_PREALLOC=1 (-mem-prealloc: QEMU allocates and touches all guest
#   RAM at start; the benches use it, see scripts/bench.sh).
# Exit status: the guest's (the test's) exit status; 124 on timeout;
# 125 when the guest gave no result marker (crash, panic, boot failure).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
# shellcheck source=qemu/kernel.sh
. "$ROOT/qemu/kernel.sh"
INITRD=${INITRD:-$KINITRD}

test_name="" cmd="" interactive=0 timeout=300 logdir="" name="" workdir="" mountrun=0 extra="" pidfile=""
disks=() throttle=() bps=0
while getopts "t:c:id:T:l:n:w:ma:p:B:h" o; do
	case $o in
	t) test_name=$OPTARG ;;
	c) cmd=$OPTARG ;;
	i) interactive=1 ;;
	d) disks+=("$OPTARG"); throttle+=("$bps") ;;
	B) bps=$OPTARG
	   case $bps in ''|*[!0-9]*) echo "boot: -B wants bytes per second, got '$bps'" >&2; exit 2 ;; esac ;;
	T) timeout=$OPTARG ;;
	l) logdir=$OPTARG ;;
	n) name=$OPTARG ;;
	w) workdir=$OPTARG ;;
	m) mountrun=1 ;;
	a) extra=$OPTARG ;;
	p) pidfile=$OPTARG ;;
	*) sed -n '2,31s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
[ -n "$test_name" ] || [ -n "$cmd" ] || interactive=1
[ -f "$KIMAGE" ] || { echo "boot: $KIMAGE missing (run scripts/setup.sh${KERNEL:+, make debug-kernel})" >&2; exit 2; }
[ -f "$INITRD" ] || { echo "boot: $INITRD missing (make initramfs${KERNEL:+ KERNEL=$KERNEL})" >&2; exit 2; }

if [ -z "$name" ]; then
	if [ -n "$test_name" ]; then name=$test_name; elif [ -n "$cmd" ]; then name=cmd; else name=shell; fi
fi
logdir=${logdir:-$BUILD/logs/$name}
rm -rf "$logdir"
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
console=$logdir/console.log

variant=${F2FS:-ours}
# no_timer_check: under TCG on a loaded host the kernel's early check of
# the IO-APIC timer can fail and panic the boot ("IO-APIC + timer doesn't
# work"); the check means nothing for an emulated machine.
append="console=ttyS0 panic=-1 no_timer_check f2fs=$variant"
# A lockup, an RCU stall or a hung task fails the test anyway (qemu/
# kernel-bad): panic at once, with every CPU's backtrace, instead of
# waiting out the test's timeout (a stall once cost CI 900 s).
append="$append softlockup_panic=1 softlockup_all_cpu_backtrace=1 hung_task_panic=1 sysctl.kernel.panic_on_rcu_stall=1"
if [ -n "$test_name" ]; then
	append="$append test=$test_name"
elif [ -n "$cmd" ]; then
	printf '%s\n' "$cmd" > "$logdir/cmd.sh"
	append="$append cmd=1"
else
	append="$append shell=1"
fi
# the guest's watchdog dumps its blocked tasks shortly before the kill
[ "$timeout" -gt 60 ] && [ $interactive = 0 ] && append="$append tmo=$timeout"
[ $mountrun = 1 ] && append="$append mountrun=1"
[ -n "$workdir" ] && append="$append work=1"
[ -n "$KAPPEND" ] && append="$append $KAPPEND"
[ -n "$extra" ] && append="$append $extra"

accel=(-accel tcg -cpu "$KCPU")
[ "${KVM:-0}" = 1 ] && accel=(-accel kvm -cpu host)

args=("${accel[@]}" -m "${QEMU_MEM:-1G}" -smp "${QEMU_SMP:-2}"
	-kernel "$KIMAGE" -initrd "$INITRD" -append "$append"
	-no-reboot -display none -vga none -nic none
	-virtfs "local,path=$logdir,mount_tag=host,security_model=none,id=host")
[ -n "$pidfile" ] && args+=(-pidfile "$pidfile")
[ "${QEMU_PREALLOC:-0}" = 1 ] && args+=(-mem-prealloc)
[ -n "$workdir" ] && args+=(-virtfs "local,path=$(cd "$workdir" && pwd),mount_tag=work,security_model=none,id=work")
for i in "${!disks[@]}"; do
	d=${disks[$i]}
	[ -f "$d" ] || { echo "boot: disk $d not found" >&2; exit 2; }
	# discard=unmap: the guest sees a device that discards (as an SSD or an
	# SD card does), and discarded ranges become holes in the image file.
	drive="file=$d,if=virtio,format=raw,cache=unsafe,discard=unmap"
	[ "${throttle[$i]}" = 0 ] || drive="$drive,throttling.bps-total=${throttle[$i]}"
	args+=(-drive "$drive")
done

start=$(date +%s)
if [ $interactive = 1 ]; then
	# serial + monitor muxed on the terminal (Ctrl-A X quits, Ctrl-A C monitor)
	args+=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$console" -serial chardev:con -mon chardev=con)
	rc=0
	qemu-system-x86_64 "${args[@]}" || rc=$?
else
	args+=(-chardev "stdio,id=con,signal=off,logfile=$console" -serial chardev:con -monitor none)
	rc=0
	if [ "${V:-0}" = 1 ]; then out=/dev/stdout; else out=/dev/null; fi
	if [ "$timeout" -gt 0 ]; then
		timeout -k 5 "$timeout" qemu-system-x86_64 "${args[@]}" </dev/null >"$out" 2>"$logdir/qemu.err" || rc=$?
	else
		qemu-system-x86_64 "${args[@]}" </dev/null >"$out" 2>"$logdir/qemu.err" || rc=$?
	fi
fi
echo $(( $(date +%s) - start )) > "$logdir/seconds"

# dmesg: the guest's own copy when it got that far, else the console
if [ ! -s "$logdir/dmesg.log" ]; then
	{ echo "# guest did not write dmesg; kernel lines from the console:"; tr -d '\r' < "$console"; } > "$logdir/dmesg.log" 2>/dev/null || true
fi

if [ $interactive = 0 ] && [ "$timeout" -gt 0 ] && { [ $rc = 124 ] || [ $rc = 137 ]; }; then
	echo "timeout" > "$logdir/result"
	exit 124
fi
if [ -s "$logdir/exit" ]; then
	exit "$(tr -dc 0-9 < "$logdir/exit")"
fi
gx=$(tr -d '\r' < "$console" 2>/dev/null | sed -n 's/.*@@F2FS-EXIT \([0-9]*\).*/\1/p' | tail -n1)
if [ -n "$gx" ]; then exit "$gx"; fi
[ $rc = 0 ] || echo "boot: qemu exited with status $rc (see $logdir/qemu.err)" >&2
exit 125
