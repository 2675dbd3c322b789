#!/usr/bin/env bash
# Load test of reorder-policy-server on loopback, side by side in one run with
#   - the bare HTTP stack (BareServer: the same Hummingbird application shape answering a
#     fixed body of the same size, deciding nothing), and
#   - the CLI (`reorder-policy check`) deciding the same moves.
# Saturation: wrk (closed loop). Latency at half of saturation: hey, rate-limited.
# Needs: apt-get install wrk hey. Usage: Benchmarks/server-load.sh [seconds per run, default 10]
# Only loopback is used; every load loop is bounded in time and stops by itself.
set -euo pipefail
cd "$(dirname "$0")"
DURATION=${1:-10}
command -v wrk >/dev/null && command -v hey >/dev/null || { echo "install wrk and hey (apt-get install wrk hey)" >&2; exit 2; }

swift build -c release --product BareServer >/dev/null
swift build -c release --product reorder-policy-server >/dev/null
swift build -c release --product reorder-policy >/dev/null
BIN=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# A 10 × 100 table, one single-move request and one 1,000-move request (seeded, mixed
# within and across sections) for the bundled grouped-list policy.
python3 request-bodies.py "$work"

"$BIN/reorder-policy-server" --policies ../policies --port 18181 >"$work/server.out" 2>/dev/null &
for _ in $(seq 50); do grep -q listening "$work/server.out" 2>/dev/null && break; sleep 0.1; done
URL=http://127.0.0.1:18181/v1/policies/grouped-list/check
single_bytes=$(curl -s "$URL" --data-binary @"$work/single.json" | wc -c)
batch_bytes=$(curl -s "$URL" --data-binary @"$work/batch.json" | wc -c)
"$BIN/BareServer" 18282 "$single_bytes" >/dev/null 2>&1 &
"$BIN/BareServer" 18283 "$batch_bytes" >/dev/null 2>&1 &
sleep 1

saturate() {  # url body → requests/s
    BODY="$2" wrk -t1 -c16 -d"${DURATION}s" -s "$work/post.lua" "$1" | awk '/Requests\/sec/ {print $2}'
}
half() {  # url body rps → "p50 p99" in ms at half of rps
    local rate=$(python3 -c "print(max(1, int($3 / 2 / 4)))")
    hey -z "${DURATION}s" -c 4 -q "$rate" -m POST -T application/json -D "$2" "$1" \
        | awk '/  50% in/ {p50=$3*1000} /  99% in/ {p99=$3*1000} END {printf "%.3f %.3f", p50, p99}'
}

echo "machine: $(nproc) cores, $(uname -m), $(swift --version 2>&1 | head -1)"
echo "| request | server req/s | bare req/s | server/bare | decisions/s (server) | server p50 / p99 at half load | bare p50 / p99 at half load |"
echo "|---|---|---|---|---|---|---|"
for kind in single batch; do
    body="$work/$kind.json"; bare=$([ $kind = single ] && echo 18282 || echo 18283)
    s=$(saturate "$URL" "$body"); b=$(saturate "http://127.0.0.1:$bare/v1/policies/grouped-list/check" "$body")
    sl=$(half "$URL" "$body" "$s"); bl=$(half "http://127.0.0.1:$bare/v1/policies/grouped-list/check" "$body" "$b")
    moves=$([ $kind = single ] && echo 1 || echo 1000)
    python3 -c "
s, b = $s, $b
sl, bl = '$sl'.split(), '$bl'.split()
print(f'| $kind ($moves move{\"s\" if $moves > 1 else \"\"}) | {s:,.0f} | {b:,.0f} | {s/b:.0%} | {s*$moves:,.0f} | {sl[0]} / {sl[1]} ms | {bl[0]} / {bl[1]} ms |')"
done

# The CLI: one process per request, the same moves.
runs=20
start=$(date +%s.%N)
for _ in $(seq $runs); do "$BIN/reorder-policy" check --policy ../policies/grouped-list.yaml --table "$work/table.json" --from 3.10 --to 3.50 --format json >/dev/null || true; done
mid=$(date +%s.%N)
for _ in $(seq $runs); do "$BIN/reorder-policy" check --policy ../policies/grouped-list.yaml --table "$work/table.json" --moves "$work/batch-moves.json" --format json >/dev/null || true; done
end=$(date +%s.%N)
python3 -c "
one = ($mid - $start) / $runs; batch = ($end - $mid) / $runs
print(f'CLI, one process per request: single move {1/one:,.0f} req/s ({one*1000:.1f} ms each); 1,000 moves {1/batch:,.1f} req/s = {1000/batch:,.0f} decisions/s ({batch*1000:.1f} ms each)')"
