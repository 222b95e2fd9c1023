"""mpi-operator stand-in (kubeflow.org/v2beta1 MPIJob): controller-side
validation (invalid objects are stored, get a ValidationError event and no
conditions), worker pods, the launcher Job (at startup or when workers are
ready), Created/Running/Succeeded/Failed conditions, cleanPodPolicy and
runPolicy.suspend."""

import copy

import fk_controller
import fk_jobs
import fk_rules
import fk_util

COMPONENT = "mpi-job-controller"
T = "training.kubeflow.org/"


def _phase(pod):
    return (pod.get("status") or {}).get("phase")


class MPIJobController:
    def __init__(self, ctl):
        self.ctl = ctl

    def reconcile(self, mj, now):
        ctl = self.ctl
        meta = mj["metadata"]
        if meta.get("deletionTimestamp"):
            return
        errs = fk_rules.mpijob_validate(mj)
        if errs:
            ctl.event_once(mj, "Warning", "ValidationError", "Found validation errors: " + "; ".join(errs),
                           COMPONENT)
            return
        spec = mj.get("spec") or {}
        run = spec.get("runPolicy") or {}
        st = copy.deepcopy(mj.get("status") or {})
        ident = "%s/%s" % (meta["namespace"], meta["name"])
        conds = fk_controller.set_condition(st.get("conditions"), "Created", "True", "MPIJobCreated",
                                            "MPIJob %s is created." % ident, True)
        st.setdefault("startTime", fk_util.now_rfc3339())
        pods = ctl.dependents(mj, "Pod")
        workers = [p for p in pods if (p["metadata"].get("labels") or {}).get(T + "replica-type") == "worker"]
        ljobs = [j for j in ctl.dependents(mj, "Job") if j["metadata"]["name"] == meta["name"] + "-launcher"]
        ljob = ljobs[0] if ljobs else None
        lpods = ctl.dependents(ljob, "Pod") if ljob else []
        finished = fk_controller.cond_true(st, "Succeeded") or fk_controller.cond_true(st, "Failed")
        if finished:
            self._cleanup(run, workers, lpods)
        elif run.get("suspend"):
            conds = self._suspend(mj, st, conds, workers, ljob, ident)
        else:
            if fk_controller.cond_true(st, "Suspended"):
                conds = fk_controller.set_condition(conds, "Suspended", "False", "MPIJobResumed",
                                                    "MPIJob %s is resumed." % ident, True)
                st["startTime"] = fk_util.now_rfc3339()
            conds = self._progress(mj, spec, st, conds, workers, ljob, lpods, ident)
        st["conditions"] = conds
        st["replicaStatuses"] = self._replica_statuses(mj, workers, lpods)
        ctl.write_status(mj, st)

    def _progress(self, mj, spec, st, conds, workers, ljob, lpods, ident):
        ctl = self.ctl
        wspec = spec["mpiReplicaSpecs"].get("Worker")
        nworkers = (wspec or {}).get("replicas", 0)
        have = {p["metadata"]["name"] for p in workers}
        for i in range(nworkers):
            name = "%s-worker-%d" % (mj["metadata"]["name"], i)
            if name not in have:
                ctl.create_child("pods", mj, self._worker_pod(mj, wspec, i, name))
        live = [p for p in workers if not p["metadata"].get("deletionTimestamp")]
        ready = len(live) == nworkers and all(_phase(p) == "Running" for p in live)
        policy = spec.get("launcherCreationPolicy", "AtStartup")
        if ljob is None and (policy == "AtStartup" or ready):
            ljob = ctl.create_child("jobs", mj, self._launcher_job(mj, spec))
        evicted = [p for p in workers if (p.get("status") or {}).get("reason") == "Evicted"]
        lfail = fk_jobs.job_failure_reason(ljob) if ljob else None
        running = ready and any(_phase(p) == "Running" for p in lpods)
        if evicted:
            conds = self._fail(st, conds, "MPIJobEvicted", "MPIJob %s was evicted." % ident)
        elif ljob and fk_controller.cond_true(ljob.get("status"), "Complete"):
            conds = fk_controller.set_condition(conds, "Running", "False", "MPIJobSucceeded",
                                                "MPIJob %s successfully completed." % ident, True)
            conds = fk_controller.set_condition(conds, "Succeeded", "True", "MPIJobSucceeded",
                                                "MPIJob %s successfully completed." % ident, True)
            st["completionTime"] = fk_util.now_rfc3339()
        elif lfail:
            reason = lfail[0] or "MPIJobFailed"
            lreason = next((_p.get("status", {}).get("reason") for _p in lpods
                            if (_p.get("status") or {}).get("reason")), None)
            if lreason:
                reason = "%s/%s" % (reason, lreason)
            conds = self._fail(st, conds, reason, "MPIJob %s has failed: %s" % (ident, lfail[1]))
        elif running:
            conds = fk_controller.set_condition(conds, "Running", "True", "MPIJobRunning",
                                                "MPIJob %s is running." % ident, True)
        if fk_controller.cond_true({"conditions": conds}, "Succeeded") or \
                fk_controller.cond_true({"conditions": conds}, "Failed"):
            ctl.dirty.add(mj["metadata"]["uid"])
        return conds

    def _fail(self, st, conds, reason, message):
        conds = fk_controller.set_condition(conds, "Running", "False", reason, message, True)
        conds = fk_controller.set_condition(conds, "Failed", "True", reason, message, True)
        st["completionTime"] = fk_util.now_rfc3339()
        return conds

    def _suspend(self, mj, st, conds, workers, ljob, ident):
        for p in workers:
            if not p["metadata"].get("deletionTimestamp"):
                self.ctl.delete(p)
        if ljob is not None:
            self.ctl.delete(ljob, "Background")
        st.pop("startTime", None)
        conds = fk_controller.set_condition(conds, "Running", "False", "MPIJobSuspended",
                                            "MPIJob %s is suspended." % ident, True)
        return fk_controller.set_condition(conds, "Suspended", "True", "MPIJobSuspended",
                                           "MPIJob %s is suspended." % ident, True)

    def _cleanup(self, run, workers, lpods):
        policy = run.get("cleanPodPolicy", "None")
        if policy == "None":
            return
        for p in workers + (lpods if policy == "All" else []):
            if p["metadata"].get("deletionTimestamp"):
                continue
            if policy == "All" or _phase(p) in ("Running", "Pending"):
                self.ctl.delete(p)

    def _labels(self, mj, rtype, index=None):
        labels = {T + "job-name": mj["metadata"]["name"], T + "operator-name": "mpi-operator",
                  T + "replica-type": rtype, T + "job-role": rtype}
        if index is not None:
            labels[T + "replica-index"] = str(index)
        return labels

    def _worker_pod(self, mj, wspec, i, name):
        tmpl = copy.deepcopy(wspec.get("template") or {})
        meta = tmpl.get("metadata") or {}
        labels = dict(meta.get("labels") or {})
        labels.update(self._labels(mj, "worker", i))
        pspec = tmpl.get("spec") or {}
        pspec["hostname"] = name
        pspec["subdomain"] = mj["metadata"]["name"]
        pspec["restartPolicy"] = wspec.get("restartPolicy", "Never")
        pspec.setdefault("terminationGracePeriodSeconds", 30)
        return {"metadata": {"name": name, "labels": labels,
                             "annotations": dict(meta.get("annotations") or {})}, "spec": pspec}

    def _launcher_job(self, mj, spec):
        lspec = spec["mpiReplicaSpecs"]["Launcher"]
        run = spec.get("runPolicy") or {}
        tmpl = copy.deepcopy(lspec.get("template") or {})
        meta = tmpl.setdefault("metadata", {})
        meta.setdefault("labels", {}).update(self._labels(mj, "launcher"))
        pspec = tmpl.setdefault("spec", {})
        pspec["restartPolicy"] = lspec.get("restartPolicy", "OnFailure")
        pspec.setdefault("hostname", mj["metadata"]["name"] + "-launcher")
        pspec.setdefault("subdomain", mj["metadata"]["name"])
        jspec = {"completions": 1, "parallelism": 1, "backoffLimit": run.get("backoffLimit", 6),
                 "template": tmpl}
        for k in ("activeDeadlineSeconds", "ttlSecondsAfterFinished"):
            if k in run:
                jspec[k] = run[k]
        return {"metadata": {"name": mj["metadata"]["name"] + "-launcher",
                             "labels": dict(meta["labels"])}, "spec": jspec}

    def _replica_statuses(self, mj, workers, lpods):
        def count(pods):
            return {"active": sum(1 for p in pods if _phase(p) in ("Running", "Pending")
                                  and not p["metadata"].get("deletionTimestamp")),
                    "succeeded": sum(1 for p in pods if _phase(p) == "Succeeded"),
                    "failed": sum(1 for p in pods if _phase(p) == "Failed")}
        out = {"Launcher": count(lpods), "Worker": count(workers)}
        for rtype, key in (("Launcher", "launcher"), ("Worker", "worker")):
            out[rtype]["selector"] = ",".join("%s=%s" % kv for kv in sorted(self._labels(mj, key).items()))
        return out
