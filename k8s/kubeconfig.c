/* kubeconfig.c - kubeconfig files and in-cluster configuration reduced to
 * one flat struct sl_kubeconfig (see kubeconfig.h). Exec plugins run in
 * kexec.c. Everything here runs once at startup, so plain blocking file I/O
 * is fine. */
#include "k8s/kubeconfig.h"
#include "xalloc.h"
#include "yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KC_FILE_CAP (4u << 20)  /* certificate-authority, token files */
#define KC_MAX_FILES 16

struct kfile {
	char *path, *dir;
	struct sl_ydocs *docs;
	const struct sl_ynode *root;
};

struct kset {
	struct kfile f[KC_MAX_FILES];
	size_t n;
};

/* ---- small helpers ---------------------------------------------------- */

int sl_k8s_read_file(const char *path, size_t cap, char **out, size_t *len,
		     struct sl_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -SL_EIO;
	size_t n = 0, sz = 4096;
	char *buf = NULL;

	if (fd < 0)
		return sl_err_set(err, errno == ENOENT ? SL_ENOENT : SL_EIO, "%s: %s",
				  path, strerror(errno));
	buf = sl_xmalloc(sz);
	for (;;) {
		ssize_t k;
		if (n + 1 >= sz)
			buf = sl_xrealloc(buf, sz *= 2);
		k = read(fd, buf + n, sz - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			r = sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (k == 0)
			break;
		n += (size_t)k;
		if (n > cap) {
			r = sl_err_set(err, SL_ETOOBIG, "%s: larger than %zu bytes", path, cap);
			goto out;
		}
	}
	buf[n] = '\0';
	*out = buf;
	buf = NULL;
	if (len != NULL)
		*len = n;
	r = 0;
out:
	free(buf);
	close(fd);
	return r;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

int sl_base64_decode(const char *in, char **out, size_t *len)
{
	size_t n = strlen(in), o = 0;
	char *buf = sl_xmalloc(n / 4 * 3 + 4);
	uint32_t acc = 0;
	int bits = 0, pad = 0;

	for (const char *p = in; *p != '\0'; p++) {
		int v;
		if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
			continue;
		if (*p == '=') {
			pad++;
			continue;
		}
		if (pad > 0 || (v = b64val((unsigned char)*p)) < 0)
			goto bad;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	if (bits >= 6 || pad > 2)
		goto bad;
	buf[o] = '\0';
	*out = buf;
	*len = o;
	return 0;
bad:
	free(buf);
	return -SL_EINVAL;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d = slash == NULL ? sl_xstrdup(".") :
		  slash == path ? sl_xstrdup("/") : sl_xstrndup(path, (size_t)(slash - path));
	char *abs = realpath(d, NULL);

	if (abs == NULL)
		return d;
	free(d);
	return abs;
}

static char *resolve(const struct kfile *f, const char *p)
{
	if (p[0] == '/')
		return sl_xstrdup(p);
	return sl_xasprintf("%s/%s", f->dir, p);
}

/* ---- typed YAML access with exact error paths ------------------------- */

struct kpath {
	const struct kfile *f;
	const char *what;   /* "clusters[c1].cluster" */
	const struct sl_ynode *map;
	struct sl_err *err;
};

static int kerr(const struct kpath *k, const char *key, const char *fmt, const char *a)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s%s", k->what, key ? "." : "", key ? key : "");
	return sl_yerr(k->err, SL_ECONFIG, k->f->docs->file,
		       key ? sl_ymap_key_line(k->map, key) : k->map->line, NULL, NULL,
		       path, fmt, a);
}

/* Optional string: *out stays NULL when absent or YAML null. */
static int kstr(const struct kpath *k, const char *key, char **out)
{
	const struct sl_ynode *n = sl_ymap_get(k->map, key);

	if (n == NULL || (n->type == SL_Y_SCALAR && sl_yscalar_is_null(n)))
		return 0;
	if (n->type != SL_Y_SCALAR)
		return kerr(k, key, "must be a string%s", "");
	free(*out);
	*out = sl_xstrdup(n->scalar);
	return 0;
}

static int kbool(const struct kpath *k, const char *key, int *out)
{
	const struct sl_ynode *n = sl_ymap_get(k->map, key);

	if (n == NULL)
		return 0;
	if (n->type != SL_Y_SCALAR || sl_yscalar_bool(n, out) != 0)
		return kerr(k, key, "must be true or false%s", "");
	return 0;
}

static int kpath_file(const struct kpath *k, const char *key, char **out)
{
	char *v = NULL;
	int r = kstr(k, key, &v);

	if (r == 0 && v != NULL) {
		free(*out);
		*out = resolve(k->f, v);
	}
	free(v);
	return r;
}

static int kdata(const struct kpath *k, const char *key, char **out, size_t *len)
{
	char *v = NULL;
	int r = kstr(k, key, &v);

	if (r == 0 && v != NULL && sl_base64_decode(v, out, len) != 0)
		r = kerr(k, key, "invalid base64%s", "");
	free(v);
	return r;
}

static int ksub(const struct kpath *parent, const char *key, int required,
		struct kpath *sub, char *buf, size_t bufsz)
{
	const struct sl_ynode *n = sl_ymap_get(parent->map, key);

	if (n == NULL || (n->type == SL_Y_SCALAR && sl_yscalar_is_null(n)))
		return required ? kerr(parent, key, "missing%s", "") : 1;
	if (n->type != SL_Y_MAP)
		return kerr(parent, key, "must be a mapping%s", "");
	snprintf(buf, bufsz, "%s.%s", parent->what, key);
	*sub = (struct kpath){parent->f, buf, n, parent->err};
	return 0;
}

/* ---- named entries across the merged file list ------------------------ */

/* Find `list`[name=NAME] in the first file defining it. 0 found, 1 absent. */
static int find_named(const struct kset *s, const char *list, const char *name,
		      const struct kfile **f, const struct sl_ynode **item)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct sl_ynode *seq = sl_ymap_get(s->f[i].root, list);
		if (seq == NULL || seq->type != SL_Y_SEQ)
			continue;
		for (size_t j = 0; j < seq->n; j++) {
			const struct sl_ynode *nm = sl_ymap_get(seq->vals[j], "name");
			if (nm != NULL && nm->type == SL_Y_SCALAR && strcmp(nm->scalar, name) == 0) {
				*f = &s->f[i];
				*item = seq->vals[j];
				return 0;
			}
		}
	}
	return 1;
}

/* Open `list`[NAME].`inner` as a kpath (e.g. clusters[c1].cluster). */
static int open_named(const struct kset *s, const char *list, const char *inner,
		      const char *name, struct kpath *out, char *buf, size_t bufsz,
		      struct sl_err *err)
{
	const struct kfile *f;
	const struct sl_ynode *item;
	char what[300];
	struct kpath top;
	int r;

	if (find_named(s, list, name, &f, &item) != 0)
		return sl_yerr(err, SL_ECONFIG, s->f[0].docs->file, 0, NULL, NULL, NULL,
			       "%.*s \"%s\" not found", (int)strlen(list) - 1, list, name);
	snprintf(what, sizeof(what), "%s[%s]", list, name);
	top = (struct kpath){f, what, item, err};
	r = ksub(&top, inner, 1, out, buf, bufsz);
	return r;
}

/* ---- the three sections ----------------------------------------------- */

static int load_cluster(const struct kset *s, const char *name, struct sl_kubeconfig *kc,
			struct sl_err *err)
{
	struct kpath k;
	char buf[320];
	int r;

	if ((r = open_named(s, "clusters", "cluster", name, &k, buf, sizeof(buf), err)) != 0)
		return r;
	if ((r = kstr(&k, "server", &kc->server)) != 0 ||
	    (r = kpath_file(&k, "certificate-authority", &kc->ca_file)) != 0 ||
	    (r = kdata(&k, "certificate-authority-data", &kc->ca_data, &kc->ca_len)) != 0 ||
	    (r = kbool(&k, "insecure-skip-tls-verify", &kc->insecure)) != 0 ||
	    (r = kstr(&k, "tls-server-name", &kc->tls_server_name)) != 0 ||
	    (r = kstr(&k, "proxy-url", &kc->proxy_url)) != 0)
		return r;
	if (kc->server == NULL || kc->server[0] == '\0')
		return kerr(&k, "server", "missing%s", "");
	if (strncmp(kc->server, "https://", 8) != 0 && strncmp(kc->server, "http://", 7) != 0)
		return kerr(&k, "server", "\"%s\" is not an http(s) URL", kc->server);
	while (strlen(kc->server) > 8 && kc->server[strlen(kc->server) - 1] == '/')
		kc->server[strlen(kc->server) - 1] = '\0';
	if (kc->insecure && (kc->ca_file != NULL || kc->ca_data != NULL))
		return kerr(&k, "insecure-skip-tls-verify",
			    "specifying a root certificate with the insecure flag is not allowed%s", "");
	return 0;
}

static int load_strv(const struct kpath *k, const char *key, char ***out)
{
	const struct sl_ynode *n = sl_ymap_get(k->map, key);
	size_t m = 0;

	*out = sl_xcalloc(1, sizeof(char *));
	if (n == NULL || (n->type == SL_Y_SCALAR && sl_yscalar_is_null(n)))
		return 0;
	if (n->type != SL_Y_SEQ)
		return kerr(k, key, "must be a list%s", "");
	*out = sl_xrealloc(*out, (n->n + 1) * sizeof(char *));
	for (size_t i = 0; i < n->n; i++) {
		const struct sl_ynode *it = n->vals[i], *nm, *val;
		if (strcmp(key, "args") == 0 && it->type == SL_Y_SCALAR) {
			(*out)[m++] = sl_xstrdup(it->scalar);
		} else if (strcmp(key, "env") == 0 && it->type == SL_Y_MAP &&
			   (nm = sl_ymap_get(it, "name")) != NULL && nm->type == SL_Y_SCALAR &&
			   (val = sl_ymap_get(it, "value")) != NULL && val->type == SL_Y_SCALAR) {
			(*out)[m++] = sl_xasprintf("%s=%s", nm->scalar, val->scalar);
		} else {
			(*out)[m] = NULL;
			return kerr(k, key, strcmp(key, "env") == 0 ?
				    "items must be {name, value}%s" : "items must be strings%s", "");
		}
	}
	(*out)[m] = NULL;
	return 0;
}

static const char *const exec_versions[] = {
	"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1", NULL,
};

static int load_exec(const struct kpath *k, struct sl_kubeconfig *kc)
{
	struct sl_k8s_exec *e = sl_xcalloc(1, sizeof(*e));
	size_t i;
	int r;

	kc->exec = e;
	if ((r = kstr(k, "apiVersion", &e->api_version)) != 0 ||
	    (r = kstr(k, "command", &e->command)) != 0 ||
	    (r = load_strv(k, "args", &e->args)) != 0 ||
	    (r = load_strv(k, "env", &e->env)) != 0 ||
	    (r = kstr(k, "interactiveMode", &e->interactive_mode)) != 0 ||
	    (r = kstr(k, "installHint", &e->install_hint)) != 0 ||
	    (r = kbool(k, "provideClusterInfo", &e->provide_cluster_info)) != 0)
		return r;
	if (e->api_version == NULL)
		return kerr(k, "apiVersion", "missing%s", "");
	for (i = 0; exec_versions[i] != NULL; i++)
		if (strcmp(e->api_version, exec_versions[i]) == 0)
			break;
	if (exec_versions[i] == NULL)
		return kerr(k, "apiVersion", "\"%s\" is not supported (use client.authentication.k8s.io/v1)",
			    e->api_version);
	if (e->command == NULL || e->command[0] == '\0')
		return kerr(k, "command", "missing%s", "");
	if (i == 0 && e->interactive_mode == NULL)
		return kerr(k, "interactiveMode", "missing (required by %s)", e->api_version);
	/* client-go resolves a command against the kubeconfig only when it names a path. */
	if (strchr(e->command, '/') != NULL && e->command[0] != '/') {
		char *abs = resolve(k->f, e->command);
		free(e->command);
		e->command = abs;
	}
	return 0;
}

static int load_user(const struct kset *s, const char *name, struct sl_kubeconfig *kc,
		     struct sl_err *err)
{
	struct kpath k, ek;
	char buf[320], ebuf[340];
	int r;

	if ((r = open_named(s, "users", "user", name, &k, buf, sizeof(buf), err)) != 0)
		return r;
	if ((r = kstr(&k, "token", &kc->token)) != 0 ||
	    (r = kpath_file(&k, "tokenFile", &kc->token_file)) != 0 ||
	    (r = kpath_file(&k, "client-certificate", &kc->cert_file)) != 0 ||
	    (r = kdata(&k, "client-certificate-data", &kc->cert_data, &kc->cert_len)) != 0 ||
	    (r = kpath_file(&k, "client-key", &kc->key_file)) != 0 ||
	    (r = kdata(&k, "client-key-data", &kc->key_data, &kc->key_len)) != 0)
		return r;
	if (sl_ymap_get(k.map, "auth-provider") != NULL)
		return kerr(&k, "auth-provider", "is not supported: use an exec credential plugin%s", "");
	if ((kc->cert_file || kc->cert_data) && !(kc->key_file || kc->key_data))
		return kerr(&k, "client-key", "missing (client-certificate given)%s", "");
	if ((kc->key_file || kc->key_data) && !(kc->cert_file || kc->cert_data))
		return kerr(&k, "client-certificate", "missing (client-key given)%s", "");
	r = ksub(&k, "exec", 0, &ek, ebuf, sizeof(ebuf));
	if (r < 0)
		return r;
	return r == 0 ? load_exec(&ek, kc) : 0;
}

static int load_context(const struct kset *s, const char *name, struct sl_kubeconfig *kc,
			struct sl_err *err)
{
	struct kpath k;
	char buf[320];
	int r;

	if ((r = open_named(s, "contexts", "context", name, &k, buf, sizeof(buf), err)) != 0)
		return r;
	if ((r = kstr(&k, "cluster", &kc->cluster_name)) != 0 ||
	    (r = kstr(&k, "user", &kc->user_name)) != 0 ||
	    (r = kstr(&k, "namespace", &kc->ns)) != 0)
		return r;
	if (kc->cluster_name == NULL)
		return kerr(&k, "cluster", "missing%s", "");
	if (kc->ns == NULL || kc->ns[0] == '\0') {
		free(kc->ns);
		kc->ns = sl_xstrdup("default");
	}
	if ((r = load_cluster(s, kc->cluster_name, kc, err)) != 0)
		return r;
	/* A context without a user is anonymous access (rare but valid). */
	return kc->user_name == NULL ? 0 : load_user(s, kc->user_name, kc, err);
}

/* ---- files ------------------------------------------------------------ */

static int kset_add(struct kset *s, const char *path, struct sl_err *err)
{
	struct kfile *f;
	int r;

	if (s->n == KC_MAX_FILES)
		return sl_err_set(err, SL_ETOOBIG, "%s: more than %d kubeconfig files", path,
				  KC_MAX_FILES);
	f = &s->f[s->n];
	memset(f, 0, sizeof(*f));
	if ((r = sl_yaml_load_file(path, &f->docs, err)) != 0)
		return r;
	s->n++;
	f->path = sl_xstrdup(path);
	f->dir = dir_of(path);
	f->root = f->docs->n > 0 ? f->docs->docs[0] : NULL;
	if (f->root == NULL || f->root->type != SL_Y_MAP)
		return sl_yerr(err, SL_ECONFIG, f->docs->file, 0, NULL, NULL, NULL,
			       "not a kubeconfig (expected a mapping)");
	return 0;
}

static void kset_free(struct kset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->f[i].path);
		free(s->f[i].dir);
		sl_ydocs_free(s->f[i].docs);
	}
}

static int load_env_list(struct kset *s, const char *list, struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL;
	int r = 0;

	for (char *p = strtok_r(copy, ":", &save); p != NULL; p = strtok_r(NULL, ":", &save)) {
		/* client-go skips list entries that do not exist. */
		if (access(p, F_OK) != 0)
			continue;
		if ((r = kset_add(s, p, err)) != 0)
			break;
	}
	if (r == 0 && s->n == 0)
		r = sl_err_set(err, SL_ECONFIG, "$KUBECONFIG (%s): no such file", list);
	free(copy);
	return r;
}

static const char *current_context(const struct kset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct sl_ynode *n = sl_ymap_get(s->f[i].root, "current-context");
		if (n != NULL && n->type == SL_Y_SCALAR && n->scalar[0] != '\0')
			return n->scalar;
	}
	return NULL;
}

static int load_files(const struct kset *s, const char *context,
		      struct sl_kubeconfig **out, struct sl_err *err)
{
	struct sl_kubeconfig *kc = sl_xcalloc(1, sizeof(*kc));
	int r;

	if (context == NULL && (context = current_context(s)) == NULL) {
		r = sl_yerr(err, SL_ECONFIG, s->f[0].docs->file, 0, NULL, NULL, NULL,
			    "current-context is not set and no context was given");
		goto out;
	}
	kc->origin = sl_xstrdup(s->f[0].path);
	kc->context = sl_xstrdup(context);
	if ((r = load_context(s, context, kc, err)) != 0)
		goto out;
	*out = kc;
	kc = NULL;
out:
	sl_kubeconfig_free(kc);
	return r;
}

int sl_kubeconfig_load(const struct sl_kubeconfig_opts *o, struct sl_kubeconfig **out,
		       struct sl_err *err)
{
	struct kset s = {.n = 0};
	const char *env = getenv("KUBECONFIG"), *home = getenv("HOME");
	char *def = NULL;
	int r;

	*out = NULL;
	if (o->in_cluster)
		return sl_kubeconfig_in_cluster(o->sa_dir, out, err);
	if (o->path != NULL)
		r = kset_add(&s, o->path, err);
	else if (env != NULL && env[0] != '\0')
		r = load_env_list(&s, env, err);
	else if (home != NULL && access(def = sl_xasprintf("%s/.kube/config", home), F_OK) == 0)
		r = kset_add(&s, def, err);
	else if (getenv("KUBERNETES_SERVICE_HOST") != NULL)
		r = 1;
	else
		r = sl_err_set(err, SL_ECONFIG, "no kubeconfig: set kubernetes.kubeconfig or "
			       "$KUBECONFIG, create ~/.kube/config, or set inCluster");
	if (r == 1)
		r = sl_kubeconfig_in_cluster(o->sa_dir, out, err);
	else if (r == 0)
		r = load_files(&s, o->context, out, err);
	kset_free(&s);
	free(def);
	return r;
}

static int read_trimmed(const char *path, char **out, struct sl_err *err)
{
	size_t n;
	int r = sl_k8s_read_file(path, 4096, out, &n, err);

	while (r == 0 && n > 0 && strchr(" \t\r\n", (*out)[n - 1]) != NULL)
		(*out)[--n] = '\0';
	return r;
}

int sl_kubeconfig_in_cluster(const char *sa_dir, struct sl_kubeconfig **out,
			     struct sl_err *err)
{
	const char *host = getenv("KUBERNETES_SERVICE_HOST");
	const char *port = getenv("KUBERNETES_SERVICE_PORT");
	struct sl_kubeconfig *kc = NULL;
	int r;

	if (sa_dir == NULL)
		sa_dir = SL_KUBE_SA_DIR;
	if (host == NULL || port == NULL || !*host || !*port)
		return sl_err_set(err, SL_ECONFIG, "in-cluster: KUBERNETES_SERVICE_HOST and "
				  "KUBERNETES_SERVICE_PORT must be set");
	kc = sl_xcalloc(1, sizeof(*kc));
	kc->origin = sl_xstrdup("in-cluster");
	kc->context = sl_xstrdup("in-cluster");
	kc->server = sl_xasprintf(strchr(host, ':') ? "https://[%s]:%s" : "https://%s:%s",
				  host, port);
	kc->token_file = sl_xasprintf("%s/token", sa_dir);
	kc->ca_file = sl_xasprintf("%s/ca.crt", sa_dir);
	if (access(kc->token_file, R_OK) != 0) {
		r = sl_err_set(err, SL_ECONFIG, "in-cluster: %s: %s", kc->token_file, strerror(errno));
		goto out;
	}
	if (access(kc->ca_file, R_OK) != 0) {
		r = sl_err_set(err, SL_ECONFIG, "in-cluster: %s: %s", kc->ca_file, strerror(errno));
		goto out;
	}
	{
		char *nsfile = sl_xasprintf("%s/namespace", sa_dir);
		struct sl_err ignore = SL_ERR_INIT;
		if (read_trimmed(nsfile, &kc->ns, &ignore) != 0 || kc->ns[0] == '\0') {
			free(kc->ns);
			kc->ns = sl_xstrdup("default");
		}
		free(nsfile);
	}
	*out = kc;
	kc = NULL;
	r = 0;
out:
	sl_kubeconfig_free(kc);
	return r;
}

void sl_kubeconfig_free(struct sl_kubeconfig *kc)
{
	if (kc == NULL)
		return;
	if (kc->exec != NULL) {
		free(kc->exec->api_version);
		free(kc->exec->command);
		sl_strv_free(kc->exec->args);
		sl_strv_free(kc->exec->env);
		free(kc->exec->interactive_mode);
		free(kc->exec->install_hint);
		free(kc->exec);
	}
	free(kc->origin);
	free(kc->context);
	free(kc->cluster_name);
	free(kc->user_name);
	free(kc->server);
	free(kc->ns);
	free(kc->ca_file);
	free(kc->ca_data);
	free(kc->tls_server_name);
	free(kc->proxy_url);
	free(kc->cert_file);
	free(kc->key_file);
	free(kc->cert_data);
	free(kc->key_data);
	free(kc->token);
	free(kc->token_file);
	free(kc);
}
