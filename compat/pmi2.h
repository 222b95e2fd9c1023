/* pmi2.h - the PMI wire of Slurm's mpi/pmi2 plugin, as srun serves it to
 * a local step's ranks: bytes in from a rank, bytes out to it, with no
 * I/O of its own (bin/srun_pmi2.c owns the sockets).
 *
 * A rank starts with the line "cmd=init pmi_version=V pmi_subversion=S":
 * 1.1 is MPICH's simple PMI (newline-ended "cmd=put key=..." lines), 2.0
 * is PMI-2 (a 6-character length, then "cmd=kvs-put;key=...;"). As in
 * Slurm, the first rank's version is the step's; a rank asking for the
 * other is told rc=-1 and the step's version. Puts are held until the
 * fence (PMI-1's barrier) that every rank enters, then readable by all. */
#ifndef SL_PMI2_H
#define SL_PMI2_H

#include <stddef.h>

#include "err.h"

struct sl_pmi2;

/* A step of ntasks ranks: jobid is PMI_JOBID and the KVS name ("J.S"),
 * map PMI_process_mapping (sl_pmi2_proc_map()). Both copied. Caller
 * frees with sl_pmi2_free(). */
struct sl_pmi2 *sl_pmi2_new(int ntasks, const char *jobid, const char *map);
void sl_pmi2_free(struct sl_pmi2 *p);

/* Bytes read from rank's fd; the whole requests among them are answered
 * into its output (a completed fence into every rank's). 0, or -SL_EPROTO
 * / -SL_ETOOBIG with err for a stream that cannot be served: the caller
 * drops the rank's fd, as Slurm's stepd does. */
int sl_pmi2_input(struct sl_pmi2 *p, int rank, const char *buf, size_t len,
		  struct sl_err *err);
/* What is due to rank's fd: borrowed, valid until the next call on p.
 * sl_pmi2_consumed() drops the first n bytes once written. */
const char *sl_pmi2_output(const struct sl_pmi2 *p, int rank, size_t *len);
void sl_pmi2_consumed(struct sl_pmi2 *p, int rank, size_t n);
/* 1 once rank has finalized: close its fd when its output is written. */
int sl_pmi2_finalized(const struct sl_pmi2 *p, int rank);
/* 1 once a rank has aborted the job (PMI-1's abort, PMI-2's with
 * isworld=TRUE): *rank is the first such rank. Slurm then kills the step. */
int sl_pmi2_aborted(const struct sl_pmi2 *p, int *rank);

/* PMI_process_mapping for ntasks ranks on nnodes nodes, node[t] being
 * rank t's: "(vector,(start,nodes,ranks-per-node),...)" as Slurm's pmi2
 * plugin writes it for the step's distribution: -m cyclic (cyclic != 0)
 * as runs of nodes taking a rank each in turn; block, and anything else,
 * as runs of nodes with as many ranks each. Caller frees. */
char *sl_pmi2_proc_map(int nnodes, int ntasks, const int *node, int cyclic);

#endif
