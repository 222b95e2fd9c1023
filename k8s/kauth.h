/* kauth.h - internal to k8s/: credentials and TLS settings applied to each
 * curl easy handle (CA, client certificate, bearer token from the kubeconfig,
 * a token file re-read periodically, or an exec plugin cached until expiry). */
#ifndef SL_K8S_KAUTH_H
#define SL_K8S_KAUTH_H

#include <curl/curl.h>
#include <stdint.h>
#include "err.h"
#include "k8s/kubeconfig.h"

struct sl_kauth;

/* kc is borrowed. Loads the token file / runs the exec plugin once. */
int sl_kauth_new(const struct sl_kubeconfig *kc, int64_t reload_ms, int64_t exec_timeout_ms,
		 int64_t now_ms, int64_t wall, struct sl_kauth **out, struct sl_err *err);
void sl_kauth_free(struct sl_kauth *a);

/* Make credentials current (re-read the token file after reload_ms, re-run
 * an expired exec credential). force: after a 401. Returns 1 when something
 * changed, 0 when nothing did, or -SL_E*. */
int sl_kauth_refresh(struct sl_kauth *a, int force, int64_t now_ms, int64_t wall,
		     struct sl_err *err);
/* Whether a 401 may be cured by refreshing (token file or exec plugin). */
int sl_kauth_refreshable(const struct sl_kauth *a);

/* Set TLS options on e and append the Authorization header to *hdrs. */
void sl_kauth_apply(const struct sl_kauth *a, CURL *e, struct curl_slist **hdrs);

#endif
