"""Kubernetes API verbs over the store: create, get, list, update, patch,
delete, pod logs, discovery.  Each handler returns (code, body, headers);
body is a dict (JSON) or bytes (text)."""

import base64
import copy
import json

import fk_nodes
import fk_rules
import fk_schema
import fk_store
import fk_util

MAX_BODY = 3 * 1024 * 1024
WEBHOOK_PREFIX = 'admission webhook "vjobset.kb.io" denied the request: '


class Req:
    def __init__(self, method, rt, ns, name, sub, query, body, ctype, user):
        self.method, self.rt, self.ns, self.name, self.sub = method, rt, ns, name, sub
        self.q, self.body, self.ctype, self.user = query, body, ctype, user


def _res(rt):
    return "%s.%s" % (rt.plural, rt.group) if rt.group else rt.plural


def not_found(rt, name):
    return fk_util.status(404, "NotFound", '%s "%s" not found' % (_res(rt), name),
                          {"name": name, "group": rt.group, "kind": rt.plural})


def bad_request(msg):
    return fk_util.status(400, "BadRequest", msg)


def _parse(req):
    try:
        obj = json.loads(req.body.decode("utf-8") or "null")
    except (UnicodeDecodeError, ValueError) as e:
        return None, bad_request("error decoding request body: %s" % e)
    if not isinstance(obj, dict):
        return None, bad_request("Object 'Kind' is missing in '%s'" % req.body[:100].decode("utf-8", "replace"))
    return obj, None


def _admit(req, obj, old=None):
    """Validation pipeline: meta, mutating webhook, schema (+CEL), validating webhook.

    Returns (object, error_status, warning_headers)."""
    rt = req.rt
    name = obj.get("metadata", {}).get("name") or req.name or ""
    causes = fk_rules.check_meta(obj, "label" if rt.plural == "namespaces" else "subdomain")
    warnings = []
    if rt.kind == "Secret" and isinstance(obj.get("stringData"), dict):
        # the apiserver stores stringData base64-encoded into data
        data = obj.setdefault("data", {})
        for k, v in obj.pop("stringData").items():
            data[k] = base64.b64encode(str(v).encode("utf-8")).decode("ascii")
    if rt.crd is not None:
        if rt.kind == "JobSet":
            fk_rules.jobset_defaults(obj)
        strict = req.q.get("fieldValidation") == "Strict"
        obj, schema_causes, unknown = fk_schema.validate(obj, rt.crd, strict)
        if unknown:
            if strict:
                return None, bad_request("strict decoding error: " + ", ".join(
                    'unknown field "%s"' % u for u in unknown)), []
            warnings = ['299 - "unknown field \\"%s\\""' % u for u in unknown]
        causes += schema_causes
        if rt.kind == "JobSet" and not causes:
            cel, hook = fk_rules.jobset_validate(obj)
            if cel:
                causes += cel
            elif hook:
                return None, fk_util.invalid_status(rt.qualified(), name, rt.group, rt.kind, hook,
                                                    WEBHOOK_PREFIX), []
    if causes:
        return None, fk_util.invalid_status(rt.qualified(), name, rt.group, rt.kind, causes), []
    return obj, None, warnings


def _check_type(req, obj):
    av, kind = obj.get("apiVersion"), obj.get("kind")
    if kind and kind != req.rt.kind:
        return bad_request("the kind in the data (%s) does not match the expected kind (%s)" % (kind, req.rt.kind))
    if av and av != req.rt.api_version:
        return bad_request("the API version in the data (%s) does not match the expected API version (%s)"
                           % (av, req.rt.api_version))
    ns = (obj.get("metadata") or {}).get("namespace")
    if req.rt.namespaced and ns and ns != req.ns:
        return bad_request("the namespace of the provided object does not match the namespace sent on the request")
    return None


def _warn_headers(warnings):
    return [("Warning", w) for w in warnings]


def create(state, req):
    obj, err = _parse(req)
    if err:
        return 400, err, []
    err = _check_type(req, obj)
    if err:
        return 400, err, []
    obj.setdefault("metadata", {})
    if req.rt.crd is not None and req.rt.crd.has_status:
        obj.pop("status", None)
    obj, err, warnings = _admit(req, obj)
    if err:
        return err["code"], err, []
    store = state.store
    with store.cond:
        name = obj["metadata"].get("name")
        if name and store.get(req.rt, req.ns, name) is not None:
            return 409, fk_util.status(409, "AlreadyExists", '%s "%s" already exists' % (_res(req.rt), name),
                                       {"name": name, "group": req.rt.group, "kind": req.rt.plural}), []
        if req.q.get("dryRun") == "All":
            obj["apiVersion"], obj["kind"] = req.rt.api_version, req.rt.kind
            obj["metadata"].update({"uid": fk_util.rand_uid(), "creationTimestamp": fk_util.now_rfc3339(),
                                    "generation": 1, "namespace": req.ns})
            return 201, obj, _warn_headers(warnings)
        stored = store.create(req.rt, req.ns, obj)
    return 201, stored, _warn_headers(warnings)


def access_review(body):
    try:
        spec = (json.loads(body.decode("utf-8") or "{}") or {}).get("spec") or {}
    except ValueError as e:
        return 400, bad_request("error decoding request body: %s" % e), []
    return 201, {"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                 "metadata": {}, "spec": spec, "status": {"allowed": True}}, []


def get(state, req):
    with state.store.cond:
        obj = state.store.get(req.rt, req.ns, req.name)
        if obj is None:
            return 404, not_found(req.rt, req.name), []
        return 200, copy.deepcopy(obj), []


def selectors(req):
    """(label_match, field_match) or raises SelectorError."""
    lm = fk_store.parse_label_selector(req.q["labelSelector"]) if req.q.get("labelSelector") else None
    fm = fk_store.parse_field_selector(req.q["fieldSelector"], req.rt.plural) if req.q.get("fieldSelector") else None
    return lm, fm


def _strip_core(rt, obj):
    # The real apiserver omits kind/apiVersion on items of built-in lists.
    if rt.crd is None:
        obj = dict(obj)
        obj.pop("kind", None)
        obj.pop("apiVersion", None)
    return obj


def list_(state, req):
    try:
        lm, fm = selectors(req)
    except fk_store.SelectorError as e:
        return 400, bad_request(str(e)), []
    store = state.store
    limit = int(req.q.get("limit") or 0)
    cont = req.q.get("continue")
    with store.cond:
        list_rv, start = store.rv, None
        if cont:
            try:
                tok = json.loads(base64.b64decode(cont))
                list_rv, start = int(tok["rv"]), tuple(tok["start"])
            except (ValueError, KeyError, TypeError):
                return 400, bad_request("continue key is not valid: incorrect encoded start resourceVersion"), []
            if list_rv < store.compacted:
                return 410, fk_util.status(410, "Expired", "The provided continue parameter is too old to display "
                                           "a consistent list result. You can start a new list without the "
                                           "continue parameter, or use the continue value from the response to "
                                           "get a list result that is inconsistent with the previous list."), []
        items = store.items(req.rt, req.ns, lm, fm)
        if start is not None:
            items = [o for o in items if (o["metadata"].get("namespace") or "", o["metadata"]["name"]) > start]
        meta = {"resourceVersion": str(list_rv)}
        if limit and len(items) > limit:
            last = items[limit - 1]["metadata"]
            tok = {"rv": list_rv, "start": [last.get("namespace") or "", last["name"]]}
            meta["continue"] = base64.b64encode(json.dumps(tok).encode()).decode()
            meta["remainingItemCount"] = len(items) - limit
            items = items[:limit]
        out = [_strip_core(req.rt, copy.deepcopy(o)) for o in items]
    return 200, {"kind": req.rt.list_kind, "apiVersion": req.rt.api_version, "metadata": meta,
                 "items": out}, []


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def _pointer(doc, path):
    parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
    cur = doc
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    return cur, parts[-1] if parts else None


def json_patch(doc, ops):
    doc = copy.deepcopy(doc)
    for op in ops:
        parent, key = _pointer(doc, op["path"])
        kind = op["op"]
        if isinstance(parent, list):
            idx = len(parent) if key == "-" else int(key)
            if kind == "add":
                parent.insert(idx, op["value"])
            elif kind == "remove":
                del parent[idx]
            elif kind == "replace":
                parent[idx] = op["value"]
            elif kind == "test" and parent[idx] != op["value"]:
                raise ValueError("testing value %s failed" % op["path"])
        else:
            if kind in ("add", "replace"):
                if kind == "replace" and key not in parent:
                    raise KeyError(key)
                parent[key] = op["value"]
            elif kind == "remove":
                del parent[key]
            elif kind == "test" and parent.get(key) != op["value"]:
                raise ValueError("testing value %s failed" % op["path"])
    return doc


def _apply_patch(req, cur):
    ctype = (req.ctype or "").split(";")[0].strip()
    try:
        patch = json.loads(req.body.decode("utf-8"))
        if ctype == "application/merge-patch+json" or (ctype == "application/strategic-merge-patch+json"
                                                       and req.rt.crd is None):
            return merge_patch(cur, patch), None
        if ctype == "application/json-patch+json":
            return json_patch(cur, patch), None
    except (ValueError, KeyError, IndexError, TypeError) as e:
        if isinstance(e, ValueError) and "testing value" in str(e):
            return None, (422, fk_util.status(422, "Invalid", str(e)))
        return None, (400, bad_request("the server rejected our request due to an error in our request: %s" % e))
    return None, (415, fk_util.status(415, "UnsupportedMediaType",
                                      "the body of the request was in an unknown format - accepted media types "
                                      "include: application/json-patch+json, application/merge-patch+json"
                                      + ("" if req.rt.crd else ", application/strategic-merge-patch+json")))


def update(state, req, patch=False):
    store = state.store
    with store.cond:
        cur = store.get(req.rt, req.ns, req.name)
        if cur is None:
            return 404, not_found(req.rt, req.name), []
        if patch:
            obj, err = _apply_patch(req, cur)
            if err:
                return err[0], err[1], []
        else:
            obj, err = _parse(req)
            if err:
                return 400, err, []
            want = (obj.get("metadata") or {}).get("resourceVersion")
            if not want and req.rt.crd is not None:
                return 422, fk_util.invalid_status(req.rt.qualified(), req.name, req.rt.group, req.rt.kind, [
                    fk_util.cause("FieldValueInvalid", "metadata.resourceVersion",
                                  "Invalid value: 0x0: must be specified for an update")]), []
            if want and want != cur["metadata"]["resourceVersion"]:
                return 409, fk_util.status(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object '
                                           "has been modified; please apply your changes to the latest version "
                                           "and try again" % (_res(req.rt), req.name),
                                           {"name": req.name, "group": req.rt.group, "kind": req.rt.plural}), []
        has_status = req.rt.crd is None or req.rt.crd.has_status
        if req.sub == "status":
            new = copy.deepcopy(cur)
            new["status"] = obj.get("status")
            obj = new
        elif has_status and "status" in cur:
            obj["status"] = copy.deepcopy(cur["status"])
        meta = obj.setdefault("metadata", {})
        for k in ("uid", "creationTimestamp", "generation", "namespace", "name", "ownerReferences",
                  "deletionTimestamp", "deletionGracePeriodSeconds"):
            if k in cur["metadata"] and (k != "ownerReferences" or k not in meta):
                meta[k] = cur["metadata"][k]
        obj, err, warnings = _admit(req, obj, cur)
        if err:
            return err["code"], err, []
        if req.rt.kind == "Node":
            fk_nodes.sync_cordon(obj)
        changed = obj.get("spec") != cur.get("spec")
        stored = store.update(req.rt, obj, spec_changed=changed)
    return 200, stored, _warn_headers(warnings)


def delete(state, req):
    opts = {}
    if req.body.strip():
        parsed, err = _parse(req)
        if err:
            return 400, err, []
        opts = parsed
    policy = req.q.get("propagationPolicy") or opts.get("propagationPolicy")
    grace = req.q.get("gracePeriodSeconds", opts.get("gracePeriodSeconds"))
    if policy not in (None, "Background", "Foreground", "Orphan"):
        return 422, fk_util.status(422, "Invalid", 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: '
                                   'Unsupported value: "%s": supported values: "Foreground", "Background", '
                                   '"Orphan", "nil"' % policy), []
    store = state.store
    with store.cond:
        cur = store.get(req.rt, req.ns, req.name)
        if cur is None:
            return 404, not_found(req.rt, req.name), []
        want_uid = (opts.get("preconditions") or {}).get("uid")
        if want_uid and want_uid != cur["metadata"]["uid"]:
            return 409, fk_util.status(409, "Conflict", "Operation cannot be fulfilled on %s \"%s\": Precondition "
                                       "failed: UID in precondition: %s, UID in object meta: %s"
                                       % (_res(req.rt), req.name, want_uid, cur["metadata"]["uid"]),
                                       {"name": req.name, "group": req.rt.group, "kind": req.rt.plural}), []
        if req.q.get("dryRun") == "All" or opts.get("dryRun"):
            return 200, copy.deepcopy(cur), []
        res = state.ctl.delete(cur, policy, int(grace) if grace is not None else None)
    return 200, res, []


def pod_log(state, req):
    with state.store.cond:
        pod = state.store.get(req.rt, req.ns, req.name)
        if pod is None:
            return 404, not_found(req.rt, req.name), []
        kl = state.ctl.kubelet
        st = kl.states.get(pod["metadata"]["uid"])
        text = kl.procs.log(pod["metadata"]["uid"]) if kl.procs is not None else None
        if text is None:
            text = st.sched["log"] if st else kl.resolve(pod, state.ctl.top_labels(pod))["log"]
    return 200, text.encode("utf-8"), [("Content-Type", "text/plain")]


def discovery(state, path):
    """Discovery and version endpoints; None if `path` is not one."""
    groups = {}
    for (g, v, _p), rt in sorted(state.types.items()):
        groups.setdefault(g, {}).setdefault(v, []).append(rt)
    segs = [s for s in path.split("/") if s]
    if path in ("/version", "/version/"):
        return {"major": "1", "minor": "31", "gitVersion": "v1.31.0-fake", "platform": "linux/amd64"}
    if segs == ["api"]:
        return {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}
    if segs == ["apis"]:
        return {"kind": "APIGroupList", "apiVersion": "v1",
                "groups": [_group(g, vs) for g, vs in groups.items() if g]}
    if len(segs) == 2 and segs[0] == "apis" and segs[1] in groups:
        return dict(_group(segs[1], groups[segs[1]]), kind="APIGroup", apiVersion="v1")
    if (segs[:1] == ["api"] and segs[1:] == ["v1"]) or (len(segs) == 3 and segs[0] == "apis"):
        g, v = ("", "v1") if segs[0] == "api" else (segs[1], segs[2])
        if v not in groups.get(g, {}):
            return None
        return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": ("%s/%s" % (g, v)) if g else v,
                "resources": [{"name": rt.plural, "namespaced": rt.namespaced, "kind": rt.kind,
                               "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"]}
                              for rt in groups[g][v]]}
    return None


def _group(g, versions):
    vs = [{"groupVersion": "%s/%s" % (g, v), "version": v} for v in versions]
    return {"name": g, "versions": vs, "preferredVersion": vs[0]}
