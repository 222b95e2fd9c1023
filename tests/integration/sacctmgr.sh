#!/bin/sh
# sacctmgr (read-only) through the real sluiced: the config's accounts map,
# Account and QOS objects as Slurm 22.05's sacctmgr lists them. Snakemake's
# Slurm executor checks a job's account with exactly
#   sacctmgr -n -s list user "$USER" format=account%256
# and splits the output on newlines, stripping each line.
. "$top_srcdir/tests/integration/lib.sh"
make_users
EXTRA_OBJECTS="$PHYSICS_HIGH
---
apiVersion: sluice.io/v1alpha1
kind: QOS
metadata: {name: high}
spec: {priorityClass: high, maxJobsPerUser: 4, maxSubmitJobsPerUser: 10, maxTRESPerUser: {cpu: \"16\", memory: 16G}, maxWall: \"2-00:00:00\"}
---
apiVersion: sluice.io/v1alpha1
kind: Account
metadata: {name: science}
spec: {maxWall: \"1-00:00:00\", grpTRES: {cpu: \"256\"}}
---
apiVersion: sluice.io/v1alpha1
kind: Account
metadata: {name: physics}
spec: {parent: science, grpJobs: 50, maxJobsPerUser: 10}"
write_conf_accounts "  $USER1: [physics, general]
  \"*\": [general, shared]" "operators: [$USER2]"
start_daemon
cd "$T/work"

# Snakemake's line: the user's accounts, the default first, one a line
out=$(as $USER1 "$BIN/sacctmgr" -n -s list user "$USER1" format=account%256); rc=$?
expect_eq "snakemake's sacctmgr line" "0 $(printf '%256s \n%256s ' general physics)" "$rc $out"
out=$(as $USER1 "$BIN/sacctmgr" -n -s list user "$USER1" format=account%256 | python3 -c '
import sys; print(sorted(set(l.strip().lower() for l in sys.stdin.read().split("\n") if l)))')
expect_eq "snakemake's parse" "['general', 'physics']" "$out"
# a "*" user before any job, named: the "*" entry's accounts
out=$(as $USER2 "$BIN/sacctmgr" -n -s list user "$USER2" format=account%256 | tr -d ' ')
expect_eq "a '*' user named" "general
shared" "$out"
out=$("$BIN/sacctmgr" -n -s list user nosuchuser0 format=account%256); rc=$?
expect_eq "no such user" "0 " "$rc $out"
ok "sacctmgr -n -s list user \$USER format=account%256: the user's accounts, '*' for a named user"

out=$("$BIN/sacctmgr" list user)
expect_eq "list user before $USER2 has a job" "      User   Def Acct     Admin 
---------- ---------- --------- 
  $USER1    physics      None " "$out"
submit $USER2 -A shared --wrap true >/dev/null 2>&1 || true
j=$(submit $USER2 --wrap true) || fail "submit as $USER2"
out=$("$BIN/sacctmgr" -P list users)
expect_eq "list users -P" "User|Def Acct|Admin
$USER1|physics|None
$USER2|general|Operator" "$out"
out=$("$BIN/sacctmgr" -p -n -s list user where user=$USER2,$USER1 account=general format=user,acc,defaulta,share,qos,defaultqos)
expect_eq "list user -s where" "$USER1|general|physics|1|high,normal||
$USER2|general|general|1|high,normal||" "$out"
ok "list user: default columns, -P/-p/-n, -s, where with comma lists"

out=$("$BIN/sacctmgr" -P show assoc format=cluster,account,user,parentname,share,grpjobs,grptres,maxjobs,maxwall)
expect_eq "show assoc" "Cluster|Account|User|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxWall
sluicetest|root|||1||||
sluicetest|general||root|1||||
sluicetest|general|$USER1||1||||
sluicetest|general|$USER2||1||||
sluicetest|science||root|1||cpu=256||1-00:00:00
sluicetest|physics||science|1|50||10|1-00:00:00
sluicetest|physics|$USER1||1|||10|1-00:00:00
sluicetest|shared||root|0||||
sluicetest|shared|$USER2||1||||" "$out"
ok "show assoc: the tree, Account objects' limits inherited"

out=$("$BIN/sacctmgr" list account)
expect_eq "list account" "   Account                Descr                  Org 
---------- -------------------- -------------------- 
   general              general              general 
   physics              physics              science 
      root default root account                 root 
   science              science              science 
    shared               shared               shared " "$out"
out=$("$BIN/sacctmgr" -nP -s list account physics format=account,user,maxjobs)
expect_eq "list account -s" "physics||10
physics|$USER1|10" "$out"
ok "list account: Descr and Org as sacctmgr add account sets them, -s"

out=$("$BIN/sacctmgr" -P show qos format=name,priority,maxjobspu,maxsubmitpu,maxtrespu,maxwall,descr)
expect_eq "show qos" "Name|Priority|MaxJobsPU|MaxSubmitPU|MaxTRESPU|MaxWall|Descr
normal|0|||||Normal QOS default
high|100|4|10|cpu=16,mem=16G|2-00:00:00|high" "$out"
out=$("$BIN/sacctmgr" -n list cluster format=cluster%12,rpc)
expect_eq "list cluster" "  sluicetest  9728 " "$out"
ok "show qos, list cluster"

out=$("$BIN/sacctmgr" -i add user bob account=general 2>&1); rc=$?
expect_eq "add" "1 sacctmgr: error: add is not supported by Sluice" "$rc $out"
out=$("$BIN/sacctmgr" list events 2>&1); rc=$?
expect_eq "list events" "1 sacctmgr: error: list events is not supported by Sluice" "$rc $out"
out=$("$BIN/sacctmgr" list user format=bogus 2>&1); rc=$?
expect_eq "format=bogus" "1 Unknown field 'bogus'" "$rc $out"
out=$("$BIN/sacctmgr" list user color=blue 2>&1); rc=$?
expect_eq "unknown condition" "1  Unknown condition: color=blue
 Use keyword 'set' to modify value" "$rc $out"
ok "sacctmgr refuses writes, other entities, unknown fields and conditions in Slurm's words"

stop_daemon
out=$(SLUICE_CONNECT_TIMEOUT=1 "$BIN/sacctmgr" list user 2>&1); rc=$?
expect_eq "sluiced down" "1 sacctmgr: error: Problem talking to the database: Unable to contact slurm controller (connect failure)" "$rc $out"
ok "sacctmgr without sluiced: an error line, exit 1"
