#!/usr/bin/env bash
# Checks that `ragsynth calibrate` reproduces the built-in table (the default local model's row,
# `MEASURED` in src/judge/calibration.rs) within sampling error: it measures every judge of the
# default model on SQuAD 2.0's "Normans" article ($RAGSYNTH_SHARED_DATA/squad2, else
# ../shared/data/squad2; the data the table was measured on, --no-hand-marks), keeps nothing
# (--dry-run), and for each judge of the table says whether the table's kappa lies in the 95%
# interval measured. Answers are journaled under OUT, so a
# second run is free. Extra arguments go to `ragsynth calibrate` (e.g. --limit 40, --judge NAME).
#
#   bash scripts/calibrate-judges.sh [OUT] [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
out="${1:-$CACHE/calibrate-judges}"
shift || true
data="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}/squad2"
[ -d "$data" ] || { echo "calibrate-judges: no SQuAD 2.0 data in $data" >&2; exit 1; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
bash scripts/install-llm.sh >/dev/null
cargo build --release --quiet --bin ragsynth
mkdir -p "$out"
"$CARGO_TARGET_DIR/release/ragsynth" calibrate --llm llamacpp --squad "$data" --no-hand-marks --json --dry-run \
  --cache-dir "$out/journal" "$@" >"$out/calibrate.json"
python3 - "$out/calibrate.json" src/judge/calibration.rs <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
table = re.findall(r'judge: "(\w+)",\s*model: DEFAULT_MODEL,\s*prompt: "([^"]+)",\s*n: (\d+),\s*kappa: ([-\d.]+)',
                   open(sys.argv[2]).read())
print(f"{report['model']}: the built-in table against calibrate on SQuAD 2.0 (95% interval)\n")
failed = 0
for judge, prompt, n, kappa in table:
    if report["prompts"].get(judge) != prompt:
        print(f"  {judge}: the table names {prompt}, the template is {report['prompts'].get(judge)}: re-measure")
        failed += 1
        continue
    rows = [r for r in report["rows"] if r["judge"] == judge and r["source"].startswith("squad2")]
    if not rows:
        print(f"  {judge}: not measured (--judge?)")
        continue
    a = rows[0]["agreement"]
    lo, hi = a["ci"] or (None, None)
    ok = lo is not None and lo <= float(kappa) <= hi
    failed += not ok
    print(f"  {judge:<10} table κ {float(kappa):.2f} (n {n})   measured κ {a['kappa']:.2f} [{lo:.2f}, {hi:.2f}] (n {a['n']})   {'reproduced' if ok else 'NOT REPRODUCED'}")
sys.exit(1 if failed else 0)
PY
