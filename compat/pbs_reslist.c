/* pbs_reslist.c - a job's Resource_List as OpenPBS's server holds it: the
 * entries qsub keeps beside the shape (select, nodes, place, pmem, pvmem)
 * and the list qstat -f prints (pbs_reslist.h cites the server's lines). */
#include "pbs_reslist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "pbs_job.h"
#include "xalloc.h"

#define LIST_MAX 16384 /* four -l values at their cap (RES_MAX_LEN) */

/* ---- PBS's sizes (src/lib/Libattr/attr_fn_size.c) ------------------------ */

struct psize {
	unsigned long long num;
	int shift; /* 0 bytes, 10 kb, ... */
	int words;
};

/* to_size() of an encoded size ("4gb", "1024b", "3mw"). 0 or -1. */
static int psize_of(const char *v, struct psize *s)
{
	static const char units[] = "kmgtp";
	char *end;
	const char *u;

	if (!isdigit((unsigned char)*v))
		return -1;
	s->num = strtoull(v, &end, 10);
	s->shift = 0;
	s->words = 0;
	if (*end != '\0' && (u = strchr(units, tolower((unsigned char)*end))) != NULL) {
		s->shift = 10 * (int)(u - units + 1);
		end++;
	}
	if (*end == 'w' || *end == 'W')
		s->words = 1;
	return 0;
}

/* normalize_size(): both in bytes if either is, in kb at least, in the
 * smaller unit; -1 when one would overflow. */
static int psize_normalize(struct psize *a, struct psize *b)
{
	struct psize *p[2] = {a, b};

	if (a->words != b->words) {
		struct psize *w = a->words ? a : b;
		w->num *= 8;
		w->words = 0;
	}
	for (int i = 0; i < 2; i++)
		if (p[i]->shift == 0) {
			p[i]->num = (p[i]->num + 1023) >> 10;
			p[i]->shift = 10;
		}
	for (int i = 0; i < 2; i++) {
		struct psize *big = p[i], *small = p[1 - i];
		int adj = big->shift - small->shift;
		if (adj > 0) {
			if (adj >= 64 || (big->num << adj) >> adj != big->num)
				return -1;
			big->num <<= adj;
			big->shift = small->shift;
		}
	}
	return 0;
}

/* set_size(INCR): adding to nothing sets. */
static int psize_add(struct psize *sum, int *set, struct psize add)
{
	if (!*set || sum->num == 0) {
		*sum = add;
		*set = 1;
		return 0;
	}
	if (psize_normalize(sum, &add) != 0 || sum->num + add.num < sum->num)
		return -1;
	sum->num += add.num;
	return 0;
}

/* from_size() */
static void psize_text(const struct psize *s, char *buf, size_t len)
{
	static const char *const units[] = {"", "k", "m", "g", "t", "p"};

	snprintf(buf, len, "%llu%s%s", s->num, units[s->shift / 10], s->words ? "w" : "b");
}

/* get_kilobytes_from_attr() */
static unsigned long long psize_kb(const struct psize *s)
{
	unsigned long long v = s->num * (s->words ? 8 : 1);

	return s->shift == 0 ? (v + 1023) >> 10 : v << (s->shift - 10);
}

/* ---- what qsub keeps ------------------------------------------------------- */

/* b's text, b freed. */
static char *take(struct sl_buf *b)
{
	char *t = sl_buf_steal(b);

	sl_buf_free(b);
	return t;
}

static void put(struct sl_buf *b, const char *name, const char *value)
{
	if (value == NULL || *value == '\0')
		return;
	if (sl_buf_len(b) > 0)
		sl_buf_addc(b, ',');
	sl_buf_addf(b, "%s=%s", name, value);
}

/* ctnodes() (src/server/resc_attr.c:78): a part's count, or 1 for a host. */
static int nodes_count(const char *spec)
{
	int n = 0;

	const char *p = spec;

	for (;;) {
		n += isdigit((unsigned char)*p) ? atoi(p) : 1;
		if ((p = strchr(p, '+')) == NULL)
			break;
		p++;
	}
	return n > 0 ? n : 1;
}

/* cvt_nodespec_to_select(): each '+' part "N:ncpus=PPN", the job's mem
 * spread over the nodes in KB, then mpiprocs=PPN when it is not 1. Sluice
 * takes Torque's gpus=G too (PBS does not), written as the ngpus it
 * becomes, where PBS writes a property. */
static char *nodes_select(const struct sl_pbs_res *r)
{
	struct sl_buf *b = sl_buf_new(LIST_MAX);
	char *copy = sl_xstrdup(r->nodes_given), *save = NULL, *part, mem[48] = "";
	struct psize m;

	if (r->mem_given[0] != '\0' && psize_of(r->mem_given, &m) == 0)
		snprintf(mem, sizeof(mem), ":mem=%lluKB",
			 psize_kb(&m) / (unsigned long long)nodes_count(r->nodes_given));
	for (part = strtok_r(copy, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
		int count = isdigit((unsigned char)*part) ? atoi(part) : 1, ppn = 1, gpus = -1;
		char *s2 = NULL;
		for (char *t = strtok_r(part, ":", &s2); t; t = strtok_r(NULL, ":", &s2)) {
			if (strncmp(t, "ppn=", 4) == 0)
				ppn = atoi(t + 4);
			else if (strncmp(t, "gpus=", 5) == 0)
				gpus = atoi(t + 5);
		}
		sl_buf_addf(b, "%s%d:ncpus=%d%s", sl_buf_len(b) ? "+" : "", count, ppn, mem);
		if (gpus >= 0)
			sl_buf_addf(b, ":ngpus=%d", gpus);
		if (ppn != 1)
			sl_buf_addf(b, ":mpiprocs=%d", ppn);
	}
	free(copy);
	return take(b);
}

/* set_select_and_place() without a nodes spec: "1", then each job-wide
 * resource that goes into a chunk (ATR_DFLAG_CVTSLT), by name. NULL when
 * none was given: the shape's select says it. */
static char *jobwide_select(const struct sl_pbs_res *r)
{
	char out[160] = "1", num[40];

	if (r->mem_given[0] != '\0')
		snprintf(out + strlen(out), sizeof(out) - strlen(out), ":mem=%s", r->mem_given);
	const struct {
		const char *name;
		int v;
	} longs[] = {{"ncpus", r->ncpus}, {"ngpus", r->ngpus}, {"ompthreads", r->ompthreads}};
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		if (longs[i].v < 0)
			continue;
		snprintf(num, sizeof(num), ":%s=%d", longs[i].name, longs[i].v);
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s", num);
	}
	return strcmp(out, "1") == 0 ? NULL : sl_xstrdup(out);
}

char *sl_pbs_reslist_make(const struct sl_pbs_res *r)
{
	struct sl_buf *b = sl_buf_new(LIST_MAX);
	char *select = NULL;
	const char *place = r->place_given;

	if (r->procs > 0) {
		/* Torque's procs: no select says it; the shape's is shown */
	} else if (r->from == 'n') {
		put(b, "nodes", r->nodes_given);
		select = nodes_select(r);
		place = place ? place : "scatter";
	} else if (r->from == 's') {
		select = sl_xstrdup(r->select_given);
		place = place ? place : "free";
	} else {
		select = jobwide_select(r);
		place = place ? place : "pack";
	}
	if (r->procs <= 0)
		put(b, "place", place);
	put(b, "pmem", r->pmem_given);
	put(b, "pvmem", r->pvmem_given);
	put(b, "select", select);
	free(select);
	if (sl_buf_len(b) == 0) {
		sl_buf_free(b);
		return NULL;
	}
	return take(b);
}

/* ---- what qstat lists -------------------------------------------------------- */

struct list {
	struct sl_pbs_resc *v;
	size_t n, cap;
};

/* Set name's entry to value (consumed), or drop it when value is NULL. */
static void set(struct list *l, const char *name, char *value)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0) {
			free(l->v[i].value);
			if (value == NULL) {
				l->v[i] = l->v[--l->n];
				return;
			}
			l->v[i].value = value;
			return;
		}
	if (value == NULL)
		return;
	l->v = sl_xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct sl_pbs_resc){name, value};
}

static char *num(long long v)
{
	return sl_xasprintf("%lld", v);
}

static void derived_put(void *arg, const char *name, const char *value)
{
	set(arg, name, sl_xstrdup(value));
}

/* What the shape tells (sl_pbs_resource_list()): the select of its nodes
 * and the chunks' sums. set() keeps the names pbs_job.c gives (static). */
static void derived(struct list *l, const struct sl_job *j)
{
	sl_pbs_resource_list(j, derived_put, l);
}

const char *sl_pbs_reslist_get(const char *list, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + n + 1, ","), p + n + 1);
			return buf;
		}
	return NULL;
}

/* Does j's shape still say what the kept select (with its place, pmem)
 * asks for? The select is read again as qsub read it; a shape changed
 * since (scontrol update, qalter -l select, place=excl's whole node)
 * is not the one the kept select says. */
static int select_holds(const struct sl_job *j, const char *list)
{
	struct sl_pbs_res r;
	struct sl_jobspec s;
	struct sl_jobshape want, got;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(LIST_MAX);
	static const char *const names[] = {"select", "place", "pmem"};
	char *v = sl_xmalloc(LIST_MAX);
	int st, ok = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (sl_pbs_reslist_get(list, names[i], v, LIST_MAX) != NULL)
			sl_buf_addf(b, "%s%s=%s", sl_buf_len(b) ? "," : "", names[i], v);
	sl_pbs_res_init(&r);
	sl_jobspec_init(&s);
	if (sl_pbs_res_parse(&r, sl_buf_str(b), &st, &err) == 0 &&
	    sl_pbs_res_apply(&r, &s, &st, &err) == 0) {
		sl_jobspec_shape(&s, &want);
		sl_jobspec_shape(&j->spec, &got);
		ok = want.nodes == got.nodes && want.tasks_per_node == got.tasks_per_node &&
		     want.cpus_per_task == got.cpus_per_task &&
		     want.cpus_per_node == got.cpus_per_node &&
		     want.mem_per_node == got.mem_per_node &&
		     want.gpus_per_node == got.gpus_per_node &&
		     s.omp_threads == j->spec.omp_threads;
	}
	sl_jobspec_clear(&s);
	sl_pbs_res_clear(&r);
	sl_buf_free(b);
	free(v);
	return ok;
}

/* set_chunk_sum() over the select's chunks: mem, mpiprocs and ngpus where
 * the chunks have them, ncpus with default_chunk's 1 a chunk without;
 * nodect the chunks. */
static void chunk_sums(struct list *l, const char *select)
{
	char *copy = sl_xstrdup(select), *save = NULL, *part;
	long long ncpus = 0, mpiprocs = 0, ngpus = 0, chunks = 0;
	int has_mpi = 0, has_gpus = 0, has_mem = 0, bad = 0;
	struct psize mem = {0, 0, 0};

	for (part = strtok_r(copy, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
		long long count = isdigit((unsigned char)*part) ? atoll(part) : 1, cpus = 1;
		char *s2 = NULL;
		for (char *t = strtok_r(part, ":", &s2); t; t = strtok_r(NULL, ":", &s2)) {
			struct psize m;
			if (strncmp(t, "ncpus=", 6) == 0) {
				cpus = atoll(t + 6);
			} else if (strncmp(t, "mpiprocs=", 9) == 0) {
				mpiprocs += count * atoll(t + 9);
				has_mpi = 1;
			} else if (strncmp(t, "ngpus=", 6) == 0) {
				ngpus += count * atoll(t + 6);
				has_gpus = 1;
			} else if (strncmp(t, "mem=", 4) == 0 && psize_of(t + 4, &m) == 0) {
				m.num *= (unsigned long long)count;
				bad |= psize_add(&mem, &has_mem, m);
			}
		}
		ncpus += count * cpus;
		chunks += count;
	}
	free(copy);
	if (has_mem && !bad) {
		char s[48];
		psize_text(&mem, s, sizeof(s));
		set(l, "mem", sl_xstrdup(s));
	} else if (!has_mem) { /* pmem's memory is no chunk's */
		set(l, "mem", NULL);
	}
	set(l, "mpiprocs", has_mpi ? num(mpiprocs) : NULL);
	set(l, "ncpus", num(ncpus));
	set(l, "ngpus", has_gpus ? num(ngpus) : NULL);
	set(l, "nodect", num(chunks));
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(((const struct sl_pbs_resc *)a)->name,
			  ((const struct sl_pbs_resc *)b)->name);
}

size_t sl_pbs_reslist(const struct sl_job *j, struct sl_pbs_resc **out)
{
	struct list l = {NULL, 0, 0};
	const char *list = j->spec.pbs_resources;
	char *v = sl_xmalloc(LIST_MAX);
	static const char *const as_kept[] = {"nodes", "pmem", "pvmem"};

	derived(&l, j);
	for (size_t i = 0; list && i < sizeof(as_kept) / sizeof(as_kept[0]); i++)
		if (sl_pbs_reslist_get(list, as_kept[i], v, LIST_MAX) != NULL)
			set(&l, as_kept[i], sl_xstrdup(v));
	if (list && sl_pbs_reslist_get(list, "place", v, LIST_MAX) != NULL) {
		/* Torque's -n (node-exclusive, --exclusive) beside a place that
		 * does not say excl */
		int add = j->spec.shared == SL_SHARED_EXCLUSIVE && strstr(v, "excl") == NULL;
		set(&l, "place", sl_xasprintf("%s%s", v, add ? ":excl" : ""));
	}
	if (list && sl_pbs_reslist_get(list, "select", v, LIST_MAX) != NULL &&
	    select_holds(j, list)) {
		set(&l, "select", sl_xstrdup(v));
		chunk_sums(&l, v);
	}
	free(v);
	qsort(l.v, l.n, sizeof(*l.v), by_name);
	*out = l.v;
	return l.n;
}

void sl_pbs_reslist_free(struct sl_pbs_resc *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].value);
	free(v);
}
