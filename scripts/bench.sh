#!/bin/bash
# bench.sh - what "make bench" does: the seed article's benchmark (a kernel
# tree written, read back, du'ed and removed; a large file written and read)
# plus the umounts that pay for it and fsync-heavy small writes, on our
# f2fs, the stock f2fs, ext4, btrfs and nilfs2, in one guest, ROUNDS times.
#
# Workload: scripts/bench-prep.sh (a fixed subset of Debian's
# linux-source-6.1, 19,291 files / 290 MB, or FULL=1 the whole tree), as a
# raw tar on its own virtio disk; the guest side and its phases are in
# scripts/bench-guest.sh.  Each filesystem has its own SIZE sparse disk,
# discarded before each round.  For each phase: elapsed ms and the measured
# device's read/write requests and sectors (/sys/block/vdX/stat deltas):
# under TCG the times are noisy, the I/O counts are not.
#
# Env: FS (default "ours stock ext4 btrfs nilfs2"), ROUNDS (2), FULL=1
#   (the whole tree; TREE=tiny a few hundred files for a smoke run),
#   THROTTLE (e.g. 10M: cap each measured disk at 10 MiB/s, reads and
#   writes together, QEMU's throttling.bps-total; K/M/G are powers of
#   1024; default none), SIZE (disk size, 4G), BIG_MB (the large file,
#   1024), FSYNC_N (fsync'ed 4 KiB appends, 2000), QEMU_MEM (2G; 4G with
#   FULL=1, so that the source tar stays in the page cache), TIMEOUT
#   (guest seconds, default 4 h, 12 h with THROTTLE), BENCH_OUT (instead
#   of build/bench: test 86's smoke run), IMGDIR (where the disk images
#   live, below), KVM=1, V=1.
# Disk images: QEMU reads them through the host's page cache
#   (cache=unsafe), and a host that reclaims idle page cache on its own
#   (these machines run DAMON with a paddr "pageout" scheme: memory idle
#   for about a minute goes, 8 GB in the first 40 minutes of one session)
#   makes a guest's cold read wait for the host's disk in some rounds and
#   not others: one run's cold 1 GiB read took 34.4 s in round 1 and 4.8 s
#   in round 2 on the same requests.  So the images go on /dev/shm (tmpfs,
#   not reclaimable without swap) when the host has no swap and enough
#   memory: 2 GiB per filesystem (what a round can leave in a sparse
#   image; each round's blkdiscard punches them out again) plus 4 GiB to
#   spare.  Otherwise, or with IMGDIR=DIR, they go in DIR (default the
#   work folder), and the results say where they were.
# Guest RAM: QEMU maps it lazily, and under TCG the first write to each
#   guest page costs a host page fault and zeroing.  The first filesystem
#   to dirty a GiB of page cache in a guest paid it: a 1 GiB dd + sync took
#   9.1-9.6 s on whichever module ran first after boot, and 6.1-7.3 s on
#   both from the third run on (2 GiB guest).  So the benches boot with
#   QEMU_PREALLOC=1 (-mem-prealloc: all of it touched before boot), which
#   puts every run at the warm figure.
# Output: build/bench/results.txt (text tables), results.md (the same as
#   Markdown), results.json (every round's numbers, medians, ratios),
#   index.html (a chart per phase, when Chart.js is there:
#   scripts/setup-dashboard.sh); the guest's logs in build/bench/guest/.
# Expects make initramfs done (make bench does it).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/build/bench}
WORK=$OUT/work
ALL_FS="ours stock ext4 btrfs nilfs2"
FS=${FS:-$ALL_FS}
ROUNDS=${ROUNDS:-2}
SIZE=${SIZE:-4G}
BIG_MB=${BIG_MB:-1024}
FSYNC_N=${FSYNC_N:-2000}
THROTTLE=${THROTTLE:-}
die() { echo "bench: ERROR: $*" >&2; exit 2; }

for f in $FS; do
	case " $ALL_FS " in *" $f "*) ;; *) die "FS: unknown filesystem '$f' (known: $ALL_FS)" ;; esac
done
[ -n "$FS" ] || die "FS is empty (known: $ALL_FS)"
[ "$(echo "$FS" | tr ' ' '\n' | grep -c .)" -le 15 ] || die "FS: at most 15 filesystems"
case $ROUNDS in ''|*[!0-9]*|0) die "ROUNDS must be a positive number, not '$ROUNDS'" ;; esac
case $BIG_MB in ''|*[!0-9]*|0) die "BIG_MB must be a positive number of MiB, not '$BIG_MB'" ;; esac
case $FSYNC_N in ''|*[!0-9]*|0) die "FSYNC_N must be a positive number, not '$FSYNC_N'" ;; esac
bps=0
if [ -n "$THROTTLE" ]; then
	bps=$(echo "$THROTTLE" | awk '/^[0-9]+[KMG]?$/ { n = $0 + 0; u = substr($0, length($0));
		print n * (u == "K" ? 1024 : u == "M" ? 1048576 : u == "G" ? 1073741824 : 1) }')
	{ [ -n "$bps" ] && [ "$bps" -ge 65536 ]; } || die "THROTTLE must be bytes/s with K, M or G (e.g. 10M), at least 64K, not '$THROTTLE'"
fi
mode=${TREE:-subset}
[ "${FULL:-0}" = 1 ] && mode=full
case $mode in subset|full|tiny) ;; *) die "TREE must be subset, full or tiny, not '$mode'" ;; esac
TIMEOUT=${TIMEOUT:-$([ "$bps" = 0 ] && echo 14400 || echo 43200)}

tar=$("$ROOT/scripts/bench-prep.sh" "$mode")
base=${tar%.tar}
rm -rf "$WORK" "$OUT/guest"
mkdir -p "$WORK"
cp "$ROOT/scripts/bench-guest.sh" "$base.manifest" "$base.info" "$WORK/"
big_md5=$(head -c $((BIG_MB * 1048576)) /dev/zero | md5sum | cut -d' ' -f1)
cat > "$WORK/bench.conf" <<EOF
FS="$FS"
ROUNDS=$ROUNDS
BIG_MB=$BIG_MB
FSYNC_N=$FSYNC_N
BIG_MD5=$big_md5
MANIFEST=$(basename "$base.manifest")
EOF
nfs=$(echo "$FS" | wc -w)
own_imgdir=0	# 1: a directory of our own on /dev/shm, removed on exit
if [ -z "${IMGDIR:-}" ]; then
	IMGDIR=$WORK
	avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	swap_kb=$(awk '/^SwapTotal:/ { print $2 }' /proc/meminfo)
	shm_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
	need_kb=$(((nfs * 2 + 4) * 1048576))
	if [ "${swap_kb:-1}" = 0 ] && [ "${avail_kb:-0}" -ge "$need_kb" ] && [ "${shm_kb:-0}" -ge "$need_kb" ] &&
		[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		IMGDIR=/dev/shm/f2fs-bench.$$
		own_imgdir=1
	fi
fi
mkdir -p "$IMGDIR" || die "IMGDIR: cannot create '$IMGDIR'"
# A directory the user named stays: only its images are removed, below.
[ $own_imgdir = 0 ] || trap 'rm -rf "$IMGDIR"' EXIT
images=$IMGDIR
case $(stat -f -c %T "$IMGDIR") in tmpfs) images="$IMGDIR (tmpfs)" ;; esac
disks=(-d "$tar" -B "$bps")
for f in $FS; do
	truncate -s "$SIZE" "$IMGDIR/$f.img"
	disks+=(-d "$IMGDIR/$f.img")
done

start=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench: $(sed -n 's/^files //p' "$base.info") files ($mode), $ROUNDS round(s) of: $FS; throttle ${THROTTLE:-none}"
echo "bench: disk images in $images"
echo "bench: one TCG guest, this takes long (timeout ${TIMEOUT} s); progress: tail -f ${OUT#"$ROOT"/}/guest/console.log"
rc=0
QEMU_PREALLOC=1 QEMU_MEM=${QEMU_MEM:-$([ "$mode" = full ] && echo 4G || echo 2G)} "$ROOT/qemu/boot.sh" -c 'sh /work/bench-guest.sh' -n bench \
	"${disks[@]}" -T "$TIMEOUT" -l "$OUT/guest" -w "$WORK" || rc=$?
secs=$(($(date +%s) - start))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
for f in $FS; do rm -f "$IMGDIR/$f.img"; done
if [ ! -s "$OUT/guest/results.raw" ]; then
	echo "bench: the guest produced no results (exit $rc, see $OUT/guest/console.log)" >&2
	exit 1
fi
[ $rc = 0 ] || echo "bench: guest exit status $rc (see $OUT/guest/console.log)" >&2
kerr=0
if tr -d '\r' < "$OUT/guest/console.log" | grep -qE "$(grep -v '^#' "$ROOT/qemu/kernel-bad" | paste -sd'|' -)"; then
	echo "bench: WARNING: the guest kernel log holds an error (see $OUT/guest/dmesg.log)" >&2
	kerr=1
fi

rrc=0
python3 "$ROOT/scripts/bench-report.py" --out "$OUT" --info "$base.info" --mode "$mode" \
	--fs "$FS" --rounds "$ROUNDS" --big-mb "$BIG_MB" --fsync-n "$FSYNC_N" --size "$SIZE" \
	--throttle "${THROTTLE:-none}" --seconds "$secs" --load "$load0 / $load1" --images "$images" --kernel-error $kerr || rrc=$?
chart=$ROOT/build/vendor/chart.min.js
if [ -s "$chart" ] && [ -f "$ROOT/dashboards/render-bench" ]; then
	python3 "$ROOT/dashboards/render-bench" "$OUT/results.json" -o "$OUT/index.html" --chartjs "$chart" || rrc=1
else
	echo "bench: no Chart.js (scripts/setup-dashboard.sh fetches it), no build/bench/index.html"
fi
echo "bench: results in ${OUT#"$ROOT"/}/results.txt, results.md and results.json ($secs s)"
[ $rrc = 0 ] || echo "bench: some phases failed (see \"Failed:\" above)" >&2
exit $rrc
