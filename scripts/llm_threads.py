"""The local model's speed under each llama-server configuration, with the demo's own requests
(scripts/bench-llm-threads.sh runs it; see there).

  record OUT SERVER ARGS...   stands in for llama-server (RAGSYNTH_LLAMA_SERVER points at a
                              script that runs this): starts SERVER with ARGS on another port and
                              serves ARGS' port itself as a proxy, writing every POST body and its
                              reply's usage to OUT (JSON Lines) in the order they arrived; ragsynth
                              runs exactly as with the real server (same model id, same /props)
  replay REQUESTS SERVER MODEL THREADS PARALLEL THREADS_BATCH POLL [LIMIT]
                              starts SERVER on MODEL with that configuration, sends the recorded
                              requests PARALLEL at a time (as ragsynth keeps one in flight per
                              slot), and prints one JSON line: wall seconds, prompt and completion
                              tokens, tokens per second (all tokens, and generated ones)
"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def record(out, server, *args):
    args = list(args)
    i = args.index("--port")
    port, upstream_port = int(args[i + 1]), free_port()
    args[i + 1] = str(upstream_port)
    upstream = f"http://127.0.0.1:{upstream_port}"
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    # The real server dies with this stand-in (ragsynth kills the stand-in with SIGKILL).
    subprocess.Popen([server, *args], preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))
    lock = threading.Lock()

    class Proxy(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def relay(self, body=None):
            headers = {"content-type": "application/json"} if body is not None else {}
            req = urllib.request.Request(upstream + self.path, data=body, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=3600) as r:
                    status, reply = r.status, r.read()
            except urllib.error.HTTPError as e:
                status, reply = e.code, e.read()
            except OSError:
                status, reply = 503, b'{"error": {"message": "loading"}}'
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
            return reply

        def do_GET(self):
            self.relay()

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            reply = self.relay(body)
            try:
                usage = json.loads(reply).get("usage", {})
            except ValueError:
                usage = {}
            with lock, open(out, "a") as f:
                f.write(json.dumps({"path": self.path, "body": json.loads(body), "usage": usage}) + "\n")

    ThreadingHTTPServer(("127.0.0.1", port), Proxy).serve_forever()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(root, proc, limit=600):
    start = time.time()
    while time.time() - start < limit:
        if proc.poll() is not None:
            sys.exit(f"llama-server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(root + "/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit("llama-server did not become healthy")


def replay(requests, server, model, threads, parallel, threads_batch, poll, limit=None):
    recorded = [json.loads(l) for l in open(requests) if l.strip()]
    recorded = [r for r in recorded if r["path"].endswith("/chat/completions")]
    if limit:
        recorded = recorded[: int(limit)]
    port = free_port()
    ctx = 4096 * int(parallel)
    args = [server, "--model", model, "--host", "127.0.0.1", "--port", str(port),
            "--ctx-size", str(ctx), "--parallel", str(parallel), "--threads", str(threads),
            "--threads-batch", str(threads_batch), "--poll", str(poll), "--no-webui", "--seed", "0"]
    log = open(os.devnull, "w")
    proc = subprocess.Popen(args, stdout=log, stderr=log)
    root = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(root, proc)
        totals = {"prompt": 0, "completion": 0, "prompt_ms": 0.0, "predicted_ms": 0.0}
        lock = threading.Lock()

        def send(r):
            req = urllib.request.Request(root + "/v1/chat/completions", data=json.dumps(r["body"]).encode(),
                                         headers={"content-type": "application/json"})
            with urllib.request.urlopen(req, timeout=3600) as resp:
                reply = json.loads(resp.read())
            u, t = reply.get("usage", {}), reply.get("timings", {})
            with lock:
                totals["prompt"] += u.get("prompt_tokens", 0)
                totals["completion"] += u.get("completion_tokens", 0)
                totals["prompt_ms"] += t.get("prompt_ms", 0.0)
                totals["predicted_ms"] += t.get("predicted_ms", 0.0)

        start = time.time()
        with ThreadPoolExecutor(int(parallel)) as pool:
            list(pool.map(send, recorded))
        wall = time.time() - start
    finally:
        proc.kill()
        proc.wait()
    all_tokens = totals["prompt"] + totals["completion"]
    print(json.dumps({
        "threads": int(threads), "parallel": int(parallel), "threads_batch": int(threads_batch),
        "poll": int(poll), "requests": len(recorded), "wall_s": round(wall, 1),
        "prompt_tokens": totals["prompt"], "completion_tokens": totals["completion"],
        "tokens_per_s": round(all_tokens / wall, 1),
        "generated_per_s": round(totals["completion"] / wall, 2),
        "prompt_per_s_in_server": round(totals["prompt"] / (totals["prompt_ms"] / 1000), 1)
        if totals["prompt_ms"] else None,
    }))


if __name__ == "__main__":
    cmd, rest = sys.argv[1], sys.argv[2:]
    {"record": record, "replay": replay}[cmd](*rest)
