#!/usr/bin/env bash
# lint's analysis on 300 realistic random policies (3–15 rules of every kind, lists, `not`,
# section mappings, attribute bounds; fixed seed): median, p95 and max of the whole process.
# Usage: Benchmarks/analysis-corpus.sh [path/to/reorder-policy]   (default: the release build)
# CONSTANTS=16 COUNT=60 SEED=7 gives the set with large position constants (first/last/reserve
# up to 16, indices up to ±15) that BENCHMARKS.md reports beside the realistic one.
source "$(dirname "$0")/analysis-setup.sh"
PYTHONPATH=Benchmarks python3 - "$dir" "${SEED:-22}" "${COUNT:-300}" "${CONSTANTS:-2}" <<'PY'
import random, sys
from random_policies import RandomPolicies, write
out, seed, count, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
indices = [0, 1, 2, -1, -2] if big <= 2 else [0, 1, 2, 9, 14, -1, -2, -11, -15]
gen = RandomPolicies(seed, sections=["Todo", "Doing", "Review", "Done", "Inbox", "Archive"],
                     kinds=["card", "header", "note", "add", "status"], tags=["sticky", "sorted", "urgent"],
                     ids=["status", "add", "title", "footer", "help"],
                     sections_by=[(0.3, "name"), (0.5, "pair"), (0.65, "bucket"), (0.75, "sorted"), (0.85, "index")],
                     positions=[(0.3, "first"), (0.5, "last"), (0.6, "index")], first=big, indices=lambda: indices)
for n in range(count):
    write(f"{out}/p{n:03}.yaml", f"p{n}", [gen.rule() for _ in range(random.randint(3, 15))])
PY
for f in "$dir"/p*.yaml; do
    s=$(date +%s%N); "$binary" lint "$f" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo "$(( (e - s) / 1000000 )) $(basename "$f")"
done | sort -n > "$dir/times.txt"
python3 - "$dir/times.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
t = sorted(int(r[0]) for r in rows); n = len(t)
print(f"{n} policies: median {t[n // 2]} ms, p95 {t[int(n * 0.95)]} ms, max {t[-1]} ms ({rows[-1][1]})")
PY
