/* pbs_reslist.h - a job's Resource_List as OpenPBS's server holds it.
 *
 * The job's shape (nodes, tasks, CPUs, memory) is Slurm's, and from it
 * alone qstat -f can tell back a select, but not the one the user wrote:
 * PBS keeps "select=1:ncpus=2:mem=4096MB" as given, converts Torque's
 * nodes= and job-wide resources into selects of its own, keeps place as
 * given or sets it by the form of the request, and keeps pmem and pvmem.
 * qsub keeps those entries in jobspec.pbs_resources
 * (sl_pbs_reslist_make()); qstat lists them over the ones it derives from
 * the shape (sl_pbs_reslist()), as long as the shape is still the one the
 * kept select asks for: an scontrol update or a qalter -l select that
 * changed it shows the derived select again, never a stale one. */
#ifndef SL_PBS_RESLIST_H
#define SL_PBS_RESLIST_H

#include <stddef.h>
#include "job.h"
#include "pbs_resource.h"

/* One Resource_List entry (the json layout writes a number's text as a
 * number, as it writes every value). */
struct sl_pbs_resc {
	const char *name; /* static */
	char *value;
};

/* The text jobspec.pbs_resources keeps for a qsub's -l r, "name=value"
 * entries joined by ','. The select is the one OpenPBS's server holds:
 * the user's as given (decode_select(), src/lib/Libattr/attr_resc_func.c:
 * 145, checks its form and stores the string); nodes= converted as
 * cvt_nodespec_to_select() does (src/server/node_manager.c:5655-5932:
 * "N:ncpus=PPN[:mem=KBKB][:mpiprocs=PPN]" a part, mem the job's spread
 * over ctnodes()), nodes= kept beside it; or made of the job-wide
 * resources as set_select_and_place() does (svr_jobfunc.c:1824-1883: "1"
 * and ":name=value" for each one that goes into a chunk, by name, as the
 * server encodes it). The place is the one given, else "scatter" beside
 * nodes= (svr_jobfunc.c:1813-1819), "free" beside a select (svr_jobfunc.c:
 * 2219-2227), "pack" when the server made the select (svr_jobfunc.c:
 * 1884-1889). Torque's procs= keeps none of them (no PBS select says it).
 * pmem and pvmem are kept as the server writes sizes back (encode_size():
 * "1GB" is "1gb"); the shape holds them as a node's memory and each
 * process's RLIMIT_AS, which cannot tell them back. Caller frees; NULL
 * when there is nothing to keep. */
char *sl_pbs_reslist_make(const struct sl_pbs_res *r);

/* The value of name in such a text, copied into buf (cut at len); NULL
 * when it has none. */
const char *sl_pbs_reslist_get(const char *list, const char *name, char *buf, size_t len);

/* j's Resource_List in OpenPBS's order, by name (add_resource_entry(),
 * src/lib/Libattr/attr_fn_resc.c:561): what the shape gives, then the kept
 * entries over it, and with a kept select that still holds, the chunks'
 * sums as set_chunk_sum() makes them (svr_jobfunc.c:1921: mem in the
 * chunks' own units, ncpus 1 a chunk without it, mpiprocs and ngpus where
 * the chunks have them). *out: caller frees with sl_pbs_reslist_free(). */
size_t sl_pbs_reslist(const struct sl_job *j, struct sl_pbs_resc **out);
void sl_pbs_reslist_free(struct sl_pbs_resc *v, size_t n);

#endif
