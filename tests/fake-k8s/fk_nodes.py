"""Nodes (core/v1) as a kubelet and the node lifecycle controller keep them:
capacity and allocatable, labels, the Ready condition, and the taints the
control plane adds for NotReady (node.kubernetes.io/not-ready:NoExecute) and
for a cordon (spec.unschedulable + node.kubernetes.io/unschedulable:NoSchedule).
Served through the generic store, so LIST, WATCH and 410 Gone come for free.
Called from the control API under the store lock."""

import copy

import fk_util

NOT_READY = "node.kubernetes.io/not-ready"
UNSCHEDULABLE = "node.kubernetes.io/unschedulable"


def _ready_cond(status, reason, message):
    now = fk_util.now_rfc3339()
    return {"type": "Ready", "status": status, "reason": reason, "message": message,
            "lastHeartbeatTime": now, "lastTransitionTime": now}


def make(name, spec):
    """A Ready node named name; spec: cpu, memory, gpus, pods, labels, taints."""
    alloc = {"cpu": str(spec.get("cpu", "8")), "memory": str(spec.get("memory", "32Gi")),
             "pods": str(spec.get("pods", "110"))}
    if int(spec.get("gpus", 0)):
        alloc["nvidia.com/gpu"] = str(int(spec["gpus"]))
    labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "kubernetes.io/arch": "amd64"}
    labels.update(spec.get("labels") or {})
    node = {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": labels},
            "spec": {},
            "status": {"capacity": dict(alloc), "allocatable": alloc,
                       "conditions": [_ready_cond("True", "KubeletReady",
                                                  "kubelet is posting ready status")],
                       "nodeInfo": {"architecture": "amd64", "operatingSystem": "linux",
                                    "osImage": "Ubuntu 24.04 LTS",
                                    "kernelVersion": "6.8.0-fake",
                                    "kubeletVersion": "v1.31.0-fake"},
                       "addresses": [{"type": "Hostname", "address": name}]}}
    if spec.get("taints"):
        node["spec"]["taints"] = copy.deepcopy(spec["taints"])
    return node


def _set_taint(spec, key, effect, on):
    taints = [t for t in spec.get("taints") or [] if t.get("key") != key]
    if on:
        taints.append({"key": key, "effect": effect, "timeAdded": fk_util.now_rfc3339()})
    if taints:
        spec["taints"] = taints
    else:
        spec.pop("taints", None)


def _ready(node, on, message, status="Unknown"):
    conds = [c for c in node["status"].get("conditions") or [] if c.get("type") != "Ready"]
    if on:
        conds.append(_ready_cond("True", "KubeletReady", "kubelet is posting ready status"))
    elif status == "Unknown":
        conds.append(_ready_cond("Unknown", "NodeStatusUnknown", message or "Kubelet stopped posting node status."))
    else:
        conds.append(_ready_cond("False", "KubeletNotReady", message or "container runtime is down"))
    node["status"]["conditions"] = conds
    _set_taint(node["spec"], NOT_READY, "NoExecute", not on)


def sync_cordon(node):
    """A Node written through the API (kubectl cordon's patch): the node
    lifecycle controller's taint follows spec.unschedulable."""
    spec = node.setdefault("spec", {})
    on = bool(spec.get("unschedulable"))
    if on != any(t.get("key") == UNSCHEDULABLE for t in spec.get("taints") or []):
        _set_taint(spec, UNSCHEDULABLE, "NoSchedule", on)


def _cordon(node, on):
    if on:
        node["spec"]["unschedulable"] = True
    else:
        node["spec"].pop("unschedulable", None)
    _set_taint(node["spec"], UNSCHEDULABLE, "NoSchedule", on)


ACTIONS = {
    "ready": lambda n, m: _ready(n, True, m),
    "notready": lambda n, m: _ready(n, False, m),            # the kubelet went silent
    "unready": lambda n, m: _ready(n, False, m, "False"),    # the kubelet says NotReady
    "cordon": lambda n, m: _cordon(n, True),
    "uncordon": lambda n, m: _cordon(n, False),
}


def bound_pod(node, i, cpu):
    """A pod of another workload bound to node (benchmarks: a busy cluster)."""
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "%s-load-%d" % (node, i), "labels": {"bench": "1"}},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "pause",
                     "resources": {"requests": {"cpu": cpu, "memory": "256Mi"}}}]}}


def seed(store, rt, count, spec, prefix="fake-node-", pods_rt=None):
    """Create nodes prefix0..prefix<count-1> not yet stored, and
    spec["pods_per_node"] pods bound to each (namespace "load"); names created."""
    made = []
    for i in range(count):
        name = "%s%d" % (prefix, i)
        if store.get(rt, None, name) is None:
            store.create(rt, None, make(name, spec))
            made.append(name)
            for k in range(int(spec.get("pods_per_node", 0))):
                store.create(pods_rt, "load", bound_pod(name, k, spec.get("pod_cpu", "100m")))
    return made


def act(store, rt, name, action, message=None):
    """Apply action to node name; False when there is no such node."""
    cur = store.get(rt, None, name)
    if cur is None:
        return False
    new = copy.deepcopy(cur)
    ACTIONS[action](new, message)
    store.update(rt, new, spec_changed=new.get("spec") != cur.get("spec"))
    return True


def schedulable(store, rt):
    """Names of nodes a pod may go to (Ready, not cordoned); None if no Node objects."""
    nodes = store.items(rt)
    if not nodes:
        return None
    out = []
    for n in nodes:
        ready = any(c.get("type") == "Ready" and c.get("status") == "True"
                    for c in n.get("status", {}).get("conditions") or [])
        if ready and not n.get("spec", {}).get("unschedulable"):
            out.append(n["metadata"]["name"])
    return out
