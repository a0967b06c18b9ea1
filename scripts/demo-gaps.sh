#!/usr/bin/env bash
# Checks that the demo talks: runs `bash scripts/demo.sh` with every output line timestamped,
# prints the longest silence and the step it fell in, and fails when a silence is longer than
# 30 seconds. For speed it can run the small model: RAGSYNTH_MODEL=smollm2 (the default model
# gives the demo's real timings).
#
#   bash scripts/demo-gaps.sh [N=4]      (log: output/demo-gaps.log)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p output
log=output/demo-gaps.log
start=$(date +%s.%N)
# The demo writes to a pipe here, as into a CI log; each line is stamped as it arrives.
set +o pipefail
bash scripts/demo.sh "${1:-4}" 2>&1 | while IFS= read -r line; do
  printf '%8.1f %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$line"
done | tee "$log"
status=${PIPESTATUS[0]}
set -o pipefail
python3 - "$log" "$status" <<'PY'
import sys
rows = []
for l in open(sys.argv[1]):
    t, _, text = l.rstrip("\n").lstrip().partition(" ")
    rows.append((float(t), text))
gaps = [(rows[0][0], "the start")] + [(rows[i][0] - rows[i - 1][0], rows[i - 1][1]) for i in range(1, len(rows))]
gap, after = max(gaps)
print(f"demo-gaps: {len(rows)} lines in {rows[-1][0]:.0f} s; longest silence {gap:.1f} s, after: {after[:100]}")
if int(sys.argv[2]) != 0:
    sys.exit(f"demo-gaps: the demo failed (exit {sys.argv[2]})")
if gap > 30:
    sys.exit("demo-gaps: a silence longer than 30 s")
PY
