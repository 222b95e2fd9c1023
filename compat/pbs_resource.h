/* pbs_resource.h - qsub's -l resource lists, PBS Pro's (select= chunks,
 * place=, walltime, mem, ncpus, ngpus) and Torque's (nodes=N:ppn=M[:gpus=G]),
 * read into one chunk shape and turned into the neutral job spec; Torque's
 * procs=N (N processes anywhere) into N tasks of one CPU.
 *
 * Sluice gives a job N alike nodes, so a select of unlike chunks is refused
 * with the reason; alike chunks joined by '+' are summed. Errors carry PBS's
 * text and qsub's exit status (sl_pbs_res_status()). */
#ifndef SL_PBS_RESOURCE_H
#define SL_PBS_RESOURCE_H

#include <stdint.h>
#include "err.h"
#include "job.h"

enum sl_pbs_place { SL_PBS_PLACE_UNSET = 0, SL_PBS_PLACE_FREE, SL_PBS_PLACE_SCATTER,
		    SL_PBS_PLACE_PACK };

/* One chunk of a select (every chunk of the job is alike). -1: not given. */
struct sl_pbs_chunk {
	int count;        /* how many; 0 while no select/nodes was given */
	int ncpus;
	int mpiprocs;
	int ngpus;
	int ompthreads;   /* OMP_NUM_THREADS and NCPUS of its processes (MOM's) */
	int64_t mem_mib;  /* rounded up to MiB */
};

struct sl_pbs_res {
	int from;                  /* 0 none, 's' select=, 'n' Torque's nodes= */
	struct sl_pbs_chunk chunk;
	int64_t walltime;          /* seconds; -1 */
	int ncpus, ngpus;          /* job-wide -l ncpus=, ngpus=; -1 */
	int ompthreads;            /* job-wide -l ompthreads=: the chunk's; -1 */
	int procs;                 /* Torque's -l procs=: N processes of one CPU,
	                              on any nodes; -1 */
	int64_t mem_mib;           /* job-wide -l mem=; -1 */
	int64_t pvmem_mib;         /* -l pvmem=: each process's virtual memory (RLIMIT_AS); -1 */
	int64_t pmem_mib;          /* -l pmem=: each process's physical memory; -1 */
	enum sl_pbs_place place;
	int excl;                  /* place=excl or exclhost: --exclusive */
	unsigned by_directive;     /* resources a #PBS directive gave (bits) */
	/* As PBS's server keeps them in Resource_List (pbs_reslist.h): select,
	 * nodes and place as given (decode_str()), sizes as encode_size()
	 * writes them back ("4GB" is "4gb"). NULL or "": not given. */
	char *select_given, *nodes_given, *place_given;
	char mem_given[32], pmem_given[32], pvmem_given[32];
};

/* r with nothing asked; sl_pbs_res_clear() frees what parsing keeps. */
void sl_pbs_res_init(struct sl_pbs_res *r);
void sl_pbs_res_clear(struct sl_pbs_res *r);

/* One -l value, "select=2:ncpus=4:mem=2gb,walltime=1:00:00", into r. A
 * resource given again replaces the earlier value, as qsub does for the
 * command line over directives (apply directives first). On error returns
 * -SL_EINVAL (PBS's rejection) or -SL_EUNSUPP (Sluice's refusal) with the
 * text after "qsub: " in err, and *status the exit status qsub uses. */
int sl_pbs_res_parse(struct sl_pbs_res *r, const char *list, int *status, struct sl_err *err);

/* The same for a #PBS directive's -l: a resource an earlier directive gave
 * keeps its value, the later one only checked for form (set_resources()
 * with add false, OpenPBS's src/lib/Libcmds/set_resource.c), so that the
 * first "#PBS -l walltime=" wins as on PBS, and the command line's still
 * replaces both. */
int sl_pbs_res_parse_directive(struct sl_pbs_res *r, const char *list, int *status,
			       struct sl_err *err);

/* r into s: nodes, tasks per node, CPUs per task, memory, GPUs, time
 * limit, ompthreads (omp_threads: the job's OMP_NUM_THREADS; CPUs stay the
 * chunk's ncpus). Refuses what Sluice cannot express (resources given both job-wide
 * and in chunks, CPUs not divisible among the MPI processes). */
int sl_pbs_res_apply(const struct sl_pbs_res *r, struct sl_jobspec *s, int *status,
		     struct sl_err *err);

/* PBS sizes: "N[k|m|g|t|p][b|w]" (no suffix: bytes; w: 8-byte words), in
 * MiB rounded up. 0 or -SL_EINVAL. */
int sl_pbs_parse_size(const char *v, int64_t *mib);
/* A size as PBS's server writes it back (to_size() then from_size(),
 * src/lib/Libattr/attr_fn_size.c): its number without leading zeros, the
 * unit's letter in lower case, then "b" or "w": "4GB" is "4gb", "1024" is
 * "1024b". 0, or -SL_EINVAL for what sl_pbs_parse_size() refuses. */
int sl_pbs_size_encode(const char *v, char *buf, size_t len);
/* PBS durations: "[[HH:]MM:]SS[.mmm]", fields of any size. 0 or -SL_EINVAL. */
int sl_pbs_parse_time(const char *v, int64_t *seconds);

#endif
