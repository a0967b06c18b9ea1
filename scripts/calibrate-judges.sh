#!/usr/bin/env bash
# Measures the LLM judges (answerability, support, one passage of a two-passage question)
# against labelled public data — SQuAD 2.0 and HotpotQA in ../shared/data — and prints the
# judge table in docs/benchmarks.md: accuracy and Cohen's kappa per judge. Answers are journaled under
# OUT, so a second run is free.
#
#   bash scripts/calibrate-judges.sh [OUT] [--llm SPEC] [--limit N]
#   (data: $RAGSYNTH_SHARED_DATA or ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/calibrate-judges}"
shift || true
export RAGSYNTH_SHARED_DATA="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}"
[ -d "$RAGSYNTH_SHARED_DATA/squad2" ] || { echo "calibrate-judges: no data in $RAGSYNTH_SHARED_DATA" >&2; exit 1; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/target}"
bash scripts/install-llm.sh >/dev/null
cargo run --release --quiet --example calibrate_judges -- --cache-dir "$out" "$@"
