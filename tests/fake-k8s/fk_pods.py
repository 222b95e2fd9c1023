"""Pod lifecycle on a schedule the test controls (kubelet + scheduler stand-in).

A pod's schedule is resolved once, when the pod is created: the default
schedule, then every override whose label selector matches the pod's labels
merged over its top-level owner's labels (later overrides win).
Times are milliseconds from the pod's creation (pending_ms, evict_ms) or from
its Running transition (running_ms); -1 means never.
"""

import copy
import time

import signal

import fk_exec
import fk_nodes
import fk_store
import fk_util

DEFAULT_SCHEDULE = {
    "pending_ms": 200,       # Pending -> Running+Ready
    "running_ms": 500,       # Running -> terminated
    "exit_code": 0,          # exit code when it terminates
    "reason": None,          # terminated reason; default Completed (0) / Error
    "oom": False,            # terminate as OOMKilled, exit 137
    "never_ready": False,    # stay Pending, PodScheduled=False Unschedulable
    "evict_ms": -1,          # evicted (Failed, reason Evicted, DisruptionTarget)
    "term_ms": 50,           # time to die after a graceful delete (SIGTERM honoured)
    "ignore_sigterm": False, # die only when the grace period ends (SIGKILL, 137)
    "log": "",               # text served by .../pods/NAME/log
    "node": None,            # node name; default fake-node-<k> round robin
    "exec": False,           # run the pod's containers as local processes (fk_exec.py)
    "images": {},            # exec: image -> {path in the image: file on this machine}
    "env": {},               # exec: variables added to every container's
}


class PodState:
    def __init__(self, sched, now, role):
        self.sched = sched
        self.created = now
        self.running_at = None
        self.deleting_at = None
        self.frozen = False     # set by manual actions: the timeline no longer applies
        self.done = False       # terminal: nothing left to do unless deleted
        self.role = role        # "worker" pods (MPI) run until deleted


def _container_statuses(pod, state, ready):
    out = []
    for c in (pod.get("spec") or {}).get("containers") or []:
        out.append({"name": c.get("name", ""), "image": c.get("image", ""), "imageID": "",
                    "ready": ready, "restartCount": 0, "started": "running" in state,
                    "state": copy.deepcopy(state)})
    return out


def _cond(ctype, status_, reason=None, message=None):
    c = {"type": ctype, "status": status_, "lastProbeTime": None,
         "lastTransitionTime": fk_util.now_rfc3339()}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


class Kubelet:
    """Owns PodState for every live pod; called by the controller under the lock."""

    def __init__(self, store, pods_type):
        self.store = store
        self.rt = pods_type
        self.schedule = dict(DEFAULT_SCHEDULE)
        self.overrides = []
        self.states = {}
        self.node_count = 8
        self.next_node = 0
        self.nodes_rt = None     # set by the controller: Node objects, when any, steer placement
        self.secrets_rt = None   # set by the controller: Secrets for exec pods' secretKeyRef
        self.procs = None        # fk_exec.PodProcs, made by the first exec pod

    def resolve(self, pod, owner_labels):
        labels = dict(owner_labels or {})
        labels.update((pod.get("metadata") or {}).get("labels") or {})
        sched = dict(self.schedule)
        for ov in self.overrides:
            if ov["_match"](labels):
                sched.update({k: v for k, v in ov.items() if k in DEFAULT_SCHEDULE})
        return sched

    def add_override(self, spec):
        spec = dict(spec)
        spec["_match"] = fk_store.parse_label_selector(spec.get("selector", ""))
        self.overrides.append(spec)

    def public_overrides(self):
        return [{k: v for k, v in o.items() if k != "_match"} for o in self.overrides]

    def register(self, pod, owner_labels=None, role=None):
        """Initialise status of a freshly created pod and start its timeline."""
        st = PodState(self.resolve(pod, owner_labels), time.monotonic(), role)
        self.states[pod["metadata"]["uid"]] = st
        new = copy.deepcopy(pod)
        self._set_pending(new, st)
        self.store.update(self.rt, new)

    def _set_pending(self, pod, st):
        spec = pod.setdefault("spec", {})
        status = {"phase": "Pending", "qosClass": "Burstable"}
        if st.sched["never_ready"]:
            status["conditions"] = [_cond("PodScheduled", "False", "Unschedulable",
                                          "0/%d nodes are available: %d Insufficient nvidia.com/gpu. "
                                          "preemption: 0/%d nodes are available." %
                                          ((self.node_count,) * 3))]
        else:
            if not spec.get("nodeName"):
                spec["nodeName"] = st.sched["node"] or self._pick_node()
                self.next_node += 1
            status.update({"hostIP": "10.0.0.1", "startTime": fk_util.now_rfc3339(),
                           "conditions": [_cond("PodScheduled", "True"), _cond("Initialized", "True"),
                                          _cond("ContainersReady", "False", "ContainersNotReady"),
                                          _cond("Ready", "False", "ContainersNotReady")]})
            status["containerStatuses"] = _container_statuses(
                pod, {"waiting": {"reason": "ContainerCreating"}}, False)
        pod["status"] = status

    def _pick_node(self):
        """Round robin over fake-node-<k>, or over the Ready, uncordoned Node
        objects when the test made some (a cordoned node gets no new pods)."""
        names = fk_nodes.schedulable(self.store, self.nodes_rt) if self.nodes_rt else None
        if names:
            return names[self.next_node % len(names)]
        return "fake-node-%d" % (self.next_node % self.node_count)

    def _write(self, pod, mutate):
        new = copy.deepcopy(pod)
        mutate(new)
        self.store.update(self.rt, new)

    def set_running(self, pod, st, ip=None):
        st.running_at = time.monotonic()

        def mut(p):
            s = p["status"]
            s["phase"] = "Running"
            s["podIP"] = ip or "10.1.%d.%d" % (len(self.states) // 250 % 250, len(self.states) % 250 + 1)
            s["podIPs"] = [{"ip": s["podIP"]}]
            s.setdefault("startTime", fk_util.now_rfc3339())
            s["conditions"] = [_cond("PodScheduled", "True"), _cond("Initialized", "True"),
                               _cond("ContainersReady", "True"), _cond("Ready", "True")]
            if not p["spec"].get("nodeName"):
                p["spec"]["nodeName"] = st.sched["node"] or "fake-node-0"
            s["containerStatuses"] = _container_statuses(
                p, {"running": {"startedAt": fk_util.now_rfc3339()}}, True)
        self._write(pod, mut)

    def set_terminated(self, pod, exit_code, reason, pod_reason=None, message=None, disruption=False):
        def mut(p):
            s = p.setdefault("status", {})
            started = s.get("startTime") or fk_util.now_rfc3339()
            s["phase"] = "Succeeded" if exit_code == 0 and not pod_reason else "Failed"
            conds = [_cond("PodScheduled", "True"), _cond("Initialized", "True"),
                     _cond("ContainersReady", "False", "PodCompleted" if exit_code == 0 else "PodFailed"),
                     _cond("Ready", "False", "PodCompleted" if exit_code == 0 else "PodFailed")]
            if disruption:
                conds.insert(0, _cond("DisruptionTarget", "True", "TerminationByKubelet", message))
            s["conditions"] = conds
            if pod_reason:
                s["reason"], s["message"] = pod_reason, message or ""
            term = {"exitCode": exit_code, "reason": reason, "startedAt": started,
                    "finishedAt": fk_util.now_rfc3339(), "containerID": "fake://" + p["metadata"]["uid"]}
            s["containerStatuses"] = _container_statuses(p, {"terminated": term}, False)
        self._write(pod, mut)

    def finish(self, pod, st):
        sched = st.sched
        if sched["oom"]:
            self.set_terminated(pod, 137, "OOMKilled")
            return
        code = int(sched["exit_code"])
        self.set_terminated(pod, code, sched["reason"] or ("Completed" if code == 0 else "Error"))

    def evict(self, pod):
        self.set_terminated(pod, 137, "Error", "Evicted",
                            "The node was low on resource: memory. Threshold quantity: 100Mi, "
                            "available: 50Mi.", disruption=True)

    @staticmethod
    def terminal(pod):
        return (pod.get("status") or {}).get("phase") in ("Succeeded", "Failed")

    def begin_delete(self, pod, grace):
        """Graceful pod deletion: mark, then remove when the 'container' exits."""
        st = self.states.get(pod["metadata"]["uid"])
        if grace <= 0 or st is None:
            self.store.remove(self.rt, pod["metadata"]["namespace"], pod["metadata"]["name"])
            self.states.pop(pod["metadata"]["uid"], None)
            return None
        if pod["metadata"].get("deletionTimestamp"):
            return copy.deepcopy(pod)
        delay = grace if st.sched["ignore_sigterm"] else min(st.sched["term_ms"] / 1000.0, grace)
        if self._exec(pod):
            self.procs.signal(pod["metadata"]["uid"], signal.SIGTERM)
            delay = grace
        st.deleting_at = time.monotonic() + delay

        def mut(p):
            p["metadata"]["deletionTimestamp"] = fk_util.now_rfc3339()
            p["metadata"]["deletionGracePeriodSeconds"] = grace
        new = copy.deepcopy(pod)
        mut(new)
        return self.store.update(self.rt, new)

    def tick(self, now):
        for uid in list(self.states):
            st = self.states[uid]
            if st.deleting_at is None and (st.done or st.frozen):
                continue
            pod = self.store.get_uid(uid)
            if pod is None:
                self.states.pop(uid, None)
                continue
            self._advance(pod, st, now)

    def _exec(self, pod):
        return self.procs is not None and self.procs.has(pod["metadata"]["uid"])

    def _exec_start(self, pod, st):
        if self.procs is None:
            self.procs = fk_exec.PodProcs()
        try:
            ip = self.procs.start(pod, self.store, self.secrets_rt, st.sched)
        except fk_exec.Waiting:
            return  # kubelet retries: CreateContainerConfigError
        self.set_running(pod, st, ip)

    def _exec_advance(self, pod, st, now):
        uid = pod["metadata"]["uid"]
        code = self.procs.poll(uid)
        if st.deleting_at is not None:
            if code is None and now < st.deleting_at:
                return
            if code is None:
                self.procs.signal(uid, signal.SIGKILL)
                code = 137
            if not self.terminal(pod):
                self.set_terminated(pod, code, "Completed" if code == 0 else "Error")
                pod = self.store.get_uid(uid)
            self.store.remove(self.rt, pod["metadata"]["namespace"], pod["metadata"]["name"])
            self.states.pop(uid, None)
            return
        if code is not None and not self.terminal(pod):
            self.set_terminated(pod, code, "Completed" if code == 0 else "Error")

    def _advance(self, pod, st, now):
        if self._exec(pod):
            self._exec_advance(pod, st, now)
            return
        if st.deleting_at is not None:
            if now < st.deleting_at:
                return
            if not self.terminal(pod):
                code = 137 if st.sched["ignore_sigterm"] else 143
                self.set_terminated(pod, code, "Error")
                pod = self.store.get_uid(pod["metadata"]["uid"])
            self.store.remove(self.rt, pod["metadata"]["namespace"], pod["metadata"]["name"])
            self.states.pop(pod["metadata"]["uid"], None)
            return
        if st.frozen or self.terminal(pod):
            st.done = self.terminal(pod)
            return
        sched = st.sched
        age_ms = (now - st.created) * 1000
        if sched["evict_ms"] >= 0 and age_ms >= sched["evict_ms"]:
            self.evict(pod)
            return
        phase = pod["status"].get("phase")
        if phase == "Pending":
            if not sched["never_ready"] and sched["pending_ms"] >= 0 and age_ms >= sched["pending_ms"]:
                if sched["exec"]:
                    self._exec_start(pod, st)
                else:
                    self.set_running(pod, st)
        elif phase == "Running" and st.role != "worker" and sched["running_ms"] >= 0:
            if st.running_at is not None and (now - st.running_at) * 1000 >= sched["running_ms"]:
                self.finish(pod, st)

    def act(self, pod, action, exit_code=None):
        """Manual transition from the control API; freezes the pod's timeline."""
        st = self.states.get(pod["metadata"]["uid"])
        if st is None or pod["metadata"].get("deletionTimestamp"):
            return False
        if self.terminal(pod) and action != "resume":
            return False
        st.frozen = True
        if action == "ready":
            self.set_running(pod, st)
        elif action == "succeed":
            self.set_terminated(pod, 0, "Completed")
        elif action == "fail":
            code = 1 if exit_code is None else int(exit_code)
            self.set_terminated(pod, code, "Error")
        elif action == "oom":
            self.set_terminated(pod, 137, "OOMKilled")
        elif action == "evict":
            self.evict(pod)
        elif action == "resume":
            st.frozen = False
        else:
            return False
        return True
