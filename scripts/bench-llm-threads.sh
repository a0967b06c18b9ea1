#!/usr/bin/env bash
# The local model at full speed (issue 68): which llama-server configuration — generation threads
# x parallel slots x prompt-processing threads (x polling) — serves the README demo's own requests
# fastest, and how many accepted cases a minute the demo's generation gets with each candidate
# default. Three steps, each skipped when its output is already in OUT:
#
#   capture  the demo's generation (the sample corpus with its 24 real questions, -n $N, a fresh
#            LLM journal) with a recording stand-in for llama-server (scripts/llm_threads.py
#            record): every request ragsynth sent, in order -> OUT/requests.jsonl
#   grid     each configuration replays those requests against a fresh llama-server, as many at
#            once as it has slots: wall time, tokens/s (all and generated) -> OUT/grid.jsonl
#   demo     the demo's generation itself, fresh journal, once per configuration in DEMO_CONFIGS
#            ("threads:parallel:threads_batch", given to ragsynth as [llm] threads, concurrency
#            and threads_batch): accepted cases, wall time, accepted per minute, and ragsynth's
#            own CPU seconds -> OUT/demo.jsonl
#
#   bash scripts/bench-llm-threads.sh [OUT]        (default ~/.cache/ragsynth/bench/llm-threads)
#
# Env: THREADS ("1 $(nproc)"), PARALLEL ("1 2"), THREADS_BATCH ("1 $(nproc)"), POLL ("50"),
#      LIMIT (replay only the first LIMIT requests), N (12), DEMO_CONFIGS (threads:parallel:
#      threads_batch, or `default` for whatever this build starts; default: the configuration
#      ragsynth started before issue 68, then the grid's fastest), STEPS ("capture grid demo"),
#      RAGSYNTH_BIN (default: a release build of this checkout), NICE (run the servers and
#      ragsynth under `nice -n NICE`, for a shared machine: then say the figures were taken under
#      load). The machine's load average is recorded with every line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
OUT="$(mkdir -p "${1:-$CACHE/bench/llm-threads}" && cd "${1:-$CACHE/bench/llm-threads}" && pwd)"
CORES=$(nproc)
THREADS=${THREADS:-"1 $CORES"}
PARALLEL=${PARALLEL:-"1 2"}
THREADS_BATCH=${THREADS_BATCH:-"1 $CORES"}
POLL=${POLL:-50}
N=${N:-12}
STEPS=${STEPS:-"capture grid demo"}
SERVER="$CACHE/bin/llama-server"
MODEL="$CACHE/models/Qwen2.5-Coder-1.5B-Instruct.Q4_K_M.gguf"
nice_cmd=()
[ -n "${NICE:-}" ] && nice_cmd=(nice -n "$NICE")
load() { cut -d' ' -f1-3 /proc/loadavg; }

bash scripts/install-llm.sh >/dev/null
if [ -z "${RAGSYNTH_BIN:-}" ]; then
  cargo build --release --quiet --bin ragsynth
  RAGSYNTH_BIN="$CARGO_TARGET_DIR/release/ragsynth"
fi

# One demo generation in WORK with the configuration in CONFIG (a ragsynth.toml); prints the
# summary's JSON path. Extra environment comes from the caller.
demo_run() {
  local work=$1 config=$2
  rm -rf "$work" && mkdir -p "$work"
  "$RAGSYNTH_BIN" import corpora/questions.csv --into "$work/set.yaml" --corpus corpora/docs >/dev/null 2>&1
  /usr/bin/time -f '%U %S' -o "$work/cpu" "${nice_cmd[@]}" "$RAGSYNTH_BIN" --config "$config" \
    generate corpora/docs -o "$work/set.yaml" -n "$N" --cache-dir "$work/journal" --json --quiet \
    >"$work/summary.json"
}

case " $STEPS " in *" capture "*)
  if [ ! -s "$OUT/requests.jsonl" ]; then
    echo "capture: the demo's generation through a recording llama-server (load $(load))" >&2
    stand_in="$OUT/record-llama-server.sh"
    printf '#!/bin/sh\nexec %s %s record %s %s "$@"\n' "$(command -v python3)" "$ROOT/scripts/llm_threads.py" \
      "$OUT/requests.jsonl.tmp" "$SERVER" >"$stand_in"
    chmod +x "$stand_in"
    rm -f "$OUT/requests.jsonl.tmp"
    printf '[llm]\nmodel = "llamacpp"\n' >"$OUT/capture.toml"
    RAGSYNTH_LLAMA_SERVER="$stand_in" demo_run "$OUT/capture" "$OUT/capture.toml"
    mv "$OUT/requests.jsonl.tmp" "$OUT/requests.jsonl"
    echo "capture: $(wc -l <"$OUT/requests.jsonl") requests" >&2
  fi
esac

case " $STEPS " in *" grid "*)
  for t in $THREADS; do for p in $PARALLEL; do for tb in $THREADS_BATCH; do for poll in $POLL; do
    [ "$tb" -lt "$t" ] && continue
    key="\"threads\": $t, \"parallel\": $p, \"threads_batch\": $tb, \"poll\": $poll,"
    grep -qF "$key" "$OUT/grid.jsonl" 2>/dev/null && continue
    echo "grid: threads $t, parallel $p, threads-batch $tb, poll $poll (load $(load))" >&2
    before=$(load)
    line=$("${nice_cmd[@]}" python3 scripts/llm_threads.py replay "$OUT/requests.jsonl" "$SERVER" "$MODEL" \
      "$t" "$p" "$tb" "$poll" ${LIMIT:-})
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["load_before"]=sys.argv[2]; d["load_after"]=sys.argv[3]; print(json.dumps(d))' \
      "$line" "$before" "$(load)" >>"$OUT/grid.jsonl"
    tail -n 1 "$OUT/grid.jsonl" >&2
  done; done; done; done
esac

case " $STEPS " in *" demo "*)
  if [ -z "${DEMO_CONFIGS:-}" ]; then
    fastest=$(python3 -c 'import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
b=max(rows,key=lambda r:r["tokens_per_s"])
print("%s:%s:%s" % (b["threads"], b["parallel"], b["threads_batch"]))' "$OUT/grid.jsonl")
    # Before: what ragsynth started until this change (half the cores, two slots, no
    # --threads-batch); after: the grid's fastest.
    before=$(( CORES / 2 > 0 ? CORES / 2 : 1 ))
    DEMO_CONFIGS="$before:2:$before $fastest"
  fi
  for c in $DEMO_CONFIGS; do
    grep -qF "\"config\": \"$c\"" "$OUT/demo.jsonl" 2>/dev/null && continue
    toml="$OUT/demo-$c.toml"
    if [ "$c" = default ]; then
      printf '[llm]\nmodel = "llamacpp"\n' >"$toml"
    else
      IFS=: read -r t p tb <<<"$c"
      printf '[llm]\nmodel = "llamacpp"\nthreads = %s\nconcurrency = %s\nthreads_batch = %s\n' "$t" "$p" "$tb" >"$toml"
    fi
    echo "demo: $c (load $(load))" >&2
    before=$(load)
    demo_run "$OUT/demo-$c" "$toml"
    python3 - "$OUT/demo-$c" "$c" "$before" "$(load)" >>"$OUT/demo.jsonl" <<'PY'
import json, sys
work, config, before, after = sys.argv[1:]
s = json.load(open(f"{work}/summary.json"))
user, system = (float(x) for x in open(f"{work}/cpu").read().split()[-2:])
wall = s["wall_seconds"]
print(json.dumps({"config": config, "accepted": s["accepted"], "wall_s": round(wall, 1),
                  "accepted_per_min": round(s["accepted"] / wall * 60, 2), "calls": s["llm"]["calls"],
                  "prompt_tokens": s["llm"]["prompt_tokens"], "completion_tokens": s["llm"]["completion_tokens"],
                  "ragsynth_cpu_s": round(user + system, 1), "load_before": before, "load_after": after}))
PY
    tail -n 1 "$OUT/demo.jsonl" >&2
  done
esac

echo "grid ($OUT/grid.jsonl), fastest first:"
python3 -c 'import json,sys
for r in sorted((json.loads(l) for l in open(sys.argv[1])), key=lambda r: -r["tokens_per_s"]):
    print("  threads %(threads)s parallel %(parallel)s threads-batch %(threads_batch)s poll %(poll)s: %(tokens_per_s)s tok/s, %(generated_per_s)s generated/s, %(wall_s)s s for %(requests)s requests (load %(load_before)s)" % r)' "$OUT/grid.jsonl" 2>/dev/null || true
echo "demo ($OUT/demo.jsonl):"
cat "$OUT/demo.jsonl" 2>/dev/null || true
