#!/usr/bin/env bash
# Peak memory and time of `reorder-policy check --moves` (release) from 10 thousand to 10
# million moves, side by side with libyaml alone parsing the same file (YAMLParseFile, C).
# The moves file is streamed, so peak RSS should stay flat. Usage: Benchmarks/moves-memory.sh [max moves]
set -euo pipefail
cd "$(dirname "$0")"
MAX=${1:-10000000}
swift build -c release --product reorder-policy >/dev/null 2>&1
swift build -c release --product YAMLParseFile >/dev/null 2>&1
BIN=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, sys
json.dump({"sections": [{"id": f"S{s}", "rows": [f"r{s}-{r}" for r in range(99)] + [{"id": "Add", "kind": "add"}]} for s in range(10)]},
          open(f"{sys.argv[1]}/table.json", "w"))
PY
echo "machine: $(nproc) cores, $(uname -m), $(swift --version 2>&1 | head -1)"
echo "| moves | file | check peak RSS | check wall | libyaml parse wall | check / libyaml |"
echo "|---|---|---|---|---|---|"
for n in 10000 100000 1000000 10000000; do
    [ "$n" -le "$MAX" ] || continue
    python3 - "$work/moves.yaml" "$n" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    for _ in range(int(sys.argv[2])):
        s, t = random.randrange(10), random.randrange(10)
        f.write(f"- {{ from: [{s}, {random.randrange(100)}], to: [{t}, {random.randrange(100 if s != t else 99)}] }}\n")
PY
    python3 - "$BIN" "$work" "$n" <<'PY'
import os, resource, subprocess, sys, time
bin, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run(args):
    start = time.perf_counter()
    with open(os.devnull, "w") as null:
        subprocess.run(args, stdout=null, stderr=null)
    return time.perf_counter() - start
base = min(run([f"{bin}/YAMLParseFile", f"{work}/moves.yaml"]) for _ in range(3))
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
check = min(run([f"{bin}/reorder-policy", "check", "--policy", "../policies/grouped-list.yaml",
                 "--table", f"{work}/table.json", "--moves", f"{work}/moves.yaml", "--format", "json"]) for _ in range(3))
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
size = os.path.getsize(f"{work}/moves.yaml")
print(f"| {n:,} | {size / 2**20:,.1f} MiB | {rss / 1024:,.1f} MiB | {check:.2f} s | {base:.2f} s | {check / base:.2f}× |")
PY
done
