"""The controller loop: garbage collection, deletion semantics, the kubelet
stand-in and the batch Job / JobSet / MPIJob reconcilers.

Everything runs in one thread under store.cond.  Store hooks only mark
objects dirty (no writes from inside a hook); the tick reconciles them.
"""

import copy
import random
import threading
import time
import traceback

import fk_jobs
import fk_jobset
import fk_mpijob
import fk_pods
import fk_util

TICK_S = 0.05


def cond_true(status, ctype):
    return any(c.get("type") == ctype and c.get("status") == "True"
               for c in (status or {}).get("conditions") or [])


def set_condition(conds, ctype, status_, reason, message, update_time=False, generation=None):
    """Return conditions with `ctype` set; lastTransitionTime only moves on a status change."""
    conds = [dict(c) for c in conds or []]
    now = fk_util.now_rfc3339()
    for c in conds:
        if c.get("type") != ctype:
            continue
        if (c.get("status"), c.get("reason"), c.get("message")) == (status_, reason, message):
            return conds
        if c.get("status") != status_:
            c["lastTransitionTime"] = now
        c.update({"status": status_, "reason": reason, "message": message})
        if update_time:
            c["lastUpdateTime"] = now
        return conds
    new = {"type": ctype, "status": status_, "reason": reason, "message": message,
           "lastTransitionTime": now}
    if update_time:
        new["lastUpdateTime"] = now
    if generation is not None:
        new["observedGeneration"] = generation
    conds.append(new)
    return conds


def owner_ref(obj):
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": obj["metadata"]["name"],
            "uid": obj["metadata"]["uid"], "controller": True, "blockOwnerDeletion": True}


class Controller:
    def __init__(self, store, types):
        self.store = store
        self.types = types                      # plural -> ResType
        self.by_kind = {(t.api_version, t.kind): t for t in types.values()}
        self.kubelet = fk_pods.Kubelet(store, types["pods"])
        self.kubelet.nodes_rt = types.get("nodes")
        self.kubelet.secrets_rt = types.get("secrets")
        self.dirty = set()
        self.new_pods = []
        self.timed = {}                         # uid -> monotonic time to re-reconcile
        self.foreground = set()
        self.seen_failed = set()
        self.once = set()                       # (uid, reason) of one-shot events
        self.job_start = {}                     # job uid -> monotonic start
        self.finished_at = {}                   # jobset uid -> monotonic finish (ttl)
        self.jobs = fk_jobs.JobController(self)
        self.jobsets = fk_jobset.JobSetController(self)
        self.mpijobs = fk_mpijob.MPIJobController(self)
        self._stop = threading.Event()
        self._thread = None
        store.hooks.append(self._hook)

    # --- plumbing ------------------------------------------------------------
    def _hook(self, evtype, restype, obj):
        meta = obj["metadata"]
        if evtype == "DELETED":
            return
        if restype.plural in ("jobsets", "mpijobs", "jobs"):
            self.dirty.add(meta["uid"])
        if restype.plural == "pods" and evtype == "ADDED":
            self.new_pods.append(meta["uid"])
        for ref in meta.get("ownerReferences") or []:
            self.dirty.add(ref.get("uid"))

    def start(self):
        self._thread = threading.Thread(target=self._run, name="controller", daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        if self.kubelet.procs is not None:  # exec pods end with the server
            self.kubelet.procs.close()

    def _run(self):
        while not self._stop.wait(TICK_S):
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - keep serving; stderr fails the self-test
                traceback.print_exc()

    def rt_of(self, obj):
        return self.by_kind.get((obj.get("apiVersion"), obj.get("kind")))

    def top_labels(self, obj):
        """Labels of the object's root owner (pod -> Job -> JobSet)."""
        labels = {}
        seen = 0
        cur = obj
        while cur is not None and seen < 5:
            refs = cur["metadata"].get("ownerReferences") or []
            cur = self.store.get_uid(refs[0]["uid"]) if refs else None
            if cur is not None:
                merged = dict(cur["metadata"].get("labels") or {})
                merged.update(labels)
                labels = merged
            seen += 1
        return labels

    def tick(self):
        now = time.monotonic()
        with self.store.cond:
            self.register_pods()
            self.gc()
            self.kubelet.tick(now)
            for uid, when in list(self.timed.items()):
                if now >= when:
                    del self.timed[uid]
                    self.dirty.add(uid)
            for _ in range(10):
                if not self.dirty:
                    break
                batch, self.dirty = self.dirty, set()
                for uid in sorted(batch, key=str):
                    obj = self.store.get_uid(uid)
                    if obj is not None:
                        self._dispatch(obj, now)
                self.register_pods()

    def register_pods(self):
        while self.new_pods:
            uid = self.new_pods.pop(0)
            pod = self.store.get_uid(uid)
            if pod is None or uid in self.kubelet.states:
                continue
            role = (pod["metadata"].get("labels") or {}).get("training.kubeflow.org/replica-type")
            self.kubelet.register(pod, self.top_labels(pod), role)

    def _dispatch(self, obj, now):
        kind = obj.get("kind")
        if kind == "Job":
            self.jobs.reconcile(obj, now)
        elif kind == "JobSet":
            self.jobsets.reconcile(obj, now)
        elif kind == "MPIJob":
            self.mpijobs.reconcile(obj, now)

    # --- helpers for reconcilers ------------------------------------------
    def write_status(self, obj, status):
        if obj.get("status") == status:
            return obj
        new = copy.deepcopy(obj)
        new["status"] = status
        return self.store.update(self.rt_of(obj), new)

    def create_child(self, plural, owner, obj):
        obj.setdefault("metadata", {})["ownerReferences"] = [owner_ref(owner)]
        return self.store.create(self.types[plural], owner["metadata"]["namespace"], obj)

    def event(self, obj, etype, reason, message, component):
        meta = obj["metadata"]
        ev = {"metadata": {"name": "%s.%016x" % (meta["name"], random.getrandbits(64))},
              "involvedObject": {"apiVersion": obj["apiVersion"], "kind": obj["kind"],
                                 "name": meta["name"], "namespace": meta.get("namespace"),
                                 "uid": meta["uid"], "resourceVersion": meta.get("resourceVersion")},
              "reason": reason, "message": message, "type": etype, "count": 1,
              "firstTimestamp": fk_util.now_rfc3339(), "lastTimestamp": fk_util.now_rfc3339(),
              "source": {"component": component}, "reportingComponent": component}
        self.store.create(self.types["events"], meta.get("namespace") or "default", ev)

    def event_once(self, obj, etype, reason, message, component):
        key = (obj["metadata"]["uid"], reason)
        if key not in self.once:
            self.once.add(key)
            self.event(obj, etype, reason, message, component)

    def dependents(self, obj, kind=None):
        return [d for d in self.store.dependents(obj["metadata"]["uid"])
                if kind is None or d.get("kind") == kind]

    # --- deletion and garbage collection ---------------------------------------
    def delete(self, obj, policy=None, grace=None):
        """Delete like the apiserver + GC; returns the object to answer with."""
        rt = self.rt_of(obj)
        meta = obj["metadata"]
        if rt.plural == "pods":
            if grace is None:
                grace = (obj.get("spec") or {}).get("terminationGracePeriodSeconds", 30)
            before = copy.deepcopy(obj)
            res = self.kubelet.begin_delete(obj, grace)
            return res if res is not None else before
        policy = policy or ("Orphan" if rt.plural == "jobs" else "Background")
        deps = self.store.dependents(meta["uid"])
        if policy == "Orphan":
            for dep in deps:
                new = copy.deepcopy(dep)
                new["metadata"]["ownerReferences"] = [
                    r for r in new["metadata"].get("ownerReferences") or [] if r.get("uid") != meta["uid"]]
                self.store.update(self.rt_of(dep), new)
        elif policy == "Foreground" and deps:
            if meta.get("deletionTimestamp"):
                return copy.deepcopy(obj)
            new = copy.deepcopy(obj)
            new["metadata"]["deletionTimestamp"] = fk_util.now_rfc3339()
            new["metadata"]["deletionGracePeriodSeconds"] = 0
            fins = new["metadata"].setdefault("finalizers", [])
            if "foregroundDeletion" not in fins:
                fins.append("foregroundDeletion")
            res = self.store.update(rt, new)
            self.foreground.add(meta["uid"])
            for dep in deps:
                self.delete(dep, "Foreground", None)
            return res
        return self.store.remove(rt, meta.get("namespace"), meta["name"])

    def gc(self):
        while self.store.gone_uids:
            uid = self.store.gone_uids.pop(0)
            for dep in self.store.dependents(uid):
                if not dep["metadata"].get("deletionTimestamp"):
                    self.delete(dep, "Background", None)
        for uid in list(self.foreground):
            obj = self.store.get_uid(uid)
            if obj is None:
                self.foreground.discard(uid)
            elif not self.store.dependents(uid):
                self.foreground.discard(uid)
                self.store.remove(self.rt_of(obj), obj["metadata"].get("namespace"),
                                  obj["metadata"]["name"])
