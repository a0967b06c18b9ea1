#!/usr/bin/env bash
# The README's run command: installs the local LLM (llama-server + SmolLM2, cached under
# ~/.cache/ragsynth), generates synthetic cases from the sample corpus, audits them when the
# `audit` subcommand exists, and says where the result is. No API key needed.
#
#   bash scripts/demo.sh [N=12]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-12}
OUT=output/testset.yaml

bash scripts/install-llm.sh
cargo build --release --quiet --bin ragsynth
bin=${CARGO_TARGET_DIR:-target}/release/ragsynth

"$bin" generate corpora/docs -o "$OUT" -n "$N"
if "$bin" audit --help >/dev/null 2>&1; then
  # Findings (exit 2) are the point of the demo, not a failure.
  "$bin" audit "$OUT" || [ $? -eq 2 ]
fi
echo
echo "test set: $OUT (synthetic cases are tagged source: synthetic, review: pending)"
