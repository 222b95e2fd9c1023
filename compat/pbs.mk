# compat/pbs.mk: PBS's dialect over the same job record: qsub's option
# table and #PBS directives, -l resource lists, the job's PBS variables,
# PBS's ids, states and errors, the qstat/pbsnodes layouts, tracejob's
# lines rebuilt from the job record, and pbsdsh's command line and the step
# its copies make.
compat_libcompat_a_SOURCES += \
	compat/pbs_opt.c compat/pbs_optval.c compat/pbs_opt.h compat/pbs_opt_int.h \
	compat/pbs_resource.c compat/pbs_resource.h \
	compat/pbs_reslist.c compat/pbs_reslist.h \
	compat/pbs_env.c compat/pbs_env.h \
	compat/pbs_job.c compat/pbs_job.h \
	compat/pbs_array.c compat/pbs_array.h \
	compat/pbs_fmt.c compat/pbs_fmt_queue.c compat/pbs_fmt.h \
	compat/pbs_node.c compat/pbs_node_sum.c compat/pbs_node.h \
	compat/pbs_qopt.c compat/pbs_qopt.h \
	compat/pbs_attr.c compat/pbs_attr.h \
	compat/pbs_alter.c compat/pbs_alter.h \
	compat/pbs_out.c compat/pbs_out.h \
	compat/pbs_tracejob.c compat/pbs_tracejob_out.c compat/pbs_tracejob.h \
	compat/pbs_tracejob_int.h \
	compat/pbsdsh.c compat/pbsdsh.h

UNIT_TESTS += tests/unit/test_pbs_opt tests/unit/test_pbs_torque tests/unit/test_pbs_resource tests/unit/test_pbs_reslist \
	tests/unit/test_pbs_fmt tests/unit/test_pbs_attr \
	tests/unit/test_pbs_env tests/unit/test_pbs_qopt tests/unit/test_pbs_array \
	tests/unit/test_pbs_node tests/unit/test_pbsdsh tests/unit/test_pbs_tracejob

# Golden data: job records and what qstat and pbsnodes print for them
# (tests/data/pbs/README: the OpenPBS lines each layout follows).
EXTRA_DIST += tests/data/pbs
tests_unit_test_pbs_opt_SOURCES = tests/unit/test_pbs_opt.c tests/unit/qsub_testlib.h
tests_unit_test_pbs_torque_SOURCES = tests/unit/test_pbs_torque.c tests/unit/qsub_testlib.h
tests_unit_test_pbs_fmt_SOURCES = tests/unit/test_pbs_fmt.c tests/unit/pbs_testlib.h
tests_unit_test_pbs_node_SOURCES = tests/unit/test_pbs_node.c tests/unit/pbs_testlib.h
tests_unit_test_pbs_array_SOURCES = tests/unit/test_pbs_array.c tests/unit/pbs_testlib.h
tests_unit_test_pbs_tracejob_SOURCES = tests/unit/test_pbs_tracejob.c tests/unit/pbs_testlib.h
