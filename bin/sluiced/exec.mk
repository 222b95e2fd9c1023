# The local executor: sluiced's side (exec_local*.c, compiled into sluiced
# through SLUICED_EXEC_SOURCES), the per-job supervisor sluice-stepd, and the
# compat modules that give a job Slurm's environment and file names.
compat_libcompat_a_SOURCES += \
	compat/slurm_env.c compat/slurm_env.h \
	compat/slurm_pattern.c compat/slurm_pattern.h

SLUICED_EXEC_SOURCES = \
	bin/sluiced/exec.h bin/sluiced/exec_evq.c bin/sluiced/exec_evq.h \
	bin/sluiced/exec_local.c bin/sluiced/exec_local.h \
	bin/sluiced/exec_local_prepare.c \
	bin/sluiced/logincache.c bin/sluiced/logincache.h \
	bin/sluiced/dirpool.c bin/sluiced/dirpool.h \
	bin/sluiced/stepd_spawner.c bin/sluiced/stepd_spawner.h \
	bin/sluiced/stepd_jobdir.c bin/sluiced/stepd_jobdir.h

libexec_PROGRAMS += bin/sluice-stepd
bin_sluice_stepd_SOURCES = \
	bin/sluiced/stepd.c bin/sluiced/stepd.h \
	bin/sluiced/stepd_launch.c bin/sluiced/stepd_server.c \
	bin/sluiced/stepd_spawner.h \
	bin/sluiced/stepd_jobdir.c bin/sluiced/stepd_jobdir.h \
	bin/sluiced/exec.h
bin_sluice_stepd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
bin_sluice_stepd_LDADD = $(SL_LIBS)
bin_sluice_stepd_LDFLAGS = $(STATIC_LDFLAGS)

UNIT_TESTS += tests/unit/test_slurm_env tests/unit/test_slurm_pattern tests/unit/test_stepd \
	tests/unit/test_exec_local tests/unit/test_logincache tests/unit/test_dirpool \
	tests/unit/test_exec_evq
# Runs the built sluice-stepd ($top_builddir/bin/sluice-stepd, or $SLUICE_STEPD).
tests_unit_test_stepd_SOURCES = tests/unit/test_stepd.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h \
	bin/sluiced/stepd_spawner.c bin/sluiced/stepd_jobdir.c bin/sluiced/loop.c
tests_unit_test_stepd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_exec_local_SOURCES = tests/unit/test_exec_local.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h \
	bin/sluiced/exec_local.c bin/sluiced/exec_local_prepare.c bin/sluiced/logincache.c \
	bin/sluiced/dirpool.c bin/sluiced/exec_evq.c bin/sluiced/stepd_spawner.c \
	bin/sluiced/stepd_jobdir.c bin/sluiced/loop.c
tests_unit_test_exec_local_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_logincache_SOURCES = tests/unit/test_logincache.c bin/sluiced/logincache.c
tests_unit_test_logincache_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_dirpool_SOURCES = tests/unit/test_dirpool.c bin/sluiced/dirpool.c \
	bin/sluiced/stepd_jobdir.c
tests_unit_test_dirpool_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_exec_evq_SOURCES = tests/unit/test_exec_evq.c bin/sluiced/exec_evq.c \
	bin/sluiced/loop.c
tests_unit_test_exec_evq_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
