#!/bin/bash
# setup-dashboard.sh - what "make dashboard" needs, idempotently (a few
# dpkg queries once done):
#   - Chart.js, pinned to Debian 12's libjs-chart.js 3.9.1+~0.2.1-2: the
#     .deb is fetched with "apt-get download" into build/debs/ and unpacked
#     with "dpkg -x" into build/vendor/ (not installed on the machine, not
#     in git); dashboards/render inlines build/vendor/chart.min.js into the
#     page, which then needs no network;
#   - chromium (Debian's), for the headless check of the page (test 85);
#   - python3 (Debian's /usr/bin/python3) for dashboards/render.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
CHARTJS_PKG=libjs-chart.js
CHARTJS_VER=3.9.1+~0.2.1-2
VENDOR=$BUILD/vendor
log() { echo "setup-dashboard: $*" >&2; }
die() { echo "setup-dashboard: ERROR: $*" >&2; exit 1; }

stamp=$VENDOR/.chartjs
if [ "$(cat "$stamp" 2>/dev/null)" != "$CHARTJS_PKG $CHARTJS_VER" ] || [ ! -s "$VENDOR/chart.min.js" ]; then
	dl=$BUILD/debs
	mkdir -p "$dl"
	chmod 0777 "$dl"    # apt-get download drops privileges to _apt
	deb=$dl/${CHARTJS_PKG}_${CHARTJS_VER//:/%3a}_all.deb
	if [ ! -f "$deb" ]; then
		log "fetching $CHARTJS_PKG $CHARTJS_VER"
		(cd "$dl" && apt-get download "$CHARTJS_PKG=$CHARTJS_VER" >&2) || {
			DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
			(cd "$dl" && apt-get download "$CHARTJS_PKG=$CHARTJS_VER" >&2) \
				|| die "apt-get download $CHARTJS_PKG=$CHARTJS_VER failed (is it still in the Debian 12 archive?)"
		}
	fi
	[ -f "$deb" ] || die "$deb not found after apt-get download"
	rm -rf "$VENDOR/x"
	mkdir -p "$VENDOR/x"
	dpkg -x "$deb" "$VENDOR/x"
	js=$(find "$VENDOR/x" -name 'chart.min.js' -o -name 'chart.umd.min.js' | head -n1)
	[ -n "$js" ] || die "no chart.min.js in $deb"
	cp "$js" "$VENDOR/chart.min.js"
	lic=$(find "$VENDOR/x" -path '*chart.js*copyright' | head -n1)
	[ -z "$lic" ] || cp "$lic" "$VENDOR/chart.js.copyright"
	rm -rf "$VENDOR/x"
	echo "$CHARTJS_PKG $CHARTJS_VER" > "$stamp"
	log "Chart.js $CHARTJS_VER in $VENDOR/chart.min.js"
fi

missing=""
for p in chromium python3; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "must run as root to install:$missing"
	log "installing:$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 || {
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 \
			|| die "apt-get install failed for:$missing"
	}
fi
