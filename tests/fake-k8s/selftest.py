#!/usr/bin/env python3
"""Self-test of the fake API server: run by selftest.sh against a live server.

  selftest.py READY_FILE CERTDIR TOKEN KUBECONFIG_DIR
"""

import copy
import http.client
import json
import os
import ssl
import subprocess
import sys
import time
import traceback

sys.dont_write_bytecode = True

import fk_yaml  # noqa: E402
from fk_client import Client, wait_for  # noqa: E402

JS = "/apis/jobset.x-k8s.io/v1alpha2/namespaces/%s/jobsets"
MJ = "/apis/kubeflow.org/v2beta1/namespaces/%s/mpijobs"
PODS = "/api/v1/namespaces/%s/pods"
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def eq(got, want, what=""):
    if got != want:
        raise AssertionError("%s: got %r, want %r" % (what, got, want))


def jobset(name, job_id, nodes=1, extra_spec=None, job_spec=None, ns="t"):
    jspec = {"parallelism": nodes, "completions": nodes, "backoffLimit": 0,
             "template": {"metadata": {"labels": {"sluice.io/job-id": str(job_id)}},
                          "spec": {"restartPolicy": "Never",
                                   "containers": [{"name": "main", "image": "ubuntu:24.04",
                                                   "command": ["/bin/sh", "-c", "true"],
                                                   "resources": {"limits": {"nvidia.com/gpu": 8,
                                                                            "memory": "1Gi"}}}]}}}
    jspec.update(job_spec or {})
    obj = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
           "metadata": {"name": name, "namespace": ns, "labels": {"sluice.io/job-id": str(job_id)}},
           "spec": {"replicatedJobs": [{"name": "node", "replicas": 1, "template": {"spec": jspec}}]}}
    obj["spec"].update(extra_spec or {})
    return obj


def mpijob(name, job_id, workers=2, ns="t", spec=None):
    def rs(role, replicas):
        return {"replicas": replicas, "restartPolicy": "Never",
                "template": {"metadata": {"labels": {"sluice.io/job-id": str(job_id)}},
                             "spec": {"containers": [{"name": role, "image": "mpi:1"}]}}}
    obj = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
           "metadata": {"name": name, "namespace": ns, "labels": {"sluice.io/job-id": str(job_id)}},
           "spec": {"slotsPerWorker": 8, "launcherCreationPolicy": "WaitForWorkersReady",
                    "runPolicy": {"cleanPodPolicy": "Running", "backoffLimit": 0},
                    "mpiReplicaSpecs": {"Launcher": rs("launcher", 1), "Worker": rs("worker", workers)}}}
    obj["spec"].update(spec or {})
    return obj


def cond(obj, ctype):
    for c in (obj.get("status") or {}).get("conditions") or []:
        if c["type"] == ctype and c["status"] == "True":
            return c
    return None


def pods_of(c, sel, ns="t"):
    code, body, _ = c.req("GET", PODS % ns + "?labelSelector=" + sel)
    eq(code, 200, "list pods")
    return body["items"]


def get_js(c, name, ns="t"):
    return c.req("GET", JS % ns + "/" + name)[1]


# --- authentication -------------------------------------------------------
@case
def auth(t):
    anon = t.c.with_token(None)
    code, body, _ = anon.req("GET", PODS % "t")
    eq(code, 401, "anonymous")
    eq(body, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
              "message": "Unauthorized", "reason": "Unauthorized", "code": 401}, "401 body")
    eq(t.c.with_token("wrong").req("GET", PODS % "t")[0], 401, "bad token")
    eq(anon.req("GET", "/version")[0], 200, "public /version")
    cert = Client(t.port, t.cport, t.certs, cert=(t.certs + "/client.crt", t.certs + "/client.key"))
    eq(cert.req("GET", PODS % "t")[0], 200, "client cert")
    rogue = Client(t.port, t.cport, t.certs, cert=(t.certs + "/rogue.crt", t.certs + "/rogue.key"))
    try:
        code = rogue.raw("GET", PODS % "t")[0]
    except (ssl.SSLError, OSError, http.client.HTTPException):
        code = "tls-error"
    eq(code, "tls-error", "certificate from another CA")


@case
def discovery(t):
    code, body, _ = t.c.req("GET", "/apis/jobset.x-k8s.io")
    eq((code, body["preferredVersion"]["version"]), (200, "v1alpha2"), "group")
    code, body, _ = t.c.req("GET", "/apis/kubeflow.org/v2beta1")
    eq([r["name"] for r in body["resources"]], ["mpijobs"], "resources")
    eq(t.c.req("GET", "/apis/nope.example.com")[0], 404, "unknown group")
    code, body, _ = t.c.req("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                            {"spec": {"resourceAttributes": {"verb": "create"}}})
    eq((code, body["status"]["allowed"]), (201, True), "access review")


# --- create / validation --------------------------------------------------
@case
def create_and_conflict(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": -1})
    code, body, _ = t.c.req("POST", JS % "t", jobset("sl-1", 1))
    eq(code, 201, "create")
    meta = body["metadata"]
    eq((meta["generation"], meta["namespace"], len(meta["uid"])), (1, "t", 36), "metadata")
    assert int(meta["resourceVersion"]) > 1 and meta["creationTimestamp"].endswith("Z")
    eq(body["spec"]["replicatedJobs"][0]["template"]["spec"]["completionMode"], "Indexed", "webhook default")
    eq(body["spec"]["network"], {"enableDNSHostnames": True, "publishNotReadyAddresses": True}, "network")
    eq(body["spec"]["replicatedJobs"][0]["groupName"], "default", "CRD default")
    code, body, _ = t.c.req("POST", JS % "t", jobset("sl-1", 1))
    eq(code, 409, "duplicate")
    eq(body, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
              "message": 'jobsets.jobset.x-k8s.io "sl-1" already exists', "reason": "AlreadyExists",
              "details": {"name": "sl-1", "group": "jobset.x-k8s.io", "kind": "jobsets"}, "code": 409},
       "409 body")
    code, body, _ = t.c.req("GET", JS % "t" + "/sl-1")
    eq((code, body["metadata"]["name"]), (200, "sl-1"), "get")
    code, body, _ = t.c.req("GET", JS % "t" + "/sl-404")
    eq((code, body["reason"], body["message"]), (404, "NotFound", 'jobsets.jobset.x-k8s.io "sl-404" not found'),
       "404")
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 200})


def _invalid(t, obj, query=""):
    code, body, hdrs = t.c.req("POST", JS % "t" + query, obj)
    return code, body, hdrs


@case
def validation(t):
    bad = jobset("sl-bad", 9)
    bad["spec"]["replicatedJobs"][0]["replicas"] = "two"
    code, body, _ = _invalid(t, bad)
    eq((code, body["reason"]), (422, "Invalid"), "type")
    eq(body["details"]["causes"], [{"reason": "FieldValueInvalid", "field": "spec.replicatedJobs[0].replicas",
                                    "message": 'Invalid value: "string": spec.replicatedJobs[0].replicas in '
                                               'body must be of type integer: "string"'}], "causes")
    eq(body["message"], 'JobSet.jobset.x-k8s.io "sl-bad" is invalid: spec.replicatedJobs[0].replicas: '
                        'Invalid value: "string": spec.replicatedJobs[0].replicas in body must be of type '
                        'integer: "string"', "message")
    bad = jobset("sl-bad", 9)
    del bad["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]["name"]
    code, body, _ = _invalid(t, bad)
    eq((code, body["details"]["causes"][0]["field"], body["details"]["causes"][0]["reason"]),
       (422, "spec.replicatedJobs[0].template.spec.template.spec.containers[0].name", "FieldValueRequired"),
       "required")
    code, body, _ = _invalid(t, jobset("SL_1", 9))
    eq((code, body["details"]["causes"][0]["field"]), (422, "metadata.name"), "name")
    bad = jobset("sl-bad", 9, extra_spec={"successPolicy": {"operator": "Some"}})
    code, body, _ = _invalid(t, bad)
    eq((code, body["details"]["causes"][0]["reason"]), (422, "FieldValueNotSupported"), "enum")
    bad = jobset("sl-bad", 9)
    bad["spec"]["replicatedJobs"].append(copy.deepcopy(bad["spec"]["replicatedJobs"][0]))
    code, body, _ = _invalid(t, bad)
    eq((code, body["details"]["causes"][0]["reason"]), (422, "FieldValueDuplicate"), "list-map key")
    bad = jobset("sl-bad", 9)
    bad["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["restartPolicy"] = "Always"
    code, body, _ = _invalid(t, bad)
    assert code == 422 and body["message"].startswith('admission webhook "vjobset.kb.io" denied the request: '), body
    code, body, _ = _invalid(t, jobset("sl-" + "x" * 60, 9))
    assert code == 422 and "pod name" in body["message"], body
    bad = jobset("sl-bad", 9)
    bad["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]["resources"] = \
        {"limits": {"memory": "lots"}}
    code, body, _ = _invalid(t, bad)
    assert code == 422 and "should match" in body["message"], body
    bad = jobset("sl-bad", 9)
    bad["metadata"]["labels"]["sluice.io/user"] = "John Doe"
    eq(_invalid(t, bad)[0], 422, "label value")
    bad = jobset("sl-unk", 9, extra_spec={"foo": 1})
    code, body, _ = _invalid(t, bad, "?fieldValidation=Strict")
    eq((code, body["message"]), (400, 'strict decoding error: unknown field "spec.foo"'), "strict")
    code, body, hdrs = _invalid(t, bad, "?dryRun=All")
    eq((code, "foo" in body["spec"], hdrs.get("Warning")), (201, False, '299 - "unknown field \\"spec.foo\\""'),
       "pruned")
    eq(t.c.req("GET", JS % "t" + "/sl-unk")[0], 404, "dryRun stores nothing")
    bad = mpijob("mj-bad", 9, spec={"slotsPerWorker": "x"})
    code, body, _ = t.c.req("POST", MJ % "t", bad)
    eq((code, body["details"]["kind"]), (422, "MPIJob"), "mpijob schema")


# --- list / selectors / pagination ----------------------------------------
@case
def list_selectors(t):
    for i, user in ((11, "alice"), (12, "bob"), (13, None)):
        obj = jobset("sl-%d" % i, i, extra_spec={"suspend": True}, ns="sel")
        if user:
            obj["metadata"]["labels"]["sluice.io/user"] = user
        eq(t.c.req("POST", JS % "sel", obj)[0], 201, "create")

    def names(q):
        code, body, _ = t.c.req("GET", JS % "sel" + q)
        eq(code, 200, q)
        assert int(body["metadata"]["resourceVersion"]) > 0
        eq(body["kind"], "JobSetList", "kind")
        return [o["metadata"]["name"] for o in body["items"]]
    eq(names("?labelSelector=sluice.io%2Fuser%3Dalice"), ["sl-11"], "equality")
    eq(names("?labelSelector=sluice.io%2Fuser%20in%20(alice%2Cbob)"), ["sl-11", "sl-12"], "in")
    eq(names("?labelSelector=!sluice.io%2Fuser"), ["sl-13"], "!key")
    eq(names("?labelSelector=sluice.io%2Fuser%2Csluice.io%2Fuser!%3Dbob"), ["sl-11"], "exists,!=")
    eq(names("?fieldSelector=metadata.name%3Dsl-12"), ["sl-12"], "field")
    eq(t.c.req("GET", JS % "sel" + "?fieldSelector=spec.suspend%3Dtrue")[0], 400, "CR field selector")
    code, body, _ = t.c.req("GET", JS % "sel" + "?limit=2")
    eq((len(body["items"]), body["metadata"]["remainingItemCount"]), (2, 1), "page 1")
    tok = body["metadata"]["continue"]
    code, body2, _ = t.c.req("GET", JS % "sel" + "?limit=2&continue=" + tok)
    eq([o["metadata"]["name"] for o in body2["items"]], ["sl-13"], "page 2")
    eq("continue" in body2["metadata"], False, "last page")
    eq(t.c.req("GET", "/apis/jobset.x-k8s.io/v1alpha2/jobsets?labelSelector=sluice.io%2Fuser")[1]["items"][0]
       ["metadata"]["namespace"], "sel", "all namespaces")
    t.c.req("PATCH", JS % "sel" + "/sl-13", {"metadata": {"labels": {"x": "1"}}}, "application/merge-patch+json")
    t.c.ctl("POST", "/fake/compact", {})
    code, body, _ = t.c.req("GET", JS % "sel" + "?limit=2&continue=" + tok)
    eq((code, body["reason"]), (410, "Expired"), "stale continue")


# --- watch -----------------------------------------------------------------
@case
def watch_basic(t):
    code, lst, _ = t.c.req("GET", JS % "w")
    rv = lst["metadata"]["resourceVersion"]
    t.c.ctl("PUT", "/fake/config", {"bookmark_ms": 200})
    w = t.c.watch(JS % "w" + "?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + rv)
    eq((w.status, w.chunked), (200, True), "watch response")
    t.c.req("POST", JS % "w", jobset("sl-21", 21, extra_spec={"suspend": True}, ns="w"))
    t.c.req("PATCH", JS % "w" + "/sl-21", {"metadata": {"labels": {"x": "y"}}}, "application/merge-patch+json")
    t.c.req("DELETE", JS % "w" + "/sl-21")
    evs = []
    saw_bookmark = False
    while not evs or evs[-1]["type"] != "DELETED":
        ev = w.next()
        assert ev is not None, "watch ended early: %r" % evs
        if ev["type"] == "BOOKMARK":
            saw_bookmark = True
            eq(set(ev["object"]["metadata"]), {"resourceVersion"}, "bookmark metadata")
            continue
        evs.append(ev)
    # The controller's status writes add MODIFIED events of their own.
    types = [e["type"] for i, e in enumerate(evs) if i == 0 or evs[i - 1]["type"] != e["type"]]
    eq(types, ["ADDED", "MODIFIED", "DELETED"], "event order")
    assert any(e["object"]["metadata"]["labels"].get("x") == "y" for e in evs if e["type"] == "MODIFIED")
    rvs = [int(e["object"]["metadata"]["resourceVersion"]) for e in evs]
    eq(rvs, sorted(rvs), "increasing resourceVersions")
    wait_for(lambda: saw_bookmark or (w.next() or {}).get("type") == "BOOKMARK", 5, "a bookmark")
    end = time.monotonic() + 10
    while w.next() is not None:      # timeoutSeconds ends the stream cleanly
        assert time.monotonic() < end, "watch did not honour timeoutSeconds"
    w.close()
    t.c.ctl("PUT", "/fake/config", {"bookmark_ms": 5000})


@case
def watch_410(t):
    rv = t.c.req("GET", JS % "w")[1]["metadata"]["resourceVersion"]
    t.c.req("POST", JS % "w", jobset("sl-22", 22, extra_spec={"suspend": True}, ns="w"))
    t.c.ctl("POST", "/fake/compact", {})
    w = t.c.watch(JS % "w" + "?watch=1&resourceVersion=" + rv)
    eq(w.status, 200, "in-stream 410")
    ev = w.next()
    eq((ev["type"], ev["object"]["code"], ev["object"]["reason"]), ("ERROR", 410, "Expired"), "ERROR event")
    assert ev["object"]["message"].startswith("too old resource version: %s (" % rv), ev
    eq(w.next(), None, "stream ends after ERROR")
    w.close()
    t.c.ctl("PUT", "/fake/config", {"watch_410": "http"})
    w = t.c.watch(JS % "w" + "?watch=1&resourceVersion=" + rv)
    eq(w.status, 410, "HTTP 410")
    w.close()
    t.c.ctl("PUT", "/fake/config", {"watch_410": "stream", "stale_watches": 1})
    cur = t.c.req("GET", JS % "w-empty")[1]["metadata"]["resourceVersion"]
    w = t.c.watch(JS % "w-empty" + "?watch=1&resourceVersion=" + cur)
    eq(w.next()["type"], "ERROR", "forced stale watch")
    w.close()
    w = t.c.watch(JS % "w-empty" + "?watch=1&resourceVersion=" + cur + "&timeoutSeconds=1")
    eq(w.next(), None, "fresh rv is fine again")
    w.close()
    # No resourceVersion: synthetic ADDED for existing objects first.
    w = t.c.watch(JS % "w" + "?watch=1&timeoutSeconds=1")
    eq([e["object"]["metadata"]["name"] for e in w.events(5) if e["type"] == "ADDED"], ["sl-22"], "initial ADDED")
    w.close()


@case
def watch_faults(t):
    t.c.ctl("PUT", "/fake/config", {"watch_end_after": 1})
    rv = t.c.req("GET", JS % "wf")[1]["metadata"]["resourceVersion"]
    w = t.c.watch(JS % "wf" + "?watch=1&resourceVersion=" + rv)
    t.c.req("POST", JS % "wf", jobset("sl-31", 31, extra_spec={"suspend": True}, ns="wf"))
    t.c.req("POST", JS % "wf", jobset("sl-32", 32, extra_spec={"suspend": True}, ns="wf"))
    eq(w.next()["type"], "ADDED", "first event")
    eq(w.next(), None, "ended after 1 event")
    w.close()
    t.c.ctl("PUT", "/fake/config", {"watch_end_after": None})
    wait_for(lambda: t.c.ctl("GET", "/fake/state")["active_watches"] == 0, 5, "no watch left")
    w = t.c.watch(JS % "wf" + "?watch=1&resourceVersion=" + rv)
    wait_for(lambda: t.c.ctl("GET", "/fake/state")["active_watches"] >= 1, 5, "watch registered")
    t.c.ctl("POST", "/fake/watches/close", {"abrupt": True})
    try:
        while w.next() is not None:
            pass
        broken = False
    except (http.client.IncompleteRead, OSError, ValueError, http.client.HTTPException):
        broken = True
    eq(broken, True, "abrupt close breaks the chunked stream")
    w.close()


# --- controller behaviour ------------------------------------------------
@case
def nodes(t):
    """Nodes: seeded Ready, listed and watched; NotReady, unready and cordon
    as the control plane writes them; pods go to Ready, uncordoned nodes."""
    made = t.c.ctl("POST", "/fake/nodes", {"count": 2, "prefix": "st-node-", "cpu": "4", "gpus": 2,
                                          "labels": {"pool": "a"}})
    eq(made["created"], ["st-node-0", "st-node-1"], "created")
    code, lst, _ = t.c.req("GET", "/api/v1/nodes?labelSelector=pool%3Da")
    eq(code, 200, "list nodes")
    eq([n["metadata"]["name"] for n in lst["items"]], ["st-node-0", "st-node-1"], "listed")
    n0 = lst["items"][0]
    eq(n0["status"]["allocatable"], {"cpu": "4", "memory": "32Gi", "pods": "110", "nvidia.com/gpu": "2"},
       "allocatable")
    eq([c["status"] for c in n0["status"]["conditions"] if c["type"] == "Ready"], ["True"], "Ready")
    w = t.c.watch("/api/v1/nodes?watch=1&timeoutSeconds=3&labelSelector=pool%3Da&resourceVersion="
                  + lst["metadata"]["resourceVersion"])
    t.c.ctl("POST", "/fake/nodes/action", {"name": "st-node-0", "action": "cordon"})
    t.c.ctl("POST", "/fake/nodes/action", {"name": "st-node-1", "action": "notready"})
    evs = [e for e in w.events(2) if e["type"] == "MODIFIED"]
    w.close()
    eq([e["object"]["metadata"]["name"] for e in evs], ["st-node-0", "st-node-1"], "modified")
    eq(evs[0]["object"]["spec"]["unschedulable"], True, "cordoned")
    eq([x["key"] for x in evs[0]["object"]["spec"]["taints"]], ["node.kubernetes.io/unschedulable"], "taint")
    eq([(c["status"], c["reason"]) for c in evs[1]["object"]["status"]["conditions"] if c["type"] == "Ready"],
       [("Unknown", "NodeStatusUnknown")], "NotReady")
    eq([x["effect"] for x in evs[1]["object"]["spec"]["taints"]], ["NoExecute"], "not-ready taint")
    t.c.ctl("POST", "/fake/nodes/action", {"name": "st-node-1", "action": "unready"})
    n1 = t.c.req("GET", "/api/v1/nodes/st-node-1")[1]
    eq([c["status"] for c in n1["status"]["conditions"] if c["type"] == "Ready"], ["False"], "unready")
    for name, act in (("st-node-0", "uncordon"), ("st-node-1", "ready")):
        t.c.ctl("POST", "/fake/nodes/action", {"name": name, "action": act})
    n0 = t.c.req("GET", "/api/v1/nodes/st-node-0")[1]
    assert "unschedulable" not in n0["spec"] and "taints" not in n0["spec"], n0["spec"]
    for name in made["created"]:  # later cases expect pods on fake-node-<k>
        eq(t.c.req("DELETE", "/api/v1/nodes/" + name)[0], 200, "delete node")


@case
def jobset_lifecycle(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 300, "running_ms": 600})
    rv = t.c.req("GET", PODS % "t")[1]["metadata"]["resourceVersion"]
    w = t.c.watch(PODS % "t" + "?watch=1&labelSelector=jobset.sigs.k8s.io%2Fjobset-name%3Dsl-40&resourceVersion=" + rv)
    eq(t.c.req("POST", JS % "t", jobset("sl-40", 40, nodes=2))[0], 201, "create")
    eq(t.c.req("POST", JS % "t", jobset("sl-41", 41, extra_spec={"ttlSecondsAfterFinished": 1}))[0], 201, "ttl")
    phases = {}
    while True:
        ev = w.next()
        assert ev is not None
        pod = ev["object"]
        phases.setdefault(pod["metadata"]["name"], []).append(pod["status"].get("phase"))
        if len(phases) == 2 and all(p[-1] == "Succeeded" for p in phases.values()):
            break
    w.close()
    for name, seq in phases.items():
        dedup = [p for i, p in enumerate(seq) if i == 0 or seq[i - 1] != p]
        eq(dedup, ["Pending", "Running", "Succeeded"], "phases of " + name)
    pods = sorted(pods_of(t.c, "jobset.sigs.k8s.io%2Fjobset-name%3Dsl-40"),
                  key=lambda p: p["metadata"]["labels"]["batch.kubernetes.io/job-completion-index"])
    for i, p in enumerate(pods):
        lab = p["metadata"]["labels"]
        eq((lab["jobset.sigs.k8s.io/replicatedjob-name"], lab["jobset.sigs.k8s.io/job-index"],
            lab["batch.kubernetes.io/job-completion-index"], lab["sluice.io/job-id"]),
           ("node", "0", str(i), "40"), "labels")
        eq((p["spec"]["hostname"], p["spec"]["subdomain"]), ("sl-40-node-0-%d" % i, "sl-40"), "DNS")
        assert p["metadata"]["name"].startswith("sl-40-node-0-%d-" % i) and len(p["metadata"]["name"]) == 20
        term = p["status"]["containerStatuses"][0]["state"]["terminated"]
        eq((term["exitCode"], term["reason"]), (0, "Completed"), "terminated")
        assert p["spec"]["nodeName"].startswith("fake-node-")
    js = wait_for(lambda: cond(get_js(t.c, "sl-40"), "Completed") and get_js(t.c, "sl-40"), 10, "Completed")
    c = cond(js, "Completed")
    eq((c["reason"], c["message"], js["status"]["terminalState"]),
       ("AllJobsCompleted", "jobset completed successfully", "Completed"), "JobSet status")
    eq(js["status"]["replicatedJobsStatus"][0]["succeeded"], 1, "rjob status")
    wait_for(lambda: t.c.req("GET", JS % "t" + "/sl-41")[0] == 404, 10, "ttlSecondsAfterFinished deletion")


def _wait_failed(t, name):
    return wait_for(lambda: cond(get_js(t.c, name), "Failed") and get_js(t.c, name), 10, name + " Failed")


@case
def exit_codes(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 100, "running_ms": 200})
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=3", "exit_code": 3})
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=4", "oom": True})
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=5,batch.kubernetes.io/job-completion-index=1",
                                        "evict_ms": 150, "running_ms": -1})
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=6", "never_ready": True})
    for jid, nodes in ((3, 1), (4, 1), (5, 2), (6, 1)):
        eq(t.c.req("POST", JS % "t", jobset("sl-%d" % jid, jid, nodes=nodes))[0], 201, "create")
    js = _wait_failed(t, "sl-3")
    c = cond(js, "Failed")
    eq((c["reason"], c["message"], js["status"]["terminalState"]),
       ("FailedJobs", "jobset failed due to one or more job failures (first failed job: sl-3-node-0)", "Failed"),
       "exit 3")
    term = pods_of(t.c, "sluice.io%2Fjob-id%3D3")[0]["status"]["containerStatuses"][0]["state"]["terminated"]
    eq((term["exitCode"], term["reason"]), (3, "Error"), "exit code")
    code, job, _ = t.c.req("GET", "/apis/batch/v1/namespaces/t/jobs/sl-3-node-0")
    eq(cond(job, "Failed")["reason"], "BackoffLimitExceeded", "job reason")
    _wait_failed(t, "sl-4")
    term = pods_of(t.c, "sluice.io%2Fjob-id%3D4")[0]["status"]["containerStatuses"][0]["state"]["terminated"]
    eq((term["exitCode"], term["reason"]), (137, "OOMKilled"), "OOM")
    _wait_failed(t, "sl-5")
    ev = [p for p in pods_of(t.c, "sluice.io%2Fjob-id%3D5") if p["status"].get("reason") == "Evicted"]
    eq(len(ev), 1, "one evicted pod")
    eq((ev[0]["status"]["phase"], ev[0]["status"]["conditions"][0]["type"]), ("Failed", "DisruptionTarget"),
       "evicted pod")
    time.sleep(0.5)
    p = pods_of(t.c, "sluice.io%2Fjob-id%3D6")[0]
    eq((p["status"]["phase"], p["status"]["conditions"][0]["reason"]), ("Pending", "Unschedulable"), "never ready")
    t.c.ctl("DELETE", "/fake/overrides")


@case
def deadline_and_restarts(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 50, "running_ms": -1})
    eq(t.c.req("POST", JS % "t", jobset("sl-50", 50, job_spec={"activeDeadlineSeconds": 1}))[0], 201, "create")
    fp = {"maxRestarts": 2, "rules": [{"name": "noTimeoutRestart", "action": "FailJobSet",
                                       "onJobFailureReasons": ["DeadlineExceeded"]}]}
    eq(t.c.req("POST", JS % "t", jobset("sl-51", 51, job_spec={"activeDeadlineSeconds": 1},
                                        extra_spec={"failurePolicy": fp}))[0], 201, "create")
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=52", "running_ms": 100, "exit_code": 1})
    eq(t.c.req("POST", JS % "t", jobset("sl-52", 52, extra_spec={"failurePolicy": {"maxRestarts": 1}}))[0], 201, "c")
    _wait_failed(t, "sl-50")
    code, job, _ = t.c.req("GET", "/apis/batch/v1/namespaces/t/jobs/sl-50-node-0")
    eq((cond(job, "Failed")["reason"], cond(job, "Failed")["message"]),
       ("DeadlineExceeded", "Job was active longer than specified deadline"), "deadline")
    js = _wait_failed(t, "sl-51")
    eq(cond(js, "Failed")["reason"], "FailJobSetFailurePolicyAction", "rule action")
    js = _wait_failed(t, "sl-52")
    eq((cond(js, "Failed")["reason"], js["status"]["restarts"]), ("ReachedMaxRestarts", 1), "restarts")
    t.c.ctl("DELETE", "/fake/overrides")
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 200, "running_ms": 500})


@case
def mpijob_lifecycle(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 100, "running_ms": 300})
    code, body, _ = t.c.req("POST", MJ % "t", mpijob("mj-1", 60, workers=2))
    eq(code, 201, "create")

    def mj():
        return t.c.req("GET", MJ % "t" + "/mj-1")[1]
    done = wait_for(lambda: cond(mj(), "Succeeded") and mj(), 10, "MPIJob Succeeded")
    types = [c["type"] for c in done["status"]["conditions"]]
    eq(types, ["Created", "Running", "Succeeded"], "conditions")
    eq([c["status"] for c in done["status"]["conditions"]], ["True", "False", "True"], "condition statuses")
    eq(cond(done, "Succeeded")["reason"], "MPIJobSucceeded", "reason")
    launcher = pods_of(t.c, "training.kubeflow.org%2Fjob-name%3Dmj-1%2Ctraining.kubeflow.org%2Freplica-type%3Dlauncher")
    eq(launcher[0]["status"]["phase"], "Succeeded", "launcher")
    wait_for(lambda: not pods_of(t.c, "training.kubeflow.org%2Freplica-type%3Dworker%2Csluice.io%2Fjob-id%3D60"),
             10, "workers cleaned (cleanPodPolicy Running)")
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=61,training.kubeflow.org/replica-type=launcher",
                                        "exit_code": 2})
    t.c.req("POST", MJ % "t", mpijob("mj-2", 61))
    failed = wait_for(lambda: cond(t.c.req("GET", MJ % "t" + "/mj-2")[1], "Failed"), 10, "MPIJob Failed")
    eq(failed["reason"], "BackoffLimitExceeded", "failed reason")
    bad = mpijob("mj-3", 62)
    del bad["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"]
    eq(t.c.req("POST", MJ % "t", bad)[0], 201, "stored although invalid")
    ev = wait_for(lambda: pods_of_events(t, "mj-3"), 10, "ValidationError event")
    eq((ev[0]["reason"], ev[0]["type"]), ("ValidationError", "Warning"), "event")
    eq(t.c.req("GET", MJ % "t" + "/mj-3")[1].get("status", {}).get("conditions"), None, "no conditions")
    t.c.ctl("DELETE", "/fake/overrides")


def pods_of_events(t, name):
    code, body, _ = t.c.req("GET", "/api/v1/namespaces/t/events?fieldSelector=involvedObject.name%3D" + name)
    return body["items"]


@case
def deletion(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 50, "running_ms": -1, "term_ms": 200})
    # Slow SIGTERM handling for sl-71, so that its foreground deletion is observable.
    t.c.ctl("POST", "/fake/overrides", {"selector": "sluice.io/job-id=71", "term_ms": 1500})
    for n in (70, 71, 72):
        t.c.req("POST", JS % "t", jobset("sl-%d" % n, n, nodes=2))
    sel = "jobset.sigs.k8s.io%2Fjobset-name%3Dsl-"
    wait_for(lambda: all(len(pods_of(t.c, sel + str(n))) == 2 for n in (70, 71, 72)), 10, "pods")
    code, body, _ = t.c.req("DELETE", JS % "t" + "/sl-70?propagationPolicy=Background")
    eq((code, body["metadata"]["name"]), (200, "sl-70"), "background delete")
    eq(t.c.req("GET", JS % "t" + "/sl-70")[0], 404, "gone at once")
    wait_for(lambda: not pods_of(t.c, sel + "70"), 10, "pods garbage-collected")
    code, body, _ = t.c.req("DELETE", JS % "t" + "/sl-71", {"kind": "DeleteOptions", "apiVersion": "v1",
                                                      "propagationPolicy": "Foreground"})
    eq((code, body["metadata"]["finalizers"], "deletionTimestamp" in body["metadata"]),
       (200, ["foregroundDeletion"], True), "foreground")
    eq(t.c.req("GET", JS % "t" + "/sl-71")[0], 200, "still there while dependents exist")
    wait_for(lambda: t.c.req("GET", JS % "t" + "/sl-71")[0] == 404, 10, "foreground completes")
    eq(pods_of(t.c, sel + "71"), [], "no pods left")
    eq(t.c.req("DELETE", JS % "t" + "/sl-72?propagationPolicy=Orphan")[0], 200, "orphan")
    time.sleep(0.3)
    left = pods_of(t.c, sel + "72")
    eq(len(left), 2, "orphaned pods survive")
    code, job, _ = t.c.req("GET", "/apis/batch/v1/namespaces/t/jobs/sl-72-node-0")
    eq((code, job["metadata"].get("ownerReferences")), (200, []), "ownerReference removed")
    code, body, _ = t.c.req("DELETE", JS % "t" + "/sl-72")
    eq((code, body["reason"]), (404, "NotFound"), "delete missing")
    pod = left[0]["metadata"]["name"]
    code, body, _ = t.c.req("DELETE", PODS % "t" + "/" + pod, {"preconditions": {"uid": "nope"}})
    eq((code, body["reason"]), (409, "Conflict"), "uid precondition")
    code, body, _ = t.c.req("DELETE", PODS % "t" + "/" + pod + "?gracePeriodSeconds=30")
    eq((code, body["metadata"]["deletionGracePeriodSeconds"]), (200, 30), "graceful")
    gone = wait_for(lambda: t.c.req("GET", PODS % "t" + "/" + pod)[0] == 404, 10, "pod exits after SIGTERM")
    eq(gone, True, "graceful pod deletion")
    pod2 = left[1]["metadata"]["name"]
    eq(t.c.req("DELETE", PODS % "t" + "/" + pod2 + "?gracePeriodSeconds=0")[0], 200, "immediate")
    eq(t.c.req("GET", PODS % "t" + "/" + pod2)[0], 404, "gone at once")
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 200, "running_ms": 500, "term_ms": 50})
    t.c.ctl("DELETE", "/fake/overrides")


@case
def suspend_patch(t):
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 50, "running_ms": -1})
    t.c.req("POST", JS % "t", jobset("sl-80", 80, nodes=2))
    wait_for(lambda: len(pods_of(t.c, "sluice.io%2Fjob-id%3D80")) == 2, 10, "pods")
    code, body, _ = t.c.req("PATCH", JS % "t" + "/sl-80", {"spec": {"suspend": True}}, "application/merge-patch+json")
    eq((code, body["metadata"]["generation"]), (200, 2), "generation bump")
    wait_for(lambda: cond(get_js(t.c, "sl-80"), "Suspended"), 10, "Suspended")
    wait_for(lambda: not pods_of(t.c, "sluice.io%2Fjob-id%3D80"), 10, "pods deleted on suspend")
    eq(t.c.req("PATCH", JS % "t" + "/sl-80", {"spec": {}}, "application/strategic-merge-patch+json")[0], 415, "SMP")
    cur = get_js(t.c, "sl-80")
    stale = copy.deepcopy(cur)
    stale["metadata"]["resourceVersion"] = "1"
    eq(t.c.req("PUT", JS % "t" + "/sl-80", stale)[1]["reason"], "Conflict", "stale PUT")
    del stale["metadata"]["resourceVersion"]
    eq(t.c.req("PUT", JS % "t" + "/sl-80", stale)[0], 422, "PUT without resourceVersion")
    for _ in range(50):  # the controller's status writes may race with us: retry on 409
        cur = get_js(t.c, "sl-80")
        cur["metadata"]["annotations"] = {"a": "b"}
        code, body, _ = t.c.req("PUT", JS % "t" + "/sl-80", cur)
        if code != 409:
            break
    eq((code, body["metadata"]["annotations"], body["metadata"]["generation"]), (200, {"a": "b"}, 2), "PUT")
    code, body, _ = t.c.req("PATCH", JS % "t" + "/sl-80", [{"op": "replace", "path": "/spec/suspend", "value": False}],
                            "application/json-patch+json")
    eq(code, 200, "json patch")
    wait_for(lambda: len(pods_of(t.c, "sluice.io%2Fjob-id%3D80")) == 2, 10, "pods back on resume")
    t.c.ctl("PUT", "/fake/schedule", {"pending_ms": 200, "running_ms": 500})


# --- faults ----------------------------------------------------------------
@case
def faults(t):
    t.c.ctl("POST", "/fake/faults", {"type": "status", "code": 500, "count": 2})
    for _ in range(2):
        code, body, _ = t.c.req("GET", PODS % "t")
        eq((code, body["reason"]), (500, "InternalError"), "500")
    eq(t.c.req("GET", PODS % "t")[0], 200, "fault used up")
    t.c.ctl("POST", "/fake/faults", {"type": "status", "code": 429, "retryAfter": 3, "method": "POST"})
    eq(t.c.req("GET", PODS % "t")[0], 200, "GET does not match a POST fault")
    code, body, hdrs = t.c.req("POST", JS % "t", jobset("sl-90", 90, extra_spec={"suspend": True}))
    eq((code, hdrs.get("Retry-After"), body["details"]["retryAfterSeconds"], body["reason"]),
       (429, "3", 3, "TooManyRequests"), "429")
    t.c.ctl("POST", "/fake/faults", {"type": "drop", "path": "/jobsets"})
    try:
        t.c.raw("GET", JS % "t")
        dropped = False
    except (http.client.RemoteDisconnected, ConnectionError):
        dropped = True
    eq(dropped, True, "dropped connection")
    t.c.ctl("POST", "/fake/faults", {"type": "drop_after", "method": "POST"})
    try:
        t.c.raw("POST", JS % "t", jobset("sl-91", 91, extra_spec={"suspend": True}))
        dropped = False
    except (http.client.RemoteDisconnected, ConnectionError):
        dropped = True
    eq(dropped, True, "reply dropped")
    eq(t.c.req("POST", JS % "t", jobset("sl-91", 91, extra_spec={"suspend": True}))[0], 409, "but it was created")
    eq(t.c.ctl("GET", "/fake/faults")["faults"], [], "all used")


@case
def pause(t):
    w = t.c.watch(PODS % "t" + "?watch=1&resourceVersion=" +
                  t.c.req("GET", PODS % "t")[1]["metadata"]["resourceVersion"])
    t.c.ctl("POST", "/fake/pause", {"seconds": 3})
    try:
        t.c.raw("GET", PODS % "t")
        refused = False
    except ConnectionRefusedError:
        refused = True
    eq(refused, True, "connection refused while paused")
    try:
        while w.next() is not None:
            pass
    except (OSError, http.client.HTTPException, ValueError):
        pass
    w.close()
    wait_for(lambda: _up(t), 10, "server back")


def _up(t):
    try:
        return t.c.raw("GET", PODS % "t")[0] == 200
    except OSError:
        return False


@case
def request_log(t):
    seq = t.c.ctl("GET", "/fake/stats")["seq"]
    t.c.req("GET", PODS % "t")
    t.c.req("POST", JS % "log", jobset("sl-95", 95, extra_spec={"suspend": True}, ns="log"))
    t.c.req("GET", JS % "log" + "/sl-95")
    t.c.req("DELETE", JS % "log" + "/sl-95")
    st = t.c.ctl("GET", "/fake/stats?since=%d" % seq)
    eq((st["total"], st["reads"], st["writes"]), (4, 2, 2), "counts")
    eq(st["by_verb"], {"list": 1, "create": 1, "get": 1, "delete": 1}, "verbs")
    reqs = t.c.ctl("GET", "/fake/requests?since=%d" % seq)["requests"]
    eq([(r["method"], r["path"], r["status"], r["user"]) for r in reqs][1],
       ("POST", JS % "log", 201, "selftest"), "log entry")


@case
def pod_log_and_control_objects(t):
    t.c.ctl("PUT", "/fake/schedule", {"log": "hello from the pod\n"})
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "namespace": "t", "labels": {"app": "p1"}},
           "spec": {"containers": [{"name": "main", "image": "x"}]}}
    eq(t.c.req("POST", PODS % "t", pod)[0], 201, "bare pod")
    code, text, _ = t.c.req("GET", PODS % "t" + "/p1/log?container=main")
    eq((code, text), (200, "hello from the pod\n"), "log")
    t.c.ctl("PUT", "/fake/schedule", {"log": ""})
    out = t.c.ctl("POST", "/fake/pods", {"selector": "app=p1", "namespace": "t", "action": "oom"})
    eq(out, {"matched": 1, "pods": ["p1"]}, "manual action")
    p = t.c.req("GET", PODS % "t" + "/p1")[1]
    eq(p["status"]["containerStatuses"][0]["state"]["terminated"]["reason"], "OOMKilled", "manual action")


# --- kubeconfig variants ----------------------------------------------------
@case
def kubeconfigs(t):
    d = t.kcdir
    for name in ("token", "tokenfile", "cert-files", "cert-relative", "cert-data", "exec", "insecure",
                 "badtoken"):
        path = os.path.join(d, name + ".kubeconfig")
        with open(path, encoding="utf-8") as f:
            kc = fk_yaml.load(f.read())
        code = _kube_get(kc, os.path.dirname(path), PODS % "t")
        eq(code, 401 if name == "badtoken" else 200, name)
    with open(os.path.join(d, "incluster.env"), encoding="utf-8") as f:
        env = dict(line.strip().split("=", 1) for line in f if "=" in line)
    ic = os.path.join(d, "incluster")
    ctx = ssl.create_default_context(cafile=os.path.join(ic, "ca.crt"))
    with open(os.path.join(ic, "token"), encoding="utf-8") as f:
        tok = f.read().strip()
    eq(_get(ctx, env["KUBERNETES_SERVICE_HOST"], int(env["KUBERNETES_SERVICE_PORT"]), tok, PODS % "t"), 200,
       "in-cluster")


def _kube_get(kc, base, path):
    import base64
    import tempfile
    cluster = kc["clusters"][0]["cluster"]
    user = kc["users"][0]["user"]
    host, port = cluster["server"][len("https://"):].split(":")

    def rel(p):
        return p if os.path.isabs(p) else os.path.join(base, p)
    if cluster.get("insecure-skip-tls-verify"):
        ctx = ssl._create_unverified_context()
    elif "certificate-authority-data" in cluster:
        ctx = ssl.create_default_context(cadata=base64.b64decode(cluster["certificate-authority-data"]).decode())
    else:
        ctx = ssl.create_default_context(cafile=rel(cluster["certificate-authority"]))
    token = user.get("token")
    if "tokenFile" in user:
        with open(rel(user["tokenFile"]), encoding="utf-8") as f:
            token = f.read().strip()
    if "client-certificate" in user:
        ctx.load_cert_chain(rel(user["client-certificate"]), rel(user["client-key"]))
    if "client-certificate-data" in user:
        with tempfile.TemporaryDirectory() as tmp:
            for key, fn in (("client-certificate-data", "c.crt"), ("client-key-data", "c.key")):
                with open(os.path.join(tmp, fn), "wb") as f:
                    f.write(base64.b64decode(user[key]))
            ctx.load_cert_chain(os.path.join(tmp, "c.crt"), os.path.join(tmp, "c.key"))
    if "exec" in user:
        ex = user["exec"]
        env = dict(os.environ, **{e["name"]: e["value"] for e in ex.get("env") or []})
        env["KUBERNETES_EXEC_INFO"] = json.dumps({"apiVersion": ex["apiVersion"], "kind": "ExecCredential",
                                                  "spec": {"interactive": False}})
        out = subprocess.run([ex["command"]] + (ex.get("args") or []), env=env, check=True,
                             capture_output=True).stdout
        cred = json.loads(out)
        eq(cred["kind"], "ExecCredential", "exec output")
        token = cred["status"]["token"]
    return _get(ctx, host, int(port), token, path)


def _get(ctx, host, port, token, path):
    conn = http.client.HTTPSConnection(host, port, context=ctx, timeout=15)
    try:
        conn.request("GET", path, headers={"Authorization": "Bearer " + token} if token else {})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


class T:
    pass


def main(argv):
    ready, certs, token, kcdir = argv[1:5]
    with open(ready, encoding="utf-8") as f:
        info = json.load(f)
    t = T()
    t.port, t.cport, t.certs, t.kcdir = info["port"], info["control_port"], certs, kcdir
    t.c = Client(t.port, t.cport, certs, token=token)
    only = argv[5:]
    failed = 0
    for fn in CASES:
        if only and fn.__name__ not in only:
            continue
        start = time.monotonic()
        try:
            fn(t)
            print("ok   %-28s %.2fs" % (fn.__name__, time.monotonic() - start), flush=True)
        except Exception as e:  # noqa: BLE001 - report every failure and go on
            failed += 1
            if os.environ.get("FK_TRACE"):
                traceback.print_exc()
            print("FAIL %-28s %s: %s" % (fn.__name__, type(e).__name__, e), flush=True)
    print("%d/%d cases passed" % (len(CASES) - failed if not only else len(only) - failed,
                                  len(CASES) if not only else len(only)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
