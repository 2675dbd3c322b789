#!/usr/bin/env bash
# lint's analysis on generated families of large policies (issue #55, SPEC §10.1 "Cost": every
# policy of up to 300 rules within 2 s of CPU and 256 MB): each family at 50, 100 and 300 rules, and a board of 50 columns,
# CPU time (user + sys) and peak memory of the whole process, and what it found.
# Usage: Benchmarks/analysis-families.sh [path/to/reorder-policy]   (default: the release build)
# SIZES="300" limits the sizes; LIMIT=120 kills a run after that many seconds.
source "$(dirname "$0")/analysis-setup.sh"
PYTHONPATH=Benchmarks python3 - "$dir" "${SIZES:-50 100 300}" <<'PY'
import random, sys
from random_policies import RandomPolicies
out, sizes = sys.argv[1], [int(x) for x in sys.argv[2].split()]
head = "reorder-policy: 1\nname: p\nrules:\n"
def write(name, lines): open(f"{out}/{name}.yaml", "w").write(head + "".join(f"  - {l}\n" for l in lines))
def realistic(n, seed, sections):
    gen = RandomPolicies(seed, sections=[f"S{i}" for i in range(sections)], kinds=["card", "header", "note", "add", "status"],
                         tags=["sticky", "sorted", "urgent"], ids=[f"item{i}" for i in range(40)],
                         sections_by=[(0.5, "name"), (0.7, "pair"), (0.8, "bucket"), (0.9, "index")],
                         positions=[(0.25, "first"), (0.4, "last"), (0.5, "index")], first=3,
                         indices=lambda: [0, 1, 2, -1, -2, random.randint(3, 5000)], section_chance=0.4, tag_chance=0.15,
                         key_always=True, reserve_sections=True, max_bound=9)
    return [gen.rule() for _ in range(n)]
write("board-50-columns", [r for k in range(50) for r in (f"pin: {{ index: 0, section: C{k} }}", f"capacity: {{ section: C{k}, max: {3 + k % 5} }}", f"accept: {{ section: C{k}, from: [C{(k + 1) % 50}] }}")])
for n in sizes:
    write(f"locks-at-1000-{n}", [f"lock: {{ index: {1000 + k} }}" for k in range(n)])
    write(f"pins-at-1000-{n}", [f"pin: {{ index: {1000 + k} }}" for k in range(n)])
    write(f"locks-at-0-{n}", [f"lock: {{ index: {k} }}" for k in range(n)])
    write(f"capacities-{n}", [f"capacity: {{ section: S{k}, max: {1000 + k} }}" for k in range(n)])
    write(f"column-pins-{n}", [f"pin: {{ index: {k % 7}, section: S{k} }}" for k in range(n)])
    write(f"board-{n}", [r for k in range(n // 3) for r in (f"pin: {{ index: 0, section: C{k} }}", f"capacity: {{ section: C{k}, max: {3 + k % 5} }}", f"accept: {{ section: C{k}, from: [C{(k + 1) % (n // 3)}] }}")])
    write(f"mixed-{n}", [r for k in range(n // 3) for r in (f"lock: {{ index: {1000 + k} }}", f"pin: {{ index: {k}, section: S{k % 40} }}", f"capacity: {{ section: S{k % 40}, max: {5 + k % 9} }}")])
    write(f"random-40-sections-{n}", realistic(n, 55 + n, 40))
    write(f"random-realistic-{n}", realistic(n, 7 + n, 8))
PY
printf '%-26s %8s %8s  %s\n' policy "CPU s" "MB" findings
for f in "$dir"/*.yaml; do
    name=$(basename "$f" .yaml)
    if /usr/bin/time -f "%U %S %M" -o "$dir/time" timeout "${LIMIT:-120}" "$binary" lint --format json "$f" > "$dir/out.json" 2>/dev/null || [ -s "$dir/out.json" ]; then
        read -r user sys kb < "$dir/time"
        python3 - "$name" "$user" "$sys" "$kb" "$dir/out.json" <<'PY'
import collections, json, sys
name, user, system, kb, path = sys.argv[1:]
codes = collections.Counter(d["code"] for d in json.load(open(path))["diagnostics"])
print(f"{name:26} {float(user) + float(system):8.2f} {int(kb) // 1024:8}  " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
PY
    else
        printf '%-26s %8s\n' "$name" "killed"
    fi
done
