# arrays_scenario.sh - job arrays, as a transcript that must be Slurm
# 22.05's: sbatch --array (ranges, steps, lists, the %N throttle, Slurm's
# refusals), squeue collapsed and -r (-o %i %F %K), scontrol show job N_I
# and update ArrayTaskThrottle, scancel N_I and N, sacct rows per task,
# the SLURM_ARRAY_* variables and %A/%a, and dependencies on arrays
# (afterok:N, afterok:N_I, aftercorr:N). Sourced by arrays.sh against
# Sluice, and by arrays_capture.sh against a real Slurm, which wrote
# tests/data/arrays/arrays.golden.
#
# Masked: JobId= (a task's raw id, which Slurm gives a task when it
# splits it off and Sluice at submit) becomes ID, array ids a1, a2... in
# the order submitted, times TIME, and in squeue's lines the partition,
# user and node names. Slurm's pending records change under
# its scheduler, so only what is stable is shown of them.
# Sluice and Slurm give tasks different raw ids (array.h), so none is
# printed unmasked. The caller sets SBATCH, SQUEUE, SCONTROL, SCANCEL,
# SACCT, OWNER and as_user USER CMD...

AR_IDS="" AR_SED=""

ar_mask() {
	sed -E -e 's/(^|[ ])JobId=[0-9]+/\1JobId=ID/g' -e 's/(SLURM_JOB_ID=)[0-9]+/\1ID/' \
		-e 's/CANCELLED by [0-9]+/CANCELLED by UID/' \
		-e "${AR_SED:-s/^//}" -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}/TIME/g' \
		-e 's/^ +//' -e 's/ +(cpu|batch) / PART /' -e "s/ +$OWNER / USER /" \
		-e 's/( R +)[0-9]+:[0-9]+( +[0-9]+ ).*$/\1T:TT\2HOST/'
}

# ar_sorted LABEL CMD...: as ar_run, with the lines after the header
# sorted: Slurm orders tasks that started in the same second by the way it
# split them off, which Sluice does not imitate.
ar_sorted() {
	ar_label=$1; shift
	echo "\$ $ar_label"
	ar_out=$(as_user "$OWNER" "$@" 2>&1); ar_rc=$?
	printf '%s\n' "$ar_out" | ar_mask | head -n 1
	printf '%s\n' "$ar_out" | ar_mask | tail -n +2 | sort
	echo "[rc=$ar_rc]"
}

# ar_submit ARGS...: the id in AR_ID, remembered as the next aN.
ar_submit() {
	AR_ID=$(as_user "$OWNER" "$SBATCH" --parsable "$@") || { echo "sbatch $*: failed" >&2; return 1; }
	AR_IDS="$AR_IDS $AR_ID"
	ar_n=$(echo $AR_IDS | wc -w)
	AR_SED="${AR_SED:+$AR_SED;}s/(^|[^0-9])$AR_ID([^0-9]|$)/\1a$ar_n\2/g"
}

# ar_run LABEL CMD...: the command's output (both streams) and status.
ar_run() {
	ar_label=$1; shift
	echo "\$ $ar_label"
	ar_out=$(as_user "$OWNER" "$@" 2>&1); ar_rc=$?
	[ -n "$ar_out" ] && printf '%s\n' "$ar_out" | ar_mask
	echo "[rc=$ar_rc]"
}

# ar_count ID STATES: how many lines squeue -r shows of array ID in STATES.
ar_count() {
	"$SQUEUE" -h -r -j "$1" -t "$2" -o %i 2>/dev/null | wc -l
}

# ar_until ID STATES N [SECONDS]: until array ID has N tasks in STATES.
ar_until() {
	ar_i=0
	while [ "$(ar_count "$1" "$2")" -ne "$3" ]; do
		ar_i=$((ar_i + 1))
		if [ $ar_i -ge $((${4:-60} * 5)) ]; then
			echo "TIMEOUT: array $1: $(ar_count "$1" "$2") in $2, want $3" >&2
			return 1
		fi
		sleep 0.2
	done
}

# ar_line ID KEY: the first line of scontrol show job ID and its KEY line.
ar_show() {
	"$SCONTROL" show job "$1" 2>&1 | sed -n -e '/^JobId=/p' -e "/^ *$2=/p" | ar_mask
}

scenario_arrays() {
	SQ_FMT='%i %F %K %j %T %r'
	echo "# throttle"
	ar_submit -J arr --array=0-3%2 -o /dev/null --wrap 'sleep 120' || return 1; a=$AR_ID
	ar_until "$a" R 2 || return 1
	ar_until "$a" PD 2 || return 1
	ar_sorted "squeue -j A" "$SQUEUE" -j "$a"
	ar_sorted "squeue -r -j A" "$SQUEUE" -r -j "$a"
	ar_sorted "squeue -o FMT" "$SQUEUE" -j "$a" -o "$SQ_FMT"
	ar_sorted "squeue -r -o FMT" "$SQUEUE" -r -j "$a" -o "$SQ_FMT"
	ar_run "squeue --array -j A_3" "$SQUEUE" --array -j "${a}_3" -o "$SQ_FMT"
	ar_run "squeue -j A_1" "$SQUEUE" -j "${a}_1" -o "$SQ_FMT"
	ar_show "$a" JobState
	ar_show "${a}_3" JobState
	ar_show "${a}_1" JobState
	ar_run "update ArrayTaskThrottle=1" "$SCONTROL" update JobId="$a" ArrayTaskThrottle=1
	ar_run "scancel A_0" "$SCANCEL" "${a}_0"
	ar_until "$a" R,CG 1 || return 1
	sleep 3
	ar_run "throttle 1: one runs" "$SQUEUE" -j "$a" -o "$SQ_FMT"
	ar_run "update ArrayTaskThrottle=0" "$SCONTROL" update JobId="$a" ArrayTaskThrottle=0
	ar_until "$a" R 3 || return 1
	ar_sorted "no throttle: all run" "$SQUEUE" -j "$a" -o "$SQ_FMT"
	ar_run "scancel A" "$SCANCEL" "$a"
	ar_until "$a" PD,R,CG 0 || return 1
	ar_i=0 # slurmdbd takes its time
	while [ "$("$SACCT" -X -n -P -j "$a" -o State 2>/dev/null | grep -c CANCELLED)" -lt 4 ] &&
	      [ $ar_i -lt 150 ]; do
		ar_i=$((ar_i + 1)); sleep 0.2
	done
	ar_run "sacct -j A" sh -c "\"$SACCT\" -X -n -P -j $a -o JobID,JobName,State | sort"
	# (the state of its .batch step after scancel is a race in Slurm)
	ar_run "sacct -j A_2" "$SACCT" -n -P -j "${a}_2" -o JobID,JobName

	echo "# specs and refusals"
	for spec in 0-15:4 1,3,5 1-3,7 5; do
		ar_submit -J spec -H --array="$spec" -o /dev/null --wrap true || return 1
		ar_run "--array=$spec" "$SQUEUE" -j "$AR_ID" -o "$SQ_FMT"
		ar_run "squeue -r" "$SQUEUE" -r -j "$AR_ID" -o "$SQ_FMT"
		as_user "$OWNER" "$SCANCEL" "$AR_ID"
	done
	for spec in abc 5-1 1-5:0 0-20000 -1; do
		ar_run "sbatch --array=$spec" "$SBATCH" --array="$spec" -o /dev/null --wrap true
	done

	echo "# a task held on its own: split off, folded back in by squeue"
	ar_submit -J held -H --begin=now+1hour --array=1-5 -o /dev/null --wrap true || return 1
	h=$AR_ID
	ar_run "release A" "$SCONTROL" release "$h"
	ar_run "hold A_2" "$SCONTROL" hold "${h}_2"
	sleep 3 # Slurm's reason is None until its scheduler looks (BeginTime)
	ar_run "squeue" "$SQUEUE" -j "$h" -o "$SQ_FMT"
	ar_sorted "squeue --array-unique" "$SQUEUE" -j "$h" --array-unique -o "$SQ_FMT"
	ar_sorted "squeue -r" "$SQUEUE" -r -j "$h" -o "$SQ_FMT"
	ar_show "${h}_2" JobState
	as_user "$OWNER" "$SCANCEL" "$h"

	echo "# environment and file names"
	ar_submit -J env --array=1-7:3 -o 'env-%A_%a.out' --wrap 'env | grep ^SLURM_ARRAY | sort; echo SLURM_JOB_ID=$SLURM_JOB_ID' || return 1; e=$AR_ID
	ar_until "$e" PD,R,CG 0 || return 1
	sleep 1
	ar_run "ls env-*" sh -c "ls env-$e*"
	ar_run "cat env-A_4.out" cat "env-${e}_4.out"
	ar_submit -J dflt --array=2 --wrap true || return 1; f=$AR_ID
	ar_until "$f" PD,R,CG 0 || return 1
	sleep 1
	ar_run "default output" sh -c "ls slurm-${f}*"

	echo "# dependencies"
	ar_submit -J base --array=1-3 -o /dev/null --wrap 'sleep 5' || return 1; b=$AR_ID
	ar_submit -J all -d afterok:"$b" -o /dev/null --wrap true || return 1; c=$AR_ID
	ar_submit -J one -d afterok:"${b}_2" -o /dev/null --wrap true || return 1; d=$AR_ID
	ar_submit -J corr --array=1-3 -d aftercorr:"$b" -o /dev/null --wrap true || return 1; g=$AR_ID
	sleep 1
	ar_show "$c" JobState
	ar_show "$d" JobState
	for x in $b $c $d $g; do ar_until "$x" PD,R,CG 0 || return 1; done
	sleep 2
	ar_run "sacct" sh -c "\"$SACCT\" -X -n -P -j $b,$c,$d,$g -o JobID,JobName,State | sort"
}
