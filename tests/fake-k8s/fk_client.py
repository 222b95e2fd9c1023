"""Tiny client for the fake server's self-test (urllib/http.client + ssl)."""

import http.client
import json
import socket
import ssl
import time
import urllib.error
import urllib.request


class Client:
    def __init__(self, port, control_port, certs, token=None, cert=None):
        self.port, self.cport = port, control_port
        self.ctx = ssl.create_default_context(cafile=certs + "/ca.crt")
        if cert:
            self.ctx.load_cert_chain(cert[0], cert[1])
        self.token = token

    def with_token(self, token):
        c = Client.__new__(Client)
        c.__dict__.update(self.__dict__)
        c.token = token
        return c

    def _headers(self, ctype="application/json"):
        h = {"Accept": "application/json", "Content-Type": ctype}
        if self.token:
            h["Authorization"] = "Bearer " + self.token
        return h

    def req(self, method, path, body=None, ctype="application/json"):
        """Returns (status, parsed JSON or text, headers)."""
        data = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
        r = urllib.request.Request("https://127.0.0.1:%d%s" % (self.port, path), data=data,
                                   method=method, headers=self._headers(ctype))
        try:
            with urllib.request.urlopen(r, context=self.ctx, timeout=15) as resp:
                return resp.status, _decode(resp.read()), resp.headers
        except urllib.error.HTTPError as e:
            return e.code, _decode(e.read()), e.headers

    def raw(self, method, path, body=None):
        """A request on a fresh http.client connection; exceptions propagate."""
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.ctx, timeout=15)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers=self._headers())
            resp = conn.getresponse()
            return resp.status, _decode(resp.read())
        finally:
            conn.close()

    def watch(self, path):
        return Watch(self, path)

    def control(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.cport, timeout=15)
        try:
            conn.request(method, path, body=json.dumps(body or {}).encode(),
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read())
        finally:
            conn.close()

    def ctl(self, method, path, body=None):
        code, out = self.control(method, path, body)
        if code != 200:
            raise AssertionError("control %s %s -> %d %s" % (method, path, code, out))
        return out


def _decode(data):
    try:
        return json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace")


class Watch:
    """A streaming watch; next() returns an event dict, or None at a clean end."""

    def __init__(self, client, path):
        self.conn = http.client.HTTPSConnection("127.0.0.1", client.port, context=client.ctx, timeout=15)
        self.conn.request("GET", path, headers=client._headers())
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.chunked = self.resp.getheader("Transfer-Encoding") == "chunked"
        self.buf = b""

    def next(self):
        # read1() (unlike readline()) raises IncompleteRead when the stream
        # ends without the terminating chunk, which the tests must notice.
        while b"\n" not in self.buf:
            data = self.resp.read1(65536)
            if not data:
                return None
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def events(self, n, skip_bookmarks=True):
        out = []
        while len(out) < n:
            ev = self.next()
            if ev is None:
                break
            if skip_bookmarks and ev["type"] == "BOOKMARK":
                continue
            out.append(ev)
        return out

    def close(self):
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.conn.close()


def wait_for(fn, timeout=15.0, what="condition"):
    """Poll fn() until it returns a truthy value; deadline-based, no tight timing."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = fn()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s (last: %r)" % (what, last))
