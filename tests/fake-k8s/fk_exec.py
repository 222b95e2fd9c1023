"""The fake kubelet's exec mode (schedule `exec: true`): a pod becomes local
processes, run by fk_podrun.py in mount and UTS namespaces of its own
(root needed). Each pod gets a loopback address 127.0.0.N and a line in a
hosts file shared by the server's pods; both reach the pod through
SLUICE_AGENT_ADDR and SLUICE_AGENT_HOSTS, the step agent's test mode
(a real pod has its own network namespace and cluster DNS).

What a pod sees: its command and args with Kubernetes' $(VAR) expansion,
env (value, secretKeyRef, fieldRef), workingDir, the pod's uid/gid/groups,
hostname, and its volumes: emptyDir, downwardAPI (fieldRef items),
hostPath, secret. PATH, HOSTNAME and HOME are set as an image would; the
schedule's `env` is added over the container's (test knobs), its `images`
maps an image to files of this machine ({path in the image: file}).
A pod whose secretKeyRef names a missing Secret stays Pending, as kubelet
retries it. When the main process ends, every process left in the pod's
session is killed, as the runtime ends a container."""

import base64
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_VAR = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


class Waiting(Exception):
    """The pod cannot start yet (a Secret it needs is missing)."""


def expand(text, env):
    def sub(m):
        if m.group(0) == "$$":
            return "$"
        return env.get(m.group(1), m.group(0))
    return _VAR.sub(sub, text)


def field(pod, path, ip):
    meta = pod.get("metadata") or {}
    m = re.match(r"metadata\.(labels|annotations)\['([^']*)'\]$", path)
    if m:
        return (meta.get(m.group(1)) or {}).get(m.group(2), "")
    return {"metadata.name": meta.get("name", ""), "metadata.namespace": meta.get("namespace", ""),
            "metadata.uid": meta.get("uid", ""), "status.podIP": ip,
            "spec.nodeName": (pod.get("spec") or {}).get("nodeName", "")}.get(path, "")


class PodProcs:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="fk-pods-")
        os.chmod(self.dir, 0o755)
        self.hosts = os.path.join(self.dir, "hosts")
        open(self.hosts, "w").close()
        os.chmod(self.hosts, 0o644)
        self.procs = {}
        self.next_ip = 10

    def _secret(self, store, rt, ns, name, key):
        s = store.get(rt, ns, name) if rt else None
        if s is None or key not in (s.get("data") or {}):
            raise Waiting("secret %s/%s" % (ns, name))
        return base64.b64decode(s["data"][key]).decode("utf-8", "replace")

    def _env(self, pod, c, ip, hostname, store, secret_rt, sched):
        env = {"PATH": PATH, "HOSTNAME": hostname, "HOME": "/"}
        uid = ((pod.get("spec") or {}).get("securityContext") or {}).get("runAsUser")
        try:
            env["HOME"] = pwd.getpwuid(uid if uid is not None else 0).pw_dir
        except KeyError:
            pass
        ns = pod["metadata"].get("namespace", "default")
        for e in c.get("env") or []:
            if "value" in e:
                env[e["name"]] = expand(e["value"], env)
            vf = e.get("valueFrom") or {}
            if "secretKeyRef" in vf:
                r = vf["secretKeyRef"]
                env[e["name"]] = self._secret(store, secret_rt, ns, r["name"], r["key"])
            elif "fieldRef" in vf:
                env[e["name"]] = field(pod, vf["fieldRef"]["fieldPath"], ip)
        env.update({"SLUICE_AGENT_ADDR": ip, "SLUICE_AGENT_HOSTS": self.hosts})
        env.update(sched.get("env") or {})
        return env

    def _volumes(self, pod, pdir, store, secret_rt, ip):
        spec = pod.get("spec") or {}
        ns = pod["metadata"].get("namespace", "default")
        src = {}
        for v in spec.get("volumes") or []:
            d = os.path.join(pdir, "vol", v["name"])
            if "hostPath" in v:
                src[v["name"]] = v["hostPath"]["path"]
                continue
            os.makedirs(d, exist_ok=True)
            src[v["name"]] = d
            if "emptyDir" in v:
                os.chmod(d, 0o777)
            elif "downwardAPI" in v:
                for it in v["downwardAPI"].get("items") or []:
                    p = os.path.join(d, it["path"])
                    with open(p, "w") as f:
                        f.write(field(pod, it["fieldRef"]["fieldPath"], ip))
                    os.chmod(p, it.get("mode", v["downwardAPI"].get("defaultMode", 0o644)))
            elif "secret" in v:
                s = store.get(secret_rt, ns, v["secret"]["secretName"])
                if s is None:
                    raise Waiting("secret volume")
                for k, val in (s.get("data") or {}).items():
                    with open(os.path.join(d, k), "wb") as f:
                        f.write(base64.b64decode(val))
        mounts, seen = [], set()
        for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
            for m in c.get("volumeMounts") or []:
                if m["mountPath"] not in seen and m["name"] in src:
                    seen.add(m["mountPath"])
                    mounts.append({"path": m["mountPath"], "src": src[m["name"]]})
        return mounts

    def start(self, pod, store, secret_rt, sched):
        """Start the pod; its IP, or raise Waiting."""
        uid = pod["metadata"]["uid"]
        spec = pod.get("spec") or {}
        hostname = spec.get("hostname") or pod["metadata"]["name"]
        ip = "127.0.0.%d" % self.next_ip
        pdir = os.path.join(self.dir, pod["metadata"]["name"])
        os.makedirs(pdir, exist_ok=True)
        mounts = self._volumes(pod, pdir, store, secret_rt, ip)
        ctrs, inits = {}, []
        sc = spec.get("securityContext") or {}
        for i, c in enumerate((spec.get("initContainers") or []) + (spec.get("containers") or [])[:1]):
            env = self._env(pod, c, ip, hostname, store, secret_rt, sched)
            argv = [expand(a, env) for a in (c.get("command") or []) + (c.get("args") or [])]
            name = "main" if i == len(spec.get("initContainers") or []) else "init%d" % i
            if name != "main":
                inits.append(name)
            ctrs[name] = {"argv": argv, "env": env, "cwd": c.get("workingDir"), "image": c.get("image")}
        run = {"hostname": hostname, "mounts": mounts, "inits": inits, "containers": ctrs,
               "uid": sc.get("runAsUser"), "gid": sc.get("runAsGroup"),
               "groups": sc.get("supplementalGroups") or [], "images": sched.get("images") or {}}
        with open(os.path.join(pdir, "spec.json"), "w") as f:
            json.dump(run, f)
        self.next_ip += 1
        sub = spec.get("subdomain")
        with open(self.hosts, "a") as f:
            f.write("%s %s%s\n" % (ip, hostname, " %s.%s" % (hostname, sub) if sub else ""))
        log = open(os.path.join(pdir, "log"), "wb")
        p = subprocess.Popen(["unshare", "--mount", "--uts", "--propagation", "private",
                              sys.executable, os.path.join(HERE, "fk_podrun.py"), "pod",
                              os.path.join(pdir, "spec.json")],
                             stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True, close_fds=True)
        log.close()
        self.procs[uid] = {"proc": p, "log": os.path.join(pdir, "log"), "ended": False}
        return ip

    def has(self, uid):
        return uid in self.procs

    def poll(self, uid):
        """The pod's exit code once its main process ended (the rest killed)."""
        e = self.procs.get(uid)
        if e is None:
            return None
        rc = e["proc"].poll()
        if rc is None:
            return None
        if not e["ended"]:
            e["ended"] = True
            self._kill_session(e["proc"].pid)
        return rc if rc >= 0 else 128 - rc

    def signal(self, uid, sig):
        e = self.procs.get(uid)
        if e is not None and e["proc"].poll() is None:
            try:
                os.killpg(e["proc"].pid, sig)
            except OSError:
                pass

    def log(self, uid):
        e = self.procs.get(uid)
        if e is None:
            return None
        with open(e["log"], "rb") as f:
            return f.read().decode("utf-8", "replace")

    @staticmethod
    def _kill_session(sid):
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % d) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[3]) == sid:
                    os.kill(int(d), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass

    def close(self):
        for uid, e in self.procs.items():
            if e["proc"].poll() is None:
                self._kill_session(e["proc"].pid)
        shutil.rmtree(self.dir, ignore_errors=True)
