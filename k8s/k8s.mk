# k8s/k8s.mk: the Kubernetes REST client (libk8s.a: libcurl multi on the
# event loop, kubeconfig/in-cluster/exec credentials, transport with rate
# limit and retries, typed verbs, watches) and the objects (librender.a: the
# table of kinds, an admitted job -> its JobSet / MPIJob, the pod log
# protocol, and API status -> job state; no curl, so `sluice render` links
# it alone). Its layers are in k8s/render_int.h; status.c is below kinds.c.
noinst_LIBRARIES += k8s/libk8s.a
k8s_libk8s_a_SOURCES = \
	k8s/kubeconfig.c k8s/kubeconfig.h \
	k8s/kexec.c \
	k8s/kauth.c k8s/kauth.h \
	k8s/ratelimit.c k8s/ratelimit.h \
	k8s/http.c k8s/http.h \
	k8s/kclient.c k8s/kclient.h \
	k8s/watch.c k8s/watch.h

K8S_TEST_LIBS = k8s/libk8s.a $(TEST_LIBS) $(CURL_LIBS)
K8S_TEST_HELPER = tests/unit/k8s_responder.c tests/unit/k8s_responder.h

UNIT_TESTS += tests/unit/test_kubeconfig tests/unit/test_k8s_http \
	tests/unit/test_watch tests/unit/test_ratelimit tests/unit/test_podlog
tests_unit_test_kubeconfig_LDADD = $(K8S_TEST_LIBS)
tests_unit_test_k8s_http_SOURCES = tests/unit/test_k8s_http.c $(K8S_TEST_HELPER)
tests_unit_test_k8s_http_LDADD = $(K8S_TEST_LIBS)
tests_unit_test_watch_SOURCES = tests/unit/test_watch.c $(K8S_TEST_HELPER)
tests_unit_test_watch_LDADD = $(K8S_TEST_LIBS)
tests_unit_test_ratelimit_LDADD = $(K8S_TEST_LIBS)
# The pod log protocol (k8s/podlog.c, in librender.a: the renderer writes
# its shell half); the test runs that shell with /bin/sh.
tests_unit_test_podlog_LDADD = k8s/librender.a $(TEST_LIBS)

EXTRA_DIST += \
	tests/data/k8s/responder.py tests/data/k8s/mkcerts.sh \
	tests/data/k8s/ca.crt tests/data/k8s/ca.key \
	tests/data/k8s/server.crt tests/data/k8s/server.key \
	tests/data/k8s/client.crt tests/data/k8s/client.key \
	tests/data/kubeconfig/token.yaml tests/data/kubeconfig/token.txt \
	tests/data/kubeconfig/certdata.yaml tests/data/kubeconfig/certfile.yaml \
	tests/data/kubeconfig/exec.yaml tests/data/kubeconfig/exec-plugin.sh \
	tests/data/kubeconfig/bad.yaml \
	tests/data/kubeconfig/merge1.yaml tests/data/kubeconfig/merge2.yaml \
	tests/data/kubeconfig/sa/token tests/data/kubeconfig/sa/ca.crt \
	tests/data/kubeconfig/sa/namespace

noinst_LIBRARIES += k8s/librender.a
k8s_librender_a_SOURCES = \
	k8s/kinds.c k8s/kinds.h \
	k8s/render.c k8s/render.h k8s/render_int.h \
	k8s/render_jobset.c k8s/render_mpijob.c k8s/render_tas.c k8s/render_agent.c \
	k8s/podlog.c k8s/podlog.h \
	k8s/status.c k8s/status.h

UNIT_TESTS += tests/unit/test_render tests/unit/test_k8s_status
tests_unit_test_render_LDADD = k8s/librender.a $(TEST_LIBS)

# Goldens against the CRD schemas (ajv; skips without node or
# `npm ci --prefix tests/node`).
TESTS += tests/unit/test_render_crd.sh

EXTRA_DIST += \
	tests/unit/test_render_crd.sh \
	tests/node/package.json tests/node/package-lock.json tests/node/validate-crd.js \
	tests/data/render/sluice.yaml \
	tests/data/render/jobset-1node.json \
	tests/data/render/jobset-4node-8gpu.json \
	tests/data/render/jobset-time.json \
	tests/data/render/jobset-tas-hosts.json tests/data/render/jobset-tas-racks.json \
	tests/data/render/jobset-stderr.json \
	tests/data/render/jobset-image.json tests/data/render/jobset-agent.json \
	tests/data/render/mpijob-openmpi.json \
	tests/data/render/mpijob-intel.json
tests_unit_test_k8s_status_LDADD = k8s/librender.a $(TEST_LIBS)
