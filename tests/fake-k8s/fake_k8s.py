#!/usr/bin/env python3
"""Fake Kubernetes API server for Sluice's integration tests (stdlib only).

  fake_k8s.py --certs DIR [--port 0] [--control-port 0] [--tokens FILE]
              [--token TOKEN] [--crds DIR] [--ready-file F]

HTTPS API on 127.0.0.1:PORT (certs from mkcerts.sh), plain-HTTP control API
on 127.0.0.1:CONTROL_PORT.  When ready, writes {"port", "control_port",
"pid"} as JSON to the ready file (atomically).  Exits 0 on SIGTERM/SIGINT.
"""

import argparse
import json
import os
import signal
import sys
import threading

sys.dont_write_bytecode = True

import fk_control  # noqa: E402
import fk_controller  # noqa: E402
import fk_http  # noqa: E402
import fk_schema  # noqa: E402
import fk_state  # noqa: E402
import fk_store  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CRD_FILES = ("jobset.x-k8s.io_jobsets.yaml", "kubeflow.org_mpijobs.yaml")


def parse_args(argv):
    p = argparse.ArgumentParser(description="fake Kubernetes API server for tests")
    p.add_argument("--certs", required=True, help="directory made by mkcerts.sh")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--control-port", type=int, default=0)
    p.add_argument("--tokens", help="static token file: token,user[,uid,groups] per line")
    p.add_argument("--token", action="append", default=[], help="an accepted bearer token")
    p.add_argument("--crds", default=os.path.join(HERE, "..", "data", "crds"))
    p.add_argument("--ready-file")
    p.add_argument("--event-window", type=int, default=10000,
                   help="watch events retained; older resourceVersions get 410")
    return p.parse_args(argv)


def write_ready(path, info):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(info, f)
        f.write("\n")
    os.rename(tmp, path)


def main(argv):
    args = parse_args(argv)
    crds = [fk_schema.load_crd(os.path.join(args.crds, f)) for f in CRD_FILES]
    types = fk_state.build_types(crds)
    store = fk_store.Store(window=args.event_window)
    ctl = fk_controller.Controller(store, {rt.plural: rt for rt in types.values()})
    state = fk_state.State(store, ctl, types)
    if args.tokens:
        state.load_tokens(args.tokens)
    for tok in args.token:
        state.tokens[tok] = "token-user"
    c = args.certs
    ctx = fk_http.make_context(os.path.join(c, "server.crt"), os.path.join(c, "server.key"),
                               os.path.join(c, "ca.crt"))
    api = fk_http.ApiServer(state, ctx, args.port)
    api.start()
    control = fk_control.ControlServer(args.control_port, fk_control.Ctx(state, api))
    threading.Thread(target=control.serve_forever, kwargs={"poll_interval": 0.1},
                     name="control", daemon=True).start()
    ctl.start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    info = {"port": api.port, "control_port": control.server_address[1], "pid": os.getpid()}
    if args.ready_file:
        write_ready(args.ready_file, info)
    else:
        print(json.dumps(info), flush=True)
    while not done.wait(1.0):
        pass
    ctl.stop()
    api.stop()
    control.shutdown()
    control.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
