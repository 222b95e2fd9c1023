# k8s_lib.sh - shared by the Kubernetes executor's integration tests: the
# real sluiced (executor: kubernetes) against tests/fake-k8s, the real
# commands. Sourced after nothing: it sources lib.sh itself.
. "$top_srcdir/tests/integration/lib.sh"
FK="$top_srcdir/tests/fake-k8s"
export PYTHONDONTWRITEBYTECODE=1
FKPID=""
KTOKEN=sluice-test-token-0123456789
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
command -v openssl >/dev/null 2>&1 || skip "openssl not found"
command -v curl >/dev/null 2>&1 || skip "curl not found"

# start_fake: the fake API server on free ports; kubeconfigs in $T/kc.
start_fake() {
	sh "$FK/mkcerts.sh" "$T/certs" >/dev/null 2>&1 || fail "mkcerts"
	printf '%s,sluice,1000,"system:masters"\n' "$KTOKEN" >"$T/tokens.csv"
	rm -f "$T/ready"
	python3 "$FK/fake_k8s.py" --certs "$T/certs" --port "${FKPORT:-0}" --control-port 0 \
		--tokens "$T/tokens.csv" --ready-file "$T/ready" 2>>"$T/fake.log" &
	FKPID=$!
	n=0
	while [ ! -s "$T/ready" ]; do
		n=$((n + 1))
		kill -0 "$FKPID" 2>/dev/null || fail "fake-k8s exited: $(tail -5 "$T/fake.log")"
		[ $n -lt 300 ] || fail "fake-k8s did not start in 30 s"
		sleep 0.1
	done
	FKPORT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$T/ready")
	FKCTL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["control_port"])' "$T/ready")
	sh "$FK/kubeconfig.sh" "$T/certs" "$FKPORT" "$T/kc" "$KTOKEN" >/dev/null || fail "kubeconfig.sh"
}

# fk METHOD PATH [JSON]: the fake's control API; prints the answer.
fk() {
	if [ $# -ge 3 ]; then
		curl -sf --max-time 30 -X "$1" -H 'Content-Type: application/json' -d "$3" "http://127.0.0.1:$FKCTL$2"
	else
		curl -sf --max-time 30 -X "$1" "http://127.0.0.1:$FKCTL$2"
	fi
}

# jq-less JSON access: jpath EXPR reads JSON on stdin, prints eval(EXPR) with d = the document.
jpath() {
	python3 -c 'import json,sys; d=json.load(sys.stdin); v=eval(sys.argv[1]); print(v if not isinstance(v,(dict,list)) else json.dumps(v,sort_keys=True))' "$1"
}

# nobjs RESOURCE [SELECTOR]: how many objects the fake holds.
nobjs() {
	fk GET "/fake/objects?resource=$1${2:+&labelSelector=$2}" | jpath 'len(d["items"] if isinstance(d,dict) else d)'
}

# write_k8s_conf [KUBECONFIG-SECTION-LINES] ; extra objects from $EXTRA_OBJECTS.
# The default section points at the token kubeconfig.
write_k8s_conf() {
	write_conf "${1:-kubernetes:
  kubeconfig: $T/kc/token.kubeconfig
  qps: 50
  burst: 100
  image: ubuntu:24.04}"
	sed -i 's/^executor: local$/executor: kubernetes/' "$T/sluice.yaml"
}

# wait_for CMD... : until CMD succeeds (20 s, or $WAIT seconds).
wait_for() {
	n=0
	lim=$((${WAIT:-20} * 10))
	until "$@"; do
		n=$((n + 1))
		[ $n -lt $lim ] || fail "timed out waiting for: $*"
		sleep 0.1
	done
}

# squeue field for one job: sq JOBID FORMAT
sq() { "$BIN/squeue" -h -j "$1" -o "$2" 2>/dev/null; }

stop_fake() {
	[ -n "$FKPID" ] && kill -TERM "$FKPID" 2>/dev/null && wait "$FKPID" 2>/dev/null
	FKPID=""
}

# golden FILE: stdin (a /fake/objects answer) against tests/data/k8s-golden/FILE.
golden() {
	T="$T" GUID=$(id -u "$USER1") GGID=$(id -g "$USER1") GUSER=$USER1 \
		python3 "$top_srcdir/tests/integration/k8s_golden.py" "$top_srcdir/tests/data/k8s-golden/$1"
}

# wait_sq JOBID FORMAT VALUE [SECONDS]: until squeue -o FORMAT says VALUE.
wait_sq() {
	n=0
	lim=$((${4:-20} * 10))
	while :; do
		v=$(sq "$1" "$2")
		[ "$v" = "$3" ] && return 0
		n=$((n + 1))
		[ $n -lt $lim ] || fail "job $1: squeue $2 is [$v], expected [$3] after ${4:-20} s"
		sleep 0.1
	done
}

# wait_n EXPECTED RESOURCE [SELECTOR] [SECONDS]: until the fake holds that many.
wait_n() {
	n=0
	lim=$((${4:-20} * 10))
	while :; do
		v=$(nobjs "$2" "${3:-}")
		[ "$v" = "$1" ] && return 0
		n=$((n + 1))
		[ $n -lt $lim ] || fail "$2${3:+ ($3)}: $v objects, expected $1 after ${4:-20} s"
		sleep 0.1
	done
}

# pods_ready TIMEOUT [MORE-LINES]: Kueue's Configuration with waitForPodsReady
# on, as YAML for $EXTRA_OBJECTS.
pods_ready() {
	printf -- '---\napiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n'
	printf 'waitForPodsReady:\n  enable: true\n  timeout: %s\n%s' "$1" "${2:+$2
}"
}

# gpu_queue FLAVOR CPU MEMORY GPUS: ClusterQueue gpuq over FLAVOR's quota
# and its LocalQueue gpu (partition gpu), as YAML for $EXTRA_OBJECTS.
gpu_queue() {
	cat <<EOG
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: gpuq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: $1
      resources:
      - {name: cpu, nominalQuota: $2}
      - {name: memory, nominalQuota: $3}
      - {name: nvidia.com/gpu, nominalQuota: $4}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: gpu, namespace: general}
spec: {clusterQueue: gpuq}
EOG
}

# lib.sh's start_daemon writes this config when none exists yet.
WRITE_CONF=write_k8s_conf
