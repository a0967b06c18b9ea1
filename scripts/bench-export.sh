#!/usr/bin/env bash
# Loads every `ragsynth export` format in its tool's own loader and prints what each loaded:
# Ragas `EvaluationDataset.from_jsonl`, DeepEval `add_goldens_from_json_file`, Giskard
# `QATestset.load`, and promptfoo's own test-case schema (TestCaseSchema, the zod schema its
# config loader validates `tests:` with); the flat jsonl with Python's json module.
#
#   bash scripts/bench-export.sh [OUT]        (OUT: where the exports go; default a temp dir)
#
# Each tool is installed once into its own virtual environment under
# ~/.cache/ragsynth/export-bench (never in the checkout), pinned by version; the tool's own
# package file is downloaded first and checked by size and sha256 before it is installed (its
# dependencies are resolved by pip / npm). RAGSYNTH_BIN picks the binary (default: a debug
# build into the shared build folder).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
BENCH="$CACHE/export-bench"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$BENCH" "$OUT"

# name version file size sha256 extras [dependency pins]. Ragas 0.4.3 imports a module that
# langchain-community removed in 0.4; giskard.rag needs giskard's `llm` extra, and Giskard's
# numpy 1 needs a pyarrow (and a datasets) from before numpy 2.
PINS=(
  "ragas 0.4.3 ragas-0.4.3-py3-none-any.whl 466452 ef1d75f674c294e9a6e7d8e9ad261b6bf4697dad1c9cbd1a756ba7a6b4849a38 - langchain-community==0.3.31"
  "deepeval 4.3.1 deepeval-4.3.1-py3-none-any.whl 1523958 a269343d74232b43aa75501d77b21bfacbad2701f3134a5ad76589489e0b7789 -"
  "giskard 2.19.2 giskard-2.19.2-py3-none-any.whl 557161 344c60475cd338fc4c3391d07e27f2a3a0db6de4ff7b7696e0c6876c1e79ad9d llm pyarrow==18.1.0 datasets==3.6.0"
)
PROMPTFOO="promptfoo 0.123.1 promptfoo-0.123.1.tgz 6669286 53471b239132b5e7a270fda458f78a1f1b920abb617ef4dc2b096608d480ee2f"

check() { # file size sha256
  local got_size got_sha
  got_size=$(stat -c %s "$1")
  got_sha=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got_size" != "$2" ] || [ "$got_sha" != "$3" ]; then
    echo "bench-export: error: $1 has $got_size bytes, sha256 $got_sha; expected $2 bytes, sha256 $3" >&2
    exit 1
  fi
}

install_python_tool() { # name version file size sha256 extras [dependency pins]
  local venv="$BENCH/$1-$2"
  [ -f "$venv/ok" ] && return
  echo "installing $1 $2 into $venv (a few minutes the first time)..."
  local dl; dl=$(mktemp -d)
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip download --quiet --no-deps "$1==$2" -d "$dl"
  check "$dl/$3" "$4" "$5"
  local wheel="$dl/$3"
  [ "$6" != - ] && wheel="$wheel[$6]"
  "$venv/bin/python" -m pip install --quiet "$wheel" "${@:7}"
  rm -rf "$dl"
  local probe=$1
  [ "$1" = giskard ] && probe=giskard.rag
  "$venv/bin/python" -c "import $probe" && touch "$venv/ok"
}

install_promptfoo() { # name version file size sha256
  local dir="$BENCH/$1-$2"
  [ -f "$dir/ok" ] && return
  echo "installing $1 $2's schema into $dir..."
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "$1@$2" >/dev/null)
  check "$dir/$3" "$4" "$5"
  tar xzf "$dir/$3" -C "$dir"
  # The schema module imports these; promptfoo's other 70-odd dependencies (a database, every
  # provider's SDK) are not needed to validate a tests file.
  local deps; deps=$(cd "$dir/package" && node -e '
    const d = require("./package.json").dependencies;
    console.log(["zod", "dedent", "drizzle-orm", "winston", "chalk", "dotenv", "cli-progress", "js-yaml", "nunjucks", "semver"].filter(n => d[n]).map(n => n + "@" + d[n]).join(" "))')
  (cd "$dir/package" && npm install --silent --no-audit --no-fund --ignore-scripts --no-save $deps >/dev/null)
  touch "$dir/ok"
}

for pin in "${PINS[@]}"; do install_python_tool $pin; done
install_promptfoo $PROMPTFOO

if [ -z "${RAGSYNTH_BIN:-}" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
  cargo build --bin ragsynth
  RAGSYNTH_BIN="$CARGO_TARGET_DIR/debug/ragsynth"
fi

# Two sets: the answers fixture (lookup, identifier, multi-hop, two unanswerable; corpus root
# made absolute), and the sample's 24 real questions imported (quotes located, the rest with
# candidate labels: exported with --include-pending).
docs="$PWD/corpora/docs"
sed "s|root: ../../../corpora/docs|root: $docs|" tests/fixtures/answers/testset.yaml >"$OUT/fixture.yaml"
rm -f "$OUT/questions.yaml"
"$RAGSYNTH_BIN" import corpora/questions.csv --into "$OUT/questions.yaml" --corpus "$docs" >/dev/null

for set in fixture questions; do
  extra=()
  [ "$set" = questions ] && extra=(--include-pending)
  for to in ragas deepeval giskard promptfoo jsonl; do
    ext=jsonl; [ "$to" = deepeval ] || [ "$to" = promptfoo ] && ext=json
    "$RAGSYNTH_BIN" export "$OUT/$set.yaml" --to "$to" -o "$OUT/$set.$to.$ext" "${extra[@]}" 2>>"$OUT/export.log"
  done
  echo "== $set.yaml: $(grep -c '^  - id:' "$OUT/$set.yaml") cases; $(grep "for jsonl" "$OUT/export.log" | tail -1 | sed 's/^note: //')"

  "$BENCH/ragas-0.4.3/bin/python" - "$OUT/$set.ragas.jsonl" <<'PY'
import sys
from ragas import EvaluationDataset
d = EvaluationDataset.from_jsonl(sys.argv[1])
s = d.samples
print(f"ragas 0.4.3     EvaluationDataset.from_jsonl: {len(s)} samples ({type(s[0]).__name__}), "
      f"{sum(len(x.reference_contexts or []) for x in s)} reference contexts, "
      f"{sum(1 for x in s if not x.reference_contexts)} without (unanswerable), "
      f"{sum(1 for x in s if x.reference)} with a reference")
PY
  "$BENCH/deepeval-4.3.1/bin/python" - "$OUT/$set.deepeval.json" <<'PY'
import sys
from deepeval.dataset import EvaluationDataset
d = EvaluationDataset()
d.add_goldens_from_json_file(sys.argv[1])
g = d.goldens
print(f"deepeval 4.3.1  add_goldens_from_json_file: {len(g)} goldens, "
      f"{sum(len(x.context or []) for x in g)} contexts, "
      f"{sum(1 for x in g if not x.context)} without (unanswerable), "
      f"{sum(1 for x in g if x.expected_output)} with expected_output, "
      f"{sum(1 for x in g if (x.additional_metadata or {}).get('id'))} with our id")
PY
  "$BENCH/giskard-2.19.2/bin/python" - "$OUT/$set.giskard.jsonl" <<'PY'
import sys
from giskard.rag import QATestset
t = QATestset.load(sys.argv[1])
df = t.to_pandas()
types = df["metadata"].map(lambda m: m["question_type"]).value_counts().to_dict()
print(f"giskard 2.19.2  QATestset.load: {len(t)} questions, question_type {types}, "
      f"{int((df['reference_context'] == '').sum())} with no reference context")
PY
  (cd "$BENCH/promptfoo-0.123.1/package/dist/src" && node --input-type=module - "$OUT/$set.promptfoo.json" <<'JS'
import fs from "fs";
const files = fs.readdirSync(".").filter(f => /^tables-.*\.js$/.test(f));
let schema;
for (const f of files) {
  const src = fs.readFileSync(f, "utf8");
  if (!src.includes("const TestCaseSchema = ")) continue;
  // The bundle keeps TestCaseSchema private: export it from a copy of the module.
  const copy = f.replace(/\.js$/, ".schema.mjs");
  fs.writeFileSync(copy, src + "\nexport { TestCaseSchema as __TestCaseSchema };\n");
  schema = (await import("./" + copy)).__TestCaseSchema;
  break;
}
const tests = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
let ok = 0, asserts = {}, contexts = 0;
for (const [i, t] of tests.entries()) {
  const r = schema.safeParse(t);
  if (!r.success) { console.error(`test ${i}: ${r.error.message}`); process.exit(1); }
  ok++;
  for (const a of t.assert || []) asserts[a.type] = (asserts[a.type] || 0) + 1;
  contexts += (t.metadata.reference_contexts || []).length;
}
console.log(`promptfoo 0.123.1 TestCaseSchema: ${ok} of ${tests.length} tests valid, asserts ${JSON.stringify(asserts)}, ${contexts} reference contexts`);
JS
  )
  python3 - "$OUT/$set.jsonl.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"jsonl           json.loads: {len(rows)} records, {sum(len(r['contexts']) for r in rows)} contexts, "
      f"{sum(r['unanswerable'] for r in rows)} unanswerable")
PY
done
echo "exports in $OUT"
