#!/usr/bin/env bash
# Server CPU time per request, two builds of reorder-policy-server and the bare route in
# alternate runs: Benchmarks/server-cpu.sh OLD_BINARY NEW_BINARY.
# The 1,000-move grouped-list batch naming the stored 10 x 100 table (as server-stored.sh).
# Each run: a fresh server, wrk -t1 -c16 for D s (default 5), and the server process's user +
# system time (/proc/PID/stat) over the run divided by the requests answered. R rounds
# (default 3). On this shared 2-core machine the bare route's req/s moves by a quarter between
# runs minutes apart, and a req/s ratio with it; CPU per request moves far less, so it is the
# figure to compare builds by. Needs wrk.
set -euo pipefail
OLD=$(realpath "$1"); NEW=$(realpath "$2")
cd "$(dirname "$0")"
D=${D:-5}; R=${R:-3}
source ./load-rounds.sh
prepare
cpu() {  # PID URL BODY: "req/s µs-per-request"
  local c1 c2 rps
  c1=$(awk '{print $14 + $15}' "/proc/$1/stat")
  rps=$(run "$2" "$3")
  c2=$(awk '{print $14 + $15}' "/proc/$1/stat")
  python3 -c "r = $rps; print('%.0f %.0f' % (r, ($c2 - $c1) / $(getconf CLK_TCK) * 1e6 / (r * $D)))"
}
pid=
start() {  # BINARY: a fresh server on 18191 (a job of this shell, so the exit trap stops it) with the table stored
  "$1" --policies "$POLICIES" --port 18191 >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:18191/ && break; sleep 0.1; done
  curl -sf -X PUT "http://127.0.0.1:18191/v1/tables/$(cat table.ref)" --data-binary @table.json >/dev/null
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; }
check=http://127.0.0.1:18191/v1/policies/grouped-list/check
start "$OLD"
bb=$(curl -s $check --data-binary @batch-ref.json | wc -c)
stop
$BIN/BareServer 18293 "$bb" >/dev/null 2>&1 &
bare=$!
sleep 1
echo "round target req/s server-CPU-us-per-request"
for r in $(seq "$R"); do
  for name in old new; do
    [ $name = old ] && binary=$OLD || binary=$NEW
    start "$binary"
    echo "$r $name $(cpu $pid $check batch-ref.json)"
    stop
  done
  echo "$r bare $(cpu $bare http://127.0.0.1:18293/ batch-ref.json)"
done
