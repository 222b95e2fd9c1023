# tests/integration/k8s.mk: the Kubernetes executor (bin/sluiced/exec_k8s*.c,
# k8s/status.c) linked into sluiced, its unit test, and its integration tests
# against the fake API server (tests/fake-k8s/).
bin_sluiced_sluiced_SOURCES += \
	bin/sluiced/exec_k8s.c bin/sluiced/exec_k8s.h \
	bin/sluiced/exec_k8s_watch.c bin/sluiced/exec_k8s_delete.c \
	bin/sluiced/exec_k8s_logs.c \
	k8s/status.c k8s/status.h
# Static link order: the renderer and the REST client need the core after them.
bin_sluiced_sluiced_LDADD += k8s/librender.a k8s/libk8s.a $(SL_LIBS) $(CURL_LIBS)

UNIT_TESTS += tests/unit/test_k8s_status
tests_unit_test_k8s_status_SOURCES = tests/unit/test_k8s_status.c k8s/status.c k8s/status.h

K8S_INTEGRATION_TESTS = \
	tests/integration/k8s_basic.sh \
	tests/integration/k8s_ends.sh \
	tests/integration/k8s_timeout.sh \
	tests/integration/k8s_cancel.sh \
	tests/integration/k8s_podsready.sh \
	tests/integration/k8s_outage.sh \
	tests/integration/k8s_kill9.sh \
	tests/integration/k8s_restart.sh \
	tests/integration/k8s_kubeconfig.sh \
	tests/integration/k8s_race.sh
TESTS += $(K8S_INTEGRATION_TESTS)
EXTRA_DIST += tests/integration/k8s_lib.sh tests/integration/k8s_golden.py \
	$(K8S_INTEGRATION_TESTS) \
	tests/bench/k8s_calls.sh \
	tests/data/k8s-golden/jobset-1node.json tests/data/k8s-golden/jobset-4node-8gpu.json \
	tests/data/k8s-status/CASES \
	tests/data/k8s-status/job-deadline.json \
	tests/data/k8s-status/jobset-completed.json \
	tests/data/k8s-status/jobset-configuring.json \
	tests/data/k8s-status/jobset-evicted.json \
	tests/data/k8s-status/jobset-exit3.json \
	tests/data/k8s-status/jobset-failed-no-pods.json \
	tests/data/k8s-status/jobset-oom.json \
	tests/data/k8s-status/jobset-running.json \
	tests/data/k8s-status/mpijob-deadline.json \
	tests/data/k8s-status/mpijob-evicted.json \
	tests/data/k8s-status/mpijob-exit.json \
	tests/data/k8s-status/mpijob-running.json \
	tests/data/k8s-status/mpijob-succeeded.json \
	tests/data/k8s-status/mpijob-waiting.json
