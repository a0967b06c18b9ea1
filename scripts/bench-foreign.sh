#!/usr/bin/env bash
# Benchmarks locating another tool's whole-document contexts: a Ragas-style export of 40
# cases (30 single-hop, 10 multi-hop over two documents: 50 contexts) whose every context is
# a whole document of a generated corpus of a few MB, as another converter would extract it
# (Markdown marks and link targets gone, lines reflowed, a word hyphenated at a line end every
# ~300 words, one word in ~200 misspelt). Measures `ragsynth audit <export> --corpus DIR` and
# `ragsynth import`, wall time and peak RSS, and prints the share of contexts located.
# A baseline in the same run: `ragsynth chunk` over the same corpus (walk, read, chunk).
# RAGSYNTH_BEFORE=path also times another build's audit of the same export (e.g. the commit
# before this work).
#
# usage: scripts/bench-foreign.sh [WORKDIR]   (RAGSYNTH_BIN=path to skip `cargo build --release`;
#        DOCS=number of documents, default 150, ~20 KB each)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d)}"
docs="${DOCS:-150}"
if [[ -z "${RAGSYNTH_BIN:-}" ]]; then
  cargo build --release --quiet
  RAGSYNTH_BIN="${CARGO_TARGET_DIR:-target}/release/ragsynth"
fi

python3 - "$docs" "$work" <<'PY'
import json, os, random, re, sys
n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(11)
syll = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "da", "fe", "gu", "hi", "ba", "ce"]
vocab = sorted({"".join(rng.choice(syll) for _ in range(rng.randint(2, 4))) for _ in range(60000)})[:40000]
weights = [1 / (i + 1) for i in range(len(vocab))]
stop = ["the", "of", "and", "to", "in", "is", "for", "on", "with", "as", "a", "by"]
def words(k):
    return [rng.choice(stop) if rng.random() < 0.3 else w for w in rng.choices(vocab, weights, k=k)]
os.makedirs(f"{out}/corpus", exist_ok=True)
texts = []
for d in range(n):
    parts = [f"# Document {d} {' '.join(words(3)).title()}\n"]
    while sum(len(p) for p in parts) < 20000:
        ws = words(rng.randint(50, 90))
        for i in rng.sample(range(len(ws)), 3):
            ws[i] = f"**{ws[i]}**"
        if rng.random() < 0.3:
            i = rng.randrange(len(ws))
            ws[i] = f"[{ws[i]}](https://example.org/{ws[i]}/{rng.randint(1, 999)})"
        line, lines = [], []
        for w in ws:
            line.append(w)
            if len(" ".join(line)) > 70:
                lines.append(" ".join(line)); line = []
        lines.append(" ".join(line))
        parts.append("\n".join(lines) + ".\n")
        if rng.random() < 0.15:
            parts.append(f"\n## {' '.join(words(4)).title()}\n")
    text = "\n".join(parts)
    open(f"{out}/corpus/doc{d:04d}.md", "w").write(text)
    texts.append(text)

def extracted(text):
    t = re.sub(r"\]\([^)]*\)", "]", text)
    t = re.sub(r"[#*\[\]]", "", t)
    ws = t.split()
    out, col = [], 0
    for i, w in enumerate(ws):
        if rng.random() < 0.005 and len(w) > 3:
            w = w[:-1] + rng.choice("xyz")
        if i % 300 == 299 and len(w) > 5:
            out.append(w[:3] + "-\n" + w[3:]); continue
        out.append(w)
    lines, line = [], []
    for w in out:
        line.append(w)
        if len(" ".join(line)) > 90:
            lines.append(" ".join(line)); line = []
    lines.append(" ".join(line))
    return "\n".join(lines)

rows = []
for i in range(40):
    if i < 30:
        ctx = [extracted(texts[rng.randrange(n)])]
        kind = "single_hop_specific_query_synthesizer"
    else:
        a, b = rng.sample(range(n), 2)
        ctx = [f"<1-hop>\n\n{extracted(texts[a])}", f"<2-hop>\n\n{extracted(texts[b])}"]
        kind = "multi_hop_specific_query_synthesizer"
    rows.append({"user_input": " ".join(words(9)).capitalize() + "?", "reference_contexts": ctx,
                 "reference": " ".join(words(12)), "synthesizer_name": kind})
with open(f"{out}/export.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY

measure() { # command... -> "wall_s rss_kb"
  local log
  log="$(mktemp)"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || [[ $? -eq 2 ]] || { cat "$log" >&2; exit 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
  rm -f "$log"
  echo "$wall $rss"
}

size=$(du -sb "$work/corpus" | awk '{print $1}')
echo "corpus: $docs documents, $(echo "$size/1048576" | bc -l | xargs printf '%.1f') MB; export: 40 cases, 50 whole-document contexts"
printf '%-28s %8s %12s\n' step wall_s peak_rss_mb
read -r base r < <(measure "$RAGSYNTH_BIN" chunk "$work/corpus")
printf '%-28s %8.2f %12.0f\n' "chunk (baseline)" "$base" "$(echo "$r/1024" | bc -l)"
read -r w r < <(measure "$RAGSYNTH_BIN" audit "$work/export.jsonl" --corpus "$work/corpus" --format json --fail-on never)
printf '%-28s %8.2f %12.0f\n' "audit export" "$w" "$(echo "$r/1024" | bc -l)"
audit_wall="$w"
rm -f "$work/set.yaml"
read -r w r < <(measure "$RAGSYNTH_BIN" import "$work/export.jsonl" --into "$work/set.yaml" --corpus "$work/corpus")
printf '%-28s %8.2f %12.0f\n' "import export" "$w" "$(echo "$r/1024" | bc -l)"
"$RAGSYNTH_BIN" import "$work/export.jsonl" --into "$work/check.yaml" --corpus "$work/corpus" --dry-run | grep '^contexts:'
# The figure to compare across machines: audit time over the baseline's, both from this run.
echo "audit / baseline: $(echo "$audit_wall / ($base + 0.001)" | bc -l | xargs printf '%.1f')x (goal: audit < 10 s)"
if [[ -n "${RAGSYNTH_BEFORE:-}" ]]; then
  read -r w r < <(measure timeout 1800 "$RAGSYNTH_BEFORE" audit "$work/export.jsonl" --corpus "$work/corpus" --format json --fail-on never)
  printf '%-28s %8.2f %12.0f\n' "audit export (before)" "$w" "$(echo "$r/1024" | bc -l)"
fi
