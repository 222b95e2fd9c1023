/* submit.h - the one submit policy: a parsed job spec, who asks and the
 * config become a pending job record, or Slurm's refusal. sluiced's SUBMIT
 * handler, `sluice render` and `sbatch --test-only` all decide through
 * here, so they refuse the same jobs in the same words. */
#ifndef SL_SUBMIT_H
#define SL_SUBMIT_H

#include <sys/types.h>
#include "job.h"

struct sl_conf;
struct sl_sched;

struct sl_peer;

/* Check j->spec and fill in j (fresh from sl_job_new, spec parsed): uid,
 * gid, user, group, partition (conf's default), account (the user's first),
 * name (the script's base name, "wrap", "sbatch"), priority, state PENDING,
 * reason, alloc_cpus. Refusals, first one wins, err->msg as sbatch prints it:
 *  - no script, a relative working directory, a string over 1024 bytes, a
 *    count under 1, an unknown QOS, features conf cannot map: -SL_EINVAL;
 *  - what authz.c keeps to operators (--priority, a negative --nice, an
 *    account not the user's): -SL_EPERM, -SL_EACCOUNT;
 *  - no account,
 *    or a partition only another account has: -SL_EACCOUNT;
 *  - never fits on `engine` (sl_sched_check): -SL_EPARTITION, -SL_ENOFIT;
 *  - a deadline already past: -SL_EINVAL with Slurm's time limit text;
 *  - on Kubernetes, what only the local executor does (-w, -x, --signal,
 *    --mem=0): -SL_EUNSUPP;
 *  - --array that slurmctld would refuse, or an id not below maxArraySize:
 *    -SL_EINVAL "Invalid job array specification".
 * Also: the account lowercased (as Slurm does), --mail-user defaulted to
 * the user, --exclusive (local) and --mem=0 resolved to the node's whole
 * CPU and memory quota (spec.node_cpus, spec.mem_per_node + mem_all).
 * The engine is only read: sluiced passes its live one, a tool one built on
 * the empty model. */
int sl_submit_prepare(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_peer *who, struct sl_job *j, struct sl_err *err);

/* Job arrays (array.h). A prepared j with --array: its task set into *out
 * (NULL without --array; caller frees with sl_array_free). */
struct sl_array;
int sl_submit_array_tasks(const struct sl_conf *conf, const struct sl_job *j,
			  struct sl_array **out, struct sl_err *err);
/* Task i of a's set as its own record: a copy of j with its id, the
 * array's id and its task id and throttle. Only task 0 keeps the submit
 * key (a retried sbatch finds the array by it). Caller frees. */
struct sl_job *sl_submit_array_task(const struct sl_job *j, const struct sl_array *a, size_t i,
				    uint64_t array_id, uint64_t id);

/* What only the local executor does or means (--mem=0, --nodelist,
 * --exclude, --signal, --get-user-env, --tmp), refused on Kubernetes by
 * name, and a --tmp above the local nodes' tmpDisk (Slurm's refusal): at
 * submit, and when scontrol update changes what a pending job asks for. */
int sl_submit_executor_limits(const struct sl_conf *conf, const struct sl_jobspec *s,
			      struct sl_err *err);

/* --exclusive's CPUs and --mem=0's memory on the local executor: a whole
 * node, which is the partition's largest flavor's quota. At submit, and
 * again when scontrol update changes the request or the partition
 * (MinMemoryNode=0 means a node's memory there too, as slurmctld's
 * select plugin reads a per-node minimum of 0). */
int sl_submit_whole_node(const struct sl_conf *conf, struct sl_jobspec *s, struct sl_err *err);
/* A node's memory for s's partition, MiB, as --mem=0 takes it: its
 * ClusterQueue's largest memory quota; 0 when the queue counts none. */
int64_t sl_submit_node_memory(const struct sl_conf *conf, const struct sl_jobspec *s);
/* A node's whole CPUs for s's partition (local executor), as --exclusive
 * takes them: its ClusterQueue's largest CPU quota; 0 when none counts. */
int sl_submit_node_cpus(const struct sl_conf *conf, const struct sl_jobspec *s);

/* The workload of j (workload.h's sl_job_workload, the config's
 * features), --switches left out where no flavor of the job's ClusterQueue
 * has a topology: Slurm without a topology plugin takes it and gives it no
 * meaning, where Kueue would hold the job for ever. */
struct sl_job_wl;
int sl_submit_workload(const struct sl_conf *conf, const struct sl_job *j, struct sl_job_wl *b,
		       struct sl_err *err);

/* --time-min (TimeMin=) above the limit the job runs with (its own, else
 * the partition's default, resolved at submit): slurmctld's refusal. */
int sl_submit_time_min(const struct sl_jobspec *s, struct sl_err *err);

/* The last of sl_submit_prepare's checks, alone: j's features resolve and
 * it can ever fit on engine, with the same refusals. Also when scontrol
 * update changes what a pending job asks for. */
/* The engine's "can never fit" e as slurmctld tells it (its first line,
 * then the submission's failure, "Requested node configuration is not
 * available"), the engine's reason in brackets: Slurm users do not know
 * pod sets and ClusterQueues. */
int sl_submit_nofit(const struct sl_err *e, struct sl_err *err);
int sl_submit_can_fit(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_job *j, struct sl_err *err);

/* The priority a QOS gives its jobs: its WorkloadPriorityClass's value
 * (sacctmgr's Priority of the QOS). 0, or -SL_EINVAL for an unknown QOS
 * (neither an object nor the default) or a missing class. */
int sl_submit_qos_base(const struct sl_conf *conf, const char *qos, int32_t *base);
/* j->priority from its QOS (WorkloadPriorityClass), --priority and --nice;
 * also when a held job is released. -SL_EINVAL for an unknown QOS. */
int sl_submit_priority(const struct sl_conf *conf, struct sl_job *j, struct sl_err *err);

#endif
