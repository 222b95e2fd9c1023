/* kubeconfig.h - where the Kubernetes API server is and how to authenticate:
 * a kubeconfig file (or a $KUBECONFIG list) reduced to the one selected
 * context, or the in-cluster service-account configuration; plus exec
 * credential plugins (client.authentication.k8s.io/v1 and v1beta1). */
#ifndef SL_K8S_KUBECONFIG_H
#define SL_K8S_KUBECONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct json_object;

#define SL_KUBE_SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"

/* users[].user.exec. */
struct sl_k8s_exec {
	char *api_version;       /* client.authentication.k8s.io/v1 or v1beta1 */
	char *command;           /* resolved against the kubeconfig dir if it has a '/' */
	char **args;             /* NULL-terminated, never NULL */
	char **env;              /* "NAME=VALUE", NULL-terminated, never NULL */
	char *interactive_mode;  /* Never/IfAvailable/Always (NULL if absent) */
	char *install_hint;      /* NULL if absent */
	int provide_cluster_info;
};

/* A credential obtained from an exec plugin. */
struct sl_k8s_exec_cred {
	char *token;             /* NULL when the plugin returned a client cert */
	char *cert_pem, *key_pem;
	int64_t expires;         /* wall-clock seconds; 0 = until a 401 */
};

/* The selected context, flattened. Every file path is absolute (relative
 * paths were resolved against the directory of the file that named them);
 * *_data fields are decoded PEM bytes, NUL-terminated. Strings not given are
 * NULL. */
struct sl_kubeconfig {
	char *origin;            /* kubeconfig path, or "in-cluster" */
	char *context, *cluster_name, *user_name;
	char *server;            /* https://host:port, no trailing '/' */
	char *ns;                /* default namespace ("default" if absent) */
	char *ca_file;
	char *ca_data;
	size_t ca_len;
	int insecure;            /* insecure-skip-tls-verify: true */
	char *tls_server_name;
	char *proxy_url;
	char *cert_file, *key_file;
	char *cert_data, *key_data;
	size_t cert_len, key_len;
	char *token;
	char *token_file;
	struct sl_k8s_exec *exec;   /* NULL unless users[].user.exec */
};

struct sl_kubeconfig_opts {
	const char *path;        /* explicit kubeconfig; NULL: $KUBECONFIG, ~/.kube/config */
	const char *context;     /* NULL: current-context */
	int in_cluster;          /* 1: service account only */
	const char *sa_dir;      /* NULL: SL_KUBE_SA_DIR (tests override) */
};

/* Resolve the configuration. Order (client-go's): in_cluster if asked; else
 * opts->path; else every file of $KUBECONFIG (colon list, merged: the first
 * file defining a context/cluster/user name or current-context wins); else
 * ~/.kube/config if it exists; else in-cluster when KUBERNETES_SERVICE_HOST
 * is set. Errors name the file, line and key path, e.g.
 * "kc.yaml:7: clusters[name=c1].cluster: server: missing".
 * Caller frees *out with sl_kubeconfig_free(). */
int sl_kubeconfig_load(const struct sl_kubeconfig_opts *opts,
		       struct sl_kubeconfig **out, struct sl_err *err);
/* Service-account configuration from sa_dir (NULL: the standard one) and
 * KUBERNETES_SERVICE_HOST/PORT. */
int sl_kubeconfig_in_cluster(const char *sa_dir, struct sl_kubeconfig **out,
			     struct sl_err *err);
void sl_kubeconfig_free(struct sl_kubeconfig *kc);

/* Run the exec plugin (fork/exec, no shell) with the parent environment plus
 * exec->env and KUBERNETES_EXEC_INFO, stdin from /dev/null (interactive mode
 * is never offered: sluiced is a daemon), and parse its ExecCredential.
 * BLOCKS for at most timeout_ms, so the daemon does not use it: its REST
 * client runs the plugin through the event loop (k8s/kauth.c); this call
 * serves tests and tools. Caller frees *out with sl_k8s_exec_cred_free(). */
int sl_k8s_exec_run(const struct sl_kubeconfig *kc, int64_t timeout_ms,
		    struct sl_k8s_exec_cred **out, struct sl_err *err);
/* Parse an ExecCredential document (exposed for tests). */
int sl_k8s_exec_parse(const char *json, const char *api_version,
		      struct sl_k8s_exec_cred **out, struct sl_err *err);
void sl_k8s_exec_cred_free(struct sl_k8s_exec_cred *c);

/* Decode standard base64 (whitespace ignored). Caller frees *out (NUL-
 * terminated; *len excludes the NUL). -SL_EINVAL on bad input. */
int sl_base64_decode(const char *in, char **out, size_t *len);
/* o[key] when it is a string (borrowed), else NULL; o may be NULL. */
const char *sl_k8s_str(struct json_object *o, const char *key);
/* Read a whole small file (cap bytes at most). Caller frees. */
int sl_k8s_read_file(const char *path, size_t cap, char **out, size_t *len,
		     struct sl_err *err);

#endif
