#!/bin/bash
# bench-prep.sh - the kernel-tree workload of "make bench", prepared once
# on the host and cached:
#
#   scripts/bench-prep.sh [subset|full|tiny]   prints the path of the .tar
#
# Source: Debian's linux-source-6.1 package (/usr/src/linux-source-6.1.tar.xz;
# installed here with apt-get when missing, the only package this needs).
# Default ("subset"): the top-level files plus these directories, chosen to
# match the tree of the article's workload in size (the whole 6.1 tree is
# 78,579 files / 1.3 GB, four times the article's v3.7 tree, mostly
# drivers/gpu):
#
#   arch/x86 block crypto drivers/net fs include init ipc kernel lib mm
#   net scripts security
#
# which on 6.1.192-3 is 19,291 regular files, 290 MB, 1,083 directories and
# 16 symlinks.  "full" is the whole tree; "tiny" (block init ipc and the
# top-level files, a few hundred files) is for smoke runs.  Output, under build/bench/src/:
#   linux-KEY.tar       every entry under "linux/", sorted by name, owner
#                       0:0, GNU format (busybox tar in the guest reads it)
#   linux-KEY.manifest  the tree's manifest in the format of the guest's
#                       treesum -f type,mode,size,link,content (made by
#                       scripts/gen-tree.py --manifest-only)
#   linux-KEY.info      files, directories, bytes
# KEY changes with the package version and the selection, so a new
# linux-source-6.1 or a changed list makes a new tar.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench/src
TARBALL=/usr/src/linux-source-6.1.tar.xz
SUBSET="arch/x86 block crypto drivers/net fs include init ipc kernel lib mm net scripts security"
FIELDS=type,mode,size,link,content
die() { echo "bench-prep: ERROR: $*" >&2; exit 1; }

mode=${1:-subset}
case $mode in subset|full|tiny) ;; *) die "usage: bench-prep.sh [subset|full|tiny]" ;; esac
[ "$mode" = tiny ] && SUBSET="block init ipc"

if [ ! -f "$TARBALL" ]; then
	echo "bench-prep: installing linux-source-6.1 (apt-get)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends linux-source-6.1 >&2 || {
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends linux-source-6.1 >&2
	} || die "cannot install linux-source-6.1"
	[ -f "$TARBALL" ] || die "$TARBALL missing after installing linux-source-6.1"
fi
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c %s "$TARBALL")
if [ "$mode" = full ]; then sel=full; else sel=$SUBSET; fi
key=$(printf '%s\n' "$ver" "$sel" "$FIELDS" | md5sum | cut -c1-10)
base=$OUT/linux-$mode-$key
if [ -s "$base.tar" ] && [ -s "$base.manifest" ] && [ -s "$base.info" ]; then
	echo "$base.tar"
	exit 0
fi

mkdir -p "$OUT"
tmp=$OUT/tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
echo "bench-prep: extracting the $mode tree of linux-source-6.1 $ver" >&2
top=linux-source-6.1
if [ "$mode" = full ]; then
	tar -C "$tmp" -xJf "$TARBALL"
else
	# the top-level files (no slash after the top directory) and the list
	paths=()
	for d in $SUBSET; do paths+=("$top/$d"); done
	tar -C "$tmp" -xJf "$TARBALL" --no-recursion --wildcards --no-wildcards-match-slash "$top/*"
	tar -C "$tmp" -xJf "$TARBALL" "${paths[@]}"
	# the --no-recursion pass also made the other top-level directories, empty
	find "$tmp/$top" -mindepth 1 -maxdepth 1 -type d -empty -delete
fi
mv "$tmp/$top" "$tmp/linux"
# a fixed mtime for the top directory; the rest keep the archive's
touch -d @0 "$tmp/linux"
python3 "$ROOT/scripts/gen-tree.py" --manifest-only "$tmp/linux" --fields "$FIELDS" > "$tmp/manifest"
tar -C "$tmp" --sort=name --owner=0 --group=0 --numeric-owner --format=gnu -cf "$tmp/tar" linux
files=$(find "$tmp/linux" -type f | wc -l)
dirs=$(find "$tmp/linux" -type d | wc -l)
links=$(find "$tmp/linux" -type l | wc -l)
bytes=$(find "$tmp/linux" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
printf 'version %s\nselection %s\nfiles %s\ndirs %s\nsymlinks %s\nbytes %s\ntar_bytes %s\n' \
	"$ver" "$sel" "$files" "$dirs" "$links" "$bytes" "$(stat -c %s "$tmp/tar")" > "$tmp/info"
mv "$tmp/manifest" "$base.manifest"
mv "$tmp/info" "$base.info"
mv "$tmp/tar" "$base.tar"
echo "bench-prep: $files files, $dirs directories, $bytes bytes: ${base#"$ROOT"/}.tar" >&2
echo "$base.tar"
