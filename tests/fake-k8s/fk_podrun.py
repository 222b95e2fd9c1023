"""A pod of the fake kubelet as local processes (fk_exec.py starts it).

`fk_podrun.py pod SPEC` runs in the pod's own mount and UTS namespaces
(under `unshare --mount --uts`): it sets the pod's hostname, binds the
pod's volumes (per-pod directories the kubelet filled) at their mount
paths, runs the init containers in order, then becomes the main container.
`fk_podrun.py ctr SPEC NAME` is one container, each in a mount namespace of
its own so that its image's files (the spec's `images` map: image ->
{path in the image: file on this machine}) are seen by it alone; it then
drops to the pod's uid/gid/groups, enters workingDir and execs.

The "image" is this machine's filesystem plus those files: a test stand-in,
not isolation (the pods share the network and PID namespaces, each with a
loopback address of its own).
"""

import json
import os
import subprocess
import sys


def mount(args):
    subprocess.run(["mount"] + args, check=True)


def bind(src, dst):
    """A volume at its mount path; a missing directory is made on this
    machine (an empty /sluice, say: the cost of not faking a root fs)."""
    os.makedirs(dst, exist_ok=True)
    mount(["--bind", src, dst])


def image_files(files):
    """Show the image's files: a tmpfs over each missing file's directory
    (in this container's namespace only) keeps the host unchanged."""
    covered = set()
    for dst, src in sorted(files.items()):
        if not os.path.exists(dst):
            parent = os.path.dirname(dst)
            if parent not in covered:
                os.makedirs(parent, exist_ok=True)
                mount(["-t", "tmpfs", "-o", "mode=0755", "tmpfs", parent])
                covered.add(parent)
            open(dst, "a").close()
        mount(["--bind", src, dst])


def container(spec, name):
    c = spec["containers"][name]
    image_files(spec.get("images", {}).get(c.get("image") or "", {}))
    os.setgroups(spec.get("groups") or [])
    if spec.get("gid") is not None:
        os.setgid(spec["gid"])
    if spec.get("uid") is not None:
        os.setuid(spec["uid"])
    if c.get("cwd"):
        os.chdir(c["cwd"])
    env = c["env"]
    try:
        os.execvpe(c["argv"][0], c["argv"], env)
    except OSError as e:
        sys.stderr.write("fk_podrun: %s: %s\n" % (c["argv"][0], e))
        os._exit(128)


def pod(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    mount(["--make-rprivate", "/"])
    import socket
    socket.sethostname(spec["hostname"])
    for m in spec.get("mounts", []):
        bind(m["src"], m["path"])
    unshare = ["unshare", "--mount", "--propagation", "private", sys.executable,
               os.path.abspath(__file__), "ctr", spec_path]
    for name in spec.get("inits", []):
        rc = subprocess.run(unshare + [name]).returncode
        if rc != 0:
            sys.stderr.write("fk_podrun: init container %s exited %d\n" % (name, rc))
            os._exit(rc if rc > 0 else 128 - rc)
    os.execvp(unshare[0], unshare + ["main"])


def main():
    if sys.argv[1] == "pod":
        pod(sys.argv[2])
    else:
        with open(sys.argv[2]) as f:
            spec = json.load(f)
        container(spec, sys.argv[3])


if __name__ == "__main__":
    main()
