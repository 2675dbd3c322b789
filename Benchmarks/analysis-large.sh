#!/usr/bin/env bash
# lint's analysis on one 300-rule policy (random lock/pin/keep-in-section/accept/capacity/
# reserve over 120 ids and 20 sections, fixed seed) and on the bundled board at --analysis-bound
# 5x5: wall time of the whole process, median of 3 runs each.
# Usage: Benchmarks/analysis-large.sh [path/to/reorder-policy]   (default: the release build)
source "$(dirname "$0")/analysis-setup.sh"
python3 - "$dir/large.yaml" <<'PY'
import random, sys
random.seed(300)
ids = [f"item{i}" for i in range(120)]
secs = [f"S{i}" for i in range(20)]
def row():
    r = random.random()
    if r < 0.4: return f"{{ id: {random.choice(ids)} }}"
    if r < 0.6: return f"{{ id: [{random.choice(ids)}, {random.choice(ids)}] }}"
    if r < 0.8: return f"{{ first: {random.randint(1, 3)}, section: {random.choice(secs)} }}"
    return f"{{ last: {random.randint(1, 2)}, id: {random.choice(ids)} }}"
rules = []
for _ in range(300):
    k = random.choice(["lock", "pin", "keep-in-section", "accept", "capacity", "reserve"])
    if k in ("lock", "pin", "keep-in-section"): rules.append(f"  - {k}: {row()}")
    elif k == "accept": rules.append(f"  - accept: {{ section: {random.choice(secs)}, from: [{random.choice(secs)}, {random.choice(secs)}] }}")
    elif k == "capacity": rules.append(f"  - capacity: {{ section: {random.choice(secs)}, max: {random.randint(1, 9)} }}")
    else: rules.append(f"  - reserve: {{ {random.choice(['first', 'last'])}: 1, section: {random.choice(secs)} }}")
open(sys.argv[1], "w").write("reorder-policy: 1\nname: large\nrules:\n" + "\n".join(rules) + "\n")
PY
time_of() {
    for _ in 1 2 3; do
        s=$(date +%s%N); "$binary" lint "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
        echo $(( (e - s) / 1000000 ))
    done | sort -n | sed -n 2p
}
echo "300-rule policy: $(time_of "$dir/large.yaml") ms"
echo "board at 5x5:    $(time_of --analysis-bound 5x5 policies/board.yaml) ms"
