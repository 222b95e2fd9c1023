/* sacct_cond.c - sacct's -g, -i, -I, -k and -K (sacct_cond.h). */
#include "sacct_cond.h"

#include <ctype.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_reason.h"
#include "slurm_time.h"
#include "xalloc.h"

void sl_sacct_cond_init(struct sl_sacct_cond *c)
{
	memset(c, 0, sizeof(*c));
	c->tl_min = c->tl_max = -1;
}

void sl_sacct_cond_clear(struct sl_sacct_cond *c)
{
	free(c->gids);
	free(c->reasons);
	sl_sacct_cond_init(c);
}

int sl_sacct_cond_groups(struct sl_sacct_cond *c, const char *list, struct sl_err *err)
{
	char *dup = sl_xstrdup(list), *save = NULL;
	int r = 0;
	for (char *t = strtok_r(dup, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		struct group *g = NULL;
		char *end = NULL;
		long id = strtol(t, &end, 10);
		if (*t == '\0' || *end != '\0' || id < 0 || id > (long)(gid_t)-1 - 1) {
			if ((g = getgrnam(t)) == NULL) {
				r = sl_err_set(err, SL_EINVAL, "sacct: error: Invalid group id: %s", t);
				break;
			}
			id = (long)g->gr_gid;
		}
		c->gids = sl_xrealloc(c->gids, (c->n_gids + 1) * sizeof(*c->gids));
		c->gids[c->n_gids++] = (gid_t)id;
	}
	free(dup);
	return r;
}

int sl_sacct_cond_reasons(struct sl_sacct_cond *c, const char *list, struct sl_err *err)
{
	char *dup = sl_xstrdup(list), *save = NULL;
	int r = 0;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *name = sl_slurm_reason_name(t);
		if (name == NULL) {
			r = sl_err_set(err, SL_EINVAL,
				       "sacct: fatal: unrecognized job reason value '%s'", t);
			break;
		}
		c->reasons = sl_xrealloc(c->reasons, (c->n_reasons + 1) * sizeof(*c->reasons));
		c->reasons[c->n_reasons++] = name;
	}
	free(dup);
	return r;
}

const char *sl_sacct_cond_reason_of(const struct sl_job *j)
{
	if (sl_job_ran(j))
		return j->start_reason ? j->start_reason : "None";
	return j->reason ? j->reason : "None";
}

/* Digits up to end: 0, -1 when not a number, 1 when past INT_MAX. */
static int count(const char *s, const char *end, int64_t *out)
{
	int64_t v = 0;
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		if (v > (INT_MAX - (*s - '0')) / 10)
			return 1;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

/* Slurm's get_resource_arg_range; a minimum of 0 asks nothing (slurmdbd
 * ignores it). */
int sl_sacct_cond_range(const char *arg, const char *what, int64_t *lo, int64_t *hi,
			struct sl_err *err)
{
	const char *dash = strchr(arg, '-'), *end = arg + strlen(arg);
	int a = count(arg, dash ? dash : end, lo), b = dash ? count(dash + 1, end, hi) : 0;
	if (a == 1 || b == 1)
		return sl_err_set(err, SL_EINVAL, "sacct: error: Numeric argument (%s) to big for "
				  "requested %s range.", arg, what);
	if (a != 0 || b != 0 || (dash && *hi <= 0))
		return sl_err_set(err, SL_EINVAL, "sacct: error: Invalid numeric value \"%s\" for "
				  "requested %s range.", arg, what);
	if (!dash)
		*hi = *lo;
	return 0;
}

int sl_sacct_cond_time(const char *arg, int64_t *minutes, struct sl_err *err)
{
	if (sl_slurm_time_parse_limit(arg, minutes) != 0 ||
	    (*minutes <= 0 && *minutes != SL_TIME_INFINITE))
		return sl_err_set(err, SL_EINVAL, "sacct: fatal: Invalid time limit specification");
	if (*minutes == SL_TIME_INFINITE) /* UNLIMITED: above every limit, as tl_of's */
		*minutes = INT64_MAX;
	return 0;
}

int sl_sacct_cond_match(const struct sl_sacct_cond *c, const struct sl_job *j)
{
	int64_t tl = j->spec.time_limit;
	if (c->n_gids > 0) {
		size_t i = 0;
		while (i < c->n_gids && c->gids[i] != (gid_t)j->gid)
			i++;
		if (i == c->n_gids)
			return 0;
	}
	if (c->n_reasons > 0) {
		const char *why = sl_sacct_cond_reason_of(j);
		size_t i = 0;
		while (i < c->n_reasons && strcasecmp(c->reasons[i], why) != 0)
			i++;
		if (i == c->n_reasons)
			return 0;
	}
	if (c->nodes_set && c->nodes_lo > 0 &&
	    (j->alloc_nodes < c->nodes_lo || j->alloc_nodes > c->nodes_hi))
		return 0;
	if (c->cpus_set && c->cpus_lo > 0 &&
	    (j->alloc_cpus < c->cpus_lo || j->alloc_cpus > c->cpus_hi))
		return 0;
	if (c->tl_min >= 0) {
		if (tl < 0) /* no limit: UNLIMITED, above any */
			tl = INT64_MAX;
		if (c->tl_max >= 0 ? (tl < c->tl_min || tl > c->tl_max) : tl != c->tl_min)
			return 0;
	}
	return 1;
}
