# libbatch/sched/sched.mk: the Kueue object model, the admission engine
# (pure logic), the scenario runner and the `sluice` admin tool.
libbatch_libbatch_a_SOURCES += \
	libbatch/kueue.c libbatch/kueue.h \
	libbatch/kueue_parse.c libbatch/kueue_parse.h \
	libbatch/kueue_check.c \
	libbatch/sched/sched.h libbatch/sched/sched_int.h \
	libbatch/sched/model.c libbatch/sched/quota.c libbatch/sched/wlq.c \
	libbatch/sched/flavor.c libbatch/sched/preempt.c libbatch/sched/fairshare.c \
	libbatch/sched/afs.c libbatch/sched/cycle.c libbatch/sched/info.c \
	libbatch/sched/api.c libbatch/sched/msg.c libbatch/sched/equiv.c \
	libbatch/sched/namemap.c \
	libbatch/sim.c libbatch/sim.h libbatch/sim_int.h libbatch/sim_report.c

bin_PROGRAMS += bin/sluice
bin_sluice_SOURCES = bin/sluice.c
bin_sluice_LDADD = $(SL_LIBS)

# every scenario file must be listed here (make distcheck)
EXTRA_DIST += tests/scenarios/README.md tests/scenarios/run.sh \
	tests/scenarios/admission-exceeds-max-quota.yaml \
	tests/scenarios/admission-fits-single-cq.yaml \
	tests/scenarios/afs-localqueue-ordering.yaml \
	tests/scenarios/bad-quantity.yaml \
	tests/scenarios/bad-reference.yaml \
	tests/scenarios/bad-unknown-kind.yaml \
	tests/scenarios/borrow-only-one-fits.yaml \
	tests/scenarios/bwc-preempt-lower-while-borrowing.yaml \
	tests/scenarios/fifo-besteffort-skips-blocked-head.yaml \
	tests/scenarios/fifo-strict-head-of-line-blocking.yaml \
	tests/scenarios/fs-lowest-share-first.yaml \
	tests/scenarios/fs-preempt-highest-share.yaml \
	tests/scenarios/fungibility-preemption-over-borrowing.yaml \
	tests/scenarios/hier-borrow-up-to-lending-limit.yaml \
	tests/scenarios/lending-limit-exceeded.yaml \
	tests/scenarios/many-workloads-fifo.yaml \
	tests/scenarios/podsets-multiple-resources-flavors.yaml \
	tests/scenarios/preempt-cq-lowest-priority.yaml \
	tests/scenarios/preempt-cq-minimal-set-fillback.yaml \
	tests/scenarios/reclaim-from-borrower-lowerpriority.yaml \
	tests/scenarios/stop-policy-hold-and-drain.yaml \
	tests/scenarios/taint-untolerated-flavor.yaml \
	tests/scenarios/v1beta2-cohortname-borrowing.yaml \
	tests/scenarios/wpc-higher-class-preempts.yaml

TESTS += tests/scenarios/run.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_kueue tests/unit/test_sched_quota tests/unit/test_sched_cycle \
	tests/unit/test_sched_equiv tests/unit/test_sim
TESTS += tests/unit/test_kueue tests/unit/test_sched_quota tests/unit/test_sched_cycle \
	tests/unit/test_sched_equiv tests/unit/test_sim
endif
tests_unit_test_kueue_SOURCES = tests/unit/test_kueue.c
tests_unit_test_kueue_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_kueue_LDADD = $(TEST_LIBS)
tests_unit_test_sched_quota_SOURCES = tests/unit/test_sched_quota.c tests/unit/sched_testlib.h
tests_unit_test_sched_quota_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sched_quota_LDADD = $(TEST_LIBS)
tests_unit_test_sched_cycle_SOURCES = tests/unit/test_sched_cycle.c tests/unit/sched_testlib.h
tests_unit_test_sched_cycle_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sched_cycle_LDADD = $(TEST_LIBS)
tests_unit_test_sched_equiv_SOURCES = tests/unit/test_sched_equiv.c tests/unit/sched_testlib.h
tests_unit_test_sched_equiv_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sched_equiv_LDADD = $(TEST_LIBS)
tests_unit_test_sim_SOURCES = tests/unit/test_sim.c
tests_unit_test_sim_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_LDADD = $(TEST_LIBS)
