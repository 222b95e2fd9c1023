# pmi_probe.py - one rank's PMI requests and the replies as they came, for
# srun_pmi2.sh: run under the reference Slurm 22.05's mpi/pmi2, its output is
# tests/data/srun/pmi_probe{1,2}.ref (job ids masked J.S). python3 pmi_probe.py 1|2
import os, sys, re
fd = int(os.environ["PMI_FD"]); ver = sys.argv[1]
def rd(n):
    b = b""
    while len(b) < n:
        c = os.read(fd, n - len(b))
        if not c: raise SystemExit("eof")
        b += c
    return b
def line(req):
    os.write(fd, req.encode()); b = b""
    while not b.endswith(b"\n"): b += rd(1)
    return b.decode()
def frame(req):
    os.write(fd, ("%-6d" % len(req) + req).encode())
    h = rd(6); return h.decode() + rd(int(h)).decode()
out = []
if ver == "1":
    out.append(line("cmd=init pmi_version=1 pmi_subversion=1\n"))
    for r in ["cmd=get_maxes\n", "cmd=get_appnum\n", "cmd=get_my_kvsname\n", "cmd=get_universe_size\n",
              "cmd=put kvsname=x key=a value=1\n", "cmd=get kvsname=x key=a\n", "cmd=barrier_in\n",
              "cmd=get kvsname=x key=a\n", "cmd=get kvsname=x key=PMI_process_mapping\n",
              "cmd=publish_name service=s port=p1\n", "cmd=publish_name service=s port=p2\n",
              "cmd=lookup_name service=s\n", "cmd=unpublish_name service=s\n",
              "cmd=unpublish_name service=s\n", "cmd=lookup_name service=s\n", "cmd=finalize\n"]:
        out.append(line(r))
else:
    out.append(line("cmd=init pmi_version=2 pmi_subversion=0\n"))
    j = os.environ["PMI_JOBID"]
    for r in ["cmd=fullinit;pmijobid=%s;pmirank=0;threaded=FALSE;" % j, "cmd=fullinit;pmirank=0;",
              "cmd=job-getid;", "cmd=info-getjobattr;key=PMI_process_mapping;",
              "cmd=info-getjobattr;key=universeSize;", "cmd=info-getjobattr;key=A_nope;",
              "cmd=info-putnodeattr;key=n;value=v;", "cmd=info-getnodeattr;key=n;wait=FALSE;",
              "cmd=info-getnodeattr;key=m;wait=FALSE;", "cmd=kvs-put;key=a;value=1;",
              "cmd=kvs-get;jobid=%s;srcid=-1;key=a;" % j, "cmd=kvs-fence;",
              "cmd=kvs-get;jobid=%s;srcid=-1;key=a;" % j, "cmd=kvs-get;jobid=%s;srcid=-1;key=PMI_process_mapping;" % j,
              "cmd=name-publish;name=s;port=p1;", "cmd=name-publish;name=s;port=p2;",
              "cmd=name-lookup;name=s;", "cmd=name-unpublish;name=s;", "cmd=name-unpublish;name=s;",
              "cmd=name-lookup;name=s;", "cmd=finalize;"]:
        out.append(frame(r))
for o in out:
    print(re.sub(r"\d+\.\d+", "J.S", o.rstrip("\n")))
