#!/bin/sh
# desc: make bench in miniature (issue 17): one guest, ours, stock f2fs, ext4, btrfs and nilfs2, one round of a tiny linux-source-6.1 tree plus 16 MiB and 20 fsyncs at THROTTLE=8M; every phase ok (the tree read back equals the host's manifest, the file its md5, fsck.f2fs clean), the device counters saw the tree and the file, and the throttle was applied (16 MiB took at least 0.5 s each way, the raw disk's write too; unthrottled 0.05-0.2 s)
# host: scripts/bench-smoke.sh
# timeout: 600
#
# The host side is scripts/bench-smoke.sh (check.sh runs it because of the
# "host:" line); booting this file in a guest does nothing.
exit 0
