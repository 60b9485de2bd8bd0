#!/bin/bash
# dashboard-check.sh - load a dashboard page (dashboards/render) in Debian's
# headless chromium and check it.
#
#   scripts/dashboard-check.sh PAGE LOGDIR [ALLOW_MISSING]
#
# Fails (exit 1) on: chromium failing; any console message of the page
# (chromium's log, --enable-logging=stderr: the page itself logs nothing);
# the page's own error box (#dash-errors: script errors, console.error and
# console.warn); a page whose script did not finish (<body
# data-rendered="1">); a chart with no data point or only zeros
# (data-points, data-nonzero, written by the page for each canvas); no
# chart at all; and, unless ALLOW_MISSING=1, any "not recorded" box.  A
# screenshot of the whole page goes to LOGDIR/dashboard.png, the DOM after
# the script to LOGDIR/dashboard-dom.html, chromium's log to
# LOGDIR/chromium.log (DASH_SCALE=0.5: a smaller screenshot).  chromium
# runs with --no-sandbox (root), a private profile under LOGDIR and no
# network use (the page is a file:// URL).
set -eu
{ [ $# -ge 2 ] && [ $# -le 3 ]; } || { sed -n '2,18s/^# \{0,1\}//p' "$0" >&2; exit 2; }
PAGE=$(realpath "$1") LOGDIR=$2 ALLOW_MISSING=${3:-0}
[ -f "$PAGE" ] || { echo "dashboard-check: $PAGE: no such page" >&2; exit 2; }
command -v chromium >/dev/null || { echo "dashboard-check: chromium missing (scripts/setup-dashboard.sh installs it)" >&2; exit 2; }
mkdir -p "$LOGDIR"
LOGDIR=$(realpath "$LOGDIR")
prof=$LOGDIR/chromium-profile
rm -rf "$prof"
fail() { echo "dashboard-check: FAIL: $*"; exit 1; }

chrome() {  # chrome ARGS...: headless chromium on the page, log appended
	timeout -k 5 180 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --disable-extensions --disable-background-networking \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 \
		--virtual-time-budget=10000 "$@" "file://$PAGE" 2>> "$LOGDIR/chromium.log"
}
: > "$LOGDIR/chromium.log"
chrome --dump-dom --window-size=1400,1000 > "$LOGDIR/dashboard-dom.html" || fail "chromium --dump-dom exited $? (see $LOGDIR/chromium.log)"
if grep -q ':CONSOLE' "$LOGDIR/chromium.log"; then
	grep ':CONSOLE' "$LOGDIR/chromium.log" | head -n 5
	fail "the page logged to the console (see $LOGDIR/chromium.log)"
fi
/usr/bin/python3 - "$LOGDIR/dashboard-dom.html" "$ALLOW_MISSING" <<'PY' || exit 1
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rendered, self.canvases, self.missing, self.errors = None, [], 0, ""
        self.height = None
        self.in_err = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.rendered = a.get("data-rendered")
            self.height = a.get("data-height")
        if tag == "canvas":
            self.canvases.append((a.get("id"), a.get("data-points"), a.get("data-nonzero")))
        if a.get("data-missing"):
            self.missing += 1
        self.in_err = a.get("id") == "dash-errors"
    def handle_endtag(self, tag):
        self.in_err = False
    def handle_data(self, d):
        if self.in_err:
            self.errors += d

p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = []
if p.errors.strip():
    bad.append("page errors: " + p.errors.strip()[:500])
if p.rendered != "1":
    bad.append("the page's script did not finish (data-rendered=%r)" % p.rendered)
if not p.canvases:
    bad.append("no chart in the page")
for cid, n, nz in p.canvases:
    if not n or not n.isdigit() or int(n) == 0 or not nz or not nz.isdigit() or int(nz) == 0:
        bad.append("chart %s has no data points (points %s, non-zero %s)" % (cid, n, nz))
if p.missing and sys.argv[2] != "1":
    bad.append("%d charts say 'not recorded'" % p.missing)
open(sys.argv[1] + ".height", "w").write(p.height or "3000")
print("dashboard-check: %d charts: %s; %d not recorded" % (
    len(p.canvases), " ".join("%s=%s/%s" % c for c in p.canvases), p.missing))
if bad:
    for b in bad:
        print("dashboard-check: FAIL: " + b)
    sys.exit(1)
PY
# the page's height (the page wrote it) for a screenshot of all of it
h=$(tr -dc 0-9 < "$LOGDIR/dashboard-dom.html.height")
rm -f "$LOGDIR/dashboard-dom.html.height"
chrome --screenshot="$LOGDIR/dashboard.png" --window-size="1400,$((${h:-3000} + 16))" --force-device-scale-factor="${DASH_SCALE:-1}" > /dev/null \
	|| fail "chromium --screenshot exited $?"
[ "$(head -c 8 "$LOGDIR/dashboard.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
	|| fail "$LOGDIR/dashboard.png is not a PNG"
rm -rf "$prof"
echo "dashboard-check: PASS: no console message, every chart has data; screenshot $LOGDIR/dashboard.png ($(du -k "$LOGDIR/dashboard.png" | cut -f1) KB)"
