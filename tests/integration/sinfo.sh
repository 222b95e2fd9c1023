#!/bin/sh
# sinfo through the real sluiced: partitions batch (ClusterQueue main, 4
# CPUs) and debug (ClusterQueue spare, 2 CPUs) in one cohort, the node
# this host. The layouts are Slurm's: headers are compared with what real
# Slurm 22.05 printed (tests/data/output/sinfo_*.out), lines in full. The
# node goes idle -> mix -> alloc as jobs are admitted; --quota shows the
# borrowing and lending; a stop policy makes the partition down and its
# node drained, with the reason in -R; bad options fail as Slurm's do.
. "$top_srcdir/tests/integration/lib.sh"
make_users
FLAVORS='apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
spec:
  nodeLabels: {example.com/pool: local}' \
EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: spare}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 2}
      - {name: memory, nominalQuota: 8Gi}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: debug, namespace: general}
spec: {clusterQueue: spare}' CPUS=4 write_conf
# both ClusterQueues in cohort co
sed -i 's/^  namespaceSelector: {}$/  namespaceSelector: {}\n  cohort: co/' "$T/sluice.yaml"
expect_eq "cohort members" 2 "$(grep -c '^  cohort: co$' "$T/sluice.yaml")"
start_daemon
cd "$T/work"
H=$(hostname -s)
S="$BIN/sinfo"
golden() { cat "$top_srcdir/tests/data/output/sinfo_$1.out"; }
# the node list's width with -N: the longest name, at least 9
NW=${#H}; [ "$NW" -ge 9 ] || NW=9

# runs sinfo ARGS; fails unless it exits 0 with stdout $1
expect_out() {
	want=$1; shift
	got=$("$S" "$@" 2>&1) || fail "sinfo $*: exit $?: $got"
	[ "$got" = "$want" ] || fail "sinfo $*:
--- want
$want
--- got
$got"
}

# idle
expect_out "$(golden default | head -n1)
batch*       up   infinite      1   idle $H
debug        up   infinite      1   idle $H" 
expect_out "$(golden summarize | head -n1)
batch*       up   infinite          0/1/0/1 $H
debug        up   infinite          0/1/0/1 $H" -s
expect_eq "-N header" "$(golden node | head -n1)" "$(printf '%-*s  NODES PARTITION STATE ' 9 NODELIST)"
expect_out "$(printf '%-*s  NODES PARTITION STATE ' "$NW" NODELIST)
$(printf '%-*s      1    batch* idle  ' "$NW" "$H")
$(printf '%-*s      1     debug idle  ' "$NW" "$H")" -N
expect_out "$(golden fmt_basic | head -n1)
batch* up infinite 1 idle $H
debug up infinite 1 idle $H" -o "%P %a %l %D %t %N"
expect_out "debug        up   infinite      1   idle $H" -h -p debug
expect_out "$(golden default | head -n1)" -p nosuch
expect_out "$(golden reasons | head -n1)" -R
out=$("$S" -l) || fail "sinfo -l"
echo "$out" | head -n1 | grep -Eq '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$' ||
	fail "sinfo -l: no date line: $out"
expect_eq "sinfo -l" "$(golden long | sed -n 2p)
batch*       up   infinite 1-infinite   no       NO        all      1        idle $H
debug        up   infinite 1-infinite   no       NO        all      1        idle $H" \
	"$(echo "$out" | tail -n +2)"
expect_out "PARTITION CPUS MEMORY CPUS(A/I/O/T) AVAIL_FEATURES
batch* 4 32768 0/4/0/4 example.com/pool=local
debug 2 8192 0/2/0/2 example.com/pool=local" -o "%P %c %m %C %f"
ok "idle: default, -s, -N, -o, -h, -p, -R and -l, with Slurm's headers"

# idle -> mix -> alloc
j1=$(submit $USER1 -c 2 -J a --wrap 'sleep 120') || fail "submit 1"
wait_state "$j1" RUNNING
expect_out "batch* mix 2/2/0/4
debug idle 0/2/0/2" -h -o "%P %t %C"
expect_out "batch*       up   infinite      1    mix $H
debug        up   infinite      0    n/a " -h -t mix
expect_out "batch*       up   infinite      0    n/a 
debug        up   infinite      1   idle $H" -h -t idle
j2=$(submit $USER1 -c 2 -J b --wrap 'sleep 120') || fail "submit 2"
wait_state "$j2" RUNNING
expect_out "batch* alloc allocated 4/0/0/4
debug idle idle 0/2/0/2" -h -o "%P %t %T %C"
expect_out "batch*       up   infinite          1/0/0/1 $H
debug        up   infinite          0/1/0/1 $H" -s -h
ok "the node goes idle -> mix -> alloc as jobs are admitted"

# borrowing: main takes one of spare's CPUs; one job waits
j3=$(submit $USER1 -c 1 -J c --wrap 'sleep 120') || fail "submit 3"
wait_state "$j3" RUNNING
j4=$(submit $USER1 -c 2 -J d --wrap 'sleep 120') || fail "submit 4"
sleep 0.5
expect_eq "job 4 waits" PENDING "$(state "$j4")"
expect_out "PARTITION   CLUSTERQUEUE   FLAVOR    RESOURCE   NOMINAL   BORROWED   LENT   USED   PENDING
batch       main           default   cpu        4         1          0      5      1
batch       main           default   memory     32Gi      0          0      0      1
debug       spare          default   cpu        2         0          1      0      0
debug       spare          default   memory     8Gi       0          0      0      0" --quota
expect_out "debug   spare   default   cpu      2     0   1   0   0
debug   spare   default   memory   8Gi   0   0   0   0" --quota -h -p debug
expect_out "batch* 5/0/0/5 alloc
debug 0/2/0/2 idle" -h -o "%P %C %t"
ok "--quota: nominal, borrowed, lent, used and pending per flavor"

out=$("$S" --json) || fail "sinfo --json"
# the node as a whole: both queues' quota, 5 of 6 CPUs in use
for want in '"name": "'"$H"'",' '"cpus": 6,' '"state": "mixed",' \
	'"partitions": [' '"alloc_cpus": 5,' '"type": "openapi\/v0.0.38",'; do
	case "$out" in *"$want"*) ;; *) fail "sinfo --json lacks $want: $out" ;; esac
done
keys=$(echo "$out" | sed -n 's/^      "\([a-z_]*\)".*/\1/p')
expect_eq "--json's keys (meta's, then one node's)" \
	"$(golden json | sed -n 's/^      "\([a-z_]*\)".*/\1/p' | head -n "$(echo "$keys" | wc -l)")" "$keys"
ok "--json: Slurm 22.05's node document"

# Stop policies on both queues: the partitions are down, the node drained
# where nothing runs and draining where jobs still do; -R says why.
sed -i 's/^  cohort: co$/  cohort: co\n  stopPolicy: Hold/' "$T/sluice.yaml"
kill -HUP "$DPID"
n=0
until "$S" -h -p debug | grep -q ' down '; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "debug not down after SIGHUP: $("$S")"
	sleep 0.1
done
expect_out "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
batch*     down   infinite      1   drng $H
debug      down   infinite      1  drain $H"
expect_out "$(golden reasons | head -n1)
Hold: cq main        root      $(date -d "@$(stat -c %Y "$T/sluice.yaml")" +%Y-%m-%dT%H:%M:%S) $H
Hold: cq spare       root      $(date -d "@$(stat -c %Y "$T/sluice.yaml")" +%Y-%m-%dT%H:%M:%S) $H" -R
sed -i '/^  stopPolicy: Hold$/d' "$T/sluice.yaml"
kill -HUP "$DPID"
ok "a stop policy: AVAIL down, the node drained or draining, the reason in -R"

"$BIN/scancel" -u $USER1 || fail "scancel"
n=0
until [ "$("$S" -h -o %t | sort -u)" = idle ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "not idle after scancel: $("$S")"
	sleep 0.1
done
ok "idle again once the jobs are gone"

# Bad options, as Slurm refuses them.
expect_fail() { # expect_fail STDERR ARGS...
	want=$1; shift
	got=$("$S" "$@" 2>&1) && fail "sinfo $* succeeded: $got"
	[ "$got" = "$want" ] || fail "sinfo $*: [$got], want [$want]"
}
expect_fail "sinfo: unrecognized option '--bogus'
Try \"sinfo --help\" for more information" --bogus
expect_fail "sinfo: error: --federation is not supported by Sluice" --federation
expect_fail "sinfo: error: Error: invalid entry for --iterate=0" --iterate=0
expect_fail 'sinfo: error: Bad state string: "foo"
sinfo: error: valid states: unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint,reboot,reboot^,unknown' -t foo
expect_fail "sinfo: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry." -l -o %P
ok "bad options: Slurm's messages, exit 1"

stop_daemon
expect_fail "slurm_load_partitions: Unable to contact slurm controller (connect failure)"
ok "no daemon: Slurm's message"
