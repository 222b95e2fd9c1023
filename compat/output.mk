# compat/output.mk: the Slurm output dialect: the format tables squeue,
# sacct and scontrol print through, states and reason codes; and what a job
# sees of Slurm: its SLURM_* environment and its output file patterns.
compat_libcompat_a_SOURCES += \
	compat/slurm_fmt.c compat/slurm_fmt.h \
	compat/slurm_state.c compat/slurm_state.h \
	compat/query_opt.c compat/query_opt.h compat/squeue_opt.c compat/squeue_opt.h \
	compat/scancel_opt.c compat/scancel_opt.h \
	compat/slurm_tres.c compat/slurm_tres.h \
	compat/squeue_fmt.c compat/squeue_fmt.h compat/squeue_cols.h \
	compat/squeue_long.c compat/squeue_sort.c \
	compat/sacct_fmt.c compat/sacct_fmt.h compat/sacct_opt.c compat/sacct_opt.h \
	compat/slurm_env.c compat/slurm_env.h \
	compat/slurm_pattern.c compat/slurm_pattern.h

UNIT_TESTS += tests/unit/test_slurm_fmt tests/unit/test_squeue_fmt tests/unit/test_sacct_fmt \
	tests/unit/test_sacct_opt \
	tests/unit/test_slurm_env tests/unit/test_slurm_pattern

# Golden data: job records (JSON lines) and what Slurm 22.05 printed for them.
EXTRA_DIST += \
	tests/data/output/squeue_jobs.jsonl \
	tests/data/output/squeue_default.out \
	tests/data/output/squeue_long.out \
	tests/data/output/squeue_pd_reason.out \
	tests/data/output/squeue_users_pd.out \
	tests/data/output/squeue_sort.jsonl \
	tests/data/output/squeue_sort.out \
	tests/data/output/squeue_long_fields.jsonl \
	tests/data/output/squeue_long_fields.fmt \
	tests/data/output/squeue_long_fields.out \
	tests/data/output/sacct_jobs.jsonl \
	tests/data/output/sacct_default.out \
	tests/data/output/sacct_elapsed.out \
	tests/data/output/sacct_timelimit.out \
	tests/data/output/sacct_parsable.out \
	tests/data/output/sacct_noheader.out \
	tests/data/output/sacct_widths.out \
	tests/data/output/sacct_helpformat.out
