/* kauth.h - internal to k8s/: credentials and TLS settings applied to each
 * curl easy handle (CA, client certificate, bearer token from the kubeconfig,
 * a token file re-read periodically, or an exec plugin cached until expiry).
 * The exec plugin runs asynchronously on sluiced's loop: requests that need
 * a credential wait until it arrives, and the loop never blocks. */
#ifndef SL_K8S_KAUTH_H
#define SL_K8S_KAUTH_H

#include <curl/curl.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "k8s/kubeconfig.h"

struct sl_k8s_auth;
struct sl_loop;

/* sl_k8s_auth_refresh(): the exec plugin is running and no usable credential
 * exists yet: hold requests until the ready callback. */
#define SL_KAUTH_WAIT 2

/* An exec plugin run ended: rc 0 (a new credential) or -SL_E* with err. A
 * failed background refresh while the old credential is still valid is not
 * reported. Called from a loop callback; may free the sl_k8s_auth. */
typedef void (*sl_k8s_auth_ready_cb)(int rc, const struct sl_err *err, void *arg);

/* kc and loop are borrowed. Loads the token file, and starts the exec
 * plugin (without waiting for it: a plugin that cannot be started at all is
 * an error here). */
int sl_k8s_auth_new(struct sl_loop *loop, const struct sl_kubeconfig *kc, int64_t reload_ms,
		    int64_t exec_timeout_ms, sl_k8s_auth_ready_cb ready, void *ready_arg,
		    struct sl_k8s_auth **out, struct sl_err *err);
/* Kills a plugin still running. */
void sl_k8s_auth_free(struct sl_k8s_auth *a);

/* Make credentials current (re-read the token file after reload_ms, start
 * the exec plugin for an expiring credential). force: after a 401. Returns
 * 1 when something changed, 0 when nothing did, SL_KAUTH_WAIT, or -SL_E*. */
int sl_k8s_auth_refresh(struct sl_k8s_auth *a, int force, struct sl_err *err);
/* Whether a 401 may be cured by refreshing (token file or exec plugin). */
int sl_k8s_auth_refreshable(const struct sl_k8s_auth *a);

/* Set TLS options on e and append the Authorization header to *hdrs. */
void sl_k8s_auth_apply(const struct sl_k8s_auth *a, CURL *e, struct curl_slist **hdrs);

/* kexec.c: the parts of sl_k8s_exec_run() the asynchronous runner shares. */
#define SL_KEXEC_OUT_CAP (1u << 20)
#define SL_KEXEC_ERR_CAP 2048u
/* Start the plugin; *outfd and *errfd are the non-blocking, close-on-exec
 * read ends of its stdout and stderr (the caller closes them and reaps). */
int sl_k8s_exec_spawn(const struct sl_kubeconfig *kc, pid_t *pid, int *outfd, int *errfd,
		      struct sl_err *err);
/* Turn a finished run (timed out, or its wait status, stdout and stderr:
 * errtxt is cut at its first line) into *cred or an error. */
int sl_k8s_exec_result(const struct sl_kubeconfig *kc, int64_t timeout_ms, int timed_out,
		       int status, const char *out, char *errtxt, struct sl_k8s_exec_cred **cred,
		       struct sl_err *err);

/* A Kubernetes timestamp (RFC 3339, Z or a numeric offset; fractional
 * seconds ignored) as unix seconds; -SL_EINVAL when it is not one. */
int sl_k8s_parse_time(const char *s, int64_t *out);

#endif
