"""The HTTPS API server: TLS handshake per connection thread, authentication
(client certificate signed by the test CA, or a bearer token), injected
faults, routing to fk_api/fk_watch, the request log, and pause/resume
(listening socket closed so that connections are refused)."""

import json
import socket
import ssl
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import fk_api
import fk_util
import fk_watch

PUBLIC = ("/healthz", "/livez", "/readyz", "/version")
MAX_CONNS = 1024
FAULT_REASONS = {400: "BadRequest", 403: "Forbidden", 404: "NotFound", 409: "Conflict",
                 429: "TooManyRequests", 500: "InternalError", 503: "ServiceUnavailable", 504: "Timeout"}
FAULT_MESSAGES = {
    429: "Too many requests, please try again later.",
    500: 'Internal error occurred: failed calling webhook "mjobset.kb.io": failed to call webhook: Post '
         '"https://jobset-webhook-service.jobset-system.svc:443/mutate-jobset-x-k8s-io-v1alpha2-jobset?'
         'timeout=10s": dial tcp 10.96.0.1:443: connect: connection refused',
    503: "the server is currently unable to handle the request",
}


def _verb(method, name, sub, is_watch):
    if method == "GET":
        if sub == "log":
            return "log"
        return "get" if name else ("watch" if is_watch else "list")
    return {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}.get(method, method)


class ApiHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-k8s/1"
    timeout = 300

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    # --- response helpers ------------------------------------------------
    def _log(self, code):
        m, path, query, verb, user, res = self.entry
        self.server.state.record(m, path, query, code, verb, user, res)

    def send_json(self, code, obj, headers=()):
        data = obj if isinstance(obj, bytes) else json.dumps(obj, separators=(",", ":")).encode()
        ctype = "application/json"
        extra = []
        for k, v in headers:
            if k == "Content-Type":
                ctype = v
            else:
                extra.append((k, v))
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self._log(code)

    def start_chunked(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache, private")
        self.end_headers()
        self.wfile.flush()
        self._log(200)

    def abort(self):
        self._log(0)
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # --- request processing ------------------------------------------------
    def _user(self):
        try:
            cert = self.connection.getpeercert()
        except (ValueError, OSError):
            cert = None
        if cert:
            for rdn in cert.get("subject", ()):
                for k, v in rdn:
                    if k == "commonName":
                        return v
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            return self.server.state.tokens.get(auth[7:].strip())
        return None

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n > fk_api.MAX_BODY:
            return None
        return self.rfile.read(n) if n else b""

    def _route(self, path):
        """(restype, ns, name, sub) or None."""
        segs = [urllib.parse.unquote(s) for s in path.split("/") if s]
        if segs[:2] == ["api", "v1"]:
            group, version, rest = "", "v1", segs[2:]
        elif segs[:1] == ["apis"] and len(segs) >= 4:
            group, version, rest = segs[1], segs[2], segs[3:]
        else:
            return None
        ns = None
        if rest[:1] == ["namespaces"] and len(rest) >= 3:
            ns, rest = rest[1], rest[2:]
        if not rest or len(rest) > 3:
            return None
        rt = self.server.state.types.get((group, version, rest[0]))
        if rt is None or (rt.namespaced and ns is None and len(rest) > 1):
            return None
        return rt, ns, rest[1] if len(rest) > 1 else None, rest[2] if len(rest) > 2 else None

    def dispatch(self, method):
        st = self.server.state
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        route = self._route(url.path)
        is_watch = query.get("watch") in ("1", "true")
        verb = _verb(method, route[2] if route else None, route[3] if route else None, is_watch) \
            if route else ("discovery" if method == "GET" else method.lower())
        self.entry = [method, url.path, url.query, verb, None, route[0].plural if route else None]
        fault = st.take_fault(method, url.path, is_watch)
        drop_after = False
        if fault is not None:
            if fault.kind == "drop":
                return self.abort()
            if fault.kind == "delay":
                time.sleep(fault.delay_ms / 1000.0)
            elif fault.kind == "drop_after":
                drop_after = True
            else:
                self._body()
                return self._fault(fault)
        user = self._user()
        self.entry[4] = user
        if user is None and url.path not in PUBLIC:
            self._body()
            return self.send_json(401, fk_util.status(401, "Unauthorized", "Unauthorized"))
        body = self._body()
        if body is None:
            self.close_connection = True
            return self.send_json(413, fk_util.status(413, "RequestEntityTooLarge",
                                                      "Request entity too large: limit is 3145728"))
        try:
            code, obj, headers = self._handle(method, url.path, route, query, body, user, is_watch)
        except (OSError, ssl.SSLError):
            raise
        except Exception as e:  # noqa: BLE001 - a fake bug must be loud, not a hang
            traceback.print_exc()
            code, obj, headers = 500, fk_util.status(500, "InternalError", "fake-k8s bug: %r" % e), []
        if code is None:
            return None
        if drop_after:
            return self.abort()
        return self.send_json(code, obj, headers)

    def _fault(self, fault):
        code = fault.code
        msg = fault.spec.get("message") or FAULT_MESSAGES.get(code, "fault injected by fake-k8s")
        retry = fault.retry_after
        headers = [("Retry-After", str(retry))] if retry is not None else []
        body = fk_util.status(code, FAULT_REASONS.get(code, "InternalError"), msg, None,
                              int(retry) if retry is not None else None)
        return self.send_json(code, body, headers)

    def _handle(self, method, path, route, query, body, user, is_watch):
        st = self.server.state
        if path in ("/healthz", "/livez", "/readyz"):
            return 200, b"ok", [("Content-Type", "text/plain")]
        if path == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" and method == "POST":
            return fk_api.access_review(body)
        if route is None:
            disc = fk_api.discovery(st, path) if method == "GET" else None
            if disc is not None:
                return 200, disc, []
            return 404, fk_util.status(404, "NotFound", "the server could not find the requested resource",
                                       {}), []
        rt, ns, name, sub = route
        req = fk_api.Req(method, rt, ns, name, sub, query, body, self.headers.get("Content-Type"), user)
        if sub not in (None, "status", "log") or (sub == "log" and rt.plural != "pods"):
            return 404, fk_util.status(404, "NotFound", "the server could not find the requested resource",
                                       {}), []
        if rt.namespaced and ns is None and method != "GET":
            return 405, fk_util.status(405, "MethodNotAllowed",
                                       "the server does not allow this method on the requested resource"), []
        if method == "GET" and sub == "log":
            return fk_api.pod_log(st, req)
        if method == "GET" and name:
            return fk_api.get(st, req)
        if method == "GET" and is_watch:
            fk_watch.Watch(st, self, req).run()
            return None, None, None
        if method == "GET":
            return fk_api.list_(st, req)
        if method == "POST" and not name:
            return fk_api.create(st, req)
        if method in ("PUT", "PATCH") and name:
            return fk_api.update(st, req, patch=(method == "PATCH"))
        if method == "DELETE" and name and not sub:
            return fk_api.delete(st, req)
        return 405, fk_util.status(405, "MethodNotAllowed",
                                   "the server does not allow this method on the requested resource"), []


class TLSServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, state, ctx):
        self.state = state
        self.ctx = ctx
        super().__init__(addr, ApiHandler)

    def verify_request(self, request, client_address):
        return len(self.state.conns) < MAX_CONNS and not self.state.paused

    def finish_request(self, request, client_address):
        # The handshake runs here, in the connection's own thread, so a slow or
        # failing client never blocks the accept loop.
        request.settimeout(10)
        try:
            conn = self.ctx.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        self.state.track(conn, True)
        try:
            ApiHandler(conn, client_address, self)
        except (OSError, ssl.SSLError):
            pass
        finally:
            self.state.track(conn, False)
            try:
                conn.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        pass


def make_context(cert, key, ca):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    ctx.load_verify_locations(ca)
    ctx.verify_mode = ssl.CERT_OPTIONAL
    return ctx


class ApiServer:
    """Owns the listening socket so that it can be closed and re-opened."""

    def __init__(self, state, ctx, port):
        self.state, self.ctx, self.port = state, ctx, port
        self.lock = threading.Lock()
        self.server = None
        self.timer = None

    def start(self):
        deadline = time.monotonic() + 5
        while True:
            try:
                srv = TLSServer(("127.0.0.1", self.port), self.state, self.ctx)
                break
            except OSError:
                if time.monotonic() > deadline or self.port == 0:
                    raise
                time.sleep(0.1)
        self.port = srv.server_address[1]
        self.server = srv
        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1},
                         name="api", daemon=True).start()

    def pause(self, seconds):
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
            if self.server is not None:
                self.server.shutdown()
                self.server.server_close()
                self.server = None
            self.state.paused = True
            self.state.drop_all_connections()
            with self.state.store.cond:
                self.state.store.cond.notify_all()
            if seconds is not None:
                self.timer = threading.Timer(float(seconds), self.resume)
                self.timer.daemon = True
                self.timer.start()

    def resume(self):
        with self.lock:
            if self.server is None:
                self.state.paused = False
                self.start()

    def stop(self):
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
            if self.server is not None:
                self.server.shutdown()
                self.server.server_close()
                self.server = None
        self.state.drop_all_connections()
