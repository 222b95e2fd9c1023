"""Hand-written admission rules: ObjectMeta checks, the JobSet webhook's
defaulting and validation, the JobSet CRD's create-time CEL rules, and
mpi-operator's controller-side ValidateMPIJob (which never rejects a create,
it only yields a ValidationError event)."""

import fk_util

ANNOTATIONS_MAX = 256 * 1024


def check_meta(obj, name_rule="subdomain"):
    """Causes for metadata problems the apiserver rejects with 422."""
    meta = obj.get("metadata") or {}
    causes = []
    name = meta.get("name")
    if not name:
        if not meta.get("generateName"):
            causes.append(fk_util.cause("FieldValueRequired", "metadata.name",
                                        "Required value: name or generateName is required"))
    else:
        rule = {"subdomain": fk_util.dns1123_subdomain_errs,
                "label": fk_util.dns1123_label_errs}[name_rule]
        for e in rule(name):
            causes.append(fk_util.cause("FieldValueInvalid", "metadata.name",
                                        "Invalid value: %s: %s" % (fk_util.jstr(name), e)))
    for key, value in (meta.get("labels") or {}).items():
        for e in fk_util.qualified_name_errs(key):
            causes.append(fk_util.cause("FieldValueInvalid", "metadata.labels",
                                        "Invalid value: %s: %s" % (fk_util.jstr(key), e)))
        if not isinstance(value, str):
            causes.append(fk_util.cause("FieldValueInvalid", "metadata.labels",
                                        "Invalid value: %s: must be a string" % fk_util.jstr(value)))
            continue
        for e in fk_util.label_value_errs(value):
            causes.append(fk_util.cause("FieldValueInvalid", "metadata.labels",
                                        "Invalid value: %s: %s" % (fk_util.jstr(value), e)))
    annotations = meta.get("annotations") or {}
    size = sum(len(k) + len(str(v).encode()) for k, v in annotations.items())
    if size > ANNOTATIONS_MAX:
        causes.append(fk_util.cause("FieldValueTooLong", "metadata.annotations",
                                    "Too long: must have at most %d bytes" % ANNOTATIONS_MAX))
    return causes


def jobset_defaults(js):
    """What the JobSet mutating webhook adds (pkg/webhooks/jobset_webhook.go)."""
    spec = js.setdefault("spec", {})
    net = spec.setdefault("network", {})
    net.setdefault("enableDNSHostnames", True)
    net.setdefault("publishNotReadyAddresses", True)
    spec.setdefault("successPolicy", {"operator": "All"})
    spec["successPolicy"].setdefault("operator", "All")
    spec.setdefault("startupPolicy", {"startupPolicyOrder": "AnyOrder"})
    for rj in spec.get("replicatedJobs") or []:
        jspec = rj.setdefault("template", {}).setdefault("spec", {})
        jspec.setdefault("completionMode", "Indexed")
        pspec = jspec.setdefault("template", {}).setdefault("spec", {})
        pspec.setdefault("restartPolicy", "OnFailure")


def _webhook_cause(field, value, msg):
    return fk_util.cause("FieldValueInvalid", field, "Invalid value: %s: %s" % (fk_util.jstr(value), msg))


def jobset_validate(js):
    """JobSet webhook + create-time CEL rules; returns (cel_causes, webhook_causes)."""
    spec = js.get("spec") or {}
    name = (js.get("metadata") or {}).get("name", "")
    cel, hook = [], []
    rjobs = spec.get("replicatedJobs") or []
    in_order = (spec.get("startupPolicy") or {}).get("startupPolicyOrder") == "InOrder"
    if in_order and any("dependsOn" in rj for rj in rjobs):
        cel.append(fk_util.cause("FieldValueInvalid", "spec", 'Invalid value: "object": '
                                 "StartupPolicy and DependsOn APIs are mutually exclusive"))
    for i, vcp in enumerate(spec.get("volumeClaimPolicies") or []):
        for t in vcp.get("templates") or []:
            if (t.get("metadata") or {}).get("namespace"):
                cel.append(fk_util.cause("FieldValueInvalid", "spec.volumeClaimPolicies[%d]" % i,
                                         'Invalid value: "object": namespace cannot be set for '
                                         "VolumeClaimPolicies templates"))
    sub = (spec.get("network") or {}).get("subdomain")
    if sub:
        for e in fk_util.dns1035_label_errs(sub):
            hook.append(_webhook_cause("spec.network.subdomain", sub, e))
    for i, rj in enumerate(rjobs):
        path = "spec.replicatedJobs[%d]" % i
        rname = rj.get("name", "")
        for e in fk_util.dns1035_label_errs(rname):
            hook.append(_webhook_cause(path + ".name", rname, e))
        replicas = rj.get("replicas", 1)
        job_name = "%s-%s-%d" % (name, rname, max(replicas - 1, 0))
        for e in fk_util.dns1035_label_errs(job_name):
            hook.append(_webhook_cause(path + ".name", job_name, "job name " + e))
        jspec = (rj.get("template") or {}).get("spec") or {}
        if jspec.get("completionMode", "Indexed") == "Indexed" and jspec.get("completions"):
            # Room for the pod's random 5-char suffix, as the webhook checks.
            pod = "%s-%d-abcde" % (job_name, jspec["completions"] - 1)
            for e in fk_util.dns1035_label_errs(pod):
                hook.append(_webhook_cause(path, pod, "pod name " + e))
        policy = ((jspec.get("template") or {}).get("spec") or {}).get("restartPolicy")
        if policy not in (None, "Never", "OnFailure"):
            hook.append(fk_util.cause("FieldValueNotSupported",
                                      path + ".template.spec.template.spec.restartPolicy",
                                      'Unsupported value: %s: supported values: "OnFailure", "Never"'
                                      % fk_util.jstr(policy)))
        if i == 0 and rj.get("dependsOn"):
            hook.append(_webhook_cause(path + ".dependsOn", "array",
                                       "DependsOn can't be set for the first ReplicatedJob"))
    names = [rj.get("name") for rj in rjobs]
    for t in (spec.get("successPolicy") or {}).get("targetReplicatedJobs") or []:
        if t not in names:
            hook.append(_webhook_cause("spec.successPolicy.targetReplicatedJobs", t,
                                       "invalid replicatedJob name %r does not appear in .spec.ReplicatedJobs" % t))
    return cel, hook


def mpijob_validate(mj):
    """mpi-operator's ValidateMPIJob subset; a list of messages (empty = valid)."""
    spec = mj.get("spec") or {}
    name = (mj.get("metadata") or {}).get("name", "")
    errs = []
    specs = spec.get("mpiReplicaSpecs") or {}
    launcher, worker = specs.get("Launcher"), specs.get("Worker")
    if launcher is None:
        errs.append("spec.mpiReplicaSpecs[Launcher]: Required value: must have replica type Launcher")
    elif launcher.get("replicas", 1) != 1:
        errs.append("spec.mpiReplicaSpecs[Launcher].replicas: Invalid value: %s: must be 1"
                    % launcher.get("replicas"))
    if worker is not None and not worker.get("replicas"):
        errs.append("spec.mpiReplicaSpecs[Worker].replicas: Invalid value: 0: must be greater than or equal to 1")
    for rtype, rs in (("Launcher", launcher), ("Worker", worker)):
        if rs is None:
            continue
        default = "OnFailure" if rtype == "Launcher" else "Never"
        if rs.get("restartPolicy", default) not in ("Never", "OnFailure"):
            errs.append('spec.mpiReplicaSpecs[%s].restartPolicy: Unsupported value: "%s": supported '
                        'values: "Never", "OnFailure"' % (rtype, rs.get("restartPolicy")))
        if not (((rs.get("template") or {}).get("spec") or {}).get("containers")):
            errs.append("spec.mpiReplicaSpecs[%s].template.spec.containers: Required value: must "
                        "define at least one container" % rtype)
    policy = (spec.get("runPolicy") or {}).get("cleanPodPolicy", "None")
    if policy not in ("None", "Running", "All"):
        errs.append('spec.runPolicy.cleanPodPolicy: Unsupported value: "%s": supported values: '
                    '"None", "Running", "All"' % policy)
    longest = "%s-worker-%d" % (name, max(((worker or {}).get("replicas") or 1) - 1, 0))
    for e in fk_util.dns1035_label_errs(longest):
        errs.append("metadata.name: Invalid value: %s: will not able to create pod and service "
                    "with invalid DNS label: %s" % (fk_util.jstr(name), e))
    return errs
