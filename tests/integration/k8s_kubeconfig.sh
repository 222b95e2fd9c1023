#!/bin/sh
# Kubernetes executor: every way to reach the API server runs a job:
# client certificate files, inline certificate data, a token file, an exec
# credential plugin, and in-cluster (service account + KUBERNETES_SERVICE_*).
. "$top_srcdir/tests/integration/k8s_lib.sh"
start_fake
fk PUT /fake/schedule '{"pending_ms": 50, "running_ms": 100}' >/dev/null || fail "schedule"
mkdir -p "$T/work" && cd "$T/work"

run_one() { # run_one NAME CONFIG-SECTION
	rm -rf "$T/state"
	write_k8s_conf "$2
  image: ubuntu:24.04"
	start_daemon
	j=$(submit root -o /dev/null --wrap true) || fail "$1: submit"
	wait_state "$j" COMPLETED 20
	user=$(fk GET /fake/requests | jpath '[r["user"] for r in d["requests"] if r["verb"] == "create"][-1]')
	stop_daemon
	ok "$1: job COMPLETED (API user $user)"
}
run_one "client certificate" "kubernetes:
  kubeconfig: $T/kc/cert-files.kubeconfig"
run_one "certificate data" "kubernetes:
  kubeconfig: $T/kc/cert-data.kubeconfig"
run_one "token file" "kubernetes:
  kubeconfig: $T/kc/tokenfile.kubeconfig"
run_one "exec plugin" "kubernetes:
  kubeconfig: $T/kc/exec.kubeconfig"
[ -s "$T/kc/exec-plugin.calls" ] || fail "the exec plugin never ran"
set -a
. "$T/kc/incluster.env"
set +a
export SLUICE_K8S_SA_DIR="$T/kc/incluster"
run_one "in-cluster" "kubernetes:
  inCluster: true"
