#!/bin/bash
# dashboard-test.sh - host half of test 85-dashboard (check.sh runs it for
# the "host:" line): record a short demo workload in a guest
# (scripts/record.sh: 256 MiB image filled to 60% and churned, cold clips
# replaced, hot files with syncs, eager background GC: SSR, GC passes and
# checkpoints happen), render it (dashboards/render), check the page's
# figures against the recording read here independently (awk over the JSON
# lines: checkpoints, GC victims, SSR victims, the valid blocks of the first
# segment map) and that the run had checkpoints and cleaning, then load the
# page in headless chromium (scripts/dashboard-check.sh: no console
# message, every chart with data points, a screenshot).
# Env: LOGDIR, WORK (from check.sh); SECS (40) seconds recorded; F2FS.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGDIR=${LOGDIR:-$ROOT/build/logs/85-dashboard/host}
WORK=${WORK:-$ROOT/build/work/85-dashboard}
mkdir -p "$LOGDIR" "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
"$ROOT/scripts/setup-dashboard.sh"

rec=$LOGDIR/recording
OUT=$rec RUN_DIR=$WORK SECS=${SECS:-40} WARMUP=${WARMUP:-8} INTERVAL=1 "$ROOT/scripts/record.sh" \
	|| fail "recording failed (guest: $WORK/log/output.log)"
cp "$WORK/log/console.log" "$LOGDIR/guest-console.log" 2>/dev/null || true
bad=$(tr -d '\r' < "$WORK/log/console.log" | grep -oE "$(grep -v '^#' "$ROOT/qemu/kernel-bad" | paste -sd'|' -)" | sort -u | paste -sd, - || true)
[ -z "$bad" ] || fail "guest kernel log has: $bad ($LOGDIR/guest-console.log)"
grep -q 'fsck.f2fs /dev/vda clean' "$rec/output.log" || fail "no clean fsck.f2fs after the recording"
for t in top gc cp segmap hotcold du-meta; do
	[ -s "$rec/$t.jsonl" ] || fail "$t.jsonl is empty"
done

page=$LOGDIR/dashboard/index.html
"$ROOT/dashboards/render" "$rec" -o "$page" || fail "render failed"

# the recording, read by awk: checkpoints, GC victims (both policies, fg
# and bg), SSR victims listed by f2fs-segmap, valid blocks of its first map
sum() { grep -o "$2" "$rec/$1" | tr -dc '0-9\n' | awk '{ s += $1 } END { print s + 0 }'; }
cps=$(sum cp.jsonl '"checkpoints":[0-9]*')
gcv=$(grep -o '"victims":{"greedy":[0-9]*,"cost_benefit":[0-9]*[,}]' "$rec/gc.jsonl" | tr -c '0-9\n' ' ' | awk '{ s += $1 + $2 } END { print s + 0 }')
ssrv=$(grep -o '"ssr_victims":\[[^]]*\]' "$rec/segmap.jsonl" | grep -o '"segno"' | wc -l)
valid0=$(grep -m1 -o '"totals":{"valid_blocks":[0-9]*' "$rec/segmap.jsonl" | tr -dc 0-9)
echo "recording: $cps checkpoints, $gcv GC victims, $ssrv SSR victims listed, first map $valid0 valid blocks"
[ "$cps" -gt 0 ] || fail "no checkpoint in the recording"
# (the demo makes our module's background GC eager; the stock module's is not)
[ $((gcv + ssrv)) -gt 0 ] || [ "${F2FS:-ours}" = stock ] || fail "no GC or SSR victim in the recording"

# the same figures from the page's data (the JSON the charts are made of)
/usr/bin/python3 - "$page" "${F2FS:-ours}" "$cps" "$gcv" "$ssrv" "$valid0" <<'PY' || fail "the page's figures differ from the recording"
import json, re, sys
page, module = sys.argv[1:3]
cps, gcv, ssrv, valid0 = map(int, sys.argv[3:])
m = re.search(r'<script type="application/json" id="dash-data">(.*?)</script>', open(page, encoding="utf-8").read(), re.S)
specs = {s["title"]: s["config"] for s in json.loads(m.group(1).replace("<\\/", "</"))}
bad = 0
def same(what, page_v, rec_v):
    global bad
    print("page %s: %s, recording: %s" % (what, page_v, rec_v))
    if page_v != rec_v:
        bad = 1
ds = specs["Checkpoint latency by reason"]["data"]["datasets"]
same("checkpoints", sum(sum(d["data"]) for d in ds), cps)
# the stock module gives no utilisation of cost-benefit victims
if module == "ours":
    ds = specs["Victim utilisation per policy"]["data"]["datasets"]
    same("GC victims", sum(sum(d["data"]) for d in ds if d["label"].startswith("GC ")), gcv)
    same("SSR victims", sum(sum(d["data"]) for d in ds if d["label"].startswith("SSR ")), ssrv)
heat = specs["Segment map over time"]["options"]["_heat"]["valid"]
same("valid blocks of the first map", sum(row[0] for row in heat), valid0)
sys.exit(bad)
PY

allow=0
[ "${F2FS:-ours}" = ours ] || allow=1
"$ROOT/scripts/dashboard-check.sh" "$page" "$LOGDIR" $allow
