#!/bin/bash
# check.sh - run the guest tests in scripts/tests/, one QEMU boot per test.
#
#   scripts/check.sh [PATTERN...]     (or env T="PATTERN ...")
#
# PATTERN: a glob ('0*', '*mount*') or a plain substring ('harness').
# Env: F2FS=ours|stock (module under test, default ours), KVM=1, V=1,
# GUEST_ARGS (extra guest kernel command line words, e.g. seed=N),
# TIMEOUT=SECS (instead of the tests' "# timeout:" headers, for long forms),
# KERNEL=debug (the debug kernel, qemu/kernel.sh: logs in build/logs/debug/,
# timeouts x4 and guest memory +512M; after each test the guest unmounts,
# unloads f2fs and fails on a kmemleak report, see qemu/init),
# KEEP_WORK=1 (keep a passed test's work dir; by default only a failed
# test's disk images stay in build/work/NAME).
# Expects setup/module/initramfs done (make check does that).
# A test whose header has "# host: CMD ARGS" is not booted here: CMD (a
# path relative to the project root) runs on the host with LOGDIR=<the
# test's log dir>/host and WORK=<its work dir> and must exit 0 (its output
# goes to output.log); e.g. 80-crash-powercut, which kills QEMU itself.
# A test's "# args: WORDS" header adds guest kernel command line words
# (before GUEST_ARGS), e.g. to enable an LSM.
# Prints "PASS name" or "FAIL name (reason) log: DIR" per test, then
# "N passed, N failed"; exits non-zero if anything failed or nothing ran.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
TESTS=$ROOT/scripts/tests
# shellcheck source=qemu/kernel.sh
. "$ROOT/qemu/kernel.sh"    # KVER ..., and KERNEL_BAD: kernel log patterns that fail a test
F2FS=${F2FS:-ours}
export F2FS
case $F2FS in ours|stock) ;; *) echo "check: F2FS must be ours or stock" >&2; exit 2 ;; esac

patterns=("$@")
if [ ${#patterns[@]} = 0 ] && [ -n "${T:-}" ]; then
	read -r -a patterns <<< "$T"
fi

if [ "$F2FS" = stock ]; then logroot=$BUILD/logs/${KLOGSUB}stock; else logroot=$BUILD/logs${KLOGSUB:+/${KLOGSUB%/}}; fi
workroot=$BUILD/work${KLOGSUB:+/${KLOGSUB%/}}
mkdir -p "$logroot" "$workroot"

matches() {  # matches NAME: true when no patterns or one matches
	local p
	[ ${#patterns[@]} = 0 ] && return 0
	for p in "${patterns[@]}"; do
		case $p in
		*[\*\?\[]*) # shellcheck disable=SC2254
			case $1 in $p) return 0 ;; esac ;;
		*) case $1 in *"$p"*) return 0 ;; esac ;;
		esac
	done
	return 1
}

header() {  # header FILE KEY -> value of "# KEY: value" in the leading comment block
	awk -v k="$2" '
		NR == 1 && /^#!/ { next }
		!/^#/ { exit }
		{ line = $0; sub(/^#[ \t]*/, "", line)
		  if (index(line, k ":") == 1) { v = substr(line, length(k) + 2); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); print v; exit } }
	' "$1"
}

# What ran: the commit, "+changes" when the module, tests or harness
# differ from it, and the module build (md5 of the .ko), kept with each result
# (scripts/check-status.sh lists them: a long KERNEL=debug run is done in
# parts).
revision=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$ROOT" status --porcelain -- fs-f2fs trace-events scripts/tests qemu 2>/dev/null)" ]; then
	revision="$revision+changes"
fi
revision="$revision module $(md5sum < "$KOURS" 2>/dev/null | cut -c1-12)"
pass=0 fail=0
summary=$logroot/summary.txt
: > "$summary"
for f in "$TESTS"/*.sh; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .sh)
	[ "$name" = lib ] && continue
	matches "$name" || continue

	logdir=$logroot/$name
	work=$workroot/$name
	rm -rf "$work" "$logdir"
	mkdir -p "$work" "$logdir"

	timeout=$(header "$f" timeout); timeout=${TIMEOUT:-$(( ${timeout:-300} * KTIMEOUT_SCALE ))}
	disks=$(header "$f" disks)
	prep=$(header "$f" prep)
	mem=$(header "$f" mem)
	host=$(header "$f" host)
	args=$(header "$f" args)

	reason="" bad=""
	if [ -n "$host" ]; then
		read -r -a hostcmd <<< "$host"
		start=$(date +%s)
		rc=0
		if [ "${V:-0}" = 1 ]; then out=/dev/stdout; else out=/dev/null; fi
		(set -o pipefail
		 cd "$ROOT" && LOGDIR="$logdir/host" WORK="$work" "$ROOT/${hostcmd[0]}" "${hostcmd[@]:1}" 2>&1 \
			| tee "$logdir/output.log" > "$out") || rc=$?
		echo $(( $(date +%s) - start )) > "$logdir/seconds"
		if [ "$rc" != 0 ]; then
			reason="host script ${hostcmd[0]} exit $rc: $(tail -n1 "$logdir/output.log")"
		fi
		disks="" prep=""
	fi
	disk_args=()
	prep_env=(WORK="$work" KVER="$KVER" ROOT="$ROOT" TEST="$name" F2FS="$F2FS")
	i=0
	for sz in $disks; do
		img=$work/disk$i.img
		if ! truncate -s "$sz" "$img" 2>>"$logdir/prep.log"; then reason="bad disk size '$sz'"; break; fi
		disk_args+=(-d "$img")
		prep_env+=("DISK$i=$img")
		i=$((i + 1))
	done
	if [ -z "$reason" ] && [ -n "$prep" ]; then
		if [ ! -x "$TESTS/$prep" ]; then
			reason="prep script $prep missing or not executable"
		elif ! (cd "$work" && env "${prep_env[@]}" "$TESTS/$prep") >>"$logdir/prep.log" 2>&1; then
			reason="prep failed, see prep.log"
		fi
	fi
	if [ -z "$reason" ] && [ -z "$host" ]; then
		rc=0
		mem=${mem:-${QEMU_MEM:-1G}}
		if [ "$KMEM_EXTRA_MB" -gt 0 ]; then
			case $mem in
			*[Gg]) mem=$(( ${mem%?} * 1024 + KMEM_EXTRA_MB ))M ;;
			*[Mm]) mem=$(( ${mem%?} + KMEM_EXTRA_MB ))M ;;
			esac
		fi
		# the test's "# args:" kernel words, then GUEST_ARGS
		kargs="$args${args:+${GUEST_ARGS:+ }}${GUEST_ARGS:-}"
		QEMU_MEM=$mem "$ROOT/qemu/boot.sh" -t "$name" "${disk_args[@]}" \
			-T "$timeout" -l "$logdir" -w "$work" ${kargs:+-a "$kargs"} || rc=$?
		case $rc in
		0) ;;
		124) reason="timeout after ${timeout}s" ;;
		125) reason="no result marker (guest crashed or did not boot)" ;;
		*) reason="$(cut -d' ' -f2- "$logdir/result" 2>/dev/null || true)"
		   [ -n "$reason" ] || reason="exit=$rc" ;;
		esac
		bad=$(cat "$logdir/console.log" "$logdir/dmesg.log" 2>/dev/null | tr -d '\r' \
			| grep -oE "$KERNEL_BAD" | sort -u | paste -sd, - || true)
		if [ -n "$bad" ]; then
			reason="${reason:+$reason; }kernel log has: $bad"
		fi
	fi
	secs=$(cat "$logdir/seconds" 2>/dev/null || echo -)
	echo "$revision" > "$logdir/revision"
	if [ -z "$reason" ]; then
		echo "PASS $name"
		echo "PASS $name ${secs}s" >> "$summary"
		echo PASS > "$logdir/verdict"
		pass=$((pass + 1))
		# a passed test's disk images go (a full run keeps ~10 GiB
		# otherwise); KEEP_WORK=1 keeps them, a failed test keeps its own
		[ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
	else
		echo "FAIL $name ($reason) log: ${logdir#"$ROOT"/}"
		echo "FAIL $name ${secs}s ($reason)" >> "$summary"
		echo "FAIL $reason" > "$logdir/verdict"
		# CI keeps only what is printed: the test's last words and
		# the first kernel report go to stdout too
		tail -n 15 "$logdir/output.log" 2>/dev/null | sed 's/^/  | /'
		if [ -n "${bad:-}" ]; then
			# every stack on one line first (the task, then its
			# top frames), so that a cut in the middle of CI's
			# output still leaves which task was where
			tr -d '\r' < "$logdir/console.log" 2>/dev/null | awk '
				/ (CPU|cpu): ?[0-9]+ PID: / { sub(/^\[[^]]*\] */, ""); who = $0; sub(/ (Not tainted|Tainted).*/, "", who) }
				/Call Trace:/ { if (line != "") print line; line = who ":"; n = 0; on = 1; next }
				on && /<\/TASK>|^\[[^]]*\] *$/ { print line; line = ""; on = 0; next }
				on && n < 12 { f = $0; sub(/^\[[^]]*\] */, "", f); sub(/\+0x.*/, "", f); if (f !~ /^\?/ && f !~ /<TASK>/) { line = line " " f; n++ } }
				END { if (line != "") print line }' | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/  s /' || true
			tr -d '\r' < "$logdir/console.log" 2>/dev/null \
				| grep -m1 -B5 -A60 -E "$KERNEL_BAD" | sed 's/^/  ! /' || true
		fi
		case $reason in
		timeout*)
			tr -d '\r' < "$logdir/console.log" 2>/dev/null \
				| sed -n '/init: watchdog/,$p' | head -n 400 \
				| sed 's/^/  w /' || true ;;
		esac
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
if [ $((pass + fail)) = 0 ]; then
	echo "check: no test matched ${patterns[*]:-(all)}" >&2
	exit 1
fi
[ "$fail" = 0 ]
