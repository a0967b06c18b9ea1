#!/usr/bin/env bash
# Non-English corpora end to end, on XQuAD (../shared/data/xquad: the same 240 Wikipedia
# paragraphs and 1,190 crowd questions in English, Spanish, German and Chinese).
#
#   bash scripts/bench-languages.sh [N] [OUT]
#
# 1. The audit's rules per language: the rule x language table docs/benchmarks.md quotes (the test
#    tests/languages_xquad.rs, which asserts the overlap rules agree with English).
# 2. Keyless generation with the default local model on a Spanish and a German corpus built from
#    the XQuAD paragraphs (one Markdown file per article): accepted questions by type, and how
#    many of them the audit reads as the corpus's language.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20}
OUT=${2:-$(mktemp -d)}
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
DATA="${RAGSYNTH_SHARED_DATA:-../shared/data}/xquad"
[ -f "$DATA/xquad.es.json" ] || { echo "bench-languages: $DATA/xquad.es.json not found" >&2; exit 1; }
mkdir -p "$OUT"

if [ -z "${SKIP_AUDIT:-}" ]; then
  cargo test --release --quiet --test languages_xquad -- --nocapture 2>/dev/null | grep -E '^\||^(en|es|de|zh):'
fi
[ -n "${SKIP_GENERATE:-}" ] && exit 0

bash scripts/install-llm.sh >/dev/null
cargo build --release --quiet --bin ragsynth
BIN="$CARGO_TARGET_DIR/release/ragsynth"

printf '\n| corpus | accepted | lookup | multi-hop | unanswerable | in the corpus language | wall |\n|---|---|---|---|---|---|---|\n'
for lang in ${LANGS:-es de}; do
  corpus="$OUT/xquad-$lang"
  rm -rf "$corpus" && mkdir -p "$corpus"
  python3 - "$DATA/xquad.$lang.json" "$corpus" <<'PY'
import json, re, sys
data, out = sys.argv[1:]
for a in json.load(open(data))["data"]:
    name = re.sub(r"[^A-Za-z0-9]+", "-", a["title"]).strip("-").lower() or "article"
    paras = "\n\n".join(p["context"] for p in a["paragraphs"])
    open(f"{out}/{name}.md", "w").write(f"# {a['title'].replace('_', ' ')}\n\n{paras}\n")
PY
  set_file="$OUT/$lang.jsonl"
  rm -f "$set_file"
  start=$(date +%s)
  "$BIN" generate "$corpus" -o "$set_file" -n "$N" --seed "${SEED:-0}" --json --quiet \
    --cache-dir "$OUT/journal-$lang" >"$OUT/$lang.summary.json"
  end=$(date +%s)
  "$BIN" audit "$set_file" --format json --fail-on never >"$OUT/$lang.audit.json"
  python3 - "$lang" "$OUT/$lang.summary.json" "$OUT/$lang.audit.json" "$set_file" "$((end - start))" <<'PY'
import json, re, sys
lang, summary, audit, cases, wall = sys.argv[1:]
s = json.load(open(summary)); a = json.load(open(audit))
k = s["by_type"]
cell = lambda t: f"{k[t]['accepted']}/{k[t]['planned']}"
code = {"es": "Spanish", "de": "German"}[lang]
total = s["accepted"]
ours = 0
for n in a["summary"]["notes"]:
    m = re.match(r"(\d+) question\(s\) in (\w+)", n)
    if m and m.group(2) == code:
        ours = int(m.group(1))
if not any(n.startswith(f"{total} question(s)") or "question(s) in" in n for n in a["summary"]["notes"]):
    ours = 0
print(f"| xquad-{lang} | {total}/{sum(v['planned'] for v in k.values())} | {cell('lookup')} | {cell('multi_hop')} | {cell('unanswerable')} | {ours}/{total} | {wall} s |")
sys.stderr.write(f"{lang}: rejections {json.dumps(s['rejections'])}\n")
for line in open(cases):
    c = json.loads(line)
    if "question" in c:
        sys.stderr.write(f"  [{c['tags']['type']}] {c['question']}" + (f"  -> {c.get('answer')}" if c.get("answer") else "") + "\n")
PY
done
echo "test sets, summaries and audits: $OUT" >&2
