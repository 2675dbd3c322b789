#!/usr/bin/env bash
# Two builds of reorder-policy-server and the bare route (BareServer) in one run, for a
# before/after figure: Benchmarks/server-compare.sh OLD_BINARY NEW_BINARY.
# The bundled grouped-list policy, a 10 x 100 table sent with every request, one move or 1,000
# seeded moves (as server-load.sh). Saturation: wrk -t1 -c16, D s (default 6) per target, R
# rounds (default 4) with the order reversed every other round; medians. Latency: hey -c4
# rate-limited to half of each target's own median saturation, D s. Needs wrk and hey.
set -euo pipefail
BEFORE=$(realpath "$1"); AFTER=$(realpath "$2")
cd "$(dirname "$0")"
source ./load-rounds.sh
prepare
"$BEFORE" --policies "$POLICIES" --port 18181 >/dev/null 2>&1 &
"$AFTER" --policies "$POLICIES" --port 18182 >/dev/null 2>&1 &
sleep 1.5
sb=$(curl -s http://127.0.0.1:18182/v1/policies/grouped-list/check --data-binary @single.json | wc -c)
bb=$(curl -s http://127.0.0.1:18182/v1/policies/grouped-list/check --data-binary @batch.json | wc -c)
cmp <(curl -s http://127.0.0.1:18181/v1/policies/grouped-list/check --data-binary @batch.json) <(curl -s http://127.0.0.1:18182/v1/policies/grouped-list/check --data-binary @batch.json) && echo "same batch answers ($bb bytes); single $sb bytes"
$BIN/BareServer 18282 "$sb" >/dev/null 2>&1 &
$BIN/BareServer 18283 "$bb" >/dev/null 2>&1 &
sleep 1
url() { case $1 in before) echo http://127.0.0.1:18181/v1/policies/grouped-list/check;; after) echo http://127.0.0.1:18182/v1/policies/grouped-list/check;; bare) [ $2 = single ] && echo http://127.0.0.1:18282/ || echo http://127.0.0.1:18283/;; esac; }
body() { echo $2.json; }
rounds "before after bare"
