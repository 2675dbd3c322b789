#!/usr/bin/env bash
# Stored tables (docs/SERVER.md): one build of reorder-policy-server answering requests that
# send the 10 x 100 table whole ("sent") and requests that name it once stored ("named"),
# against the bare route (BareServer) given the very bodies of the named requests, in one run:
# Benchmarks/server-stored.sh SERVER_BINARY.
# The bundled grouped-list policy; one move or 1,000 seeded moves (as server-compare.sh).
# Saturation: wrk -t1 -c16, D s (default 6) per target, R rounds (default 4), the order
# reversed every other round; medians. Latency: hey -c4 rate-limited to half of each
# target's own median, D s. Needs wrk and hey.
set -euo pipefail
SERVER=$(realpath "$1")
cd "$(dirname "$0")"
source ./load-rounds.sh
prepare
"$SERVER" --policies "$POLICIES" --port 18191 >/dev/null 2>&1 &
sleep 1.5
base=http://127.0.0.1:18191
curl -sf -X PUT "$base/v1/tables/$(cat table.ref)" --data-binary @table.json >/dev/null
check=$base/v1/policies/grouped-list/check
for kind in single batch; do
  cmp <(curl -s $check --data-binary @$kind.json) <(curl -s $check --data-binary @$kind-ref.json)
done
sb=$(curl -s $check --data-binary @single-ref.json | wc -c)
bb=$(curl -s $check --data-binary @batch-ref.json | wc -c)
echo "named answers equal sent answers (single $sb bytes, batch $bb bytes)"
$BIN/BareServer 18292 "$sb" >/dev/null 2>&1 &
$BIN/BareServer 18293 "$bb" >/dev/null 2>&1 &
sleep 1
url() { case $1 in sent|named) echo $check;; bare) [ $2 = single ] && echo http://127.0.0.1:18292/ || echo http://127.0.0.1:18293/;; esac; }
body() { case $1 in sent) echo $2.json;; *) echo $2-ref.json;; esac; }
rounds "sent named bare"
