#!/usr/bin/env python3
"""responder.py - a scripted HTTP(S) responder for the k8s unit tests.

Not a fake Kubernetes: it answers each request with the next response of the
first matching rule in a JSON script, and logs every request as a JSON line,
so a C test can assert exactly what the client sent and how it reacted.

Script: [{"method": "GET", "path": "/x", "match": "watch=1",
          "responses": [{"status": 200, "json": {...}} | {"body": "..."} |
                        {"lines": [...], "line_delay": 0.05, "hold": 0} |
                        {"drop": true} | {"delay": 0.5, ...},
                        "headers": {...}], "repeat": false}]
Usage: responder.py SCRIPT LOG [--port N] [--tls DIR] [--client-ca];
prints "PORT n" once listening. The test stops it with SIGTERM.
"""
import json
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _log(self, body):
        u = urlsplit(self.path)
        cn = None
        try:
            cert = self.connection.getpeercert()
            if cert:
                for rdn in cert.get("subject", ()):
                    for k, v in rdn:
                        if k == "commonName":
                            cn = v
        except (AttributeError, ValueError):
            pass
        rec = {"method": self.command, "path": u.path, "query": u.query,
               "auth": self.headers.get("Authorization"),
               "ctype": self.headers.get("Content-Type"),
               "body": body.decode("utf-8", "replace"), "cn": cn,
               "t": time.monotonic()}
        with LOCK:
            with open(self.server.logpath, "a") as f:
                f.write(json.dumps(rec) + "\n")

    def _pick(self):
        u = urlsplit(self.path)
        with LOCK:
            for rule in self.server.script:
                if rule.get("method", self.command) != self.command:
                    continue
                if rule.get("path", u.path) != u.path:
                    continue
                if rule.get("match", "") not in u.query:
                    continue
                rs = rule["responses"]
                if len(rs) > 1 or (rs and not rule.get("repeat")):
                    return rs.pop(0)
                if rs:
                    return rs[0]
        return {"status": 404, "json": {"kind": "Status", "apiVersion": "v1",
                                        "status": "Failure", "reason": "NotFound",
                                        "message": "no rule for %s %s" % (self.command, u.path),
                                        "code": 404}}

    def _handle(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        self._log(body)
        r = self._pick()
        time.sleep(r.get("delay", 0))
        if r.get("drop"):
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.send_response(r.get("status", 200))
        for k, v in r.get("headers", {}).items():
            self.send_header(k, str(v))
        if "lines" in r:
            self._stream(r)
            return
        data = json.dumps(r["json"]).encode() if "json" in r else r.get("body", "").encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, r):
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for line in r["lines"]:
                data = (line if isinstance(line, str) else json.dumps(line)) + "\n"
                # Split each line in two chunks: the client must reassemble.
                half = len(data) // 2
                for part in (data[:half], data[half:]):
                    b = part.encode()
                    if not b:
                        continue  # a zero-length chunk would end the body
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(b), b))
                    self.wfile.flush()
                time.sleep(r.get("line_delay", 0))
            time.sleep(r.get("hold", 0))
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle


def main():
    script, logpath = sys.argv[1], sys.argv[2]
    port = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 0
    ThreadingHTTPServer.allow_reuse_address = True
    srv = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    srv.daemon_threads = True
    with open(script) as f:
        srv.script = json.load(f)
    srv.logpath = logpath
    if "--tls" in sys.argv:
        d = sys.argv[sys.argv.index("--tls") + 1]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(d + "/server.crt", d + "/server.key")
        if "--client-ca" in sys.argv:
            ctx.verify_mode = ssl.CERT_OPTIONAL
            ctx.load_verify_locations(d + "/ca.crt")
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    print("PORT %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
