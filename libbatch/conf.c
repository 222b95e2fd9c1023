/* conf.c - load the Sluice configuration: collect the YAML documents of a
 * file or a directory, route each by apiVersion/kind, parse the one
 * SluiceConfiguration through the key table below, and hand Kueue objects to
 * kueue.c. The key table is the single declaration of every setting: its
 * name, type, default and help feed the loader, the defaults and
 * `scontrol show config` alike. */
#include "conf.h"
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "conf_kube.h"
#include "features.h"
#include "kueue.h"
#include "xalloc.h"
#include "yaml.h"

#define CONF_API "sluice.io/v1alpha1"
#define CONF_KIND "SluiceConfiguration"
#define CONF_MAX_FILES 1024 /* a config directory, not a data set */
#define SOCKET_MAX (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

struct acct_entry {
	char *user;  /* a user name, or "*" for everyone else */
	char **list; /* NULL-terminated, never empty */
};

struct sl_conf {
	char *path;
	char *dir;  /* absolute: relative paths in the config resolve from here */
	/* settings, filled through the key table */
	char *socket, *state_dir, *executor, *auth, *default_partition, *cluster_name;
	char *durability;
	int64_t kill_wait, min_job_age;
	char **operators;
	struct acct_entry *accounts;
	size_t naccounts;
	struct sl_kubeconf *kube; /* NULL: no kubernetes: section */
	struct sl_features *features; /* NULL: no features: map */
	/* An enum value that names a section ("executor: kubernetes") is only
	 * supported once that section is there; checked after the document. */
	const struct key *needs_section;
	int needs_line;
	/* where the SluiceConfiguration was, to report a second one */
	const char *settings_file;
	int settings_line;
	struct sl_ydocs **files; /* kept alive: kueue.c may borrow nodes and names */
	size_t nfiles;
	struct sl_kueue *kueue;  /* NULL when only peeking */
};

enum key_type { K_PATH, K_ENUM, K_NAME, K_INT, K_USERS, K_ACCOUNTS, K_SECTION,
		K_FEATURES };

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
	{"socket", K_PATH, F(socket), "/run/sluice/sluiced.sock", NULL, NULL, 0,
	 (int64_t)SOCKET_MAX, "Unix socket sluiced listens on and commands connect to"},
	{"stateDir", K_PATH, F(state_dir), "/var/lib/sluice", NULL, NULL, 0, PATH_MAX - 1,
	 "directory for the job database, scripts and logs of sluiced"},
	{"executor", K_ENUM, F(executor), "local", "local, kubernetes", "local", 0, 0,
	 "where admitted jobs run: local processes or Kubernetes"},
	{"auth", K_ENUM, F(auth), "none", "none, munge", "none", 0, 0,
	 "how commands prove identity beyond SO_PEERCRED"},
	{"defaultPartition", K_NAME, F(default_partition), "batch", NULL, NULL, 0, 0,
	 "partition (LocalQueue) for jobs submitted without -p"},
	{"clusterName", K_NAME, F(cluster_name), "sluice", NULL, NULL, 0, 0,
	 "cluster name shown by sacct and scontrol"},
	{"killWait", K_INT, F(kill_wait), "30", NULL, NULL, 0, 86400,
	 "seconds between SIGTERM and SIGKILL on cancel or time limit"},
	{"durability", K_ENUM, F(durability), "process", "process, power", "process, power",
	 0, 0, "what a committed job survives: a crash of sluiced (process) or also "
	 "of the machine (power: an fsync per commit, ~0.4 ms per submission)"},
	{"minJobAge", K_INT, F(min_job_age), "300", NULL, NULL, 0, 31536000,
	 "seconds a finished job stays visible in squeue"},
	{"operators", K_USERS, F(operators), "", NULL, NULL, 0, 0,
	 "users who may act on every job (root always may)"},
	{"accounts", K_ACCOUNTS, F(accounts), "", NULL, NULL, 0, 0,
	 "user -> accounts (namespaces) they may charge, first is the default; "
	 "\"*\" is everyone else"},
	{"features", K_FEATURES, F(features), "", NULL, NULL, 0, 0,
	 "Slurm feature (-C, --gres=gpu:TYPE) -> the node labels it selects; "
	 "restricts the ResourceFlavors a job may take"},
	{"kubernetes", K_SECTION, F(kube), "", NULL, NULL, 0, 0,
	 "the Kubernetes executor: API access and per-partition pod settings"},
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
		r = name_list(n->vals[i], &sub, dns_label_ok, "account",
			      &c->accounts[c->naccounts].list, err);
		c->naccounts++;
		if (r != 0)
			return r;
	}
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
	default:
		if ((r = want_string(n, at, err)) != 0)
			return r;
		return set_scalar(c, k, n->scalar, n->quoted, at, err);
	}
}

static void set_defaults(struct sl_conf *c)
{
	struct sl_err ignore = SL_ERR_INIT;
	struct at at = {"(defaults)", 0, NULL};
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].def[0] != '\0')
			set_scalar(c, &keys[i], keys[i].def, 0, &at, &ignore);
}

/* ---- documents --------------------------------------------------------- */

static const struct key *key_find(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static int load_settings(struct sl_conf *c, const char *file,
			 const struct sl_ynode *doc, struct sl_err *err)
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
	return 0;
}

/* Kueue objects go to kueue.c, which knows their kinds and versions; when
 * only peeking at the socket they are not even looked at. */
static int load_kueue(struct sl_conf *c, const char *file,
		      const struct sl_ynode *doc, struct sl_err *err)
{
	if (c->kueue == NULL)
		return 0;
	return sl_kueue_add_object(c->kueue, file, doc, err);
}

static int doc_string(const struct sl_ynode *doc, const char *key, const char *file,
		      const char **out, struct sl_err *err)
{
	const struct sl_ynode *n = sl_ymap_get(doc, key);

	if (n == NULL)
		return sl_yerr(err, SL_ECONFIG, file, doc->line, NULL, NULL, NULL,
			       "object has no %s", key);
	if (n->type != SL_Y_SCALAR || n->scalar[0] == '\0')
		return sl_yerr(err, SL_ECONFIG, file, n->line, NULL, NULL, key,
			       "must be a non-empty string");
	*out = n->scalar;
	return 0;
}

static int load_doc(struct sl_conf *c, const char *file, const struct sl_ynode *doc,
		    struct sl_err *err)
{
	const char *api, *kind;
	int r;

	if (doc->type != SL_Y_MAP)
		return sl_yerr(err, SL_ECONFIG, file, doc->line, NULL, NULL, NULL,
			       "document is not a map (an object with apiVersion "
			       "and kind)");
	if ((r = doc_string(doc, "apiVersion", file, &api, err)) != 0 ||
	    (r = doc_string(doc, "kind", file, &kind, err)) != 0)
		return r;
	if (strcmp(api, CONF_API) == 0 && strcmp(kind, CONF_KIND) == 0)
		return load_settings(c, file, doc, err);
	if (sl_kueue_is_kueue_doc(doc))
		return load_kueue(c, file, doc, err);
	if (c->kueue == NULL)
		return 0;
	return sl_yerr(err, SL_ECONFIG, file, sl_ymap_key_line(doc, "kind"), NULL,
		       NULL, NULL, "unknown kind \"%s\" (apiVersion \"%s\")", kind, api);
}

/* ---- files ------------------------------------------------------------- */

/* Is doc the SluiceConfiguration? (Peeking commands stop reading there.) */
static int is_settings_doc(const struct sl_ynode *doc)
{
	const struct sl_ynode *api = sl_ymap_get(doc, "apiVersion");
	const struct sl_ynode *kind = sl_ymap_get(doc, "kind");
	return api && kind && api->type == SL_Y_SCALAR && kind->type == SL_Y_SCALAR &&
	       strcmp(api->scalar, CONF_API) == 0 && strcmp(kind->scalar, CONF_KIND) == 0;
}

static int load_file(struct sl_conf *c, const char *path, struct sl_err *err)
{
	struct sl_ydocs *d = NULL;
	size_t i;
	int r;

	if ((r = sl_yaml_load_file_until(path, c->kueue ? NULL : is_settings_doc, &d,
					 err)) != 0)
		return r;
	c->files = sl_xrealloc(c->files, (c->nfiles + 1) * sizeof(*c->files));
	c->files[c->nfiles++] = d;
	for (i = 0; i < d->n; i++)
		if ((r = load_doc(c, d->file, d->docs[i], err)) != 0)
			return r;
	return 0;
}

/* Sets c->dir (absolute) and the list of files to read. */
static int find_files(struct sl_conf *c, const char *path, char ***files,
		      struct sl_err *err)
{
	struct stat st;
	char *dir, *slash;

	if (stat(path, &st) != 0)
		return sl_err_set(err, errno == ENOENT ? SL_ENOENT : SL_EIO, "%s: %s",
				  path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		dir = sl_xstrdup(path);
	} else {
		dir = sl_xstrdup(path);
		slash = strrchr(dir, '/');
		if (slash == NULL)
			strcpy(dir, ".");
		else
			slash[slash == dir ? 1 : 0] = '\0';
	}
	c->dir = realpath(dir, NULL);
	free(dir);
	if (c->dir == NULL)
		return sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return sl_list_files(path, ".yaml", CONF_MAX_FILES, files, err);
	*files = sl_xcalloc(2, sizeof(**files));
	(*files)[0] = sl_xstrdup(path);
	return 0;
}

/* The config says who is an operator and which accounts users may charge,
 * and sluiced runs jobs as anyone: a config that someone other than root
 * and sluiced's own user can change would let them promote themselves.
 * Refused, as OpenSSH's StrictModes refuses such key files. A file's
 * directory counts too (it could swap the file) unless sticky; a config
 * directory's stickiness does not help (a file added is read). */
static int check_writer(const char *path, int sticky_ok, struct sl_err *err)
{
	uid_t self = geteuid();
	struct stat st;

	if (stat(path, &st) != 0)
		return sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	if ((st.st_uid != 0 && st.st_uid != self) ||
	    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_ok && (st.st_mode & S_ISVTX))))
		return sl_err_set(err, SL_ECONFIG, "%s: users other than root%s can write it "
				  "(owner uid %u, mode %04o); sluiced will not trust it: chown "
				  "root and chmod go-w", path, self ? " and sluiced's own" : "",
				  (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

static int check_writers(const char *dir, const char *path, char *const *files,
			 struct sl_err *err)
{
	int is_file = files[0] != NULL && strcmp(files[0], path) == 0; /* the one file read */
	int r = check_writer(dir, is_file, err);

	for (size_t i = 0; r == 0 && files[i] != NULL; i++)
		r = check_writer(files[i], 0, err);
	return r;
}

/* kubernetes.partitions.NAME must be a partition (LocalQueue): a typo
 * would silently give that partition the default pods. */
static int check_kube_partitions(const struct sl_conf *c, struct sl_err *err)
{
	size_t i, j;

	if (c->kube == NULL || c->kueue == NULL)
		return 0;
	for (i = 0; i < c->kube->npartitions; i++) {
		const char *name = c->kube->partitions[i].name;

		for (j = 0; j < c->kueue->nlqs && strcmp(c->kueue->lqs[j].name, name); j++)
			;
		if (j == c->kueue->nlqs)
			return sl_yerr(err, SL_ECONFIG, c->settings_file, c->settings_line,
				       CONF_KIND, NULL, "kubernetes.partitions",
				       "\"%s\" is not a partition (no LocalQueue has that "
				       "name)", name);
	}
	return 0;
}

static int conf_read(const char *path, int want_kueue, struct sl_conf **out,
		     struct sl_err *err)
{
	struct sl_conf *c = sl_xcalloc(1, sizeof(*c));
	char **files = NULL;
	size_t i;
	int r;

	*out = NULL;
	c->path = sl_xstrdup(path);
	if (want_kueue)
		c->kueue = sl_kueue_new();
	if ((r = find_files(c, path, &files, err)) != 0)
		goto out;
	/* Not for commands peeking at the socket: they trust nothing in it. */
	if (want_kueue && (r = check_writers(c->dir, path, files, err)) != 0)
		goto out;
	set_defaults(c);
	/* Without the Kueue part (sl_conf_peek_socket) reading stops at the
	 * settings: commands pay for one document, not the whole queue setup. */
	for (i = 0; files[i] != NULL && (want_kueue || c->settings_file == NULL); i++)
		if ((r = load_file(c, files[i], err)) != 0)
			goto out;
	if (c->settings_file == NULL) {
		r = sl_err_set(err, SL_ECONFIG, "%s: no %s (apiVersion: %s) document",
			       path, CONF_KIND, CONF_API);
		goto out;
	}
	if (c->kueue != NULL && (r = sl_kueue_finalize(c->kueue, err)) != 0)
		goto out;
	if ((r = check_kube_partitions(c, err)) != 0)
		goto out;
	r = 0;
out:
	sl_strv_free(files);
	if (r != 0)
		sl_conf_free(c);
	else
		*out = c;
	return r;
}

int sl_conf_load(const char *path, struct sl_conf **out, struct sl_err *err)
{
	return conf_read(path, 1, out, err);
}

int sl_conf_peek_socket(const char *path, char **socket, struct sl_err *err)
{
	struct sl_conf *c = NULL;
	int r;

	if (sl_conf_peek_socket_fast(path, socket))
		return 0;
	*socket = NULL;
	if ((r = conf_read(path, 0, &c, err)) != 0)
		return r;
	*socket = c->socket;
	c->socket = NULL;
	sl_conf_free(c);
	return 0;
}

void sl_conf_free(struct sl_conf *c)
{
	size_t i;

	if (c == NULL)
		return;
	sl_kueue_free(c->kueue); /* before the documents it may borrow from */
	for (i = 0; i < c->nfiles; i++)
		sl_ydocs_free(c->files[i]);
	free(c->files);
	for (i = 0; i < c->naccounts; i++) {
		free(c->accounts[i].user);
		sl_strv_free(c->accounts[i].list);
	}
	free(c->accounts);
	sl_strv_free(c->operators);
	sl_kubeconf_free(c->kube);
	sl_features_free(c->features);
	free(c->socket);
	free(c->state_dir);
	free(c->executor);
	free(c->auth);
	free(c->durability);
	free(c->default_partition);
	free(c->cluster_name);
	free(c->dir);
	free(c->path);
	free(c);
}

/* ---- getters ----------------------------------------------------------- */

const char *sl_conf_path(const struct sl_conf *c) { return c->path; }
const char *sl_conf_socket(const struct sl_conf *c) { return c->socket; }
const char *sl_conf_state_dir(const struct sl_conf *c) { return c->state_dir; }
const char *sl_conf_executor(const struct sl_conf *c) { return c->executor; }
const char *sl_conf_auth(const struct sl_conf *c) { return c->auth; }
int sl_conf_fsync(const struct sl_conf *c) { return strcmp(c->durability, "power") == 0; }
const char *sl_conf_default_partition(const struct sl_conf *c)
{
	return c->default_partition;
}
const char *sl_conf_cluster_name(const struct sl_conf *c) { return c->cluster_name; }
int sl_conf_kill_wait(const struct sl_conf *c) { return (int)c->kill_wait; }
int sl_conf_min_job_age(const struct sl_conf *c) { return (int)c->min_job_age; }
const struct sl_kueue *sl_conf_kueue(const struct sl_conf *c) { return c->kueue; }
const struct sl_kubeconf *sl_conf_kubernetes(const struct sl_conf *c) { return c->kube; }
const struct sl_features *sl_conf_features(const struct sl_conf *c) { return c->features; }

int sl_conf_is_operator(const struct sl_conf *c, const char *user, uid_t uid)
{
	size_t i;

	if (uid == 0)
		return 1;
	if (user == NULL || c->operators == NULL)
		return 0;
	for (i = 0; c->operators[i] != NULL; i++)
		if (strcmp(c->operators[i], user) == 0)
			return 1;
	return 0;
}

const char *const *sl_conf_accounts(const struct sl_conf *c, const char *user)
{
	const struct acct_entry *star = NULL;
	size_t i;

	for (i = 0; i < c->naccounts; i++) {
		if (user != NULL && strcmp(c->accounts[i].user, user) == 0)
			return (const char *const *)c->accounts[i].list;
		if (strcmp(c->accounts[i].user, "*") == 0)
			star = &c->accounts[i];
	}
	return star ? (const char *const *)star->list : NULL;
}

int sl_conf_account_allowed(const struct sl_conf *c, const char *user,
			    const char *account)
{
	const char *const *v = sl_conf_accounts(c, user);

	for (; v != NULL && *v != NULL && account != NULL; v++)
		if (strcmp(*v, account) == 0)
			return 1;
	return 0;
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
		return join(*(char **const *)base, ",");
	case K_FEATURES:
		return sl_features_text(c->features);
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
	default:
		return sl_xstrdup(*(char *const *)base);
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
