#!/bin/bash
# fuzz.sh - the long form of the image fuzzer (issue 19): make fuzz.
#
#   scripts/fuzz.sh [N=5000] [SEED=S] [MODULE=ours|stock|both] [BASES=DIR]
#                   [SKIP=K]
#
# Boots a guest (test 25-fuzz with fuzz_n=N fuzz_module=MODULE seed=S):
# three base images (ours, stock, sload.f2fs), then N seeded mutated images
# per module through mount / walk / small writes / umount, each step under
# a watchdog (see scripts/tests/fuzz.inc).  Our module's first splat, hang
# or leaked reference stops the run and fails it; the stock module is the
# control on the same seeds (its splats and hangs are counted, not failed).
# A hang of the control ends its guest: the run goes on in a new guest
# from the image after it, with the first part's base images, so every
# part mutates the same images.  BASES=DIR starts from DIR's base images
# (base-ours.img, base-stock.img, base-sload.img, as a run keeps them) and
# SKIP=K from image K+1, e.g. to give a run's control its own guest.
# Results of all parts: build/logs/fuzz/ (summary.txt, results.txt: one
# line per image, kernel.log: each image's mutations and kernel messages,
# parts.txt, the base images and every kept image: MODULE-KIND-SEED
# .img/.txt/.klog); the last part's guest logs in build/logs/25-fuzz/.
# The guest timeout is N x 20 s per module + 30 min (TIMEOUT= overrides).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=5000 SEED="" MODULE=both BASES="" SKIP=0
USER_TIMEOUT=${TIMEOUT:-}
for a in "$@"; do
	case $a in
	N=*) N=${a#N=} ;;
	SEED=*) SEED=${a#SEED=} ;;
	MODULE=*) MODULE=${a#MODULE=} ;;
	BASES=*) BASES=${a#BASES=} ;;
	SKIP=*) SKIP=${a#SKIP=} ;;
	*) sed -n '2,22s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
case $N in ''|*[!0-9]*) echo "fuzz: N must be a number" >&2; exit 2 ;; esac
case $SEED in *[!0-9]*) echo "fuzz: SEED must be a number" >&2; exit 2 ;; esac
case $SKIP in ''|*[!0-9]*) echo "fuzz: SKIP must be a number" >&2; exit 2 ;; esac
case $MODULE in ours|stock|both) ;; *) echo "fuzz: MODULE must be ours, stock or both" >&2; exit 2 ;; esac
[ "$SKIP" -lt "$N" ] || { echo "fuzz: SKIP must be below N" >&2; exit 2; }
if [ -n "$BASES" ]; then
	BASES=$(cd "$BASES" 2>/dev/null && pwd) || { echo "fuzz: BASES: no such directory" >&2; exit 2; }
	for b in ours stock sload; do
		[ -f "$BASES/base-$b.img" ] || { echo "fuzz: BASES: $BASES/base-$b.img missing" >&2; exit 2; }
	done
fi
[ -n "$SEED" ] || SEED=$(($(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 400000))
FIRST=$((SEED % 400000 * 10000))
OUT=$ROOT/build/logs/25-fuzz
AGG=$ROOT/build/logs/fuzz
if [ -n "$BASES" ] && [ "$BASES" = "$AGG" ]; then
	echo "fuzz: BASES must not be $AGG (this run's results go there)" >&2
	exit 2
fi
rm -rf "$AGG"
mkdir -p "$AGG"
: > "$AGG/results.txt"
: > "$AGG/kernel.log"
: > "$AGG/parts.txt"

rc=0 part=0 mod=$MODULE
while :; do
	part=$((part + 1))
	mods=1
	[ "$mod" = both ] && mods=2
	export TIMEOUT=${USER_TIMEOUT:-$(((N - SKIP) * 20 * mods + 1800))}
	export GUEST_ARGS="fuzz_n=$N fuzz_module=$mod seed=$SEED fuzz_skip=$SKIP"
	if [ -n "$BASES" ]; then export FUZZ_BASES_FROM=$BASES; else unset FUZZ_BASES_FROM; fi
	echo "fuzz: part $part: images $((SKIP + 1))..$N per module ($mod), seed $SEED${BASES:+, base images from $BASES}; guest timeout ${TIMEOUT}s"
	prc=0
	"$ROOT/scripts/check.sh" 25-fuzz || prc=$?
	cat "$OUT/fuzz/results.txt" >> "$AGG/results.txt" 2>/dev/null || true
	cat "$OUT/fuzz/kernel.log" >> "$AGG/kernel.log" 2>/dev/null || true
	sed "s/^/part $part: /" "$OUT/fuzz/summary.txt" >> "$AGG/parts.txt" 2>/dev/null || true
	for f in "$OUT"/fuzz/*-splat-* "$OUT"/fuzz/*-hang-* "$OUT"/fuzz/*-leak-*; do
		[ -e "$f" ] && cp --sparse=always "$f" "$AGG/"
	done
	[ -f "$OUT/fuzz/node-as-data.txt" ] && sed "s/^/part $part: /" "$OUT/fuzz/node-as-data.txt" >> "$AGG/node-as-data.txt"
	if [ -z "$BASES" ]; then
		for b in ours stock sload; do
			cp --sparse=always "$OUT/fuzz/base-$b.img" "$AGG/" 2>/dev/null ||
				{ echo "fuzz: the guest kept no base-$b.img: the run cannot be resumed"; [ $prc != 0 ] || prc=1; }
		done
		BASES=$AGG
	fi
	if [ $prc != 0 ]; then
		rc=$prc
		break
	fi
	# the control hung: go on past that image in a new guest
	last=$(awk '$4 == "hang" { print $2 }' "$OUT/fuzz/results.txt" 2>/dev/null | tail -1)
	[ -n "$last" ] || break
	[ $((last - FIRST)) -lt "$N" ] || break
	SKIP=$((last - FIRST))
	mod=stock
done

# the summary of all parts, as the guest words it for one
for m in ours stock; do
	grep -q "^$m " "$AGG/results.txt" || continue
	# a part a hang ended has no time of its own: "+" says so
	secs=$(sed -n "s/^part [0-9]*: fuzz summary $m: [0-9]* images in \([0-9?]*\) s.*/\1/p" "$AGG/parts.txt" |
		awk '$1 == "?" { more = "+" } $1 != "?" { s += $1 } END { print s + 0 more }')
	awk -v m=$m -v secs="$secs" -v parts=$part '
		$1 != m { next }
		{ n++ }
		$4 == "rw" { rw++ } $4 == "ro" { ro++ } $4 == "refused" { ref++ }
		$4 == "hang" { hang++ } $5 == "splat" { splat++ } $5 == "leak" { leak++ }
		/unclear|odd-error/ { unclear++ }
		END { printf "fuzz summary %s: %d images in %s s (%d guest%s): %d mounted rw, %d refused rw but mounted ro, %d refused (%d without a clear EINVAL/EUCLEAN/EIO/EOPNOTSUPP and a kernel line naming the device), %d splats, %d hangs, %d leaked references\n",
			m, n, secs, parts, parts == 1 ? "" : "s", rw, ro, ref, unclear, splat, hang, leak }' "$AGG/results.txt"
done | tee "$AGG/summary.txt"
echo "fuzz: seed $SEED (images $((FIRST + 1))..$((FIRST + N))); results in $AGG"
find "$AGG" -name "ours-*" | sed "s/^/kept (our module): /"
kept=$(find "$AGG" -name "stock-*.txt" | wc -l)
[ "$kept" = 0 ] || echo "kept (the control): $kept stock images ($AGG/stock-*.txt)"
exit $rc
