#!/bin/bash
# fuzz.sh - the long form of the image fuzzer (issue 19): make fuzz.
#
#   scripts/fuzz.sh [N=5000] [SEED=S] [MODULE=ours|stock|both]
#
# Boots one guest (test 25-fuzz with fuzz_n=N fuzz_module=MODULE seed=S):
# three base images (ours, stock, sload.f2fs), then N seeded mutated images
# per module through mount / walk / small writes / umount, each step under
# a watchdog (see scripts/tests/fuzz.inc).  Our module's first splat, hang
# or leaked reference stops the run and fails it; the stock module is the
# control on the same seeds (its splats and hangs are counted, not failed).
# Results: build/logs/25-fuzz/fuzz/ (summary.txt, results.txt: one line
# per image, kernel.log: each image's mutations and kernel messages, and
# every kept image: MODULE-KIND-SEED.img/.txt/.klog with the base images).
# The guest timeout is N x 20 s per module + 30 min (TIMEOUT= overrides).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=5000 SEED="" MODULE=both
for a in "$@"; do
	case $a in
	N=*) N=${a#N=} ;;
	SEED=*) SEED=${a#SEED=} ;;
	MODULE=*) MODULE=${a#MODULE=} ;;
	*) sed -n '2,16s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
case $N in ''|*[!0-9]*) echo "fuzz: N must be a number" >&2; exit 2 ;; esac
case $SEED in *[!0-9]*) echo "fuzz: SEED must be a number" >&2; exit 2 ;; esac
case $MODULE in ours|stock|both) ;; *) echo "fuzz: MODULE must be ours, stock or both" >&2; exit 2 ;; esac
mods=1
[ "$MODULE" = both ] && mods=2
export TIMEOUT=${TIMEOUT:-$((N * 20 * mods + 1800))}
export GUEST_ARGS="fuzz_n=$N fuzz_module=$MODULE${SEED:+ seed=$SEED}"
echo "fuzz: $N images per module ($MODULE)${SEED:+, seed $SEED}; guest timeout ${TIMEOUT}s"
rc=0
"$ROOT/scripts/check.sh" 25-fuzz || rc=$?
out=$ROOT/build/logs/25-fuzz
grep -h '^note: seed' "$out/output.log" 2>/dev/null || true
cat "$out/fuzz/summary.txt" 2>/dev/null || echo "fuzz: no summary (see $out/output.log)"
find "$out/fuzz" -name "*-splat-*" -o -name "*-hang-*" -o -name "*-leak-*" 2>/dev/null | sed "s/^/kept: /" || true
exit $rc
