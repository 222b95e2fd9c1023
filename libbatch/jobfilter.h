/* jobfilter.h - which jobs a query or a cancel applies to. One struct for
 * the commands that build it, the wire that carries it (PROTOCOL.md,
 * FILTER), and the daemon and store that apply it. */
#ifndef SL_JOBFILTER_H
#define SL_JOBFILTER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "job.h"

/* An array task as users name it, "N_I": array N's task I (array.h). */
struct sl_taskid {
	uint64_t job;
	uint32_t task;
};

/* Empty lists match everything. The lists belong to whoever filled them:
 * commands point them at their own arrays (callers resolve user names to
 * uids first); sl_jobfilter_from_obj allocates them, and
 * sl_jobfilter_clear frees those. */
struct sl_jobfilter {
	uint64_t *ids; size_t n_ids;
	uid_t *uids; size_t n_uids;
	int *states; size_t n_states;        /* enum sl_jobstate values */
	char **partitions; size_t n_partitions;
	char **accounts; size_t n_accounts;
	char **names; size_t n_names;
	int history;          /* 1: all finished jobs too (sacct); 0: live +
	                         recently finished (squeue, MinJobAge 300 s) */
	int64_t start_after;  /* history: jobs that ended after (0: no bound) */
	int64_t end_before;   /* history: jobs that started before (0: none) */
	int duplicates;       /* history: also each run a requeue ended, as a
	                         REQUEUED record before the job's (sacct: -D
	                         lists them all, its window picks among them) */
	char **qos; size_t n_qos;
	char **nodes; size_t n_nodes;        /* node names (a hostlist expanded):
	                                        the jobs given one of them */
	char **wckeys; size_t n_wckeys;      /* --wckey (scancel), -W (sacct) */
	int fold;             /* list an array's pending tasks of one name and
	                         partition as one record, the first, whose
	                         array_tasks is their text (Slurm's pending meta
	                         record: squeue, scontrol, sacct): 1 as Slurm
	                         shows it (cut at 63 characters), 2 whole (what
	                         squeue -r expands again, as Slurm's does), 3
	                         as 1 without the tasks split off it, which
	                         are records of their own (scontrol) */
	struct sl_taskid *tasks; size_t n_tasks; /* array tasks "N_I". Job ids are
	                                        ids or tasks: a job is selected by
	                                        either list; an id also selects the
	                                        tasks of the array it names */
	struct sl_jobfilter_idx *idx; /* ids and tasks sorted (sl_jobfilter_index);
	                                 NULL: sl_jobfilter_match scans them */
};

/* Sort a copy of f's ids and tasks, so that sl_jobfilter_match finds a job
 * among K of them in O(log K), not K: a cancel or a query of K ids over N
 * jobs was N x K. Call it again after changing those lists.
 * sl_jobfilter_from_obj does it; a filter whose lists are borrowed frees
 * the copy with sl_jobfilter_index_free (sl_jobfilter_clear does too). */
void sl_jobfilter_index(struct sl_jobfilter *f);
void sl_jobfilter_index_free(struct sl_jobfilter *f);

/* 1 when j is in every non-empty list of f. The history window is the
 * store's to apply (sl_store_history), since only it knows the history. */
int sl_jobfilter_match(const struct sl_jobfilter *f, const struct sl_job *j);

/* The request's "filter" member, in json-c (the type is json-c's, declared
 * here so that this header does not need json-c's). */
struct json_object;
/* A new reference. */
struct json_object *sl_jobfilter_to_obj(const struct sl_jobfilter *f);
/* o (NULL: match everything) into *f, which then owns its lists (free
 * them with sl_jobfilter_clear); on error *f is left empty. */
int sl_jobfilter_from_obj(struct json_object *o, struct sl_jobfilter *f, struct sl_err *err);
void sl_jobfilter_clear(struct sl_jobfilter *f);

#endif
