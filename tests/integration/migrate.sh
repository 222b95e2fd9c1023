#!/bin/sh
# migrate.sh - `sluice migrate` on Debian's example configs, the reference
# cluster's slurm.conf and sacctmgr captures (dump and -P tables), and three
# site configs (typed GPUs, preempting QOS, nested accounts): each output
# equals its golden (tests/data/migrate/golden/NAME/, REGEN=1 rewrites them)
# and `sluiced --check-config` accepts it. Then the live cluster's
# /etc/slurm/slurm.conf, when there is one, and a real sluiced on the
# reference cluster's migrated config: partitions, accounts and QOS work.
. "$(dirname "$0")/lib.sh"

DATA="$top_srcdir/tests/data/migrate"
SLUICE="$BIN/sluice"

# case NAME CONF [SACCTMGR FILES...]
run_case() {
	name=$1 conf=$2
	shift 2
	args=""
	for a in "$@"; do args="$args --sacctmgr $a"; done
	# shellcheck disable=SC2086 # the report names inputs relative to DATA
	(cd "$DATA" && "$SLUICE" migrate "$conf" $args -o "$T/$name") >"$T/$name.out" 2>&1 ||
		fail "$name: sluice migrate: $(cat "$T/$name.out")"
	for f in sluice.yaml limits.yaml partitions.yaml migrate-report.txt; do
		if [ -n "${REGEN:-}" ]; then
			mkdir -p "$DATA/golden/$name"
			cp "$T/$name/$f" "$DATA/golden/$name/$f"
		fi
		diff -u "$DATA/golden/$name/$f" "$T/$name/$f" >"$T/diff" ||
			fail "$name/$f differs from its golden:
$(head -n 40 "$T/diff")"
	done
	"$SLUICED" --check-config "$T/$name/sluice.yaml" >"$T/check" 2>&1 ||
		fail "$name: sluiced --check-config refused it: $(cat "$T/check")"
	ok "$name: golden, and sluiced --check-config accepts it"
}

run_case debian-simple debian-simple.conf
run_case debian-cgroup debian-cgroup.conf
run_case sluiceref sluiceref-slurm.conf sluiceref-dump.cfg sluiceref-qos.txt
run_case sluiceref-tables sluiceref-slurm.conf sluiceref-qos.txt sluiceref-assoc.txt sluiceref-user.txt
run_case site-gpu site-gpu.conf
run_case site-qos site-qos.conf site-qos.txt
run_case site-nested site-nested.conf site-nested-dump.cfg

# Without -o: the config on stdout, the report on stderr.
(cd "$DATA" && "$SLUICE" migrate site-gpu.conf) >"$T/stdout" 2>"$T/stderr" || fail "no -o: exit $?"
cmp -s "$T/stdout" "$DATA/golden/site-gpu/sluice.yaml" || fail "no -o: stdout is not the config"
cmp -s "$T/stderr" "$DATA/golden/site-gpu/migrate-report.txt" || fail "no -o: stderr is not the report"
ok "no -o: config on stdout, report on stderr"

# Bad input: a clear error, exit 1; usage: exit 2.
out=$("$SLUICE" migrate "$T/nosuch.conf" 2>&1); rc=$?
expect_eq "missing file exit" 1 "$rc"
expect_eq "missing file message" "sluice: error: $T/nosuch.conf: No such file or directory" "$out"
printf 'NodeName=n1\nPartitionName=p Nodes=n[1-2]\n' >"$T/bad.conf"
out=$("$SLUICE" migrate "$T/bad.conf" 2>&1); rc=$?
expect_eq "unknown node exit" 1 "$rc"
expect_eq "unknown node message" \
	"sluice: error: $T/bad.conf:2: partition p: node n2 is not defined by any NodeName line" "$out"
"$SLUICE" migrate >/dev/null 2>&1; expect_eq "no operand exit" 2 "$?"
ok "bad input refused"

# The live cluster's own slurm.conf (it may differ from the capture).
if [ -r /etc/slurm/slurm.conf ]; then
	"$SLUICE" migrate /etc/slurm/slurm.conf -o "$T/live" >/dev/null 2>"$T/live.err" ||
		fail "live slurm.conf: $(cat "$T/live.err")"
	"$SLUICED" --check-config "$T/live/sluice.yaml" >/dev/null 2>&1 ||
		fail "live slurm.conf: --check-config refused the output"
	ok "live /etc/slurm/slurm.conf migrates and checks"
fi

# A real sluiced on the reference cluster's migrated config: partitions are
# LocalQueues in the accounts' namespaces, QOS are priority classes.
sed "s|^kind: SluiceConfiguration\$|kind: SluiceConfiguration\\
socket: $T/sock/sluiced.sock\\
stateDir: $T/state|" "$T/sluiceref/sluice.yaml" >"$T/sluice.yaml"
start_daemon
id alice >/dev/null 2>&1 || skip "no user alice (the reference cluster's)"
mkdir -p "$T/work" && chmod 1777 "$T/work"
cd "$T/work" || fail "cd $T/work"
id=$(as alice "$BIN/sbatch" --parsable -p gpu -A physics --qos=high -t 5 --wrap true 2>&1) &&
	fail "alice has no physics association, yet: $id"
expect_eq "foreign account" \
	"sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" "$id"
id=$(as alice "$BIN/sbatch" --parsable -p gpu -A research --qos=nosuch --wrap true 2>&1) &&
	fail "--qos=nosuch accepted: $id"
expect_eq "unknown QOS" "sbatch: error: Batch job submission failed: Invalid qos specification" "$id"
id=$(as alice "$BIN/sbatch" --parsable -p gpu --qos=high --wrap true) || fail "sbatch -p gpu --qos=high: $id"
line=$("$BIN/squeue" -h -t all -j "$id" -o '%P %a %q %Q')
expect_eq "job's partition, account, QOS, priority" "gpu research high 10100" "$line"
wait_state "$id" COMPLETED
ok "sluiced runs the migrated config: partition gpu, default account research, QOS high"

# The GPU site's migrated config: -C and --gres=gpu:TYPE select its flavors.
stop_daemon
sed -e "s|^kind: SluiceConfiguration\$|kind: SluiceConfiguration\\
socket: $T/sock/sluiced.sock\\
stateDir: $T/state-gpu|" -e '/^pam: /d' "$T/site-gpu/sluice.yaml" >"$T/sluice.yaml"
start_daemon
id=$(as alice "$BIN/sbatch" --parsable -p a100 --gres=gpu:a100:1 -C ib -o /dev/null --wrap true) ||
	fail "sbatch -p a100 --gres=gpu:a100:1 -C ib: $id"
wait_state "$id" COMPLETED
"$BIN/scontrol" show job "$id" | grep -q ' Flavors=cpu=epyc-ib-a100,nvidia.com/gpu=epyc-ib-a100$' ||
	fail "job $id flavors: $("$BIN/scontrol" show job "$id" | grep Flavors)"
out=$(as alice "$BIN/sbatch" -p v100 --gres=gpu:a100:1 --wrap true 2>&1) && fail "a100 GPUs in v100: $out"
case "$out" in *"Requested node configuration is not available"*) ;; *) fail "a100 in v100: $out" ;; esac
out=$(as alice "$BIN/sbatch" -p cpu -C epyc --wrap true 2>&1) && fail "-C epyc in cpu: $out"
case "$out" in *"Invalid feature specification"*) ;; *) fail "-C epyc in cpu: $out" ;; esac
ok "the GPU site's flavors: a100 with ib admitted on epyc-ib-a100; a100 in v100 and epyc in cpu refused"
