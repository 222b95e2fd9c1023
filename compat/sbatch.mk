# compat/sbatch.mk: the Slurm input dialect (option table,
# #SBATCH directives, time syntaxes, host lists).
compat_libcompat_a_SOURCES += \
	compat/optable.c compat/optable.h \
	compat/script.c compat/script.h \
	compat/slurm_opt.c compat/slurm_opt_set.c compat/slurm_opt_verify.c compat/slurm_opt_int.h compat/slurm_opt_tas.c \
	compat/slurm_opt_tasks.c compat/slurm_opt_user.c compat/slurm_dist.c compat/slurm_dist.h \
	compat/slurm_bind.c compat/slurm_bind.h compat/slurm_opt_bind.c \
	compat/slurm_freq.c compat/slurm_freq.h compat/slurm_export_file.c \
	compat/slurm_optval.c compat/slurm_opt.h compat/pbs_xlate.c compat/pbs_xlate.h \
	compat/slurm_time.c compat/slurm_time.h \
	compat/hostlist.c compat/hostlist.h

UNIT_TESTS += tests/unit/test_slurm_time tests/unit/test_optable \
	tests/unit/test_script tests/unit/test_slurm_opt tests/unit/test_sbatch_golden \
	tests/unit/test_hostlist tests/unit/test_slurm_bind tests/unit/test_slurm_freq
tests_unit_test_slurm_opt_SOURCES = tests/unit/test_slurm_opt.c tests/unit/sbatch_testlib.h
tests_unit_test_sbatch_golden_SOURCES = tests/unit/test_sbatch_golden.c tests/unit/sbatch_testlib.h

# Golden cases for test_sbatch_golden: NAME.args (+ NAME.env, NAME.sh) -> NAME.json
EXTRA_DIST += tests/data/sbatch
