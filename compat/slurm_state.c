/* slurm_state.c - parse the job selectors of squeue/scancel/sacct. */
#include "slurm_state.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

/* Slurm's own list, in its order (slurm_protocol_defs.c), so the error
 * text matches squeue's byte for byte. */
const char sl_slurm_valid_states[] =
	"PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,"
	"PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,"
	"RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,"
	"STAGE_OUT,STOPPED";

/* States (and flags) Slurm accepts that Sluice never enters. */
static const char *const foreign[][2] = {
	{"SUSPENDED", "S"}, {"DEADLINE", "DL"}, {"RESIZING", "RS"},
	{"RESV_DEL_HOLD", "RD"}, {"REQUEUED", "RQ"}, {"REQUEUE_FED", "RF"},
	{"REQUEUE_HOLD", "RH"}, {"REVOKED", "RV"}, {"SIGNALING", "SI"},
	{"SPECIAL_EXIT", "SE"}, {"STAGE_OUT", "SO"}, {"STOPPED", "ST"},
};

static int is_foreign(const char *s)
{
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		if (strcasecmp(s, foreign[i][0]) == 0 || strcasecmp(s, foreign[i][1]) == 0)
			return 1;
	return 0;
}

static void add_state(struct sl_statesel *o, int st)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->states[i] == st)
			return;
	o->states = sl_xrealloc(o->states, (o->n + 1) * sizeof(*o->states));
	o->states[o->n++] = st;
}

int sl_slurm_states_parse(const char *list, struct sl_statesel *out, struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL, *tok;
	int named = 0, r = 0, st;

	memset(out, 0, sizeof(*out));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		named++;
		if (strcasecmp(tok, "all") == 0)
			out->all = 1;
		else if ((st = sl_jobstate_parse(tok)) >= 0)
			add_state(out, st);
		else if (!is_foreign(tok)) {
			r = sl_err_set(err, SL_EINVAL, "%s", tok);
			break;
		}
	}
	free(copy);
	if (r != 0) {
		sl_statesel_clear(out);
		return r;
	}
	if (out->all) {
		free(out->states);
		out->states = NULL;
		out->n = 0;
	}
	out->matches_none = named > 0 && !out->all && out->n == 0;
	return 0;
}

void sl_statesel_clear(struct sl_statesel *s)
{
	free(s->states);
	memset(s, 0, sizeof(*s));
}

int sl_statesel_match(const struct sl_statesel *s, enum sl_jobstate st)
{
	if (s->matches_none)
		return 0;
	if (s->all || s->n == 0)
		return 1;
	for (size_t i = 0; i < s->n; i++)
		if (s->states[i] == (int)st)
			return 1;
	return 0;
}

static int read_u64(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*pp = p;
	*v = x;
	return 0;
}

/* Slurm's commands read ids with strtol, each with its own checks; the
 * strict reading is Sluice's own (scontrol's other verbs, sstat, -s). */
int sl_slurm_jobid_read(const char *s, unsigned how, uint64_t *id, long *task)
{
	uint64_t v, t;
	char *end;

	*task = -1;
	if (how & SL_JOBID_STRTOL) {
		if (!isdigit((unsigned char)*s))
			return -SL_EINVAL;
		*id = strtoull(s, &end, 10);
		if (*end == '_') {
			long n = strtol(end + 1, NULL, 10);
			*task = n < 0 ? 0 : n;
		}
		return 0;
	}
	if (read_u64(&s, &v) != 0 || v == 0)
		return -SL_EINVAL;
	if (*s == '_') {
		s++;
		if ((how & SL_JOBID_BARE_TASK) && *s == '\0')
			t = 0;
		else if (read_u64(&s, &t) != 0 || t > 0x7fffffff)
			return -SL_EINVAL;
		*task = (long)t;
	}
	if (*s != '\0')
		return -SL_EINVAL;
	*id = v;
	return 0;
}

int sl_slurm_jobid_parse(const char *s, uint64_t *id, long *task)
{
	return sl_slurm_jobid_read(s, 0, id, task);
}

void sl_slurm_list_append(char ***v, size_t *n, const char *list)
{
	char *copy = sl_xstrdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
		(*v)[(*n)++] = sl_xstrdup(tok);
		(*v)[*n] = NULL;
	}
	free(copy);
}

static int user_uid(const char *name, uid_t *uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096], *end;
	unsigned long v;

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &res) == 0 && res != NULL) {
		*uid = res->pw_uid;
		return 0;
	}
	/* a number, as uid_from_string takes it: a uid the user database has */
	errno = 0;
	v = strtoul(name, &end, 10);
	if (isdigit((unsigned char)name[0]) && *end == '\0' && errno == 0 && v <= INT_MAX &&
	    getpwuid_r((uid_t)v, &pw, buf, sizeof(buf), &res) == 0 && res != NULL) {
		*uid = (uid_t)v;
		return 0;
	}
	return -SL_ENOENT;
}

int sl_slurm_users_parse(const char *list, uid_t **uids, size_t *n, struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL, *tok;
	int r = 0;
	uid_t u;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (user_uid(tok, &u) != 0) {
			r = sl_err_set(err, SL_ENOENT, "%s", tok);
			break;
		}
		*uids = sl_xrealloc(*uids, (*n + 1) * sizeof(**uids));
		(*uids)[(*n)++] = u;
	}
	free(copy);
	return r;
}

void sl_jobsel_filter(const struct sl_jobsel *sel, struct sl_jobfilter *f)
{
	f->ids = sel->ids;
	f->n_ids = sel->n_ids;
	f->uids = sel->uids;
	f->n_uids = sel->n_uids;
	f->partitions = sel->parts;
	f->n_partitions = sel->n_parts;
	f->accounts = sel->accounts;
	f->n_accounts = sel->n_accounts;
	f->names = sel->names;
	f->n_names = sel->n_names;
	f->qos = sel->qos;
	f->n_qos = sel->n_qos;
	f->nodes = sel->nodes;
	f->n_nodes = sel->n_nodes;
	f->wckeys = sel->wckeys;
	f->n_wckeys = sel->n_wckeys;
	f->tasks = sel->tasks;
	f->n_tasks = sel->n_tasks;
}

void sl_jobsel_add_id(struct sl_jobsel *sel, uint64_t id, long task)
{
	if (task < 0) {
		sel->ids = sl_xrealloc(sel->ids, (sel->n_ids + 1) * sizeof(*sel->ids));
		sel->ids[sel->n_ids++] = id;
		return;
	}
	sel->tasks = sl_xrealloc(sel->tasks, (sel->n_tasks + 1) * sizeof(*sel->tasks));
	sel->tasks[sel->n_tasks++] = (struct sl_taskid){id, (uint32_t)task};
}

void sl_jobsel_clear(struct sl_jobsel *sel)
{
	free(sel->ids);
	free(sel->tasks);
	free(sel->uids);
	sl_strv_free(sel->parts);
	sl_strv_free(sel->accounts);
	sl_strv_free(sel->names);
	sl_strv_free(sel->qos);
	sl_strv_free(sel->nodes);
	sl_strv_free(sel->wckeys);
	sl_statesel_clear(&sel->states);
	memset(sel, 0, sizeof(*sel));
}
