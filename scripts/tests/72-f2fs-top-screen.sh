#!/bin/sh
# desc: f2fs-top full-screen mode driven in a pseudo-terminal (qemu/guest-tools/ptyrun.c) with two f2fs mounted under a write workload: the screen shows the SPACE, LOGS, GC, CHECKPOINTS, NAT/SIT and EXTENT CACHE panels for vda, 's' changes the sort, 'd' switches to vdb, 'q' ends it with exit 0 within a second; a terminal resized (SIGWINCH, ptyrun -r) is redrawn at once at its new width; with -n it says on screen that it shows debugfs figures only; not on a terminal it prints plain lines; bad arguments and no f2fs mounted give one-line errors, also on a terminal
# disks: 256M 256M
# timeout: 300
set -eu
. /tests/lib.sh
. /tests/tools.inc


# quit_time ERR: seconds from the last key to the exit, as ptyrun said
quit_time() { sed -n 's/^ptyrun: exit 0, \([0-9.]*\) s after the last key$/\1/p' "$1"; }

# ---- errors ------------------------------------------------------------
rc=0
ptyrun -o /tmp/none.scr -t 20 -- f2fs-top 2> /tmp/none.err || rc=$?
cat /tmp/none.scr /tmp/none.err
[ $rc = 1 ] || fail "f2fs-top on a terminal with nothing mounted exits $rc"
grep -q "f2fs-top: no f2fs filesystem is mounted" /tmp/none.scr || fail "no one-line error on the terminal"
[ "$(grep -c . /tmp/none.scr)" = 1 ] || fail "more than one line on the terminal"
for a in "-x" "0" "1 2 3" "-b -j"; do
	rc=0
	# shellcheck disable=SC2086
	f2fs-top $a > /tmp/e.out 2> /tmp/e.err || rc=$?
	[ $rc != 0 ] && grep -q "^f2fs-top: " /tmp/e.err || { cat /tmp/e.err; fail "f2fs-top $a: exit $rc"; }
	note "f2fs-top $a: exit $rc: $(head -1 /tmp/e.err)"
done

# ---- two f2fs, a workload --------------------------------------------
mkdir -p /mnt/a /mnt/b
for d in a b; do
	dev=/dev/vd$d
	mkfs.f2fs -q -f -e mp4 $dev || fail "mkfs $dev"
	mount -t f2fs $dev /mnt/$d || fail "mount $dev"
done
(
	i=0
	while [ $i -lt 40 ]; do
		head -c 200000 /dev/urandom > /mnt/a/v$((i % 8)).mp4
		mkdir -p /mnt/a/d$i; echo x > /mnt/a/d$i/f
		head -c 50000 /dev/urandom > /mnt/b/w$((i % 4))
		sync
		sleep 0.3
		i=$((i + 1))
	done
) &
W=$!
rc=0
ptyrun -s 120x40 -o /tmp/top.scr -t 40 -k 3.5:s -k 5.5:d -k 8:q -- f2fs-top 1 2> /tmp/top.err || rc=$?
cat /tmp/top.err
cp /tmp/top.scr /host/ 2>/dev/null || true
[ $rc = 0 ] || { tail -c 3000 /tmp/top.scr; fail "f2fs-top exited $rc"; }
q=$(quit_time /tmp/top.err)
[ -n "$q" ] && awk -v q="$q" 'BEGIN { exit !(q < 1.0) }' || fail "q took $q s"
for p in "SPACE" "LOGS" "GC" "CHECKPOINTS" "NAT/SIT" "EXTENT CACHE"; do
	grep -q "$(printf '\033')\[1;7m $p" /tmp/top.scr || fail "no $p panel on the screen"
done
grep -q "f2fs-top.*vda on /mnt/a (1 of 2 f2fs)" /tmp/top.scr || fail "no vda header"
grep -q "f2fs-top.*vdb on /mnt/b (2 of 2 f2fs)" /tmp/top.scr || fail "'d' did not switch to vdb"
grep -q "sort: blocks/s" /tmp/top.scr || fail "'s' did not change the sort"
grep -q "cold_data" /tmp/top.scr || fail "no per-log lines"
grep -q "SSR [0-9]* victims (.*reusable [0-9]* blk; recycled" /tmp/top.scr || fail "no SSR line in the GC panel"
grep -q "\[BPF + debugfs\]" /tmp/top.scr || fail "BPF not in use"
grep -q "$(printf '\033')\[?1049l" /tmp/top.scr || fail "the terminal was not restored"
note "f2fs-top full screen: 6 panels, s sorts, d switches vda -> vdb, q quits in $q s"
# a readable copy of the last vda screen, for the README
screen_text /tmp/top.scr /tmp/top.txt

# a resized terminal (SIGWINCH) is redrawn at once to its new width
top_resized resize -d vda
note "f2fs-top redraws at 80 columns on SIGWINCH, before its next interval"

# a terminal shorter than the panels: every frame is cut to its height
# (a taller one scrolls its top off); frames start with ESC[H ESC[2J
rc=0
ptyrun -s 100x15 -o /tmp/short.scr -t 30 -k 4:q -- f2fs-top 1 -d vda 2> /tmp/short.err || rc=$?
[ $rc = 0 ] || { cat /tmp/short.err; fail "f2fs-top on a 15-row terminal exited $rc"; }
tall=$(awk 'BEGIN { RS = "\033" } /^\[2J/ { n = 0; f++ } { n += gsub(/\n/, ""); if (n > max) max = n } END { print f + 0, max + 0 }' /tmp/short.scr)
# shellcheck disable=SC2086
set -- $tall
[ "$1" -ge 2 ] || fail "f2fs-top drew $1 frames on the 15-row terminal"
[ "$2" -le 14 ] || fail "a frame of $2 lines on a 15-row terminal (it scrolls)"
note "f2fs-top on a 100x15 terminal: $1 frames, at most $2 newlines each"

# debugfs only, said on screen; SIGTERM ends it too
rc=0
ptyrun -o /tmp/topn.scr -t 30 -k 3:q -- f2fs-top -n -d vdb 2> /tmp/topn.err || rc=$?
[ $rc = 0 ] || fail "f2fs-top -n exited $rc"
grep -q "debugfs only: -n given" /tmp/topn.scr || { tail -c 2000 /tmp/topn.scr; fail "-n does not say debugfs only on screen"; }
grep -q "max n/a" /tmp/topn.scr || fail "-n shows a BPF figure"
# not a terminal: plain lines
f2fs-top 1 2 > /tmp/plain.txt 2> /tmp/plain.err || fail "f2fs-top 1 2 off a terminal failed"
[ "$(grep -c '^  warm_data ' /tmp/plain.txt)" = 2 ] || { cat /tmp/plain.txt; fail "f2fs-top off a terminal: not 2 plain intervals"; }
! grep -q "$(printf '\033')" /tmp/plain.txt || fail "escapes in plain output"
wait $W
umount /mnt/a
umount /mnt/b
fsck_clean /dev/vda
fsck_clean /dev/vdb
stock_unchanged /dev/vda
stock_unchanged /dev/vdb
