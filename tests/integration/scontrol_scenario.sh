# scontrol_scenario.sh - the job-control scenarios whose transcripts must be
# Slurm 22.05's. Sourced twice: by deps.sh and control.sh, against Sluice,
# and by tests/integration/ref_capture.sh, against a real Slurm, which wrote
# tests/data/scontrol/*.golden. Only what Sluice claims to print as Slurm
# does is in a transcript (state lines, messages, exit statuses); job ids
# become j1, j2... in the order submitted, timestamps TIME, host names HOST.
#
# The caller sets SBATCH, SCONTROL, SCANCEL (paths), OWNER, OTHER (users),
# and as_user USER CMD... (root: USER=root). Jobs run in the current
# directory.

SC_IDS=""

sc_mask() {
	sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}/TIME/g' \
		-e "s/(Slurmctld\(primary\) at )[^ ]+/\1HOST/" -e "$SC_SED"
}

# sc_submit USER ARGS...: the id in SC_ID, remembered as the next jN.
sc_submit() {
	sc_u=$1; shift
	SC_ID=$(as_user "$sc_u" "$SBATCH" --parsable "$@") || { echo "sbatch $*: failed" >&2; return 1; }
	SC_IDS="$SC_IDS $SC_ID"
	sc_n=$(echo $SC_IDS | wc -w)
	# Only where an id is a job id: "job N", "JobId=N", "TYPE:N" in a dependency.
	SC_SED="${SC_SED:+$SC_SED;}s/(job |JobId=|:)$SC_ID([^0-9]|$)/\1j$sc_n\2/g"
}

# sc_run LABEL USER CMD...: the command's output (both streams) and status.
sc_run() {
	sc_label=$1 sc_u=$2; shift 2
	echo "\$ $sc_label"
	sc_out=$(as_user "$sc_u" "$@" 2>&1); sc_rc=$?
	[ -n "$sc_out" ] && printf '%s\n' "$sc_out" | sc_mask
	echo "[rc=$sc_rc]"
}

# sc_state ID: the JobState line of scontrol show job.
sc_state() {
	"$SCONTROL" show job "$1" | sed -n 's/^ *\(JobState=.*\)$/\1/p' | sc_mask
}

sc_field() { # ID KEY
	"$SCONTROL" show job "$1" | tr ' ' '\n' | sed -n "s/^ *\($2=.*\)$/\1/p" | sc_mask
}

# sc_until ID PATTERN [SECONDS]: until the JobState line matches.
sc_until() {
	sc_n=0
	while ! "$SCONTROL" show job "$1" 2>/dev/null | grep -q "$2"; do
		sc_n=$((sc_n + 1))
		if [ $sc_n -ge $((${3:-30} * 5)) ]; then
			echo "TIMEOUT waiting for job $1: $2" >&2
			return 1
		fi
		sleep 0.2
	done
}

# A chain with a failure, --kill-on-invalid-dep, OR lists, singleton.
scenario_deps() {
	# a runs while the five behind it are submitted and read: 8 s leaves a
	# loaded host room for a dozen commands (4 s did not, at a load of 7)
	sc_submit "$OWNER" -J chain --wrap 'sleep 8'; a=$SC_ID
	sc_submit "$OWNER" -J chain -d afterok:"$a" --wrap 'exit 1'; b=$SC_ID
	sc_submit "$OWNER" -J chain -d afterok:"$b" --wrap true; c=$SC_ID
	sc_submit "$OWNER" -J chain -d afterok:"$b" --kill-on-invalid-dep=yes --wrap true; d=$SC_ID
	sc_submit "$OWNER" -J chain -d afternotok:"$b",afterany:"$a" --wrap true; e=$SC_ID
	sc_submit "$OWNER" -J chain -d "afterok:$b?afterany:$a" --wrap true; f=$SC_ID
	echo "# submitted"
	for j in $b $c $d $e $f; do
		sc_until "$j" 'Reason=Dependency'
		sc_state "$j"
	done
	sc_until "$a" 'JobState=COMPLETED'
	sc_until "$b" 'JobState=FAILED'
	sc_until "$c" 'DependencyNeverSatisfied'
	sc_until "$d" 'JobState=CANCELLED'
	sc_until "$e" 'JobState=COMPLETED'
	sc_until "$f" 'JobState=COMPLETED'
	echo "# after the chain ran"
	for j in $c $d $e $f; do sc_state "$j"; done
	sc_run "scancel the one that waits forever" "$OWNER" "$SCANCEL" "$c"
	echo "# refused"
	sc_run "sbatch -d bogus:1" "$OWNER" "$SBATCH" -d bogus:1 --wrap true
	sc_run "sbatch -d afterok" "$OWNER" "$SBATCH" -d afterok --wrap true
	sc_run "sbatch -d after:A+x" "$OWNER" "$SBATCH" -d after:"$a"+x --wrap true
	sc_run "sbatch -d expand:A" "$OWNER" "$SBATCH" -d expand:"$a" --wrap true
	sc_run "sbatch --kill-on-invalid-dep=maybe" "$OWNER" "$SBATCH" --kill-on-invalid-dep=maybe --wrap true
	sc_run "sbatch --begin=garbage" "$OWNER" "$SBATCH" --begin=garbage --wrap true
	sc_run "sbatch --begin=" "$OWNER" "$SBATCH" --begin= --wrap true
	echo "# singleton"
	sc_submit "$OWNER" -J sc_single -d singleton --wrap 'sleep 4'; s1=$SC_ID
	sc_until "$s1" 'JobState=RUNNING'
	sc_submit "$OWNER" -J sc_single -d singleton --wrap 'sleep 1'; s2=$SC_ID
	sc_submit "$OWNER" -J sc_single -d singleton,afterany:"$s1" --wrap 'sleep 1'; s3=$SC_ID
	sc_until "$s2" 'Reason=Dependency'
	sc_until "$s3" 'Reason=Dependency'
	sc_state "$s2"
	sc_state "$s3"
	sc_until "$s2" 'JobState=COMPLETED'
	sc_until "$s3" 'JobState=COMPLETED'
	sc_state "$s2"
	echo "# --begin"
	sc_submit "$OWNER" --begin=now+1hour --wrap true; g=$SC_ID
	sc_until "$g" 'Reason=BeginTime'
	sc_state "$g"
	sc_run "hold it" "$OWNER" "$SCONTROL" hold "$g"
	sc_state "$g"
	sc_run "StartTime=now" "$OWNER" "$SCONTROL" update JobId="$g" StartTime=now
	sc_run "release it" "$OWNER" "$SCONTROL" release "$g"
	sc_until "$g" 'JobState=COMPLETED'
	sc_state "$g"
}

# hold, release, uhold, requeue, requeuehold, top, suspend, resume, update,
# and scontrol's errors.
scenario_control() {
	sc_submit "$OWNER" -H --wrap true; h=$SC_ID
	sc_until "$h" 'Reason=JobHeldUser'
	sc_state "$h"
	sc_run "another user holds it" "$OTHER" "$SCONTROL" hold "$h"
	sc_run "another user releases it" "$OTHER" "$SCONTROL" release "$h"
	sc_run "an operator holds it" root "$SCONTROL" hold "$h"
	sc_state "$h"
	sc_run "its owner releases it" "$OWNER" "$SCONTROL" release "$h"
	sc_run "an operator's uhold" root "$SCONTROL" uhold "$h"
	sc_state "$h"
	sc_run "its owner releases it" "$OWNER" "$SCONTROL" release "$h"
	sc_until "$h" 'JobState=COMPLETED'
	sc_run "hold a finished job" "$OWNER" "$SCONTROL" hold "$h"
	sc_run "release a finished job" "$OWNER" "$SCONTROL" release "$h"

	echo "# a running job"
	sc_submit "$OWNER" -J sc_req -t 10 --wrap 'sleep 300'; r=$SC_ID
	sc_until "$r" 'JobState=RUNNING'
	sc_run "its owner holds it" "$OWNER" "$SCONTROL" hold "$r"
	sc_state "$r"
	sc_run "and releases it" "$OWNER" "$SCONTROL" release "$r"
	sc_state "$r"
	sc_run "another user requeues it" "$OTHER" "$SCONTROL" requeue "$r"
	sc_run "another user's top" "$OTHER" "$SCONTROL" top "$r"
	sc_run "its owner suspends it" "$OWNER" "$SCONTROL" suspend "$r"
	sc_run "an operator suspends it" root "$SCONTROL" suspend "$r"
	sc_state "$r"
	sc_run "and again" root "$SCONTROL" suspend "$r"
	sc_run "its owner resumes it" "$OWNER" "$SCONTROL" resume "$r"
	sc_run "an operator resumes it" root "$SCONTROL" resume "$r"
	sc_state "$r"
	sc_run "and again" root "$SCONTROL" resume "$r"
	sc_run "a longer TimeLimit, by its owner" "$OWNER" "$SCONTROL" update JobId="$r" TimeLimit=20
	sc_run "a shorter one" "$OWNER" "$SCONTROL" update JobId="$r" TimeLimit=5
	sc_field "$r" TimeLimit
	sc_run "Partition= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" Partition=nosuch
	sc_run "NumNodes= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" NumNodes=2
	sc_run "StartTime= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" StartTime=now
	sc_run "JobName= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" JobName=sc_renamed
	sc_field "$r" JobName
	sc_run "Account= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" Account=bogus
	sc_run "MinMemoryNode= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" MinMemoryNode=100
	sc_run "NumTasks= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" NumTasks=2
	sc_run "StdOut= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" StdOut="$PWD/sc.out"
	sc_run "MailType= while it runs" "$OWNER" "$SCONTROL" update JobId="$r" MailType=END
	sc_field "$r" MailType
	sc_run "its owner requeues it" "$OWNER" "$SCONTROL" requeue "$r"
	sc_until "$r" 'JobState=PENDING'
	sc_state "$r"
	sc_field "$r" Restarts
	sc_run "requeue a pending job" "$OWNER" "$SCONTROL" requeue "$r"
	sc_run "suspend a pending job" root "$SCONTROL" suspend "$r"
	sc_run "StartTime=now" "$OWNER" "$SCONTROL" update JobId="$r" StartTime=now
	sc_until "$r" 'JobState=RUNNING'
	sc_run "requeuehold" "$OWNER" "$SCONTROL" requeuehold "$r"
	sc_until "$r" 'JobState=PENDING'
	sc_state "$r"
	sc_field "$r" Restarts
	sc_run "its owner releases it" "$OWNER" "$SCONTROL" release "$r"
	sc_until "$r" 'Reason=BeginTime'
	sc_state "$r"

	echo "# --no-requeue"
	sc_submit "$OWNER" --no-requeue --wrap 'sleep 300'; nr=$SC_ID
	sc_until "$nr" 'JobState=RUNNING'
	sc_run "requeue it" "$OWNER" "$SCONTROL" requeue "$nr"

	echo "# update a pending job"
	sc_submit "$OWNER" -H -t 10 --wrap true; pj=$SC_ID
	sc_until "$pj" 'Reason=JobHeldUser'
	sc_run "TimeLimit=20" "$OWNER" "$SCONTROL" update JobId="$pj" TimeLimit=20
	sc_field "$pj" TimeLimit
	sc_run "TimeLimit=bogus" "$OWNER" "$SCONTROL" update JobId="$pj" TimeLimit=bogus
	sc_run "Partition=nosuch" "$OWNER" "$SCONTROL" update JobId="$pj" Partition=nosuch
	sc_run "Nice=-5 by its owner" "$OWNER" "$SCONTROL" update JobId="$pj" Nice=-5
	sc_run "Nice=50" "$OWNER" "$SCONTROL" update JobId="$pj" Nice=50
	sc_field "$pj" Nice
	sc_run "Priority=5 by its owner (held)" "$OWNER" "$SCONTROL" update JobId="$pj" Priority=5
	sc_run "Comment and JobName" "$OWNER" "$SCONTROL" update JobId="$pj" Comment=hello JobName=sc_upd
	sc_field "$pj" JobName
	sc_run "Dependency=bogus" "$OWNER" "$SCONTROL" update JobId="$pj" Dependency=bogus
	sc_run "Dependency=afterok:NR" "$OWNER" "$SCONTROL" update JobId="$pj" Dependency=afterok:"$nr"
	sc_state "$pj"
	sc_run "Dependency=" "$OWNER" "$SCONTROL" update JobId="$pj" Dependency=
	sc_state "$pj"
	sc_run "StartTime=garbage" "$OWNER" "$SCONTROL" update JobId="$pj" StartTime=garbage
	sc_run "Bogus=1" "$OWNER" "$SCONTROL" update JobId="$pj" Bogus=1
	sc_run "without JobId" "$OWNER" "$SCONTROL" update "$pj" TimeLimit=3
	sc_run "nothing to change" "$OWNER" "$SCONTROL" update JobId="$pj"
	sc_run "another user" "$OTHER" "$SCONTROL" update JobId="$pj" TimeLimit=3
	sc_run "MailType and MailUser" "$OWNER" "$SCONTROL" update JobId="$pj" MailType=begin,end \
		MailUser=someone@example.org
	sc_field "$pj" MailUser
	sc_field "$pj" MailType
	sc_run "MailType=bogus" "$OWNER" "$SCONTROL" update JobId="$pj" MailType=bogus
	sc_run "Requeue=0" "$OWNER" "$SCONTROL" update JobId="$pj" Requeue=0
	sc_field "$pj" Requeue
	sc_run "Requeue=yes" "$OWNER" "$SCONTROL" update JobId="$pj" Requeue=yes
	sc_run "NumTasks=2" "$OWNER" "$SCONTROL" update JobId="$pj" NumTasks=2
	sc_field "$pj" NumTasks
	sc_run "NumTasks=0" "$OWNER" "$SCONTROL" update JobId="$pj" NumTasks=0
	sc_run "NumTasks=abc" "$OWNER" "$SCONTROL" update JobId="$pj" NumTasks=abc
	sc_run "CPUsPerTask=abc" "$OWNER" "$SCONTROL" update JobId="$pj" CPUsPerTask=abc
	sc_run "MinMemoryNode=abc" "$OWNER" "$SCONTROL" update JobId="$pj" MinMemoryNode=abc
	sc_run "MinMemoryCPU=abc" "$OWNER" "$SCONTROL" update JobId="$pj" MinMemoryCPU=abc
	sc_run "Account=bogus" "$OWNER" "$SCONTROL" update JobId="$pj" Account=bogus
	sc_run "StdOut=" "$OWNER" "$SCONTROL" update JobId="$pj" StdOut="$PWD/sc_upd.out"
	sc_run "StdErr=" "$OWNER" "$SCONTROL" update JobId="$pj" StdErr=sc_upd.err

	echo "# top"
	sc_submit "$OWNER" -d afterok:"$nr" --wrap true; t1=$SC_ID
	sc_submit "$OWNER" -d afterok:"$nr" --wrap true; t2=$SC_ID
	sc_until "$t2" 'Reason=Dependency'
	sc_run "its owner's top" "$OWNER" "$SCONTROL" top "$t2"
	sc_run "an operator's top" root "$SCONTROL" top "$t2"
	sc_run "scancel them" "$OWNER" "$SCANCEL" "$r" "$nr" "$pj" "$t1" "$t2"

	echo "# jobs that do not exist, words that are not verbs"
	sc_run "hold 999999" "$OWNER" "$SCONTROL" hold 999999
	sc_run "requeue 999999" "$OWNER" "$SCONTROL" requeue 999999
	sc_run "suspend 999999" root "$SCONTROL" suspend 999999
	sc_run "update JobId=999999" "$OWNER" "$SCONTROL" update JobId=999999 TimeLimit=10
	sc_run "show job 999999" "$OWNER" "$SCONTROL" show job 999999
	sc_run "show job abc" "$OWNER" "$SCONTROL" show job abc
	sc_run "bogus" "$OWNER" "$SCONTROL" bogus
	sc_run "show bogus" "$OWNER" "$SCONTROL" show bogus
	sc_run "show" "$OWNER" "$SCONTROL" show
	sc_run "update" "$OWNER" "$SCONTROL" update
	sc_run "ping" "$OWNER" "$SCONTROL" ping
	sc_run "reconfigure by a user" "$OWNER" "$SCONTROL" reconfigure
	sc_run "show hostnames" "$OWNER" "$SCONTROL" show hostnames 'n[1-3],x01'
	sc_run "show hostlist" "$OWNER" "$SCONTROL" show hostlist n3,n1,n2,x01
	sc_run "show hostlistsorted" "$OWNER" "$SCONTROL" show hostlistsorted n3,n1,n2
}
