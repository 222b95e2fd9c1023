/* conf_kube.c - parse the `kubernetes:` section of the SluiceConfiguration
 * through two key tables (the section, and one partition), the same way
 * conf.c declares its own keys once. volumes/volumeMounts are Kubernetes
 * objects we do not model: they are checked only for what Sluice relies on
 * (names, mount paths, references) and converted to JSON as kubectl would
 * read the YAML. */
#include "conf_kube.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "yaml.h"

#define KIND "SluiceConfiguration"
#define PATH_MAX_LEN 4095
#define IMAGE_MAX 1024

enum kt { KT_PATH, KT_STR, KT_IMAGE, KT_BOOL, KT_INT, KT_ENUM, KT_SUBDOMAIN,
	  KT_PARTS, KT_VOLUMES, KT_MOUNTS };

struct kkey {
	const char *name;
	enum kt type;
	size_t off;
	const char *choices; /* KT_ENUM: ", "-separated */
	int64_t min, max;    /* KT_INT */
	const char *help;
};

#define K(f) offsetof(struct sl_kubeconf, f)
static const struct kkey kube_keys[] = {
	{"kubeconfig", KT_PATH, K(kubeconfig), NULL, 0, 0,
	 "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)"},
	{"context", KT_STR, K(context), NULL, 0, 0,
	 "kubeconfig context (default: its current-context)"},
	{"inCluster", KT_BOOL, K(in_cluster), NULL, 0, 0,
	 "use the pod's service account instead of a kubeconfig"},
	{"qps", KT_INT, K(qps), NULL, 1, 100000, "API requests per second (steady)"},
	{"burst", KT_INT, K(burst), NULL, 1, 100000, "API requests in a burst"},
	{"image", KT_IMAGE, K(image), NULL, 0, 0, "default container image"},
	{"agentImage", KT_IMAGE, K(agent_image), NULL, 0, 0,
	 "image with /usr/local/bin/sluice-agent: srun's step agent in the pods"},
	{"partitions", KT_PARTS, 0, NULL, 0, 0, "per-partition pod settings"},
};
#undef K

#define P(f) offsetof(struct sl_kube_partition, f)
static const struct kkey part_keys[] = {
	{"image", KT_IMAGE, P(image), NULL, 0, 0, "container image"},
	{"imagePullPolicy", KT_ENUM, P(image_pull_policy), "Always, IfNotPresent, Never",
	 0, 0, "image pull policy"},
	{"serviceAccountName", KT_SUBDOMAIN, P(service_account), NULL, 0, 0,
	 "pods' service account"},
	{"priorityClassName", KT_SUBDOMAIN, P(priority_class), NULL, 0, 0,
	 "pods' PriorityClass"},
	{"mpi", KT_ENUM, P(mpi), "openmpi, intel, mpich", 0, 0,
	 "jobs become MPIJobs of this implementation"},
	{"volumes", KT_VOLUMES, P(volumes_json), NULL, 0, 0, "shared filesystems"},
	{"volumeMounts", KT_MOUNTS, P(volume_mounts_json), NULL, 0, 0,
	 "where they are mounted"},
};
#undef P
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct at {
	const char *file, *dir;
	int line;
	const char *path;
};

static int bad(struct sl_err *err, const struct at *at, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int bad(struct sl_err *err, const struct at *at, int line, const char *fmt, ...)
{
	char msg[SL_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sl_yerr(err, SL_ECONFIG, at->file, line, KIND, NULL, at->path, "%s", msg);
}

/* Key paths for messages: a cut one still reads fine, so truncation is
 * accepted (vsnprintf keeps -Wformat-truncation quiet about it). */
static void pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---- value checks ------------------------------------------------------ */

/* DNS-1123 label (ok_dot = 0) or subdomain (ok_dot = 1). */
static int dns_ok(const char *s, int ok_dot, size_t max)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++) {
		int alnum = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9');
		int edge = i == 0 || i == n - 1 || (ok_dot && (s[i - 1] == '.' || s[i + 1] == '.'));

		if (!alnum && !(s[i] == '-' && !edge) && !(ok_dot && s[i] == '.' && !edge))
			return 0;
	}
	return 1;
}

static int in_list(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

static int image_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > IMAGE_MAX)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* ---- YAML -> JSON, as kubectl (YAML 1.1 via go-yaml) reads it ----------- */

static json_object *y_scalar(const struct sl_ynode *n)
{
	const char *s = n->scalar;
	char *end;
	int b;

	if (n->quoted)
		return json_object_new_string(s);
	if (sl_yscalar_is_null(n))
		return NULL;
	if (sl_yscalar_bool(n, &b) == 0)
		return json_object_new_boolean(b);
	if (s[0] >= '0' && s[0] <= '9') {
		/* 0755 and 0o755 are octal (defaultMode), 0x1F hex. */
		int base = s[0] == '0' && s[1] == 'x' ? 16 : s[0] == '0' && s[1] != '\0' ? 8 : 10;
		const char *p = base == 8 && s[1] == 'o' ? s + 2 : s;
		long long v = strtoll(p, &end, base);
		double d;

		if (*end == '\0' && end != p)
			return json_object_new_int64(v);
		d = strtod(s, &end);
		if (*end == '\0')
			return json_object_new_double(d);
	}
	if (s[0] == '-' && s[1] >= '0' && s[1] <= '9') {
		long long v = strtoll(s, &end, 10);

		if (*end == '\0')
			return json_object_new_int64(v);
	}
	return json_object_new_string(s);
}

static json_object *y2j(const struct sl_ynode *n)
{
	json_object *o;
	size_t i;

	switch (n->type) {
	case SL_Y_MAP:
		o = json_object_new_object();
		for (i = 0; i < n->n; i++)
			json_object_object_add(o, n->keys[i], y2j(n->vals[i]));
		return o;
	case SL_Y_SEQ:
		o = json_object_new_array();
		for (i = 0; i < n->n; i++)
			json_object_array_add(o, y2j(n->vals[i]));
		return o;
	default:
		return y_scalar(n);
	}
}

static char *json_text(json_object *o)
{
	char *s = sl_xstrdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(o);
	return s;
}

/* A list of maps, each with a string `name` and, for mounts, an absolute
 * `mountPath` and a name among `vols` (the partition's volume names). */
static int check_list(const struct sl_ynode *n, const struct at *at, int mounts,
		      char **names, size_t *nnames, struct sl_err *err)
{
	char path[512];
	struct at sub = *at;
	size_t i, j;

	if (n->type != SL_Y_SEQ)
		return bad(err, at, n->line, "must be a list");
	sub.path = path;
	for (i = 0; i < n->n; i++) {
		const struct sl_ynode *it = n->vals[i], *nm, *mp;

		pathf(path, sizeof(path), "%s[%zu]", at->path, i);
		if (it->type != SL_Y_MAP)
			return bad(err, &sub, it->line, "must be a map");
		nm = sl_ymap_get(it, "name");
		pathf(path, sizeof(path), "%s[%zu].name", at->path, i);
		if (nm == NULL || nm->type != SL_Y_SCALAR || !dns_ok(nm->scalar, 0, 63))
			return bad(err, &sub, it->line,
				   "must be a DNS label (lowercase letters, digits and '-')");
		if (strncmp(nm->scalar, "sluice-", 7) == 0)
			return bad(err, &sub, nm->line, "\"%s\": names starting with "
				   "\"sluice-\" are reserved", nm->scalar);
		if (!mounts) {
			for (j = 0; j < *nnames; j++)
				if (strcmp(names[j], nm->scalar) == 0)
					return bad(err, &sub, nm->line, "\"%s\" is listed twice",
						   nm->scalar);
			names[(*nnames)++] = nm->scalar;
			continue;
		}
		for (j = 0; j < *nnames && strcmp(names[j], nm->scalar) != 0; j++)
			;
		if (j == *nnames)
			return bad(err, &sub, nm->line, "no volume named \"%s\" in volumes",
				   nm->scalar);
		mp = sl_ymap_get(it, "mountPath");
		pathf(path, sizeof(path), "%s[%zu].mountPath", at->path, i);
		if (mp == NULL || mp->type != SL_Y_SCALAR || mp->scalar[0] != '/')
			return bad(err, &sub, it->line, "must be an absolute path");
		if (strcmp(mp->scalar, "/sluice") == 0 || strncmp(mp->scalar, "/sluice/", 8) == 0)
			return bad(err, &sub, mp->line, "\"/sluice\" is reserved for the batch script");
	}
	return 0;
}

/* ---- the tables' setter ------------------------------------------------ */

static int set_parts(struct sl_kubeconf *k, const struct sl_ynode *n,
		     const struct at *at, struct sl_err *err);

static int set_scalar(void *base, const struct kkey *key, const struct sl_ynode *n,
		      const struct at *at, struct sl_err *err)
{
	char **sp = (char **)((char *)base + key->off);
	const char *v = n->scalar;

	if (n->type != SL_Y_SCALAR)
		return bad(err, at, n->line, "must be a string");
	switch (key->type) {
	case KT_PATH:
		if (*v == '\0' || strlen(v) + strlen(at->dir) + 1 > PATH_MAX_LEN)
			return bad(err, at, n->line, "must be a path of 1..%d bytes",
				   PATH_MAX_LEN);
		break;
	case KT_STR:
		if (*v == '\0')
			return bad(err, at, n->line, "must not be empty");
		break;
	case KT_IMAGE:
		if (!image_ok(v))
			return bad(err, at, n->line, "\"%s\" is not a container image "
				   "reference", v);
		break;
	case KT_ENUM:
		if (!in_list(key->choices, v))
			return bad(err, at, n->line, "\"%s\" is not one of %s", v, key->choices);
		break;
	case KT_SUBDOMAIN:
		if (!dns_ok(v, 1, 253))
			return bad(err, at, n->line, "\"%s\" is not a valid name (lowercase "
				   "letters, digits, '-' and '.')", v);
		break;
	default:
		return bad(err, at, n->line, "not a string key");
	}
	free(*sp);
	*sp = key->type == KT_PATH && v[0] != '/' ? sl_xasprintf("%s/%s", at->dir, v)
						  : sl_xstrdup(v);
	return 0;
}

static int set_one(void *base, const struct kkey *key, const struct sl_ynode *n,
		   const struct at *at, struct sl_err *err)
{
	int64_t *ip = (int64_t *)((char *)base + key->off);
	int *bp = (int *)((char *)base + key->off);

	switch (key->type) {
	case KT_BOOL:
		if (sl_yscalar_bool(n, bp) != 0)
			return bad(err, at, n->line, "must be true or false");
		return 0;
	case KT_INT:
		if (sl_yscalar_int64(n, ip) != 0)
			return bad(err, at, n->line, "\"%s\" is not an integer",
				   n->type == SL_Y_SCALAR ? n->scalar : "(not a scalar)");
		if (*ip < key->min || *ip > key->max)
			return bad(err, at, n->line, "%lld is out of range (%lld..%lld)",
				   (long long)*ip, (long long)key->min, (long long)key->max);
		return 0;
	case KT_PARTS:
		return set_parts(base, n, at, err);
	case KT_VOLUMES:
	case KT_MOUNTS:
		/* checked by set_partition, which sees both lists */
		*(char **)((char *)base + key->off) = json_text(y2j(n));
		return 0;
	default:
		return set_scalar(base, key, n, at, err);
	}
}

/* Walk map n through table keys; unknown keys are errors. */
static int set_map(void *base, const struct kkey *keys, size_t nkeys,
		   const struct sl_ynode *n, const struct at *at, struct sl_err *err)
{
	char path[512];
	struct at sub = *at;
	size_t i, j;
	int r;

	if (n->type != SL_Y_MAP)
		return bad(err, at, n->line, "must be a map");
	sub.path = path;
	for (i = 0; i < n->n; i++) {
		pathf(path, sizeof(path), "%s.%s", at->path, n->keys[i]);
		for (j = 0; j < nkeys && strcmp(keys[j].name, n->keys[i]) != 0; j++)
			;
		if (j == nkeys)
			return bad(err, &sub, n->key_lines[i], "unknown key");
		if (sl_yscalar_is_null(n->vals[i]))
			continue;
		if ((r = set_one(base, &keys[j], n->vals[i], &sub, err)) != 0)
			return r;
	}
	return 0;
}

static int set_partition(struct sl_kube_partition *p, const struct sl_ynode *n,
			 const struct at *at, struct sl_err *err)
{
	const struct sl_ynode *vols = sl_ymap_get(n, "volumes");
	const struct sl_ynode *mnts = sl_ymap_get(n, "volumeMounts");
	char path[512], *names[256];
	size_t nn = 0;
	struct at sub = *at;
	int r;

	if ((r = set_map(p, part_keys, NELEM(part_keys), n, at, err)) != 0)
		return r;
	sub.path = path;
	pathf(path, sizeof(path), "%s.volumes", at->path);
	if (vols != NULL && vols->type == SL_Y_SEQ && vols->n > NELEM(names))
		return bad(err, &sub, vols->line, "more than %zu volumes", NELEM(names));
	if (vols != NULL && !sl_yscalar_is_null(vols) &&
	    (r = check_list(vols, &sub, 0, names, &nn, err)) != 0)
		return r;
	pathf(path, sizeof(path), "%s.volumeMounts", at->path);
	if (mnts != NULL && !sl_yscalar_is_null(mnts) &&
	    (r = check_list(mnts, &sub, 1, names, &nn, err)) != 0)
		return r;
	return 0;
}

static int set_parts(struct sl_kubeconf *k, const struct sl_ynode *n,
		     const struct at *at, struct sl_err *err)
{
	char path[512];
	struct at sub = *at;
	size_t i;
	int r;

	if (n->type != SL_Y_MAP)
		return bad(err, at, n->line, "must map partition names to settings");
	k->partitions = sl_xcalloc(n->n + 1, sizeof(*k->partitions));
	sub.path = path;
	for (i = 0; i < n->n; i++) {
		struct sl_kube_partition *p = &k->partitions[k->npartitions++];

		pathf(path, sizeof(path), "%s.%s", at->path, n->keys[i]);
		p->name = sl_xstrdup(n->keys[i]);
		if (!dns_ok(p->name, 0, 63))
			return bad(err, &sub, n->key_lines[i], "\"%s\" is not a valid "
				   "partition name", p->name);
		if (sl_yscalar_is_null(n->vals[i]))
			continue;
		if ((r = set_partition(p, n->vals[i], &sub, err)) != 0)
			return r;
	}
	return 0;
}

int sl_kubeconf_parse(const struct sl_ynode *n, const char *file, const char *dir,
		      struct sl_kubeconf **out, struct sl_err *err)
{
	struct sl_kubeconf *k = sl_xcalloc(1, sizeof(*k));
	struct at at = {file, dir, n->line, "kubernetes"};
	int r;

	*out = NULL;
	k->qps = 50; /* Kueue's performance test settings; client-go's 5/10 */
	k->burst = 100; /* would take 100 s to create 1000 jobs */
	if (!sl_yscalar_is_null(n) &&
	    (r = set_map(k, kube_keys, NELEM(kube_keys), n, &at, err)) != 0) {
		sl_kubeconf_free(k);
		return r;
	}
	if (k->burst < k->qps) {
		sl_kubeconf_free(k);
		return sl_yerr(err, SL_ECONFIG, file, n->line, KIND, NULL, "kubernetes.burst",
			       "must be at least qps");
	}
	*out = k;
	return 0;
}

void sl_kubeconf_free(struct sl_kubeconf *k)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < k->npartitions; i++) {
		struct sl_kube_partition *p = &k->partitions[i];

		free(p->name);
		free(p->image);
		free(p->image_pull_policy);
		free(p->service_account);
		free(p->priority_class);
		free(p->mpi);
		free(p->volumes_json);
		free(p->volume_mounts_json);
	}
	free(k->partitions);
	free(k->kubeconfig);
	free(k->context);
	free(k->image);
	free(k->agent_image);
	free(k);
}

const struct sl_kube_partition *sl_kubeconf_partition(const struct sl_kubeconf *k,
						      const char *name)
{
	char lq[SL_K8S_NAME_MAX];
	size_t i;

	/* a job's partition is in Slurm's spelling; the section names LocalQueues */
	if (name == NULL || sl_conf_k8s_name(name, lq) != 0)
		return NULL;
	for (i = 0; k != NULL && i < k->npartitions; i++)
		if (strcmp(k->partitions[i].name, lq) == 0)
			return &k->partitions[i];
	return NULL;
}

/* ---- show config ------------------------------------------------------- */

static int show_table(const void *base, const struct kkey *keys, size_t nkeys,
		      const char *prefix, sl_conf_show_fn fn, void *arg)
{
	char name[512], *v;
	size_t i;
	int r = 0;

	for (i = 0; i < nkeys && r == 0; i++) {
		const char *p = (const char *)base + keys[i].off;

		if (keys[i].type == KT_PARTS)
			continue;
		if (keys[i].type == KT_INT)
			v = sl_xasprintf("%lld", (long long)*(const int64_t *)p);
		else if (keys[i].type == KT_BOOL)
			v = sl_xstrdup(*(const int *)p ? "true" : "false");
		else if (*(char *const *)p != NULL)
			v = sl_xstrdup(*(char *const *)p);
		else
			continue;
		pathf(name, sizeof(name), "%s.%s", prefix, keys[i].name);
		r = fn(name, v, keys[i].help, arg);
		free(v);
	}
	return r;
}

int sl_kubeconf_show(const struct sl_kubeconf *k, sl_conf_show_fn fn, void *arg)
{
	char prefix[256];
	size_t i;
	int r;

	if (k == NULL)
		return 0;
	r = show_table(k, kube_keys, NELEM(kube_keys), "kubernetes", fn, arg);
	for (i = 0; i < k->npartitions && r == 0; i++) {
		pathf(prefix, sizeof(prefix), "kubernetes.partitions.%s",
			 k->partitions[i].name);
		r = show_table(&k->partitions[i], part_keys, NELEM(part_keys), prefix, fn,
			       arg);
	}
	return r;
}
