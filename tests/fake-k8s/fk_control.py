"""Control plane for tests: plain HTTP on 127.0.0.1, JSON in and out, no
auth, never recorded in the request log.  See README.md for the API."""

import copy
import json
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import fk_nodes
import fk_pods
import fk_state
import fk_store

CONFIG_KEYS = {"watch_end_after", "bookmark_ms", "watch_410", "stale_watches", "node_count",
               "max_watch_s"}


class ControlError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


class ControlHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 60

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self._dispatch("GET")

    def do_POST(self):
        self._dispatch("POST")

    def do_PUT(self):
        self._dispatch("PUT")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def _reply(self, code, obj):
        data = json.dumps(obj, indent=1, sort_keys=True).encode() + b"\n"
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _dispatch(self, method):
        url = urllib.parse.urlsplit(self.path)
        q = dict(urllib.parse.parse_qsl(url.query))
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw.decode() or "{}")
            fn = ROUTES.get((method, url.path.rstrip("/")))
            if fn is None:
                raise ControlError(404, "no such control endpoint: %s %s" % (method, url.path))
            self._reply(200, fn(self.server.ctx, body, q))
        except ControlError as e:
            self._reply(e.code, {"error": str(e)})
        except (ValueError, KeyError, TypeError, fk_store.SelectorError) as e:
            self._reply(400, {"error": "%s: %s" % (type(e).__name__, e)})


class Ctx:
    def __init__(self, state, api_server):
        self.state = state
        self.api = api_server

    @property
    def store(self):
        return self.state.store

    @property
    def kubelet(self):
        return self.state.ctl.kubelet


def _healthz(ctx, body, q):
    return {"ok": True}


def _get_state(ctx, body, q):
    st = ctx.state
    with ctx.store.cond:
        return {"rv": ctx.store.rv, "compacted": ctx.store.compacted, "paused": st.paused,
                "active_watches": st.active_watches, "objects": len(ctx.store.objects),
                "api_port": ctx.api.port}


def _get_schedule(ctx, body, q):
    with ctx.store.cond:
        return dict(ctx.kubelet.schedule)


def _put_schedule(ctx, body, q):
    bad = set(body) - set(fk_pods.DEFAULT_SCHEDULE)
    if bad:
        raise ControlError(400, "unknown schedule fields: %s" % ", ".join(sorted(bad)))
    with ctx.store.cond:
        ctx.kubelet.schedule.update(body)
        return dict(ctx.kubelet.schedule)


def _get_overrides(ctx, body, q):
    with ctx.store.cond:
        return {"overrides": ctx.kubelet.public_overrides()}


def _add_override(ctx, body, q):
    bad = set(body) - set(fk_pods.DEFAULT_SCHEDULE) - {"selector"}
    if bad or "selector" not in body:
        raise ControlError(400, "an override needs 'selector' and schedule fields; unknown: %s"
                           % ", ".join(sorted(bad)))
    with ctx.store.cond:
        ctx.kubelet.add_override(body)
        return {"overrides": ctx.kubelet.public_overrides()}


def _clear_overrides(ctx, body, q):
    with ctx.store.cond:
        ctx.kubelet.overrides = []
    return {"overrides": []}


def _get_faults(ctx, body, q):
    with ctx.state.lock:
        return {"faults": [f.public() for f in ctx.state.faults if f.count > 0]}


def _add_fault(ctx, body, q):
    fault = fk_state.Fault(body)
    with ctx.state.lock:
        ctx.state.faults.append(fault)
    return _get_faults(ctx, body, q)


def _clear_faults(ctx, body, q):
    with ctx.state.lock:
        ctx.state.faults = []
    return {"faults": []}


def _get_config(ctx, body, q):
    st = ctx.state
    return {"watch_end_after": st.watch_end_after, "bookmark_ms": st.bookmark_ms,
            "watch_410": "http" if st.watch_410_http else "stream", "stale_watches": st.stale_watches,
            "node_count": ctx.kubelet.node_count, "max_watch_s": st.max_watch_s}


def _put_config(ctx, body, q):
    bad = set(body) - CONFIG_KEYS
    if bad:
        raise ControlError(400, "unknown config keys: %s" % ", ".join(sorted(bad)))
    st = ctx.state
    with ctx.store.cond:
        if "watch_end_after" in body:
            st.watch_end_after = None if body["watch_end_after"] is None else int(body["watch_end_after"])
        if "bookmark_ms" in body:
            st.bookmark_ms = max(int(body["bookmark_ms"]), 10)
        if "watch_410" in body:
            if body["watch_410"] not in ("stream", "http"):
                raise ControlError(400, "watch_410 must be 'stream' or 'http'")
            st.watch_410_http = body["watch_410"] == "http"
        if "stale_watches" in body:
            st.stale_watches = int(body["stale_watches"])
        if "node_count" in body:
            ctx.kubelet.node_count = max(int(body["node_count"]), 1)
        if "max_watch_s" in body:
            st.max_watch_s = max(int(body["max_watch_s"]), 1)
    return _get_config(ctx, body, q)


def _close_watches(ctx, abrupt):
    with ctx.store.cond:
        ctx.state.watch_epoch += 1
        ctx.state.watch_abrupt = bool(abrupt)
        ctx.store.cond.notify_all()


def _compact(ctx, body, q):
    with ctx.store.cond:
        ctx.store.compact(body.get("rv"))
        out = {"compacted": ctx.store.compacted, "rv": ctx.store.rv}
    if body.get("closeWatches"):
        _close_watches(ctx, False)
    return out


def _post_close_watches(ctx, body, q):
    _close_watches(ctx, body.get("abrupt"))
    return {"ok": True}


def _pause(ctx, body, q):
    ctx.api.pause(body.get("seconds"))
    return {"paused": True}


def _resume(ctx, body, q):
    ctx.api.resume()
    return {"paused": False, "api_port": ctx.api.port}


def _get_requests(ctx, body, q):
    return {"requests": ctx.state.requests(int(q.get("since", 0)))}


def _clear_requests(ctx, body, q):
    with ctx.state.lock:
        ctx.state.log.clear()
        return {"seq": ctx.state.seq}


def _get_stats(ctx, body, q):
    out = ctx.state.stats(int(q.get("since", 0)))
    out["seq"] = ctx.state.seq
    return out


def _find_type(ctx, resource):
    rt = ctx.state.by_plural(resource)
    if rt is None:
        raise ControlError(400, "unknown resource %r" % resource)
    return rt


def _get_objects(ctx, body, q):
    rt = _find_type(ctx, q.get("resource", "pods"))
    lm = fk_store.parse_label_selector(q["labelSelector"]) if q.get("labelSelector") else None
    with ctx.store.cond:
        items = copy.deepcopy(ctx.store.items(rt, q.get("namespace"), lm))
        return {"rv": ctx.store.rv, "items": items}


def _post_object(ctx, body, q):
    obj = body["object"]
    rt = None
    for t in ctx.state.types.values():
        if t.kind == obj.get("kind") and t.api_version == obj.get("apiVersion"):
            rt = t
    if rt is None:
        raise ControlError(400, "unknown apiVersion/kind")
    ns = (obj.get("metadata") or {}).get("namespace") or "default"
    with ctx.store.cond:
        stored = ctx.store.create(rt, ns, copy.deepcopy(obj))
    if stored is None:
        raise ControlError(409, "already exists")
    return stored


def _pod_action(ctx, body, q):
    match = fk_store.parse_label_selector(body.get("selector", ""))
    rt = ctx.state.by_plural("pods")
    done = []
    with ctx.store.cond:
        ctx.state.ctl.register_pods()
        for pod in ctx.store.items(rt, body.get("namespace")):
            labels = ctx.state.ctl.top_labels(pod)
            labels.update(pod["metadata"].get("labels") or {})
            if match(labels) and ctx.kubelet.act(pod, body["action"], body.get("exitCode")):
                done.append(pod["metadata"]["name"])
    return {"matched": len(done), "pods": done}


def _post_nodes(ctx, body, q):
    rt = _find_type(ctx, "nodes")
    spec = {k: body[k] for k in ("cpu", "memory", "gpus", "pods", "labels", "taints",
                                 "pods_per_node", "pod_cpu") if k in body}
    with ctx.store.cond:
        made = fk_nodes.seed(ctx.store, rt, int(body.get("count", 4)), spec,
                             body.get("prefix", "fake-node-"), _find_type(ctx, "pods"))
    return {"created": made}


def _node_action(ctx, body, q):
    rt = _find_type(ctx, "nodes")
    if body.get("action") not in fk_nodes.ACTIONS:
        raise ControlError(400, "action must be one of %s" % ", ".join(sorted(fk_nodes.ACTIONS)))
    with ctx.store.cond:
        if not fk_nodes.act(ctx.store, rt, body.get("name", ""), body["action"], body.get("message")):
            raise ControlError(404, "no node %r" % body.get("name"))
    return {"ok": True}


def _reset(ctx, body, q):
    _close_watches(ctx, False)
    with ctx.store.cond:
        kl = ctx.kubelet
        kl.schedule = dict(fk_pods.DEFAULT_SCHEDULE)
        kl.overrides = []
        for obj in list(ctx.store.objects.values()):
            rt = ctx.state.ctl.rt_of(obj)
            ctx.store.remove(rt, obj["metadata"].get("namespace"), obj["metadata"]["name"])
        ctx.store.gone_uids = []
        kl.states.clear()
        st = ctx.state
        st.watch_end_after, st.bookmark_ms, st.watch_410_http, st.stale_watches = None, 5000, False, 0
    _clear_faults(ctx, body, q)
    _clear_requests(ctx, body, q)
    return {"ok": True}


ROUTES = {
    ("GET", "/fake/healthz"): _healthz,
    ("GET", "/fake/state"): _get_state,
    ("GET", "/fake/schedule"): _get_schedule,
    ("PUT", "/fake/schedule"): _put_schedule,
    ("GET", "/fake/overrides"): _get_overrides,
    ("POST", "/fake/overrides"): _add_override,
    ("DELETE", "/fake/overrides"): _clear_overrides,
    ("GET", "/fake/faults"): _get_faults,
    ("POST", "/fake/faults"): _add_fault,
    ("DELETE", "/fake/faults"): _clear_faults,
    ("GET", "/fake/config"): _get_config,
    ("PUT", "/fake/config"): _put_config,
    ("POST", "/fake/compact"): _compact,
    ("POST", "/fake/watches/close"): _post_close_watches,
    ("POST", "/fake/pause"): _pause,
    ("POST", "/fake/resume"): _resume,
    ("GET", "/fake/requests"): _get_requests,
    ("DELETE", "/fake/requests"): _clear_requests,
    ("GET", "/fake/stats"): _get_stats,
    ("GET", "/fake/objects"): _get_objects,
    ("POST", "/fake/objects"): _post_object,
    ("POST", "/fake/pods"): _pod_action,
    ("POST", "/fake/nodes"): _post_nodes,
    ("POST", "/fake/nodes/action"): _node_action,
    ("POST", "/fake/reset"): _reset,
}


class ControlServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port, ctx):
        self.ctx = ctx
        super().__init__(("127.0.0.1", port), ControlHandler)

    def handle_error(self, request, client_address):
        pass
