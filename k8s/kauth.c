/* kauth.c - per-request credentials and TLS settings (see kauth.h). The
 * token file is re-read every reload_ms because projected service-account
 * tokens rotate (client-go re-reads every minute); an exec credential is
 * kept until its expirationTimestamp (minus a margin) or a 401. */
#include "k8s/kauth.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define TOKEN_CAP 65536
#define EXPIRY_MARGIN_S 10

struct sl_kauth {
	const struct sl_kubeconfig *kc;
	int64_t reload_ms, exec_timeout_ms;
	char *token;             /* current bearer token, or NULL */
	int64_t token_read_ms;   /* when the token file was last read */
	struct sl_kexec_cred *cred;
};

static int read_token_file(struct sl_kauth *a, int64_t now_ms, struct sl_err *err)
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

static int run_exec(struct sl_kauth *a, struct sl_err *err)
{
	struct sl_kexec_cred *c = NULL;
	int r = sl_kexec_run(a->kc, a->exec_timeout_ms, &c, err);

	if (r != 0)
		return r;
	sl_kexec_cred_free(a->cred);
	a->cred = c;
	return 1;
}

int sl_kauth_refresh(struct sl_kauth *a, int force, int64_t now_ms, int64_t wall,
		     struct sl_err *err)
{
	int r = 0;

	if (a->kc->exec != NULL &&
	    (force || a->cred == NULL ||
	     (a->cred->expires != 0 && wall >= a->cred->expires - EXPIRY_MARGIN_S)))
		return run_exec(a, err);
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

int sl_kauth_refreshable(const struct sl_kauth *a)
{
	return a->kc->exec != NULL || (a->kc->token_file != NULL && a->kc->token == NULL);
}

int sl_kauth_new(const struct sl_kubeconfig *kc, int64_t reload_ms, int64_t exec_timeout_ms,
		 int64_t now_ms, int64_t wall, struct sl_kauth **out, struct sl_err *err)
{
	struct sl_kauth *a = sl_xcalloc(1, sizeof(*a));
	int r;

	a->kc = kc;
	a->reload_ms = reload_ms;
	a->exec_timeout_ms = exec_timeout_ms;
	r = sl_kauth_refresh(a, 0, now_ms, wall, err);
	if (r < 0) {
		sl_kauth_free(a);
		return r;
	}
	*out = a;
	return 0;
}

void sl_kauth_free(struct sl_kauth *a)
{
	if (a == NULL)
		return;
	free(a->token);
	sl_kexec_cred_free(a->cred);
	free(a);
}

static void set_blob(CURL *e, CURLoption opt, const char *data, size_t len)
{
	struct curl_blob b = {(void *)data, len, CURL_BLOB_COPY};

	curl_easy_setopt(e, opt, &b);
}

void sl_kauth_apply(const struct sl_kauth *a, CURL *e, struct curl_slist **hdrs)
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
