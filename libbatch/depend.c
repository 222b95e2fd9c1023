/* depend.c - --dependency lists: parse, print, evaluate (depend.h). */
#include "depend.h"
#include "array.h"
#include "buf.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PROBLEM "Job dependency problem"

static const struct {
	const char *name;
	enum sl_dep_type type;
} types[] = {
	{"after", SL_DEP_AFTER},         {"afterany", SL_DEP_AFTERANY},
	{"afterok", SL_DEP_AFTEROK},     {"afternotok", SL_DEP_AFTERNOTOK},
	{"aftercorr", SL_DEP_AFTERCORR}, {"singleton", SL_DEP_SINGLETON},
};

static const char *const state_names[] = {
	[SL_DEP_UNFULFILLED] = "unfulfilled", [SL_DEP_FULFILLED] = "fulfilled",
	[SL_DEP_FAILED] = "failed",
};

static const char *type_name(enum sl_dep_type t)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == t)
			return types[i].name;
	return "?";
}

void sl_deplist_clear(struct sl_deplist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Add t unless a term of that type and job is there already (Slurm keeps
 * the first). */
static int add(struct sl_deplist *l, const struct sl_dep *t, struct sl_err *err)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == t->type && l->v[i].id == t->id && l->v[i].task == t->task)
			return 0;
	if (l->n >= SL_DEP_MAX)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	l->v = sl_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = *t;
	return 0;
}

/* A decimal number below 2^32 (Slurm's job ids and minutes) at *p; *p
 * advances past it. 0 only when zero_ok: an array's task ids start at 0,
 * job ids and minutes do not. */
static int number(const char **p, int zero_ok, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (uint64_t)(*s - '0')) > 0xffffffffu)
			return -1;
	if (v == 0 && !zero_ok)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

/* "(state)" at *p when with_state, else nothing. */
static int state_suffix(const char **p, int with_state, enum sl_dep_state *st)
{
	*st = SL_DEP_UNFULFILLED;
	if (!with_state)
		return 0;
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(state_names[i]);
		if ((*p)[0] == '(' && strncmp(*p + 1, state_names[i], n) == 0 && (*p)[n + 1] == ')') {
			*st = (enum sl_dep_state)i;
			*p += n + 2;
			return 0;
		}
	}
	return -1;
}

/* "ID_[0-2,5]": one term per task, in task order, as slurmctld expands it
 * through a bitmap ("afterok:7_0,afterok:7_1,..."); the set is read as
 * an --array spec is, without a throttle; the text after ']' (+MIN, a
 * state) is each's. */
static int task_list(const char **p, struct sl_dep *d, int with_state, struct sl_deplist *l,
		     struct sl_err *err)
{
	const char *open = *p + 2, *close = strchr(open, ']');
	struct sl_err ignored = SL_ERR_INIT;
	struct sl_array *set = NULL;
	uint64_t min = 0;
	char *text;
	int r;

	/* ids, ranges and steps alone: strtol's blanks and signs, and '%', are not a set */
	if (close == NULL || open + strspn(open, "0123456789,-:") != close)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	*p = close + 1;
	if (**p == '+') {
		(*p)++;
		if (number(p, 0, &min) != 0 || min > 0x7fffffff)
			return sl_err_set(err, SL_EDEPEND, PROBLEM);
		d->minutes = (int)min;
	}
	if (state_suffix(p, with_state, &d->state) != 0)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	text = sl_xstrndup(open, (size_t)(close - open));
	r = sl_array_parse(text, SL_ARRAY_MAX_LIMIT, &set, &ignored);
	free(text);
	if (r != 0)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	for (size_t i = 0; r == 0 && i < sl_array_count(set); i++) {
		d->task = (long)sl_array_task(set, i);
		r = add(l, d, err);
	}
	sl_array_free(set);
	return r;
}

/* One ID[+MIN][(state)] of a term of type t; *p advances. */
static int one_id(const char **p, enum sl_dep_type t, int with_state, struct sl_deplist *l,
		  struct sl_err *err)
{
	struct sl_dep d = {t, 0, -1, 0, SL_DEP_UNFULFILLED};
	uint64_t min = 0, task;

	if (number(p, 0, &d.id) != 0)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	if ((*p)[0] == '_' && (*p)[1] == '[')
		return task_list(p, &d, with_state, l, err);
	if ((*p)[0] == '_' && (*p)[1] == '*') { /* every task of an array */
		*p += 2;
		d.task = SL_DEP_ALL_TASKS;
	} else if (**p == '_') { /* an array's task */
		(*p)++;
		if (number(p, 1, &task) != 0 || task > 0x7fffffff)
			return sl_err_set(err, SL_EDEPEND, PROBLEM);
		d.task = (long)task;
	}
	if (**p == '+') {
		(*p)++;
		if (number(p, 0, &min) != 0 || min > 0x7fffffff)
			return sl_err_set(err, SL_EDEPEND, PROBLEM);
		d.minutes = (int)min;
	}
	if (state_suffix(p, with_state, &d.state) != 0)
		return sl_err_set(err, SL_EDEPEND, PROBLEM);
	return add(l, &d, err);
}

/* One term, from tok up to its end (a ',' or '?' or the end of text). */
static int term(const char *tok, size_t len, int with_state, struct sl_deplist *l,
		struct sl_err *err)
{
	char *t = sl_xstrndup(tok, len);
	const char *p = t, *colon = strchr(t, ':');
	size_t nlen = colon ? (size_t)(colon - t) : strcspn(t, "(");
	int r = -SL_EINVAL;
	size_t i;

	if (t[0] >= '0' && t[0] <= '9' && colon == NULL) { /* a bare id: afterany */
		r = one_id(&p, SL_DEP_AFTERANY, with_state, l, err);
		goto check_end;
	}
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == nlen && strncasecmp(t, types[i].name, nlen) == 0)
			break;
	if (i == sizeof(types) / sizeof(types[0])) {
		if (nlen == 6 && strncasecmp(t, "expand", 6) == 0)
			r = sl_err_set(err, SL_EUNSUPP, "Requested operation not supported on this system");
		else
			r = sl_err_set(err, SL_EDEPEND, PROBLEM);
		goto out;
	}
	p = t + nlen;
	if (types[i].type == SL_DEP_SINGLETON) {
		struct sl_dep d = {SL_DEP_SINGLETON, 0, -1, 0, SL_DEP_UNFULFILLED};
		if (state_suffix(&p, with_state, &d.state) != 0) {
			r = sl_err_set(err, SL_EDEPEND, PROBLEM);
			goto out;
		}
		r = add(l, &d, err);
		goto check_end;
	}
	if (*p != ':') {
		r = sl_err_set(err, SL_EDEPEND, PROBLEM);
		goto out;
	}
	do {
		p++;
		if ((r = one_id(&p, types[i].type, with_state, l, err)) != 0)
			goto out;
	} while (*p == ':');
check_end:
	if (r == 0 && *p != '\0')
		r = sl_err_set(err, SL_EDEPEND, PROBLEM);
out:
	free(t);
	return r;
}

int sl_dep_parse(const char *s, int with_state, struct sl_deplist *out, struct sl_err *err)
{
	const char *p = s;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (s == NULL || *s == '\0')
		return 0;
	out->any = strchr(s, '?') != NULL;
	for (;;) {
		size_t n = 0;
		/* a ',' inside "_[1,3]" is the task list's */
		for (int depth = 0; p[n] && (depth > 0 || (p[n] != ',' && p[n] != '?')); n++)
			depth += (p[n] == '[') - (p[n] == ']');
		if (n == 0) {
			r = sl_err_set(err, SL_EDEPEND, PROBLEM);
			break;
		}
		if ((r = term(p, n, with_state, out, err)) != 0 || p[n] == '\0')
			break;
		p += n + 1;
	}
	if (r != 0)
		sl_deplist_clear(out);
	return r;
}

char *sl_dep_format(const struct sl_deplist *l)
{
	struct sl_buf *b;
	char *t;

	if (l->n == 0)
		return NULL;
	b = sl_buf_new((size_t)SL_DEP_MAX * 64);
	for (size_t i = 0; i < l->n; i++) {
		const struct sl_dep *d = &l->v[i];
		if (i > 0)
			sl_buf_addc(b, l->any ? '?' : ',');
		sl_buf_addstr(b, type_name(d->type));
		if (d->type != SL_DEP_SINGLETON)
			sl_buf_addf(b, ":%llu", (unsigned long long)d->id);
		if (d->task >= 0)
			sl_buf_addf(b, "_%ld", d->task);
		else if (d->task == SL_DEP_ALL_TASKS)
			sl_buf_addstr(b, "_*");
		if (d->minutes > 0)
			sl_buf_addf(b, "+%d", d->minutes);
		sl_buf_addf(b, "(%s)", state_names[d->state]);
	}
	t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

static int ended_ok(const struct sl_dep_job *j)
{
	return j->state == SL_JOB_COMPLETED;
}

/* The state of term d now; *at is when it holds (0: no time to wait for). */
static enum sl_dep_state term_state(const struct sl_dep *d, const struct sl_dep_env *env,
				    int64_t *at)
{
	struct sl_dep_job j = {0};
	int final;

	*at = 0;
	if (d->type == SL_DEP_SINGLETON)
		return env->singleton_blocked(env->arg) ? SL_DEP_UNFULFILLED : SL_DEP_FULFILLED;
	if (d->task >= 0 && env->lookup_task != NULL)
		env->lookup_task(env->arg, d->id, d->task, &j);
	else if (d->type == SL_DEP_AFTERCORR && env->self_array != 0 && env->lookup_task != NULL)
		env->lookup_task(env->arg, d->id, env->self_task, &j);
	else if (d->task < 0)
		env->lookup(env->arg, d->id, &j);
	if (!j.found)
		return SL_DEP_FULFILLED;
	final = sl_jobstate_is_final(j.state);
	switch (d->type) {
	case SL_DEP_AFTER:
		if (j.start_time == 0 && !final)
			return SL_DEP_UNFULFILLED;
		*at = (j.start_time ? j.start_time : j.end_time) + (int64_t)d->minutes * 60;
		return SL_DEP_FULFILLED;
	case SL_DEP_AFTERANY:
		break;
	case SL_DEP_AFTERNOTOK:
		if (final && ended_ok(&j))
			return SL_DEP_FAILED;
		break;
	default: /* afterok, aftercorr */
		if (final && !ended_ok(&j))
			return SL_DEP_FAILED;
		break;
	}
	if (!final)
		return SL_DEP_UNFULFILLED;
	*at = j.end_time + (int64_t)d->minutes * 60;
	return SL_DEP_FULFILLED;
}

enum sl_dep_verdict sl_dep_eval(struct sl_deplist *l, int64_t now, const struct sl_dep_env *env,
				int64_t *wake)
{
	size_t i, kept = 0, failed = 0, met = 0;
	int64_t soonest = 0;

	for (i = 0; i < l->n; i++) {
		struct sl_dep *d = &l->v[i];
		int64_t at;
		/* a term once failed stays failed (slurmctld's DEPEND_FAILED): a
		 * job requeued and run again does not revive it */
		if (d->state == SL_DEP_FAILED) {
			failed++;
			continue;
		}
		d->state = term_state(d, env, &at);
		if (d->state == SL_DEP_FULFILLED && at > now) {
			d->state = SL_DEP_UNFULFILLED; /* its +MIN have not passed */
			if (soonest == 0 || at < soonest)
				soonest = at;
		}
		failed += d->state == SL_DEP_FAILED;
		met += d->state == SL_DEP_FULFILLED;
	}
	if (wake != NULL)
		*wake = soonest;
	if (l->any && met > 0)
		l->n = 0;
	for (i = 0; i < l->n; i++) /* AND: what holds leaves the list */
		if (l->v[i].state != SL_DEP_FULFILLED)
			l->v[kept++] = l->v[i];
	l->n = kept;
	if (l->n == 0) {
		if (wake != NULL)
			*wake = 0;
		return SL_DEP_READY;
	}
	if (l->any ? failed == l->n : failed > 0)
		return SL_DEP_NEVER;
	return SL_DEP_WAIT;
}

int sl_dep_names(const struct sl_deplist *l, uint64_t id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type != SL_DEP_SINGLETON && l->v[i].id == id)
			return 1;
	return 0;
}

int sl_dep_has_singleton(const struct sl_deplist *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == SL_DEP_SINGLETON)
			return 1;
	return 0;
}
