#!/usr/bin/env bash
# Benchmarks `ragsynth audit` on generated data: N chunks of corpus and N cases, for N = 10,000
# and 100,000 (override with SIZES="..."). Reports wall time, cases/s and peak RSS (from
# /usr/bin/time -v) per size, the 100k/10k time ratio (1.0 x 10 = linear), and as a baseline
# measured in the same run, `ragsynth chunk` over the same corpus (walk + read + chunk only).
# A last row audits the first 10% of the largest set's cases against its whole corpus, which
# splits the growth in two: in cases at a fixed corpus (last row vs largest) and in corpus
# size at a fixed number of cases (last row vs smallest).
#
# Data: documents of 20 paragraphs (~450 characters each, one chunk each under the header's
# chunking: text splitter, 500 characters, no overlap) over a Zipf-distributed vocabulary of
# 50,000 made-up words; questions of 6-14 words, half copied from a run of their paragraph,
# half drawn from the paragraph's words and the vocabulary; 5% unanswerable, 2% duplicates.
#
# usage: scripts/bench-audit.sh [WORKDIR]   (RAGSYNTH_BIN=path to skip `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d)}"
sizes="${SIZES:-10000 100000}"
if [[ -z "${RAGSYNTH_BIN:-}" ]]; then
  cargo build --release --quiet
  RAGSYNTH_BIN="${CARGO_TARGET_DIR:-target}/release/ragsynth"
fi

generate() { # n dir
  python3 - "$1" "$2" <<'PY'
import json, os, random, sys
n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
syll = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "da", "fe", "gu", "hi"]
vocab = sorted({"".join(rng.choice(syll) for _ in range(rng.randint(2, 4))) for _ in range(60000)})[:50000]
weights = [1 / (i + 1) for i in range(len(vocab))]
stop = ["the", "of", "and", "to", "in", "is", "for", "on", "with", "as"]
def words(k):
    return [rng.choice(stop) if rng.random() < 0.3 else w for w in rng.choices(vocab, weights, k=k)]
os.makedirs(f"{out}/corpus", exist_ok=True)
per_doc = 20
cases = []
for d in range(n // per_doc):
    paras = []
    for p in range(per_doc):
        ws = words(rng.randint(60, 70))
        paras.append(" ".join(ws)[:440].rsplit(" ", 1)[0] + ".")
    text = "\n\n".join(paras) + "\n"
    path = f"d{d // 1000:03d}/doc{d:06d}.txt"
    os.makedirs(f"{out}/corpus/d{d // 1000:03d}", exist_ok=True)
    open(f"{out}/corpus/{path}", "w").write(text)
    pos = 0
    for p, para in enumerate(paras):
        start, end = pos, pos + len(para)
        pos = end + 2
        ws = para.rstrip(".").split()
        k = rng.randint(6, 14)
        if rng.random() < 0.5:
            i = rng.randrange(max(1, len(ws) - k))
            q = ws[i:i + k]
        else:
            q = rng.sample(ws, min(k // 2, len(ws))) + words(k - k // 2)
        case = {"id": f"c{len(cases):06d}", "question": " ".join(q).capitalize() + "?",
                "relevant": [{"doc": path, "start": start, "end": end, "quote": para[:40]}],
                "tags": {"type": "lookup", "topic": f"t{d % 17}", "source": "synthetic" if rng.random() < 0.8 else "real"}}
        r = rng.random()
        if r < 0.05:
            case["relevant"], case["tags"]["type"] = [], "unanswerable"
            case["question"] = " ".join(words(k)).capitalize() + "?"
        elif r < 0.07 and cases:
            case["question"] = cases[-1]["question"]
        cases.append(case)
with open(f"{out}/testset.jsonl", "w") as f:
    f.write(json.dumps({"ragsynth": 1, "corpus": {"root": "corpus"},
        "chunking": {"splitter": "text", "unit": "chars", "size": 500, "overlap": 0}}) + "\n")
    for c in cases[:n]:
        f.write(json.dumps(c) + "\n")
PY
}

measure() { # label command...
  local log
  log="$(mktemp)"
  /usr/bin/time -v "${@:2}" >/dev/null 2>"$log" || [[ $? -eq 2 ]]
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
  echo "$1 $wall $rss"
  rm -f "$log"
}

printf '%-8s %-10s %9s %9s %11s %10s\n' size step wall_s cases/s peak_rss_mb chunks
declare -A walls
for n in $sizes; do
  dir="$work/n$n"
  [[ -f "$dir/testset.jsonl" ]] || generate "$n" "$dir"
  read -r _ cwall crss < <(measure chunk "$RAGSYNTH_BIN" chunk "$dir/corpus" --splitter text --size 500 --overlap 0)
  read -r _ wall rss < <(measure audit "$RAGSYNTH_BIN" audit "$dir/testset.jsonl" --format json --fail-on never)
  chunks=$("$RAGSYNTH_BIN" audit "$dir/testset.jsonl" --format json --fail-on never --select RS601 | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["chunks"])')
  walls[$n]=$wall
  printf '%-8s %-10s %9.1f %9s %11.0f %10s\n' "$n" "chunk" "$cwall" "-" "$(echo "$crss/1024" | bc -l)" "$chunks"
  printf '%-8s %-10s %9.1f %9.0f %11.0f %10s\n' "$n" "audit" "$wall" "$(echo "$n/$wall" | bc -l)" "$(echo "$rss/1024" | bc -l)" "$chunks"
done
set -- $sizes
if [[ $# -ge 2 ]]; then
  small=$1 large=${!#}
  part=$(( large / 10 ))
  dir="$work/n$large"
  head -n $(( part + 1 )) "$dir/testset.jsonl" >"$dir/testset-part.jsonl"
  read -r _ wall rss < <(measure audit "$RAGSYNTH_BIN" audit "$dir/testset-part.jsonl" --format json --fail-on never)
  printf '%-8s %-10s %9.1f %9.0f %11.0f %10s\n' "$part" "audit" "$wall" "$(echo "$part/$wall" | bc -l)" "$(echo "$rss/1024" | bc -l)" "$large"
  ratio() { echo "$1/$2" | bc -l | xargs printf '%.1f'; }
  echo "time ratio $large/$small cases and chunks: $(ratio "${walls[$large]}" "${walls[$small]}") (size ratio $(( large / small )))"
  echo "  cases x10 at $large chunks: $(ratio "${walls[$large]}" "$wall"); chunks x$(( large / small )) at $part cases: $(ratio "$wall" "${walls[$small]}")"
fi
