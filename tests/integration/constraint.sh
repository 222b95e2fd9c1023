#!/bin/sh
# -C/--constraint and --gres=gpu:TYPE:N through the real sluiced: features
# map to node labels (the config's features:), which restrict the flavors a
# job may take. Two flavors: "gpu" has the H100 label and comes second, so a
# job lands there only because of its features; "plain" labels the product
# "none", because Kueue ignores a selector key that a flavor does not label.
. "$top_srcdir/tests/integration/lib.sh"

features_conf() {
	FLAVORS='apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: plain}
spec:
  nodeLabels: {nvidia.com/gpu.product: none, example.com/network: ethernet}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: gpu}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, example.com/network: infiniband}' \
	RESOURCE_GROUPS='  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: plain
      resources:
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}
      - {name: nvidia.com/gpu, nominalQuota: 0}
    - name: gpu
      resources:
      - {name: cpu, nominalQuota: 8}
      - {name: memory, nominalQuota: 32Gi}
      - {name: nvidia.com/gpu, nominalQuota: 8}' \
	write_conf 'features:
  h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
  a100: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
  ib: {example.com/network: infiniband}
  nvme: {example.com/disk: nvme}'
}

WRITE_CONF=features_conf
start_daemon
mkdir -p "$T/work"
cd "$T/work"

# flavors JOBID -> "cpu=gpu,memory=gpu" from scontrol show job
flavors() {
	"$BIN/scontrol" show job "$1" | tr ' ' '\n' | sed -n 's/^Flavors=//p'
}
features() {
	"$BIN/scontrol" show job "$1" | tr ' ' '\n' | sed -n 's/^Features=//p'
}

id1=$(submit root -C h100 --wrap 'sleep 30') || fail "sbatch -C h100"
wait_state "$id1" RUNNING
expect_eq "-C h100 flavors" "cpu=gpu" "$(flavors "$id1")"
expect_eq "-C h100 Features" "h100" "$(features "$id1")"
expect_eq "squeue %f" "h100" "$("$BIN/squeue" -h -j "$id1" -o %f)"
ok "-C h100 takes the labelled flavor (Flavors=cpu=gpu, Features=h100)"

id2=$(submit root --wrap 'sleep 30') || fail "sbatch without -C"
wait_state "$id2" RUNNING
expect_eq "no -C flavors" "cpu=plain" "$(flavors "$id2")"
expect_eq "no -C Features" "(null)" "$(features "$id2")"
expect_eq "no -C squeue %f" "(null)" "$("$BIN/squeue" -h -j "$id2" -o %f)"
ok "without -C the first flavor (plain), Features=(null)"

printf '#!/bin/sh\n#SBATCH -C h100&ib\nsleep 30\n' >both.sh
id3=$(submit root both.sh) || fail "#SBATCH -C h100&ib"
wait_state "$id3" RUNNING
expect_eq "#SBATCH -C flavors" "cpu=gpu" "$(flavors "$id3")"
expect_eq "#SBATCH -C Features" "h100&ib" "$(features "$id3")"
ok "#SBATCH -C h100&ib: Features=h100&ib on the labelled flavor"

id4=$(submit root --gres=gpu:h100:1 --wrap 'sleep 30') || fail "sbatch --gres=gpu:h100:1"
wait_state "$id4" RUNNING
expect_eq "--gres type flavors" "cpu=gpu,nvidia.com/gpu=gpu" "$(flavors "$id4")"
id5=$(SBATCH_CONSTRAINT=h100 submit root --wrap 'sleep 30') || fail "SBATCH_CONSTRAINT"
wait_state "$id5" RUNNING
expect_eq "SBATCH_CONSTRAINT flavors" "cpu=gpu" "$(flavors "$id5")"
ok "--gres=gpu:h100:1 and SBATCH_CONSTRAINT=h100 select the flavor too"

# refused at submit, with Slurm's words and exit 1
err=$("$BIN/sbatch" -C nosuch --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-C nosuch rc" 1 "$rc"
expect_eq "-C nosuch message" \
	"sbatch: error: Batch job submission failed: Invalid feature specification" "$err"
err=$("$BIN/sbatch" -C 'h100|ib' --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-C a|b rc" 1 "$rc"
expect_eq "-C a|b message" "sbatch: error: --constraint=h100|ib: only features joined \
with & are supported by Sluice" "$err"
err=$("$BIN/sbatch" --gres=gpu:v100:1 --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "--gres v100 rc" 1 "$rc"
expect_eq "--gres v100 message" "sbatch: error: GPU type \"v100\" has no node labels: add \
features.v100 to the SluiceConfiguration
sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification" "$err"
# a100 is a known feature, but no flavor has its labels: it could never run
err=$("$BIN/sbatch" -C a100 --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-C a100 rc" 1 "$rc"
expect_eq "-C a100 message" "sbatch: error: pod set main: no flavor of ClusterQueue main for \
cpu matches its node selector and tolerations
sbatch: error: Batch job submission failed: Requested node configuration is not available" "$err"
err=$("$BIN/sbatch" -C 'h100&a100' --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-C h100&a100 rc" 1 "$rc"
case "$err" in
*"feature a100 wants node label nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB"*"
sbatch: error: Batch job submission failed: Invalid feature specification") ;;
*) fail "-C h100&a100 message: $err" ;;
esac
# nvme's label key is on no flavor: Kueue would let it match any flavor, Slurm
# refuses a feature no node has, and so does Sluice.
err=$("$BIN/sbatch" -C nvme --wrap true 2>&1 >/dev/null); rc=$?
expect_eq "-C nvme rc" 1 "$rc"
expect_eq "-C nvme message" "sbatch: error: no ResourceFlavor of ClusterQueue main labels \
example.com/disk, so example.com/disk=nvme would select nothing
sbatch: error: Batch job submission failed: Invalid feature specification" "$err"
expect_eq "refused jobs are not queued" 5 "$("$BIN/squeue" -h | wc -l)"
ok "unknown feature, | syntax, unmapped GPU type, unsatisfiable, conflicting and unlabelled features refused"

for j in $id1 $id2 $id3 $id4 $id5; do "$BIN/scancel" "$j"; done

# SIGHUP re-resolves queued jobs' features: ib moves to the plain flavor's
# label, and the job waiting for the full gpu flavor starts on plain at once.
idA=$(submit root -C ib -c 8 --wrap 'sleep 60') || fail "sbatch -C ib -c 8"
wait_state "$idA" RUNNING
idB=$(submit root -C ib --wrap 'sleep 60') || fail "sbatch -C ib"
sleep 1
expect_eq "-C ib behind a full gpu flavor" PENDING "$(state "$idB")"
sed -i 's|ib: {example.com/network: infiniband}|ib: {example.com/network: ethernet}|' "$T/sluice.yaml"
kill -HUP "$DPID"
wait_state "$idB" RUNNING
expect_eq "-C ib after the reload" "cpu=plain" "$(flavors "$idB")"
ok "SIGHUP: a queued job's feature is resolved again under the new map"

# wait_reason JOBID REASON: squeue's %r, within 10 s
wait_reason() {
	n=0
	until [ "$("$BIN/squeue" -h -j "$1" -o %r)" = "$2" ]; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "job $1: reason $("$BIN/squeue" -h -j "$1" -o %r), not $2"
		sleep 0.1
	done
}

# A feature the config drops leaves its queued job waiting with Slurm's
# BadConstraints; it queues again when the feature is back.
idC=$(submit root -C ib -c 8 --wrap true) || fail "sbatch -C ib -c 8 (second)"
sed -i '/^  ib: /d' "$T/sluice.yaml"
kill -HUP "$DPID"
wait_reason "$idC" BadConstraints
expect_eq "running jobs keep their flavor" RUNNING "$(state "$idB")"
sed -i 's|^  nvme: |  ib: {example.com/network: ethernet}\n  nvme: |' "$T/sluice.yaml"
kill -HUP "$DPID"
wait_reason "$idC" Resources
ok "a dropped feature: Reason=BadConstraints; back in the map: queued again"
for j in $idA $idB $idC; do "$BIN/scancel" "$j"; done
