/* exec.h - the executor interface: how sluiced runs an admitted job and
 * learns its end. Executors are compile-time ops structs (no plugins), each
 * in its own room under bin/exec/ (bin/exec/executors.h lists them): the
 * local one (processes on this host under sluice-stepd) and the Kubernetes
 * one (JobSets and MPIJobs). The types live here because sluice-stepd and
 * the event queue speak them too.
 *
 * Events reach the daemon only through the callbacks, and never from inside a
 * call into the executor: they are delivered from the loop (a timer or a
 * watched fd), so a handler may call back into the executor freely. */
#ifndef SL_EXEC_H
#define SL_EXEC_H

#include <stdint.h>
#include "err.h"
#include "job.h"
#include "jobstate.h"
#include "usage.h"

struct sl_loop;
struct sl_conf;

/* Or-ed into the signal op's signo: the script's whole process group. */
#define SL_SIGNAL_GROUP 0x100

/* How a job ended, as sacct shows it. */
struct sl_exec_result {
	/* COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED or NODE_FAIL.
	 * SL_JOB_PENDING means "it never started": requeue it (it cannot have
	 * run, so running it again is safe). */
	enum sl_jobstate state;
	int exit_code;         /* 0..255: "3:0" */
	int exit_signal;       /* terminating signal: "0:15"; 53 with JobLaunchFailure */
	int64_t start_time;    /* unix seconds; 0 if it never started */
	int64_t end_time;
	char reason[32];       /* "None", "NonZeroExitCode", "JobLaunchFailure",
				  "TimeLimit", "NodeFail", "Preempted", "NotStarted" */
	/* 1: the batch script could not be started (slurmd answering
	 * REQUEST_COMPLETE_BATCH_SCRIPT with an error, which slurmctld counts
	 * in sdiag's "Jobs failed"). A flag, not the reason's text: a script
	 * that a signal ended is JobLaunchFailure too, and may even die of
	 * signal 53, the code a failed launch records. */
	int launch_failed;
	/* With SL_JOB_PENDING: the executor evicted the job (its pods were not
	 * all ready in time): requeue it as a new attempt after a backoff. */
	int evicted;
	char message[256];     /* why, for scontrol's Reason text; "" if none */
	struct sl_usage usage; /* the batch step's resource use; all 0: not measured */
};

struct sl_exec_events {
	/* The job runs (from start(): the supervisor is launched). nodelist is
	 * the hostlist the job was given; borrowed for the call. */
	void (*on_started)(void *arg, uint64_t id, int64_t start_time, const char *nodelist);
	/* The job is over; the record is final. The daemon commits it and then
	 * calls forget(id) so the executor drops what it kept. Borrowed. */
	void (*on_finished)(void *arg, uint64_t id, const struct sl_exec_result *r);
	/* Executors with reports_ready only: every pod of the job is ready
	 * (CONFIGURING -> RUNNING); nodelist borrowed. NULL: not delivered. */
	void (*on_ready)(void *arg, uint64_t id, const char *nodelist);
	/* Executors with nodes() only: what nodes() returns changed (a node,
	 * or a pod's node or requests). Coalesced: one per loop turn at most,
	 * and it may come when nothing the caller reads changed. NULL: not
	 * delivered. */
	void (*on_nodes)(void *arg);
};

/* Settings shared by every executor, plus the local executor's own. */
struct sl_exec_conf {
	const char *state_dir;   /* the daemon's stateDir; jobs live in <state_dir>/jobs/ */
	const char *cluster;     /* SLURM_CLUSTER_NAME; NULL: not set */
	const char *hostname;    /* short host name; NULL: from gethostname() */
	int kill_wait;           /* seconds between SIGTERM and SIGKILL; <= 0: 30 */
	int durable;             /* durability: power (fsync what survives an OS crash) */
	/* local */
	const char *stepd_path;  /* NULL: LIBEXECDIR "/sluice-stepd" */
	int stepd_log_stderr;    /* sluice-stepd logs to the inherited stderr, not syslog */
	/* kubernetes: the daemon's current configuration (it changes on
	 * SIGHUP, so the executor reads it through this pointer each time). */
	struct sl_conf *const *confp;
};

/* A node the executor runs jobs on (Kubernetes: a core/v1 Node), as sinfo
 * shows it. Strings borrowed (see nodes()). */
struct sl_exec_kv {
	const char *key, *value, *effect; /* effect: taints only */
};

struct sl_exec_node {
	const char *name, *arch, *os, *version;
	size_t nlabels, ntaints;
	const struct sl_exec_kv *labels, *taints;
	int64_t cpu, mem, gpu;            /* allocatable: milli-CPUs, bytes, GPUs */
	int64_t cpu_used, mem_used, gpu_used; /* requests of its pods not yet ended */
	int64_t pods;                     /* allocatable pods; 0 unknown */
	/* The part of *_used (and how many pods) that Sluice's engine does
	 * not charge itself: every pod but this cluster's TAS-placed ones
	 * (the TAS node feed, bin/sluiced/nodefeed.c). */
	int64_t cpu_other, mem_other, gpu_other, pods_other;
	int ready;                        /* the Ready condition is True */
	int no_respond;                   /* ... is Unknown: the kubelet stopped posting */
	int unschedulable;                /* cordoned */
	const char *reason;               /* why not Ready, or cordoned; NULL */
	const char *reason_user;          /* who cordoned it with that reason; NULL: not known */
	int64_t reason_time;              /* since when; 0 unknown */
	int64_t boot_time;                /* the node's creation; 0 unknown */
};

struct sl_executor {
	const char *name; /* "local", "kubernetes" (config `executor:`) */
	/* 1: start() leaves the job CONFIGURING until on_ready (pods); 0: it
	 * runs at once (RUNNING at admission). */
	int reports_ready;
	/* Returns the executor's state or NULL with err set. */
	void *(*create)(struct sl_loop *loop, const struct sl_exec_conf *conf,
			const struct sl_exec_events *ev, void *arg, struct sl_err *err);
	void (*destroy)(void *x); /* jobs keep running; NULL is a no-op */
	/* At start, before the daemon detaches: can this executor run on this
	 * host at all? The error names what is missing (the local executor:
	 * the sluice-stepd it would run). NULL: nothing to check. */
	int (*preflight)(const struct sl_exec_conf *conf, struct sl_err *err);
	/* At submit, before the job is stored: 0 if this executor can run
	 * spec under conf, else an error in Slurm's words (the job is refused).
	 * NULL: it can run whatever the submit policy accepts. */
	int (*check)(const struct sl_conf *conf, const struct sl_jobspec *spec,
		     struct sl_err *err);
	/* Launch an admitted job (state RUNNING in the store, nodes assigned
	 * by the executor). -SL_EEXIST if it already runs. */
	int (*start)(void *x, const struct sl_job *job, struct sl_err *err);
	/* scancel: CANCELLED, with Slurm's "CANCELLED AT" line in the job's stderr. */
	int (*cancel)(void *x, uint64_t id, struct sl_err *err);
	/* Preemption: as cancel, but the state is PREEMPTED. */
	int (*preempt)(void *x, uint64_t id, struct sl_err *err);
	/* scancel --signal=SIG -b: deliver signo to the batch script alone;
	 * with SL_SIGNAL_GROUP or-ed in (--full), to its process group. */
	int (*signal)(void *x, uint64_t id, int signo, struct sl_err *err);
	/* After a daemon restart, for each job the store says is RUNNING:
	 * follow it again. Its end arrives through on_finished (possibly at the
	 * next loop turn when it ended while the daemon was down, as NODE_FAIL
	 * when its supervisor died, or as PENDING when it never started). */
	int (*adopt)(void *x, const struct sl_job *job, struct sl_err *err);
	/* The daemon committed the end of job id: drop its traces. */
	void (*forget)(void *x, uint64_t id);
	/* scontrol requeue: as preempt, in the words of a requeue ("DUE TO JOB
	 * REQUEUE"); the daemon makes the end a requeue. NULL: preempt. */
	int (*requeue)(void *x, uint64_t id, struct sl_err *err);
	/* scontrol update State=DOWN of the job's node: as cancel, in the
	 * words of a node failure; its end is NODE_FAIL with exit code 0:0
	 * (slurmctld's kill_running_job_by_node_name). NULL: not offered. */
	int (*node_fail)(void *x, uint64_t id, struct sl_err *err);
	/* scontrol update NodeName= State=DRAIN (reason set) or UNDRAIN and
	 * RESUME (reason NULL) of one of nodes()' nodes, by user: the
	 * executor's own cordon. NULL: the daemon keeps the state itself
	 * (nodeadmin.c, the local node). */
	int (*node_drain)(void *x, const char *node, const char *reason, const char *user,
			  struct sl_err *err);
	/* scontrol update TimeLimit= or qalter -l walltime= of a running job:
	 * its limit is now this many seconds from its start (0: none),
	 * suspended time not counted. NULL: the executor cannot change it. */
	int (*time_limit)(void *x, uint64_t id, int64_t secs, struct sl_err *err);
	/* SIGHUP: take up what may have changed on disk (the local executor
	 * starts a new fork server, so an upgraded sluice-stepd supervises the
	 * next jobs). NULL: nothing to do. */
	void (*reload)(void *x);
	/* scontrol suspend (resume 0) / resume (1): stop the job's work and
	 * keep its allocation. NULL: SIGSTOP / SIGCONT through signal(). */
	int (*suspend)(void *x, uint64_t id, int resume, struct sl_err *err);
	/* sinfo: the nodes as last seen, sorted by name; *out borrowed until
	 * the loop runs again. NULL: the daemon describes this host. */
	size_t (*nodes)(void *x, const struct sl_exec_node **out);
};

#endif
