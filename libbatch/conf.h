/* conf.h - the daemon configuration: one multi-document YAML file, or a
 * directory of *.yaml files read in name order, holding Kubernetes-style
 * objects: exactly one sluice.io/v1alpha1 SluiceConfiguration (the daemon's
 * own settings) plus Kueue objects (ResourceFlavor, ClusterQueue, LocalQueue,
 * Cohort, WorkloadPriorityClass, Configuration) handed to kueue.c.
 *
 * Every error names "file:line: Kind \"name\": key.path: reason". */
#ifndef SL_CONF_H
#define SL_CONF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "err.h"

struct sl_conf;
struct sl_kueue;

#define SL_CONF_DEFAULT_SOCKET "/run/sluice/sluiced.sock"

/* Load and validate everything (settings, Kueue objects, cross references).
 * path: a file or a directory. Caller frees with sl_conf_free(). */
int sl_conf_load(const char *path, struct sl_conf **out, struct sl_err *err);
void sl_conf_free(struct sl_conf *c);

/* What a command needs from the config: where sluiced is and how to prove
 * who it is. Strings are malloc'd; sl_conf_peek_clear() frees them. */
struct sl_conf_peek {
	char *socket;       /* always set (paths resolved as sl_conf_load() does) */
	char *controller;   /* HOST:PORT, or NULL: no `controller:` */
	char *munge_socket; /* NULL: munge's default */
	int munge;          /* auth: munge */
	char *pbs_server;   /* `pbsServer:`, or NULL (the PBS commands' default) */
};
/* Only the SluiceConfiguration's settings; Kueue objects are not parsed,
 * so a command still finds the daemon while an admin edits queues. */
int sl_conf_peek(const char *path, struct sl_conf_peek *out, struct sl_err *err);
/* Its fast path (conf_peek.c): 1 with *out set when the file has the common
 * simple shape, 0 (and *out empty) when it must be parsed. */
int sl_conf_peek_fast(const char *path, struct sl_conf_peek *out);
void sl_conf_peek_clear(struct sl_conf_peek *p);
/* sl_conf_peek()'s socket alone. Caller frees *socket with free(). */
int sl_conf_peek_socket(const char *path, char **socket, struct sl_err *err);

/* Getters: borrowed, valid until sl_conf_free(). Paths are absolute. */
const char *sl_conf_path(const struct sl_conf *c);      /* as given to load */
const char *sl_conf_socket(const struct sl_conf *c);
const char *sl_conf_state_dir(const struct sl_conf *c);
const char *sl_conf_executor(const struct sl_conf *c);  /* "local", "kubernetes" */
const char *sl_conf_auth(const struct sl_conf *c);      /* "none", "munge" */
/* `listen:` HOST:PORT strings, NULL-terminated; NULL when there are none. */
const char *const *sl_conf_listen(const struct sl_conf *c);
const char *sl_conf_controller(const struct sl_conf *c); /* NULL: none */
const char *sl_conf_munge_socket(const struct sl_conf *c); /* NULL: munge's default */
/* durability: power -> 1 (fsync every commit), process -> 0. */
int sl_conf_fsync(const struct sl_conf *c);
const char *sl_conf_default_partition(const struct sl_conf *c);
const char *sl_conf_default_qos(const struct sl_conf *c);  /* "normal" unless set */
/* QOS and Account objects (limits.h); NULL when only peeking. */
struct sl_limits;
const struct sl_limits *sl_conf_limits(const struct sl_conf *c);
/* The kind: Partition object of a partition (its Slurm name or its
 * LocalQueue's), or NULL (partdef.h). */
struct sl_partdef;
const struct sl_partdef *sl_conf_partdef(const struct sl_conf *c, const char *partition);
int sl_conf_has_partdefs(const struct sl_conf *c);
const char *sl_conf_cluster_name(const struct sl_conf *c);
int sl_conf_kill_wait(const struct sl_conf *c);         /* seconds */
int64_t sl_conf_tmp_disk(const struct sl_conf *c);     /* MB, each local node's TmpDisk */
int sl_conf_min_job_age(const struct sl_conf *c);       /* seconds */
uint32_t sl_conf_max_array_size(const struct sl_conf *c); /* array task ids are below it */
/* killInvalidDepend: yes -> 1: a job whose dependency can never be met is
 * cancelled unless it asked otherwise (--kill-on-invalid-dep=no). */
int sl_conf_kill_invalid_depend(const struct sl_conf *c);

/* `pbsServer:`, the server part of PBS job ids; NULL: the short host name. */
const char *sl_conf_pbs_server(const struct sl_conf *c);
/* The mail program sluiced runs for --mail-type (Slurm's MailProg), as
 * `PROG -s SUBJECT USER`: an absolute path. */
const char *sl_conf_mail_prog(const struct sl_conf *c);
/* where PBS jobs' TMPDIRs are made (MOM's $tmpdir) */
const char *sl_conf_pbs_tmp_dir(const struct sl_conf *c);

/* Slurm's names of accounts, partitions and QOS keep their spelling for
 * users; Kubernetes names their namespace, LocalQueue and
 * WorkloadPriorityClass. One mapping, everywhere: lowercase, '_' and '.'
 * become '-'; the result must be a DNS label (1 to 63 of [a-z0-9-], a
 * letter or digit at both ends). "accre_gpu" -> "accre-gpu",
 * "TRAINING-CPU" -> "training-cpu". 0 with out set, or -1 (out then holds
 * what the name mapped to, cut to fit). The config refuses two accounts
 * that map to one namespace. */
#define SL_K8S_NAME_MAX 64
int sl_conf_k8s_name(const char *name, char out[SL_K8S_NAME_MAX]);

/* uid 0 always is; otherwise `user` must be listed in `operators`. */
int sl_conf_is_operator(const struct sl_conf *c, const char *user, uid_t uid);

/* The accounts `user` may charge, NULL-terminated, first = default: the
 * user's own entry, else the "*" entry, else NULL. Borrowed. Accounts are
 * stored lowercased, as Slurm's are. */
const char *const *sl_conf_accounts(const struct sl_conf *c, const char *user);
/* Entry i of the accounts map, in the config's order (Account objects'
 * users included): the user ("*": everyone else) in *user and its
 * accounts, first = default; NULL past the last. Borrowed. */
const char *const *sl_conf_accounts_at(const struct sl_conf *c, size_t i, const char **user);
/* `operators:`, NULL-terminated (root and the daemon's user, always
 * operators, are not listed). Borrowed. */
const char *const *sl_conf_operators(const struct sl_conf *c);
/* 1 when `account` is in sl_conf_accounts(c, user), else 0; case does not
 * matter (Slurm lowercases account names). */
int sl_conf_account_allowed(const struct sl_conf *c, const char *user,
			    const char *account);

/* The `kubernetes:` section (conf_kube.h), or NULL when there is none.
 * Borrowed. */
struct sl_kubeconf;
const struct sl_kubeconf *sl_conf_kubernetes(const struct sl_conf *c);

/* The `features:` map (features.h), or NULL when there is none. Borrowed. */
struct sl_features;
const struct sl_features *sl_conf_features(const struct sl_conf *c);

/* `pam: {service: NAME}`: the PAM service of the account check at submit
 * and of each local job's session, or NULL without PAM. Borrowed. */
const char *sl_conf_pam_service(const struct sl_conf *c);

/* `metrics: {listen: HOST:PORT}`: where sluiced serves Prometheus text at
 * /metrics, or NULL without metrics. Borrowed. */
const char *sl_conf_metrics_listen(const struct sl_conf *c);

/* The validated Kueue objects. Borrowed. */
const struct sl_kueue *sl_conf_kueue(const struct sl_conf *c);

/* For `scontrol show config`: every setting in declaration order, its value
 * as text (lists comma-separated; accounts as "user:acct,acct user2:..."),
 * and its one-line help. Stops early and returns fn's value if nonzero. */
typedef int (*sl_conf_show_fn)(const char *key, const char *value,
			       const char *help, void *arg);
int sl_conf_show(const struct sl_conf *c, sl_conf_show_fn fn, void *arg);

#endif
