#!/bin/bash
# dashboard.sh - what "make dashboard" does: render a recording of the bpf
# tools (f2fs-record) into build/dashboard/index.html, one page that needs
# no network (Chart.js inlined), then load it in headless chromium
# (scripts/dashboard-check.sh: no console error, every chart has data; a
# screenshot in build/logs/dashboard/dashboard.png).
#   RECORDING=DIR   the recording (default: the newest one, by the time of
#                   its meta.json, under build/recordings/ and build/logs/)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/setup-dashboard.sh"
rec=${RECORDING:-}
if [ -z "$rec" ]; then
	m=$(find "$ROOT/build/recordings" "$ROOT/build/logs" -name meta.json -path '*recording*' -printf '%T@ %p\n' 2>/dev/null \
		| sort -n | tail -n 1 | cut -d' ' -f2-)
	[ -n "$m" ] || { echo "dashboard: no recording under build/ (make record, or RECORDING=DIR)" >&2; exit 1; }
	rec=$(dirname "$m")
fi
[ -f "$rec/meta.json" ] || { echo "dashboard: $rec is not a recording (no meta.json)" >&2; exit 1; }
echo "dashboard: rendering ${rec#"$ROOT"/}" >&2
"$ROOT/dashboards/render" "$rec" -o "$ROOT/build/dashboard/index.html"
# a recording of the stock module may lack figures only ours gives
allow=0
grep -q '"module":"stock"' "$rec/meta.json" && allow=1
"$ROOT/scripts/dashboard-check.sh" "$ROOT/build/dashboard/index.html" "$ROOT/build/logs/dashboard" $allow
echo "dashboard: open build/dashboard/index.html in a browser" >&2
