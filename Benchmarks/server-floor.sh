#!/usr/bin/env bash
# Where a batch's time goes (BENCHMARKS.md, "Where a batch's time goes"): one release build of
# reorder-policy-server deciding the load test's bodies under the bundled grouped-list policy
# and under a policy with no rules (every move allowed, a third of the answer's bytes), against
# the bare route answering as many bytes as grouped-list's answer:
# Benchmarks/server-floor.sh SERVER_BINARY. D and R as in load-rounds.sh. Needs wrk and hey.
set -euo pipefail
SERVER=$(realpath "$1")
cd "$(dirname "$0")"
source ./load-rounds.sh
prepare
mkdir policies
cp "$POLICIES/grouped-list.yaml" policies/
printf 'reorder-policy: 1\nname: empty\nrules: []\n' > policies/empty.yaml
"$SERVER" --policies policies --port 18191 >/dev/null 2>&1 &
sleep 1.5
sb=$(curl -s http://127.0.0.1:18191/v1/policies/grouped-list/check --data-binary @single.json | wc -c)
bb=$(curl -s http://127.0.0.1:18191/v1/policies/grouped-list/check --data-binary @batch.json | wc -c)
eb=$(curl -s http://127.0.0.1:18191/v1/policies/empty/check --data-binary @batch.json | wc -c)
echo "answers: grouped single $sb, grouped batch $bb, no-rules batch $eb bytes"
$BIN/BareServer 18292 "$sb" >/dev/null 2>&1 &
$BIN/BareServer 18293 "$bb" >/dev/null 2>&1 &
sleep 1
url() { case $1 in grouped) echo http://127.0.0.1:18191/v1/policies/grouped-list/check;; empty) echo http://127.0.0.1:18191/v1/policies/empty/check;; bare) [ $2 = single ] && echo http://127.0.0.1:18292/ || echo http://127.0.0.1:18293/;; esac; }
body() { echo $2.json; }
rounds "grouped empty bare"
