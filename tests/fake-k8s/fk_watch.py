"""Watch streaming: chunked newline-delimited JSON events, bookmarks,
410 Expired for resourceVersions older than the retained history, and the
test knobs that end watches early or abruptly."""

import copy
import json
import time

import fk_api
import fk_store
import fk_util


def _too_old(rv, oldest):
    return fk_util.status(410, "Expired", "too old resource version: %d (%d)" % (rv, oldest))


class Filter:
    def __init__(self, req, lm, fm):
        self.rt, self.ns, self.lm, self.fm = req.rt, req.ns, lm, fm

    def _match(self, obj):
        if obj is None:
            return False
        return (self.lm is None or self.lm(obj["metadata"].get("labels"))) and \
            (self.fm is None or self.fm(obj))

    def convert(self, ev):
        """Map a store event to what this watcher sees (or None)."""
        _rv, rt, ns, etype, obj, old = ev
        if rt.key != self.rt.key or (self.ns is not None and rt.namespaced and ns != self.ns):
            return None
        if etype == "MODIFIED":
            now, before = self._match(obj), self._match(old)
            if now and before:
                return ("MODIFIED", obj)
            if now:
                return ("ADDED", obj)
            return ("DELETED", obj) if before else None
        return (etype, obj) if self._match(obj) else None


class Watch:
    def __init__(self, state, handler, req):
        self.state, self.h, self.req = state, handler, req
        self.sent = 0

    def _chunk(self, data):
        self.h.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.h.wfile.flush()

    def _event(self, etype, obj):
        self._chunk(json.dumps({"type": etype, "object": obj}, separators=(",", ":")).encode() + b"\n")

    def _bookmark(self, rv, initial_end=False):
        meta = {"resourceVersion": str(rv)}
        if initial_end:
            meta["annotations"] = {"k8s.io/initial-events-end": "true"}
        self._event("BOOKMARK", {"kind": self.req.rt.kind, "apiVersion": self.req.rt.api_version,
                                 "metadata": meta})

    def run(self):
        st, store, q = self.state, self.state.store, self.req.q
        try:
            lm, fm = fk_api.selectors(self.req)
            rv_param = q.get("resourceVersion") or ""
            rv = int(rv_param) if rv_param not in ("", "0") else None
            timeout = min(int(q.get("timeoutSeconds") or st.max_watch_s), st.max_watch_s)
        except (fk_store.SelectorError, ValueError) as e:
            return self.h.send_json(400, fk_api.bad_request(str(e)))
        bookmarks = q.get("allowWatchBookmarks") in ("true", "1")
        send_initial = q.get("sendInitialEvents") == "true" or rv is None
        flt = Filter(self.req, lm, fm)
        with store.cond:
            stale = rv is not None and (rv < store.compacted or st.stale_watches > 0)
            if rv is not None and st.stale_watches > 0:
                st.stale_watches -= 1
            oldest = store.compacted + 1
            http_410 = stale and st.watch_410_http
            initial = []
            if not stale and send_initial:
                initial = [copy.deepcopy(o) for o in store.items(self.req.rt, self.req.ns, lm, fm)]
            last = store.rv if rv is None or (send_initial and not stale) else rv
            epoch, end_after = st.watch_epoch, st.watch_end_after
            if not http_410:
                st.active_watches += 1
        if http_410:
            return self.h.send_json(410, _too_old(rv, oldest))
        try:
            self.h.start_chunked()
            if stale:
                self._event("ERROR", _too_old(rv, oldest))
            else:
                for obj in initial:
                    self._event("ADDED", obj)
                if q.get("sendInitialEvents") == "true" and bookmarks:
                    self._bookmark(last, True)
                self._stream(flt, last, epoch, end_after, bookmarks, time.monotonic() + timeout)
            if not self._abrupt(epoch):
                self._chunk(b"")
        except (OSError, ValueError):
            pass
        finally:
            with store.cond:
                st.active_watches -= 1
            self.h.close_connection = True
        return None

    def _abrupt(self, epoch):
        return self.state.watch_epoch != epoch and self.state.watch_abrupt

    def _stream(self, flt, last, epoch, end_after, bookmarks, deadline):
        st, store = self.state, self.state.store
        next_bm = time.monotonic() + st.bookmark_ms / 1000.0
        while True:
            with store.cond:
                while True:
                    now = time.monotonic()
                    if st.watch_epoch != epoch or st.paused or now >= deadline:
                        return
                    if last + 1 < store.events_base:
                        out = [("ERROR", _too_old(last, store.compacted + 1))]
                        break
                    evs = store.events_since(last)
                    out = [c for c in (flt.convert(e) for e in evs) if c is not None]
                    last = store.rv
                    if out or (bookmarks and now >= next_bm):
                        break
                    store.cond.wait(min(deadline - now, max(next_bm - now, 0.01) if bookmarks else 1.0, 1.0))
            for etype, obj in out:
                self._event(etype, obj)
                if etype == "ERROR":
                    return
                self.sent += 1
                if end_after is not None and self.sent >= end_after:
                    return
            if bookmarks and time.monotonic() >= next_bm:
                self._bookmark(last)
                next_bm = time.monotonic() + st.bookmark_ms / 1000.0
