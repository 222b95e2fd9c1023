# srun_lib.sh - what srun.sh and srun_capture.sh share: the masks that make
# a transcript of Sluice and one of Slurm comparable (the job id where it
# stands for the job, node names, times).
srun_mask() { # srun_mask JOBID < transcript
	sed -e "s/^$1\([.|]\)/JOB\1/" -e "s/StepId=$1\./StepId=JOB./g" \
		-e "s/STEP $1\./STEP JOB./g" -e "s/for job $1:/for job JOB:/g" \
		-e 's/\bn[0-9]\b/NODE/g' -e "s/\b$(hostname -s)\b/NODE/g" \
		-e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]\{8\}/TS/g'
}
