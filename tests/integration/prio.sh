#!/bin/sh
# sprio, sshare, strigger and the priorities squeue and scontrol print,
# through the real sluiced. Layouts are Slurm 22.05's (headers and widths
# as captured on the reference cluster, see test_sprio_fmt.c and
# test_sshare_fmt.c); the values are Sluice's parts (libbatch/prio.h):
# SITE 10000 + the WorkloadPriorityClass value - nice, 0 when held.
. "$top_srcdir/tests/integration/lib.sh"
make_users
CPUS=8 EXTRA_OBJECTS="$PHYSICS_HIGH
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: other, namespace: physics}
spec: {clusterQueue: main}"
write_conf_accounts "  $USER1: [general]
  $USER2: [physics, general]"
start_daemon
cd "$T/work"

run=$(submit $USER1 -c 8 --wrap 'sleep 300') || fail "submit"
wait_state "$run" RUNNING
j2=$(submit $USER1 -c 8 --wrap true) || fail "submit j2"
j3=$(submit $USER1 -c 8 --nice=50 --qos=high --wrap true) || fail "submit j3"
j4=$(submit $USER2 -A physics -c 8 --wrap true) || fail "submit j4"
held=$(submit $USER2 -H -c 8 --wrap true) || fail "submit held"

pad() { printf '%15s %-9.9s' "$1" "$2"; }
expect_eq "sprio" "          JOBID PARTITION   PRIORITY       SITE        QOS
$(pad $j2 batch)      10000      10000          0
$(pad $j3 batch)      10050      10000        100
$(pad $j4 batch)      10000      10000          0" "$("$BIN/sprio")"
expect_eq "sprio -w" "          JOBID PARTITION   PRIORITY       SITE        QOS
        Weights                               1          1" "$("$BIN/sprio" -w)"
expect_eq "sprio -l" "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES
$(pad $j3 batch) $(printf '%8.8s' $USER1)      10050      10000          0          0          0          0          0        100          50                     " \
	"$("$BIN/sprio" -l -j "$j3")"
expect_eq "sprio -u -S -y -h" "$(pad $j4 batch) $(printf '%8.8s' $USER2)      10000      10000          0" \
	"$("$BIN/sprio" -h -u "$USER2" -S -y)"
expect_eq "sprio -S -y order" "$j3 $j2 $j4" "$("$BIN/sprio" -h -S -y -o %i | tr '\n' ' ' | sed 's/ $//')"
expect_eq "sprio -n" "$(pad $j3 batch) 0.00000233 100.000000" "$("$BIN/sprio" -h -n -j "$j3")"
expect_eq "sprio -p other" "" "$("$BIN/sprio" -h -p other)"
expect_eq "sprio -p batch" "3" "$("$BIN/sprio" -h -p batch | wc -l)"
expect_eq "SPRIO_FORMAT" "$j2:10000" "$(SPRIO_FORMAT='%i:%Y' "$BIN/sprio" -h -j "$j2")"
ok "sprio: default, -w, -l, -u, -S, -n, -p, SPRIO_FORMAT in Slurm's layout; held and running jobs left out"

out=$("$BIN/sprio" -j 99999 2>&1); rc=$?
expect_eq "sprio -j unknown" "0 Unable to find jobs matching user/id(s) specified" "$rc $out"
out=$("$BIN/sprio" -j abc 2>&1); rc=$?
expect_eq "sprio -j abc" "1 sprio: error: Invalid job id: abc" "$rc $out"
out=$("$BIN/sprio" -l -o %i 2>&1); rc=$?
expect_eq "sprio -l -o" "1 sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry." "$rc $out"
out=$("$BIN/sprio" -M x 2>&1); rc=$?
expect_eq "sprio -M" "1 sprio: error: --cluster is not supported by Sluice" "$rc $out"
ok "sprio's errors are Slurm's; -M is refused"

expect_eq "squeue %Q" "10050 0" "$("$BIN/squeue" -h -j "$j3" -o %Q) $("$BIN/squeue" -h -j "$held" -o %Q)"
expect_eq "squeue %p" "0.00000233994797" "$("$BIN/squeue" -h -j "$j3" -o %p)"
expect_eq "squeue -O Priority" "0.00000232830644" "$("$BIN/squeue" -h -j "$j2" -O Priority:20 | tr -d ' ')"
"$BIN/scontrol" show job "$j3" | grep -q ' Priority=10050 Nice=50 ' || fail "scontrol Priority= of $j3"
ok "squeue %Q/%p/-O Priority and scontrol Priority= on Slurm's scale, 0 when held"

sleep 1 # the running job's CPU-seconds: all the usage, on a sixth of the shares: 2^-6
out=$("$BIN/sshare" -a -P -o Account,User,RawShares,NormShares,FairShare)
expect_eq "sshare -a -P" "Account|User|RawShares|NormShares|FairShare
root|||0.000000|
 general||1|0.333333|
  general|$USER1|1|0.500000|0.015625
  general|$USER2|1|0.500000|1.000000
 physics||2|0.666667|
  physics|$USER2|1|1.000000|1.000000" "$out"
u=$("$BIN/sshare" -h -P -a -o User,RawUsage | sed -n "s/^$USER1|//p" | head -n1)
[ "${u:-0}" -ge 8 ] || fail "sshare RawUsage of $USER1: [$u], want >= 8 (8 CPUs, >= 1 s)"
out=$(as $USER2 "$BIN/sshare" -n -P -o Account,User)
expect_eq "sshare as $USER2" "root|
 general|
  general|$USER2
 physics|
  physics|$USER2" "$out"
out=$("$BIN/sshare" -A physics -a -o Account,User%12)
expect_eq "sshare -A" "Account                      User 
-------------------- ------------ 
physics                           
$(printf '%-20s %12s ' ' physics' $USER2)" "$out"
out=$("$BIN/sshare" -o Bogus 2>&1); rc=$?
expect_eq "sshare -o Bogus" "1 sshare: error: Invalid field requested: \"bogus\"" "$rc $out"
ok "sshare: the config's associations, LocalQueue weights as shares, running usage, -a -A -u -o -P"

out=$("$BIN/strigger" --get 2>&1); rc=$?
expect_eq "strigger" "1 strigger: error: strigger is not supported by Sluice" "$rc $out"
ok "strigger is refused with the not-supported line"

stop_daemon
out=$(SLUICE_CONNECT_TIMEOUT=1 "$BIN/sprio" 2>&1); rc=$?
expect_eq "sprio, sluiced down" "255 Couldn't get priority factors from controller: Unable to contact slurm controller (connect failure)" "$rc $out"
out=$(SLUICE_CONNECT_TIMEOUT=1 "$BIN/sshare" 2>&1); rc=$?
expect_eq "sshare, sluiced down" "255 Couldn't get shares from controller: Unable to contact slurm controller (connect failure)" "$rc $out"
ok "sprio and sshare without sluiced: Slurm's line and exit status"
