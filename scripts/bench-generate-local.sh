#!/usr/bin/env bash
# What a keyless `ragsynth generate` gives with the default local model, measured on two corpora:
# the sample corpus (corpora/docs, written by us) and a public documentation corpus we did not
# write — the Markdown pages of the Black code formatter's documentation (`docs/*.md` of the
# black 24.10.0 source distribution, MIT licence; fetched once by scripts/corpora.sh, pinned and
# checked by size and sha256, kept outside the checkout).
#
# Per corpus: accepted / planned per kind, rejections by reason, questions with a reference to
# what the generator was shown (audit RS205), that give their answer away (RS207), duplicates
# (RS301/RS302), the share of answerable questions copying 5+ consecutive words of their source
# (RS101), LLM calls and prompt tokens per accepted case, calls per accepted lookup, and the
# wall time. Each run starts from an empty journal, so every call is really made.
#
#   bash scripts/bench-generate-local.sh [N=20] [OUT=$(mktemp -d)]
#
# Env: RAGSYNTH_BIN (default: a release build in the shared target folder), AUDIT_BIN (the binary
# whose audit counts the faults, RAGSYNTH_BIN by default: set it to today's build when measuring
# an older one, so both are judged by the same rules), LLM (default: the
# built-in default model), CORPORA ("docs black" by default), SEED (0), SHOW (questions printed
# per corpus, 5).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20}
OUT=${2:-$(mktemp -d)}
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
SHOW=${SHOW:-5}
mkdir -p "$OUT"

bash scripts/install-llm.sh >/dev/null
if [ -z "${RAGSYNTH_BIN:-}" ]; then
  cargo build --release --quiet --bin ragsynth
  RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
fi

corpus_of() {
  case "$1" in
    docs) echo corpora/docs ;;
    black | rustbook | flask | attrs | dl20 | hotpot) bash scripts/corpora.sh "$1" ;;
    *) echo "$1" ;;
  esac
}

printf '| corpus | accepted | lookup | multi-hop | unanswerable | meta ref | restates | duplicates | copy 5+ | calls/accepted | prompt tokens/accepted | calls/lookup | wall |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for name in ${CORPORA:-docs black}; do
  corpus="$(corpus_of "$name")"
  set_file="$OUT/$name.jsonl"
  rm -f "$set_file"
  llm_args=()
  [ -n "${LLM:-}" ] && llm_args=(--llm "$LLM")
  start=$(date +%s.%N)
  "$RAGSYNTH_BIN" generate "$corpus" -o "$set_file" -n "$N" --seed "${SEED:-0}" --json --quiet \
    --cache-dir "$OUT/journal-$name" "${llm_args[@]}" >"$OUT/$name.summary.json"
  end=$(date +%s.%N)
  "${AUDIT_BIN:-$RAGSYNTH_BIN}" audit "$set_file" --format json --fail-on never >"$OUT/$name.audit.json"
  python3 - "$name" "$OUT/$name.summary.json" "$OUT/$name.audit.json" "$set_file" "$start" "$end" "$SHOW" <<'PY'
import json, re, sys
name, summary, audit, cases, start, end, show = sys.argv[1:]
s = json.load(open(summary)); a = json.load(open(audit))
rows = [json.loads(l) for l in open(cases) if l.strip()]
cases = [c for c in rows if "question" in c]
kinds = s["by_type"]
def kind(k):
    f = kinds[k]; return f"{f['accepted']}/{f['planned']}"
by = {}
for f in a["findings"]:
    by.setdefault(f["code"], set()).add(f.get("case"))
answerable = [c for c in cases if c.get("relevant")]
copy5 = set()
for f in a["findings"]:
    m = re.match(r"copies (\d+) words", f.get("message", ""))
    if f["code"] == "RS101" and m and int(m.group(1)) >= 5:
        copy5.add(f["case"])
acc = s["accepted"] or 1
lookup = kinds["lookup"]
print(f"| {name} | {s['accepted']}/{sum(k['planned'] for k in kinds.values())} | {kind('lookup')} | {kind('multi_hop')} "
      f"| {kind('unanswerable')} | {len(by.get('RS205', ()))} | {len(by.get('RS207', ()))} "
      f"| {len(by.get('RS301', set()) | by.get('RS302', set()))} "
      f"| {len(copy5 & {c['id'] for c in answerable})}/{len(answerable)} "
      f"| {s['llm']['calls'] / acc:.2f} | {s['llm']['prompt_tokens'] / acc:.0f} "
      f"| {lookup['llm_calls'] / max(lookup['accepted'], 1):.2f} | {float(end) - float(start):.0f} s |")
sys.stderr.write(f"{name}: rejections {json.dumps(s['rejections'])}\n")
for c in cases[: int(show)]:
    sys.stderr.write(f"  [{c['tags']['type']}] {c['question']}" + (f"  -> {c.get('answer')}" if c.get("answer") else "") + "\n")
PY
done
echo "test sets, summaries and audits: $OUT" >&2
