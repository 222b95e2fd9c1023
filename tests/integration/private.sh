#!/bin/sh
# Issue 11, hole 8: a job's --export values (often tokens and passwords)
# were in every user's jobs listing, which squeue, sacct and scontrol read
# whole. Now only the job's owner and operators receive them, live and from
# the history; everyone still sees the job itself.
. "$top_srcdir/tests/integration/lib.sh"
make_users
start_daemon
cd "$T/work"

# listing USER HISTORY: the raw jobs reply as USER receives it.
listing() {
	h=false; [ "$2" = 1 ] && h=true
	request "$1" 3 "{\"filter\": {\"history\": $h}}"
}

id=$(submit $USER1 -H --export=ALL,SL_TOKEN=hunter2 --wrap true) || fail "submit"
for u in $USER2; do
	out=$(listing $u 0) || fail "listing as $u"
	case "$out" in *"\"id\":$id,"*) ;; *) fail "$u does not see job $id: $out" ;; esac
	case "$out" in *hunter2*) fail "$u sees another user's --export values: $out" ;; esac
	out=$(as $u "$BIN/sacct" -n -P -j "$id" -o SubmitLine) || fail "sacct as $u"
	case "$out" in *hunter2*) fail "$u sees the --export values in SubmitLine: $out" ;; esac
done
ok "another user sees the job but not its --export values"

for u in $USER1 root; do
	out=$(listing $u 0) || fail "listing as $u"
	case "$out" in *'"export_spec":"ALL,SL_TOKEN=hunter2"'*) ;;
	*) fail "$u does not see the --export values: $out" ;; esac
done
ok "the owner and root see them"

as $USER1 "$BIN/scancel" "$id" || fail "scancel"
wait_state "$id" CANCELLED
out=$(listing $USER2 1)
case "$out" in *"\"id\":$id,"*) ;; *) fail "$USER2 does not see job $id in the history: $out" ;; esac
case "$out" in *hunter2*) fail "the history shows $USER2 another user's --export values: $out" ;; esac
case "$(listing $USER1 1)" in *hunter2*) ;; *) fail "the history hides them from the owner" ;; esac
ok "so does the history"

# The script and environment: scontrol write batch_script and sacct -B,
# --env-vars, for the owner and operators alone, live and from the history.
sj=$(submit $USER1 -H --export=ALL,SL_TOKEN=hunter2 --wrap 'echo secret-step') || fail "submit"
expect_eq "write batch_script -" "#!/bin/sh
# This script was created by sbatch --wrap.

echo secret-step" "$(as $USER1 "$BIN/scontrol" write batch_script "$sj" -)"
(cd "$T/work" && as $USER1 "$BIN/scontrol" write batch_script "$sj") >wbs.out ||
	fail "write batch_script"
expect_eq "write batch_script" "batch script for job $sj written to slurm-$sj.sh" "$(cat wbs.out)"
grep -q secret-step "$T/work/slurm-$sj.sh" || fail "slurm-$sj.sh lacks the script"
expect_eq "another user's" "job script retrieval failed: Invalid user id" \
	"$(as $USER2 "$BIN/scontrol" write batch_script "$sj" - 2>&1)"
as $USER1 "$BIN/scancel" "$sj"
wait_state "$sj" CANCELLED
as $USER1 "$BIN/sacct" -B -j "$sj" | grep -q '^echo secret-step$' || fail "sacct -B as the owner"
as $USER2 "$BIN/sacct" -B -j "$sj" | grep -q secret-step && fail "sacct -B shows another user's script"
expect_eq "sacct -B as another" "Batch Script for $sj
--------------------------------------------------------------------------------
NONE" "$(as $USER2 "$BIN/sacct" -B -j "$sj")"
as $USER1 "$BIN/sacct" --env-vars -j "$sj" | grep -q '^SL_TOKEN=hunter2$' || fail "sacct --env-vars"
expect_eq "--env-vars as another" "Environment used for $sj (must be batch to display)
--------------------------------------------------------------------------------
NONE" "$(as $USER2 "$BIN/sacct" --env-vars -j "$sj")"
ok "the script and environment: the owner's, through scontrol and sacct; NONE to others"
