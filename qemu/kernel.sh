#!/bin/bash
# shellcheck disable=SC2034  # the variables are for the scripts sourcing this
# kernel.sh - which guest kernel the harness uses; sourced (with BUILD set)
# by qemu/boot.sh, qemu/mkinitramfs.sh and scripts/check.sh.
#
#   KERNEL unset or empty  Debian's 6.1 kernel (build/kernel, scripts/setup.sh)
#   KERNEL=debug           the debug kernel (build/debug-kernel/root, made by
#                          scripts/debug-kernel.sh: KASAN, KFENCE, lockdep,
#                          kmemleak ...), with its own initramfs
#                          (build/initramfs-debug.cpio) and our module built
#                          against it (build/debug-kernel/module/fs-f2fs)
# Sets: KVER, KROOT (boot/ and lib/modules/ of the guest kernel), KIMAGE (its
# bzImage), KINITRD (the initramfs), KSTAGE (initramfs staging directory),
# KOURS (our module for this kernel), KLOGSUB ("" or "debug/": where the
# logs go under build/logs), KMEM_EXTRA_MB (guest memory added to a test's
# mem), KTIMEOUT_SCALE (factor on test timeouts), KAPPEND (kernel command
# line words this kernel needs), KCPU (QEMU's -cpu under TCG); and
# KERNEL_BAD, the
# kernel log patterns that fail a test on any kernel.
case ${KERNEL:-} in
"")
	KVER=$(cat "$BUILD/kver" 2>/dev/null) || { echo "kernel: $BUILD/kver missing (run scripts/setup.sh)" >&2; exit 2; }
	KROOT=$BUILD/kernel
	KINITRD=$BUILD/initramfs.cpio
	KSTAGE=$BUILD/initramfs-root
	KOURS=$(dirname "$BUILD")/fs-f2fs/f2fs.ko
	KLOGSUB=""
	KMEM_EXTRA_MB=0
	KTIMEOUT_SCALE=1
	KAPPEND=""
	KCPU=max
	;;
debug)
	KVER=$(cat "$BUILD/debug-kernel/kver" 2>/dev/null) \
		|| { echo "kernel: KERNEL=debug: $BUILD/debug-kernel/kver missing (make debug-kernel)" >&2; exit 2; }
	KROOT=$BUILD/debug-kernel/root
	KINITRD=$BUILD/initramfs-debug.cpio
	KSTAGE=$BUILD/initramfs-debug-root
	KOURS=$BUILD/debug-kernel/module/fs-f2fs/f2fs.ko
	KLOGSUB=debug/
	# KASAN's shadow (1/8 of memory), SLUB red zones and kmemleak's
	# metadata; and everything runs several times slower.
	KMEM_EXTRA_MB=${DEBUG_MEM_EXTRA_MB:-512}
	KTIMEOUT_SCALE=${DEBUG_TIMEOUT_SCALE:-4}
	# pci=noacpi: under TCG the instrumented ACPI interpreter runs the
	# _PRT method of each PCI device into its 30 s loop timeout
	# (AE_AML_LOOP_TIMEOUT, 30 s of boot per virtio device); the PIRQ
	# table serves, and virtio uses MSI-X anyway.
	KAPPEND="pci=noacpi"
	# No 5-level paging: with it, an interrupt that came early in boot
	# (while identify_cpu ran, which under a loaded TCG host takes long)
	# made KASAN report a wild access in the IRQ descriptor's spinlock
	# (address ff11..., the 5-level direct map), which taints the kernel
	# and turns lockdep off for the whole test.
	KCPU=max,la57=off
	;;
*)
	echo "kernel: KERNEL must be empty (Debian's kernel) or 'debug', not '$KERNEL'" >&2
	exit 2
	;;
esac
KIMAGE=$KROOT/boot/vmlinuz-$KVER
KMODDIR=$KROOT/lib/modules/$KVER

# Known-bad kernel log patterns: any of these fails a test (qemu/kernel-bad,
# the same list the guest has).
KERNEL_BAD=$(grep -v '^#' "$(dirname "${BASH_SOURCE[0]}")/kernel-bad" | paste -sd'|' -)
