/* features.c - the `features:` map: Slurm feature name -> node labels,
 * parsed and validated once at config load. */
#include "features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "yaml.h"

#define FEATURES_MAX 1024 /* a site's node features, not a data set */
#define LABELS_MAX 16     /* per feature */

struct feature {
	char *name;
	size_t n;
	struct sl_feature_label *labels; /* strings owned */
};

struct sl_features {
	size_t n;
	struct feature *v;
};

/* 1..63 bytes of [A-Za-z0-9._-]; with alnum_ends, [A-Za-z0-9] at both ends. */
static int name_ok(const char *s, size_t n, int alnum_ends)
{
	size_t i;

	if (n == 0 || n > 63)
		return 0;
	for (i = 0; i < n; i++) {
		int an = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9');

		if (!an && ((alnum_ends && (i == 0 || i == n - 1)) || !strchr("._-", s[i])))
			return 0;
	}
	return 1;
}

/* DNS-1123 subdomain: dot-separated lowercase labels, at most 253 bytes. */
static int subdomain_ok(const char *s, size_t n)
{
	size_t i, start = 0;

	if (n == 0 || n > 253)
		return 0;
	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != '.') {
			if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
			      s[i] == '-'))
				return 0;
			continue;
		}
		if (i == start || s[start] == '-' || s[i - 1] == '-' || i - start > 63)
			return 0;
		start = i + 1;
	}
	return 1;
}

int sl_label_key_ok(const char *key)
{
	const char *slash = strchr(key, '/');

	if (slash == NULL)
		return name_ok(key, strlen(key), 1);
	return subdomain_ok(key, (size_t)(slash - key)) &&
	       name_ok(slash + 1, strlen(slash + 1), 1);
}

int sl_label_value_ok(const char *value)
{
	return value[0] == '\0' || name_ok(value, strlen(value), 1);
}

/* What -C can name: '&', '|', '[', '*' and ',' are constraint syntax. */
static int feature_name_ok(const char *s)
{
	return name_ok(s, strlen(s), 0);
}

static int parse_labels(struct feature *f, const struct sl_ynode *m, const char *file,
			struct sl_err *err)
{
	char path[512];
	size_t i;

	snprintf(path, sizeof(path), "features.%s", f->name);
	if (m->type != SL_Y_MAP || m->n == 0)
		return sl_yerr(err, SL_ECONFIG, file, m->line, "SluiceConfiguration", NULL,
			       path, "must map node label keys to values, e.g. "
			       "{nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}");
	if (m->n > LABELS_MAX)
		return sl_yerr(err, SL_ECONFIG, file, m->line, "SluiceConfiguration", NULL,
			       path, "more than %d labels", LABELS_MAX);
	f->labels = sl_xcalloc(m->n, sizeof(*f->labels));
	for (i = 0; i < m->n; i++) {
		const struct sl_ynode *v = m->vals[i];

		snprintf(path, sizeof(path), "features.%s.%s", f->name, m->keys[i]);
		if (!sl_label_key_ok(m->keys[i]))
			return sl_yerr(err, SL_ECONFIG, file, m->key_lines[i],
				       "SluiceConfiguration", NULL, path,
				       "\"%s\" is not a valid Kubernetes label key (an optional "
				       "DNS subdomain prefix and '/', then at most 63 "
				       "characters [A-Za-z0-9._-] starting and ending with a "
				       "letter or digit)", m->keys[i]);
		if (v->type != SL_Y_SCALAR || !sl_label_value_ok(v->scalar))
			return sl_yerr(err, SL_ECONFIG, file, v->line, "SluiceConfiguration",
				       NULL, path, "\"%s\" is not a valid Kubernetes label "
				       "value (at most 63 characters [A-Za-z0-9._-] starting "
				       "and ending with a letter or digit)",
				       v->type == SL_Y_SCALAR ? v->scalar : "(not a string)");
		f->labels[i].key = sl_xstrdup(m->keys[i]);
		f->labels[i].value = sl_xstrdup(v->scalar);
		f->n++;
	}
	return 0;
}

int sl_features_parse(const struct sl_ynode *n, const char *file,
		      struct sl_features **out, struct sl_err *err)
{
	struct sl_features *f = sl_xcalloc(1, sizeof(*f));
	size_t i;
	int r = 0;

	*out = NULL;
	if (n->type != SL_Y_MAP || n->n > FEATURES_MAX) {
		r = sl_yerr(err, SL_ECONFIG, file, n->line, "SluiceConfiguration", NULL,
			    "features", n->type != SL_Y_MAP ?
			    "must map feature names to maps of node labels" :
			    "more than 1024 features");
		goto out;
	}
	f->v = sl_xcalloc(n->n + 1, sizeof(*f->v));
	for (i = 0; i < n->n && r == 0; i++) {
		if (!feature_name_ok(n->keys[i])) {
			r = sl_yerr(err, SL_ECONFIG, file, n->key_lines[i],
				    "SluiceConfiguration", NULL, "features",
				    "\"%s\" is not a valid feature name (at most 63 "
				    "characters [A-Za-z0-9._-])", n->keys[i]);
			break;
		}
		f->v[f->n].name = sl_xstrdup(n->keys[i]);
		r = parse_labels(&f->v[f->n++], n->vals[i], file, err);
	}
out:
	if (r != 0)
		sl_features_free(f);
	else
		*out = f;
	return r;
}

void sl_features_free(struct sl_features *f)
{
	size_t i, k;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		for (k = 0; k < f->v[i].n; k++) {
			free((char *)f->v[i].labels[k].key);
			free((char *)f->v[i].labels[k].value);
		}
		free(f->v[i].labels);
		free(f->v[i].name);
	}
	free(f->v);
	free(f);
}

const struct sl_feature_label *sl_features_get(const struct sl_features *f,
					       const char *name, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; f != NULL && name != NULL && i < f->n; i++)
		if (strcmp(f->v[i].name, name) == 0) {
			*n = f->v[i].n;
			return f->v[i].labels;
		}
	return NULL;
}

char *sl_features_text(const struct sl_features *f)
{
	char *s = sl_xstrdup(""), *t;
	size_t i, k;

	for (i = 0; f != NULL && i < f->n; i++) {
		t = sl_xasprintf("%s%s%s:", s, i ? " " : "", f->v[i].name);
		free(s);
		s = t;
		for (k = 0; k < f->v[i].n; k++) {
			t = sl_xasprintf("%s%s%s=%s", s, k ? "," : "", f->v[i].labels[k].key,
					 f->v[i].labels[k].value);
			free(s);
			s = t;
		}
	}
	return s;
}
