#!/bin/sh
# desc: dashboards (issue 18): a short demo workload (256 MiB, 60% fill churned, clips, hot files with syncs, eager background GC) recorded by f2fs-record in a guest (top, gc, cp, segmap, hotcold every second, then a cold du under f2fs-meta; fsck clean after), rendered by dashboards/render into one page with Chart.js inlined; its checkpoints, GC and SSR victims and first segment map equal the recording read by awk, the run had checkpoints and cleaning; headless chromium loads the page with no console message, every chart has data points, a screenshot goes to dashboard.png
# host: scripts/dashboard-test.sh
# timeout: 900
#
# The host side is scripts/dashboard-test.sh (check.sh runs it because of
# the "host:" line); booting this file in a guest does nothing.
exit 0
