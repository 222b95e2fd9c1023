/* kexec.c - exec credential plugins (client.authentication.k8s.io/v1,
 * v1beta1): build KUBERNETES_EXEC_INFO, run the command without a shell,
 * parse the ExecCredential it prints. sl_k8s_exec_spawn()/sl_k8s_exec_result() are
 * shared by the blocking sl_k8s_exec_run() (tools, tests) and the REST client's
 * asynchronous runner in kauth.c, which never blocks sluiced's loop. This
 * file stays loop-free so that linking it needs no event loop. */
#include "k8s/kubeconfig.h"
#include "k8s/kauth.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KEXEC_OUT_CAP SL_KEXEC_OUT_CAP
#define KEXEC_ERR_CAP SL_KEXEC_ERR_CAP

extern char **environ;

static char *b64enc(const char *in, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = sl_xmalloc((n + 2) / 3 * 4 + 1), *o = out;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)(unsigned char)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)(unsigned char)in[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)in[i + 2];
		*o++ = t[(v >> 18) & 63];
		*o++ = t[(v >> 12) & 63];
		*o++ = i + 1 < n ? t[(v >> 6) & 63] : '=';
		*o++ = i + 2 < n ? t[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

static char *exec_info(const struct sl_kubeconfig *kc)
{
	json_object *root = json_object_new_object(), *spec = json_object_new_object();
	char *s;

	json_object_object_add(root, "apiVersion", json_object_new_string(kc->exec->api_version));
	json_object_object_add(root, "kind", json_object_new_string("ExecCredential"));
	json_object_object_add(spec, "interactive", json_object_new_boolean(0));
	if (kc->exec->provide_cluster_info) {
		json_object *c = json_object_new_object();
		char *ca = NULL;
		size_t calen = 0;
		struct sl_err ignore = SL_ERR_INIT;
		json_object_object_add(c, "server", json_object_new_string(kc->server));
		if (kc->tls_server_name != NULL)
			json_object_object_add(c, "tls-server-name",
					       json_object_new_string(kc->tls_server_name));
		if (kc->insecure)
			json_object_object_add(c, "insecure-skip-tls-verify",
					       json_object_new_boolean(1));
		if (kc->ca_data != NULL)
			ca = b64enc(kc->ca_data, kc->ca_len);
		else if (kc->ca_file != NULL &&
			 sl_k8s_read_file(kc->ca_file, KEXEC_OUT_CAP, &ca, &calen, &ignore) == 0) {
			char *raw = ca;
			ca = b64enc(raw, calen);
			free(raw);
		}
		if (ca != NULL)
			json_object_object_add(c, "certificate-authority-data", json_object_new_string(ca));
		free(ca);
		json_object_object_add(spec, "cluster", c);
	}
	json_object_object_add(root, "spec", spec);
	s = sl_xstrdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return s;
}

/* Parent environment, minus names the plugin config overrides, plus them. */
static char **build_env(const struct sl_kubeconfig *kc)
{
	size_t n = sl_strv_len(environ), m = sl_strv_len(kc->exec->env), k = 0;
	char **env = sl_xcalloc(n + m + 2, sizeof(char *));

	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		int overridden = strncmp(environ[i], "KUBERNETES_EXEC_INFO=", 21) == 0;
		for (size_t j = 0; j < m && !overridden; j++)
			overridden = strncmp(environ[i], kc->exec->env[j], len + 1) == 0;
		if (!overridden)
			env[k++] = sl_xstrdup(environ[i]);
	}
	for (size_t j = 0; j < m; j++)
		env[k++] = sl_xstrdup(kc->exec->env[j]);
	{
		char *info = exec_info(kc);
		env[k++] = sl_xasprintf("KUBERNETES_EXEC_INFO=%s", info);
		free(info);
	}
	env[k] = NULL;
	return env;
}

static int spawn(const struct sl_kubeconfig *kc, int outfd, int errfd, pid_t *pid,
		 struct sl_err *err)
{
	posix_spawn_file_actions_t fa;
	size_t nargs = sl_strv_len(kc->exec->args);
	char **argv = sl_xcalloc(nargs + 2, sizeof(char *)), **env = build_env(kc);
	int rc;

	argv[0] = kc->exec->command;
	for (size_t i = 0; i < nargs; i++)
		argv[i + 1] = kc->exec->args[i];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outfd, 1);
	posix_spawn_file_actions_adddup2(&fa, errfd, 2);
	rc = posix_spawnp(pid, kc->exec->command, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	sl_strv_free(env);
	if (rc == 0)
		return 0;
	if (kc->exec->install_hint != NULL)
		return sl_err_set(err, SL_ECONFIG, "exec plugin \"%s\": %s\n%s", kc->exec->command,
				  strerror(rc), kc->exec->install_hint);
	return sl_err_set(err, SL_ECONFIG, "exec plugin \"%s\": %s", kc->exec->command,
			  strerror(rc));
}

/* Read both pipes until EOF or the deadline. 0, or -SL_EIO on timeout. */
static int collect(int fds[2], char *bufs[2], size_t caps[2], size_t lens[2],
		   int64_t timeout_ms)
{
	struct timespec t0, t;
	int open_n = 2;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (open_n > 0) {
		struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
		int64_t el;
		clock_gettime(CLOCK_MONOTONIC, &t);
		el = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (el >= timeout_ms)
			return -SL_EIO;
		if (poll(p, 2, (int)(timeout_ms - el)) < 0 && errno != EINTR)
			return -SL_EIO;
		for (int i = 0; i < 2; i++) {
			char tmp[4096];
			ssize_t k;
			if (fds[i] < 0 || p[i].revents == 0)
				continue;
			k = read(fds[i], tmp, sizeof(tmp));
			if (k < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (k <= 0) {
				close(fds[i]);
				fds[i] = -1;
				open_n--;
				continue;
			}
			/* Over the cap: keep draining so the child cannot block. */
			if (lens[i] + (size_t)k <= caps[i]) {
				memcpy(bufs[i] + lens[i], tmp, (size_t)k);
				lens[i] += (size_t)k;
			}
		}
	}
	return 0;
}

static int wait_child(pid_t pid, int killit)
{
	int st = 0;

	if (killit)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

int sl_k8s_exec_spawn(const struct sl_kubeconfig *kc, pid_t *pid, int *outfd, int *errfd,
		      struct sl_err *err)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, r;

	*outfd = *errfd = -1;
	if (kc->exec == NULL)
		return sl_err_set(err, SL_EINTERNAL, "no exec plugin configured");
	if (pipe2(po, O_CLOEXEC | O_NONBLOCK) != 0 || pipe2(pe, O_CLOEXEC | O_NONBLOCK) != 0) {
		r = sl_err_set(err, SL_EIO, "exec plugin: pipe: %s", strerror(errno));
		goto out;
	}
	/* The child's ends must block: a plugin need not expect EAGAIN. */
	fcntl(po[1], F_SETFL, 0);
	fcntl(pe[1], F_SETFL, 0);
	if ((r = spawn(kc, po[1], pe[1], pid, err)) != 0)
		goto out;
	*outfd = po[0];
	*errfd = pe[0];
	po[0] = pe[0] = -1;
out:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	return r;
}

int sl_k8s_exec_result(const struct sl_kubeconfig *kc, int64_t timeout_ms, int timed_out,
		       int status, const char *out, char *errtxt, struct sl_k8s_exec_cred **cred,
		       struct sl_err *err)
{
	int r;

	*cred = NULL;
	errtxt[strcspn(errtxt, "\n")] = '\0';
	if (timed_out)
		return sl_err_set(err, SL_EIO, "exec plugin \"%s\": no answer within %lld ms",
				  kc->exec->command, (long long)timeout_ms);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return sl_err_set(err, SL_EIO, "exec plugin \"%s\" failed (status %d)%s%s",
				  kc->exec->command,
				  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				  errtxt[0] ? ": " : "", errtxt);
	r = sl_k8s_exec_parse(out, kc->exec->api_version, cred, err);
	if (r != 0)
		sl_err_prefix(err, "exec plugin \"%s\"", kc->exec->command);
	return r;
}

int sl_k8s_exec_run(const struct sl_kubeconfig *kc, int64_t timeout_ms,
		    struct sl_k8s_exec_cred **out, struct sl_err *err)
{
	int fds[2] = {-1, -1}, st, r;
	char *bufs[2] = {sl_xmalloc(KEXEC_OUT_CAP + 1), sl_xmalloc(KEXEC_ERR_CAP + 1)};
	size_t caps[2] = {KEXEC_OUT_CAP, KEXEC_ERR_CAP}, lens[2] = {0, 0};
	pid_t pid;

	*out = NULL;
	if ((r = sl_k8s_exec_spawn(kc, &pid, &fds[0], &fds[1], err)) != 0)
		goto out;
	r = collect(fds, bufs, caps, lens, timeout_ms);
	st = wait_child(pid, r != 0);
	bufs[0][lens[0]] = bufs[1][lens[1]] = '\0';
	r = sl_k8s_exec_result(kc, timeout_ms, r != 0, st, bufs[0], bufs[1], out, err);
out:
	for (int i = 0; i < 2; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		free(bufs[i]);
	}
	return r;
}

const char *sl_k8s_str(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

int sl_k8s_parse_time(const char *s, int64_t *out)
{
	struct tm tm;
	const char *p;
	long off = 0;

	memset(&tm, 0, sizeof(tm));
	if ((p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return -SL_EINVAL;
	if (*p == '.')
		while (*++p >= '0' && *p <= '9')
			;
	if ((p[0] == '+' || p[0] == '-') && strlen(p) == 6 && p[3] == ':') {
		off = (strtol(p + 1, NULL, 10) * 60 + strtol(p + 4, NULL, 10)) * 60;
		off = p[0] == '-' ? -off : off;
	} else if (strcmp(p, "Z") != 0 && strcmp(p, "z") != 0) {
		return -SL_EINVAL;
	}
	*out = (int64_t)timegm(&tm) - off;
	return 0;
}

int sl_k8s_exec_parse(const char *json, const char *api_version, struct sl_k8s_exec_cred **out,
		      struct sl_err *err)
{
	json_object *root = json_tokener_parse(json), *status = NULL;
	struct sl_k8s_exec_cred *c = NULL;
	const char *v, *ts;
	int r = -SL_EPROTO;

	*out = NULL;
	if (root == NULL || !json_object_is_type(root, json_type_object)) {
		r = sl_err_set(err, SL_EPROTO, "output is not a JSON ExecCredential");
		goto out;
	}
	v = sl_k8s_str(root, "kind");
	if (v == NULL || strcmp(v, "ExecCredential") != 0) {
		r = sl_err_set(err, SL_EPROTO, "kind is \"%s\", not ExecCredential", v ? v : "");
		goto out;
	}
	v = sl_k8s_str(root, "apiVersion");
	if (api_version != NULL && (v == NULL || strcmp(v, api_version) != 0)) {
		r = sl_err_set(err, SL_EPROTO, "configured for %s, returned \"%s\"", api_version,
			       v ? v : "");
		goto out;
	}
	if (!json_object_object_get_ex(root, "status", &status) ||
	    !json_object_is_type(status, json_type_object)) {
		r = sl_err_set(err, SL_EPROTO, "status: missing");
		goto out;
	}
	c = sl_xcalloc(1, sizeof(*c));
	c->token = sl_xstrdup(sl_k8s_str(status, "token"));
	c->cert_pem = sl_xstrdup(sl_k8s_str(status, "clientCertificateData"));
	c->key_pem = sl_xstrdup(sl_k8s_str(status, "clientKeyData"));
	if (!(c->cert_pem && c->key_pem) && (c->cert_pem || c->key_pem)) {
		r = sl_err_set(err, SL_EPROTO, "status: clientCertificateData and clientKeyData "
			       "must be given together");
		goto out;
	}
	if (c->token == NULL && c->cert_pem == NULL) {
		r = sl_err_set(err, SL_EPROTO, "status: neither token nor clientCertificateData");
		goto out;
	}
	if ((ts = sl_k8s_str(status, "expirationTimestamp")) != NULL && sl_k8s_parse_time(ts, &c->expires) != 0) {
		r = sl_err_set(err, SL_EPROTO, "status.expirationTimestamp: \"%s\" is not RFC 3339", ts);
		goto out;
	}
	*out = c;
	c = NULL;
	r = 0;
out:
	sl_k8s_exec_cred_free(c);
	json_object_put(root);
	return r;
}

void sl_k8s_exec_cred_free(struct sl_k8s_exec_cred *c)
{
	if (c == NULL)
		return;
	free(c->token);
	free(c->cert_pem);
	free(c->key_pem);
	free(c);
}
