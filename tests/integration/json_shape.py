#!/usr/bin/env python3
"""json_shape.py REAL OURS: compare two Slurm --json documents by shape.

For each job of OURS, the job of REAL in the same state (job_state for
squeue's document, state.current for sacct's) is its model: the same keys
in the same order at every level, and the same JSON types, where a null on
either side matches anything (Slurm leaves a number null when unset). Lists
are compared element by element against the model's first element. Exits 1
with the path of the first difference."""
import json
import sys


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return type(v).__name__


def compare(model, ours, path):
    if model is None or ours is None:
        return
    if kind(model) != kind(ours):
        sys.exit("%s: %s in Slurm's, %s in ours" % (path, kind(model), kind(ours)))
    if isinstance(model, dict):
        mk, ok = list(model.keys()), list(ours.keys())
        # sockets and cores are keyed by their numbers
        if all(k.isdigit() for k in mk + ok):
            for k in ok:
                compare(model[mk[0]] if mk else None, ours[k], path + "." + k)
            return
        if mk != ok:
            sys.exit("%s: keys differ\n  Slurm: %s\n  ours:  %s" % (path, mk, ok))
        for k in mk:
            compare(model[k], ours[k], path + "." + k)
    elif isinstance(model, list) and model:
        for i, v in enumerate(ours):
            compare(model[min(i, len(model) - 1)] if not isinstance(v, dict) or "type" not in v
                    else next((m for m in model if m.get("type") == v.get("type")), model[0]),
                    v, "%s[%d]" % (path, i))


def state(job):
    s = job.get("job_state", job.get("state"))
    return s["current"] if isinstance(s, dict) else s


def model_key(job):
    # a job that never got nodes has no job_resources: its own model
    return state(job) + ("" if "job_resources" in job or "job_state" not in job else "-")


def main():
    real, ours = (json.load(open(p)) for p in sys.argv[1:3])
    compare({k: v for k, v in real.items() if k != "jobs"},
            {k: v for k, v in ours.items() if k != "jobs"}, "$")
    models = {model_key(j): j for j in real["jobs"]}
    seen = set()
    for i, j in enumerate(ours["jobs"]):
        m = models.get(model_key(j), models.get(state(j)))
        if m is None:
            continue
        compare(m, j, "$.jobs[%d](%s)" % (i, state(j)))
        seen.add(state(j))
    want = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else set()
    if want - seen:
        sys.exit("no job in state %s to compare" % ",".join(sorted(want - seen)))
    print("shape ok: %s" % ", ".join(sorted(seen)))


main()
