# compat/output.mk: owned by its area; see Makefile.am
# Slurm output commands (squeue, sacct, scancel, scontrol show job) and the
# format tables they print through.
compat_libcompat_a_SOURCES += \
	compat/slurm_fmt.c compat/slurm_fmt.h \
	compat/slurm_state.c compat/slurm_state.h \
	compat/squeue_fmt.c compat/squeue_fmt.h \
	compat/sacct_fmt.c compat/sacct_fmt.h

bin_PROGRAMS += bin/squeue bin/sacct bin/scancel bin/scontrol
bin_squeue_SOURCES = bin/squeue.c
bin_squeue_LDADD = $(SL_LIBS)
bin_sacct_SOURCES = bin/sacct.c
bin_sacct_LDADD = $(SL_LIBS)
bin_scancel_SOURCES = bin/scancel.c
bin_scancel_LDADD = $(SL_LIBS)
bin_scontrol_SOURCES = bin/scontrol.c
bin_scontrol_LDADD = $(SL_LIBS)

UNIT_TESTS += tests/unit/test_slurm_fmt tests/unit/test_squeue_fmt tests/unit/test_sacct_fmt

# Golden data: job records (JSON lines) and what Slurm 22.05 printed for them.
EXTRA_DIST += \
	tests/data/output/squeue_jobs.jsonl \
	tests/data/output/squeue_default.out \
	tests/data/output/squeue_long.out \
	tests/data/output/squeue_pd_reason.out \
	tests/data/output/squeue_users_pd.out \
	tests/data/output/sacct_jobs.jsonl \
	tests/data/output/sacct_default.out \
	tests/data/output/sacct_elapsed.out \
	tests/data/output/sacct_timelimit.out \
	tests/data/output/sacct_parsable.out \
	tests/data/output/sacct_noheader.out \
	tests/data/output/sacct_widths.out
