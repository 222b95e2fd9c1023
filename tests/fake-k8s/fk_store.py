"""In-memory object store with resourceVersions, an event history for watches,
owner indexes for garbage collection, and label/field selectors.

One Condition (`store.cond`) guards everything: API handlers, the controller
and watchers all take it, which keeps the fake simple and free of races.
Every mutation bumps the global resourceVersion by exactly one and appends
exactly one event, so an event's index in the history is rv - base.
"""

import copy
import re
import threading

import fk_util


class ResType:
    def __init__(self, group, version, plural, kind, namespaced=True, crd=None):
        self.group, self.version, self.plural, self.kind = group, version, plural, kind
        self.namespaced = namespaced
        self.crd = crd
        self.api_version = "%s/%s" % (group, version) if group else version
        self.list_kind = kind + "List"
        self.key = (group, plural)

    def qualified(self):
        """'JobSet.jobset.x-k8s.io', as apiserver error messages name a kind."""
        return "%s.%s" % (self.kind, self.group) if self.group else self.kind


CORE_TYPES = [
    ResType("", "v1", "pods", "Pod"),
    ResType("", "v1", "events", "Event"),
    ResType("", "v1", "configmaps", "ConfigMap"),
    ResType("", "v1", "secrets", "Secret"),
    ResType("", "v1", "services", "Service"),
    ResType("", "v1", "namespaces", "Namespace", namespaced=False),
    ResType("", "v1", "nodes", "Node", namespaced=False),
    ResType("batch", "v1", "jobs", "Job"),
]


class SelectorError(ValueError):
    pass


_REQ = re.compile(r"\s*(!?)\s*([A-Za-z0-9_./-]+)\s*(?:(==|=|!=)\s*([A-Za-z0-9_.-]*)|\s+(in|notin)\s*\(([^)]*)\))?\s*$")


def _split_top(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def parse_label_selector(text):
    """Return a predicate over a labels dict; raises SelectorError."""
    reqs = []
    for part in _split_top(text or ""):
        m = _REQ.match(part)
        if not m:
            raise SelectorError("unable to parse requirement: %r" % part.strip())
        neg, key, op, val, setop, vals = m.groups()
        if neg and (op or setop):
            raise SelectorError("unable to parse requirement: %r" % part.strip())
        if setop:
            reqs.append((key, setop, {v.strip() for v in vals.split(",") if v.strip()}))
        elif op:
            reqs.append((key, "!=" if op == "!=" else "=", val))
        else:
            reqs.append((key, "!exists" if neg else "exists", None))

    def match(labels):
        labels = labels or {}
        for key, op, val in reqs:
            have = key in labels
            if op == "=" and labels.get(key) != val:
                return False
            if op == "!=" and have and labels[key] == val:
                return False
            if op == "in" and labels.get(key) not in val:
                return False
            if op == "notin" and have and labels[key] in val:
                return False
            if op == "exists" and not have:
                return False
            if op == "!exists" and have:
                return False
        return True
    return match


_FIELDS = {
    "pods": ["metadata.name", "metadata.namespace", "status.phase", "spec.nodeName"],
    "events": ["metadata.name", "metadata.namespace", "involvedObject.kind", "involvedObject.name",
               "involvedObject.uid", "involvedObject.namespace", "type", "reason"],
    "jobs": ["metadata.name", "metadata.namespace", "status.successful"],
}


def parse_field_selector(text, plural):
    allowed = _FIELDS.get(plural, ["metadata.name", "metadata.namespace"])
    reqs = []
    for part in [p for p in (text or "").split(",") if p.strip()]:
        m = re.match(r"^\s*([A-Za-z.]+)\s*(==|=|!=)\s*(.*?)\s*$", part)
        if not m:
            raise SelectorError("invalid selector: %r; can't understand %r" % (text, part))
        field, op, val = m.groups()
        if field not in allowed:
            raise SelectorError('"%s" is not a known field selector: only "%s"'
                                % (field, '", "'.join(allowed)))
        reqs.append((field.split("."), op != "!=", val))

    def match(obj):
        for path, eq, val in reqs:
            cur = obj
            for p in path:
                cur = cur.get(p) if isinstance(cur, dict) else None
            if (str(cur if cur is not None else "") == val) != eq:
                return False
        return True
    return match


class Store:
    def __init__(self, window=10000):
        self.cond = threading.Condition()
        self.rv = 1
        self.objects = {}           # (restype.key, ns, name) -> obj
        self.by_uid = {}            # uid -> key
        self.children = {}          # owner uid -> set(keys)
        self.events = []            # [(rv, restype, ns, type, obj, oldobj)]
        self.events_base = 2        # rv of events[0]
        self.compacted = 1          # watches from rv < compacted get 410
        self.window = window
        self.hooks = []             # callables(evtype, restype, obj), under the lock
        self.gone_uids = []         # removed owners, for the garbage collector

    # --- internal mutation primitives (caller holds cond) -------------------
    def _emit(self, restype, evtype, obj, old):
        self.rv += 1
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.events.append((self.rv, restype, obj["metadata"].get("namespace"), evtype,
                            copy.deepcopy(obj), old))
        if len(self.events) > self.window:
            drop = len(self.events) - self.window
            del self.events[:drop]
            self.events_base += drop
            self.compacted = max(self.compacted, self.events_base - 1)
        for hook in self.hooks:
            hook(evtype, restype, obj)
        self.cond.notify_all()

    def _index_owners(self, key, obj, add):
        for ref in obj["metadata"].get("ownerReferences") or []:
            kids = self.children.setdefault(ref.get("uid"), set())
            if add:
                kids.add(key)
            else:
                kids.discard(key)
                if not kids:
                    self.children.pop(ref.get("uid"), None)

    @staticmethod
    def key(restype, ns, name):
        return (restype.key, ns if restype.namespaced else None, name)

    def create(self, restype, ns, obj):
        """Store a new object; returns the stored copy or None if it exists."""
        meta = obj.setdefault("metadata", {})
        if restype.namespaced:
            meta["namespace"] = ns
        else:
            meta.pop("namespace", None)
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + fk_util.rand_suffix()
        key = self.key(restype, ns, meta["name"])
        if key in self.objects:
            return None
        head = {"apiVersion": restype.api_version, "kind": restype.kind, "metadata": meta}
        rest = {k: v for k, v in obj.items() if k not in head}
        obj.clear()
        obj.update(head)
        obj.update(rest)
        if restype.plural == "pods":
            obj.setdefault("status", {"phase": "Pending", "qosClass": "Burstable"})
        meta["uid"] = fk_util.rand_uid()
        meta["creationTimestamp"] = fk_util.now_rfc3339()
        meta["generation"] = 1
        for k in ("deletionTimestamp", "deletionGracePeriodSeconds", "resourceVersion"):
            meta.pop(k, None)
        self.objects[key] = obj
        self.by_uid[meta["uid"]] = key
        self._index_owners(key, obj, True)
        self._emit(restype, "ADDED", obj, None)
        return copy.deepcopy(obj)

    def update(self, restype, obj, spec_changed=False):
        """Replace a stored object (same key); bumps rv and maybe generation."""
        key = self.key(restype, obj["metadata"].get("namespace"), obj["metadata"]["name"])
        old = self.objects.get(key)
        if old is None:
            return None
        self._index_owners(key, old, False)
        if spec_changed:
            obj["metadata"]["generation"] = old["metadata"].get("generation", 1) + 1
        self.objects[key] = obj
        self._index_owners(key, obj, True)
        self._emit(restype, "MODIFIED", obj, old)
        return copy.deepcopy(obj)

    def remove(self, restype, ns, name):
        key = self.key(restype, ns, name)
        obj = self.objects.pop(key, None)
        if obj is None:
            return None
        self.by_uid.pop(obj["metadata"]["uid"], None)
        self._index_owners(key, obj, False)
        self.gone_uids.append(obj["metadata"]["uid"])
        self._emit(restype, "DELETED", obj, obj)
        return copy.deepcopy(obj)

    # --- reads (caller holds cond) ------------------------------------------
    def get(self, restype, ns, name):
        return self.objects.get(self.key(restype, ns, name))

    def get_uid(self, uid):
        key = self.by_uid.get(uid)
        return self.objects.get(key) if key else None

    def dependents(self, uid):
        return [self.objects[k] for k in sorted(self.children.get(uid, ())) if k in self.objects]

    def items(self, restype, ns=None, label_match=None, field_match=None):
        out = []
        for (rkey, ons, _name), obj in self.objects.items():
            if rkey != restype.key or (ns is not None and restype.namespaced and ons != ns):
                continue
            if label_match and not label_match(obj["metadata"].get("labels")):
                continue
            if field_match and not field_match(obj):
                continue
            out.append(obj)
        out.sort(key=lambda o: (o["metadata"].get("namespace") or "", o["metadata"]["name"]))
        return out

    def events_since(self, rv):
        """Events with resourceVersion > rv (rv must be >= compacted)."""
        start = max(rv + 1 - self.events_base, 0)
        return self.events[start:]

    def compact(self, to_rv=None):
        self.compacted = self.rv if to_rv is None else min(int(to_rv), self.rv)
