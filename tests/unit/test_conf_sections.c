/* test_conf_sections.c - the Sluice configuration's sections: listen,
 * controller and munge (and the fast peek for login nodes), pbsServer,
 * kubernetes: with the routing of Kueue objects, features: and pam:, with
 * their exact errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf.h"
#include "conf_kube.h"
#include "err.h"
#include "features.h"
#include "kueue.h"
#include "xalloc.h"
#include "conf_fixture.h"

/* The fast peek (conf_peek.c) answers only for the simple shape and agrees
 * with the full parse; anything else is left to it (0). */
static void expect_fast(const char *text, const char *want)
{
	char *path = write_conf(text), *full = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf_peek p;

	assert_int_equal(sl_conf_peek_fast(path, &p), want != NULL);
	if (want != NULL) {
		assert_string_equal(p.socket, want);
		assert_null(p.controller);
		assert_int_equal(sl_conf_peek_socket(path, &full, &err), 0);
		assert_string_equal(full, want);
	} else {
		assert_null(p.socket);
	}
	sl_conf_peek_clear(&p);
	free(full);
	free(path);
}

/* Where a login node's command goes: the fast peek's answer, and the same
 * from the whole loader (text must load). */
static void expect_peek_tcp(const char *text, const char *sock, const char *ctl,
			    const char *msock, int munge)
{
	char *path = write_conf(text);
	struct sl_conf_peek p;
	struct sl_conf *c;

	assert_int_equal(sl_conf_peek_fast(path, &p), 1);
	assert_string_equal(p.socket, sock);
	if (ctl == NULL)
		assert_null(p.controller);
	else
		assert_string_equal(p.controller, ctl);
	if (msock == NULL)
		assert_null(p.munge_socket);
	else
		assert_string_equal(p.munge_socket, msock);
	assert_int_equal(p.munge, munge);
	c = load_ok(path);
	assert_string_equal(sl_conf_socket(c), sock);
	assert_true(ctl ? strcmp(sl_conf_controller(c), ctl) == 0 : sl_conf_controller(c) == NULL);
	assert_true(msock ? strcmp(sl_conf_munge_socket(c), msock) == 0
			  : sl_conf_munge_socket(c) == NULL);
	assert_string_equal(sl_conf_auth(c), munge ? "munge" : "none");
	sl_conf_free(c);
	sl_conf_peek_clear(&p);
	free(path);
}

static void test_peek_fast(void **state)
{
	expect_fast("# site config\n---\n" HEAD "socket: /run/s.sock   # here\n"
		    "accounts:\n  \"*\": [general]\n---\nkind: ClusterQueue\nsocket: /x\n",
		    "/run/s.sock");
	expect_fast("kind: SluiceConfiguration\nsocket: \"/a/../b/s.sock\"\n"
		    "apiVersion: sluice.io/v1alpha1\n", "/b/s.sock");
	expect_fast(HEAD "socket: '/q s.sock'\n", "/q s.sock");
	expect_fast(HEAD "stateDir: /var\n", NULL);                 /* default: parse */
	expect_fast(HEAD "socket: s.sock\n", NULL);                 /* relative */
	expect_fast(HEAD "socket: \"/a\\tb\"\n", NULL);             /* escape */
	expect_fast(HEAD "socket: /a\nsocket: /b\n", NULL);         /* twice */
	expect_fast(HEAD "socket: &x /a\n", NULL);                  /* anchor */
	expect_fast(HEAD "socket: /a: b\n", NULL);                  /* a mapping */
	expect_fast("{apiVersion: sluice.io/v1alpha1}\n", NULL);    /* flow */
	expect_fast("apiVersion: x/v1\nkind: Foo\n---\n" HEAD "socket: /s\n", NULL);
	expect_fast(HEAD "\tsocket: /s\n", NULL);                   /* tab */
	expect_fast("%YAML 1.2\n---\n" HEAD "socket: /s\n", NULL);

	/* login nodes: controller, auth and munge's socket */
	expect_peek_tcp(HEAD "controller: head1:6820\nauth: munge\n", SL_CONF_DEFAULT_SOCKET,
			"head1:6820", NULL, 1);
	expect_peek_tcp(HEAD "controller: 'head1:6820'  # the controller\nauth: munge\n"
			"munge:\n  socket: /run/m.sock  # here\n", SL_CONF_DEFAULT_SOCKET,
			"head1:6820", "/run/m.sock", 1);
	expect_peek_tcp(HEAD "auth: munge\nmunge:\n# a comment\n  socket: \"/a/../m.sock\"\n"
			"socket: /s\n", "/s", NULL, "/m.sock", 1);
	expect_peek_tcp(HEAD "controller: \"[::1]:6820\"\nauth: munge\nmunge:\n",
			SL_CONF_DEFAULT_SOCKET, "[::1]:6820", NULL, 1);
	expect_peek_tcp(HEAD "socket: /s\nauth: none\n", "/s", NULL, NULL, 0);
	expect_peek_tcp(HEAD "socket: /s\nauth: none\nlisten: []\ncontroller:\nmunge:\n"
			"#  socket: /m\n", "/s", NULL, NULL, 0); /* as etc/sluice.yaml */
	expect_peek_tcp(HEAD "socket: /s\nauth: munge\nlisten: [\"0.0.0.0:6820\"]\n", "/s", NULL,
			NULL, 1);
	expect_fast(HEAD "controller: head1:6820\n", NULL);          /* TCP without munge */
	expect_fast(HEAD "controller: head1\nauth: munge\n", NULL);  /* no port */
	expect_fast(HEAD "controller: [::1]:6820\nauth: munge\n", NULL); /* a flow list */
	expect_fast(HEAD "socket: /s\nauth: munge\nauth: none\n", NULL);
	expect_fast(HEAD "socket: /s\nauth: kerberos\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge: {socket: /m}\n", NULL);  /* flow */
	expect_fast(HEAD "socket: /s\nmunge:\n  socket: m.sock\n", NULL); /* relative */
	expect_fast(HEAD "socket: /s\nmunge:\n  sockets: /m\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge:\n  socket:\n    /m\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge:\n  socket: /m\n  socket: /n\n", NULL);
}

/* pbsServer: a host name, for the daemon and, through the peek, for the
 * PBS commands of this host or a login node. */
static void test_pbs_server(void **state)
{
	char *path = write_conf(HEAD "socket: /s\npbsServer: head1.example.org\n");
	struct sl_conf_peek p;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = load_ok(path);

	assert_string_equal(sl_conf_pbs_server(c), "head1.example.org");
	sl_conf_free(c);
	assert_int_equal(sl_conf_peek_fast(path, &p), 1);
	assert_string_equal(p.pbs_server, "head1.example.org");
	sl_conf_peek_clear(&p);
	free(path);
	path = write_conf(HEAD "stateDir: /var\npbsServer: pbs1\n"); /* the full parse */
	assert_int_equal(sl_conf_peek(path, &p, &err), 0);
	assert_string_equal(p.pbs_server, "pbs1");
	sl_conf_peek_clear(&p);
	free(path);
	path = write_conf(HEAD "socket: /s\n");
	c = load_ok(path);
	assert_null(sl_conf_pbs_server(c)); /* the short host name */
	sl_conf_free(c);
	free(path);
	expect_fast(HEAD "socket: /s\npbsServer: -bad-\n", NULL); /* the parser says why */
	conf_fails(HEAD "pbsServer: -bad-\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pbsServer: \"-bad-\" is not a valid "
		   "host name");
	conf_fails(HEAD "pbsServer: a..b\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pbsServer: \"a..b\" is not a valid "
		   "host name");
}

/* listen, controller and munge: TCP for login nodes, only with munge. */
static void test_tcp(void **state)
{
	char *path = write_conf(HEAD "auth: munge\nlisten: [\"127.0.0.1:6820\", \"[::]:6820\", "
				"head1.example.org:7000]\ncontroller: head1:6820\n"
				"munge: {socket: m/../munge.sock}\n");
	struct sl_conf *c = load_ok(path);
	const char *const *l = sl_conf_listen(c);
	char *want = sl_xasprintf("%s/munge.sock", realtmp);

	assert_non_null(l);
	assert_string_equal(l[0], "127.0.0.1:6820");
	assert_string_equal(l[1], "[::]:6820");
	assert_string_equal(l[2], "head1.example.org:7000");
	assert_null(l[3]);
	assert_string_equal(sl_conf_controller(c), "head1:6820");
	assert_string_equal(sl_conf_munge_socket(c), want);
	assert_string_equal(sl_conf_auth(c), "munge");
	sl_conf_free(c);
	free(want);
	free(path);
	c = load_text(HEAD "listen: []\n");
	assert_null(sl_conf_listen(c));
	assert_null(sl_conf_controller(c));
	assert_null(sl_conf_munge_socket(c));
	sl_conf_free(c);

	conf_fails(HEAD "listen: [\"0.0.0.0:6820\"]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: listen: needs auth: munge (over TCP "
		   "only a munge credential says who asks)");
	conf_fails(HEAD "auth: none\ncontroller: head1:6820\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: needs auth: munge (over TCP "
		   "only a munge credential says who asks)");
	conf_fails(HEAD "auth: munge\nlisten:\n- 127.0.0.1:1\n- 0.0.0.0\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: listen[1]: \"0.0.0.0\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\nlisten: [\"::1:6820\"]\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen[0]: \"::1:6820\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\nlisten: h:1\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen: must be a list of HOST:PORT");
	conf_fails(HEAD "auth: munge\nlisten: [[h:1]]\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen[0]: must be a string");
	conf_fails(HEAD "auth: munge\ncontroller: h:0\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"h:0\" is not HOST:PORT "
		   "with a port of 1-65535");
	conf_fails(HEAD "auth: munge\ncontroller: \"[::1]:65536\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"[::1]:65536\" is not "
		   "HOST:PORT with a port of 1-65535");
	conf_fails(HEAD "auth: munge\ncontroller: \"[::1]6820\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"[::1]6820\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\ncontroller: \":6820\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \":6820\" is not HOST:PORT "
		   "with a port of 1-65535");
	conf_fails(HEAD "munge: {sockets: /x}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge.sockets: unknown key");
	conf_fails(HEAD "munge: /x\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge: must be a map (socket: PATH)");
	conf_fails(HEAD "munge: {socket: \"\"}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge.socket: must not be empty");
}

#define LQ_GPU "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n" \
	"metadata: {name: f}\n---\napiVersion: kueue.x-k8s.io/v1beta1\n" \
	"kind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n" \
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" \
	"    - name: f\n      resources: [{name: cpu, nominalQuota: 1}]\n---\n" \
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n" \
	"metadata: {namespace: ns, name: gpu}\nspec: {clusterQueue: cq}\n"

/* The kubernetes: section: the spellings, defaults, and that it is
 * what makes `executor: kubernetes` valid. */
static void test_kubernetes(void **state)
{
	char *path = write_conf(HEAD "executor: kubernetes\nkubernetes:\n"
				"  kubeconfig: kube/config\n  context: prod\n  burst: 200\n"
				"  image: ubuntu:24.04\n  partitions:\n    gpu:\n"
				"      imagePullPolicy: Never\n      mpi: intel\n"
				"      volumes: [{name: home, hostPath: {path: /home}},"
				" {name: cfg, configMap: {name: c, defaultMode: 0644}}]\n"
				"      volumeMounts: [{name: home, mountPath: /home,"
				" readOnly: true}]\n" LQ_GPU);
	struct sl_conf *c = load_ok(path);
	const struct sl_kubeconf *k = sl_conf_kubernetes(c);
	const struct sl_kube_partition *p;
	char *want = sl_xasprintf("%s/kube/config", realtmp);

	assert_string_equal(sl_conf_executor(c), "kubernetes");
	assert_non_null(k);
	assert_string_equal(k->kubeconfig, want);
	assert_string_equal(k->context, "prod");
	assert_int_equal(k->in_cluster, 0);
	assert_int_equal(k->qps, 50);
	assert_int_equal(k->burst, 200);
	assert_string_equal(k->image, "ubuntu:24.04");
	p = sl_kubeconf_partition(k, "gpu");
	assert_non_null(p);
	assert_null(sl_kubeconf_partition(k, "cpu"));
	assert_null(p->image);
	assert_string_equal(p->image_pull_policy, "Never");
	assert_string_equal(p->mpi, "intel");
	assert_string_equal(p->volumes_json, "[{\"name\":\"home\",\"hostPath\":{\"path\":"
			    "\"/home\"}},{\"name\":\"cfg\",\"configMap\":{\"name\":\"c\","
			    "\"defaultMode\":420}}]");
	assert_string_equal(p->volume_mounts_json, "[{\"name\":\"home\",\"mountPath\":"
			    "\"/home\",\"readOnly\":true}]");
	sl_conf_free(c);
	free(path);
	free(want);
	c = load_text(HEAD "kubernetes: {inCluster: true}\n");
	assert_string_equal(sl_conf_executor(c), "local");
	assert_int_equal(sl_conf_kubernetes(c)->in_cluster, 1);
	assert_int_equal(sl_conf_kubernetes(c)->burst, 100);
	sl_conf_free(c);
}

static void test_kubernetes_errors(void **state)
{
	conf_fails(HEAD "kubernetes:\n  qps: 0\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.qps: 0 is out of "
		   "range (1..100000)");
	conf_fails(HEAD "kubernetes:\n  qps: 20\n  burst: 10\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.burst: must be at "
		   "least qps");
	conf_fails(HEAD "kubernetes:\n  images: x\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.images: unknown key");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu: {imagePullPolicy: Sometimes}\n",
		   SL_ECONFIG, "sluice.yaml:5: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.imagePullPolicy: \"Sometimes\" is not one of "
		   "Always, IfNotPresent, Never");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu: {mpi: lam}\n", SL_ECONFIG,
		   "sluice.yaml:5: SluiceConfiguration: kubernetes.partitions.gpu.mpi: "
		   "\"lam\" is not one of openmpi, intel, mpich");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumeMounts: [{name: home, mountPath: /home}]\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumeMounts[0].name: no volume named "
		   "\"home\" in volumes");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumes: [{name: sluice-x, emptyDir: {}}]\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumes[0].name: \"sluice-x\": names "
		   "starting with \"sluice-\" are reserved");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumes: [{name: h, emptyDir: {}}]\n"
		   "      volumeMounts: [{name: h, mountPath: home}]\n", SL_ECONFIG,
		   "sluice.yaml:7: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumeMounts[0].mountPath: must be an "
		   "absolute path");
	conf_fails(HEAD "kubernetes:\n  image: \"a b\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.image: \"a b\" is not a "
		   "container image reference");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpuu: {}\n" LQ_GPU, SL_ECONFIG,
		   "sluice.yaml:1: SluiceConfiguration: kubernetes.partitions: \"gpuu\" is "
		   "not a partition (no LocalQueue has that name)");
	/* the section decides, wherever it is written */
	conf_fails(HEAD "executor: kubernetes\nkubernetes:\n", SL_EUNSUPP,
		   "sluice.yaml:3: SluiceConfiguration: executor \"kubernetes\" is not "
		   "supported by Sluice yet");
}

/* features: name -> node labels; keys and values checked as Kubernetes
 * labels, errors at file:line with the key path. */
static void test_features(void **state)
{
	char *path = write_conf(HEAD "features:\n"
				"  h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}\n"
				"  ib:\n    example.com/network: infiniband\n    rack: \"\"\n");
	struct sl_conf *c = load_ok(path);
	const struct sl_feature_label *l;
	char *out = sl_xstrdup("");
	size_t n = 99;

	l = sl_features_get(sl_conf_features(c), "h100", &n);
	assert_non_null(l);
	assert_int_equal(n, 1);
	assert_string_equal(l[0].key, "nvidia.com/gpu.product");
	assert_string_equal(l[0].value, "NVIDIA-H100-80GB-HBM3");
	l = sl_features_get(sl_conf_features(c), "ib", &n);
	assert_int_equal(n, 2);
	assert_string_equal(l[1].key, "rack");
	assert_string_equal(l[1].value, "");
	assert_null(sl_features_get(sl_conf_features(c), "a100", &n));
	assert_int_equal(n, 0);
	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	assert_non_null(strstr(out, "\nfeatures=h100:nvidia.com/gpu.product=NVIDIA-H100-80GB-"
			       "HBM3 ib:example.com/network=infiniband,rack=\n"));
	free(out);
	sl_conf_free(c);
	free(path);
	c = load_text(HEAD "socket: /tmp/x.sock\n");
	assert_null(sl_conf_features(c));
	assert_null(sl_features_get(NULL, "h100", &n));
	sl_conf_free(c);

	assert_int_equal(sl_label_key_ok("a.b-c.example/x_y.z"), 1);
	assert_int_equal(sl_label_key_ok("Bad.Prefix/x"), 0);
	assert_int_equal(sl_label_key_ok("/x"), 0);
	assert_int_equal(sl_label_key_ok("a/"), 0);
	assert_int_equal(sl_label_key_ok("-x"), 0);
	assert_int_equal(sl_label_value_ok(""), 1);
	assert_int_equal(sl_label_value_ok("a b"), 0);
}

static void test_features_errors(void **state)
{
	conf_fails(HEAD "features: [h100]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: features: must map feature names "
		   "to maps of node labels");
	conf_fails(HEAD "features:\n  h100: NVIDIA\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100: must map node label "
		   "keys to values, e.g. {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}");
	conf_fails(HEAD "features:\n  \"a|b\": {x: y}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features: \"a|b\" is not a valid "
		   "feature name (at most 63 characters [A-Za-z0-9._-])");
	conf_fails(HEAD "features:\n  h100:\n    ok: yes\n    Bad_Prefix.io/x: y\n",
		   SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: features.h100.Bad_Prefix.io/x: "
		   "\"Bad_Prefix.io/x\" is not a valid Kubernetes label key (an optional "
		   "DNS subdomain prefix and '/', then at most 63 characters [A-Za-z0-9._-] "
		   "starting and ending with a letter or digit)");
	conf_fails(HEAD "features:\n  h100: {gpu: \"NVIDIA H100\"}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100.gpu: \"NVIDIA H100\" "
		   "is not a valid Kubernetes label value (at most 63 characters "
		   "[A-Za-z0-9._-] starting and ending with a letter or digit)");
	conf_fails(HEAD "features:\n  h100: {gpu: [a]}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100.gpu: \"(not a string)\" "
		   "is not a valid Kubernetes label value (at most 63 characters "
		   "[A-Za-z0-9._-] starting and ending with a letter or digit)");
	conf_fails(HEAD "feature:\n  h100: {gpu: h100}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: feature: unknown key");
}

/* pam: {service: NAME} names the PAM service; without it there is no PAM. */
static void test_pam(void **state)
{
	char *path = write_conf(HEAD "pam: {service: sluice-batch_1.x}\n"), *out = sl_xstrdup("");
	struct sl_conf *c = load_ok(path);

	assert_string_equal(sl_conf_pam_service(c), "sluice-batch_1.x");
	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	assert_non_null(strstr(out, "\npam=sluice-batch_1.x\n"));
	sl_conf_free(c);
	free(path);
	free(out);
	c = load_text(HEAD "pam:\n");
	assert_null(sl_conf_pam_service(c));
	sl_conf_free(c);

	conf_fails(HEAD "pam: sluice\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam: {}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam: {service: sluice, debug: 1}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam:\n  service: ../shadow\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: pam.service: \"../shadow\" is not a PAM "
		   "service name (at most 64 characters [A-Za-z0-9._-], not starting with '.')");
	conf_fails(HEAD "pam: {service: \"\"}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam.service: \"\" is not a PAM "
		   "service name (at most 64 characters [A-Za-z0-9._-], not starting with '.')");
	conf_fails(HEAD "pam: {service: [a]}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam.service: \"(not a string)\" is not "
		   "a PAM service name (at most 64 characters [A-Za-z0-9._-], not starting "
		   "with '.')");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_peek_fast),
		cmocka_unit_test(test_pbs_server),
		cmocka_unit_test(test_kubernetes),
		cmocka_unit_test(test_kubernetes_errors),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_features_errors),
		cmocka_unit_test(test_pam),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
