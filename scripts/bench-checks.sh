#!/usr/bin/env bash
# Measures generate's checks on people-written cases (issue 67): builds the sets once
# (scripts/make-check-sets.py, into ~/.cache/ragsynth/bench/check-sets), runs
# `ragsynth check SET --json` on every set, and scores the results (scripts/bench-checks.py):
# right cases turned away per family, type and code; corrupted cases caught per corruption and
# code. Prints the Markdown block for docs/checks.md; the JSON and each set's results go to OUT.
#
#   bash scripts/bench-checks.sh [--out DIR] [--label L] [-- CHECK-ARGS...]
#   bash scripts/bench-checks.sh --verify [--out DIR]   today's scripts/verify-cases.py instead of
#                                                       `check` (each failed sub-check a code)
#   bash scripts/bench-checks.sh --build                 build the sets only
#   bash scripts/bench-checks.sh --self-test             the scorer's and corruptions' tests
#
# CHECK-ARGS go to every `ragsynth check` call (e.g. `-- --llm llamacpp`). `check` may exit 0
# or 2 (cases it would turn away); anything else stops the run. Env: RAGSYNTH_BIN (default
# `ragsynth` on PATH), CHECK_SETS (the sets' folder), SHARED_DATA (../shared/data),
# RAGSYNTH_CACHE (~/.cache/ragsynth). OUT defaults to $RAGSYNTH_CACHE/bench/check-runs/<label>.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
SETS="${CHECK_SETS:-$CACHE/bench/check-sets}"
BIN="${RAGSYNTH_BIN:-ragsynth}"
if [ -z "${SHARED_DATA:-}" ]; then
  SHARED_DATA="$(pwd)/../shared/data"
  [ -d "$SHARED_DATA" ] || SHARED_DATA="$(pwd)/../../shared/data"
fi
die() { echo "bench-checks: $*" >&2; exit 1; }

mode=check out="" label=""
while [ $# -gt 0 ]; do
  case "$1" in
    --self-test) mode=self-test ;;
    --build) mode=build ;;
    --verify) mode=verify ;;
    --out) out="${2:?--out DIR}"; shift ;;
    --label) label="${2:?--label L}"; shift ;;
    --) shift; break ;;
    *) die "unknown option $1" ;;
  esac
  shift
done
PY="$(bash scripts/bench-venv.sh)"
export PYTHONPATH="$(pwd)/scripts"
if [ "$mode" = self-test ]; then
  exec "$PY" scripts/bench-checks.py --self-test
fi
command -v "$BIN" >/dev/null || die "no ragsynth binary: set RAGSYNTH_BIN"
export RAGSYNTH_BIN="$BIN"
if [ ! -f "$SETS/manifest.json" ]; then
  [ -d "$SHARED_DATA" ] || die "$SHARED_DATA is missing (set SHARED_DATA)"
  rm -rf "$SETS"
  "$PY" scripts/make-check-sets.py "$SHARED_DATA" "$SETS" >&2
fi
[ "$mode" = build ] && { echo "$SETS"; exit 0; }
label="${label:-$mode-$("$BIN" --version | tr ' ' '-')}"
out="${out:-$CACHE/bench/check-runs/$label}"
mkdir -p "$out/results"
mapfile -t paths < <("$PY" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["sets"]: print(s["path"])' "$SETS/manifest.json")
for path in "${paths[@]}"; do
  res="$out/results/${path%.yaml}.jsonl"
  mkdir -p "$(dirname "$res")"
  if [ "$mode" = verify ]; then
    "$PY" scripts/verify-cases.py --set "$SETS/$path" --all --json "$res.verify.json" >/dev/null
    "$PY" scripts/bench-checks.py from-verify --verify "$res.verify.json" --out "$res"
  else
    rc=0
    "$BIN" check "$SETS/$path" --json "$@" >"$res.tmp" 2>"$res.stderr" || rc=$?
    [ "$rc" = 0 ] || [ "$rc" = 2 ] \
      || die "$path: ragsynth check exited $rc: $(tail -3 "$res.stderr")"
    mv "$res.tmp" "$res"
    [ -s "$res.stderr" ] || rm -f "$res.stderr"
  fi
  echo "bench-checks: $path done" >&2
done
"$PY" scripts/bench-checks.py score --sets "$SETS" --results "$out/results" \
  --json "$out/scores.json" --label "$label" \
  --matrix hotpot:multi_hop --matrix hotpot:comparison | tee "$out/scores.md"
echo "bench-checks: $out/scores.md, $out/scores.json" >&2
