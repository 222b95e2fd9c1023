/* test_kubeconfig.c - kubeconfig variants (token, tokenFile, client cert
 * files and data, exec plugin, in-cluster, $KUBECONFIG merge) and the exact
 * error texts for bad files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k8s/kubeconfig.h"

static char datadir[1024];
static char tmpdir[64];

static const char *kcfile(const char *name)
{
	static char buf[1200];

	snprintf(buf, sizeof(buf), "%s/%s", datadir, name);
	return buf;
}

static int load(const char *path, const char *ctx, struct sl_kubeconfig **kc,
		struct sl_err *err)
{
	struct sl_kubeconfig_opts o = {.path = path, .context = ctx};

	return sl_kubeconfig_load(&o, kc, err);
}

/* Load YAML text from a temp file named "config"; returns the rc. */
static int load_text(const char *yaml, struct sl_kubeconfig **kc, struct sl_err *err)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/config", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(yaml, f);
	fclose(f);
	return load(path, NULL, kc, err);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void test_token_context(void **state)
{
	struct sl_kubeconfig *kc = NULL;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(load(kcfile("token.yaml"), NULL, &kc, &err), 0);
	assert_string_equal(kc->context, "prod");
	assert_string_equal(kc->server, "https://10.0.0.1:6443"); /* trailing '/' dropped */
	assert_string_equal(kc->ns, "team-a");
	assert_string_equal(kc->token, "abc123");
	assert_string_equal(kc->tls_server_name, "api.internal");
	assert_true(kc->ca_file[0] == '/');
	assert_true(ends_with(kc->ca_file, "/kubeconfig/../k8s/ca.crt"));
	assert_null(kc->token_file);
	assert_null(kc->exec);
	assert_int_equal(kc->insecure, 0);
	sl_kubeconfig_free(kc);

	/* Explicit context; tokenFile relative to the kubeconfig's directory. */
	assert_int_equal(load(kcfile("token.yaml"), "dev", &kc, &err), 0);
	assert_string_equal(kc->server, "http://127.0.0.1:8080");
	assert_string_equal(kc->ns, "default");
	assert_int_equal(kc->insecure, 1);
	assert_null(kc->token);
	assert_true(ends_with(kc->token_file, "/kubeconfig/token.txt"));
	sl_kubeconfig_free(kc);

	assert_int_equal(load(kcfile("token.yaml"), "nope", &kc, &err), -SL_ECONFIG);
	assert_string_equal(err.msg, "token.yaml: context \"nope\" not found");
	sl_kubeconfig_free(NULL);
}

static void test_cert_data_and_files(void **state)
{
	struct sl_kubeconfig *kc = NULL;
	struct sl_err err = SL_ERR_INIT;
	char *pem = NULL;
	size_t len;

	assert_int_equal(load(kcfile("certdata.yaml"), NULL, &kc, &err), 0);
	assert_int_equal(sl_k8s_read_file(kcfile("../k8s/client.crt"), 65536, &pem, &len, &err), 0);
	assert_int_equal(kc->cert_len, len);
	assert_memory_equal(kc->cert_data, pem, len);
	assert_non_null(strstr(kc->key_data, "PRIVATE KEY"));
	assert_non_null(strstr(kc->ca_data, "BEGIN CERTIFICATE"));
	assert_null(kc->ca_file);
	assert_null(kc->cert_file);
	free(pem);
	sl_kubeconfig_free(kc);

	assert_int_equal(load(kcfile("certfile.yaml"), NULL, &kc, &err), 0);
	assert_true(ends_with(kc->cert_file, "/k8s/client.crt"));
	assert_true(ends_with(kc->key_file, "/k8s/client.key"));
	assert_null(kc->cert_data);
	sl_kubeconfig_free(kc);
}

static void test_exec_plugin(void **state)
{
	struct sl_kubeconfig *kc = NULL;
	struct sl_k8s_exec_cred *c = NULL;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(load(kcfile("exec.yaml"), NULL, &kc, &err), 0);
	assert_non_null(kc->exec);
	assert_string_equal(kc->exec->api_version, "client.authentication.k8s.io/v1");
	assert_true(ends_with(kc->exec->command, "/kubeconfig/./exec-plugin.sh"));
	assert_string_equal(kc->exec->args[0], "tok");
	assert_null(kc->exec->args[1]);
	assert_string_equal(kc->exec->env[0], "PLUGIN_VAR=v1");
	assert_int_equal(kc->exec->provide_cluster_info, 1);

	/* Args, env and KUBERNETES_EXEC_INFO (with cluster info) reach it. */
	assert_int_equal(sl_k8s_exec_run(kc, 10000, &c, &err), 0);
	assert_string_equal(c->token, "tok-v1-info-ok");
	assert_int_equal(c->expires, 4071006245); /* 2099-01-02T03:04:05Z */
	sl_k8s_exec_cred_free(c);

	free(kc->exec->args[0]);
	kc->exec->args[0] = strdup("fail");
	assert_int_equal(sl_k8s_exec_run(kc, 10000, &c, &err), -SL_EIO);
	assert_null(c);
	assert_true(ends_with(err.msg, "exec-plugin.sh\" failed (status 3): boom: no credentials"));

	sl_err_clear(&err);
	free(kc->exec->args[0]);
	kc->exec->args[0] = strdup("garbage");
	assert_int_equal(sl_k8s_exec_run(kc, 10000, &c, &err), -SL_EPROTO);
	assert_true(ends_with(err.msg, "exec-plugin.sh\": output is not a JSON ExecCredential"));

	sl_err_clear(&err);
	free(kc->exec->args[0]);
	kc->exec->args[0] = strdup("hang");
	assert_int_equal(sl_k8s_exec_run(kc, 300, &c, &err), -SL_EIO);
	assert_true(ends_with(err.msg, "exec-plugin.sh\": no answer within 300 ms"));

	sl_err_clear(&err);
	free(kc->exec->command);
	kc->exec->command = strdup("sluice-no-such-plugin");
	assert_int_equal(sl_k8s_exec_run(kc, 1000, &c, &err), -SL_ECONFIG);
	assert_string_equal(err.msg, "exec plugin \"sluice-no-such-plugin\": No such file or "
				     "directory\ninstall the test plugin");
	sl_kubeconfig_free(kc);
}

static void test_exec_parse(void **state)
{
	struct sl_k8s_exec_cred *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	const char *v1 = "client.authentication.k8s.io/v1";

	assert_int_equal(sl_k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"kind\":\"ExecCredential\",\"status\":{"
					"\"clientCertificateData\":\"C\",\"clientKeyData\":\"K\","
					"\"expirationTimestamp\":\"2030-01-01T01:00:00.5+01:00\"}}",
					v1, &c, &err), 0);
	assert_null(c->token);
	assert_string_equal(c->cert_pem, "C");
	assert_string_equal(c->key_pem, "K");
	assert_int_equal(c->expires, 1893456000);
	sl_k8s_exec_cred_free(c);

	assert_int_equal(sl_k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
					"\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\"}}",
					v1, &c, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "configured for client.authentication.k8s.io/v1, returned "
				     "\"client.authentication.k8s.io/v1beta1\"");
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"kind\":\"ExecCredential\",\"status\":{}}", v1, &c, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "status: neither token nor clientCertificateData");
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\","
					"\"expirationTimestamp\":\"tomorrow\"}}", v1, &c, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "status.expirationTimestamp: \"tomorrow\" is not RFC 3339");
}

static void test_in_cluster(void **state)
{
	struct sl_kubeconfig *kc = NULL;
	struct sl_kubeconfig_opts o = {.in_cluster = 1, .sa_dir = kcfile("sa")};
	struct sl_err err = SL_ERR_INIT;

	unsetenv("KUBERNETES_SERVICE_HOST");
	unsetenv("KUBERNETES_SERVICE_PORT");
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), -SL_ECONFIG);
	assert_string_equal(err.msg, "in-cluster: KUBERNETES_SERVICE_HOST and "
				     "KUBERNETES_SERVICE_PORT must be set");
	setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
	setenv("KUBERNETES_SERVICE_PORT", "443", 1);
	sl_err_clear(&err);
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), 0);
	assert_string_equal(kc->server, "https://[fd00::1]:443");
	assert_string_equal(kc->ns, "team-sa");
	assert_true(ends_with(kc->token_file, "/sa/token"));
	assert_true(ends_with(kc->ca_file, "/sa/ca.crt"));
	assert_null(kc->token);
	sl_kubeconfig_free(kc);

	/* With no kubeconfig anywhere, the service-account env selects in-cluster. */
	o.in_cluster = 0;
	setenv("HOME", tmpdir, 1);
	unsetenv("KUBECONFIG");
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), 0);
	assert_string_equal(kc->origin, "in-cluster");
	sl_kubeconfig_free(kc);

	o.sa_dir = tmpdir; /* no token there */
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), -SL_ECONFIG);
	assert_true(ends_with(err.msg, "/token: No such file or directory"));
	unsetenv("KUBERNETES_SERVICE_HOST");
	sl_err_clear(&err);
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), -SL_ECONFIG);
	assert_string_equal(err.msg, "no kubeconfig: set kubernetes.kubeconfig or $KUBECONFIG, "
				     "create ~/.kube/config, or set inCluster");
}

static void test_kubeconfig_env_merge(void **state)
{
	struct sl_kubeconfig *kc = NULL;
	struct sl_kubeconfig_opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	char list[3200];

	/* First file wins for current-context and for each name; missing
	 * entries of the list are skipped. */
	snprintf(list, sizeof(list), "%s/nonexistent.yaml:%s/merge1.yaml:%s/merge2.yaml",
		 datadir, datadir, datadir);
	setenv("KUBECONFIG", list, 1);
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), 0);
	assert_string_equal(kc->context, "m1");
	assert_string_equal(kc->server, "https://merge2:443");
	assert_string_equal(kc->token, "from-merge1");
	sl_kubeconfig_free(kc);
	o.context = "m2";
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), 0);
	assert_string_equal(kc->token, "from-merge1");
	sl_kubeconfig_free(kc);
	setenv("KUBECONFIG", "/nonexistent/a:/nonexistent/b", 1);
	assert_int_equal(sl_kubeconfig_load(&o, &kc, &err), -SL_ECONFIG);
	assert_string_equal(err.msg, "$KUBECONFIG (/nonexistent/a:/nonexistent/b): no such file");
	unsetenv("KUBECONFIG");
}

static const struct {
	const char *yaml;
	int rc;
	const char *msg;
} bad[] = {
	{"apiVersion: v1\nclusters:\n- name: c\n  cluster: {server: \"https://x\n", -SL_EINVAL,
	 "config:5: found unexpected end of stream (while scanning a quoted scalar)"},
	{"- a\n- b\n", -SL_ECONFIG, "config: not a kubeconfig (expected a mapping)"},
	{"contexts: []\n", -SL_ECONFIG, "config: current-context is not set and no context was given"},
	{"current-context: c\ncontexts:\n- name: c\n  context:\n    user: u\n", -SL_ECONFIG,
	 "config:5: contexts[c].context.cluster: missing"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\n", -SL_ECONFIG,
	 "config: cluster \"k\" not found"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n"
	 "  cluster:\n    certificate-authority: ca.crt\n", -SL_ECONFIG,
	 "config:8: clusters[k].cluster.server: missing"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n"
	 "  cluster:\n    server: 10.0.0.1\n", -SL_ECONFIG,
	 "config:8: clusters[k].cluster.server: \"10.0.0.1\" is not an http(s) URL"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n"
	 "  cluster:\n    server: https://x\n    certificate-authority-data: \"!!\"\n", -SL_ECONFIG,
	 "config:9: clusters[k].cluster.certificate-authority-data: invalid base64"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n"
	 "  cluster:\n    server: https://x\n    certificate-authority: /ca\n"
	 "    insecure-skip-tls-verify: true\n", -SL_ECONFIG,
	 "config:10: clusters[k].cluster.insecure-skip-tls-verify: specifying a root certificate "
	 "with the insecure flag is not allowed"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n"
	 "- name: k\n  cluster: {server: \"https://x\"}\nusers:\n- name: u\n  user:\n"
	 "    client-certificate: c.crt\n", -SL_ECONFIG,
	 "config:11: users[u].user.client-key: missing (client-certificate given)"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n"
	 "- name: k\n  cluster: {server: \"https://x\"}\nusers:\n- name: u\n  user:\n"
	 "    auth-provider: {name: gcp}\n", -SL_ECONFIG,
	 "config:11: users[u].user.auth-provider: is not supported: use an exec credential plugin"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n"
	 "- name: k\n  cluster: {server: \"https://x\"}\nusers:\n- name: u\n  user:\n"
	 "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x\n",
	 -SL_ECONFIG,
	 "config:12: users[u].user.exec.interactiveMode: missing (required by "
	 "client.authentication.k8s.io/v1)"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n"
	 "- name: k\n  cluster: {server: \"https://x\"}\nusers:\n- name: u\n  user:\n"
	 "    exec:\n      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: x\n",
	 -SL_ECONFIG,
	 "config:12: users[u].user.exec.apiVersion: \"client.authentication.k8s.io/v1alpha1\" is "
	 "not supported (use client.authentication.k8s.io/v1)"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n"
	 "- name: k\n  cluster: {server: \"https://x\"}\nusers:\n- name: u\n  user:\n"
	 "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n"
	 "      env: [{name: A}]\n", -SL_ECONFIG,
	 "config:14: users[u].user.exec.env: items must be {name, value}"},
	{"current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: k\n"
	 "  cluster:\n    server: https://x\n    insecure-skip-tls-verify: maybe\n", -SL_ECONFIG,
	 "config:9: clusters[k].cluster.insecure-skip-tls-verify: must be true or false"},
};

static void test_errors(void **state)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sl_kubeconfig *kc = NULL;
		struct sl_err err = SL_ERR_INIT;
		int rc = load_text(bad[i].yaml, &kc, &err);
		if (rc != bad[i].rc || strcmp(err.msg, bad[i].msg) != 0)
			fail_msg("case %zu: rc %d msg [%s]", i, rc, err.msg);
		assert_null(kc);
	}
}

static void test_base64(void **state)
{
	char *out;
	size_t len;

	assert_int_equal(sl_base64_decode("aGVs\nbG8=", &out, &len), 0);
	assert_int_equal(len, 5);
	assert_string_equal(out, "hello");
	free(out);
	assert_int_equal(sl_base64_decode("aGVsbA", &out, &len), 0);
	assert_string_equal(out, "hell");
	free(out);
	assert_int_equal(sl_base64_decode("a=b", &out, &len), -SL_EINVAL);
	assert_int_equal(sl_base64_decode("a", &out, &len), -SL_EINVAL);
}

static int setup(void **state)
{
	const char *top = getenv("top_srcdir");
	char rel[1100];

	snprintf(rel, sizeof(rel), "%s/tests/data/kubeconfig", top && *top ? top : ".");
	if (realpath(rel, datadir) == NULL)
		return -1;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_kubeconfig.XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/config", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_context),
		cmocka_unit_test(test_cert_data_and_files),
		cmocka_unit_test(test_exec_plugin),
		cmocka_unit_test(test_exec_parse),
		cmocka_unit_test(test_in_cluster),
		cmocka_unit_test(test_kubeconfig_env_merge),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_base64),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
