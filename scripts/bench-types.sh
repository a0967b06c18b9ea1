#!/usr/bin/env bash
# Issue 23's measure: per question type, how many planned cases `ragsynth generate` accepts and
# how many of those pass that type's verification when checked from the document text by a
# script independent of the generator (scripts/verify-cases.py: identifier in question and span,
# comparison sides in their spans, multi-hop bridge reached through hop 1 and not keyword-found
# by the question alone, lookup answer in its span, unanswerable without a label).
#
# Runs `generate -n N --mix $MIX` (one share per type) on the sample corpus, on Black's docs and
# on the two documentation corpora kept apart from tuning (flask, attrs; scripts/corpora.sh),
# then prints per corpus and type: accepted/planned, verified share, LLM calls per accepted case
# (from generate's --json summary) and the wall time, and the failed checks by name.
#
#   bash scripts/bench-types.sh [N=25] [OUT=~/.cache/ragsynth/bench/runs/types]
#
# A corpus whose set and summary are already in OUT is only measured again (delete them, or set
# FRESH=1, to generate anew); the LLM journal is kept per corpus in OUT/journal-NAME, so a
# rerun replays every answer instead of asking again.
#
# Env: RAGSYNTH_BIN (default: a release build of this checkout), MIX (default: every one of the
# design's five types at an even share; today's main knows lookup, multi_hop, unanswerable),
# CORPORA ("docs black flask attrs"), SEED (0), LLM (default: the built-in default model),
# FRESH (1: generate again even when OUT holds a set).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-25}
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
OUT=${2:-$CACHE/bench/runs/types}
MIX=${MIX:-lookup=1,identifier=1,comparison=1,multi_hop=1,unanswerable=1}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
mkdir -p "$OUT"
PY="$(bash scripts/bench-venv.sh)"

bash scripts/install-llm.sh >/dev/null
if [ -z "${RAGSYNTH_BIN:-}" ]; then
  cargo build --release --quiet --bin ragsynth
  RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
fi
export RAGSYNTH_BIN

for name in ${CORPORA:-docs black flask attrs}; do
  corpus="$(bash scripts/corpora.sh "$name")"
  set_file="$OUT/$name.yaml" summary="$OUT/$name.summary.json"
  if [ "${FRESH:-0}" = 1 ] || [ ! -s "$summary" ] || [ ! -f "$set_file" ]; then
    rm -f "$set_file" "$summary"
    llm_args=()
    [ -n "${LLM:-}" ] && llm_args=(--llm "$LLM")
    echo "bench-types: generating on $name ($corpus)" >&2
    "$RAGSYNTH_BIN" generate "$corpus" -o "$set_file" -n "$N" --seed "${SEED:-0}" --mix "$MIX" \
      --json --quiet --cache-dir "$OUT/journal-$name" "${llm_args[@]}" >"$summary.tmp"
    mv "$summary.tmp" "$summary"
  fi
  "$PY" scripts/verify-cases.py --set "$set_file" --corpus "$corpus" --summary "$summary" \
    --label "$name" --json "$OUT/$name.verify.json"
done
echo "sets, summaries and verifications: $OUT" >&2
