"""Shared server state: resource types, credentials, faults, watch knobs and
the request log.  Both the TLS API server and the control server use it."""

import collections
import csv
import re
import socket
import threading
import time

import fk_store

LOG_MAX = 200000
WRITE_VERBS = ("create", "update", "patch", "delete")


class Fault:
    """One injected fault; applies to the next `count` matching API requests."""

    KINDS = ("status", "drop", "drop_after", "delay")

    def __init__(self, spec):
        self.kind = spec.get("type", "status")
        if self.kind not in self.KINDS:
            raise ValueError("fault type must be one of %s" % ", ".join(self.KINDS))
        self.count = int(spec.get("count", 1))
        self.code = int(spec.get("code", 500))
        self.retry_after = spec.get("retryAfter")
        self.method = spec.get("method")
        self.path = re.compile(spec["path"]) if spec.get("path") else None
        self.watch = spec.get("watch")          # None = any, True/False = only (non-)watch
        self.delay_ms = int(spec.get("delay_ms", 0))
        self.spec = dict(spec)

    def matches(self, method, path, is_watch):
        if self.count <= 0:
            return False
        if self.method and self.method.upper() != method:
            return False
        if self.path and not self.path.search(path):
            return False
        return self.watch is None or bool(self.watch) == is_watch

    def public(self):
        out = dict(self.spec)
        out["remaining"] = self.count
        return out


class State:
    def __init__(self, store, ctl, types):
        self.store = store
        self.ctl = ctl
        self.types = types                    # (group, version, plural) -> ResType
        self.tokens = {}                      # token -> user name
        self.lock = threading.Lock()          # faults, log, connections
        self.faults = []
        self.log = collections.deque(maxlen=LOG_MAX)
        self.seq = 0
        self.conns = set()
        self.paused = False
        # Watch knobs (read under store.cond).
        self.watch_end_after = None           # end each new watch after N events
        self.bookmark_ms = 5000
        self.watch_410_http = False           # 410 as an HTTP status instead of an ERROR event
        self.stale_watches = 0                # next N watches with a resourceVersion get 410
        self.watch_epoch = 0                  # bumped to end running watches
        self.watch_abrupt = False
        self.active_watches = 0
        self.max_watch_s = 1800

    def by_plural(self, plural, group=None):
        for (g, _v, p), rt in self.types.items():
            if p == plural and (group is None or g == group):
                return rt
        return None

    def load_tokens(self, path):
        with open(path, encoding="utf-8") as f:
            for row in csv.reader(f):
                if not row or not row[0].strip() or row[0].startswith("#"):
                    continue
                self.tokens[row[0].strip()] = row[1].strip() if len(row) > 1 else "token-user"

    def take_fault(self, method, path, is_watch):
        with self.lock:
            for f in self.faults:
                if f.matches(method, path, is_watch):
                    f.count -= 1
                    return f
        return None

    def record(self, method, path, query, status, verb, user, resource):
        with self.lock:
            self.seq += 1
            self.log.append({"seq": self.seq, "time": time.time(), "method": method, "path": path,
                             "query": query, "status": status, "verb": verb, "user": user,
                             "resource": resource, "write": verb in WRITE_VERBS})

    def requests(self, since=0):
        with self.lock:
            return [e for e in self.log if e["seq"] > since]

    def stats(self, since=0):
        out = {"total": 0, "reads": 0, "writes": 0, "by_verb": {}, "by_status": {}}
        for e in self.requests(since):
            out["total"] += 1
            out["writes" if e["write"] else "reads"] += 1
            out["by_verb"][e["verb"]] = out["by_verb"].get(e["verb"], 0) + 1
            key = str(e["status"])
            out["by_status"][key] = out["by_status"].get(key, 0) + 1
        return out

    def track(self, sock, add):
        with self.lock:
            if add:
                self.conns.add(sock)
            else:
                self.conns.discard(sock)

    def drop_all_connections(self):
        with self.lock:
            conns = list(self.conns)
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def build_types(crds):
    types = {}
    for rt in fk_store.CORE_TYPES:
        types[(rt.group, rt.version, rt.plural)] = rt
    for crd in crds:
        rt = fk_store.ResType(crd.group, crd.version, crd.plural, crd.kind, crd.namespaced, crd)
        rt.list_kind = crd.list_kind
        types[(rt.group, rt.version, rt.plural)] = rt
    return types
