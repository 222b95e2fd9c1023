# conf.sh - write_conf: the test configuration in $T/sluice.yaml (socket
# and state under $T; one flavor, ClusterQueue main, LocalQueue batch in
# namespace general). Sourced by lib.sh and by the benchmarks, so the two
# run the same daemon. Knobs: $1 (more SluiceConfiguration keys), FLAVORS,
# RESOURCE_GROUPS, CPUS, EXTRA_OBJECTS.
write_conf() {
	cat >"$T/sluice.yaml" <<EOC
apiVersion: sluice.io/v1alpha1
kind: SluiceConfiguration
socket: $T/sock/sluiced.sock
stateDir: $T/state
executor: local
auth: none
defaultPartition: batch
killWait: 2
clusterName: sluicetest
pbsTmpDir: $T
accounts:
  "*": [general]
${1:-}
---
${FLAVORS:-apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default\}}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: main}
spec:
  namespaceSelector: {}
  resourceGroups:
${RESOURCE_GROUPS:-  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: ${CPUS:-8}\}
      - {name: memory, nominalQuota: 32Gi\}}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: batch, namespace: general}
spec: {clusterQueue: main}
${EXTRA_OBJECTS:-}
EOC
}

# start_bench_daemon [SLUICED ARGS...]: the benchmarks' private sluiced on
# $T/sluice.yaml (write_conf first), from $build; sets $pid, kills it and
# removes $T on exit (unless the caller traps EXIT itself afterwards), and
# returns once it answers.
start_bench_daemon() {
	export SLUICE_CONF="$T/sluice.yaml" SLUICE_STEPD="$build/bin/sluice-stepd/sluice-stepd"
	"$build/bin/sluiced/sluiced" -D "$@" -f "$SLUICE_CONF" 2>"$T/log" &
	pid=$!
	trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$T"' EXIT
	until "$build/bin/squeue" -h >/dev/null 2>&1; do sleep 0.05; done
}

