#!/usr/bin/env bash
# Safety figures, each beside a baseline measured in the same run:
#
#  1. Peak memory (RSS, /usr/bin/time -v) of `ragsynth audit` on a YAML alias bomb — one 1 MB
#     anchored scalar and 1,000 aliases of it, 1.05 MB on disk — against the same file with the
#     scalar written once and no aliases.
#  2. Wall time of `ragsynth audit` on a plain export whose one context (8, 16, 32 and 100 KB)
#     does not match the corpus exactly (a word in every ~700 characters replaced), against the
#     same context copied exactly.
#  3. Issue 66's probes, each against servers on 127.0.0.1 only (scripts/safety_server.py):
#     what a cloned repository's ragsynth.toml can run and send; what promptfoo would execute in
#     an export; what a redirect does to a question; which secrets reach journal.jsonl and
#     errors.jsonl; peak memory of huge, endless and context-heavy replies and of a `--cmd` that
#     writes without a newline; chunking time of one-line files; what a timed-out `--cmd`
#     leaves running; a case id with a newline in qrels; a nested-anchor YAML's message.
#
#   PROBES=0 skips part 3, ONLY_PROBES=1 parts 1 and 2; RSS probes of part 3 send 300 MB replies and take a minute or two.
#
#   bash scripts/bench-safety.sh                         # release build of this tree
#   RAGSYNTH_BIN=/path/to/ragsynth bash scripts/bench-safety.sh   # another binary (e.g. main)
#
# Each figure is the median wall time and the largest peak RSS of REPEAT runs (default 3); a run
# is cut off after LIMIT seconds (default 300) and then reported as "> LIMIT s".
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
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
if [ -z "${ONLY_PROBES:-}" ]; then
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
fi

[ "${PROBES:-1}" = 1 ] || exit 0
echo
echo "3. Issue 66 probes"
server_log="$work/server.log"
python3 scripts/safety_server.py "$work/port" "$server_log" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$work/port")"
probe() { mkdir -p "$work/$1" && cd "$work/$1"; }
printf '%s\n' "ragsynth: 1" "cases:" "  - id: q1" "    question: How long are snapshots kept?" "    relevant: []" >"$work/q.yaml"
mkdir -p "$work/user-config"
export XDG_CONFIG_HOME="$work/user-config"
printf '#!/bin/sh\nexit 1\n' >"$work/fail.sh" && chmod +x "$work/fail.sh"

# 3a. [llm] server / api_key_env in a found ragsynth.toml.
probe clone
printf '#!/bin/sh\ntouch "%s/clone/PWNED"\nexit 1\n' "$work" >pwn.sh && chmod +x pwn.sh
printf '[llm]\nmodel = "llamacpp:ragsynth.toml"\nserver = "./pwn.sh"\n' >ragsynth.toml
RAGSYNTH_LLAMA_SERVER="$work/fail.sh" "$bin" generate "$repo/corpora/docs" -n 1 --no-cache -q >/dev/null 2>&1 || true
printf '   %-44s %s\n' "found ragsynth.toml [llm] server ran:" "$([ -e PWNED ] && echo YES || echo no)"
printf '[llm]\nmodel = "openai-compatible:m@%s/catch/v1"\napi_key_env = "GITHUB_TOKEN"\n' "$base" >ragsynth.toml
GITHUB_TOKEN=ghp_probe_sentinel_123456 RAGSYNTH_LLAMA_SERVER="$work/fail.sh" "$bin" generate "$repo/corpora/docs" -n 1 --no-cache -q --llm-retries 0 >/dev/null 2>&1 || true
printf '   %-44s %s\n' "found ragsynth.toml api_key_env sent:" "$(grep -qs ghp_probe_sentinel "$server_log" && echo YES || echo no)"

# 3b. promptfoo sinks in an export.
probe export
printf '%s\n' "ragsynth: 1" "cases:" "  - id: q1" "    question: file://corpus/helper.js" "    answer: '{{ env.GITHUB_TOKEN }}'" "    relevant: []" "  - id: q2" "    question: 'package:evilpkg:run'" "    relevant: []" >set.yaml
"$bin" export set.yaml --to promptfoo -o tests.json 2>/dev/null || true
printf '   %-44s %s\n' "promptfoo sinks left in the export:" "$(grep -oE '"(file://|package:)|\{\{|\{%|\{#' tests.json | wc -l)"

# 3c. A 302 on run --http.
probe redirect
"$bin" run "$work/q.yaml" --http "$base/redirect302" -o out --retries 0 >/dev/null 2>&1 || true
printf '   %-44s %s\n' "302: question re-sent as GET / answer kept:" "$(grep -c '^GET /get' "$server_log" || true) / $(wc -l <out/answers.jsonl 2>/dev/null || echo 0)"

# 3d. Secrets in the URL, a --header and the server's echo.
probe redact
"$bin" run "$work/q.yaml" --http "http://alice:pw-probe-secret@127.0.0.1:$(cat "$work/port")/echo500?api_key=qk-probe-secret" \
  --header "X-Token: hdr-probe-secret" -o out --retries 0 >/dev/null 2>"$work/redact.err" || true
printf '   %-44s %s\n' "secrets in journal/errors/stderr:" \
  "$(cat out/journal.jsonl out/errors.jsonl "$work/redact.err" 2>/dev/null | grep -oE '(pw|qk|hdr)-probe-secret' | sort -u | tr '\n' ' ')"

# 3e. Peak memory of big replies (before: 2.8 GB, 927 MB, 2.5 GB, 862 MB).
probe big
printf '%s\n' "ragsynth: 1" "cases:" >q3.yaml
for i in 1 2 3; do printf '%s\n' "  - id: q$i" "    question: Question $i?" "    relevant: []" >>q3.yaml; done
rss() { /usr/bin/time -v "$@" >/dev/null 2>"$work/rss.txt" || true; awk -F: '/Maximum resident/ {printf "%d MB", $2/1024}' "$work/rss.txt"; }
printf '   %-44s %s\n' "3 x 300 MB replies, --concurrency 3:" "$(rss timeout "$LIMIT" "$bin" run q3.yaml --http "$base/big300" -o o1 --retries 0 --concurrency 3)"
printf '   %-44s %s\n' "an endless chunked reply (--timeout 20):" "$(rss timeout "$LIMIT" "$bin" run "$work/q.yaml" --http "$base/endless" -o o2 --retries 0 --timeout 20)"
printf '   %-44s %s\n' "2,000,000 contexts:" "$(rss timeout "$LIMIT" "$bin" run "$work/q.yaml" --http "$base/ctx2m" -o o3 --retries 0)"
printf '   %-44s %s\n' "--cmd writing 300 MB without a newline:" "$(rss timeout "$LIMIT" "$bin" run "$work/q.yaml" --cmd "read l; head -c 300000000 /dev/zero | tr '\\0' x" -o o4 --retries 0)"

# 3f. Chunking one-line files (before: 200 KB 0.13 s, 1.6 MB 7.7 s, 13.9 MB > 248 s).
probe lines
for kb in 200 1600 13900; do
  mkdir -p "c$kb" && python3 -c "import sys; w=['alpha','beta','gamma','delta','epsilon']; s=' '.join(w[i%5] for i in range($kb*1000//6)); open(sys.argv[1],'w').write(s[:$kb*1000])" "c$kb/one.txt"
  start=$(date +%s.%N)
  if timeout "$LIMIT" "$bin" chunk "c$kb" >/dev/null 2>&1; then
    printf '   %-44s %.2f s\n' "one-line file of $kb KB, chunk:" "$(echo "$(date +%s.%N) - $start" | bc)"
  else
    printf '   %-44s > %s s\n' "one-line file of $kb KB, chunk:" "$LIMIT"
  fi
done

# 3g. A timed-out --cmd that started a child.
probe orphans
"$bin" run "$work/q.yaml" --cmd 'sleep 300 & echo $! > child.pid; while read l; do sleep 100; done' -o out --timeout 1 --retries 0 >/dev/null 2>&1 || true
pid=$(cat child.pid 2>/dev/null || echo 0)
# A killed child may stay a zombie when pid 1 does not reap: only a live state counts.
state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
printf '   %-44s %s\n' "timed-out --cmd child still running:" "$(case $state in gone|Z) echo no ;; *) echo "YES ($state)"; kill "$pid" ;; esac)"

# 3h. A case id with a newline in the qrels export; 3i. a nested-anchor YAML.
probe qrels
python3 - "$work/corpus/doc.md" <<'PY'
import json, sys
quote = open(sys.argv[1]).read()[:50]
case = {"id": "q1\nq1 0 injected.md#0 1", "question": "What is this?", "relevant": [{"doc": "doc.md", "start": 0, "end": 50, "quote": quote}]}
head = {"ragsynth": 1, "corpus": {"root": sys.argv[1].rsplit("/", 1)[0]}, "chunking": {"splitter": "auto", "unit": "chars", "size": 1200, "overlap": 0}}
open("set.jsonl", "w").write(json.dumps(head) + "\n" + json.dumps(case) + "\n")
PY
"$bin" eval set.jsonl --export-qrels out.qrels >/dev/null 2>"$work/qrels.err" || true
printf '   %-44s %s\n' "qrels lines for one label (id with newline):" "$({ wc -l <out.qrels; } 2>/dev/null || echo "0, refused: $(head -c 110 "$work/qrels.err" | tr '\n' ' ')")"
probe lol
python3 -c "
lines=['ragsynth: 1','l0: &l0 [' + ','.join(['\"lol\"']*9) + ']']
lines += [f'l{i}: &l{i} [' + ','.join([f'*l{i-1}']*9) + ']' for i in range(1, 9)]
open('lol.yaml','w').write('\n'.join(lines) + '\ncases: []\n')"
printf '   %-44s %s\n' "nested-anchor YAML:" "$("$bin" audit lol.yaml 2>&1 >/dev/null | head -c 150)"

