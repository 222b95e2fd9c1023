/* squeue_sort.c - squeue's job order (-S), as Slurm 22.05 sorts.
 *
 * Slurm does not compare keys left to right. It takes slurmctld's job list
 * (creation order: ascending ids; for squeue -j with one id, the order of
 * slurm_load_job: sl_squeue_sort_loaded), sorts it by start time, newest first
 * (print.c's sort_jobs_by_start_time), then sorts it once per key of -S,
 * from the last key to the first (sort.c). Each pass is glibc's qsort,
 * which is a merge sort, so each pass keeps the order of the previous one
 * among equal jobs: running jobs of one priority come out by start time,
 * newest first, then by ascending id. The start-time comparator is not a
 * consistent order (a job without a start time compares greater than
 * anything, itself included), and what glibc's merge makes of it is part
 * of what users see: jobs without a start come last, in reverse. So the
 * passes below run the same top-down merge as glibc's msort, and the
 * comparators are Slurm's, unknown start included. The cost is one merge
 * pass per key (n log n each) where a single combined sort would do; n is
 * the jobs squeue prints. */
#include "squeue_fmt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "prio.h"
#include "xalloc.h"

#define KEYS_MAX 64

struct pass {
	char key;    /* a -S letter; 'X' for "cluster" */
	int reverse;
	int64_t now;
};

typedef int (*cmp_fn)(const struct sl_job *a, const struct sl_job *b, const struct pass *p);

static int diff(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* A time limit as squeue receives it (uint32): unset and unlimited are
 * INFINITE, since Sluice's partitions have no MaxTime. */
static int64_t limit_u32(const struct sl_job *j)
{
	return j->spec.time_limit < 0 ? (int64_t)UINT32_MAX : j->spec.time_limit;
}

static int64_t time_left(const struct sl_job *j, int64_t now)
{
	if (j->spec.time_limit < 0)
		return (int64_t)UINT32_MAX;
	return sl_jobspec_limit_secs(&j->spec) - sl_squeue_time_used(j, now);
}

/* slurmctld's end_time: the end, else the start plus the limit. */
static int64_t end_time(const struct sl_job *j)
{
	if (j->end_time != 0 || j->start_time == 0 || j->spec.time_limit < 0)
		return j->end_time;
	return j->start_time + sl_jobspec_limit_secs(&j->spec);
}

static int64_t min_memory(const struct sl_job *j)
{
	if (j->spec.mem_per_node > 0)
		return j->spec.mem_per_node;
	return j->spec.mem_per_cpu > 0 ? j->spec.mem_per_cpu : 0;
}

static int cpus(const struct sl_job *j)
{
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	return j->alloc_cpus > 0 ? j->alloc_cpus : sh.cpus_per_node * sh.nodes;
}

static int nodes(const struct sl_job *j)
{
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	return sl_job_nodes_shown(j, &sh);
}

/* The batch host: the first name of the node list ("n[1-3]" -> "n1"). */
static void first_host(const struct sl_job *j, char *buf, size_t len)
{
	sl_hostlist_first(j->nodelist, buf, len);
}

/* hostlist_cmp_first: the first hosts' prefixes, then their numbers. */
static int cmp_hosts(const struct sl_job *a, const struct sl_job *b)
{
	char ha[256], hb[256];
	size_t pa, pb;
	int d;

	first_host(a, ha, sizeof(ha));
	first_host(b, hb, sizeof(hb));
	pa = strcspn(ha, "0123456789");
	pb = strcspn(hb, "0123456789");
	if ((d = strncmp(ha, hb, pa < pb ? pa : pb)) != 0 || pa != pb)
		return d ? d : diff((int64_t)pa, (int64_t)pb);
	return diff(strtoll(ha + pa, NULL, 10), strtoll(hb + pb, NULL, 10));
}

/* _get_start_time(): a pending job's past start is "now". */
static int64_t start_of(const struct sl_job *j, int64_t now)
{
	return j->state == SL_JOB_PENDING && j->start_time < now ? now : j->start_time;
}

/* _sort_job_by_id(): an array's records by the array's id, then by task
 * (its pending meta record, no one task, after them), so that the last
 * task, which has the array's own id (array.h), sorts last of them. */
static int cmp_id(const struct sl_job *a, const struct sl_job *b)
{
	uint64_t ia = a->array_job_id ? a->array_job_id : a->id;
	uint64_t ib = b->array_job_id ? b->array_job_id : b->id;

	if (ia != ib || a->array_job_id == 0 || b->array_job_id == 0)
		return diff((int64_t)ia, (int64_t)ib);
	return diff(a->array_tasks ? INT64_MAX : a->array_task_id,
		    b->array_tasks ? INT64_MAX : b->array_task_id);
}

/* _sort_job_by_time_start(), inconsistency included: see the top. */
static int cmp_start(const struct sl_job *a, const struct sl_job *b, const struct pass *p)
{
	int d;
	if (a->start_time == 0)
		return 1;
	if (b->start_time == 0)
		return -1;
	d = diff(start_of(a, p->now), start_of(b, p->now));
	return p->reverse ? -d : d;
}

static int cmp_key(const struct sl_job *a, const struct sl_job *b, const struct pass *p)
{
	char ha[256], hb[256];
	int d;

	switch (p->key) {
	case 'B':
		first_host(a, ha, sizeof(ha));
		first_host(b, hb, sizeof(hb));
		d = strcmp(ha, hb);
		break;
	case 'C': d = diff(cpus(a), cpus(b)); break;
	case 'd': d = diff(a->spec.tmp_mb, b->spec.tmp_mb); break;
	case 'D': d = diff(nodes(a), nodes(b)); break;
	case 'e': d = diff(end_time(a), end_time(b)); break;
	case 'g': d = str(a->group, b->group); break;
	case 'G': d = diff(a->gid, b->gid); break;
	case 'i': d = cmp_id(a, b); break;
	case 'j': d = str(a->spec.name, b->spec.name); break;
	case 'l': d = diff(limit_u32(a), limit_u32(b)); break;
	case 'L': d = diff(time_left(a, p->now), time_left(b, p->now)); break;
	case 'm': d = diff(min_memory(a), min_memory(b)); break;
	case 'M': d = diff(sl_squeue_time_used(a, p->now), sl_squeue_time_used(b, p->now)); break;
	case 'N': d = cmp_hosts(a, b); break;
	case 'O': d = diff(a->spec.contiguous, b->spec.contiguous); break;
	case 'p': case 'Q': d = diff(sl_prio_slurm(a), sl_prio_slurm(b)); break; /* as shown */
	case 'P': d = str(a->spec.partition, b->spec.partition); break;
	case 't': d = strcmp(sl_jobstate_code(a->state), sl_jobstate_code(b->state)); break;
	case 'T': d = strcmp(sl_jobstate_name(a->state), sl_jobstate_name(b->state)); break;
	case 'u': d = str(a->user, b->user); break;
	case 'U': d = diff(a->uid, b->uid); break;
	case 'V': d = diff(a->submit_time, b->submit_time); break;
	default: d = 0; break; /* keys whose values are the same for every Sluice job */
	}
	return p->reverse ? -d : d;
}

/* glibc's msort_with_tmp(): halves sorted in place, then merged; the
 * left one wins ties (and whatever cmp says "not greater" about). */
static void merge_sort(struct sl_job **v, size_t n, struct sl_job **tmp, cmp_fn cmp,
		       const struct pass *p)
{
	size_t n1 = n / 2, n2 = n - n1, k = 0;
	struct sl_job **b1 = v, **b2 = v + n1;

	if (n <= 1)
		return;
	merge_sort(b1, n1, tmp, cmp, p);
	merge_sort(b2, n2, tmp, cmp, p);
	while (n1 > 0 && n2 > 0) {
		if (cmp(*b1, *b2, p) <= 0) {
			tmp[k++] = *b1++;
			n1--;
		} else {
			tmp[k++] = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(tmp + k, b1, n1 * sizeof(*tmp));
	memcpy(v, tmp, (n - n2) * sizeof(*tmp));
}

/* A stable sort leaves a list already in order as it is, so one look
 * along it (n - 1 compares) stands for a pass of n log n when the jobs
 * share the key, as the partition, state and priority of most listings
 * do. Only for consistent orders: not the start pass (see the top). */
static int ordered(struct sl_job *const *v, size_t n, cmp_fn cmp, const struct pass *p)
{
	for (size_t i = 1; i < n; i++)
		if (cmp(v[i - 1], v[i], p) > 0)
			return 0;
	return 1;
}

static int by_id(const void *pa, const void *pb)
{
	return cmp_id(*(struct sl_job *const *)pa, *(struct sl_job *const *)pb);
}

/* Letters Slurm sorts by (those without a Sluice value sort nothing); 'b'
 * is only a warning in Slurm, and a no-op here. */
static const char known[] = "BbcCdDefgGhHiIjJlLmMnNOpPQStTuUvVz";

/* The passes of spec, last key first (Slurm's walk, errors included: the
 * last bad letter is the one reported). */
static int parse(const char *spec, struct pass *keys, size_t *n, int64_t now, struct sl_err *err)
{
	const size_t cl = strlen("cluster");

	*n = 0;
	for (size_t i = strlen(spec); i-- > 0;) {
		struct pass k = {spec[i], i > 0 && spec[i - 1] == '-', now};
		if (spec[i] == ',' || spec[i] == '+' || spec[i] == '-')
			continue;
		if (i + 1 >= cl && strncasecmp(spec + i + 1 - cl, "cluster", cl) == 0) {
			k.key = 'X';
			k.reverse = i >= cl && spec[i - cl] == '-';
			i -= cl - 1;
		} else if (strchr(known, spec[i]) == NULL) {
			return sl_err_set(err, SL_EINVAL, "Invalid sort specification: %c", spec[i]);
		}
		if (*n < KEYS_MAX)
			keys[(*n)++] = k;
	}
	return 0;
}

static int sort_from(struct sl_job **v, size_t n, const char *spec, int64_t now, int by_ids,
		     struct sl_err *err)
{
	struct pass keys[KEYS_MAX], start = {'S', 1, now}, by_id_pass = {'i', 0, now};
	struct sl_job **tmp;
	size_t nk;
	int r;

	if ((r = parse(spec ? spec : SL_SQUEUE_SORT_DEFAULT, keys, &nk, now, err)) != 0)
		return r;
	tmp = sl_xcalloc(n + 1, sizeof(*tmp));
	if (by_ids && !ordered(v, n, cmp_key, &by_id_pass)) /* sluiced lists in id order */
		qsort(v, n, sizeof(*v), by_id);
	merge_sort(v, n, tmp, cmp_start, &start);
	for (size_t k = 0; k < nk; k++)
		if (keys[k].key == 'S')
			merge_sort(v, n, tmp, cmp_start, &keys[k]);
		else if (!ordered(v, n, cmp_key, &keys[k]))
			merge_sort(v, n, tmp, cmp_key, &keys[k]);
	free(tmp);
	return 0;
}

int sl_squeue_sort(struct sl_job **v, size_t n, const char *spec, int64_t now,
		   struct sl_err *err)
{
	return sort_from(v, n, spec, now, 1, err);
}

int sl_squeue_sort_loaded(struct sl_job **v, size_t n, const char *spec, int64_t now,
			  struct sl_err *err)
{
	return sort_from(v, n, spec, now, 0, err);
}
