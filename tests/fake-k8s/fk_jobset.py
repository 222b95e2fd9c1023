"""JobSet controller stand-in (jobset.x-k8s.io/v1alpha2): child Jobs with
JobSet's labels, DNS hostnames, replicatedJobsStatus, success/failure
policies with gang restarts, suspend/resume and ttlSecondsAfterFinished.
Messages and reasons are JobSet's own constants."""

import copy
import hashlib

import fk_controller
import fk_jobs

P = "jobset.sigs.k8s.io/"
COMPONENT = "jobset-controller"
FAILED_JOBS = ("FailedJobs", "jobset failed due to one or more job failures")
MAX_RESTARTS = ("ReachedMaxRestarts", "jobset failed due to reaching max number of restarts")
FAIL_ACTION = ("FailJobSetFailurePolicyAction", "applying FailJobSet failure policy action")
COMPLETED = ("AllJobsCompleted", "jobset completed successfully")


def _first_failed(msg, job):
    return "%s (first failed job: %s)" % (msg, job["metadata"]["name"])


class JobSetController:
    def __init__(self, ctl):
        self.ctl = ctl

    def reconcile(self, js, now):
        ctl = self.ctl
        if js["metadata"].get("deletionTimestamp"):
            return
        spec = js.get("spec") or {}
        st = copy.deepcopy(js.get("status") or {})
        st.setdefault("restarts", 0)
        st.setdefault("restartsCountTowardsMax", 0)
        attempt = str(st["restarts"])
        jobs = ctl.dependents(js, "Job")
        for j in jobs:
            if (j["metadata"].get("labels") or {}).get(P + "restart-attempt") != attempt:
                ctl.delete(j, "Background")
        jobs = [j for j in jobs if (j["metadata"].get("labels") or {}).get(P + "restart-attempt") == attempt]
        st["replicatedJobsStatus"] = self._rj_status(spec, jobs)
        if st.get("terminalState"):
            self._finished(js, st, jobs, now)
            return
        failed = [j for j in jobs if fk_controller.cond_true(j.get("status"), "Failed")]
        if failed:
            self._failure_policy(js, spec, st, failed)
        elif self._succeeded(spec, jobs):
            self._terminal(st, "Completed", *COMPLETED)
        else:
            self._suspend(js, spec, st, jobs)
            if not spec.get("suspend"):
                self._create_jobs(js, spec, st, jobs)
        written = ctl.write_status(js, st)
        if st.get("terminalState"):
            self._finished(written, st, jobs, now)

    def _terminal(self, st, state, reason, message):
        st["conditions"] = fk_controller.set_condition(st.get("conditions"), state, "True", reason, message)
        st["terminalState"] = state

    def _finished(self, js, st, jobs, now):
        ctl = self.ctl
        for j in jobs:
            jst = j.get("status") or {}
            if not (fk_controller.cond_true(jst, "Complete") or fk_controller.cond_true(jst, "Failed")):
                ctl.delete(j, "Background")
        ttl = (js.get("spec") or {}).get("ttlSecondsAfterFinished")
        if ttl is None:
            return
        uid = js["metadata"]["uid"]
        due = ctl.finished_at.setdefault(uid, now) + ttl
        if now >= due:
            ctl.delete(js, "Background")
        else:
            ctl.timed[uid] = due

    def _rj_status(self, spec, jobs):
        out = []
        for rj in spec.get("replicatedJobs") or []:
            mine = [j for j in jobs if (j["metadata"].get("labels") or {}).get(P + "replicatedjob-name") == rj["name"]]
            s = {"name": rj["name"], "ready": 0, "succeeded": 0, "failed": 0, "active": 0, "suspended": 0}
            for j in mine:
                jst = j.get("status") or {}
                jspec = j.get("spec") or {}
                want = min(jspec.get("parallelism", 1), jspec.get("completions") or 1)
                if fk_controller.cond_true(jst, "Complete"):
                    s["succeeded"] += 1
                elif fk_controller.cond_true(jst, "Failed"):
                    s["failed"] += 1
                elif jspec.get("suspend"):
                    s["suspended"] += 1
                else:
                    if jst.get("ready", 0) + jst.get("succeeded", 0) >= want:
                        s["ready"] += 1
                    if jst.get("active", 0) > 0:
                        s["active"] += 1
            out.append(s)
        return out

    def _succeeded(self, spec, jobs):
        policy = spec.get("successPolicy") or {}
        targets = policy.get("targetReplicatedJobs") or [rj["name"] for rj in spec.get("replicatedJobs") or []]
        relevant = [j for j in jobs if (j["metadata"].get("labels") or {}).get(P + "replicatedjob-name") in targets]
        done = [j for j in relevant if fk_controller.cond_true(j.get("status"), "Complete")]
        if policy.get("operator") == "Any":
            return bool(done)
        expected = sum(rj.get("replicas", 1) for rj in spec.get("replicatedJobs") or [] if rj["name"] in targets)
        return expected > 0 and len(done) >= expected

    def _failure_policy(self, js, spec, st, failed):
        first = failed[0]
        fp = spec.get("failurePolicy")
        if fp is None:
            self._terminal(st, "Failed", FAILED_JOBS[0], _first_failed(FAILED_JOBS[1], first))
            return
        reason = (fk_jobs.job_failure_reason(first) or ("", ""))[0]
        rjname = (first["metadata"].get("labels") or {}).get(P + "replicatedjob-name")
        action = "RestartJobSet"
        for rule in fp.get("rules") or []:
            reasons = rule.get("onJobFailureReasons") or []
            targets = rule.get("targetReplicatedJobs") or []
            if (not reasons or reason in reasons) and (not targets or rjname in targets):
                action = rule.get("action", "RestartJobSet")
                break
        if action == "FailJobSet":
            self._terminal(st, "Failed", FAIL_ACTION[0], _first_failed(FAIL_ACTION[1], first))
            return
        counts = not action.endswith("AndIgnoreMaxRestarts")
        if counts and st["restartsCountTowardsMax"] >= fp.get("maxRestarts", 0):
            self._terminal(st, "Failed", MAX_RESTARTS[0], _first_failed(MAX_RESTARTS[1], first))
            return
        st["restarts"] += 1
        if counts:
            st["restartsCountTowardsMax"] += 1
        self.ctl.event(js, "Warning", "Restarting", "restarting jobset, attempt %d" % st["restarts"], COMPONENT)
        self.ctl.dirty.add(js["metadata"]["uid"])

    def _suspend(self, js, spec, st, jobs):
        want = bool(spec.get("suspend"))
        if want:
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Suspended", "True",
                                                           "SuspendedJobs", "jobset is suspended")
        elif fk_controller.cond_true(st, "Suspended"):
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Suspended", "False",
                                                           "ResumeJobs", "jobset is resumed")
        for j in jobs:
            if bool((j.get("spec") or {}).get("suspend")) != want:
                new = copy.deepcopy(j)
                new["spec"]["suspend"] = want
                self.ctl.store.update(self.ctl.types["jobs"], new, spec_changed=True)

    def _create_jobs(self, js, spec, st, jobs):
        have = {j["metadata"]["name"] for j in jobs}
        gidx = 0
        total = sum(rj.get("replicas", 1) for rj in spec.get("replicatedJobs") or [])
        for rj in spec.get("replicatedJobs") or []:
            for idx in range(rj.get("replicas", 1)):
                name = "%s-%s-%d" % (js["metadata"]["name"], rj["name"], idx)
                if name not in have:
                    self._create_job(js, spec, st, rj, idx, gidx, total, name)
                gidx += 1

    def _create_job(self, js, spec, st, rj, idx, gidx, total, name):
        ctl = self.ctl
        jspec = copy.deepcopy((rj.get("template") or {}).get("spec") or {})
        if jspec.get("completionMode") == "Indexed" and jspec.get("completions") is None:
            ctl.event_once(js, "Warning", "JobCreationFailed",
                           'Job.batch "%s" is invalid: spec.completions: Required value: when '
                           "completion mode is Indexed" % name, COMPONENT)
            return
        ns = js["metadata"]["namespace"]
        jsname = js["metadata"]["name"]
        marks = {P + "jobset-name": jsname, P + "jobset-uid": js["metadata"]["uid"],
                 P + "replicatedjob-name": rj["name"], P + "replicatedjob-replicas": str(rj.get("replicas", 1)),
                 P + "global-replicas": str(total), P + "job-index": str(idx),
                 P + "job-global-index": str(gidx),
                 P + "job-key": hashlib.sha1(("%s/%s" % (ns, name)).encode()).hexdigest(),
                 P + "restart-attempt": str(st["restarts"]), P + "group-name": rj.get("groupName", "default"),
                 P + "group-replicas": str(total), P + "job-group-index": str(gidx)}
        coord = spec.get("coordinator")
        net = spec.get("network") or {}
        sub = net.get("subdomain") or jsname
        if coord:
            marks[P + "coordinator"] = "%s-%s-%d-%d.%s" % (jsname, coord.get("replicatedJob"),
                                                          coord.get("jobIndex", 0), coord.get("podIndex", 0), sub)
        tmeta = (rj.get("template") or {}).get("metadata") or {}
        jmeta = {"name": name, "labels": dict(tmeta.get("labels") or {}),
                 "annotations": dict(tmeta.get("annotations") or {})}
        jmeta["labels"].update(marks)
        jmeta["annotations"].update(marks)
        pt = jspec.setdefault("template", {})
        pmeta = pt.setdefault("metadata", {})
        pmeta.setdefault("labels", {}).update(marks)
        pmeta.setdefault("annotations", {}).update(marks)
        if net.get("enableDNSHostnames", True):
            pt.setdefault("spec", {})["subdomain"] = sub
        jspec["suspend"] = bool(spec.get("suspend"))
        ctl.create_child("jobs", js, {"metadata": jmeta, "spec": jspec})
