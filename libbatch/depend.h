/* depend.h - Slurm's --dependency: the text as users write it, the list as
 * scontrol and squeue %E print it ("afterok:12(unfulfilled),afterany:13
 * (unfulfilled)"), and its evaluation against the jobs it names. Pure: the
 * caller looks those jobs up (sluiced: bin/sluiced/gates.c), so the rules
 * are unit-tested without a daemon.
 *
 * The rules are Slurm 22.05's, as observed on a real one: ',' joins terms
 * that must all hold, '?' terms of which one suffices (one '?' anywhere
 * makes the whole list an OR list); a term that holds leaves an AND list,
 * and the first one that holds empties an OR list; a term that can never
 * hold makes an AND list never satisfied, and an OR list only when every
 * term failed. */
#ifndef SL_DEPEND_H
#define SL_DEPEND_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "jobstate.h"

enum sl_dep_type {
	SL_DEP_AFTER,      /* the job started (or was cancelled), +minutes after that */
	SL_DEP_AFTERANY,   /* the job ended, however */
	SL_DEP_AFTEROK,    /* the job completed with exit 0 */
	SL_DEP_AFTERNOTOK, /* the job ended in any other way */
	SL_DEP_AFTERCORR,  /* array task by task; for a job that is not an array
			    * Slurm 22.05 treats it as afterok (observed) */
	SL_DEP_SINGLETON,  /* no other job of this name and user runs, or waits with a lower id */
};

enum sl_dep_state { SL_DEP_UNFULFILLED, SL_DEP_FULFILLED, SL_DEP_FAILED };

#define SL_DEP_ALL_TASKS (-2L)

struct sl_dep {
	enum sl_dep_type type;
	uint64_t id;             /* 0 for singleton; an array's id names all its tasks */
	long task;               /* "ID_TASK": array id's task TASK; -1: none;
				  * SL_DEP_ALL_TASKS: "ID_*", every task of array ID */
	int minutes;             /* "+time": 0 none */
	enum sl_dep_state state;
};

struct sl_deplist {
	struct sl_dep *v;
	size_t n;
	int any;                 /* '?': one term suffices */
};

/* Terms in one list: a cap, checked before anything is allocated. */
#define SL_DEP_MAX 1024

/* Parse s into *out (caller clears with sl_deplist_clear; on error it is
 * left empty). User text (with_state 0): "TYPE:ID[+MIN][:ID[+MIN]...]"
 * (ID also "N_I", an array's task),
 * "singleton" and a bare "ID" (afterany), joined by ',' or '?'; TYPE is
 * after, afterany, afterok, afternotok or aftercorr, in any case; a term
 * given twice counts once. with_state 1 reads sl_dep_format()'s text, each
 * term followed by "(unfulfilled)", "(fulfilled)" or "(failed)". Errors,
 * in Slurm's words: -SL_EINVAL "Job dependency problem"; -SL_EUNSUPP
 * "Requested operation not supported on this system" for expand (a
 * heterogeneous job's, which Sluice has not). "" gives an empty list. */
int sl_dep_parse(const char *s, int with_state, struct sl_deplist *out, struct sl_err *err);
void sl_deplist_clear(struct sl_deplist *l);

/* The list as Slurm prints it; NULL for an empty list ("(null)" then).
 * Caller frees. */
char *sl_dep_format(const struct sl_deplist *l);

/* What the evaluation needs of a job a term names. */
struct sl_dep_job {
	int found;               /* 0: no such job; its terms hold (Slurm: a purged job) */
	enum sl_jobstate state;
	int64_t start_time;      /* 0: it never started */
	int64_t end_time;        /* 0: not ended */
};

struct sl_dep_env {
	/* Fill *out for job id; the return value is ignored. */
	int (*lookup)(void *arg, uint64_t id, struct sl_dep_job *out);
	/* 1 when another job of the same name and user blocks a singleton. */
	int (*singleton_blocked)(void *arg);
	void *arg;
	/* Array id's task (afterok:N_I, and aftercorr); NULL: never found. */
	int (*lookup_task)(void *arg, uint64_t id, long task, struct sl_dep_job *out);
	uint64_t self_array;     /* the waiting job's array id (0: not an array task) */
	long self_task;          /* and its task: aftercorr waits for the same task of
				  * the array it names, afterok for a job that is not one */
};

enum sl_dep_verdict {
	SL_DEP_READY,            /* nothing left to wait for: the list is empty */
	SL_DEP_WAIT,             /* Slurm's reason Dependency */
	SL_DEP_NEVER,            /* DependencyNeverSatisfied */
};

/* Look at every term again at time now: set its state, drop what holds as
 * the rules above say, and give the verdict. *wake (when not NULL) is set
 * to the earliest time a "+MIN" term will hold once its job has started or
 * ended, or 0 when no term waits only for the clock. */
enum sl_dep_verdict sl_dep_eval(struct sl_deplist *l, int64_t now, const struct sl_dep_env *env,
				int64_t *wake);

/* Does the list name job id (singleton names none)? */
int sl_dep_names(const struct sl_deplist *l, uint64_t id);
/* Does it have a singleton term? */
int sl_dep_has_singleton(const struct sl_deplist *l);

#endif
