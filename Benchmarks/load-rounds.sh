# Shared by server-compare.sh, server-stored.sh and server-cpu.sh (sourced from Benchmarks/): `prepare` builds
# the bare route, writes the request bodies into a new folder and goes there; `rounds` runs
# saturation rounds and half-load latency for three targets and two kinds of request. The
# caller defines `url TARGET KIND` and `body TARGET KIND`; D (seconds per run, default 6) and R
# (rounds, default 4) come from the environment.
# Saturation: wrk -t1 -c16, the order of the targets reversed every other round; medians in
# medians.txt. Latency: hey -c4 rate-limited to half of each target's own median.

D=${D:-6}; R=${R:-4}

# Builds BareServer (BIN: its folder), writes the bodies into a new folder (removed at exit,
# with every background job) and changes to it; POLICIES: the bundled policies.
prepare() {
  swift build -c release --product BareServer >/dev/null
  BIN=$(swift build -c release --show-bin-path)
  POLICIES=$(realpath ../policies)
  work=$(mktemp -d)
  trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
  python3 request-bodies.py "$work"
  cd "$work"
}

run() { BODY="$2" wrk -t1 -c16 -d"${D}s" -s post.lua "$1" | awk '/Requests\/sec/ {print $2}'; }

half() {
  local rate=$(python3 -c "print(max(1, int($3 / 2 / 4)))")
  hey -z "${D}s" -c 4 -q "$rate" -m POST -T application/json -D "$2" "$1" \
    | awk '/  50% in/ {p50=$3*1000} /  99% in/ {p99=$3*1000} END {printf "%.2f %.2f", p50, p99}'
}

# rounds "T1 T2 T3": R rounds of every kind and target, then the medians and the latencies.
rounds() {
  local targets="$1" reversed
  reversed=$(echo "$targets" | awk '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "")}')
  : > results.txt
  for r in $(seq "$R"); do
    for kind in single batch; do
      order="$targets"; [ $((r % 2)) = 0 ] && order="$reversed"
      for t in $order; do echo "$kind $t $(run "$(url "$t" "$kind")" "$(body "$t" "$kind")")" >> results.txt; done
    done
  done
  python3 - <<'PY' > medians.txt
import statistics
d = {}
for l in open('results.txt'):
    k, t, v = l.split()
    d.setdefault((k, t), []).append(float(v))
for (k, t), v in sorted(d.items()):
    print(k, t, round(statistics.median(v)), ' '.join(str(round(x)) for x in v))
PY
  echo "kind target median-req/s runs..."; cat medians.txt
  for kind in single batch; do
    for t in $targets; do
      rps=$(awk -v k="$kind" -v t="$t" '$1==k && $2==t {print $3}' medians.txt)
      echo "latency $kind $t at $((rps / 2)) req/s: p50/p99 ms $(half "$(url "$t" "$kind")" "$(body "$t" "$kind")" "$rps")"
    done
  done
}
