#!/usr/bin/env bash
# Benchmark of `ragsynth generate` against a stub OpenAI-compatible server that answers every
# request after a fixed latency: LLM calls per accepted case by type, and wall time against the
# latency bound (the critical path of the run at the configured concurrency).
#
#   bash scripts/bench-generate.sh [N=30] [LATENCY_MS=200] [CONCURRENCY=4] [BAD_PERCENT=0]
#
# With BAD_PERCENT, that share of the question requests (picked by a hash of prompt and seed,
# so the same request always gets the same answer) is answered with a non-question, which the
# checks reject; top-up rounds then replace them (at most 3 rounds, the default).
#
# The stub fills in whatever reply schema a request asks for (a question about each fact the
# prompt shows, neighbours no corpus names) and judges every question unanswerable, so each
# candidate runs its full chain of calls.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-30}
LATENCY_MS=${2:-200}
CONC=${3:-4}
BAD=${4:-0}
work=$(mktemp -d)
trap 'kill "$stub_pid" 2>/dev/null || true; rm -rf "$work"' EXIT

cat >"$work/stub.py" <<'PY'
import hashlib, http.server, json, re, sys, time, socketserver
latency = float(sys.argv[2]) / 1000.0
bad = int(sys.argv[3])
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        time.sleep(latency)
        user = body["messages"][-1]["content"]
        props = list(body.get("response_format", {}).get("json_schema", {}).get("schema", {}).get("properties", {}))
        def line(label):
            m = re.search(r"^" + re.escape(label) + r"[^:\n]*: (.*)$", user, re.M)
            return m.group(1).strip() if m else ""
        def head(s, n):
            return " ".join(re.findall(r"\w+", s)[:n]).lower()
        digest = hashlib.sha256((user + str(body.get("seed"))).encode()).digest()
        if "answerable" in props:
            out = {"answerable": False}
        elif "others" in props:
            out = {"others": ["Zephyrvault Cloud", "Quillstore", "Embercache"]}
        elif digest[0] * 100 < bad * 256:
            out = {k: "jon" for k in props}
        elif "question_a" in props:
            a, b = line("Fact A"), line("Fact B")
            out = {"question_a": "what about " + head(a, 4) + "?", "answer_a": head(a, 6),
                   "question_b": "what about " + head(b, 4) + "?", "answer_b": head(b, 6),
                   "question": "how do " + head(a, 4) + " and " + head(b, 4) + " relate?"}
        else:
            out = {}
            for k in props:
                if k.startswith("question_"):
                    n = k.split("_")[1]
                    fact = line("Fact " + n)
                    about = re.search(r"^Fact " + n + r" \(ask about ([^)]*)\)", user, re.M)
                    out[k] = ("what about " + about.group(1) + " and " + head(fact, 3) + "?") if about else ("what about " + head(fact, 4) + "?")
                    out["answer_" + n] = fact
        data = json.dumps({"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": json.dumps(out)}}],
                           "usage": {"prompt_tokens": len(user) // 4, "completion_tokens": 40}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 "$work/stub.py" "$port" "$LATENCY_MS" "$BAD" &
stub_pid=$!
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done

cargo build --quiet --bin ragsynth
bin=${CARGO_TARGET_DIR:-target}/debug/ragsynth
"$bin" generate corpora/docs -o "$work/set.yaml" -n "$N" --seed 1 --json --quiet --no-cache \
  --llm "openai-compatible:stub@http://127.0.0.1:$port/v1" --llm-concurrency "$CONC" >"$work/summary.json"

python3 - "$work/summary.json" "$LATENCY_MS" "$CONC" <<'PY'
import json, math, sys
s = json.load(open(sys.argv[1])); lat = float(sys.argv[2]) / 1000; conc = int(sys.argv[3])
calls = s["llm"]["calls"]
# Each candidate's calls are sequential (generate, then judge); candidates run `conc` at once.
# Lower bound on wall time: total calls spread over the slots, but no less than the longest chain.
chains = {"lookup": 1, "multi_hop": 1, "unanswerable": 3}
longest = max([chains[k] for k, f in s["by_type"].items() if f["planned"]] or [1])
# Rounds run one after another (top-up rounds wait for the verdicts of the one before).
rounds = s.get("rounds") or [{"llm_calls": calls}]
bound = sum(max(math.ceil(r["llm_calls"] / conc), longest) for r in rounds) * lat
print(f"cases planned {sum(f['planned'] for f in s['by_type'].values())}, accepted {s['accepted']}, rejected {s['rejected']} {s['rejections']}")
for k, f in s["by_type"].items():
    per = f"{f['calls_per_accepted']:.2f}" if f["calls_per_accepted"] is not None else "-"
    print(f"  {k:<13} accepted {f['accepted']:>3}/{f['planned']:<3} llm calls {f['llm_calls']:>4}  calls per accepted case {per}")
print(f"rounds {len(rounds)} (stopped: {s.get('stopped')}): " + ", ".join(f"{r.get('accepted', '?')}/{r.get('tasks', '?')}" for r in rounds))
print(f"llm calls {calls} at {lat*1000:.0f} ms, concurrency {conc}: latency bound {bound:.2f}s, wall {s['wall_seconds']:.2f}s, ratio {s['wall_seconds']/bound:.2f}")
PY
