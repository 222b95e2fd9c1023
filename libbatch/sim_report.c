/* sim_report.c - render a simulated end state (text for site admins, or
 * JSON) and compare it with the scenario's `expect` block. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_int.h"
#include "buf.h"
#include "xalloc.h"
#include "yaml.h"

void sim_json_str(struct sl_buf *b, const char *s)
{
	sl_buf_addc(b, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sl_buf_addf(b, "\\%c", c);
		else if (c < 0x20)
			sl_buf_addf(b, "\\u%04x", c);
		else
			sl_buf_addc(b, (char)c);
	}
	sl_buf_addc(b, '"');
}

/* Pods admitted for pod set ps of w; *req gets the requested count. */
static int32_t adm_count(struct sl_sim *m, const struct sim_wl *w, const char *ps, int32_t *req)
{
	int32_t n = -1;
	*req = -1;
	for (size_t i = 0; i < w->w.npodsets; i++)
		if (strcmp(w->ps[i].name, ps) == 0) {
			*req = w->ps[i].count;
			if (sl_sched_admitted_count(m->s, w->w.id, i, &n) != 0)
				n = -1;
			break;
		}
	return n;
}

static void text_flavors(struct sl_sim *m, const struct sim_wl *w, struct sl_buf *b,
			 const struct sl_sched_assignment *a)
{
	const char *ps = NULL;
	int32_t n, req;
	for (size_t i = 0; i < a->n; i++) {
		if (!ps || strcmp(ps, a->flavors[i].podset) != 0) {
			ps = a->flavors[i].podset;
			sl_buf_addf(b, "%s%s:", i ? "; " : "", ps);
			if ((n = adm_count(m, w, ps, &req)) != req)
				sl_buf_addf(b, " count=%d/%d", (int)n, (int)req);
		}
		sl_buf_addf(b, " %s=%s", a->flavors[i].resource, a->flavors[i].flavor);
	}
}

static void json_flavors(struct sl_sim *m, const struct sim_wl *w, struct sl_buf *b,
			 const struct sl_sched_assignment *a)
{
	const char *ps = NULL;
	int32_t n, req;
	sl_buf_addc(b, '{');
	for (size_t i = 0; i < a->n; i++) {
		if (!ps || strcmp(ps, a->flavors[i].podset) != 0) {
			if (ps) {
				sim_tas_json(m, w, ps, b);
				sl_buf_addstr(b, "},");
			}
			ps = a->flavors[i].podset;
			sim_json_str(b, ps);
			sl_buf_addstr(b, ":{");
			if ((n = adm_count(m, w, ps, &req)) != req)
				sl_buf_addf(b, "\"count\":%d,", (int)n);
		} else {
			sl_buf_addc(b, ',');
		}
		sim_json_str(b, a->flavors[i].resource);
		sl_buf_addc(b, ':');
		sim_json_str(b, a->flavors[i].flavor);
	}
	if (ps)
		sim_tas_json(m, w, ps, b);
	sl_buf_addstr(b, ps ? "}}" : "}");
}

static void report_text(struct sl_sim *m, struct sl_buf *b)
{
	size_t na = 0, np = 0, npe = 0;
	struct sl_sched_assignment a;
	struct sl_sched_pending p;
	sl_buf_addf(b, "scenario %s: %zu workloads, fixpoint after %d cycles\n", m->name, m->nwl, m->cycles);
	for (size_t i = 0; i < m->nwl; i++)
		if (sl_sched_assignment(m->s, m->wl[i].w.id, &a) == 0)
			na++;
	sl_buf_addf(b, "\nadmitted (%zu):\n", na);
	for (size_t i = 0; i < m->nwl; i++)
		if (sl_sched_assignment(m->s, m->wl[i].w.id, &a) == 0) {
			sl_buf_addf(b, "  %-24s ClusterQueue %-16s ", m->wl[i].w.name, a.cluster_queue);
			text_flavors(m, &m->wl[i], b, &a);
			sl_buf_addc(b, '\n');
			sim_tas_text(m, &m->wl[i], b);
		}
	for (size_t i = 0; i < m->nwl; i++)
		npe += m->wl[i].preempted > 0;
	sl_buf_addf(b, "\npreempted at least once (%zu):\n", npe);
	for (size_t i = 0; i < m->nwl; i++)
		if (m->wl[i].preempted)
			sl_buf_addf(b, "  %-24s %dx, last reason %s: %s\n", m->wl[i].w.name, m->wl[i].preempted,
				    m->wl[i].preempt_reason, m->wl[i].preempt_msg);
	for (size_t i = 0; i < m->nwl; i++) /* a timed run's finished ones are neither */
		np += sl_sched_pending_info(m->s, m->wl[i].w.id, &p) == 0 && !p.admitted;
	sl_buf_addf(b, "\npending (%zu):\n", np);
	for (size_t i = 0; i < m->nwl; i++) {
		if (sl_sched_pending_info(m->s, m->wl[i].w.id, &p) != 0 || p.admitted)
			continue;
		sl_buf_addf(b, "  %-24s ClusterQueue %-16s position %lld (LocalQueue %lld)  [%s/%s] %s\n",
			    m->wl[i].w.name, p.cluster_queue ? p.cluster_queue : "-",
			    (long long)p.pos_cq, (long long)p.pos_lq, sl_sched_class_name(p.cls),
			    p.reason ? p.reason : "-", p.message ? p.message : "");
	}
	if (m->timed)
		sim_clock_report_text(m, b);
}

/* A member's key (or an array's item), after a comma unless it is the first. */
static void json_next(struct sl_buf *b, int *first, const char *key)
{
	sl_buf_addstr(b, *first ? "" : ",");
	*first = 0;
	sim_json_str(b, key);
}

/* ,"key":"value" */
static void json_member(struct sl_buf *b, const char *key, const char *v)
{
	sl_buf_addf(b, ",\"%s\":", key);
	sim_json_str(b, v);
}

static void report_json(struct sl_sim *m, struct sl_buf *b)
{
	struct sl_sched_assignment a;
	struct sl_sched_pending p;
	int first = 1;
	sl_buf_addstr(b, "{\"name\":");
	sim_json_str(b, m->name);
	sl_buf_addf(b, ",\"cycles\":%d,\"admitted\":{", m->cycles);
	for (size_t i = 0; i < m->nwl; i++)
		if (sl_sched_assignment(m->s, m->wl[i].w.id, &a) == 0) {
			json_next(b, &first, m->wl[i].w.name);
			sl_buf_addstr(b, ":{\"clusterQueue\":");
			sim_json_str(b, a.cluster_queue);
			sl_buf_addstr(b, ",\"flavors\":");
			json_flavors(m, &m->wl[i], b, &a);
			sl_buf_addc(b, '}');
		}
	sl_buf_addstr(b, "},\"preempted\":[");
	first = 1;
	for (size_t i = 0; i < m->nwl; i++)
		if (m->wl[i].preempted)
			json_next(b, &first, m->wl[i].w.name);
	sl_buf_addstr(b, "],\"pending\":{");
	first = 1;
	for (size_t i = 0; i < m->nwl; i++) {
		if (sl_sched_pending_info(m->s, m->wl[i].w.id, &p) != 0 || p.admitted)
			continue;
		json_next(b, &first, m->wl[i].w.name);
		sl_buf_addstr(b, ":{\"clusterQueue\":");
		sim_json_str(b, p.cluster_queue);
		json_member(b, "class", sl_sched_class_name(p.cls));
		json_member(b, "reason", p.reason);
		json_member(b, "message", p.message);
		sl_buf_addf(b, ",\"positionInClusterQueue\":%lld,\"positionInLocalQueue\":%lld}",
			    (long long)p.pos_cq, (long long)p.pos_lq);
	}
	sl_buf_addc(b, '}');
	if (m->timed)
		sim_clock_report_json(m, b);
	sl_buf_addstr(b, "}\n");
}

char *sl_sim_report(struct sl_sim *m, int json)
{
	struct sl_buf *b = sl_buf_new(SIM_BUF_CAP);
	if (json)
		report_json(m, b);
	else
		report_text(m, b);
	char *s = sl_buf_steal(b);
	sl_buf_free(b);
	return s;
}

static struct sim_wl *by_name(struct sl_sim *m, const char *name)
{
	for (size_t i = 0; i < m->nwl; i++)
		if (strcmp(m->wl[i].w.name, name) == 0)
			return &m->wl[i];
	return NULL;
}

static const char *actual_flavor(const struct sl_sched_assignment *a, const char *ps, const char *res)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->flavors[i].podset, ps) == 0 && strcmp(a->flavors[i].resource, res) == 0)
			return a->flavors[i].flavor;
	return NULL;
}

/* The optional `count` of an expected pod set: pods admitted, which
 * without it must be the requested count. */
static int verify_count(struct sl_sim *m, const struct sim_wl *w, const char *wname,
			const char *ps, const struct sl_ynode *ex, struct sl_buf *b)
{
	int32_t req, got = adm_count(m, w, ps, &req);
	int64_t want = req;
	const struct sl_ynode *c = ex->type == SL_Y_MAP ? sl_ymap_get(ex, "count") : NULL;
	if (c && sl_yscalar_int64(c, &want) != 0)
		want = -2;
	if (got == want)
		return 0;
	sl_buf_addf(b, "  - admitted: %s pod set %s: expected count %lld, got %d\n", wname, ps,
		    (long long)want, (int)got);
	return 1;
}

static int verify_admitted(struct sl_sim *m, const struct sl_ynode *ex, struct sl_buf *b)
{
	int bad = 0;
	struct sl_sched_assignment a;
	for (size_t i = 0; ex && ex->type == SL_Y_MAP && i < ex->n; i++) {
		struct sim_wl *w = by_name(m, ex->keys[i]);
		if (!w || sl_sched_assignment(m->s, w->w.id, &a) != 0) {
			sl_buf_addf(b, "  - admitted: expected %s to be admitted, it is %s\n", ex->keys[i],
				    w ? "pending" : "unknown");
			bad = 1;
			continue;
		}
		const struct sl_ynode *pss = ex->vals[i];
		for (size_t j = 0; pss->type == SL_Y_MAP && j < pss->n; j++)
			bad |= verify_count(m, w, ex->keys[i], pss->keys[j], pss->vals[j], b) |
			       sim_tas_verify(m, w, ex->keys[i], pss->keys[j], pss->vals[j], b);
		for (size_t j = 0; pss->type == SL_Y_MAP && j < pss->n; j++)
			for (size_t k = 0; pss->vals[j]->type == SL_Y_MAP && k < pss->vals[j]->n; k++) {
				if (strcmp(pss->vals[j]->keys[k], "count") == 0 ||
				    strcmp(pss->vals[j]->keys[k], "topology") == 0)
					continue;
				const char *want = pss->vals[j]->vals[k]->scalar;
				const char *got = actual_flavor(&a, pss->keys[j], pss->vals[j]->keys[k]);
				if (!got || !want || strcmp(got, want) != 0) {
					sl_buf_addf(b, "  - admitted: %s pod set %s %s: expected flavor %s, got %s\n",
						    ex->keys[i], pss->keys[j], pss->vals[j]->keys[k],
						    want ? want : "?", got ? got : "none");
					bad = 1;
				}
			}
	}
	for (size_t i = 0; i < m->nwl; i++)
		if (sl_sched_assignment(m->s, m->wl[i].w.id, &a) == 0 &&
		    !(ex && ex->type == SL_Y_MAP && sl_ymap_get(ex, m->wl[i].w.name))) {
			sl_buf_addf(b, "  + admitted: %s is admitted in %s but not expected\n",
				    m->wl[i].w.name, a.cluster_queue);
			bad = 1;
		}
	return bad;
}

static bool in_list(const struct sl_ynode *l, const char *name)
{
	for (size_t i = 0; l && l->type == SL_Y_SEQ && i < l->n; i++)
		if (l->vals[i]->type == SL_Y_SCALAR && strcmp(l->vals[i]->scalar, name) == 0)
			return true;
	return false;
}

/* which: 0 preempted, 1 pending */
static int verify_set(struct sl_sim *m, const struct sl_ynode *ex, int which, struct sl_buf *b)
{
	const char *label = which ? "pending" : "preempted";
	struct sl_sched_pending p;
	int bad = 0;
	for (size_t i = 0; i < m->nwl; i++) {
		bool actual = which ? (sl_sched_pending_info(m->s, m->wl[i].w.id, &p) == 0 && !p.admitted)
				    : m->wl[i].preempted > 0;
		bool want = in_list(ex, m->wl[i].w.name);
		if (actual != want) {
			sl_buf_addf(b, "  %c %s: %s %s\n", want ? '-' : '+', label, m->wl[i].w.name,
				    want ? "expected but not" : "not expected but is");
			bad = 1;
		}
	}
	for (size_t i = 0; ex && ex->type == SL_Y_SEQ && i < ex->n; i++)
		if (ex->vals[i]->type == SL_Y_SCALAR && !by_name(m, ex->vals[i]->scalar)) {
			sl_buf_addf(b, "  - %s: %s is not a workload of this scenario\n", label,
				    ex->vals[i]->scalar);
			bad = 1;
		}
	return bad;
}

int sl_sim_verify(struct sl_sim *m, char **diff)
{
	*diff = NULL;
	if (!m->expect || m->expect->type != SL_Y_MAP)
		return 0;
	struct sl_buf *b = sl_buf_new(SIM_BUF_CAP);
	int bad = 0;
	if (sl_ymap_get(m->expect, "admitted"))
		bad |= verify_admitted(m, sl_ymap_get(m->expect, "admitted"), b);
	if (sl_ymap_get(m->expect, "preempted"))
		bad |= verify_set(m, sl_ymap_get(m->expect, "preempted"), 0, b);
	if (sl_ymap_get(m->expect, "pending"))
		bad |= verify_set(m, sl_ymap_get(m->expect, "pending"), 1, b);
	bad |= sim_clock_verify(m, b);
	if (bad)
		*diff = sl_buf_steal(b);
	sl_buf_free(b);
	return bad;
}
