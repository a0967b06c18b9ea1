#!/usr/bin/env bash
# Issue 69's measure: does the synthetic part of a set rank the retrievers a team chooses between
# the way its real part does? Seven systems (BM25 with stopwords removed, stemmed, stopwords kept,
# over 40-word windows; multilingual-e5-small on chunks and on 40-word windows; hybrid RRF of BM25
# and e5) each write a run over the set (scripts/bench-ranking.py), and `ragsynth eval SET --run
# ... --run ...` ranks them on the real and on the synthetic questions: both rankings, Kendall
# τ-b with its bootstrap interval, the winners. Printed after it: the dense−BM25 gap (e5 minus
# bm25) on each part, and how far each is from the issue's target (τ-b ≥ 0.7, the same winner,
# the synthetic gap within 0.05 of the real one).
#
#   bash scripts/bench-ranking.sh --set FILE [--corpus DIR]    measure one set as it is
#   bash scripts/bench-ranking.sh [OUT=~/.cache/ragsynth/bench/runs/ranking]
#       the issue's runs: TREC DL 2020 (scripts/corpora.sh dl20: its 52 labelled real queries)
#       and the sample corpus (its 24 real questions, imported as scripts/demo.sh does), each
#       with `generate -n 50` beside the real questions
#
# Each run has its folder in OUT (set, generate's --json summary, LLM journal, runs/, the ranking
# as ranking.json). A run whose set and summary are there is only measured again (FRESH=1
# generates anew, replaying the journal). Questions of every split are ranked (--split all):
# with fifty synthetic cases, leaving the held-out fifth out costs τ more than it protects.
#
# Env: RAGSYNTH_BIN (default: a release build of this checkout), RUNS ("dl20-50 docs-50"),
# SEED (0), LLM (default: the built-in default model), METRIC (mrr), RESAMPLES (2000), FRESH,
# E5_THREADS (1: threads of the embedding model; more only helps on an idle machine), E5_WINDOWS
# (1; 0 leaves e5 over 40-word windows out: six systems, a third of the embedding). The first
# DL 2020 run embeds its ~5,400 passages and ~11,200 windows once, about 0.15 s of CPU each
# (some forty CPU-minutes; hours when two cores are shared by many jobs), cached by text under
# $RAGSYNTH_CACHE/bench/e5, where later runs and concurrent ones find them.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
PY="$(bash scripts/bench-venv.sh)"

binary() {
  if [ -z "${RAGSYNTH_BIN:-}" ]; then
    cargo build --release --quiet --bin ragsynth
    RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
  fi
  export RAGSYNTH_BIN
}

# Runs every system over SET (its chunks as the units) into DIR/runs, then ranks them.
measure() { # set dir [corpus]
  local set="$1" dir="$2" corpus_args=()
  [ -n "${3:-}" ] && corpus_args=(--corpus "$3")
  mkdir -p "$dir/runs"
  local corpus="${3:-}"
  if [ -z "$corpus" ]; then
    corpus="$("$PY" -c 'import os, sys, yaml
s = sys.argv[1]; root = yaml.safe_load(open(s, encoding="utf-8"))["corpus"]["root"]
print(os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(s)), root)))' "$set")"
  fi
  "$RAGSYNTH_BIN" chunk "$corpus" --format jsonl >"$dir/chunks.jsonl"
  "$PY" scripts/bench-ranking.py "$set" "$dir/chunks.jsonl" "$dir/runs"
  local runs=()
  for s in bm25 bm25-stem bm25-stopwords bm25-40w e5 e5-40w hybrid; do
    # e5-40w is left out with E5_WINDOWS=0 (a stale run file of it too).
    [ "$s" = e5-40w ] && [ "${E5_WINDOWS:-1}" = 0 ] && continue
    runs+=(--run "$s=$dir/runs/$s.jsonl")
  done
  # The synthetic cases are ranked as generated, before review (they are `pending`).
  local eval_args=("$set" "${runs[@]}" "${corpus_args[@]}" --split all --include-pending
    --metric "${METRIC:-mrr}" --resamples "${RESAMPLES:-2000}")
  "$RAGSYNTH_BIN" eval "${eval_args[@]}" --format json >"$dir/ranking.json"
  "$RAGSYNTH_BIN" eval "${eval_args[@]}"
  "$PY" - "$dir/ranking.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
v = {s["name"]: s for s in r["systems"]}
gap = {p: v["e5"][p]["value"] - v["bm25"][p]["value"] for p in ("real", "synthetic")}
tau = r["kendall_tau_b"]["value"]
print(f"dense−BM25 gap (e5 − bm25, {r['metric']}): real {gap['real']:+.3f}, "
      f"synthetic {gap['synthetic']:+.3f} (difference {gap['synthetic'] - gap['real']:+.3f})")
ok = [tau is not None and tau >= 0.7, r["winners"]["same"], abs(gap["synthetic"] - gap["real"]) <= 0.05]
print("target (τ-b ≥ 0.7, same winner, gap within 0.05): "
      + ", ".join("met" if o else "not met" for o in ok))
PY
}

if [ "${1:-}" = --set ]; then
  binary
  set_file="$2"
  corpus=""
  [ "${3:-}" = --corpus ] && corpus="$4"
  measure "$set_file" "$(dirname "$set_file")/ranking" "$corpus"
  exit
fi

OUT=${1:-$CACHE/bench/runs/ranking}
mkdir -p "$OUT"
bash scripts/install-llm.sh >/dev/null
binary

# The run's starting set: DL 2020's real queries (its corpus root rewritten for the run
# folder), or the sample corpus's imported real questions.
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
    *) echo "bench-ranking: unknown corpus $1 (docs, dl20)" >&2; exit 1 ;;
  esac
}

for run in ${RUNS:-dl20-50 docs-50}; do
  name="${run%-*}" n="${run##*-}" dir="$OUT/$run"
  mkdir -p "$dir"
  if [ "${FRESH:-0}" = 1 ] || [ ! -s "$dir/summary.json" ] || [ ! -f "$dir/set.yaml" ]; then
    rm -f "$dir/set.yaml" "$dir/summary.json"
    start_set "$name" "$dir/set.yaml"
    llm_args=()
    [ -n "${LLM:-}" ] && llm_args=(--llm "$LLM")
    echo "bench-ranking: $run: generate -n $n (long on the local model: an hour or more on two busy cores)" >&2
    "$RAGSYNTH_BIN" generate "$(bash scripts/corpora.sh "$name")" -o "$dir/set.yaml" -n "$n" \
      --seed "${SEED:-0}" --json --quiet --cache-dir "$dir/journal" "${llm_args[@]}" \
      >"$dir/summary.json.tmp"
    mv "$dir/summary.json.tmp" "$dir/summary.json"
  fi
  echo "== $run" >&2
  measure "$dir/set.yaml" "$dir"
  echo
done
echo "sets, summaries, runs and rankings: $OUT" >&2
