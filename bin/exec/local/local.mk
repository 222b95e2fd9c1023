# bin/exec/local/local.mk: the local executor (the embedded default), the
# daemon's side: it prepares job directories and starts one sluice-stepd
# supervisor per job through the fork server (bin/sluice-stepd/).
noinst_LIBRARIES += bin/exec/local/libexec_local.a
bin_exec_local_libexec_local_a_SOURCES = \
	bin/exec/local/exec_local.c bin/exec/local/exec_local.h bin/exec/local/exec_local_int.h \
	bin/exec/local/exec_local_signal.c \
	bin/exec/local/exec_local_dir.c bin/exec/local/exec_local_dir.h \
	bin/exec/local/exec_local_prepare.c \
	bin/exec/local/logincache.c bin/exec/local/logincache.h \
	bin/exec/local/dirpool.c bin/exec/local/dirpool.h \
	bin/exec/local/stepd_spawner.c bin/exec/local/stepd_spawner.h
SLUICED_EXECUTORS += bin/exec/local/libexec_local.a

UNIT_TESTS += tests/unit/test_exec_local tests/unit/test_exec_local_signal tests/unit/test_logincache tests/unit/test_dirpool
EXEC_LOCAL_TEST_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/exec/local
EXEC_LOCAL_TEST_LIBS = bin/exec/local/libexec_local.a $(TEST_LIBS)
tests_unit_test_exec_local_SOURCES = tests/unit/test_exec_local.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h
tests_unit_test_exec_local_CPPFLAGS = $(EXEC_LOCAL_TEST_CPPFLAGS)
tests_unit_test_exec_local_LDADD = $(EXEC_LOCAL_TEST_LIBS)
tests_unit_test_exec_local_signal_SOURCES = tests/unit/test_exec_local_signal.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h
tests_unit_test_exec_local_signal_CPPFLAGS = $(EXEC_LOCAL_TEST_CPPFLAGS)
tests_unit_test_exec_local_signal_LDADD = $(EXEC_LOCAL_TEST_LIBS)
tests_unit_test_logincache_CPPFLAGS = $(EXEC_LOCAL_TEST_CPPFLAGS)
tests_unit_test_logincache_LDADD = $(EXEC_LOCAL_TEST_LIBS)
tests_unit_test_dirpool_CPPFLAGS = $(EXEC_LOCAL_TEST_CPPFLAGS)
tests_unit_test_dirpool_LDADD = $(EXEC_LOCAL_TEST_LIBS)
bin_exec_local_libexec_local_a_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin
