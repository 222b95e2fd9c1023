# k8s/k8s.mk: the Kubernetes REST client (libcurl multi driven by sluiced's
# loop): kubeconfig/in-cluster/exec credentials, transport with rate limit and
# retries, typed verbs, watches.
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
tests_unit_test_k8s_http_SOURCES = tests/unit/test_k8s_http.c bin/sluiced/loop.c $(K8S_TEST_HELPER)
tests_unit_test_k8s_http_LDADD = $(K8S_TEST_LIBS)
tests_unit_test_watch_SOURCES = tests/unit/test_watch.c bin/sluiced/loop.c $(K8S_TEST_HELPER)
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
