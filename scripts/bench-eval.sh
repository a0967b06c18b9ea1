#!/usr/bin/env bash
# Benchmark for `ragsynth eval`: N queries × K retrieved each (default 100,000 × 100, a TREC run
# of 10 million lines) scored against TREC qrels, timed end to end (reading both files, judging,
# metrics, JSON report). When the Python package `pytrec_eval` is importable, the same files are
# scored with it in the same run and the ratio is printed.
#
#   scripts/bench-eval.sh                 # builds with `cargo build --release`
#   RAGSYNTH_BIN=path/to/ragsynth scripts/bench-eval.sh   # time an existing binary
#   N=10000 K=100 scripts/bench-eval.sh   # smaller
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-100000}
K=${K:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -z "${RAGSYNTH_BIN:-}" ]]; then
  cargo build --release --quiet --bin ragsynth
  RAGSYNTH_BIN="${CARGO_TARGET_DIR:-target}/release/ragsynth"
fi

echo "generating $N queries x $K retrieved in $work ..."
python3 - "$work" "$N" "$K" <<'PY'
import random, sys
work, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)
with open(f"{work}/qrels", "w") as qrels, open(f"{work}/run", "w") as run:
    for q in range(n):
        judged = [f"D{rng.randrange(1_000_000):07d}" for _ in range(8)]
        for d in dict.fromkeys(judged):
            qrels.write(f"Q{q} 0 {d} {rng.choice((0, 1, 1, 2))}\n")
        docs = dict.fromkeys(judged[:5] + [f"D{rng.randrange(1_000_000):07d}" for _ in range(k)])
        lines = []
        for rank, d in enumerate(list(docs)[:k], 1):
            # Two decimals: plenty of score ties, so the docid tie-break is exercised.
            lines.append(f"Q{q} Q0 {d} {rank} {rng.random() * 20:.2f} bench\n")
        run.writelines(lines)
PY
ls -l "$work/qrels" "$work/run" | awk '{print $5, $9}'

measures="-k 5,10,20"
echo "ragsynth eval ($RAGSYNTH_BIN):"
start=$(date +%s.%N)
/usr/bin/time -f "  max RSS %M KB, %e s wall, %U s user" \
  "$RAGSYNTH_BIN" eval "$work/qrels" --run "$work/run" $measures --format json --out "$work/per-question.jsonl" > "$work/report.json"
end=$(date +%s.%N)
ours=$(echo "$end - $start" | bc)
echo "  ragsynth: ${ours} s"
python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['metrics']; print('  MAP %.4f  MRR %.4f  nDCG@10 %.4f' % (m['MAP'], m['MRR'], m['nDCG@10']))" "$work/report.json"

if python3 -c "import pytrec_eval" 2>/dev/null; then
  python3 - "$work" "$ours" <<'PY'
import sys, time
import pytrec_eval
work, ours = sys.argv[1], float(sys.argv[2])
t0 = time.perf_counter()
qrel, run = {}, {}
with open(f"{work}/qrels") as f:
    for line in f:
        q, _, d, g = line.split()
        qrel.setdefault(q, {})[d] = int(g)
with open(f"{work}/run") as f:
    for line in f:
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
t1 = time.perf_counter()
ev = pytrec_eval.RelevanceEvaluator(qrel, {"P.5,10,20", "recall.5,10,20", "ndcg_cut.5,10,20", "recip_rank", "map"})
res = ev.evaluate(run)
t2 = time.perf_counter()
# ragsynth leaves out questions with no relevant document (unanswerable); so does this mean.
answerable = [q for q, docs in qrel.items() if any(g > 0 for g in docs.values())]
mean = lambda m: sum(res[q][m] for q in answerable) / len(answerable)
print(f"pytrec_eval: read {t1 - t0:.2f} s + evaluate {t2 - t1:.2f} s = {t2 - t0:.2f} s")
print(f"  MAP {mean('map'):.4f}  MRR {mean('recip_rank'):.4f}  nDCG@10 {mean('ndcg_cut_10'):.4f}")
print(f"ratio pytrec_eval / ragsynth: {(t2 - t0) / ours:.2f}x end to end, {(t2 - t1) / ours:.2f}x evaluate() alone")
PY
else
  echo "pytrec_eval not installed (pip install pytrec_eval-terrier): no ratio"
fi
