#!/bin/sh
# The store's holes (issue 11). Hole 2: sluice.db and its -wal were 0644, so
# every user could read every job's script and environment. Hole 10: one row
# that could not be read broke every sacct (and the restart). Hole 11: a
# 0-byte sluice.db started over at job id 1, giving ids out again.
. "$top_srcdir/tests/integration/lib.sh"
make_users
command -v sqlite3 >/dev/null 2>&1 || skip "needs the sqlite3 command to damage a row"
S="$T/state"
SECRET="hunter2-$$"
# Whoever starts sluiced, with whatever umask, the store stays private.
umask 000
# (the config itself must stay writable by root only: sluiced refuses it else)
write_conf && chmod 0644 "$T/sluice.yaml"
start_daemon
cd "$T/work"

# sluiced with extra arguments: 0 once it answers, else 1 with its exit
# status in $rc and what it said in $T/start.log.
try_start() {
	"$SLUICED" -D "$@" -f "$T/sluice.yaml" >"$T/start.log" 2>&1 &
	DPID=$!
	i=0
	while kill -0 "$DPID" 2>/dev/null; do
		"$BIN/squeue" -h >/dev/null 2>&1 && return 0
		i=$((i + 1)); [ $i -lt 100 ] || fail "sluiced $* neither answered nor stopped"
		sleep 0.1
	done
	wait "$DPID"; rc=$?
	DPID=""
	cat "$T/start.log" >>"$T/sluiced.log"
	return 1
}

# What an ordinary user may see of the state directory: nothing but the
# way to its own job's script.
private() {
	as $USER2 cat "$S/sluice.db" >/dev/null 2>&1 && fail "$1: $USER2 reads sluice.db"
	as $USER2 cat "$S/sluice.db-wal" >/dev/null 2>&1 && fail "$1: $USER2 reads sluice.db-wal"
	as $USER2 ls "$S" >/dev/null 2>&1 && fail "$1: $USER2 lists the state directory"
	as $USER2 ls "$S/jobs" >/dev/null 2>&1 && fail "$1: $USER2 lists jobs/"
	found=$(as $USER2 grep -rl "$SECRET" "$S" 2>/dev/null)
	expect_eq "$1: files where $USER2 finds the secret" "" "$found"
	expect_eq "$1: modes of the state directory, sluice.db, sluice.db-wal" "711 600 600" \
		"$(stat -c %a "$S" "$S/sluice.db" "$S/sluice.db-wal" | tr '\n' ' ' | sed 's/ $//')"
}

# -- hole 2
id=$(as $USER1 env SL_SECRET="$SECRET" "$BIN/sbatch" --parsable -o m.out \
	--wrap 'echo "$(id -un) $SL_SECRET"') || fail "submit"
wait_state "$id" COMPLETED
expect_eq "the job ran as its user, with its environment" "$USER1 $SECRET" "$(cat m.out)"
grep -qs "$SECRET" "$S/sluice.db" "$S/sluice.db-wal" || fail "the secret is not in the store"
private "a new store"
ok "a new store is private to sluiced (umask 000); jobs still run as their users"

stop_daemon
chmod 0755 "$S"
chmod 0644 "$S"/sluice.db*
start_daemon
id=$(as $USER1 env SL_SECRET="$SECRET" "$BIN/sbatch" --parsable -o m2.out \
	--wrap 'echo "$(id -un) $SL_SECRET"') || fail "submit"
wait_state "$id" COMPLETED
expect_eq "after the repair, the job ran as its user" "$USER1 $SECRET" "$(cat m2.out)"
private "a store left readable"
ok "a store an older sluiced left readable is made private at start"

# -- hole 10
good=$(submit $USER1 -J good -o /dev/null --wrap true) || fail "submit good"
bad=$(submit $USER1 -J bad -o /dev/null --wrap true) || fail "submit bad"
wait_state "$good" COMPLETED
wait_state "$bad" COMPLETED
held=$(submit $USER1 -H -J held -o /dev/null --wrap true) || fail "submit held"
badheld=$(submit $USER1 -H -J badheld -o /dev/null --wrap true) || fail "submit badheld"
stop_daemon
sqlite3 "$S/sluice.db" "UPDATE jobs SET spec='{\"name\": ' WHERE id IN ($bad, $badheld);" ||
	fail "sqlite3 could not damage the rows"
start_daemon # recovery reads every live job: the damaged pending one is left out
for i in 1 2 3; do
	out=$("$BIN/sacct" -a -X -n -P -o JobID,JobName,State) || fail "sacct failed: $out"
done
printf '%s\n' "$out" | grep -qx "$good|good|COMPLETED" || fail "sacct lost job $good: $out"
printf '%s\n' "$out" | grep -q "^$bad|" && fail "sacct listed the damaged job: $out"
out=$("$BIN/squeue" -h -o '%i %j %T') || fail "squeue failed: $out"
expect_eq "squeue" "$held held PENDING" "$out"
expect_eq "lines about job $bad in the log" 1 "$(grep -c "job $bad cannot be read" "$T/sluiced.log")"
expect_eq "lines about job $badheld in the log" 1 \
	"$(grep -c "job $badheld cannot be read" "$T/sluiced.log")"
ok "a row that cannot be read is left out and logged once; sacct, squeue and the restart answer"

# -- hole 11
last=$(submit $USER1 -o /dev/null -H --wrap true) || fail "submit"
stop_daemon
: >"$S/sluice.db"
rm -f "$S/sluice.db-wal" "$S/sluice.db-shm"
try_start && fail "sluiced started on an empty store (its ids up to $last were given out)"
expect_eq "exit status" 1 "$rc"
grep -q "$S/sluice.db: the store is empty, but this state directory has given out job ids" \
	"$T/start.log" || fail "no clear message: $(cat "$T/start.log")"
grep -q "start sluiced once with --reset-state" "$T/start.log" || fail "no way out: $(cat "$T/start.log")"
ok "an empty store where job ids were given out is refused: $(tail -n 1 "$T/start.log")"

"$SLUICED" --help | grep -q -- "--reset-state" || fail "sluiced --help does not name --reset-state"
try_start --reset-state || fail "--reset-state: $(cat "$T/start.log")"
id=$(submit $USER1 -o /dev/null --wrap true) || fail "submit after --reset-state"
wait_state "$id" COMPLETED
# the ids given out are marked outside the store (finished jobs' directories
# are recycled, so jobs/ cannot tell): the empty store goes on past them
[ "$id" -gt "$last" ] || fail "job id $id given again after --reset-state (ids up to $last were given out)"
ok "--reset-state begins an empty store (job $id)"

stop_daemon
printf 'not a database, but a file of the same name\n%.0s' $(seq 1 200) >"$S/sluice.db"
try_start && fail "sluiced started on an unreadable store"
grep -q "$S/sluice.db: the store cannot be read: file is not a database. Restore it from a backup, or start sluiced once with --reset-state" \
	"$T/start.log" || fail "no clear message: $(cat "$T/start.log")"
try_start --reset-state || fail "--reset-state: $(cat "$T/start.log")"
ls "$S"/sluice.db.broken-* >/dev/null 2>&1 || fail "the unreadable store was not kept aside"
grep -q "not a database, but" "$S"/sluice.db.broken-[0-9]* || fail "the store set aside is not the old one"
id=$(submit $USER1 -o /dev/null --wrap true) || fail "submit after --reset-state"
wait_state "$id" COMPLETED
ok "an unreadable store is refused; --reset-state sets it aside and begins an empty one"
