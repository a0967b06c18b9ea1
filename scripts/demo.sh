#!/usr/bin/env bash
# The README's demo command, for a fresh machine with no API key: installs the local LLM
# (llama-server + Qwen2.5-Coder-1.5B, cached under ~/.cache/ragsynth), builds ragsynth (into the
# same cached build folder the tests use), imports the sample's real questions, generates
# synthetic cases from the sample corpus next to them, audits the result (terminal report and a
# one-file HTML report) and says what happened and where everything is.
#
#   bash scripts/demo.sh [N=12]
#
# DEMO_JOURNAL=DIR keeps the LLM answers there instead of the shared journal (a fresh folder
# makes every call again: scripts/readme-demo.sh uses that for the figures in docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-12}
OUT=output/testset.yaml
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
journal=()
[ -n "${DEMO_JOURNAL:-}" ] && journal=(--cache-dir "$DEMO_JOURNAL")

t0=$(date +%s)
bash scripts/install-llm.sh >/dev/null
t1=$(date +%s)
cargo build --release --quiet --bin ragsynth
bin=$CARGO_TARGET_DIR/release/ragsynth
t2=$(date +%s)

# A demo starts from the sample's real questions: generation shows a few as style examples,
# and audit compares synthetic with real.
rm -f "$OUT"
"$bin" import corpora/questions.csv --into "$OUT" --corpus corpora/docs
"$bin" generate corpora/docs -o "$OUT" -n "$N" "${journal[@]}" --json --quiet >output/generate-summary.json
t3=$(date +%s)
"$bin" audit "$OUT" --format html -o output/report.html --fail-on never
# Findings (exit 2) are the point of the demo, not a failure.
"$bin" audit "$OUT" || [ $? -eq 2 ]

python3 - "$OUT" output/generate-summary.json <<'PY'
import json, re, sys
summary = json.load(open(sys.argv[2]))
kinds = summary["by_type"]
planned = sum(k["planned"] for k in kinds.values())
print()
print(f"generated: {summary['accepted']} of {planned} planned cases accepted "
      + ", ".join(f"{name} {k['accepted']}/{k['planned']}" for name, k in kinds.items())
      + f"; {summary['llm']['calls']} LLM calls, {summary['wall_seconds']:.0f} s")
if summary["rejections"]:
    print("rejected candidates: " + ", ".join(f"{r} {n}" for r, n in sorted(summary["rejections"].items(), key=lambda x: -x[1])))
# The first questions of the new (pending) cases, as a reviewer will see them.
text = open(sys.argv[1]).read()
shown = 0
for block in text.split("\n  - id: ")[1:]:
    if "review: pending" not in block or shown == 5:
        continue
    q = re.search(r"^    question: (.*)$", block, re.M)
    t = re.search(r"type: (\w+)", block)
    if q and t:
        print(f"  [{t.group(1)}] {q.group(1).strip()}")
        shown += 1
PY
echo
echo "timings: install $((t1 - t0)) s, build $((t2 - t1)) s, import + generate $((t3 - t2)) s"
accepted=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["accepted"])' output/generate-summary.json)
if [ "$accepted" -gt 0 ]; then
  echo "test set:     $OUT ($accepted new synthetic cases, pending review, next to the real ones)"
else
  # Say what happened: the set holds only the imported real questions.
  echo "test set:     $OUT (no synthetic case was accepted; it holds the imported real questions)"
fi
echo "audit report: output/report.html (open it in a browser)"
echo "next:         $bin review $OUT   # accept, reject or edit the cases that wait for a person"
