#!/bin/sh
# guest-lib.sh - installed as /lib/harness.sh in the guest; sourced by /init
# and (through /tests/lib.sh) by every test.  POSIX sh (busybox ash).

export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# The kernel log patterns that fail a test (/lib/kernel-bad: the host's
# qemu/kernel-bad, which check.sh applies to the whole console).
# shellcheck disable=SC2034  # used by the tests that source this
KERNEL_BAD=$(grep -v '^#' /lib/kernel-bad 2>/dev/null | paste -sd'|' -)

# Which f2fs module a path names: ours|stock.
f2fs_ko() { echo "/opt/f2fs/$1/f2fs.ko"; }

# The variant currently loaded ("ours", "stock" or "none").
f2fs_loaded() {
	if [ -d /sys/module/f2fs ]; then
		cat /run/f2fs-variant 2>/dev/null || echo unknown
	else
		echo none
	fi
}

# use_module ours|stock: make exactly that f2fs module the loaded one.
# Unmounts nothing: the caller must have unmounted every f2fs first.
use_module() {
	case "${1:-}" in ours|stock) ;; *) echo "use_module: want ours|stock, got '${1:-}'" >&2; return 2 ;; esac
	ko=$(f2fs_ko "$1")
	[ -f "$ko" ] || { echo "use_module: $ko is not in this initramfs (module not built?)" >&2; return 1; }
	if [ -d /sys/module/f2fs ]; then
		[ "$(f2fs_loaded)" = "$1" ] && return 0
		rmmod f2fs || { echo "use_module: rmmod f2fs failed (still mounted?)" >&2; return 1; }
	fi
	# shellcheck disable=SC2013
	for dep in $(cat "/opt/f2fs/$1/depends" 2>/dev/null); do
		modprobe "$dep" || { echo "use_module: cannot load dependency $dep" >&2; return 1; }
	done
	insmod "$ko" || { echo "use_module: insmod $ko failed" >&2; return 1; }
	echo "$1" > /run/f2fs-variant
	echo "harness: f2fs module '$1' loaded" > /dev/kmsg 2>/dev/null || true
}

# Value of a key=value word on the kernel command line.
cmdline_get() {
	# shellcheck disable=SC2013
	for w in $(cat /proc/cmdline); do
		case "$w" in "$1="*) echo "${w#*=}"; return 0 ;; esac
	done
	return 1
}
