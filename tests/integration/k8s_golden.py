#!/usr/bin/env python3
"""k8s_golden.py GOLDEN: compare the one object in a /fake/objects answer
(stdin) with a golden file, modulo what the server or the machine decides:
uid, resourceVersion, timestamps, generation, status; the test's temporary
directory (@T@), the test user's uid, gid and name (@UID@/@GID@/@USER@: in
securityContext, SLURM_JOB_UID/GID/USER and the sluice.io/user label, so the
goldens hold whatever uid the machine gave the user); and the submitter's
exported environment, of which only SLURM_* variables are compared.
SL_GOLDEN_UPDATE=1 rewrites the golden instead."""
import json
import os
import sys

T, UID, GID = os.environ["T"], os.environ["GUID"], os.environ["GGID"]
USER = os.environ["GUSER"]
# Variables and labels that name the submitter: their value -> its mask.
WHO = {"SLURM_JOB_UID": (UID, "@UID@"), "SLURM_JOB_GID": (GID, "@GID@"),
       "SLURM_JOB_USER": (USER, "@USER@"), "sluice.io/user": (USER, "@USER@")}


def mask(name, value):
    real, masked = WHO.get(name, (None, None))
    return masked if real is not None and value == real else value


def norm(v, key=None):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in ("uid", "resourceVersion", "creationTimestamp", "generation",
                     "managedFields", "status", "deletionTimestamp"):
                continue
            if k == "env" and isinstance(x, list):
                x = [dict(e, value=mask(e.get("name"), e.get("value"))) if "value" in e else e
                     for e in x if str(e.get("name", "")).startswith("SLURM_") or
                     e.get("name") in ("SLUICE_AGENT_PORT", "SLUICE_JOB_SECRET")]
            out[k] = norm(mask(k, x), k)
        return out
    if isinstance(v, list):
        return [norm(x, key) for x in v]
    if isinstance(v, str):
        return v.replace(T, "@T@")
    if isinstance(v, int) and not isinstance(v, bool) and key in (
            "runAsUser", "runAsGroup", "fsGroup", "supplementalGroups"):
        return "@UID@" if str(v) == UID and key == "runAsUser" else \
            "@GID@" if str(v) == GID else v
    return v


def main():
    doc = json.load(sys.stdin)
    items = doc["items"] if isinstance(doc, dict) else doc
    if len(items) != 1:
        print("expected one object, got %d" % len(items), file=sys.stderr)
        return 1
    got = json.dumps(norm(items[0]), indent=2, sort_keys=True) + "\n"
    if os.environ.get("SL_GOLDEN_UPDATE") == "1":
        with open(sys.argv[1], "w") as f:
            f.write(got)
        return 0
    with open(sys.argv[1]) as f:
        want = f.read()
    if got != want:
        import difflib
        sys.stderr.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                   sys.argv[1], "created object"))
        return 1
    return 0


sys.exit(main())
