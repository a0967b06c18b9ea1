#!/usr/bin/env bash
# The README's demo command, for a fresh machine with no API key: installs the local LLM
# (llama-server + Qwen2.5-Coder-1.5B, cached under ~/.cache/ragsynth), builds ragsynth (into the
# same cached build folder the tests use), imports the sample's real questions, generates
# synthetic cases from the sample corpus next to them, audits the result (terminal report and a
# one-file HTML report) and says what happened and where everything is.
#
#   bash scripts/demo.sh [N=12]
#
# It talks: each long step says what it does and about how long it takes before it starts, and
# a line appears at least every 20 seconds while it runs (the build's and generate's own
# progress, or a "still ..." line), so a pipe or a log never looks hung.
#
# DEMO_JOURNAL=DIR keeps the LLM answers there instead of the shared journal (a fresh folder
# makes every call again: scripts/readme-demo.sh uses that for the figures in
# docs/benchmarks.md). RAGSYNTH_MODEL=smollm2 runs the small plumbing model instead of the
# default (fast, but its questions are not usable).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-12}
OUT=output/testset.yaml
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
journal=()
[ -n "${DEMO_JOURNAL:-}" ] && journal=(--cache-dir "$DEMO_JOURNAL")

say() { printf '\n==> %s\n' "$*"; }

# Runs a command while printing "still <what> (N s)" every 20 s, for steps whose own output can
# pause for minutes (compiling one large crate, building llama-server). The lines go to the
# demo's stdout: silence the command inside it, never the call (`with_heartbeat ... >/dev/null`
# would silence the heartbeat too).
with_heartbeat() {
  local what=$1; shift
  local start; start=$(date +%s)
  ( while sleep 20; do echo "    ... still $what ($(($(date +%s) - start)) s)"; done ) &
  local beat=$!
  local rc=0
  "$@" || rc=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  return "$rc"
}

t0=$(date +%s)
if [ -x "$CACHE/bin/llama-server" ] && [ -f "$CACHE/models/Qwen2.5-Coder-1.5B-Instruct.Q4_K_M.gguf" ]; then
  say "the local LLM is installed (under $CACHE)"
else
  say "installing the local LLM: llama-server and Qwen2.5-Coder-1.5B (first time only; about 5 min to build the server on 2 cores, and a 1.1 GB download)"
fi
# The installer's stdout is the paths it installed to; its progress goes to stderr.
install_llm() { bash scripts/install-llm.sh >/dev/null; }
with_heartbeat "installing the local LLM" install_llm
t1=$(date +%s)
say "building ragsynth in release mode (about 5 min on a fresh machine, seconds when it is built)"
with_heartbeat "building ragsynth" cargo build --release --bin ragsynth
bin=$CARGO_TARGET_DIR/release/ragsynth
t2=$(date +%s)

# A demo starts from the sample's real questions: generation shows a few as style examples,
# and audit compares synthetic with real.
say "importing the sample's 24 real questions into $OUT"
rm -f "$OUT"
"$bin" import corpora/questions.csv --into "$OUT" --corpus corpora/docs
say "generating $N synthetic cases from corpora/docs with the local model (about 3-6 min on 2 cores; the model starts first)"
"$bin" generate corpora/docs -o "$OUT" -n "$N" "${journal[@]}" --json >output/generate-summary.json
t3=$(date +%s)
say "auditing $OUT (a few seconds)"
"$bin" audit "$OUT" --format html -o output/report.html --fail-on never
# Findings (exit 2) are the point of the demo, not a failure.
"$bin" audit "$OUT" || [ $? -eq 2 ]

python3 - "$OUT" output/generate-summary.json <<'PY'
import json, re, sys
summary = json.load(open(sys.argv[2]))
kinds = summary["by_type"]
planned = sum(k["planned"] for k in kinds.values())
print()
print(f"generated: {summary['accepted']} of {planned} planned cases accepted "
      + ", ".join(f"{name} {k['accepted']}/{k['planned']}" for name, k in kinds.items())
      + f"; {summary['llm']['calls']} LLM calls, {summary['wall_seconds']:.0f} s")
fix = summary.get("to_fix")
if fix and summary["accepted"]:
    span = f"{fix['at_tuned']}" if fix["at_tuned"] == fix["at_held_out"] else f"{fix['at_tuned']} to {fix['at_held_out']}"
    print(f"review them: expect to fix about {span} of the {summary['accepted']} with the default model "
          + f"({fix['wrong_tuned']:.0%} of its accepted cases are wrong on the docs it was tuned on, "
          + f"{fix['wrong_held_out']:.0%} on others); a stronger model is one flag away: --llm (docs/llm.md)")
if summary["rejections"]:
    print("rejected candidates: " + ", ".join(f"{r} {n}" for r, n in sorted(summary["rejections"].items(), key=lambda x: -x[1])))
# The first questions of the new (pending) cases, as a reviewer will see them.
text = open(sys.argv[1]).read()
shown = 0
for block in text.split("\n  - id: ")[1:]:
    if "review: pending" not in block or shown == 5:
        continue
    q = re.search(r"^    question: (.*)$", block, re.M)
    t = re.search(r"type: (\w+)", block)
    if q and t:
        print(f"  [{t.group(1)}] {q.group(1).strip()}")
        shown += 1
PY
echo
echo "timings: install $((t1 - t0)) s, build $((t2 - t1)) s, import + generate $((t3 - t2)) s"
accepted=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["accepted"])' output/generate-summary.json)
if [ "$accepted" -gt 0 ]; then
  echo "test set:     $OUT ($accepted new synthetic cases, pending review, next to the real ones)"
else
  # Say what happened: the set holds only the imported real questions.
  echo "test set:     $OUT (no synthetic case was accepted; it holds the imported real questions)"
fi
echo "audit report: output/report.html (open it in a browser)"
echo "review the new cases (accept, reject or edit them) on a local page:"
echo "next:         $bin review $OUT --open"
