/* job.h - the neutral job spec (what a command asks for, free of #SBATCH or
 * #PBS syntax) and the job record (what the daemon knows about a job).
 *
 * These are plain structs on purpose: they are records that cross the wire,
 * the store and the formatters, and forty getters would hide nothing. Strings
 * are owned by the struct (sl_jobspec_free / sl_job_free release them). */
#ifndef SL_JOB_H
#define SL_JOB_H

#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "jobstate.h"

#define SL_TIME_UNSET (-1)    /* no --time given: partition default */
#define SL_TIME_INFINITE (-2) /* "UNLIMITED" / "infinite" */
#define SL_NO_VAL (-1)        /* numeric option not given */
/* The largest finite time limit, in minutes: Slurm's (its INFINITE and
 * NO_VAL are the two uint32 values above it). */
#define SL_TIME_MAX 4294967293LL
/* The most memory one job may ask for in all, in MiB: Kueue counts a pod
 * set's memory in milli-bytes in an int64 (about 8 PiB). */
#define SL_MEM_MAX_MIB (INT64_MAX / (1048576LL * 1000))

enum sl_open_mode { SL_OPEN_DEFAULT = 0, SL_OPEN_TRUNCATE, SL_OPEN_APPEND };

/* slurmd's wait for a login environment when --get-user-env names none (s) */
#define SL_USER_ENV_WAIT 8

struct sl_jobspec {
	char *name;            /* -J; NULL: script basename, "wrap" or "sbatch" */
	char *partition;       /* -p; NULL: config defaultPartition */
	char *account;         /* -A; NULL: user's default account */
	char *qos;             /* --qos; NULL: none */
	int nodes;             /* -N min nodes; SL_NO_VAL: 1 */
	int nodes_max;         /* -N a-b upper bound; SL_NO_VAL: = nodes */
	int ntasks;            /* -n; SL_NO_VAL: derived */
	int ntasks_per_node;   /* SL_NO_VAL unless given */
	int cpus_per_task;     /* -c; SL_NO_VAL: 1 */
	int64_t mem_per_node;  /* --mem in MiB; SL_NO_VAL unless given */
	int64_t mem_per_cpu;   /* --mem-per-cpu in MiB; SL_NO_VAL unless given */
	int gpus;              /* --gpus total; SL_NO_VAL unless given */
	int gpus_per_node;     /* --gpus-per-node or --gres=gpu[:type]:N */
	int gpus_per_node_opt; /* 1: --gpus-per-node gave it (Slurm's batch step and
	                        * tasks then have SLURM_GPUS_PER_NODE); 0: --gres, or
	                        * an older record */
	char *gpu_type;        /* type from --gres/--gpus, or NULL */
	char **features;       /* -C a&b: every one required; NULL-terminated, NULL: none */
	int64_t time_limit;    /* minutes; SL_TIME_UNSET or SL_TIME_INFINITE */
	int64_t time_limit_secs; /* PBS's walltime to the second when it is no whole
				  * minute (qsub, qalter), time_limit then its minutes
				  * rounded up; 0: time_limit * 60 (sl_jobspec_limit_secs) */
	char *std_out;         /* -o pattern; NULL: slurm-%j.out */
	char *std_err;         /* -e pattern; NULL: same file as stdout */
	char *std_in;          /* -i; NULL: /dev/null */
	char *work_dir;        /* absolute; -D or the submit directory */
	char *submit_dir;      /* absolute cwd of sbatch */
	char *submit_host;     /* short hostname of the submit host */
	int submit_sid;        /* the submitting session's id (AllocNode:Sid, AllocSID) */
	char *script;          /* the batch script text (never NULL) */
	char *script_path;     /* as sbatch found it (script.h); NULL for stdin/--wrap */
	char *command;         /* Slurm's job command: script_path and the arguments
				  (sl_script_command); NULL: older records */
	char *distribution;    /* -m as Slurm spells it back (SLURM_DISTRIBUTION); NULL */
	char *submit_line;     /* sbatch's command line, its words joined (sacct's
				  SubmitLine); NULL: not an sbatch job's */
	char **argv;           /* script arguments; NULL-terminated, may be NULL */
	char **env;            /* exported environment "K=V", NULL-terminated */
	char *export_spec;     /* --export as given ("ALL", "NONE", "A,B=1"); NULL: ALL */
	int hold;              /* -H */
	int nice;              /* --nice adjustment (may be negative for operators) */
	int64_t priority;      /* --priority; SL_NO_VAL unless given (operators) */
	enum sl_open_mode open_mode;
	mode_t umask;
	int wrapped;           /* created by --wrap */
	int interactive;       /* srun's or salloc's allocation: its script only holds it, so
	                        * it has no batch step (sacct, squeue -s, BatchFlag=0) */
	int ntasks_per_gpu;    /* --ntasks-per-gpu (SLURM_NTASKS_PER_GPU); 0: not given */
	int no_kill;           /* -k: a node's failure does not end the job (local: none can) */
	int use_min_nodes;     /* --use-min-nodes: -N MIN-MAX takes MIN */
	int64_t tmp_mb;        /* --tmp: MB of temporary disk per node; 0: none asked */
	int contiguous;        /* --contiguous: recorded, a hint */
	int wait_all_nodes;    /* --wait-all-nodes: 0 not given, 1 for 0, 2 for 1 */
	int overcommit;        /* -O: one task's CPUs a node, however many tasks */
	int spread_job;        /* --spread-job (a hint: recorded) */
	int gres_flags;        /* --gres-flags: 1 enforce-binding, 2 disable-binding (a hint) */
	int64_t delay_boot;    /* --delay-boot, minutes (nothing reboots: recorded) */
	int64_t time_min;      /* --time-min, minutes; 0 not given (never lowered to) */
	int acctg_task;        /* --acctg-freq task=N: seconds between usage samples + 1
	                        * (1: none, the end's totals alone); 0: not given */
	int requeue;           /* 1: requeue when preempted (default); 0: --no-requeue */
	char *container_image; /* --container-image (kubernetes executor); NULL: config */
	char *mpi;             /* --mpi: "openmpi", "intel", "mpich" or "none"; NULL: partition */
	char *comment;         /* --comment, free text shown back (squeue %k); NULL: none */
	char *dependency;      /* -d as given ("afterok:12?singleton"); NULL: none (depend.h) */
	int kill_invalid_dep;  /* --kill-on-invalid-dep: 1 yes, 0 no; SL_NO_VAL: the config's */
	int64_t begin_time;    /* --begin, unix seconds; 0: none */
	int pbs;               /* 1: submitted with qsub: PBS's per-job environment too */
	int torque_array;      /* 1: a qsub array given with Torque's -t (not PBS Pro's -J):
	                        * Torque's subjobs, their names and files suffixed "-I"
	                        * (pbs_job.h), each listed by qselect; 0 in older records */
	int torque;            /* 1: a qsub job that used one of Torque's own forms (-l
	                        * nodes= or procs=, -t, -d, -w, -n, -W x=): it gets
	                        * Torque's MOM's variables too (pbs_env.h); 0: not, or
	                        * an older record */
	int omp_threads;       /* qsub's ompthreads (each chunk's threads): the job's
	                        * OMP_NUM_THREADS and NCPUS; SL_NO_VAL: the chunk's ncpus */
	int omp_threads_job;   /* 1: omp_threads came from a job-wide -l ompthreads=,
	                        * which PBS keeps in Resource_List beside the chunk
	                        * it converts it into; 0: from a select, or none */
	char *pbs_resources;   /* qsub's Resource_List entries as PBS's server keeps
	                        * them and the shape cannot tell back ("nodes=2:ppn=4,
	                        * place=scatter,select=2:ncpus=4:mpiprocs=4":
	                        * pbs_reslist.h); NULL: sbatch's job, or an older
	                        * record, whose Resource_List qstat derives */
	/* sbatch options added for real users' scripts (issue 12). Numbers: 0 = not given. */
	int mail_type;         /* --mail-type: SL_MAIL_* bits; TIME_LIMIT* bits are cleared once sent */
	char *mail_user;       /* --mail-user; the submitting user when mail_type is set */
	int shared;            /* SL_SHARED_*: --exclusive, --exclusive=oversubscribe, -s */
	int node_cpus;         /* --exclusive on the local executor: the whole node's CPUs,
				* resolved by the submit policy; 0: not exclusive */
	int mem_all;           /* --mem=0: mem_per_node holds the node's memory, resolved by
				* the submit policy (Slurm shows MinMemoryNode=0) */
	int mincpus;           /* --mincpus: CPUs per node at least */
	int warn_signal;       /* --signal=[{R|B}:]SIG[@TIME]: the signal number */
	int warn_time;         /* seconds before the time limit (60 unless given) */
	int warn_flags;        /* SL_WARN_BATCH (B:), SL_WARN_RESV (R:) */
	char *hint;            /* --hint, as given; its socket/core/thread values are below */
	char *gpu_bind, *mem_bind; /* --gpu-bind, --mem-bind as given: hints for srun */
	char *cpu_freq;        /* --cpu-freq as SLURM_CPU_FREQ_REQ writes it (a hint) */
	char *gpu_freq;        /* --gpu-freq as given (a hint) */
	int sockets_per_node;  /* --sockets-per-node, -B S */
	int cores_per_socket;  /* --cores-per-socket, -B S:C */
	int threads_per_core;  /* --threads-per-core, -B S:C:T, --hint=nomultithread */
	int ntasks_per_socket; /* --ntasks-per-socket */
	int ntasks_per_core;   /* --ntasks-per-core */
	char *nodelist;        /* -w/--nodelist, as given */
	char *exclude;         /* -x/--exclude, as given */
	int64_t deadline;      /* --deadline, unix seconds */
	int gpus_per_task;     /* --gpus-per-task */
	int cpus_per_gpu;      /* --cpus-per-gpu */
	int64_t mem_per_gpu;   /* --mem-per-gpu in MiB */
	char *wckey;           /* --wckey: a label for accounting, shown back (squeue %w) */
	char *rlimits;         /* the submitting shell's soft limits (rlimit.h); NULL: none
	                        * (--propagate=NONE) */
	char *array;           /* --array as given ("0-15:4%2"); NULL: not an array (array.h) */
	int switches;          /* --switches=N: leaf switches at most; 0: none asked */
	int get_user_env;      /* --get-user-env[=N]: the login environment's timeout in
	                        * seconds (SL_USER_ENV_WAIT without N); 0: not asked */
	int get_user_env_mode; /* its S (1: su without -) or L (2: a login shell) */
	int64_t wait4switch;   /* --switches=N@TIME: seconds; 0: none */
	char *topology;        /* --topology (sched.h sl_sched_topo_parse); NULL: none */
};

/* --mail-type bits, Slurm's values (slurm.h MAIL_*). */
#define SL_MAIL_BEGIN 0x0001
#define SL_MAIL_END 0x0002
#define SL_MAIL_FAIL 0x0004
#define SL_MAIL_REQUEUE 0x0008
#define SL_MAIL_TIME100 0x0010
#define SL_MAIL_TIME90 0x0020
#define SL_MAIL_TIME80 0x0040
#define SL_MAIL_TIME50 0x0080
#define SL_MAIL_STAGE_OUT 0x0100
#define SL_MAIL_ARRAY_TASKS 0x0200
#define SL_MAIL_INVALID_DEPEND 0x0400

enum sl_shared { SL_SHARED_DEFAULT = 0, SL_SHARED_EXCLUSIVE, SL_SHARED_OVERSUBSCRIBE };

#define SL_WARN_BATCH 0x1 /* --signal=B:...: the batch shell only */
#define SL_WARN_RESV 0x2  /* --signal=R:... */

struct sl_job {
	uint64_t id;
	struct sl_jobspec spec; /* with partition/account/name resolved */
	uid_t uid;
	gid_t gid;
	char *user;             /* user name at submit time */
	char *group;
	enum sl_jobstate state;
	char *reason;           /* Slurm reason code: "None", "Resources", "JobHeldUser", ... */
	char *reason_text;      /* full sentence (Kueue wording) or NULL */
	char *start_reason;     /* the reason it waited for when it last started (slurmdbd's
				 * state_reason_prev, sacct's Reason); NULL: never started */
	int64_t submit_time;    /* unix seconds */
	int64_t eligible_time;
	int64_t start_time;     /* 0 = not started */
	int64_t end_time;       /* 0 = not ended */
	int64_t priority;       /* effective priority (0 while held) */
	int exit_code;          /* the process exit status (0..255) */
	int exit_signal;        /* terminating signal, 0 if none */
	char *nodelist;         /* hostlist of allocated nodes, NULL while pending */
	int alloc_cpus;         /* total cpus allocated (or requested while pending) */
	int attempt;            /* 0 first run; +1 per requeue */
	int array_split;        /* an array task acted on by its own id while pending: Slurm
				 * splits it off its meta record (squeue -r lists its own fields) */
	int alloc_nodes;        /* nodes admitted (-N MIN-MAX: Kueue partial admission); 0 while pending */
	int ready_evictions;    /* evictions by the pods-ready timeout only (Kueue's
				 * status.requeueState.count): backoffLimitCount's count */
	int cancelled_by;       /* uid that cancelled it, -1 otherwise */
	char *cluster_queue;    /* admitting ClusterQueue, NULL while pending */
	char *topo_assign;      /* Kueue TAS: the admission's topology assignment
				 * (sl_sched_topo_text), NULL: none */
	char *flavors;          /* "cpu=default,memory=default" once admitted */
	char *submit_key;       /* the submitting sbatch's idempotency key, or NULL: a retry
				 * with the same key (and uid) gets this job, not a new one */
	int queue_pos;          /* position in its ClusterQueue, 0 if n/a */
	int nodes_shown;        /* a pending job's node count as slurmctld shows it
				 * (sl_jobspec_nodes_shown); 0: its shape's */
	char *dependency;       /* what it still waits for, as scontrol prints it
				 * ("afterok:12(unfulfilled)"); NULL: nothing */
	int64_t suspend_time;   /* last suspend or resume (scontrol's SuspendTime); 0: never */
	int64_t pre_suspend;    /* seconds it ran before its last suspension (SecsPreSuspend) */
	char *runs;             /* its runs before requeues, for sacct: "SUBMIT START END
				 * EXIT SIG CPUS NODELIST ELIGIBLE PRIORITY REASON" each
				 * (sl_job_run_text), ';'-separated; NULL: none */
	int mail_sent;          /* the --mail-type TIME_LIMIT* bits already mailed (Slurm
				 * clears them from the job's mail type) */
	/* The batch step's use, from its supervisor at the end (usage.h's
	 * struct sl_usage): KiB, faults, microseconds, bytes; 0: not measured
	 * (Kubernetes, or a job that never ran). The CPU, faults and disk
	 * figures are the whole job's, its srun steps' tasks included; the
	 * sizes are the script's own processes' (reaped_rss: usage.h's). */
	int64_t max_rss, max_vmsize, max_pages, user_usec, sys_usec, disk_read, disk_write;
	int64_t reaped_rss;
	/* Job arrays (array.h): one record per task, ids N..N+K-1 for K tasks. */
	uint64_t array_job_id;  /* N, the array's id; 0: not an array task */
	int array_task_id;      /* the task's index (meaningful when array_job_id) */
	int array_throttle;     /* at most this many tasks of the array run at once
				 * (%N, scontrol ArrayTaskThrottle); 0: no limit */
	int requeue_mark;       /* scontrol requeue asked, the run's end not in yet: 1, 2
	                         * requeuehold (kept on disk: a restart then still requeues) */
	int array_dropped;      /* a pending task cancelled out of its array while
				 * others still wait: slurmctld clears it from the
				 * meta record, so no listing, history or id
				 * lookup knows it (jobfilter.c) */
	char *array_tasks;      /* listings only, never stored: the pending tasks this
				 * record stands for once folded, as Slurm shows them
				 * ("2-3%2"; jobfilter.h's fold); NULL: itself */
};

/* Resolved resource shape of a job: derived from the spec once, so the
 * scheduler, executors and formatters agree on what was asked for. */
struct sl_jobshape {
	int nodes;
	int ntasks;
	int tasks_per_node;     /* ceil(ntasks / nodes) */
	int cpus_per_task;
	int cpus_per_node;      /* tasks_per_node * cpus_per_task */
	int64_t mem_per_node;   /* MiB, 0 when unspecified */
	int gpus_per_node;
};

void sl_jobspec_init(struct sl_jobspec *s);   /* all fields to "unset" */
void sl_jobspec_clear(struct sl_jobspec *s);  /* free members, re-init */
/* The limit that is enforced, in seconds: time_limit_secs when PBS gave
 * one, else the minutes; 0 when there is none (unset or unlimited). */
int64_t sl_jobspec_limit_secs(const struct sl_jobspec *s);
/* A limit of secs (> 0) seconds: the minutes Slurm's views show (rounded
 * up, as Slurm's time_str2mins) and the seconds beside them when they are
 * no whole minute. */
void sl_jobspec_limit_set_secs(struct sl_jobspec *s, int64_t secs);
/* Counts past an int are capped at INT_MAX (memory at INT64_MAX), never
 * wrapped: records the submit policy refused never reach it. */
void sl_jobspec_shape(const struct sl_jobspec *s, struct sl_jobshape *out);
/* The CPUs a pending job shows it asks for (squeue %C, scontrol's
 * NumCPUs, TRES): its shape without the whole node --exclusive takes on
 * the local executor (node_cpus), which Slurm counts only once the node
 * is allocated. */
int sl_jobspec_asked_cpus(const struct sl_jobspec *s);
/* The nodes a pending job shows (squeue %D, scontrol's NumNodes) when
 * its partition's largest node has max_cpus CPUs, as slurmctld's
 * _pack_default_job_details() counts them: -n over --ntasks-per-node
 * (rounded down), else over the tasks of -c CPUs a node holds, else over
 * the node's CPUs (rounded up); never fewer than -N. 0 max_cpus (unknown)
 * or no -n: the shape's nodes. Display only: the job asks for its shape. */
int sl_jobspec_nodes_shown(const struct sl_jobspec *s, int max_cpus);
/* j's nodes for display: nodes_shown while it is pending, else sh's. */
int sl_job_nodes_shown(const struct sl_job *j, const struct sl_jobshape *sh);
/* The shape, or -SL_EINVAL when a count or size of the job in all (on its
 * largest node count) does not fit: tasks, CPUs or GPUs past INT_MAX, memory
 * past SL_MEM_MAX_MIB. err->msg: the numbers, '\n', Slurm's text ("More
 * processors requested than permitted", "Memory required by task is not
 * available", ...). */
int sl_jobspec_shape_check(const struct sl_jobspec *s, struct sl_jobshape *out,
			   struct sl_err *err);
/* The shape of a job: its spec's, on the nodes it was given once admitted. */
void sl_job_shape(const struct sl_job *j, struct sl_jobshape *out);
/* It ran: it started and held nodes. slurmctld stamps a job cancelled
 * while pending (or past its deadline before it started) with start = end
 * = that time; it never had nodes. */
int sl_job_ran(const struct sl_job *j);
/* Slurm's pn_min_cpus (scontrol's MinCPUsNode, squeue's %c), which -n alone
 * never raises (its tasks may spread over nodes): --ntasks-per-node x -c,
 * else -c, or more when --mincpus or --cpus-per-gpu say so. */
int sl_jobspec_min_cpus_node(const struct sl_jobspec *s, const struct sl_jobshape *sh);
/* Seconds it has run by now (or by its end), suspended time not counted:
 * squeue's TIME, sacct's Elapsed and scontrol's RunTime, as Slurm keeps
 * them (no more than its limit while it is ended for it). 0 when it never
 * started. */
int64_t sl_job_run_secs(const struct sl_job *j, int64_t now);
/* Seconds it spent suspended (scontrol suspend) by now or by its end:
 * sacct's Suspended. */
int64_t sl_job_suspended_secs(const struct sl_job *j, int64_t now);
/* Its end: the record's, or, while it is ended for its time limit, the
 * moment the limit came (slurmctld's end_time for sacct's End). 0: none. */
int64_t sl_job_end_time(const struct sl_job *j, int64_t now);
/* 1 for a job still RUNNING past its time limit: its supervisor is ending
 * it (OverTimeLimit is 0), which slurmctld would show as TIMEOUT while it
 * completes (squeue CG, scontrol COMPLETING, sacct TIMEOUT). */
int sl_job_past_limit(const struct sl_job *j, int64_t now);
/* The state slurmctld shows (squeue, scontrol, qstat and state filters):
 * COMPLETING for a job past its time limit, whose record says RUNNING. */
enum sl_jobstate sl_job_shown_state(const struct sl_job *j, int64_t now);

struct sl_job *sl_job_new(void);
/* A deep copy of j; caller frees with sl_job_free(). */
struct sl_job *sl_job_copy(const struct sl_job *j);
/* A pending job's reason just set: slurmctld's state_reason_prev_db keeps
 * the last one that is not None, Priority or Resources, which sacct shows
 * as a started job's Reason (j->start_reason). */
void sl_job_reason_seen(struct sl_job *j);
void sl_job_free(struct sl_job *j);
void sl_job_free_array(struct sl_job **v, size_t n);
/* One record of j->runs: a run a requeue ended, slurmdbd's REQUEUED record
 * of the job (sacct -D's row; without -D, the one sacct shows when the
 * window holds it and not the job's newer record). It keeps what that
 * record kept: its own submit and eligible times, priority and reason. */
struct sl_job_run {
	int64_t submit, start, end;
	int exit_code, exit_signal, cpus;
	const char *nodes; /* borrowed from the text, nodes_len long: "None" for none */
	size_t nodes_len;
	/* The tail records written before it was kept lack: for those the
	 * eligible time is the submit time, priority -1 (the job's stands)
	 * and reason NULL. */
	int64_t eligible;
	int64_t priority;
	const char *reason; /* the reason it waited for before the run (sacct's
			     * Reason), borrowed, reason_len long: "None" for none */
	size_t reason_len;
};
/* The record at s (up to the next ';' or the end): 0, or -1 for one that
 * cannot be read (the callers skip it). */
int sl_job_run_parse(const char *s, struct sl_job_run *out);
/* The record of j's run that ends now (at end, with that exit; the rest
 * is j's as it stands), as sl_job_run_parse reads it; caller frees. */
char *sl_job_run_text(const struct sl_job *j, int64_t end, int exit_code, int exit_signal);
/* 1 for an array task Slurm keeps a record of its own for: one that ran
 * (requeued since), or that was acted on by its own id while pending
 * (array_split); 0 for one its array's pending meta record holds. */
int sl_job_task_split(const struct sl_job *t);
/* The raw JobId Slurm shows for j (squeue %A, scontrol's JobId=): the
 * array's id for a folded record and for a task its meta record still
 * holds, pending or cancelled before it ran (Slurm gives a task an id of
 * its own when it splits off), else j->id. */
uint64_t sl_job_slurm_id(const struct sl_job *j);
/* The switch wait Slurm shows for s (scontrol's Switches=N@T, squeue's
 * WAIT4SWITCH): slurmctld holds it to max_switch_wait (300 s by
 * default), an unset one included; 0 without --switches. */
int64_t sl_jobspec_switch_wait(const struct sl_jobspec *s);
/* The id Slurm's commands print for j: N_[TASKS] for a folded record
 * (array_tasks), N_I for an array's task, else N; cut to len. */
void sl_job_id_text(const struct sl_job *j, char *buf, size_t len);

/* Free the environment, arguments and script (the script becomes ""):
 * sluiced keeps them only in its store, since they are most of a job's
 * memory and only a launch reads them (sl_job_refill gives them back). */
void sl_job_shed(struct sl_job *j);
/* Give j back what sl_job_shed took, moved out of `from` (the stored spec). */
void sl_job_refill(struct sl_job *j, struct sl_jobspec *from);

/* JSON text, the wire and store contract (PROTOCOL.md lists the keys),
 * written and read straight from the structs: job_text.c and job_parse.c.
 * Numbers at their default are left out; readers start from the defaults.
 * The append functions return 0, or -SL_ETOOBIG when b's cap is reached
 * (b is then left as it was). */
struct sl_buf;
/* A record as squeue, sacct and scontrol receive it: without the spec's
 * env, script and argv (no listing shows them, and the environment alone
 * is two thirds of a record). */
int sl_job_listing_append(struct sl_buf *b, const struct sl_job *j);
/* A listing for whoever asks: the owner's and operators' (SL_VIEW_OWNER)
 * is the record above; anyone else's also leaves out the --export values,
 * which carry the environment's (authz.h's SL_OP_SEE_PRIVATE decides).
 * sluiced lists through this one. */
enum sl_job_view { SL_VIEW_OWNER, SL_VIEW_OTHERS };
int sl_job_listing_append_view(struct sl_buf *b, const struct sl_job *j, enum sl_job_view v);
/* The whole spec. */
int sl_jobspec_text_append(struct sl_buf *b, const struct sl_jobspec *s);
/* A jobs reply, {"jobs": [RECORD...], ...}, read into *jobs (n records and
 * a NULL; caller frees with sl_job_free_array), or an error reply
 * {"code", "error"} turned into its code and message. */
int sl_job_list_parse(const char *text, size_t len, struct sl_job ***jobs, size_t *n,
		      struct sl_err *err);
/* One spec, as sl_jobspec_text_append wrote it (the store's), into *out
 * (initialised here; the caller clears it with sl_jobspec_clear). Members
 * it does not know are skipped; the script must be there. */
int sl_jobspec_parse(const char *text, size_t len, struct sl_jobspec *out,
		     struct sl_err *err);
/* As sl_jobspec_parse, without what only a launch reads (env and argv
 * stay NULL, the script ""): a stored spec for a listing (sacct). */
int sl_jobspec_parse_listing(const char *text, size_t len, struct sl_jobspec *out,
			     struct sl_err *err);
/* A submit request, {"spec": SPEC}: as sl_jobspec_parse, but a member
 * this daemon does not know is an error. */
int sl_jobspec_parse_request(const char *text, size_t len, struct sl_jobspec *out,
			     struct sl_err *err);
/* A submit request, {"spec": SPEC, "submit_key": KEY}, into j (from
 * sl_job_new): its spec as sl_jobspec_parse_request, and the key, when
 * there is one, into j->submit_key: 1 to SL_SUBMIT_KEY_MAX characters of
 * [0-9A-Za-z_-]. */
#define SL_SUBMIT_KEY_MAX 64
int sl_job_parse_request(const char *text, size_t len, struct sl_job *j, struct sl_err *err);
/* As sl_job_parse_request, and the request's flags into *flags:
 * SL_SUBMIT_TEST_ONLY for "test_only": 1 in the spec (sbatch --test-only:
 * check and answer when it would start, store nothing; in the spec, so
 * that an older daemon refuses it instead of submitting). */
#define SL_SUBMIT_TEST_ONLY 0x1u
int sl_job_parse_submit(const char *text, size_t len, struct sl_job *j, unsigned *flags,
			struct sl_err *err);

#endif
