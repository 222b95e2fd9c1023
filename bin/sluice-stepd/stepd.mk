# bin/sluice-stepd/stepd.mk: sluice-stepd, the supervisor of one local job
# (and sluiced's fork server of supervisors). It outlives the daemon.
libexec_PROGRAMS += bin/sluice-stepd/sluice-stepd
bin_sluice_stepd_sluice_stepd_SOURCES = \
	bin/sluice-stepd/stepd_main.c bin/sluice-stepd/stepd_server.c \
	bin/sluice-stepd/stepd.c bin/sluice-stepd/stepd.h bin/sluice-stepd/stepd_launch.c \
	bin/sluice-stepd/stepd_pam.c bin/sluice-stepd/stepd_pbs.c \
	bin/sluice-stepd/stepd_usage.c bin/sluice-stepd/stepd_userenv.c
bin_sluice_stepd_sluice_stepd_SOURCES += bin/sluice-stepd/step_track.c
# The step agent of a Kubernetes pod (agent.h); its wire is srun's too.
bin_sluice_stepd_sluice_stepd_SOURCES += bin/sluice-stepd/agent.c bin/sluice-stepd/agent.h \
	bin/sluice-stepd/agent_task.c bin/sluice-stepd/agent_wire.c bin/sluice-stepd/agent_wire.h
bin_sluice_stepd_sluice_stepd_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin
# Linked dynamically: PAM loads its modules with dlopen(), which a static
# program cannot do reliably (configure.ac).
bin_sluice_stepd_sluice_stepd_LDADD = $(SL_LIBS) $(PAM_LIBS)
# Every symbol bound when the fork server starts, once: lazily, each forked
# supervisor would bind again what it calls first (ld.so's lookups were
# about 2 % of a short job's CPU).
bin_sluice_stepd_sluice_stepd_LDFLAGS = -Wl,-z,now

# Run the built sluice-stepd ($top_builddir/bin/sluice-stepd/sluice-stepd,
# or $SLUICE_STEPD): a supervisor alone (test_stepd), and the fork server
# through its client (test_stepd_server).
UNIT_TESTS += tests/unit/test_stepd tests/unit/test_stepd_server
tests_unit_test_stepd_SOURCES = tests/unit/test_stepd.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h tests/unit/decoy.c tests/unit/decoy.h
tests_unit_test_stepd_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/exec/local
tests_unit_test_stepd_LDADD = bin/exec/local/libexec_local.a $(TEST_LIBS)
tests_unit_test_stepd_server_SOURCES = tests/unit/test_stepd_server.c \
	tests/unit/stepd_testlib.c tests/unit/stepd_testlib.h
tests_unit_test_stepd_server_CPPFLAGS = $(tests_unit_test_stepd_CPPFLAGS)
tests_unit_test_stepd_server_LDADD = $(tests_unit_test_stepd_LDADD)

# sluice-stepd again, with hooks for tests, each inert until its variable is
# set: its fork server's pidfd_open wrapped to hand a reused pid to a decoy
# first (stepd_decoy.c), a supervisor's start held open, and a fork server
# that cannot fork (stepd_window.c). For test_stepd_server, test_exec_local
# and tests/integration/cancel_window.sh.
check_PROGRAMS += tests/unit/sluice-stepd-hooked
tests_unit_sluice_stepd_hooked_SOURCES = $(bin_sluice_stepd_sluice_stepd_SOURCES) \
	tests/unit/stepd_decoy.c tests/unit/decoy.c tests/unit/decoy.h tests/unit/stepd_window.c
tests_unit_sluice_stepd_hooked_CPPFLAGS = $(bin_sluice_stepd_sluice_stepd_CPPFLAGS)
tests_unit_sluice_stepd_hooked_LDADD = $(bin_sluice_stepd_sluice_stepd_LDADD)
tests_unit_sluice_stepd_hooked_LDFLAGS = $(bin_sluice_stepd_sluice_stepd_LDFLAGS) \
	-Wl,--wrap=sl_pidfd_open -Wl,--wrap=sl_log_open -Wl,--wrap=stepd_server -Wl,--wrap=fork

# The agent alone, static (configure's STATIC_LDFLAGS): what the agent image
# holds at /usr/local/bin/sluice-agent, copied into every pod (agent_main.c).
libexec_PROGRAMS += bin/sluice-stepd/sluice-agent
bin_sluice_stepd_sluice_agent_SOURCES = bin/sluice-stepd/agent_main.c \
	bin/sluice-stepd/agent.c bin/sluice-stepd/agent.h bin/sluice-stepd/agent_task.c \
	bin/sluice-stepd/agent_wire.c bin/sluice-stepd/agent_wire.h
bin_sluice_stepd_sluice_agent_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin
bin_sluice_stepd_sluice_agent_LDADD = libbatch/libbatch.a $(DEP_LIBS)
bin_sluice_stepd_sluice_agent_LDFLAGS = $(STATIC_LDFLAGS)

UNIT_TESTS += tests/unit/test_agent_wire
tests_unit_test_agent_wire_SOURCES = tests/unit/test_agent_wire.c \
	bin/sluice-stepd/agent_wire.c bin/sluice-stepd/agent_wire.h
tests_unit_test_agent_wire_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluice-stepd
tests_unit_test_agent_wire_LDADD = $(TEST_LIBS)
