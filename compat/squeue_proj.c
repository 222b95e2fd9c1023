/* squeue_proj.c - which record members squeue's format codes
 * (squeue_fmt.c's printers), sort keys (squeue_sort.c's comparators) and
 * filter lists (jobfilter.c) read, so that it asks sluiced for those
 * alone: a whole record is ~400 bytes, the default format prints ~80,
 * and writing, sending, reading and freeing the rest was most of its time.
 *
 * The rows name members ("spec.x" for the spec's); SHAPE is what
 * sl_job_shape() reads. test_squeue_proj prints every code and sorts by every key from
 * whole and projected records and compares: a row that misses a member
 * fails there. A code or key without a row asks for whole records. */
#include "squeue_proj.h"

#include <stdlib.h>
#include <string.h>

#include "slurm_fmt.h"
#include "squeue_fmt.h"

/* Read whatever the format: the start-time pass of every sort (state,
 * start_time), array folding (squeue_array.c) and the id's printer. */
static const char base[] = "state start_time spec.name spec.partition spec.array reason "
			   "array_job_id array_task_id array_tasks array_throttle attempt "
			   "array_split";

struct row {
	char code;
	const char *members; /* beyond base */
};

#define SHAPE "alloc_nodes spec.nodes spec.ntasks spec.ntasks_per_node spec.cpus_per_task " \
	"spec.gpus spec.gpus_per_node spec.gpus_per_task spec.cpus_per_gpu spec.mincpus " \
	"spec.node_cpus spec.mem_per_node spec.mem_per_cpu spec.mem_per_gpu"
#define RUN "state start_time end_time suspend_time pre_suspend spec.time_limit " \
	"spec.time_limit_secs" /* sl_job_run_secs */
#define PRIO "priority reason spec.nice spec.priority spec.hold state"     /* sl_prio_slurm */
#define STATE RUN /* sl_job_past_limit: CG once out of time */

/* Every % code of squeue_fmt.c's table. */
static const struct row codes[] = {
	{'a', "spec.account"}, {'A', "nodelist"}, /* sl_job_slurm_id reads sl_job_ran */
	{'b', "spec.gpus_per_node spec.gpu_type"},
	{'B', "nodelist start_time"}, {'c', SHAPE}, {'C', SHAPE " alloc_cpus"}, {'d', "spec.tmp_mb"},
	{'D', SHAPE " nodes_shown"}, {'e', "end_time start_time spec.time_limit spec.time_limit_secs state"},
	{'E', "dependency"}, {'f', "spec.features"}, {'F', ""}, {'g', "group gid"},
	{'G', "gid"}, {'h', ""}, {'H', ""}, {'i', ""}, {'I', ""}, {'j', ""}, {'J', ""},
	{'k', "spec.comment"}, {'K', ""}, {'l', "spec.time_limit"},
	{'L', RUN}, {'m', "spec.mem_per_node spec.mem_per_cpu spec.mem_all"},
	{'M', RUN}, {'n', "spec.nodelist"}, {'N', "nodelist"},
	{'o', "spec.script_path spec.submit_dir spec.wrapped spec.command"},
	{'O', "spec.contiguous"}, {'p', PRIO},
	{'P', ""}, {'q', "spec.qos"}, {'Q', PRIO}, {'r', "reason " STATE},
	{'R', "reason nodelist " STATE}, {'s', ""}, {'S', "start_time"}, {'t', STATE},
	{'T', STATE},
	{'u', "user uid"}, {'U', "uid"}, {'v', ""}, {'V', "submit_time"},
	{'w', "spec.wckey"}, {'W', ""}, {'x', "spec.exclude"}, {'X', ""}, {'y', "spec.nice"}, {'Y', ""},
	{'z', ""}, {'Z', "spec.work_dir"},
};

/* squeue_sort.c's keys; those it knows that every job shares read nothing. */
static const struct row keys[] = {
	{'B', "nodelist"}, {'b', ""}, {'c', ""}, {'C', SHAPE " alloc_cpus"}, {'d', "spec.tmp_mb"},
	{'D', SHAPE " nodes_shown"}, {'e', "end_time start_time spec.time_limit spec.time_limit_secs"}, {'f', ""},
	{'g', "group"}, {'G', "gid"}, {'h', ""}, {'H', ""}, {'i', ""}, {'I', ""}, {'j', ""},
	{'J', ""}, {'l', "spec.time_limit"}, {'L', RUN},
	{'m', "spec.mem_per_node spec.mem_per_cpu"}, {'M', RUN}, {'n', ""},
	{'N', "nodelist"}, {'O', "spec.contiguous"}, {'p', PRIO}, {'P', ""}, {'Q', PRIO}, {'S', ""},
	{'t', STATE}, {'T', STATE}, {'u', "user"}, {'U', "uid"}, {'v', ""},
	{'V', "submit_time"}, {'z', ""},
};

static const struct row *find(const struct row *t, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == c)
			return &t[i];
	return NULL;
}

/* Add a space-separated list of members: -1 when one is not a member. */
static int add(struct sl_jobproj *p, const char *list)
{
	char name[64];

	while (*list != '\0') {
		size_t k = strcspn(list, " ");
		if (k >= sizeof(name))
			return -1;
		memcpy(name, list, k);
		name[k] = '\0';
		if (k > 0 && sl_jobproj_add(p, name) != 0)
			return -1;
		list += k + (list[k] == ' ');
	}
	return 0;
}

/* The lists of f squeue matches again (jobfilter.c's). */
static int add_filter(struct sl_jobproj *p, const struct sl_jobfilter *f)
{
	if (f == NULL)
		return 0;
	if ((f->n_uids && add(p, "uid")) || (f->n_accounts && add(p, "spec.account")) ||
	    (f->n_qos && add(p, "spec.qos")) || (f->n_nodes && add(p, "nodelist")) ||
	    (f->n_wckeys && add(p, "spec.wckey")))
		return -1;
	return 0;
}

/* The keys of a -S list: its letters; "cluster" (every job's) reads nothing. */
static int add_keys(struct sl_jobproj *p, const char *sort)
{
	const struct row *row;

	for (const char *s = sort; *s != '\0'; s++) {
		if (strncmp(s, "cluster", 7) == 0) {
			s += 6;
			continue;
		}
		if (*s == ',' || *s == '+' || *s == '-')
			continue;
		if ((row = find(keys, sizeof(keys) / sizeof(keys[0]), *s)) == NULL ||
		    add(p, row->members) != 0)
			return -1;
	}
	return 0;
}

struct sl_jobproj *sl_squeue_proj(const char *fmt, const char *sort,
				  const struct sl_jobfilter *f)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobproj *p = sl_jobproj_new();
	struct sl_fmt *items = NULL;
	const struct row *row;
	int ok = sl_fmt_parse_percent(fmt, &items, &err) == 0 && add(p, base) == 0 &&
		 add_filter(p, f) == 0 && add_keys(p, sort ? sort : SL_SQUEUE_SORT_DEFAULT) == 0;

	for (size_t i = 0; ok && i < sl_fmt_count(items); i++)
		ok = (row = find(codes, sizeof(codes) / sizeof(codes[0]),
				 sl_fmt_item(items, i)->code)) != NULL && add(p, row->members) == 0;
	sl_fmt_free(items);
	if (!ok) {
		sl_jobproj_free(p);
		return NULL;
	}
	return p;
}
