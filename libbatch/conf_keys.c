/* conf_keys.c - the SluiceConfiguration document: the key table and one
 * parser per key type. The table is the single declaration of every
 * setting: its name, type, default and help feed the loader, the defaults
 * and `scontrol show config` alike. */
#include "conf_int.h"
#include "fsutil.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_kube.h"
#include "features.h"
#include "kueue.h"
#include "netaddr.h"
#include "xalloc.h"

enum key_type { K_PATH, K_ENUM, K_NAME, K_SLURM_NAME, K_INT, K_USERS, K_ACCOUNTS,
		K_SECTION, K_FEATURES, K_ADDR, K_ADDRS, K_MUNGE, K_PAM, K_HOST,
		K_METRICS, K_NODES };

struct key {
	const char *name;
	enum key_type type;
	size_t off;            /* of the field in struct sl_conf */
	const char *def;       /* default, as it would be written in the file */
	const char *choices;   /* K_ENUM: every value, ", "-separated */
	const char *supported; /* K_ENUM: the values Sluice implements; a value
	                          naming a K_SECTION key needs that section */
	int64_t min, max;      /* K_INT: range; K_PATH: max length */
	const char *help;
};

#define F(field) offsetof(struct sl_conf, field)
static const struct key keys[] = {
	{"socket", K_PATH, F(socket), SL_CONF_DEFAULT_SOCKET, NULL, NULL, 0,
	 (int64_t)SOCKET_MAX, "Unix socket sluiced listens on and commands connect to"},
	{"stateDir", K_PATH, F(state_dir), "/var/lib/sluice", NULL, NULL, 0, PATH_MAX - 1,
	 "directory for the job database, scripts and logs of sluiced"},
	{"executor", K_ENUM, F(executor), "local", "local, kubernetes", "local", 0, 0,
	 "where admitted jobs run: local processes or Kubernetes"},
	{"auth", K_ENUM, F(auth), "none", "none, munge", "none, munge", 0, 0,
	 "how commands prove who they are: the kernel's SO_PEERCRED (none), or also a "
	 "munge credential with each request (munge; needed by listen and controller)"},
	{"listen", K_ADDRS, F(listen), "", NULL, NULL, 0, 0,
	 "TCP addresses (HOST:PORT) sluiced also listens on, for login nodes; needs auth: munge"},
	{"controller", K_ADDR, F(controller), "", NULL, NULL, 0, 0,
	 "HOST:PORT of sluiced for the commands of a login node (TCP with munge)"},
	{"munge", K_MUNGE, F(munge_socket), "", NULL, NULL, 0, 0,
	 "munged's socket for sluiced and the commands (munge: {socket: PATH}); "
	 "empty: munge's default"},
	{"defaultPartition", K_SLURM_NAME, F(default_partition), "batch", NULL, NULL, 0, 0,
	 "partition for jobs submitted without -p (its LocalQueue: the name lowercased, "
	 "'_' and '.' as '-')"},
	{"defaultQOS", K_SLURM_NAME, F(default_qos), "normal", NULL, NULL, 0, 0,
	 "QOS of jobs submitted without --qos (Slurm's default, normal, need not be defined)"},
	{"clusterName", K_NAME, F(cluster_name), "sluice", NULL, NULL, 0, 0,
	 "cluster name shown by sacct and scontrol"},
	{"killWait", K_INT, F(kill_wait), "30", NULL, NULL, 0, 86400,
	 "seconds between SIGTERM and SIGKILL on cancel or time limit"},
	{"durability", K_ENUM, F(durability), "process", "process, power", "process, power",
	 0, 0, "what a committed job survives: a crash of sluiced (process) or also "
	 "of the machine (power: an fsync per commit, ~0.4 ms per submission)"},
	{"minJobAge", K_INT, F(min_job_age), "300", NULL, NULL, 0, 31536000,
	 "seconds a finished job stays visible in squeue"},
	{"maxArraySize", K_INT, F(max_array_size), "1001", NULL, NULL, 0, 4000001,
	 "job array task ids must be below this (Slurm's MaxArraySize); 0 disables arrays"},
	{"killInvalidDepend", K_ENUM, F(kill_invalid_depend), "no", "no, yes", "no, yes", 0, 0,
	 "cancel a job whose dependency can never be satisfied, unless it says otherwise with "
	 "--kill-on-invalid-dep (Slurm's DependencyParameters=kill_invalid_depend)"},
	{"tmpDisk", K_INT, F(tmp_disk), "0", NULL, NULL, 0, 1099511627776,
	 "MB of temporary disk each node of the local executor has for its jobs (Slurm's "
	 "TmpDisk): a job asking --tmp above it is refused, as by Slurm"},
	{"mpiDefault", K_ENUM, F(mpi_default), "none", "none, pmix, pmi2", "none, pmix, pmi2", 0,
	 0,
	 "srun's MPI plugin when neither --mpi nor SLURM_MPI_TYPE names one (Slurm's "
	 "MpiDefault): pmix serves PMIx, pmi2 PMI-1 and PMI-2, to the ranks of local steps"},
	{"operators", K_USERS, F(operators), "", NULL, NULL, 0, 0,
	 "users who may act on every job (root always may)"},
	{"accounts", K_ACCOUNTS, F(accounts), "", NULL, NULL, 0, 0,
	 "user -> accounts they may charge, first is the default; \"*\" is everyone "
	 "else. Slurm's spelling, lowercased as Slurm does; the namespace is the name "
	 "with '_' and '.' as '-' (two accounts may not map to one)"},
	{"features", K_FEATURES, F(features), "", NULL, NULL, 0, 0,
	 "Slurm feature (-C, --gres=gpu:TYPE) -> the node labels it selects; "
	 "restricts the ResourceFlavors a job may take"},
	{"kubernetes", K_SECTION, F(kube), "", NULL, NULL, 0, 0,
	 "the Kubernetes executor: API access and per-partition pod settings"},
	{"mailProg", K_PATH, F(mail_prog), "/usr/bin/mail", NULL, NULL, 0, PATH_MAX - 1,
	 "program sluiced runs for sbatch --mail-type (Slurm's MailProg), as "
	 "PROG -s SUBJECT USER; missing: logged once, no mail"},
	{"pam", K_PAM, F(pam_service), "", NULL, NULL, 0, 0,
	 "{service: NAME}: PAM account check at submit and a session around each "
	 "local job, as Slurm's UsePAM; empty: no PAM"},
	{"pbsTmpDir", K_PATH, F(pbs_tmp_dir), "/var/tmp", NULL, NULL, 0, PATH_MAX - 1,
	 "directory in which each PBS job's TMPDIR (pbs.N.server) is made and removed, "
	 "as MOM's $tmpdir"},
	{"pbsServer", K_HOST, F(pbs_server), "", NULL, NULL, 0, 0,
	 "the PBS server name in job ids (N.server) of qsub, qstat and PBS_JOBID; "
	 "empty: this host's short name"},
	{"metrics", K_METRICS, F(metrics_listen), "", NULL, NULL, 0, 0,
	 "{listen: HOST:PORT}: Prometheus metrics (Kueue's names, and Slurm-style job "
	 "counts) at http://HOST:PORT/metrics; empty: none"},
	{"nodes", K_NODES, F(kueue), "", NULL, NULL, 0, 0,
	 "the node inventory for topology-aware scheduling (Kueue TAS): a list of "
	 "{name, labels, allocatable, taints, usage}; on Kubernetes the API's Nodes"},
};
#undef F
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* Where a setting was written, for sl_yerr(). */
struct at {
	const char *file;
	int line;
	const char *path; /* "accounts.alice[1]" */
};

static int bad(struct sl_err *err, const struct at *at, int code, const char *fmt,
	       ...) __attribute__((format(printf, 4, 5)));
static int bad(struct sl_err *err, const struct at *at, int code, const char *fmt,
	       ...)
{
	char msg[SL_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sl_yerr(err, code, at->file, at->line, CONF_KIND, NULL, at->path, "%s",
		       msg);
}

/* ---- value checks ------------------------------------------------------ */

/* Kubernetes DNS label: namespaces (accounts) and LocalQueue names. */
static int dns_label_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '-'))
			return 0;
	return 1;
}

/* A Slurm name (account, partition) whose Kubernetes name (sl_conf_k8s_name)
 * is valid: letters, digits, '_', '.', '-'. */
static int slurm_name_ok(const char *s)
{
	char k[SL_K8S_NAME_MAX];
	size_t n = strlen(s);

	return n > 0 && n <= 63 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n &&
	       sl_conf_k8s_name(s, k) == 0;
}

/* POSIX portable user names (plus a trailing '$' for Samba machines). */
static int user_name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_' ||
		      s[i] == '-' || (s[i] == '$' && i == n - 1)))
			return 0;
	return 1;
}

static int want_string(const struct sl_ynode *n, const struct at *at,
		       struct sl_err *err)
{
	if (n->type != SL_Y_SCALAR)
		return bad(err, at, SL_ECONFIG, "must be a string");
	return 0;
}

/* Is `word` one of the ", "-separated words of `list`? */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	if (n == 0) /* strstr finds "" everywhere: it would never advance */
		return 0;
	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

/* ---- paths ------------------------------------------------------------- */

static char *path_resolve(const char *dir, const char *value)
{
	char *p = value[0] == '/' ? sl_xstrdup(value)
				  : sl_xasprintf("%s/%s", dir, value);

	sl_path_normalize(p);
	return p;
}

/* ---- setting parsers, one per key type --------------------------------- */

static const struct key *key_find(const char *name);

/* A value Sluice knows but does not implement fails now, unless it names a
 * section (executor: kubernetes): then the document must have that section. */
static int check_supported(struct sl_conf *c, const struct key *k, const char *v,
			   const struct at *at, struct sl_err *err)
{
	const struct key *sec;

	if (in_list(k->supported, v)) {
		if (c->needs_section == k)
			c->needs_section = NULL;
		return 0;
	}
	sec = key_find(v);
	if (sec == NULL || sec->type != K_SECTION)
		return sl_yerr(err, SL_EUNSUPP, at->file, at->line, CONF_KIND, NULL, NULL,
			       "%s \"%s\" is not supported by Sluice yet", k->name, v);
	c->needs_section = k;
	c->needs_line = at->line;
	return 0;
}

/* quoted: "30" in quotes is a string, not an integer (as in Kubernetes). */
static int set_scalar(struct sl_conf *c, const struct key *k, const char *v,
		      int quoted, const struct at *at, struct sl_err *err)
{
	char **sp = (char **)((char *)c + k->off);
	int64_t *ip = (int64_t *)((char *)c + k->off);
	struct sl_ynode tmp = {.type = SL_Y_SCALAR, .scalar = (char *)v,
			       .quoted = quoted};
	char *p;

	switch (k->type) {
	case K_PATH:
		if (*v == '\0')
			return bad(err, at, SL_ECONFIG, "must not be empty");
		p = path_resolve(c->dir, v);
		if ((int64_t)strlen(p) > k->max) {
			sl_yerr(err, SL_ECONFIG, at->file, at->line, CONF_KIND, NULL,
				at->path, "\"%s\" is longer than %lld bytes", p,
				(long long)k->max);
			free(p);
			return -SL_ECONFIG;
		}
		free(*sp);
		*sp = p;
		return 0;
	case K_ENUM:
		if (!in_list(k->choices, v))
			return sl_yerr(err, SL_ECONFIG, at->file, at->line, CONF_KIND,
				       NULL, at->path, "\"%s\" is not one of %s", v,
				       k->choices);
		if (check_supported(c, k, v, at, err) != 0)
			return -SL_EUNSUPP;
		break;
	case K_NAME:
		if (!dns_label_ok(v))
			return bad(err, at, SL_ECONFIG,
				   "\"%s\" is not a valid name (lowercase letters, digits "
				   "and '-', at most 63 characters)", v);
		break;
	case K_HOST:
		if (!sl_host_name_ok(v))
			return bad(err, at, SL_ECONFIG, "\"%s\" is not a valid host name", v);
		break;
	case K_SLURM_NAME:
		if (!slurm_name_ok(v))
			return bad(err, at, SL_ECONFIG,
				   "\"%s\" is not a valid name (letters, digits, '_', '.' and "
				   "'-', at most 63 characters, a letter or digit at both ends)", v);
		break;
	case K_ADDR: {
		struct sl_err e = SL_ERR_INIT;
		if (sl_hostport_split(v, NULL, NULL, &e) != 0)
			return bad(err, at, SL_ECONFIG, "%s", e.msg);
		break;
	}
	case K_INT:
		if (sl_yscalar_int64(&tmp, ip) != 0)
			return bad(err, at, SL_ECONFIG, "\"%s\" is not an integer", v);
		if (*ip < k->min || *ip > k->max)
			return sl_yerr(err, SL_ECONFIG, at->file, at->line, CONF_KIND,
				       NULL, at->path, "%s is out of range (%lld..%lld)",
				       v, (long long)k->min, (long long)k->max);
		return 0;
	default:
		return sl_yerr(err, SL_EINTERNAL, at->file, at->line, CONF_KIND, NULL,
			       at->path, "not a scalar key");
	}
	free(*sp);
	*sp = sl_xstrdup(v);
	return 0;
}

/* A list of names, each checked by ok(); "what" names the kind in errors. */
static int name_list(const struct sl_ynode *n, const struct at *at,
		     int (*ok)(const char *), const char *what, char ***out,
		     struct sl_err *err)
{
	char path[256], **v;
	size_t i;
	int r = 0;

	if (n->type != SL_Y_SEQ)
		return sl_yerr(err, SL_ECONFIG, at->file, n->line, CONF_KIND, NULL,
			       at->path, "must be a list of %s names", what);
	v = sl_xcalloc(n->n + 1, sizeof(*v));
	for (i = 0; i < n->n && r == 0; i++) {
		const struct sl_ynode *it = n->vals[i];

		snprintf(path, sizeof(path), "%s[%zu]", at->path, i);
		if (it->type != SL_Y_SCALAR || !ok(it->scalar))
			r = sl_yerr(err, SL_ECONFIG, at->file, it->line, CONF_KIND, NULL,
				    path, "\"%s\" is not a valid %s name",
				    it->type == SL_Y_SCALAR ? it->scalar : "(not a string)",
				    what);
		else
			v[i] = sl_xstrdup(it->scalar);
	}
	if (r != 0)
		sl_strv_free(v);
	else
		*out = v;
	return r;
}

static int star_or_user_ok(const char *s)
{
	return strcmp(s, "*") == 0 || user_name_ok(s);
}

/* Slurm stores account names lowercased (sacctmgr): so does the config. */
static void lowercase(char **v)
{
	for (; v != NULL && *v != NULL; v++)
		for (char *p = *v; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
}

/* Two accounts must not share a namespace: "m3562_g" and "m3562-g" would
 * charge one LocalQueue's namespace while squeue tells them apart. */
static int accounts_distinct(const struct sl_conf *c, const struct sl_ynode *n,
			     const struct at *at, struct sl_err *err)
{
	char ki[SL_K8S_NAME_MAX], kj[SL_K8S_NAME_MAX], path[256], other[256];

	for (size_t u = 0; u < c->naccounts; u++)
		for (size_t i = 0; c->accounts[u].list[i]; i++) {
			const char *a = c->accounts[u].list[i];
			(void)sl_conf_k8s_name(a, ki);
			for (size_t w = 0; w <= u; w++)
				for (size_t j = 0; c->accounts[w].list[j] && (w < u || j < i); j++) {
					const char *b = c->accounts[w].list[j];
					struct at sub;
					(void)sl_conf_k8s_name(b, kj);
					if (strcmp(ki, kj) != 0 || strcmp(a, b) == 0)
						continue;
					snprintf(path, sizeof(path), "%s.%s[%zu]", at->path,
						 c->accounts[u].user, i);
					snprintf(other, sizeof(other), "%s.%s[%zu]", at->path,
						 c->accounts[w].user, j);
					sub = (struct at){at->file, n->key_lines[u], path};
					return bad(err, &sub, SL_ECONFIG, "\"%s\" and \"%s\" (%s) both "
						   "map to namespace \"%s\": Slurm account names must "
						   "map to distinct Kubernetes names (lowercase, '_' and "
						   "'.' as '-')", a, b, other, ki);
				}
		}
	return 0;
}

static int set_accounts(struct sl_conf *c, const struct sl_ynode *n,
			const struct at *at, struct sl_err *err)
{
	char path[256];
	struct at sub;
	size_t i;
	int r;

	if (n->type != SL_Y_MAP)
		return bad(err, at, SL_ECONFIG,
			   "must map user names (or \"*\") to lists of accounts");
	c->accounts = sl_xcalloc(n->n + 1, sizeof(*c->accounts));
	for (i = 0; i < n->n; i++) {
		snprintf(path, sizeof(path), "%s.%s", at->path, n->keys[i]);
		sub = (struct at){at->file, n->key_lines[i], path};
		if (!star_or_user_ok(n->keys[i]))
			return bad(err, &sub, SL_ECONFIG, "\"%s\" is not a valid user name",
				   n->keys[i]);
		if (n->vals[i]->type == SL_Y_SEQ && n->vals[i]->n == 0)
			return bad(err, &sub, SL_ECONFIG, "must list at least one account");
		c->accounts[c->naccounts].user = sl_xstrdup(n->keys[i]);
		r = name_list(n->vals[i], &sub, slurm_name_ok, "account",
			      &c->accounts[c->naccounts].list, err);
		c->naccounts++;
		if (r != 0)
			return r;
		lowercase(c->accounts[c->naccounts - 1].list);
	}
	return accounts_distinct(c, n, at, err);
}

/* listen: a list of HOST:PORT. */
static int set_addrs(struct sl_conf *c, const struct sl_ynode *n, const struct at *at,
		     struct sl_err *err)
{
	char path[256];
	size_t i;
	int r = 0;

	if (n->type != SL_Y_SEQ)
		return bad(err, at, SL_ECONFIG, "must be a list of HOST:PORT");
	sl_strv_free(c->listen);
	c->listen = sl_xcalloc(n->n + 1, sizeof(*c->listen));
	for (i = 0; i < n->n && r == 0; i++) {
		struct sl_err e = SL_ERR_INIT;
		struct at sub = {at->file, n->vals[i]->line, path};

		snprintf(path, sizeof(path), "%s[%zu]", at->path, i);
		if ((r = want_string(n->vals[i], &sub, err)) != 0)
			break;
		if (sl_hostport_split(n->vals[i]->scalar, NULL, NULL, &e) != 0)
			r = bad(err, &sub, SL_ECONFIG, "%s", e.msg);
		else
			c->listen[i] = sl_xstrdup(n->vals[i]->scalar);
	}
	return r;
}

/* munge: {socket: PATH}, Slurm's AuthInfo=socket=. */
static int set_munge(struct sl_conf *c, const struct sl_ynode *n, const struct at *at,
		     struct sl_err *err)
{
	const struct key sock = {"munge.socket", K_PATH, offsetof(struct sl_conf, munge_socket),
				 "", NULL, NULL, 0, (int64_t)SOCKET_MAX, ""};
	char path[256];
	size_t i;
	int r = 0;

	if (n->type != SL_Y_MAP)
		return bad(err, at, SL_ECONFIG, "must be a map (socket: PATH)");
	for (i = 0; i < n->n && r == 0; i++) {
		struct at sub = {at->file, n->key_lines[i], path};
		snprintf(path, sizeof(path), "%s.%s", at->path, n->keys[i]);
		if (strcmp(n->keys[i], "socket") != 0)
			r = bad(err, &sub, SL_ECONFIG, "unknown key");
		else if ((r = want_string(n->vals[i], &sub, err)) == 0)
			r = set_scalar(c, &sock, n->vals[i]->scalar, 0, &sub, err);
	}
	return r;
}

/* pam: {service: NAME}. NAME is a file of /etc/pam.d: no '/', no leading '.'. */
static int set_pam(struct sl_conf *c, const struct sl_ynode *n, const struct at *at,
		   struct sl_err *err)
{
	const struct sl_ynode *v = n->n == 1 ? sl_ymap_get(n, "service") : NULL;
	const char *s = v == NULL ? "" : v->type == SL_Y_SCALAR ? v->scalar : "(not a string)";
	size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");
	struct at sub = {at->file, v ? v->line : at->line, "pam.service"};

	if (v == NULL)
		return bad(err, at, SL_ECONFIG, "must be {service: NAME}");
	if (s[0] == '\0' || s[0] == '.' || s[len] != '\0' || len > 64)
		return bad(err, &sub, SL_ECONFIG, "\"%s\" is not a PAM service name (at most "
			   "64 characters [A-Za-z0-9._-], not starting with '.')", s);
	free(c->pam_service);
	c->pam_service = sl_xstrdup(s);
	return 0;
}

/* metrics: {listen: HOST:PORT}. */
static int set_metrics(struct sl_conf *c, const struct sl_ynode *n, const struct at *at,
		       struct sl_err *err)
{
	const struct sl_ynode *v = n->type == SL_Y_MAP && n->n == 1 ? sl_ymap_get(n, "listen") : NULL;
	struct at sub = {at->file, v ? v->line : at->line, "metrics.listen"};
	struct sl_err e = SL_ERR_INIT;
	int r;

	if (v == NULL)
		return bad(err, at, SL_ECONFIG, "must be {listen: HOST:PORT}");
	if ((r = want_string(v, &sub, err)) != 0)
		return r;
	if (sl_hostport_split(v->scalar, NULL, NULL, &e) != 0)
		return bad(err, &sub, SL_ECONFIG, "%s", e.msg);
	free(c->metrics_listen);
	c->metrics_listen = sl_xstrdup(v->scalar);
	return 0;
}

static int set_key(struct sl_conf *c, const struct key *k, const struct sl_ynode *n,
		   const struct at *at, struct sl_err *err)
{
	int r;

	if (sl_yscalar_is_null(n))
		return 0; /* "key:" with no value keeps the default, as in Kubernetes */
	switch (k->type) {
	case K_USERS:
		sl_strv_free(c->operators);
		c->operators = NULL;
		return name_list(n, at, user_name_ok, "user", &c->operators, err);
	case K_ACCOUNTS:
		return set_accounts(c, n, at, err);
	case K_SECTION:
		sl_kubeconf_free(c->kube);
		c->kube = NULL;
		return sl_kubeconf_parse(n, at->file, c->dir, &c->kube, err);
	case K_FEATURES:
		sl_features_free(c->features);
		c->features = NULL;
		return sl_features_parse(n, at->file, &c->features, err);
	case K_ADDRS:
		return set_addrs(c, n, at, err);
	case K_MUNGE:
		return set_munge(c, n, at, err);
	case K_PAM:
		return set_pam(c, n, at, err);
	case K_METRICS:
		return set_metrics(c, n, at, err);
	case K_NODES: /* only the daemon's read keeps the Kueue model */
		return c->kueue ? sl_kueue_add_nodes(c->kueue, at->file, n, err) : 0;
	default:
		if ((r = want_string(n, at, err)) != 0)
			return r;
		return set_scalar(c, k, n->scalar, n->quoted, at, err);
	}
}

void sl_conf_keys_defaults(struct sl_conf *c)
{
	struct sl_err ignore = SL_ERR_INIT;
	struct at at = {"(defaults)", 0, NULL};
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].def[0] != '\0')
			set_scalar(c, &keys[i], keys[i].def, 0, &at, &ignore);
}


/* ---- the document ------------------------------------------------------ */

static const struct key *key_find(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* Over TCP the kernel vouches for no one: only a munge credential can. */
static int check_tcp(const struct sl_conf *c, const char *file, const struct sl_ynode *doc,
		     struct sl_err *err)
{
	const char *tcp = c->listen && c->listen[0] ? "listen" : c->controller ? "controller" : NULL;

	if (tcp == NULL || strcmp(c->auth, "munge") == 0)
		return 0;
	return sl_yerr(err, SL_ECONFIG, file, sl_ymap_key_line(doc, tcp), CONF_KIND, NULL, tcp,
		       "needs auth: munge (over TCP only a munge credential says who asks)");
}

int sl_conf_keys_load(struct sl_conf *c, const char *file, const struct sl_ynode *doc,
		      struct sl_err *err)
{
	const struct key *k;
	struct at at;
	size_t i;
	int r;

	if (c->settings_file != NULL)
		return sl_yerr(err, SL_ECONFIG, file, doc->line, CONF_KIND, NULL, NULL,
			       "a second one (the first is at %s:%d); there must be "
			       "exactly one", c->settings_file, c->settings_line);
	c->settings_file = file;
	c->settings_line = doc->line;
	for (i = 0; i < doc->n; i++) {
		const char *name = doc->keys[i];

		at = (struct at){file, doc->key_lines[i], name};
		if (strcmp(name, "apiVersion") == 0 || strcmp(name, "kind") == 0 ||
		    strcmp(name, "metadata") == 0)
			continue;
		if ((k = key_find(name)) == NULL)
			return bad(err, &at, SL_ECONFIG, "unknown key");
		if ((r = set_key(c, k, doc->vals[i], &at, err)) != 0)
			return r;
	}
	if (c->needs_section != NULL && c->kube == NULL)
		return sl_yerr(err, SL_EUNSUPP, file, c->needs_line, CONF_KIND, NULL, NULL,
			       "%s \"%s\" is not supported by Sluice yet",
			       c->needs_section->name,
			       *(char *const *)((const char *)c + c->needs_section->off));
	return check_tcp(c, file, doc, err);
}

/* ---- show config ------------------------------------------------------- */

static char *join(char *const *v, const char *sep)
{
	char *s = sl_xstrdup(""), *t;
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++) {
		t = sl_xasprintf("%s%s%s", s, i ? sep : "", v[i]);
		free(s);
		s = t;
	}
	return s;
}

static char *value_text(const struct sl_conf *c, const struct key *k)
{
	const char *base = (const char *)c + k->off;
	char *s, *t, *list;
	size_t i;

	switch (k->type) {
	case K_INT:
		return sl_xasprintf("%lld", (long long)*(const int64_t *)base);
	case K_USERS:
	case K_ADDRS:
		return join(*(char **const *)base, ",");
	case K_FEATURES:
		return sl_features_text(c->features);
	case K_NODES:
		s = sl_xstrdup("");
		for (i = 0; c->kueue && i < c->kueue->nnodes; i++) {
			t = sl_xasprintf("%s%s%s", s, i ? "," : "", c->kueue->nodes[i].name);
			free(s);
			s = t;
		}
		return s;
	case K_ACCOUNTS:
		s = sl_xstrdup("");
		for (i = 0; i < c->naccounts; i++) {
			list = join(c->accounts[i].list, ",");
			t = sl_xasprintf("%s%s%s:%s", s, i ? " " : "",
					 c->accounts[i].user, list);
			free(list);
			free(s);
			s = t;
		}
		return s;
	default: /* unset controller and munge socket: "" */
		return sl_xstrdup(*(char *const *)base ? *(char *const *)base : "");
	}
}

int sl_conf_show(const struct sl_conf *c, sl_conf_show_fn fn, void *arg)
{
	size_t i;
	int r = 0;

	for (i = 0; i < NKEYS && r == 0; i++) {
		char *v;

		if (keys[i].type == K_SECTION) {
			r = sl_kubeconf_show(c->kube, fn, arg);
			continue;
		}
		v = value_text(c, &keys[i]);

		r = fn(keys[i].name, v, keys[i].help, arg);
		free(v);
	}
	return r;
}
