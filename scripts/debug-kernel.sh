#!/bin/bash
# debug-kernel.sh - build the debug guest kernel (issue 19): Debian's
# linux-source-6.1 with KASAN, KFENCE, lockdep, DEBUG_ATOMIC_SLEEP,
# DEBUG_LIST, SLUB debug, kmemleak and the hung-task detector (60 s).
#
#   scripts/debug-kernel.sh          (make debug-kernel; FORCE=1 rebuilds)
#
# Config: x86_64_defconfig + kvm_guest.config + qemu/debug-kernel.config
# (the guest's drivers built in, f2fs =m as the stock module); every line of
# the fragment is checked in .config after `make olddefconfig`.
# Idempotent: installs linux-source-6.1 and dwarves (pahole, for BTF) when
# missing, unpacks the source once, and rebuilds only when the fragment
# changed (or FORCE=1).  Output, mirroring build/kernel of scripts/setup.sh:
#   build/debug-kernel/src                      the source and build tree (KDIR)
#   build/debug-kernel/root/boot/vmlinuz-KVER   the kernel (+ config-, System.map-)
#   build/debug-kernel/root/lib/modules/KVER    its modules (the stock f2fs.ko)
#   build/debug-kernel/kver                     the kernel release
#   build/debug-kernel/build-time               seconds of the last full build
# The build runs under nice -n 19 with make -j2 (JOBS=N to change).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DK=$ROOT/build/debug-kernel
SRC=$DK/src
OUTROOT=$DK/root
FRAG=$ROOT/qemu/debug-kernel.config
TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=${JOBS:-2}

log() { echo "debug-kernel: $*" >&2; }
die() { echo "debug-kernel: ERROR: $*" >&2; exit 1; }

# --- packages -------------------------------------------------------------
need=()
[ -f "$TARBALL" ] || need+=(linux-source-6.1)
command -v pahole >/dev/null || need+=(dwarves)
# rsync: the Makefile's module target copies our sources for the debug build
for t in flex bison bc rsync; do command -v "$t" >/dev/null || need+=("$t"); done
[ -f /usr/include/libelf.h ] || need+=(libelf-dev)
[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >&2 \
		|| die "apt-get install ${need[*]} failed"
fi
[ -f "$TARBALL" ] || die "$TARBALL missing after installing linux-source-6.1"

# --- source, once -----------------------------------------------------------
if [ ! -f "$SRC/.unpacked" ]; then
	log "unpacking $TARBALL into ${SRC#"$ROOT"/}"
	rm -rf "$SRC"
	mkdir -p "$SRC"
	tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
	touch "$SRC/.unpacked"
fi

# --- up to date? --------------------------------------------------------------
fragsum=$(sha256sum "$FRAG" | cut -d' ' -f1)
KVER=$(cat "$DK/kver" 2>/dev/null || true)
if [ "${FORCE:-0}" != 1 ] && [ -n "$KVER" ] && [ "$(cat "$DK/.built" 2>/dev/null)" = "$fragsum" ] \
	&& [ -f "$OUTROOT/boot/vmlinuz-$KVER" ] && [ -f "$OUTROOT/lib/modules/$KVER/modules.dep" ]; then
	log "up to date: $KVER (built in $(cat "$DK/build-time" 2>/dev/null || echo '?') s; FORCE=1 rebuilds)"
	exit 0
fi

# --- config -------------------------------------------------------------------
cd "$SRC"
log "config: x86_64_defconfig + kvm_guest.config + ${FRAG#"$ROOT"/}"
make -s x86_64_defconfig >&2
make -s kvm_guest.config >&2
scripts/kconfig/merge_config.sh -m .config "$FRAG" >/dev/null
make -s olddefconfig >&2
dropped=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" .config && continue
		got=$(grep -E "^(# )?${line%%=*}[= ]" .config || echo "(absent)") ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		grep -qE "^$opt=" .config || continue
		got=$(grep -E "^$opt=" .config) ;;
	*) continue ;;
	esac
	echo "debug-kernel: DROPPED by olddefconfig: wanted '$line', .config has '$got'" >&2
	dropped=$((dropped + 1))
done < "$FRAG"
[ "$dropped" = 0 ] || die "$dropped option(s) of ${FRAG#"$ROOT"/} did not survive olddefconfig (missing dependency?)"

# --- build --------------------------------------------------------------------
log "building bzImage + modules (nice -n 19 make -j$JOBS), this takes long"
start=$(date +%s)
nice -n 19 make -j"$JOBS" bzImage modules >"$DK/build.log" 2>&1 \
	|| { tail -n 30 "$DK/build.log" >&2; die "kernel build failed, see ${DK#"$ROOT"/}/build.log"; }
secs=$(( $(date +%s) - start ))
KVER=$(make -s kernelrelease)

rm -rf "$OUTROOT"
mkdir -p "$OUTROOT/boot"
nice -n 19 make -s INSTALL_MOD_PATH="$OUTROOT" INSTALL_MOD_STRIP=1 modules_install >&2
cp arch/x86/boot/bzImage "$OUTROOT/boot/vmlinuz-$KVER"
cp .config "$OUTROOT/boot/config-$KVER"
cp System.map "$OUTROOT/boot/System.map-$KVER"
[ -f "$OUTROOT/lib/modules/$KVER/kernel/fs/f2fs/f2fs.ko" ] || die "stock f2fs.ko was not installed"
echo "$KVER" > "$DK/kver"
echo "$secs" > "$DK/build-time"
echo "$fragsum" > "$DK/.built"
log "ok: $KVER, bzImage + modules built in ${secs} s ($((secs / 60)) min) with -j$JOBS on $(nproc) cores"
