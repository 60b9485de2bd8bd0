#!/bin/bash
# setup.sh - install what the harness needs and unpack the guest kernel.
#
# Idempotent: when everything is already in place it only runs a few dpkg
# queries (well under 2 s).  Outputs (all under build/):
#   build/kver                      the guest kernel version (KVER)
#   build/kernel/boot/vmlinuz-KVER  the guest kernel
#   build/kernel/lib/modules/KVER   its modules (depmod'ed)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
mkdir -p "$BUILD"

log() { echo "setup: $*" >&2; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get, dpkg -x, qemu)"

# Fast path: nothing to do when the last successful run is newer than the
# dpkg database, the apt lists and this script, and its outputs exist.
ok=$BUILD/.setup-ok
if [ -f "$ok" ] && [ "$ok" -nt /var/lib/dpkg/status ] \
	&& [ "$ok" -nt /var/lib/apt/lists ] && [ "$ok" -nt "$0" ]; then
	KVER=$(cat "$BUILD/kver" 2>/dev/null || true)
	if [ -n "$KVER" ] && [ -f "$BUILD/kernel/boot/vmlinuz-$KVER" ] \
		&& [ -f "$BUILD/kernel/lib/modules/$KVER/modules.dep" ] \
		&& [ -d "/usr/src/linux-headers-$KVER" ] && command -v depmod >/dev/null; then
		exit 0
	fi
fi

PKGS="linux-image-amd64 linux-headers-amd64 f2fs-tools qemu-system-x86
busybox-static cpio zstd xz-utils dwarves libbpf-dev bpftool libelf-dev
zlib1g-dev clang llvm kmod e2fsprogs python3 gcc make libc6-dev attr acl xfsprogs secilc
btrfs-progs nilfs-tools"

is_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# linux-image-amd64 itself is not installed (we never boot the host into
# it); only its dependency information is used.  Everything else must be.
missing=""
for p in $PKGS; do
	[ "$p" = linux-image-amd64 ] && continue
	is_installed "$p" || missing="$missing $p"
done

apt_updated=0
apt_update() {
	if [ $apt_updated = 0 ]; then
		log "apt-get update"
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
		apt_updated=1
	fi
}

if [ -n "$missing" ]; then
	apt_update
	log "installing:$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 \
		|| die "apt-get install failed for:$missing"
fi

# --- kernel version: from the linux-image-amd64 metapackage -------------
dep_of() {  # dep_of META PREFIX -> name of the versioned package META depends on
	apt-cache depends "$1" 2>/dev/null | sed -n "s/^ *Depends: \($2[^ ]*\)$/\1/p" | head -n1
}
img_pkg=$(dep_of linux-image-amd64 linux-image-)
if [ -z "$img_pkg" ]; then
	apt_update
	img_pkg=$(dep_of linux-image-amd64 linux-image-)
fi
[ -n "$img_pkg" ] || die "cannot resolve linux-image-amd64 to a linux-image-<KVER> package"
KVER=${img_pkg#linux-image-}

hdr_pkg=$(dep_of linux-headers-amd64 linux-headers-)
[ "$hdr_pkg" = "linux-headers-$KVER" ] || {
	# the installed headers metapackage may lag behind the apt lists
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends linux-headers-amd64 >&2 || true
	hdr_pkg=$(dep_of linux-headers-amd64 linux-headers-)
}
[ "$hdr_pkg" = "linux-headers-$KVER" ] \
	|| die "kernel image is linux-image-$KVER (from linux-image-amd64) but linux-headers-amd64 depends on '$hdr_pkg'"
is_installed "$hdr_pkg" || {
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$hdr_pkg" >&2 \
		|| die "cannot install $hdr_pkg"
}
[ -d "/usr/src/linux-headers-$KVER" ] || die "/usr/src/linux-headers-$KVER does not exist (is $hdr_pkg installed?)"

# Debian package versions of image and headers must agree exactly.
img_ver=$(apt-cache show --no-all-versions "$img_pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
hdr_ver=$(dpkg-query -W -f='${Version}' "$hdr_pkg")
[ -n "$img_ver" ] || die "apt-cache knows no version of $img_pkg"
[ "$img_ver" = "$hdr_ver" ] \
	|| die "version mismatch: $img_pkg is $img_ver (candidate) but $hdr_pkg is $hdr_ver (installed); run apt-get update && apt-get install linux-headers-amd64"

# --- guest kernel: download + extract once per version -----------------
stamp=$BUILD/kernel/.extracted
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$img_pkg $img_ver" ] \
	&& [ -f "$BUILD/kernel/boot/vmlinuz-$KVER" ] \
	&& [ -f "$BUILD/kernel/lib/modules/$KVER/modules.dep" ]; then
	:
else
	log "fetching $img_pkg $img_ver"
	dl=$BUILD/debs
	mkdir -p "$dl"
	chmod 0777 "$dl"    # apt-get download drops privileges to _apt
	deb=$(find "$dl" -maxdepth 1 -name "${img_pkg}_*.deb" | sort | tail -n1)
	want="${img_pkg}_${img_ver//:/%3a}_amd64.deb"
	if [ ! -f "$dl/$want" ]; then
		(cd "$dl" && apt-get download "$img_pkg=$img_ver" >&2) || {
			apt_update
			(cd "$dl" && apt-get download "$img_pkg=$img_ver" >&2) || die "apt-get download $img_pkg failed"
		}
	fi
	deb=$dl/$want
	[ -f "$deb" ] || deb=$(find "$dl" -maxdepth 1 -name "${img_pkg}_*.deb" | sort | tail -n1)
	[ -f "$deb" ] || die "downloaded .deb for $img_pkg not found in $dl"
	log "extracting $(basename "$deb") into build/kernel"
	rm -rf "$BUILD/kernel"
	mkdir -p "$BUILD/kernel"
	dpkg -x "$deb" "$BUILD/kernel"
	[ -f "$BUILD/kernel/boot/vmlinuz-$KVER" ] || die "no boot/vmlinuz-$KVER in $deb"
	depmod -b "$BUILD/kernel" "$KVER"
	echo "$img_pkg $img_ver" > "$stamp"
fi

if [ "$(cat "$BUILD/kver" 2>/dev/null)" != "$KVER" ]; then
	echo "$KVER" > "$BUILD/kver"
fi
touch "$ok"
log "ok: KVER=$KVER ($img_ver)"
