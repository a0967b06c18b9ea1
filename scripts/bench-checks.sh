#!/usr/bin/env bash
# Measures generate's checks on people-written cases (issue 67): builds the sets once
# (scripts/make-check-sets.py, into ~/.cache/ragsynth/bench/check-sets), runs
# `ragsynth check SET --json` on every set, and scores the results (scripts/bench-checks.py):
# right cases turned away per family, type and code; corrupted cases caught per corruption and
# code. Prints the Markdown report; the JSON and each set's results go to OUT.
#
#   bash scripts/bench-checks.sh [--out DIR] [--label L] [--csv FILE [--built-from DIR]]
#                                [-- CHECK-ARGS...]
#   bash scripts/bench-checks.sh --verify [--out DIR]   today's scripts/verify-cases.py instead of
#                                                       `check` (each failed sub-check a code)
#   bash scripts/bench-checks.sh --build                 build the sets only
#   bash scripts/bench-checks.sh --self-test             the scorer's and corruptions' tests
#
# --csv FILE also writes docs/checks-measured.csv (one row per check of `check --list`, on the
# families the checks were not written from, with the held-out rejection marks of one build:
# REJECTION_MARKS, default benches/correctness/heldout/db2556d, the newest marked; an earlier
# build's marks hold many of the same candidates and would count them twice); its `#` lines record this command, the date and, with
# --built-from, the commit of the checkout the binary was built from (`git -C DIR`).
#
# CHECK-ARGS go to every `ragsynth check` call (e.g. `-- --llm llamacpp`). `check` may exit 0
# or 2 (cases it would turn away); anything else stops the run. Env: RAGSYNTH_BIN (default
# `ragsynth` on PATH), CHECK_SETS (the sets' folder), SHARED_DATA (../shared/data),
# RAGSYNTH_CACHE (~/.cache/ragsynth). OUT defaults to $RAGSYNTH_CACHE/bench/check-runs/<label>.
set -euo pipefail
# The command as given, for the CSV's record; paths given relative to where it was run.
command_line="bash $0$(printf ' %q' "$@")"
start="$PWD"
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
SETS="${CHECK_SETS:-$CACHE/bench/check-sets}"
BIN="${RAGSYNTH_BIN:-ragsynth}"
if [ -z "${SHARED_DATA:-}" ]; then
  SHARED_DATA="$(pwd)/../shared/data"
  [ -d "$SHARED_DATA" ] || SHARED_DATA="$(pwd)/../../shared/data"
fi
die() { echo "bench-checks: $*" >&2; exit 1; }

mode=check out="" label="" csv="" built_from=""
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$start/$1" ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --self-test) mode=self-test ;;
    --build) mode=build ;;
    --verify) mode=verify ;;
    --out) out="$(absolute "${2:?--out DIR}")"; shift ;;
    --csv) csv="$(absolute "${2:?--csv FILE}")"; shift ;;
    --built-from) built_from="$(absolute "${2:?--built-from DIR}")"; shift ;;
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
if [ -n "$csv" ]; then
  # The CSV is every check's figure: a run without some checks, or of verify-cases.py, is not.
  [ "$mode" = check ] || die "--csv measures \`ragsynth check\`, not --$mode"
  for arg in "$@"; do
    case "$arg" in --skip|--skip=*) die "--csv measures every check: drop --skip" ;; esac
  done
  if [ -n "$built_from" ]; then
    commit="$(git -C "$built_from" rev-parse --short HEAD)" || die "$built_from: not a git checkout"
    [ -z "$(git -C "$built_from" status --porcelain --untracked-files=no)" ] \
      || commit="$commit plus uncommitted changes"
  fi
fi
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
csv_args=()
if [ -n "$csv" ]; then
  "$BIN" check --list >"$out/check-list.txt"
  # Which checks `check` leaves out (construction, a judge without a calibrated --llm): its text
  # report says so; read on the smallest set, after the runs (an LLM's answers are journalled).
  small="$("$PY" -c 'import json, sys
print(min(json.load(open(sys.argv[1]))["sets"], key=lambda s: s["cases"])["path"])' \
    "$SETS/manifest.json")"
  rc=0
  "$BIN" check "$SETS/$small" "$@" >"$out/not-run.txt" 2>"$out/not-run.stderr" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 2 ] || die "$small: ragsynth check exited $rc"
  grep -q '^not run: ' "$out/not-run.txt" || die "$small: check's report names no check not run"
  [ -s "$out/not-run.stderr" ] || rm -f "$out/not-run.stderr"
  not_run="$(sed -n 's/^not run: \([^(]*\).*/\1/p' "$out/not-run.txt")"
  csv_args=(--csv "$csv" --check-list "$out/check-list.txt" --not-run "$not_run"
    --marks "${REJECTION_MARKS:-benches/correctness/heldout/db2556d}"
    --note "Command (in the repository): RAGSYNTH_BIN=<a release build> $command_line"
    --note "Binary: $("$BIN" --version), built from commit ${commit:-unknown (no --built-from)}."
    --note "Date: $(date +%F).")
fi
"$PY" scripts/bench-checks.py score --sets "$SETS" --results "$out/results" \
  --json "$out/scores.json" --label "$label" \
  --matrix hotpot:multi_hop --matrix hotpot:comparison "${csv_args[@]}" | tee "$out/scores.md"
echo "bench-checks: $out/scores.md, $out/scores.json${csv:+, $csv}" >&2
