/* pbs_array.h - PBS Pro's view of a job array over Sluice's records. An
 * array is its subjobs' records (array.h: a qsub array's N+1..N+K, a Slurm
 * array's N+1..N+K-1 and N) and no parent record of its own; qstat shows it as one array job "N[]" whose state is
 * Q until a subjob starts, B (begun) while any is left, F when all ended,
 * and its subjobs "N[I]" (qstat -t), X once ended. The parent record is
 * made here from the subjobs, for a listing only. Pure: no I/O. */
#ifndef SL_PBS_ARRAY_H
#define SL_PBS_ARRAY_H

#include <stddef.h>
#include "job.h"
#include "jobfilter.h"
#include "pbs_job.h"

/* Is j an array job made by sl_pbs_listing() ("N[]")? A subjob is a record
 * with array_job_id set. */
int sl_pbs_is_array(const struct sl_job *j);

/* What qstat lists of jobs (in id order, as the daemon sends them, so an
 * array's subjobs are one run): each job that is not in an array; for
 * each array, its array job (made here), then, when subjobs != 0, its
 * subjobs. arrays_only (-J) leaves out jobs that are not in an array.
 * v borrows from jobs and owns the array jobs it made. */
struct sl_pbs_listing {
	struct sl_job **v;
	size_t n;
	struct sl_job **made; /* the array jobs, freed with the listing */
	size_t n_made;
};
void sl_pbs_listing_make(struct sl_job *const *jobs, size_t n, int subjobs, int arrays_only,
			 struct sl_pbs_listing *out);
void sl_pbs_listing_clear(struct sl_pbs_listing *l);
/* The jobs of l past their time limit are being ended: exiting (E), as
 * squeue's CG, where their records still say RUNNING. */
void sl_pbs_listing_ending(struct sl_pbs_listing *l, int64_t now);

/* Does qselect list entry j of a listing made with its subjobs: a job in
 * no array, an array job "N[]", its subjobs "N[I]" when subjobs (-T)
 * != 0; an array given with Torque's -t (jobspec.torque_array) is its
 * subjobs alone, as Torque's req_select() lists them. */
int sl_pbs_select_lists(const struct sl_job *j, int subjobs);

/* The entries of l an operand names, into v (room for l->n): a job that
 * is no array's ("N"), an array job ("N[]", then its subjobs when subjobs
 * != 0) or subjobs ("N[I]", "N[A-B]"). *top: the job whose state says
 * whether they finished (for subjobs, their array's: PBS keeps an ended
 * array's subjobs in its history), NULL when none. Returns how many. */
size_t sl_pbs_listing_find(const struct sl_pbs_listing *l, const struct sl_pbs_sel *sel,
			   int subjobs, struct sl_job **v, const struct sl_job **top);

/* A listing without the history lacks an array's subjobs that ended long
 * ago, which its state and counts need. sl_pbs_arrays_filter() sets f to
 * ask for the arrays of jobs[0..n) with their history (f->ids: caller
 * frees), 0 when there is none; sl_pbs_arrays_merge() puts what that
 * query sent (consumed) in place of their subjobs in *jobs, in id order. */
int sl_pbs_arrays_filter(struct sl_job *const *jobs, size_t n, struct sl_jobfilter *f);
void sl_pbs_arrays_merge(struct sl_job ***jobs, size_t *n, struct sl_job **more, size_t n_more);

/* The array job of subjobs sub[0..n) (n > 0, one array); its array_tasks
 * holds its array_state_count (sl_pbs_array_counts()). Caller frees with
 * sl_job_free(). */
struct sl_job *sl_pbs_array_job(struct sl_job *const *sub, size_t n);

/* array_indices_remaining: the queued subjobs' indices as range_to_str()
 * writes them (src/lib/Libutil/range.c:714): "A-B[:S]" runs of the array's
 * step, ',' between; "-" for none (array_func.c:243). Caller frees. */
char *sl_pbs_array_remaining(struct sl_job *const *jobs, size_t n, uint64_t array);
/* array_state_count (update_subjob_state_ct(), array_func.c:462):
 * "Queued:Q Running:R Exiting:E Expired:X". Caller frees. */
char *sl_pbs_array_counts(struct sl_job *const *jobs, size_t n, uint64_t array);

#endif
