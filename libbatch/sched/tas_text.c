/* tas_text.c - an admission's topology assignments as one line of text
 * (sched.h: sl_sched_topo_text), so the daemon keeps them in the job
 * record, puts them into the pods it renders, and charges them again after
 * a restart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

#define TOPO_TEXT_MAX (1u << 20)   /* a line in the job record: 1 MiB */
#define TOPO_DOMAINS_MAX 100000    /* pods of an Indexed Job */

static void add(char **out, size_t *len, const char *s)
{
	size_t n = strlen(s);
	*out = sl_xrealloc(*out, *len + n + 1);
	memcpy(*out + *len, s, n + 1);
	*len += n;
}

char *sl_sched_topo_text(struct sl_sched *s, uint64_t id)
{
	struct sq_wl *w = sq_wt_get(s, id);
	char *out = NULL, num[24];
	size_t len = 0;
	for (size_t i = 0; w && i < (size_t)w->nps; i++) {
		struct sl_sched_topo t;
		if (sl_sched_topology(s, id, i, &t) != 0)
			continue;
		if (out)
			add(&out, &len, ";");
		add(&out, &len, w->ps[i].name);
		add(&out, &len, "@");
		add(&out, &len, t.flavor);
		for (size_t l = 0; l < t.nlevels; l++) {
			add(&out, &len, l ? "," : "@");
			add(&out, &len, t.levels[l]);
		}
		for (size_t d = 0; d < t.ndomains; d++) {
			for (size_t l = 0; l < t.nlevels; l++) {
				add(&out, &len, l ? "," : "@");
				add(&out, &len, t.domains[d].values[l]);
			}
			snprintf(num, sizeof(num), "=%d", (int)t.domains[d].count);
			add(&out, &len, num);
		}
	}
	return out;
}

/* Split s at c in place: up to cap pieces into v; their number, or -1. */
static int split(char *s, char c, char **v, int cap)
{
	int n = 0;
	for (char *p = s;; p++) {
		if (n == cap)
			return -1;
		v[n++] = p;
		p = strchr(p, c);
		if (!p)
			return n;
		*p = '\0';
	}
}

/* Pieces of s split at c. */
static int pieces(const char *s, char c)
{
	int n = 1;
	for (const char *p = s; (p = strchr(p, c)) != NULL; p++)
		n++;
	return n;
}

static int one(struct sl_sched *s, uint64_t id, char *ps, struct sl_err *err)
{
	/* sized by what is there: recovery reads one per admitted job */
	int cap = pieces(ps, '@') < TOPO_DOMAINS_MAX + 3 ? pieces(ps, '@') : TOPO_DOMAINS_MAX + 3;
	char **f = sl_xcalloc((size_t)cap + 1, sizeof(char *));
	const char *lv[17], **vals = NULL;
	struct sl_sched_topo_domain *d = NULL;
	int r = -SL_EINVAL, n = split(ps, '@', f, cap), nl;
	struct sq_wl *w = sq_wt_get(s, id);
	size_t k = 0;
	if (n < 3 || !w || (nl = split(f[2], ',', (char **)lv, 16)) < 1)
		goto out;
	while (k < (size_t)w->nps && strcmp(w->ps[k].name, f[0]) != 0)
		k++;
	d = sl_xcalloc((size_t)n, sizeof(*d));
	vals = sl_xcalloc((size_t)n * 16 + 1, sizeof(char *));
	for (int i = 3; i < n; i++) {
		char *eq = strrchr(f[i], '='), *end;
		long c = eq ? strtol(eq + 1, &end, 10) : -1;
		if (!eq || *end || c < 1 || c > TOPO_DOMAINS_MAX)
			goto out;
		*eq = '\0';
		if (split(f[i], ',', (char **)vals + (i - 3) * 16, 16) != nl)
			goto out;
		d[i - 3] = (struct sl_sched_topo_domain){vals + (i - 3) * 16, (int32_t)c};
	}
	if (k == (size_t)w->nps)
		goto out;
	struct sl_sched_topo t = {f[1], (size_t)nl, lv, (size_t)(n - 3), d};
	r = sl_sched_admitted_topology(s, id, k, &t, err);
out:
	if (r == -SL_EINVAL && (!err || err->code == 0))
		sl_err_set(err, SL_EINVAL, "workload %llu: malformed topology assignment",
			   (unsigned long long)id);
	free(d);
	free(vals);
	free(f);
	return r;
}

int sl_sched_admitted_topology_text(struct sl_sched *s, uint64_t id, const char *text,
				    struct sl_err *err)
{
	if (!text || !*text)
		return 0;
	if (strlen(text) > TOPO_TEXT_MAX)
		return sl_err_set(err, SL_EINVAL, "workload %llu: topology assignment too long",
				  (unsigned long long)id);
	char *copy = sl_xstrdup(text), *save = NULL;
	int r = 0;
	for (char *ps = strtok_r(copy, ";", &save); ps && !r; ps = strtok_r(NULL, ";", &save))
		r = one(s, id, ps, err);
	free(copy);
	return r;
}
