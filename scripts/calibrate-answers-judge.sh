#!/usr/bin/env bash
# Measures the answers-the-question judge (judge_answers.j2, audit RS509) against labelled public
# data — XQuAD and SQuAD 2.0 in ../shared/data: each question with its own answer and sentence,
# and with another question's answer from the same paragraph and that answer's sentence — and
# prints accuracy and Cohen's kappa per set (tune: XQuAD articles 0-23; held-out: XQuAD 24-47
# and SQuAD 2.0 "Normans"; hand: cases generation wrote). Answers are journaled under OUT, so a
# second run is free.
#
#   bash scripts/calibrate-answers-judge.sh [OUT] [--set tune|held-out|hand|all] [--limit N]
#       [--offset N] [--llm SPEC] [--show]
#   (data: $RAGSYNTH_SHARED_DATA or ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/calibrate-answers-judge}"
shift || true
export RAGSYNTH_SHARED_DATA="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}"
[ -d "$RAGSYNTH_SHARED_DATA/xquad" ] || { echo "calibrate-answers-judge: no data in $RAGSYNTH_SHARED_DATA" >&2; exit 1; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/target}"
bash scripts/install-llm.sh >/dev/null
cargo run --release --quiet --example calibrate_answers_judge -- --cache-dir "$out" "$@"
