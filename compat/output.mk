# compat/output.mk: the Slurm output dialect: the format tables squeue,
# sacct and scontrol print through, states and reason codes; and what a job
# sees of Slurm: its SLURM_* environment and its output file patterns.
compat_libcompat_a_SOURCES += \
	compat/replay_load.c compat/replay_load.h \
	compat/slurm_clusters.c compat/slurm_clusters.h \
	compat/slurm_willrun.c compat/slurm_willrun.h \
	compat/slurm_fmt.c compat/slurm_fmt.h \
	compat/slurm_state.c compat/slurm_state.h \
	compat/query_opt.c compat/query_opt.h compat/squeue_opt.c compat/squeue_opt.h \
	compat/scancel_opt.c compat/scancel_opt.h \
	compat/slurm_tres.c compat/slurm_tres.h \
	compat/squeue_fmt.c compat/squeue_fmt.h compat/squeue_cols.h \
	compat/squeue_long.c compat/squeue_sort.c compat/squeue_array.c \
	compat/squeue_proj.c compat/squeue_proj.h \
	compat/sacct_fmt.c compat/sacct_fmt.h compat/sacct_fmt_int.h compat/sacct_fields.c compat/sacct_opt.c compat/sacct_opt.h \
	compat/sacct_usage.c \
	compat/sacct_cond.c compat/sacct_cond.h compat/slurm_reason.c compat/slurm_reason.h \
	compat/slurm_env.c compat/slurm_env.h \
	compat/slurm_pattern.c compat/slurm_pattern.h \
	compat/sinfo_fmt.c compat/sinfo_fmt.h compat/sinfo_int.h \
	compat/sinfo_rec.c compat/sinfo_view.c compat/sinfo_json.c \
	compat/slurm_usage.c compat/slurm_usage.h \
	compat/slurm_json.c compat/slurm_json.h compat/squeue_json.c compat/sacct_json.c \
	compat/slurm_yaml.c \
	compat/sstat_fmt.c compat/sstat_fmt.h compat/sstat_opt.c compat/sstat_opt.h \
	compat/sdiag_fmt.c compat/sdiag_fmt.h

UNIT_TESTS += tests/unit/test_slurm_fmt tests/unit/test_squeue_fmt tests/unit/test_squeue_proj \
	tests/unit/test_sacct_fmt \
	tests/unit/test_sacct_opt tests/unit/test_slurm_env tests/unit/test_slurm_pattern \
	tests/unit/test_sinfo_fmt tests/unit/test_slurm_state tests/unit/test_sdiag_fmt

# Golden data: job records (JSON lines) and what Slurm 22.05 printed for them;
# sinfo's, captured on the reference cluster test_sinfo_fmt.c describes.
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
	tests/data/output/sinfo_default.out \
	tests/data/output/sinfo_fmt_basic.out \
	tests/data/output/sinfo_fmt_long.out \
	tests/data/output/sinfo_fmt_long2.out \
	tests/data/output/sinfo_fmt_many.out \
	tests/data/output/sinfo_fmt_right.out \
	tests/data/output/sinfo_fmt_widths.out \
	tests/data/output/sinfo_json.out \
	tests/data/output/sinfo_long.out \
	tests/data/output/sinfo_node.out \
	tests/data/output/sinfo_node_debug.out \
	tests/data/output/sinfo_node_long.out \
	tests/data/output/sinfo_node_states.out \
	tests/data/output/sinfo_noheader.out \
	tests/data/output/sinfo_parts.out \
	tests/data/output/sinfo_parts_summarize.out \
	tests/data/output/sinfo_reasons.out \
	tests/data/output/sinfo_reasons_long.out \
	tests/data/output/sinfo_states_alloc.out \
	tests/data/output/sinfo_states_and.out \
	tests/data/output/sinfo_states_drain.out \
	tests/data/output/sinfo_states_drng_long.out \
	tests/data/output/sinfo_states_idle.out \
	tests/data/output/sinfo_states_mix.out \
	tests/data/output/sinfo_summarize.out \
	tests/data/output/sinfo_summarize_noheader.out \
	tests/data/output/sacct_helpformat.out

# sluice replay's traces (sacct -P, SWF).
UNIT_TESTS += tests/unit/test_replay_load
# --json documents and resource-use cells (test_slurm_json.c)
UNIT_TESTS += tests/unit/test_slurm_json tests/unit/test_sstat_fmt tests/unit/test_slurm_yaml
EXTRA_DIST += tests/data/output/usage_jobs.jsonl tests/data/output/sacct_usage.out \
	tests/data/output/usage_tres.jsonl tests/data/output/sacct_usage_tres.out \
	tests/data/output/squeue_json.golden tests/data/output/sacct_json.golden \
	tests/data/json/squeue_pair.json tests/data/json/squeue_pair.yaml \
	tests/data/json/sacct_pair.json tests/data/json/sacct_pair.yaml \
	tests/data/json/sinfo_pair.json tests/data/json/sinfo_pair.yaml
