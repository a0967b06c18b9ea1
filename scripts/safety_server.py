"""Servers on 127.0.0.1 for scripts/bench-safety.sh's issue-66 probes: each path misbehaves one
way (a 302, an echo of the request in a 500, 300 MB bodies, an endless chunked body, two million
contexts), and every request line and header is logged, so a probe can tell what was sent.

    python3 scripts/safety_server.py PORT_FILE LOG_FILE
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self):
        with open(LOG, "a") as f:
            f.write(f"{self.command} {self.path}\n")
            for k, v in self.headers.items():
                f.write(f"  {k}: {v}\n")
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def send(self, status, body, headers=()):
        self.send_response(status)
        self.send_header("content-length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.record()
        self.send(200, json.dumps({"answer": "the GET's reply", "contexts": []}).encode())

    def do_POST(self):
        body = self.record()
        path = self.path.split("?")[0]
        if path == "/redirect302":
            self.send(302, b"", [("location", "/get")])
        elif path == "/echo500":
            echo = {"error": "failed", "you_sent": {"path": self.path, "headers": dict(self.headers), "body": body.decode()}}
            self.send(500, json.dumps(echo).encode())
        elif path == "/big300":
            size = 300_000_000
            self.send_response(200)
            self.send_header("content-length", str(size))
            self.end_headers()
            piece = b" " * (1 << 20)
            sent = 0
            try:
                while sent < size:
                    n = min(len(piece), size - sent)
                    self.wfile.write(piece[:n])
                    sent += n
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/endless":
            self.send_response(200)
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            piece = b" " * 65536
            try:
                while True:
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/ctx2m":
            self.send(200, json.dumps({"answer": "x", "contexts": ["c"] * 2_000_000}).encode())
        else:  # /catch and the rest: record and refuse
            self.send(500, b'{"error": "recorded"}')


if __name__ == "__main__":
    port_file, LOG = sys.argv[1], sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()
