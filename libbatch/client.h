/* client.h - what commands call to talk to sluiced. One call = one request
 * and its reply; no socket or JSON code is needed in bin/. */
#ifndef SL_CLIENT_H
#define SL_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "job.h"
#include "jobfilter.h"
#include "qos_limits.h"

struct sl_client;

/* Where is the daemon? $SLUICE_SERVER (HOST:PORT), else the config
 * ($SLUICE_CONF, else $sysconfdir/sluice/sluice.yaml unless $SLUICE_SOCKET
 * is set): its `controller` (HOST:PORT), else its `socket`; else
 * $SLUICE_SOCKET, else the compiled-in default. HOST:PORT means TCP with
 * munge credentials. Caller frees the result. */
int sl_client_socket_path(char **out, struct sl_err *err);

/* Connect (socket NULL: where sl_client_socket_path() says, with munge
 * credentials on TCP or when the config says auth: munge; else that Unix
 * socket, without). Failure is SL_ECONNECT with the address and errno
 * text in err. Caller frees with sl_client_free(). */
int sl_client_connect(const char *socket, struct sl_client **out, struct sl_err *err);
void sl_client_free(struct sl_client *c);

/* Submit a job; on success *id is the new job id (already durable). */
int sl_client_submit(struct sl_client *c, const struct sl_jobspec *spec,
		     uint64_t *id, struct sl_err *err);
/* The whole exchange for sbatch: connect to the daemon found by
 * sl_client_socket_path(), submit, disconnect. */
int sl_client_submit_once(const struct sl_jobspec *spec, uint64_t *id, struct sl_err *err);

/* sbatch --test-only: when would the job start? Nothing is stored. On
 * success: the id it used up, the start (unix seconds), its CPUs, its
 * nodes (a host list, or "n/a") and partition (caller frees both). Slurm's
 * refusals as for a submission, and -SL_ENOFIT "Requested node
 * configuration is not available" when no start is known. */
struct sl_willrun {
	uint64_t id;
	int64_t start;
	int cpus;
	char *nodes, *partition;
	int64_t shorter_time;    /* minutes: a --time that backfill starts now, 0: none */
	char *other_partition;   /* where it would start sooner (caller frees), or NULL */
	int64_t other_start;
};
int sl_client_test_only(const struct sl_jobspec *spec, struct sl_willrun *out,
			struct sl_err *err);

/* Jobs matching f, in id order. Caller frees with sl_job_free_array(). */
int sl_client_jobs(struct sl_client *c, const struct sl_jobfilter *f,
		   struct sl_job ***jobs, size_t *n, struct sl_err *err);

/* The whole exchange for read-only commands: connect to the daemon found
 * by sl_client_socket_path(), sl_client_jobs(), disconnect. */
int sl_client_query(const struct sl_jobfilter *f, struct sl_job ***jobs, size_t *n,
		    struct sl_err *err);

/* The same with only the members of p in each record (job_proj.h; NULL:
 * whole records); the others are at their defaults. A daemon older than
 * projections sends whole records, which read the same. */
struct sl_jobproj;
int sl_client_jobs_proj(struct sl_client *c, const struct sl_jobfilter *f,
			const struct sl_jobproj *p, struct sl_job ***jobs, size_t *n,
			struct sl_err *err);
int sl_client_query_proj(const struct sl_jobfilter *f, const struct sl_jobproj *p,
			 struct sl_job ***jobs, size_t *n, struct sl_err *err);

/* One job's outcome in a multi-job operation. */
struct sl_jobresult {
	uint64_t id;
	int rc;              /* 0 or -SL_E* */
	char msg[256];       /* reason when rc != 0 */
	uint64_t array_job_id; /* an array's task: its array, 0 otherwise */
	int array_task_id;     /* and its task */
	int ended;             /* an array's task that had ended when asked ("each") */
};

/* Cancel (signal 0) or signal the jobs matching f. `batch_only` is what
 * the signal reaches: 0 the job's steps (scancel -s), 1 the batch script
 * alone (-b), 2 the script's process group (--full). Results are per
 * matched job (and per listed id that matched nothing, with rc
 * -SL_ENOENT). Caller frees *res with free(). */
int sl_client_cancel(struct sl_client *c, const struct sl_jobfilter *f, int signal,
		     int batch_only, struct sl_jobresult **res, size_t *nres,
		     struct sl_err *err);

/* Operator/owner control (scontrol): hold (an operator's on another's job
 * is an admin hold), uhold (a user hold, whoever sets it), release,
 * requeue, requeuehold, top, suspend, resume. */
enum sl_control_op {
	SL_CTL_HOLD = 1, SL_CTL_RELEASE, SL_CTL_REQUEUE, SL_CTL_UHOLD, SL_CTL_REQUEUE_HOLD,
	SL_CTL_TOP, SL_CTL_SUSPEND, SL_CTL_RESUME
};
int sl_client_control(struct sl_client *c, enum sl_control_op op, uint64_t id,
		      struct sl_err *err);
/* The same on array id's task alone ("N_I"). Not by the task's own id:
 * the last task has N, which names the whole array (array.h). */
int sl_client_control_task(struct sl_client *c, enum sl_control_op op, uint64_t id,
			   uint32_t task, struct sl_err *err);
/* The same on array id, each of its tasks answering for itself, ended
 * ones too (Slurm's job_array_resp_msg). *res (caller frees) lists them;
 * it stays NULL when id is a plain job (or the daemon predates this),
 * which then answers as above. */
int sl_client_control_each(struct sl_client *c, enum sl_control_op op, uint64_t id,
			   struct sl_jobresult **res, size_t *nres, struct sl_err *err);

/* qhold/qrls: set (release 0) or release a user's (operator 0) or an
 * operator's hold on job id (PROTOCOL.md, type 20). */
int sl_client_hold(struct sl_client *c, int release, int operator, uint64_t id,
		   struct sl_err *err);

/* sinfo: what the daemon knows of its partitions (LocalQueue names, in
 * config order) and of its node. Quantities are milli-units
 * (quantity.h). */
enum sl_part_avail { SL_PART_UP, SL_PART_DOWN, SL_PART_INACTIVE, SL_PART_DRAIN };

struct sl_quota_row {            /* one ClusterQueue x flavor x resource */
	char *cluster_queue, *flavor, *resource;
	int64_t nominal, borrowed, lent, used;
	int64_t pending;         /* the partition's jobs pending in this ClusterQueue */
};

struct sl_partinfo {
	char *name;
	int is_default;
	enum sl_part_avail avail; /* down: a stop policy; inactive: see reason */
	char *reason;            /* why not up; NULL when up */
	char *reason_user;       /* who set it (the daemon's user: it is config) */
	uint32_t reason_uid;
	int64_t reason_time;     /* when (the config's mtime); 0 unknown */
	int64_t admitted;        /* workloads admitted in its ClusterQueues */
	char **features;         /* its flavors' nodeLabels "key=value"; NULL-terminated */
	size_t nquota;
	struct sl_quota_row *quota;
	/* Its kind: Partition settings (partdef.h): minutes, counts or MiB;
	 * -1 not set, -2 UNLIMITED. */
	int64_t max_time, default_time, max_nodes, min_nodes;
	int64_t def_mem_per_cpu, def_mem_per_node, max_mem_per_cpu, max_mem_per_node;
	enum sl_part_avail admin; /* an operator's State= (scontrol update); UP: none */
};

struct sl_nodeinfo {             /* the local executor's one node */
	char *name, *arch, *os;
	int64_t boot_time, start_time; /* the machine's; sluiced's */
	int64_t cpu_load;        /* load average x 100 */
	int64_t free_mem;        /* MiB */
	int64_t tmp_disk;        /* MB: the config's tmpDisk */
	int drain, down;         /* an operator's (scontrol update NodeName) */
	char *reason, *reason_user; /* NULL when neither */
	uint32_t reason_uid;
	int64_t reason_time;
};

struct sl_knodeinfo {            /* an executor's own node (a Kubernetes Node) */
	char *name, *arch, *os, *version;
	char *features;          /* its labels, "key=value,..." */
	int64_t cpus, cpus_alloc; /* allocatable; requested by its pods */
	int64_t mem, mem_alloc;  /* MiB */
	int64_t gpus, gpus_alloc;
	int ready, unschedulable; /* down when not ready; drain when cordoned */
	int no_respond;          /* not ready because the kubelet went silent */
	char *reason, *reason_user; /* NULL when neither */
	uint32_t reason_uid;
	int64_t reason_time, boot_time;
	char **partitions;       /* the partitions whose flavors place pods on it */
};

struct sl_clusterinfo {
	int64_t now;
	struct sl_nodeinfo *node; /* NULL: the executor's nodes are not known */
	size_t nparts;
	struct sl_partinfo *parts;
	size_t nknodes;          /* the executor's own nodes (Kubernetes), or 0 */
	struct sl_knodeinfo *knodes;
};

/* The whole exchange for sinfo: connect, ask, disconnect. Caller frees
 * *out with sl_clusterinfo_free(). */
int sl_client_partitions(struct sl_clusterinfo **out, struct sl_err *err);
void sl_clusterinfo_free(struct sl_clusterinfo *ci);

/* scontrol update job: the fields, in order (PROTOCOL.md, UPDATE: the
 * keys; str NULL means the value is num). All or nothing. */
struct sl_update_field {
	const char *key;
	const char *str;
	int64_t num;
};
int sl_client_update(struct sl_client *c, uint64_t id, const struct sl_update_field *f,
		     size_t n, struct sl_err *err);
/* The same on array id's task alone (as sl_client_control_task). */
int sl_client_update_task(struct sl_client *c, uint64_t id, uint32_t task,
			  const struct sl_update_field *f, size_t n, struct sl_err *err);
/* The same, and when id is an array, *res (caller frees) is each of its
 * tasks' own answer, refusals too (the call then succeeds), those ended
 * marked; it stays NULL for a plain job (or from a daemon that predates
 * this). */
int sl_client_update_each(struct sl_client *c, uint64_t id, const struct sl_update_field *f,
			  size_t n, struct sl_jobresult **res, size_t *nres, struct sl_err *err);

/* scontrol ping: the daemon's host name (caller frees). Connects itself. */
int sl_client_ping(char **host, struct sl_err *err);
/* scontrol reconfigure (operators): the daemon reloads its config, as on
 * SIGHUP. Connects itself. */
int sl_client_reconfigure(struct sl_err *err);
/* scontrol update NodeName= (operators): names (NULL-terminated, or
 * {"ALL"}), a state (DRAIN, UNDRAIN, RESUME, DOWN, IDLE, CLEAR; NULL: none), a
 * reason (NULL: none). Connects itself. */
int sl_client_node_update(const char *const *names, const char *state, const char *reason,
			  struct sl_err *err);
/* scontrol update PartitionName= (operators): its State= (UP, DOWN, DRAIN,
 * INACTIVE). Connects itself. */
int sl_client_part_update(const char *name, const char *state, struct sl_err *err);
/* sdiag: the DIAG reply (PROTOCOL.md) into *out (caller puts it); with
 * reset, sdiag -r (operators), and *out may be NULL. Connects itself. */
struct json_object;
int sl_client_diag(int reset, struct json_object **out, struct sl_err *err);

/* scontrol show config: what the daemon says of itself, and its settings
 * as the config's key table lists them (key and value, in order). */
struct sl_daemonconf {
	int64_t now, start_time;
	char *host, *user, *conf_path, *executor;
	uint32_t uid;
	size_t n;
	char **keys, **values;   /* NULL-terminated */
};
int sl_client_config(struct sl_daemonconf **out, struct sl_err *err);
void sl_daemonconf_free(struct sl_daemonconf *dc);
/* Setting key's value in dc (borrowed); NULL when it has none. */
const char *sl_daemonconf_get(const struct sl_daemonconf *dc, const char *key);
/* *yes: the daemon's executor is Kubernetes, its jobs run in pods (0 when
 * the daemon did not answer: the return says why). */
int sl_client_kubernetes(int *yes, struct sl_err *err);
/* sstat: the use so far of running job id (usage.h) and its batch host
 * into *node (caller frees). Errors: -SL_ENOENT unknown, -SL_ESTATE not
 * running, -SL_EPERM not the caller's, -SL_EUNSUPP not measured here. */
struct sl_usage;
int sl_client_stat(uint64_t id, struct sl_usage *u, char **node, struct sl_err *err);
/* The config's clusterName, from sl_client_config() (the --json
 * documents name it); caller frees. */
int sl_client_cluster_name(char **out, struct sl_err *err);

/* sshare: one row per account (user NULL) and user association, in the
 * daemon's order (SL_MSG_SHARES; bin/sluiced/h_share.c says where the
 * numbers come from). Connects itself. Caller frees with
 * sl_share_rows_free(). */
struct sl_share_row {
	char *account, *user;
	int64_t shares, usage;            /* raw shares; CPU-seconds */
	int64_t cpu_run, mem_run, node_run; /* TRES-minutes left of running jobs */
};
int sl_client_shares(struct sl_share_row **rows, size_t *n, struct sl_err *err);
void sl_share_rows_free(struct sl_share_row *rows, size_t n);

/* sacctmgr: the same reply whole, its rows and the config behind them
 * (bin/sluiced/h_share_conf.c). Connects itself. Caller frees with
 * sl_assoc_info_free(). */
struct sl_assoc_user {
	char *user;      /* "*": every user without an entry of their own */
	char **accounts; /* NULL-terminated, lowercased; the first is the default */
};
struct sl_assoc_obj {    /* an Account or QOS object */
	char *name, *parent; /* parent: an Account's, or NULL */
	int64_t priority;    /* a QOS's: its WorkloadPriorityClass value */
	struct sl_lim_set lim;
};
struct sl_assoc_info {
	struct sl_share_row *rows;
	size_t n_rows;
	char *cluster, *default_qos, *host; /* never NULL */
	int64_t port;                      /* the first `listen:` port, or -1 */
	char **operators;                  /* NULL-terminated */
	struct sl_assoc_user *users;       /* `accounts:` in the config's order */
	struct sl_assoc_obj *accounts, *qos; /* qos: the default first when no object defines it */
	size_t n_users, n_accounts, n_qos;
};
int sl_client_assoc_info(struct sl_assoc_info **out, struct sl_err *err);
void sl_assoc_info_free(struct sl_assoc_info *ai);

#endif
