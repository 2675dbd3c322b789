#!/usr/bin/env bash
# lint's analysis on 300 realistic random policies (3–15 rules of every kind, lists, `not`,
# section mappings, attribute bounds; fixed seed): median, p95 and max of the whole process.
# Usage: Benchmarks/analysis-corpus.sh [path/to/reorder-policy]   (default: the release build)
# CONSTANTS=16 COUNT=60 SEED=7 gives the set with large position constants (first/last/reserve
# up to 16, indices up to ±15) that BENCHMARKS.md reports beside the realistic one.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/reorder-policy}"
[ -x "$binary" ] || swift build -c release --product reorder-policy
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "${SEED:-22}" "${COUNT:-300}" "${CONSTANTS:-2}" <<'PY'
import random, sys
out, seed, count, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
indices = [0, 1, 2, -1, -2] if big <= 2 else [0, 1, 2, 9, 14, -1, -2, -11, -15]
sec = ["Todo", "Doing", "Review", "Done", "Inbox", "Archive"]
kinds = ["card", "header", "note", "add", "status"]
tags = ["sticky", "sorted", "urgent"]
ids = ["status", "add", "title", "footer", "help"]
def secsel():
    r = random.random()
    if r < 0.3: return random.choice(sec)
    if r < 0.5: return "[" + ", ".join(random.sample(sec, 2)) + "]"
    if r < 0.65: return "{ kind: bucket }"
    if r < 0.75: return "{ tag: sorted }"
    if r < 0.85: return str(random.choice([0, 1, -1]))
    return "all"
def rowsel():
    parts = []
    r = random.random()
    if r < 0.3: parts.append(f"first: {random.randint(1, big)}")
    elif r < 0.5: parts.append(f"last: {random.randint(1, big)}")
    elif r < 0.6: parts.append(f"index: {random.choice(indices)}")
    if random.random() < 0.4: parts.append(f"kind: {random.choice(kinds)}")
    if random.random() < 0.3: parts.append(f"id: {random.choice(ids)}")
    if random.random() < 0.3: parts.append(f"section: {secsel()}")
    if random.random() < 0.1: parts.append(f"tag: {random.choice(tags)}")
    if random.random() < 0.1: parts.append(f"not: {{ kind: {random.choice(kinds)} }}")
    return "{ " + ", ".join(parts) + " }" if parts else "all"
def rule():
    k = random.choice(["lock", "pin", "pin", "keep-in-section", "accept", "capacity", "reserve", "keep-order"])
    if k in ("lock", "pin", "keep-in-section"): return f"  - {k}: {rowsel()}"
    if k == "accept": return f"  - accept: {{ section: {secsel()}, from: {secsel()} }}"
    if k == "capacity":
        b = random.choice([f"max: {random.randint(0, 5)}", f"min: {random.randint(0, 2)}", "max: { attribute: wip }"])
        extra = ", rows: { kind: card }" if random.random() < 0.3 else ""
        return f"  - capacity: {{ section: {secsel()}, {b}{extra} }}"
    if k == "reserve": return f"  - reserve: {{ {random.choice(['first', 'last'])}: {random.randint(1, big)} }}"
    return f"  - keep-order: {secsel()}"
for n in range(count):
    rules = [rule() for _ in range(random.randint(3, 15))]
    open(f"{out}/p{n:03}.yaml", "w").write(f"reorder-policy: 1\nname: p{n}\nrules:\n" + "\n".join(rules) + "\n")
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
