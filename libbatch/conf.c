/* conf.c - load the Sluice configuration: collect the YAML documents of a
 * file or a directory, route each by apiVersion/kind, hand the one
 * SluiceConfiguration to conf_keys.c's key table and Kueue objects to
 * kueue.c; the getters. */
#include "conf_int.h"
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_kube.h"
#include "features.h"
#include "kueue.h"
#include "qos_limits_int.h"
#include "xalloc.h"

#define CONF_MAX_FILES 1024 /* a config directory, not a data set */

/* ---- documents --------------------------------------------------------- */

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
		return sl_conf_keys_load(c, file, doc, err);
	if (sl_kueue_is_kueue_doc(doc))
		return load_kueue(c, file, doc, err);
	if (sl_limits_is_doc(doc))
		return c->limits ? sl_limits_add_doc(c->limits, file, doc, err) : 0;
	if (sl_partdef_is_doc(doc))
		return c->limits ? sl_partdefs_add(&c->partdefs, file, doc, err) : 0;
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

/* A QOS names the WorkloadPriorityClass its jobs get; it must exist. */
static int check_qos_classes(struct sl_conf *c, struct sl_err *err)
{
	for (size_t i = 0; i < c->limits->nqos; i++) {
		const struct lim_obj *q = &c->limits->qos[i];
		int32_t v;
		if (q->pclass && sl_kueue_priority_class(c->kueue, q->pclass, &v) != 0)
			return sl_yerr(err, SL_ECONFIG, q->file, q->line, "QOS", q->name,
				       "spec.priorityClass", "no WorkloadPriorityClass \"%s\"",
				       q->pclass);
	}
	return 0;
}

/* Account objects' users may charge them: each is added to the user's own
 * entry of the accounts map (made if the user had none, so that the "*"
 * entry no longer applies to that user, as a Slurm user has exactly the
 * associations made for them). */
static void add_account_users(struct sl_conf *c)
{
	const char *acct;
	const char *const *users;
	for (size_t i = 0; (users = sl_limits_account_users(c->limits, i, &acct)) != NULL; i++)
		for (; *users; users++) {
			struct acct_entry *e = NULL;
			for (size_t k = 0; k < c->naccounts && !e; k++)
				if (strcmp(c->accounts[k].user, *users) == 0)
					e = &c->accounts[k];
			if (!e) {
				c->accounts = sl_xrealloc(c->accounts,
							  (c->naccounts + 1) * sizeof(*c->accounts));
				e = &c->accounts[c->naccounts++];
				e->user = sl_xstrdup(*users);
				e->list = sl_xcalloc(1, sizeof(char *));
			}
			size_t n = 0;
			int have = 0;
			for (; e->list[n]; n++)
				have |= strcasecmp(e->list[n], acct) == 0;
			if (have)
				continue;
			e->list = sl_xrealloc(e->list, (n + 2) * sizeof(char *));
			e->list[n] = sl_xstrdup(acct);
			for (char *p = e->list[n]; *p; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p = (char)(*p - 'A' + 'a');
			e->list[n + 1] = NULL;
		}
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
	if (want_kueue) {
		c->kueue = sl_kueue_new();
		c->limits = sl_limits_new();
	}
	if ((r = find_files(c, path, &files, err)) != 0)
		goto out;
	/* Not for commands peeking at the socket: they trust nothing in it. */
	if (want_kueue && (r = check_writers(c->dir, path, files, err)) != 0)
		goto out;
	sl_conf_keys_defaults(c);
	/* Without the Kueue part (sl_conf_peek) reading stops at the
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
	if (c->limits != NULL && ((r = sl_limits_finalize(c->limits, err)) != 0 ||
				  (r = check_qos_classes(c, err)) != 0))
		goto out;
	if (c->limits != NULL)
		add_account_users(c);
	for (size_t k = 0; c->kueue != NULL && k < c->partdefs.n; k++) {
		const struct sl_partdef *pd = &c->partdefs.v[k];
		if (sl_kueue_find_lq(c->kueue, NULL, pd->queue) == NULL) {
			r = sl_yerr(err, SL_ECONFIG, pd->file, pd->line, "Partition", pd->name, NULL,
				    "no LocalQueue \"%s\" in any namespace: the partition does not exist",
				    pd->queue);
			goto out;
		}
	}
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

int sl_conf_peek(const char *path, struct sl_conf_peek *out, struct sl_err *err)
{
	struct sl_conf *c = NULL;
	int r;

	memset(out, 0, sizeof(*out));
	if (sl_conf_peek_fast(path, out))
		return 0;
	if ((r = conf_read(path, 0, &c, err)) != 0)
		return r;
	out->socket = c->socket;
	out->controller = c->controller;
	out->munge_socket = c->munge_socket;
	out->munge = strcmp(c->auth, "munge") == 0;
	out->pbs_server = c->pbs_server;
	c->socket = c->controller = c->munge_socket = c->pbs_server = NULL;
	sl_conf_free(c);
	return 0;
}

void sl_conf_peek_clear(struct sl_conf_peek *p)
{
	free(p->socket);
	free(p->controller);
	free(p->munge_socket);
	free(p->pbs_server);
	memset(p, 0, sizeof(*p));
}

int sl_conf_peek_socket(const char *path, char **socket, struct sl_err *err)
{
	struct sl_conf_peek p;
	int r = sl_conf_peek(path, &p, err);

	*socket = p.socket;
	p.socket = NULL;
	sl_conf_peek_clear(&p);
	return r;
}

void sl_conf_free(struct sl_conf *c)
{
	size_t i;

	if (c == NULL)
		return;
	sl_kueue_free(c->kueue); /* before the documents it may borrow from */
	sl_limits_free(c->limits);
	sl_partdefs_clear(&c->partdefs);
	free(c->default_qos);
	for (i = 0; i < c->nfiles; i++)
		sl_ydocs_free(c->files[i]);
	free(c->files);
	for (i = 0; i < c->naccounts; i++) {
		free(c->accounts[i].user);
		sl_strv_free(c->accounts[i].list);
	}
	free(c->accounts);
	sl_strv_free(c->operators);
	sl_strv_free(c->listen);
	free(c->controller);
	free(c->munge_socket);
	free(c->pam_service);
	free(c->metrics_listen);
	free(c->pbs_server);
	free(c->mail_prog);
	free(c->pbs_tmp_dir);
	sl_kubeconf_free(c->kube);
	sl_features_free(c->features);
	free(c->socket);
	free(c->state_dir);
	free(c->executor);
	free(c->auth);
	free(c->durability);
	free(c->kill_invalid_depend);
	free(c->mpi_default);
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
const char *const *sl_conf_listen(const struct sl_conf *c)
{
	return c->listen && c->listen[0] ? (const char *const *)c->listen : NULL;
}
const char *sl_conf_controller(const struct sl_conf *c) { return c->controller; }
const char *sl_conf_munge_socket(const struct sl_conf *c) { return c->munge_socket; }
int sl_conf_fsync(const struct sl_conf *c) { return strcmp(c->durability, "power") == 0; }
const struct sl_limits *sl_conf_limits(const struct sl_conf *c)
{
	return c->limits;
}

const struct sl_partdef *sl_conf_partdef(const struct sl_conf *c, const char *partition)
{
	char q[SL_K8S_NAME_MAX];
	if (partition == NULL || sl_conf_k8s_name(partition, q) != 0)
		return NULL;
	return sl_partdefs_find(&c->partdefs, q);
}

int sl_conf_has_partdefs(const struct sl_conf *c)
{
	return c->partdefs.n > 0;
}

const char *sl_conf_default_qos(const struct sl_conf *c)
{
	return c->default_qos;
}

const char *sl_conf_default_partition(const struct sl_conf *c)
{
	return c->default_partition;
}
const char *sl_conf_cluster_name(const struct sl_conf *c) { return c->cluster_name; }
int sl_conf_kill_wait(const struct sl_conf *c) { return (int)c->kill_wait; }
int64_t sl_conf_tmp_disk(const struct sl_conf *c) { return c->tmp_disk; }
int sl_conf_min_job_age(const struct sl_conf *c) { return (int)c->min_job_age; }
uint32_t sl_conf_max_array_size(const struct sl_conf *c) { return (uint32_t)c->max_array_size; }
int sl_conf_kill_invalid_depend(const struct sl_conf *c)
{
	return c->kill_invalid_depend != NULL && strcmp(c->kill_invalid_depend, "yes") == 0;
}
const struct sl_kueue *sl_conf_kueue(const struct sl_conf *c) { return c->kueue; }
const struct sl_kubeconf *sl_conf_kubernetes(const struct sl_conf *c) { return c->kube; }
const struct sl_features *sl_conf_features(const struct sl_conf *c) { return c->features; }
const char *sl_conf_pam_service(const struct sl_conf *c) { return c->pam_service; }
const char *sl_conf_metrics_listen(const struct sl_conf *c) { return c->metrics_listen; }
const char *sl_conf_pbs_server(const struct sl_conf *c) { return c->pbs_server; }
const char *sl_conf_mail_prog(const struct sl_conf *c) { return c->mail_prog; }
const char *sl_conf_pbs_tmp_dir(const struct sl_conf *c) { return c->pbs_tmp_dir; }

int sl_conf_k8s_name(const char *name, char out[SL_K8S_NAME_MAX])
{
	size_t i, n = strlen(name);

	for (i = 0; i < n && i < SL_K8S_NAME_MAX - 1; i++) {
		char ch = name[i];
		out[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch == '_' || ch == '.' ? '-' : ch;
		if (!((out[i] >= 'a' && out[i] <= 'z') || (out[i] >= '0' && out[i] <= '9') ||
		      out[i] == '-'))
			n = 0; /* not a name Kubernetes can have */
	}
	out[i] = '\0';
	if (n == 0 || n > 63 || out[0] == '-' || out[n - 1] == '-')
		return -1;
	return 0;
}

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

const char *const *sl_conf_accounts_at(const struct sl_conf *c, size_t i, const char **user)
{
	if (i >= c->naccounts)
		return NULL;
	*user = c->accounts[i].user;
	return (const char *const *)c->accounts[i].list;
}

const char *const *sl_conf_operators(const struct sl_conf *c)
{
	static const char *const none[] = {NULL};
	return c->operators ? (const char *const *)c->operators : none;
}

int sl_conf_account_allowed(const struct sl_conf *c, const char *user,
			    const char *account)
{
	const char *const *v = sl_conf_accounts(c, user);

	for (; v != NULL && *v != NULL && account != NULL; v++)
		if (strcasecmp(*v, account) == 0)
			return 1;
	return 0;
}
