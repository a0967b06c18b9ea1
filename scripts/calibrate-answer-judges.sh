#!/usr/bin/env bash
# Measures the answer judges of `eval --answers --llm` (correct, refused, grounded) against
# answers of known truth built from SQuAD 2.0 in ../shared/data, and prints the table in docs/benchmarks.md:
# accuracy and Cohen's kappa per judge (and of the lexical refusal detector). Answers are
# journaled under OUT, so a second run is free.
#
#   bash scripts/calibrate-answer-judges.sh [OUT] [--llm SPEC] [--limit N]
#   (data: $RAGSYNTH_SHARED_DATA or ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/calibrate-answer-judges}"
shift || true
export RAGSYNTH_SHARED_DATA="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}"
[ -d "$RAGSYNTH_SHARED_DATA/squad2" ] || { echo "calibrate-answer-judges: no data in $RAGSYNTH_SHARED_DATA" >&2; exit 1; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/target}"
bash scripts/install-llm.sh >/dev/null
cargo run --release --quiet --example calibrate_answer_judges -- --cache-dir "$out" "$@"
