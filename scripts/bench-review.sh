#!/usr/bin/env bash
# Review server on a large test set: start-up, the case list, and one decision (each decision
# is a full atomic rewrite of the file). Baseline, measured in the same run: copying the file
# and syncing it to disk, the least any atomic save of that file costs.
#
#   bash scripts/bench-review.sh [cases] [binary]   (defaults: 10000, target/debug/ragsynth)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
bin=${2:-${CARGO_TARGET_DIR:-target}/debug/ragsynth}
tmp=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

python3 - "$n" "$tmp/set.yaml" <<'EOF'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    f.write("ragsynth: 1\ncases:\n")
    for i in range(n):
        src = "real" if i % 4 == 0 else "synthetic"
        review = "accepted" if src == "real" else "pending"
        f.write(f"  - id: case-{i:06d}\n    question: How long are snapshots of machine {i} kept on the Community plan?\n"
                f"    answer: Thirty days at most; older snapshots are forgotten at the next prune.\n"
                f"    relevant: []\n    tags: {{type: lookup, topic: retention, source: {src}}}\n    review: {review}\n"
                f"    audit: {{flags: [RS101], overlap: 0.{i % 10}, copied_run: {i % 7}, source_rank: 1}}\n")
EOF
size=$(stat -c %s "$tmp/set.yaml")

now() { date +%s.%N; }
t0=$(now)
"$bin" review "$tmp/set.yaml" >"$tmp/out" 2>"$tmp/err" &
server=$!
until grep -q http "$tmp/out" 2>/dev/null; do sleep 0.01; done
t1=$(now)
url=$(grep -o 'http://[^ ]*' "$tmp/out" | head -1); url=${url%/}

list_s=$(curl -s -o "$tmp/list.json" -w '%{time_total}' "$url/api/cases")
version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$tmp/list.json")
decide_times=()
for i in 1 3 5 7 9; do
  id=$(printf 'case-%06d' "$i")
  out=$(curl -s -w '\n%{time_total}' -H "Content-Type: application/json" \
    -d "{\"version\":\"$version\",\"action\":\"accept\"}" "$url/api/cases/$id")
  version=$(printf "%s" "$out" | head -1 | tee "$tmp/last.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
  decide_times+=("$(printf '%s' "$out" | tail -1)")
done
decide_s=$(printf '%s\n' "${decide_times[@]}" | sort -n | sed -n 3p)

b0=$(now)
for _ in 1 2 3; do cp "$tmp/set.yaml" "$tmp/copy.yaml" && sync "$tmp/copy.yaml"; done
b1=$(now)

python3 - "$n" "$size" "$t0" "$t1" "$list_s" "$decide_s" "$b0" "$b1" <<'EOF'
import sys
n, size = int(sys.argv[1]), int(sys.argv[2])
start = float(sys.argv[4]) - float(sys.argv[3])
listing, decide = float(sys.argv[5]), float(sys.argv[6])
copy = (float(sys.argv[8]) - float(sys.argv[7])) / 3
print(f"{n} cases, {size / 1e6:.1f} MB")
print(f"start-up (load + bind):     {start * 1000:8.0f} ms")
print(f"GET /api/cases:             {listing * 1000:8.0f} ms")
print(f"one decision (median of 5): {decide * 1000:8.0f} ms")
print(f"baseline cp + sync:         {copy * 1000:8.0f} ms  (decision / baseline: {decide / copy:.1f}x)")
EOF
