#!/usr/bin/env bash
# Safety figures, each beside a baseline measured in the same run:
#
#  1. Peak memory (RSS, /usr/bin/time -v) of `ragsynth audit` on a YAML alias bomb — one 1 MB
#     anchored scalar and 1,000 aliases of it, 1.05 MB on disk — against the same file with the
#     scalar written once and no aliases.
#  2. Wall time of `ragsynth audit` on a plain export whose one context (8, 16, 32 and 100 KB)
#     does not match the corpus exactly (a word in every ~700 characters replaced), against the
#     same context copied exactly.
#
#   bash scripts/bench-safety.sh                         # release build of this tree
#   RAGSYNTH_BIN=/path/to/ragsynth bash scripts/bench-safety.sh   # another binary (e.g. main)
#
# Each figure is the median wall time and the largest peak RSS of REPEAT runs (default 3); a run
# is cut off after LIMIT seconds (default 300) and then reported as "> LIMIT s".
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-300}
bin=${RAGSYNTH_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet --bin ragsynth
  bin=${CARGO_TARGET_DIR:-target}/release/ragsynth
fi
bin=$(realpath "$bin")
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, os, random, sys
work = sys.argv[1]
blob = "x" * (1 << 20)
head = "ragsynth: 1\ncases:\n  - id: c1\n    question: What is kept?\n    relevant: []\n"
with open(f"{work}/alias.yaml", "w") as f:
    f.write(f"blob: &b \"{blob}\"\nrepeat: [" + ", ".join(["*b"] * 1000) + "]\n" + head)
with open(f"{work}/plain.yaml", "w") as f:
    f.write(f"blob: \"{blob}\"\nrepeat: [" + ", ".join(["1"] * 1000) + "]\n" + head)
# A corpus of one 300 KB document of prose-like text from a fixed vocabulary.
rng = random.Random(7)
vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(4000)]
words, size = [], 0
while size < 300_000:
    w = rng.choice(vocab) + ("." if rng.random() < 0.08 else "")
    words.append(w)
    size += len(w) + 1
doc = " ".join(words)
os.makedirs(f"{work}/corpus")
with open(f"{work}/corpus/doc.md", "w") as f:
    f.write(doc)
for kb in (8, 16, 32, 100):
    start = 50_000
    exact = doc[start:start + kb * 1000]
    out, since = [], 0
    for w in exact.split(" "):
        since += len(w) + 1
        if since >= 700:
            since = 0
            out.append("changed")
        else:
            out.append(w)
    for name, ctx in (("exact", exact), ("fuzzy", " ".join(out))):
        with open(f"{work}/{name}-{kb}.jsonl", "w") as f:
            f.write(json.dumps({"question": "What does the long passage say?", "context": ctx}) + "\n")
PY

# run ARGS...: median wall time and largest peak RSS of REPEAT runs (default 3) of one command,
# or "> LIMIT s" when a run is cut off (no repeat then).
run() {
  local status i
  : >"$work/times.txt"
  for i in $(seq "${REPEAT:-3}"); do
    status=0
    timeout "$LIMIT" /usr/bin/time -v "$bin" "$@" >/dev/null 2>"$work/time.txt" || status=$?
    if [ "$status" -eq 124 ]; then
      printf '> %s s (cut off)\n' "$LIMIT"
      return
    fi
    cat "$work/time.txt" >>"$work/times.txt"
    echo "--- run end" >>"$work/times.txt"
  done
  python3 - "$work/times.txt" <<'PY'
import re, statistics, sys
runs = open(sys.argv[1]).read().split("--- run end")[:-1]
walls, rss = [], []
for t in runs:
    h, m, s = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", t).groups()
    walls.append(int(h or 0) * 3600 + int(m) * 60 + float(s))
    rss.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024)
t = runs[-1]
err = [l for l in t.splitlines() if l.startswith("error")]
lost = " (context NOT located)" if "not found" in t else ""
print(f"{statistics.median(walls):.2f} s, {max(rss):.0f} MB{lost}" + (f"  [{err[0][:100]}]" if err else ""))
PY
}

echo "binary: $bin"
echo
echo "1. YAML alias bomb (1 MB scalar x 1,000 aliases, $(du -k "$work/alias.yaml" | cut -f1) KB): audit"
printf '   %-34s %s\n' "baseline (same size, no aliases):" "$(cd "$work" && run audit plain.yaml)"
printf '   %-34s %s\n' "alias bomb:" "$(cd "$work" && run audit alias.yaml)"
echo
echo "2. Locating one long context that does not match exactly: audit --corpus"
for kb in 8 16 32 100; do
  printf '   %3s KB  exact (baseline): %-24s reworded: %s\n' "$kb" \
    "$(cd "$work" && run audit "exact-$kb.jsonl" --corpus corpus --fail-on never)" \
    "$(cd "$work" && run audit "fuzzy-$kb.jsonl" --corpus corpus --fail-on never)"
done
