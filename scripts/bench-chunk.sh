#!/usr/bin/env bash
# Chunking benchmark.
#  1. A real public documentation tree: ~100 markdown files (~1 MB) taken from the README,
#     CHANGELOG and docs files of the crates in the local cargo registry (real-world Markdown,
#     present on any machine that has built ragsynth). Wall time + span invariant on every chunk.
#  2. Generated corpora of 10 MB and 100 MB (ragsynth's sample docs, varied): throughput in MB/s
#     and peak RSS, next to a baseline measured in the same run (`wc -m` reading the same files),
#     so the figures survive a noisy machine. Memory must track the largest document, not the
#     corpus: both corpora share the same largest document size.
# Usage: bash scripts/bench-chunk.sh [--quick]   (--quick: 10 MB only)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN="$(realpath "${CARGO_TARGET_DIR:-target}")/release/ragsynth"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

measure() { # prints "seconds maxrss_kb" for a command, output discarded
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr"; exit 1; }
  cat "$WORK/time"
}

echo "== real documentation tree"
python3 - "$WORK/real" <<'PY'
import os, shutil, sys, glob
out = sys.argv[1]
root = glob.glob(os.path.expanduser("~/.cargo/registry/src/*/"))[0]
files = sorted(p for p in glob.glob(root + "**/*.md", recursive=True) if os.path.getsize(p) > 2000)
picked, total = [], 0
for p in files:
    if len(picked) == 100 or total > 1_100_000: break
    if os.path.getsize(p) > 60_000: continue
    picked.append(p); total += os.path.getsize(p)
for p in picked:
    dst = os.path.join(out, os.path.relpath(p, root))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(p, dst)
print(f"{len(picked)} files, {total/1e6:.2f} MB")
PY
read -r secs rss < <(measure "$BIN" chunk --format jsonl "$WORK/real")
"$BIN" chunk --format jsonl "$WORK/real" >"$WORK/real.jsonl" 2>/dev/null
python3 - "$WORK/real" "$WORK/real.jsonl" <<'PY'
import json, sys
root, path = sys.argv[1:]
n = 0
for line in open(path, encoding="utf-8"):
    c = json.loads(line)
    text = open(f"{root}/{c['doc']}", encoding="utf-8", newline="").read()
    assert text[c["start"]:c["end"]] == c["text"], c["id"]
    n += 1
print(f"span invariant holds on all {n} chunks")
PY
echo "chunk (release): ${secs}s wall, peak RSS $((rss / 1024)) MB"

gen_corpus() { # dir megabytes
  python3 - "$1" "$2" <<'PY'
import os, random, sys, glob
out, mb = sys.argv[1], int(sys.argv[2])
src = [open(p, encoding="utf-8").read() for p in sorted(glob.glob("corpora/docs/**/*.md", recursive=True))]
rng = random.Random(7)
os.makedirs(out, exist_ok=True)
total, n = 0, 0
target = mb * 1_000_000
while total < target:
    # ~400 KB documents: memory should depend on this, not on the corpus size.
    parts = []
    size = 0
    while size < 400_000:
        t = rng.choice(src)
        t = t.replace("Tidepool", rng.choice(["Tidepool", "Tidepöol", "潮溜まり", "Tide pool"]))
        parts.append(t); size += len(t.encode())
    body = "\n\n".join(parts)
    with open(f"{out}/doc{n:05d}.md", "w", encoding="utf-8") as f:
        f.write(body)
    total += len(body.encode()); n += 1
print(f"{n} files, {total/1e6:.1f} MB")
PY
}

sizes=(10 100)
[ "${1:-}" = "--quick" ] && sizes=(10)
for mb in "${sizes[@]}"; do
  echo "== generated corpus, ${mb} MB"
  gen_corpus "$WORK/gen$mb" "$mb"
  bytes=$(cat "$WORK/gen$mb"/*.md | wc -c)
  read -r bsecs _ < <(measure sh -c "cat $WORK/gen$mb/*.md | wc -m")
  read -r secs rss < <(measure "$BIN" chunk --format jsonl "$WORK/gen$mb")
  python3 - "$bytes" "$secs" "$bsecs" "$rss" <<'PY'
import sys
b, s, bs, rss = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
mbps = b / 1e6 / max(s, 1e-3)
print(f"chunk: {mbps:.1f} MB/s ({s:.2f}s), baseline wc -m {b/1e6/max(bs,1e-3):.0f} MB/s ({bs:.2f}s), "
      f"ratio {s/max(bs,1e-3):.1f}x baseline; peak RSS {rss/1024:.0f} MB")
PY
  rm -rf "$WORK/gen$mb"
done
