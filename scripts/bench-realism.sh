#!/usr/bin/env bash
# Issue 22's measure: are the synthetic questions as hard for keyword search as the real ones?
# An independent bm25s index over the corpus split into blank-line paragraphs (not ragsynth's
# index) ranks each labelled case's paragraphs; per part (real, synthetic, synthetic per type):
# cases, MRR, hit@1 and mean words per question (scripts/realism.py). Then whether the issue's
# targets hold: synthetic MRR within 0.15 of real, mean words within 3, and (from generate's
# --json summary) >= 75% of planned accepted with every type present; and 20 synthetic
# questions printed beside 20 real ones, for reading.
#
#   bash scripts/bench-realism.sh --set FILE [--corpus DIR]    measure one set as it is
#   bash scripts/bench-realism.sh [OUT=~/.cache/ragsynth/bench/runs/realism]
#       the issue's runs: the sample corpus with its 24 real questions (`import
#       corpora/questions.csv`, then `generate -n 12` and, apart, `-n 30`), and TREC DL 2020
#       (scripts/corpora.sh dl20: its real queries, then `generate -n 30`)
#
# Each run has its folder in OUT (set, --json summary, LLM journal). A run whose set and summary
# are there is only measured again (FRESH=1 generates anew, replaying the journal).
#
# Env: RAGSYNTH_BIN (default: a release build of this checkout), RUNS ("docs-12 docs-30
# dl20-30": NAME-N with NAME docs or dl20), SEED (0), LLM (default: the built-in default model),
# SHOW (questions printed per part, 20), STEM (1: stem words in the index), FRESH.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
PY="$(bash scripts/bench-venv.sh)"
SHOW=${SHOW:-20}
stem=()
[ "${STEM:-0}" = 1 ] && stem=(--stem)

binary() {
  if [ -z "${RAGSYNTH_BIN:-}" ]; then
    cargo build --release --quiet --bin ragsynth
    RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
  fi
  export RAGSYNTH_BIN
}

if [ "${1:-}" = --set ]; then
  binary
  exec "$PY" scripts/realism.py "$@" --show "$SHOW" "${stem[@]}"
fi

OUT=${1:-$CACHE/bench/runs/realism}
mkdir -p "$OUT"
bash scripts/install-llm.sh >/dev/null
binary

# The run's starting set: the sample corpus's real questions, or DL20's set, its corpus root
# rewritten for the run folder.
start_set() { # name set_file
  case "$1" in
    docs) "$RAGSYNTH_BIN" import corpora/questions.csv --into "$2" --corpus corpora/docs >&2 ;;
    dl20)
      local src corpus
      src="$(bash scripts/corpora.sh dl20 --set)" corpus="$(bash scripts/corpora.sh dl20)"
      "$PY" - "$src" "$corpus" "$2" <<'PY'
import os, sys, yaml
src, corpus, dst = sys.argv[1:]
doc = yaml.safe_load(open(src, encoding="utf-8"))
doc["corpus"]["root"] = os.path.relpath(corpus, os.path.dirname(os.path.abspath(dst)))
open(dst, "w", encoding="utf-8").write(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
PY
      ;;
    *) echo "bench-realism: unknown corpus $1 (docs, dl20)" >&2; exit 1 ;;
  esac
}

for run in ${RUNS:-docs-12 docs-30 dl20-30}; do
  name="${run%-*}" n="${run##*-}" dir="$OUT/$run"
  mkdir -p "$dir"
  if [ "${FRESH:-0}" = 1 ] || [ ! -s "$dir/summary.json" ] || [ ! -f "$dir/set.yaml" ]; then
    rm -f "$dir/set.yaml" "$dir/summary.json"
    start_set "$name" "$dir/set.yaml"
    llm_args=()
    [ -n "${LLM:-}" ] && llm_args=(--llm "$LLM")
    echo "bench-realism: $run: generate -n $n" >&2
    "$RAGSYNTH_BIN" generate "$(bash scripts/corpora.sh "$name")" -o "$dir/set.yaml" -n "$n" \
      --seed "${SEED:-0}" --json --quiet --cache-dir "$dir/journal" "${llm_args[@]}" \
      >"$dir/summary.json.tmp"
    mv "$dir/summary.json.tmp" "$dir/summary.json"
  fi
  "$PY" scripts/realism.py --set "$dir/set.yaml" --summary "$dir/summary.json" --label "$run" \
    --show "$SHOW" --json "$dir/realism.json" "${stem[@]}"
  echo
done
echo "sets, summaries and figures: $OUT" >&2
