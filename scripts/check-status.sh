#!/bin/bash
# check-status.sh - the last result of every guest test, from the logs that
# scripts/check.sh leaves (build/logs/NAME, or build/logs/debug/NAME with
# KERNEL=debug): result, seconds, when, and the revision it ran on (commit,
# "+changes" for a modified tree, the md5 of the module).  A whole
# "make check KERNEL=debug" takes hours and is run in parts
# (T='pattern ...'); this shows which parts are done on which code.
#
#   scripts/check-status.sh            (or make check-status [KERNEL=debug])
#
# Prints one line per test, then "N passed, N failed, N not run; S s".
# "PASS?": a log from before check.sh kept its verdict, with the guest's
# own PASS (a kernel log error would not show); "?": such a log of a
# host-side test (counted as not run).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
logroot=$ROOT/build/logs
[ "${KERNEL:-}" = debug ] && logroot=$ROOT/build/logs/debug
pass=0 fail=0 none=0 secs=0
printf '%-24s %-6s %7s  %-16s %s\n' test result seconds finished revision
for f in "$ROOT"/scripts/tests/*.sh; do
	name=$(basename "$f" .sh)
	[ "$name" = lib ] && continue
	d=$logroot/$name
	if [ ! -s "$d/result" ] && [ ! -s "$d/seconds" ]; then
		printf '%-24s %-6s\n' "$name" -
		none=$((none + 1))
		continue
	fi
	s=$(cat "$d/seconds" 2>/dev/null || echo 0)
	when=$(date -d "@$(stat -c %Y "$d/seconds" 2>/dev/null || echo 0)" '+%Y-%m-%d %H:%M')
	rev=$(cat "$d/revision" 2>/dev/null || echo "(not recorded)")
	# check.sh's verdict (guest result, kernel log, timeout); older logs
	# have only the guest's own result
	res=FAIL
	if [ -s "$d/verdict" ]; then
		[ "$(cut -d' ' -f1 "$d/verdict")" = PASS ] && res=PASS
	elif grep -qs " PASS" "$d/result"; then
		res="PASS?"
	elif [ ! -s "$d/result" ]; then
		res="?"		# a host-side test from before verdicts
	fi
	case $res in PASS*) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; *) none=$((none + 1)) ;; esac
	secs=$((secs + s))
	printf '%-24s %-6s %7s  %-16s %s\n' "$name" "$res" "$s" "$when" "$rev"
done
echo "$pass passed, $fail failed, $none not run; $secs s"
