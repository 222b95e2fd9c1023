/* msg.c - pending-reason text. The cycle records why a head waits as
 * numbers (struct sq_reason: resource, flavor, amounts); the sentence in
 * Kueue's wording is built only when sl_sched_pending_info() asks for it,
 * and cached until the status changes. Most heads are retried and their
 * status overwritten long before anyone reads it. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "quantity.h"
#include "xalloc.h"

static void status_reset(struct sq_wl *w, enum sl_sched_class cls, const char *reason)
{
	free(w->msg);
	w->msg = NULL;
	w->msg_ok = false;
	w->cls = cls;
	w->reason = reason;
	w->mkind = SQ_M_NONE;
	w->smsg = NULL;
	w->nrv = 0;
}

void sq_set_status(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		   const char *fmt, ...)
{
	status_reset(w, cls, reason);
	w->msg_ok = true;
	if (!fmt)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&w->msg, fmt, ap) < 0)
		w->msg = NULL;
	va_end(ap);
	w->mkind = SQ_M_TEXT;
}

/* w's reasons: a copy of rv[0..n). */
static void set_reasons(struct sq_wl *w, const struct sq_reason *rv, size_t n)
{
	if (n > w->caprv) {   /* exact: 100 000 pending workloads keep one each */
		w->caprv = n;
		w->rv = sl_xrealloc(w->rv, w->caprv * sizeof(*w->rv));
	}
	if (n)
		memcpy(w->rv, rv, n * sizeof(*w->rv));
	w->nrv = n;
}

void sq_status_static(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		      const char *text)
{
	status_reset(w, cls, reason);
	w->mkind = SQ_M_STATIC;
	w->smsg = text;
}

void sq_status_assign(struct sq_wl *w, enum sl_sched_class cls, const char *reason,
		      const struct sq_assign *a, size_t npre)
{
	status_reset(w, cls, reason);
	w->mkind = npre == SIZE_MAX ? SQ_M_ASSIGN : SQ_M_PREEMPTING;
	w->npre = npre;
	set_reasons(w, a->rv, a->nrv);
}

/* An equivalent workload parked with src fails for the same reason. */
void sq_status_copy(struct sq_wl *w, const struct sq_wl *src)
{
	status_reset(w, src->cls, src->reason);
	w->tried = src->tried;
	w->mkind = src->mkind;
	w->smsg = src->smsg;
	w->npre = src->npre;
	if (src->mkind == SQ_M_TEXT) {
		w->msg = src->msg ? sl_xstrdup(src->msg) : NULL;
		w->msg_ok = true;
	}
	set_reasons(w, src->rv, src->nrv);
}

static char *qstr(int64_t v, char *buf, size_t len)
{
	sl_quantity_format(v, buf, len);
	return buf;
}

static char *reason_text(const struct sl_sched *s, const struct sq_reason *r)
{
	char b1[64], b2[64], b3[64];
	switch (r->kind) {
	case SQ_R_MAXCAP:
		return sl_xasprintf("insufficient quota for %s in flavor %s, previously considered "
				    "podsets requests (%s) + current podset request (%s) > maximum "
				    "capacity (%s)", s->res[s->fr_res[r->a]],
				    s->flv[s->fr_flv[r->a]].name, qstr(r->x, b1, sizeof(b1)),
				    qstr(r->y, b2, sizeof(b2)), qstr(r->z, b3, sizeof(b3)));
	case SQ_R_UNUSED:
		return sl_xasprintf("insufficient unused quota for %s in flavor %s, %s more needed",
				    s->res[s->fr_res[r->a]], s->flv[s->fr_flv[r->a]].name,
				    qstr(r->x, b1, sizeof(b1)));
	case SQ_R_NOT_FOUND:
		return sl_xasprintf("flavor %s not found", s->flv[r->a].f.name);
	case SQ_R_TAINT: {
		const struct sl_kq_flavor *f = &s->flv[r->a].f;
		const struct sl_kq_taint *x = &f->taints[r->b];
		return sl_xasprintf("untolerated taint {%s %s %s <nil>} in flavor %s", x->key,
				    x->value, x->effect, f->name);
	}
	case SQ_R_TAS:
		return sl_xstrdup(sq_tas_msg(s, r->a));
	case SQ_R_AFFINITY:
		return sl_xasprintf("flavor %s doesn't match node affinity", s->flv[r->a].f.name);
	default:
		return sl_xasprintf("resource %s unavailable in ClusterQueue", s->res[r->a]);
	}
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "couldn't assign flavors to pod set P: r1, r2" per pod set with
 * reasons (sorted, as Kueue sorts them), joined by "; ". */
static char *assign_text(const struct sl_sched *s, const struct sq_wl *w)
{
	char **v = sl_xcalloc(w->nrv + 1, sizeof(*v));
	char *out = sl_xstrdup("");
	for (size_t i = 0; i < w->nrv;) {
		size_t j = i;
		for (; j < w->nrv && w->rv[j].ps == w->rv[i].ps; j++)
			v[j - i] = reason_text(s, &w->rv[j]);
		qsort(v, j - i, sizeof(*v), cmpstr);
		size_t len = strlen(out) + strlen(w->ps[w->rv[i].ps].name) + 64;
		for (size_t k = 0; k < j - i; k++)
			len += strlen(v[k]) + 2;
		char *m = sl_xmalloc(len);
		int n = snprintf(m, len, "%s%scouldn't assign flavors to pod set %s: ", out,
				 out[0] ? "; " : "", w->ps[w->rv[i].ps].name);
		for (size_t k = 0; k < j - i; k++) {
			n += snprintf(m + n, len - (size_t)n, "%s%s", k ? ", " : "", v[k]);
			free(v[k]);
		}
		free(out);
		out = m;
		i = j;
	}
	free(v);
	return out;
}

const char *sq_status_message(const struct sl_sched *s, struct sq_wl *w)
{
	if (w->msg_ok)
		return w->msg;
	switch (w->mkind) {
	case SQ_M_STATIC:
		return w->smsg;
	case SQ_M_ASSIGN:
		w->msg = assign_text(s, w);
		break;
	case SQ_M_PREEMPTING: {
		char *a = assign_text(s, w);
		w->msg = sl_xasprintf("%s. Pending the preemption of %zu workload(s)", a, w->npre);
		free(a);
		break;
	}
	default:
		break;
	}
	w->msg_ok = true;
	return w->msg;
}
