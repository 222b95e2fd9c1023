"""batch/v1 Job controller stand-in: pods per completion index, backoffLimit,
activeDeadlineSeconds, suspend, and the Complete/Failed conditions."""

import copy

import fk_controller
import fk_util

INDEX = "batch.kubernetes.io/job-completion-index"


def _index(pod):
    v = (pod["metadata"].get("labels") or {}).get(INDEX)
    return int(v) if v is not None and v.isdigit() else None


def _ranges(indexes):
    """'0-2,5' like Job status.completedIndexes."""
    out, run = [], []
    for i in sorted(indexes):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
        run = [i]
    if run:
        out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
    return ",".join(out)


def _ready(pod):
    s = pod.get("status") or {}
    return s.get("phase") == "Running" and any(
        c.get("type") == "Ready" and c.get("status") == "True" for c in s.get("conditions") or [])


def _policy_met(spec, done_idx):
    """A successPolicy rule whose succeededIndexes ("0", "0-2,5") all succeeded."""
    for rule in (spec.get("successPolicy") or {}).get("rules") or []:
        want = set()
        for part in str(rule.get("succeededIndexes") or "").split(","):
            if "-" in part:
                a, b = part.split("-", 1)
                want.update(range(int(a), int(b) + 1))
            elif part.strip():
                want.add(int(part))
        if want and want <= done_idx:
            return True
    return False


class JobController:
    def __init__(self, ctl):
        self.ctl = ctl

    def reconcile(self, job, now):
        ctl = self.ctl
        st = copy.deepcopy(job.get("status") or {})
        if job["metadata"].get("deletionTimestamp") or fk_controller.cond_true(st, "Complete") \
                or fk_controller.cond_true(st, "Failed"):
            return
        spec = job.get("spec") or {}
        uid = job["metadata"]["uid"]
        pods = ctl.dependents(job, "Pod")
        live = [p for p in pods if not ctl.kubelet.terminal(p) and not p["metadata"].get("deletionTimestamp")]
        if spec.get("suspend"):
            for p in live:
                ctl.delete(p)
            st.update({"active": 0, "ready": 0})
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Suspended", "True",
                                                           "JobSuspended", "Job suspended")
            ctl.job_start.pop(uid, None)
            ctl.write_status(job, st)
            return
        if fk_controller.cond_true(st, "Suspended"):
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Suspended", "False",
                                                           "JobResumed", "Job resumed")
            st.pop("startTime", None)
        if uid not in ctl.job_start:
            ctl.job_start[uid] = now
        st.setdefault("startTime", fk_util.now_rfc3339())
        st.setdefault("failed", 0)
        for p in pods:
            if (p.get("status") or {}).get("phase") == "Failed" and p["metadata"]["uid"] not in ctl.seen_failed:
                ctl.seen_failed.add(p["metadata"]["uid"])
                st["failed"] += 1
        indexed = spec.get("completionMode") == "Indexed"
        completions = spec.get("completions") or 1
        parallelism = spec.get("parallelism", 1)
        succeeded = [p for p in pods if (p.get("status") or {}).get("phase") == "Succeeded"]
        done_idx = {_index(p) for p in succeeded} if indexed else set()
        failure = self._failure(job, spec, st, now)
        if failure:
            for p in live:
                ctl.delete(p)
            live = []
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Failed", "True", *failure)
        elif indexed and _policy_met(spec, done_idx):
            # successPolicy (batch/v1, 1.31): the rest of the indexes are stopped
            for p in live:
                ctl.delete(p)
            live = []
            conds = fk_controller.set_condition(st.get("conditions"), "SuccessCriteriaMet", "True",
                                                "SuccessPolicy", "Matched rules at index 0")
            st["conditions"] = fk_controller.set_condition(conds, "Complete", "True",
                                                           "SuccessPolicy", "Reached expected number of succeeded pods")
            st["completionTime"] = fk_util.now_rfc3339()
        elif (len(done_idx) if indexed else len(succeeded)) >= completions:
            st["conditions"] = fk_controller.set_condition(st.get("conditions"), "Complete", "True",
                                                           None, None)
            st["completionTime"] = fk_util.now_rfc3339()
        else:
            live += self._create_missing(job, spec, live, done_idx, indexed, completions, parallelism,
                                         len(succeeded))
        st["active"] = len(live)
        st["ready"] = sum(1 for p in live if _ready(p))
        st["succeeded"] = len(done_idx) if indexed else len(succeeded)
        if indexed and done_idx:
            st["completedIndexes"] = _ranges(done_idx)
        st.setdefault("uncountedTerminatedPods", {})
        ctl.write_status(job, st)

    def _failure(self, job, spec, st, now):
        deadline = spec.get("activeDeadlineSeconds")
        uid = job["metadata"]["uid"]
        if deadline is not None:
            due = self.ctl.job_start[uid] + deadline
            if now >= due:
                return ("DeadlineExceeded", "Job was active longer than specified deadline")
            self.ctl.timed[uid] = due
        if st["failed"] > spec.get("backoffLimit", 6):
            return ("BackoffLimitExceeded", "Job has reached the specified backoff limit")
        return None

    def _create_missing(self, job, spec, live, done_idx, indexed, completions, parallelism, nsucc):
        made = []
        if indexed:
            busy = {_index(p) for p in live}
            for idx in range(completions):
                if len(live) + len(made) >= parallelism:
                    break
                if idx not in busy and idx not in done_idx:
                    made.append(self._create_pod(job, spec, idx))
        else:
            need = min(parallelism, completions - nsucc) - len(live)
            made = [self._create_pod(job, spec, None) for _ in range(max(need, 0))]
        return [p for p in made if p is not None]

    def _create_pod(self, job, spec, idx):
        tmpl = copy.deepcopy(spec.get("template") or {})
        meta = tmpl.get("metadata") or {}
        pspec = tmpl.get("spec") or {}
        jname, juid = job["metadata"]["name"], job["metadata"]["uid"]
        labels = dict(meta.get("labels") or {})
        labels.update({"batch.kubernetes.io/controller-uid": juid, "batch.kubernetes.io/job-name": jname,
                       "controller-uid": juid, "job-name": jname})
        annotations = dict(meta.get("annotations") or {})
        if idx is not None:
            labels[INDEX] = annotations[INDEX] = str(idx)
            pspec["hostname"] = "%s-%d" % (jname, idx)
            for c in pspec.get("containers") or []:
                env = c.setdefault("env", [])
                env.append({"name": "JOB_COMPLETION_INDEX", "valueFrom": {"fieldRef": {
                    "fieldPath": "metadata.labels['%s']" % INDEX}}})
            name = "%s-%d-%s" % (jname, idx, fk_util.rand_suffix())
        else:
            name = "%s-%s" % (jname, fk_util.rand_suffix())
        pspec.setdefault("terminationGracePeriodSeconds", 30)
        pspec.setdefault("schedulerName", "default-scheduler")
        pspec.setdefault("dnsPolicy", "ClusterFirst")
        pod = {"metadata": {"name": name, "labels": labels, "annotations": annotations},
               "spec": pspec}
        return self.ctl.create_child("pods", job, pod)


def job_failure_reason(job):
    for c in (job.get("status") or {}).get("conditions") or []:
        if c.get("type") == "Failed" and c.get("status") == "True":
            return c.get("reason") or "", c.get("message") or ""
    return None

