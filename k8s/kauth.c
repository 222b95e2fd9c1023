/* kauth.c - per-request credentials and TLS settings (see kauth.h). The
 * token file is re-read every reload_ms because projected service-account
 * tokens rotate (client-go re-reads every minute); an exec credential is
 * kept until its expirationTimestamp (minus a margin) or a 401.
 *
 * The exec plugin runs as a child whose stdout/stderr pipes are watched by
 * the loop, bounded by a timer that kills it; its exit is noticed with a
 * WNOHANG poll once both pipes are closed (no SIGCHLD handler is involved,
 * and nothing else in sluiced reaps children it did not start). While it
 * runs, the old credential is used as long as it has not expired and was
 * not rejected; otherwise requests wait (SL_KAUTH_WAIT) for the ready cb. */
#include "k8s/kauth.h"
#include "loop.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOKEN_CAP 65536
#define EXPIRY_MARGIN_S 10
#define REAP_POLL_MS 10
#define BG_RETRY_MS 1000

struct krun {
	struct sl_k8s_auth *a;
	pid_t pid;
	int fds[2];              /* stdout, stderr read ends; -1 once closed */
	char *buf[2];
	size_t len[2];
	uint64_t timeout_timer, reap_timer;
	int timed_out;
};

struct sl_k8s_auth {
	struct sl_loop *loop;
	const struct sl_kubeconfig *kc;
	int64_t reload_ms, exec_timeout_ms;
	char *token;             /* current bearer token, or NULL */
	int64_t token_read_ms;   /* when the token file was last read */
	struct sl_k8s_exec_cred *cred;
	int stale;               /* cred was rejected (401): wait for a new one */
	int64_t next_try_ms;     /* after a failed background refresh */
	struct krun *run;        /* the plugin in flight, or NULL */
	sl_k8s_auth_ready_cb ready;
	void *ready_arg;
};

static int read_token_file(struct sl_k8s_auth *a, int64_t now_ms, struct sl_err *err)
{
	char *t = NULL;
	size_t n;
	int r = sl_k8s_read_file(a->kc->token_file, TOKEN_CAP, &t, &n, err);

	if (r != 0)
		return r;
	while (n > 0 && strchr(" \t\r\n", t[n - 1]) != NULL)
		t[--n] = '\0';
	a->token_read_ms = now_ms;
	if (a->token != NULL && strcmp(a->token, t) == 0) {
		free(t);
		return 0;
	}
	free(a->token);
	a->token = t;
	return 1;
}

/* ---- the asynchronous exec plugin run ---------------------------------- */

/* No credential a request could use right now. */
static int cred_unusable(const struct sl_k8s_auth *a)
{
	return a->cred == NULL || a->stale ||
	       (a->cred->expires != 0 && sl_loop_wall(a->loop) >= a->cred->expires);
}

static void run_close_fd(struct krun *k, int i)
{
	if (k->fds[i] < 0)
		return;
	sl_loop_del_fd(k->a->loop, k->fds[i]);
	close(k->fds[i]);
	k->fds[i] = -1;
}

static void run_free(struct krun *k)
{
	for (int i = 0; i < 2; i++) {
		run_close_fd(k, i);
		free(k->buf[i]);
	}
	if (k->timeout_timer != 0)
		sl_loop_del_timer(k->a->loop, k->timeout_timer);
	if (k->reap_timer != 0)
		sl_loop_del_timer(k->a->loop, k->reap_timer);
	free(k);
}

/* Last step of a run: the callback may free a, so nothing touches it after. */
static void run_end(struct krun *k, int status)
{
	struct sl_k8s_auth *a = k->a;
	struct sl_k8s_exec_cred *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	int r;

	k->buf[0][k->len[0]] = k->buf[1][k->len[1]] = '\0';
	r = sl_k8s_exec_result(a->kc, a->exec_timeout_ms, k->timed_out, status, k->buf[0],
			       k->buf[1], &c, &err);
	a->run = NULL;
	run_free(k);
	if (r == 0) {
		sl_k8s_exec_cred_free(a->cred);
		a->cred = c;
		a->stale = 0;
	} else if (!cred_unusable(a)) {
		a->next_try_ms = sl_loop_now_ms(a->loop) + BG_RETRY_MS;
		return; /* the old credential still serves; try again later */
	}
	if (a->ready != NULL)
		a->ready(r, &err, a->ready_arg);
}

static void on_reap(struct sl_loop *l, uint64_t id, void *arg);

static void try_reap(struct krun *k)
{
	int st = 0;
	pid_t w = waitpid(k->pid, &st, WNOHANG);

	if (w == 0) {
		k->reap_timer = sl_loop_add_timer(k->a->loop, REAP_POLL_MS, on_reap, k);
		return;
	}
	if (w < 0)
		st = 127 << 8; /* cannot happen: we are its only reaper */
	run_end(k, st);
}

static void on_reap(struct sl_loop *l, uint64_t id, void *arg)
{
	struct krun *k = arg;

	k->reap_timer = 0;
	try_reap(k);
}

static void on_run_timeout(struct sl_loop *l, uint64_t id, void *arg)
{
	struct krun *k = arg;

	k->timeout_timer = 0;
	k->timed_out = 1;
	kill(k->pid, SIGKILL);
	/* A grandchild may hold the pipes open: stop reading now. */
	run_close_fd(k, 0);
	run_close_fd(k, 1);
	if (k->reap_timer == 0)
		try_reap(k);
}

static void on_run_fd(struct sl_loop *l, int fd, int events, void *arg)
{
	struct krun *k = arg;
	int i = fd == k->fds[0] ? 0 : 1;
	size_t cap = i == 0 ? SL_KEXEC_OUT_CAP : SL_KEXEC_ERR_CAP;
	char tmp[4096];
	ssize_t n;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		/* Over the cap: keep draining so the child cannot block. */
		if (k->len[i] + (size_t)n <= cap) {
			memcpy(k->buf[i] + k->len[i], tmp, (size_t)n);
			k->len[i] += (size_t)n;
		}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	run_close_fd(k, i);
	if (k->fds[0] < 0 && k->fds[1] < 0)
		try_reap(k);
}

static int run_start(struct sl_k8s_auth *a, struct sl_err *err)
{
	struct krun *k = sl_xcalloc(1, sizeof(*k));
	int r = sl_k8s_exec_spawn(a->kc, &k->pid, &k->fds[0], &k->fds[1], err);

	if (r != 0) {
		free(k);
		return r;
	}
	k->a = a;
	k->buf[0] = sl_xmalloc(SL_KEXEC_OUT_CAP + 1);
	k->buf[1] = sl_xmalloc(SL_KEXEC_ERR_CAP + 1);
	for (int i = 0; i < 2; i++)
		sl_loop_add_fd(a->loop, k->fds[i], SL_EV_READ, on_run_fd, k);
	k->timeout_timer = sl_loop_add_timer(a->loop, a->exec_timeout_ms, on_run_timeout, k);
	a->run = k;
	return 0;
}

/* ---- refresh ------------------------------------------------------------ */

static int refresh_exec(struct sl_k8s_auth *a, int force, struct sl_err *err)
{
	int r;

	if (force)
		a->stale = 1;
	if (a->run == NULL &&
	    (cred_unusable(a) ||
	     (a->cred->expires != 0 &&
	      sl_loop_wall(a->loop) >= a->cred->expires - EXPIRY_MARGIN_S &&
	      sl_loop_now_ms(a->loop) >= a->next_try_ms)) &&
	    (r = run_start(a, err)) != 0)
		return r;
	return a->run != NULL && cred_unusable(a) ? SL_KAUTH_WAIT : 0;
}

int sl_k8s_auth_refresh(struct sl_k8s_auth *a, int force, struct sl_err *err)
{
	int64_t now_ms = sl_loop_now_ms(a->loop);
	int r = 0;

	if (a->kc->exec != NULL)
		return refresh_exec(a, force, err);
	if (a->kc->token_file != NULL && a->kc->token == NULL &&
	    (force || a->token == NULL || now_ms - a->token_read_ms >= a->reload_ms)) {
		struct sl_err e2 = SL_ERR_INIT;
		r = read_token_file(a, now_ms, a->token == NULL ? err : &e2);
		/* A rotating file may be briefly missing: keep the old token. */
		if (r < 0 && a->token != NULL)
			r = 0;
	}
	return r;
}

int sl_k8s_auth_refreshable(const struct sl_k8s_auth *a)
{
	return a->kc->exec != NULL || (a->kc->token_file != NULL && a->kc->token == NULL);
}

int sl_k8s_auth_new(struct sl_loop *loop, const struct sl_kubeconfig *kc, int64_t reload_ms,
		    int64_t exec_timeout_ms, sl_k8s_auth_ready_cb ready, void *ready_arg,
		    struct sl_k8s_auth **out, struct sl_err *err)
{
	struct sl_k8s_auth *a = sl_xcalloc(1, sizeof(*a));
	int r;

	a->loop = loop;
	a->kc = kc;
	a->reload_ms = reload_ms;
	a->exec_timeout_ms = exec_timeout_ms;
	a->ready = ready;
	a->ready_arg = ready_arg;
	r = sl_k8s_auth_refresh(a, 0, err);
	if (r < 0) {
		sl_k8s_auth_free(a);
		return r;
	}
	*out = a;
	return 0;
}

void sl_k8s_auth_free(struct sl_k8s_auth *a)
{
	if (a == NULL)
		return;
	if (a->run != NULL) {
		/* Teardown only: a SIGKILLed child is reaped at once. */
		kill(a->run->pid, SIGKILL);
		while (waitpid(a->run->pid, NULL, 0) < 0 && errno == EINTR)
			;
		run_free(a->run);
	}
	free(a->token);
	sl_k8s_exec_cred_free(a->cred);
	free(a);
}

static void set_blob(CURL *e, CURLoption opt, const char *data, size_t len)
{
	struct curl_blob b = {(void *)data, len, CURL_BLOB_COPY};

	curl_easy_setopt(e, opt, &b);
}

void sl_k8s_auth_apply(const struct sl_k8s_auth *a, CURL *e, struct curl_slist **hdrs)
{
	const struct sl_kubeconfig *kc = a->kc;
	const char *token = kc->token != NULL ? kc->token : a->token;

	if (kc->ca_data != NULL)
		set_blob(e, CURLOPT_CAINFO_BLOB, kc->ca_data, kc->ca_len);
	else if (kc->ca_file != NULL)
		curl_easy_setopt(e, CURLOPT_CAINFO, kc->ca_file);
	if (kc->insecure) {
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
	curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
	if (a->cred != NULL && a->cred->cert_pem != NULL) {
		set_blob(e, CURLOPT_SSLCERT_BLOB, a->cred->cert_pem, strlen(a->cred->cert_pem));
		set_blob(e, CURLOPT_SSLKEY_BLOB, a->cred->key_pem, strlen(a->cred->key_pem));
	} else {
		if (kc->cert_data != NULL)
			set_blob(e, CURLOPT_SSLCERT_BLOB, kc->cert_data, kc->cert_len);
		else if (kc->cert_file != NULL)
			curl_easy_setopt(e, CURLOPT_SSLCERT, kc->cert_file);
		if (kc->key_data != NULL)
			set_blob(e, CURLOPT_SSLKEY_BLOB, kc->key_data, kc->key_len);
		else if (kc->key_file != NULL)
			curl_easy_setopt(e, CURLOPT_SSLKEY, kc->key_file);
	}
	if (a->cred != NULL && a->cred->token != NULL)
		token = a->cred->token;
	if (token != NULL && token[0] != '\0') {
		char *h = sl_xasprintf("Authorization: Bearer %s", token);
		*hdrs = curl_slist_append(*hdrs, h);
		free(h);
	}
	if (kc->proxy_url != NULL)
		curl_easy_setopt(e, CURLOPT_PROXY, kc->proxy_url);
}
