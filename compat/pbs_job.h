/* pbs_job.h - a job in PBS's words: ids ("N.server"), states (Q H R E F),
 * OpenPBS's error numbers and texts (the commands exit with their low byte),
 * and the value formats qstat and pbsnodes print (times, sizes, select). */
#ifndef SL_PBS_JOB_H
#define SL_PBS_JOB_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

/* OpenPBS src/include/pbs_error.h; texts from src/lib/Liblog/pbs_messages.c. */
#define SL_PBSE_UNKJOBID 15001  /* "Unknown Job Id" */
#define SL_PBSE_IVALREQ 15004   /* "Invalid request" */
#define SL_PBSE_PERM 15007      /* "Unauthorized Request " (sic, trailing blank) */
#define SL_PBSE_SYSTEM 15010    /* a failed connect: "cannot connect to server" */
#define SL_PBSE_UNKSIG 15013    /* "Unknown/illegal signal name" */
#define SL_PBSE_BADATVAL 15014  /* "Illegal attribute or resource value" */
#define SL_PBSE_MODATRRUN 15015 /* "Cannot modify attribute while job running " (sic) */
#define SL_PBSE_BADSTATE 15016  /* "Request invalid for state of job" */
#define SL_PBSE_UNKQUE 15018    /* "Unknown queue" */
#define SL_PBSE_QUNOENB 15021   /* "Queue is not enabled" */
#define SL_PBSE_NOSUP 15029     /* "No support for requested service" */
#define SL_PBSE_EXCQRESC 15036  /* "Job violates queue and/or server resource limits" */
#define SL_PBSE_UNKRESC 15035   /* "Unknown resource" */
#define SL_PBSE_BADACCT 15049   /* "Invalid Account" */
#define SL_PBSE_BADDEPEND 15054 /* "Invalid Job Dependency" */
#define SL_PBSE_UNKNODE 15062   /* "Unknown node " (sic) */
#define SL_PBSE_INVALSELECTRESC 15108 /* "Resource invalid in \"select\" specification" */
#define SL_PBSE_INVALJOBRESC 15109    /* "\"-lresource=\" cannot be used with ..." */
#define SL_PBSE_HISTJOBID 15139 /* "Job has finished" */
#define SL_PBSE_MAXARRAYSIZE 15107 /* "Array job exceeds server or queue size limit" */

/* The status a PBS command exits with for error number e (exit(3) keeps
 * its low byte: Unknown Job Id, 15001, is 153). */
int sl_pbse_status(int e);
/* OpenPBS's text for e, or "Error N" for one this table lacks. */
const char *sl_pbse_text(int e);

/* The PBS error number of a Sluice error code, as the daemon's refusals
 * read in PBS's words: a partition is a queue (Unknown queue), a job that
 * can never fit violates the queue's limits, a refused dependency is
 * PBSE_BADDEPEND, a drained queue is not enabled, and so on; 0 for codes PBS
 * has no number for (the daemon's own text is printed). */
int sl_pbse_of(int sl_code);

/* OpenPBS's PRINT_VERSION_AND_EXIT, which each of its commands runs first:
 * a lone --version (any case) prints the version and exits 0. */
void sl_pbs_version_exit(int argc, char *const *argv);

/* "N.server", the id PBS prints and qsub returns. Caller frees. */
char *sl_pbs_jobid(uint64_t id, const char *server);
/* A job id operand: "N" or "N.host...". 0 with *id set when it names a job
 * of `server` (its first label matches the server's: PBS's jobs are
 * named by their server, and qstat shows the id cut to "N.first-label");
 * 1 when well formed but of another server; -1 when not a job id
 * ("illegally formed job identifier"). */
int sl_pbs_parse_jobid(const char *s, const char *server, uint64_t *id);

/* An id operand: *id and the id PBS names it by in messages (the operand
 * itself, or "N.server" when it has no server part; caller frees *shown).
 * Returns sl_pbs_parse_jobid()'s answer; *shown is the operand for -1. */
int sl_pbs_operand(const char *op, const char *server, uint64_t *id, char **shown);

/* A job operand with PBS Pro's array forms (OpenPBS is_job_array(),
 * src/lib/Libutil/misc_utils.c; qdel takes ranges): "N" a job, "N[]" an
 * array job, "N[I]" a subjob, "N[A-B]" a range of subjobs; each
 * optionally ".server", and "@server" (the server to ask, get_server()'s:
 * ours is cut off, another's makes it another server's job). */
enum sl_pbs_seltype { SL_PBS_SEL_JOB = 0, SL_PBS_SEL_ARRAY, SL_PBS_SEL_SUBJOBS };
struct sl_pbs_sel {
	uint64_t id;             /* N */
	enum sl_pbs_seltype type;
	uint32_t lo, hi;         /* SL_PBS_SEL_SUBJOBS: the indices, lo <= hi */
};
/* As sl_pbs_parse_jobid(): 0 (a job of `server`), 1 (another server's) or
 * -1 (not a job id). *shown (caller frees) is the id PBS names it by:
 * the operand, or with ".server" added when it has no server part. */
int sl_pbs_operand_sel(const char *op, const char *server, struct sl_pbs_sel *sel,
		       char **shown);
/* j's id as PBS shows it: "N.server", a subjob's "N[I].server", an array
 * job's (pbs_array.h) "N[].server". */
void sl_pbs_idstr(const struct sl_job *j, const char *server, char *buf, size_t len);
/* j's Job_Name (qstat, PBS_JOBNAME): its name, a Torque array's (-t)
 * subjob's "NAME-I", as Torque's job_clone() (job_func.c) names each
 * clone; borrowed from j or written into buf. */
const char *sl_pbs_job_name(const struct sl_job *j, char *buf, size_t len);
/* "N[].server" (index < 0) or "N[I].server": an array's and a subjob's id. */
char *sl_pbs_array_jobid(uint64_t id, long index, const char *server);

/* The server name: $PBS_SERVER, else the config's pbsServer (conf peek),
 * else the short name of the controller host, else of this host. Caller
 * frees. Never fails: without a config the host name is the answer. */
char *sl_pbs_server_name(void);

/* PBS's one-letter state: Q queued, H held (a dependency is a system
 * hold), W waiting for its begin time, R running, E exiting, F finished
 * (history); an array job B (begun), a subjob X once it ended. */
char sl_pbs_state(const struct sl_job *j);
/* PBS's substate number of j (qstat -f), OpenPBS src/include/job.h. */
int sl_pbs_substate(const struct sl_job *j);
/* Hold_Types: "u" (JobHeldUser), "o" (JobHeldAdmin), "s" (a dependency),
 * "n". */
const char *sl_pbs_hold_types(const struct sl_job *j);

/* Seconds as PBS encodes durations: "HH:MM:SS" (hours unbounded). */
void sl_pbs_fmt_duration(int64_t seconds, char *buf, size_t len);
/* A time as ctime(3) without its newline, in local time. */
void sl_pbs_fmt_ctime(int64_t t, char *buf, size_t len);
/* MiB as a PBS size in the largest unit it is a whole number of: "2gb",
 * "1500mb". */
void sl_pbs_fmt_mib(int64_t mib, char *buf, size_t len);

/* The job's shape as PBS resources: the select of its nodes
 * ("2:ncpus=4:mpiprocs=4:mem=2gb:ngpus=1"), its ncpus and nodect, its
 * total memory (MiB, 0 if none) and GPUs. */
struct sl_pbs_shape {
	char select[256];
	int nodect, ncpus, ngpus;
	int mpiprocs; /* the select's mpiprocs over all its chunks; 0: not in it */
	int64_t mem_mib;
};
void sl_pbs_shape_of(const struct sl_job *j, struct sl_pbs_shape *out);

/* exec_host "host/0*ncpus+..." (vnode 0) or exec_vnode
 * "(host:ncpus=N[:mem=Kkb][:ngpus=G])+..." (vnode 1) of j's nodelist, one
 * chunk per node; "" without nodes. Caller frees. */
char *sl_pbs_exec_host(const struct sl_job *j, int vnode);
/* j's Resource_List, one fn(arg, resource, value) per resource in the
 * server's order (sorted by name): mem, mpiprocs, ncpus, ngpus, nodect,
 * ompthreads, place, procs, select, walltime, those it has. */
void sl_pbs_resource_list(const struct sl_job *j, void (*fn)(void *, const char *, const char *),
			  void *arg);
/* j's resources_used after walltime seconds of running, in the same way:
 * cpupercent, cput and mem once the supervisor measured them, ncpus,
 * vmem (measured), walltime. */
void sl_pbs_resources_used(const struct sl_job *j, int64_t walltime,
			   void (*fn)(void *, const char *, const char *), void *arg);
/* Exit_status of an ended job that ran: its exit code, 256 + a signal,
 * -29 for its walltime, -27 for its memory (MOM's kills). */
int sl_pbs_exit_status(const struct sl_job *j);

#endif
