#!/usr/bin/env bash
# The README's run command, for a fresh machine with no API key: installs the local LLM
# (llama-server + SmolLM2, cached under ~/.cache/ragsynth), imports the sample's real questions,
# generates synthetic cases from the sample corpus next to them, audits the result (terminal
# report and a one-file HTML report) and says where everything is.
#
#   bash scripts/demo.sh [N=12]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-12}
OUT=output/testset.yaml

bash scripts/install-llm.sh >/dev/null
cargo build --release --quiet --bin ragsynth
bin=${CARGO_TARGET_DIR:-target}/release/ragsynth

# Real questions first: generation shows a few as style examples, and audit compares the two.
"$bin" import corpora/questions.csv --into "$OUT" --corpus corpora/docs
"$bin" generate corpora/docs -o "$OUT" -n "$N"
"$bin" audit "$OUT" --format html -o output/report.html --fail-on never
# Findings (exit 2) are the point of the demo, not a failure.
"$bin" audit "$OUT" || [ $? -eq 2 ]
echo
echo "test set:     $OUT (new cases: source: synthetic, review: pending)"
echo "audit report: output/report.html (open it in a browser)"
echo "next:         $bin review $OUT   # accept, reject or edit the pending cases"
