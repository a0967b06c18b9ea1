#!/usr/bin/env bash
# Issue 26's measure: the share of accepted cases that are right (answer, label and question all
# hold), marked by hand on public corpora we did not write (Black's docs and five chapters of The
# Rust Programming Language; scripts/corpora.sh). Three steps:
#
#   bash scripts/bench-correctness.sh generate [CORPUS...]   (a) `generate -n $N --seed $SEED`
#       per corpus into OUT/CORPUS/set.yaml, with its --json summary and LLM journal beside it;
#       then mark each case in `ragsynth review OUT/CORPUS/set.yaml` (accept = right, reject =
#       wrong, with the reason; an edit counts as wrong)
#   bash scripts/bench-correctness.sh marks CORPUS [SET]     (b) writes the reviewed set's marks
#       to benches/correctness/CORPUS.marks.jsonl, kept in the repo (scripts/marks.py)
#   bash scripts/bench-correctness.sh report [CORPUS...]     (c) per corpus: accepted/planned and
#       the share right, from the marks file and the set (by id, else by question text); marks
#       without a case and cases without a mark are listed
#
# CORPUS: black and rustbook by default; any name of scripts/corpora.sh. The held-out half
# (pgauth, pino; marks in benches/correctness/heldout/, MARKS=benches/correctness/heldout/BUILD)
# measures a change on cases no check was written from; benches/correctness/README.md says which
# corpora are which. A corpus whose set is already in OUT is not generated again (FRESH=1 does,
# replaying the journal).
#
# Env: RAGSYNTH_BIN (default: a release build of this checkout), OUT (default
# ~/.cache/ragsynth/bench/runs/correctness), N (20), SEED (0), LLM (default: the built-in default
# model), MARKS (folder of the marks files, benches/correctness), FRESH.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
OUT="${OUT:-$CACHE/bench/runs/correctness}"
MARKS="${MARKS:-benches/correctness}"
PY="$(bash scripts/bench-venv.sh)"
step="${1:?usage: bench-correctness.sh generate|marks|report [CORPUS...]}"
shift

case "$step" in
  generate)
    bash scripts/install-llm.sh >/dev/null
    if [ -z "${RAGSYNTH_BIN:-}" ]; then
      cargo build --release --quiet --bin ragsynth
      RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
    fi
    for name in ${*:-black rustbook}; do
      dir="$OUT/$name"
      mkdir -p "$dir"
      if [ "${FRESH:-0}" = 1 ] || [ ! -s "$dir/summary.json" ] || [ ! -f "$dir/set.yaml" ]; then
        rm -f "$dir/set.yaml" "$dir/summary.json"
        llm_args=()
        [ -n "${LLM:-}" ] && llm_args=(--llm "$LLM")
        "$RAGSYNTH_BIN" generate "$(bash scripts/corpora.sh "$name")" -o "$dir/set.yaml" \
          -n "${N:-20}" --seed "${SEED:-0}" --json --quiet --cache-dir "$dir/journal" \
          "${llm_args[@]}" >"$dir/summary.json.tmp"
        mv "$dir/summary.json.tmp" "$dir/summary.json"
      fi
      echo "$name: $dir/set.yaml; mark it with: $RAGSYNTH_BIN review $dir/set.yaml" >&2
    done
    ;;
  marks)
    name="${1:?usage: bench-correctness.sh marks CORPUS [SET]}"
    "$PY" scripts/marks.py write --set "${2:-$OUT/$name/set.yaml}" \
      --marks "$MARKS/$name.marks.jsonl"
    ;;
  report)
    echo "| corpus | accepted/planned | marked | right | share right | cases without a mark" \
      "| marks without a case |"
    echo "|---|---|---|---|---|---|---|"
    for name in ${*:-black rustbook}; do
      summary=()
      [ -f "$OUT/$name/summary.json" ] && summary=(--summary "$OUT/$name/summary.json")
      "$PY" scripts/marks.py report --set "$OUT/$name/set.yaml" --marks "$MARKS/$name.marks.jsonl" \
        --label "$name" "${summary[@]}"
    done
    ;;
  *) echo "bench-correctness: unknown step $step (generate, marks, report)" >&2; exit 1 ;;
esac
