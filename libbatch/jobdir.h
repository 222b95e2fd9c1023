/* jobdir.h - the on-disk contract between sluiced and sluice-stepd.
 *
 * One directory per job, <stateDir>/jobs/<id>/ (mode 0711: the job's user
 * must reach `script`, nobody else may list it):
 *   spec.json  written by sluiced before launch (atomic): struct sl_launch
 *              (the job's record is in the store: scontrol show job)
 *   lock       flock(LOCK_EX) held by sluice-stepd for exactly as long as it
 *              supervises the job (sluiced locks it, then hands the fd over
 *              as fd 3; a supervisor the fork server keeps closes it at the
 *              job's end and lives on for the next job)
 *   stepd.pid  "pid starttime[ fwd-script]\n": the supervisor, as /proc/<pid>/stat
 *              knows it (and that it takes SL_STEPD_FWD_SCRIPT)
 *   started    "unix-seconds\n", written before anything of the user runs
 *   job.pgid   "pgid starttime\n": the job's process group (also its session),
 *              and the start time of its leader, the script (/proc's field 22;
 *              0 or absent: unknown)
 *   script     the batch script, owned by the user, mode 0700
 *   nodefile   a qsub job's PBS_NODEFILE, owned by the user, mode 0644
 *   result     struct sl_exec_result (atomic), written when the job is over
 *   usage      struct sl_usage (usage.h) so far, rewritten in place at each
 *              of the supervisor's samples: sstat's live figures
 * Both programs link this file. */
#ifndef SL_STEPD_JOBDIR_H
#define SL_STEPD_JOBDIR_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "exec.h"

#define SL_JOBDIR_SPEC "spec.json"
#define SL_JOBDIR_LOCK "lock"
#define SL_JOBDIR_PID "stepd.pid"
#define SL_JOBDIR_STARTED "started"
#define SL_JOBDIR_PGID "job.pgid"
#define SL_JOBDIR_SCRIPT "slurm_script" /* slurmd's name: the script's $0 */
#define SL_JOBDIR_RESULT "result"
#define SL_JOBDIR_NODEFILE "nodefile"
#define SL_JOBDIR_USAGE "usage"

#define SL_STEPD_LOCK_FD 3        /* the inherited lock fd of sluice-stepd */
#define SL_JOBDIR_FILE_MAX (64u << 20) /* spec.json carries the script */
/* Signals sluiced sends to sluice-stepd: SIGTERM = cancel, SIGUSR2 = preempt
 * (queued with si_value SL_STEPD_REQUEUE: a requeue, scontrol's; with
 * SL_STEPD_NODE_FAIL: the node went down, NODE_FAIL),
 * SL_STEPD_SIG_FORWARD (queued, si_value = signal number) = forward that
 * signal to the job's process group (scancel --signal -b; SIGSTOP and
 * SIGCONT are scontrol suspend and resume, and stop the clock of the time
 * limit), SL_STEPD_SIG_LIMIT (queued, si_value = seconds, 0 none) = the
 * job's new time limit (scontrol update TimeLimit=). */
#define SL_STEPD_SIG_FORWARD (SIGRTMIN + 1)
/* Or-ed into SL_STEPD_SIG_FORWARD's value: to the batch script alone
 * (scancel --signal -b), not its process group. */
#define SL_STEPD_FWD_SCRIPT 0x1000
#define SL_STEPD_SIG_LIMIT (SIGRTMIN + 2)
#define SL_STEPD_REQUEUE 1
/* SIGUSR2's value for the node going down under the job (NODE_FAIL). */
#define SL_STEPD_NODE_FAIL 2
/* The signals above, with SIGINT and SIGCHLD: what sluice-stepd takes with
 * sigtimedwait. Whoever starts a supervisor (sluiced's exec, the fork
 * server's fork) starts it with these blocked, so that one sent before the
 * supervisor has set itself up waits for it instead of killing it by its
 * default action (stepd.c: detach). */
void sl_stepd_sigset(sigset_t *set);

/* Everything sluice-stepd needs to run one job. */
struct sl_launch {
	uint64_t job_id;
	int attempt;           /* 0 first run; a requeued run appends by default */
	uid_t uid;
	gid_t gid;
	char *user;
	char *home;
	char *shell;
	char *work_dir;
	char *std_in;          /* absolute paths, patterns expanded */
	char *std_out;
	char *std_err;         /* NULL: stderr goes with stdout */
	int append;            /* --open-mode=append */
	mode_t umask;
	int64_t time_limit;    /* seconds; 0: none */
	int kill_wait;         /* seconds between SIGTERM and SIGKILL */
	char *host;            /* batch node name, for Slurm's messages */
	char *nodelist;
	char *script;
	char **argv;           /* script arguments; may be NULL */
	char **env;            /* the final environment "K=V" (SLURM_* included) */
	int durable;           /* durability: power: fsync the started mark and the result */
	char *pam_service;     /* the config's `pam: {service}`: a PAM session
	                        * around the job; NULL: none */
	gid_t *groups;         /* supplementary groups, resolved by sluiced (its
	                        * cache): no NSS lookup per job in sluice-stepd */
	size_t ngroups;
	char *nodefile;        /* a qsub job's PBS_NODEFILE text, written to
	                        * SL_JOBDIR_NODEFILE; NULL: none */
	char *tmpdir;          /* a qsub job's TMPDIR, made for it and removed
	                        * after it; NULL: none */
	int warn_signal;       /* --signal: this signal warn_time seconds before the time
	                        * limit; 0: none */
	int warn_time;
	int warn_batch;        /* --signal=B:...: to the batch shell only */
	char *rlimits;         /* the job's soft limits (rlimit.h), from the submitter; NULL: none */
	int user_env;          /* read the user's login environment under the job's: its
	                        * timeout in seconds; 0: not */
	int user_env_mode;     /* 1: not a login shell (--get-user-env=..S) */
	int sample_secs;       /* --acctg-freq task=N: seconds between usage samples; 0:
	                        * sluice-stepd's 2 s; -1: none (the end's totals) */
};

void sl_launch_clear(struct sl_launch *l); /* frees members, zeroes */
/* The text of spec.json. Caller frees. */
char *sl_launch_to_json(const struct sl_launch *l);
int sl_launch_from_json(const char *text, struct sl_launch *out, struct sl_err *err);

char *sl_exec_result_to_json(const struct sl_exec_result *r);
int sl_exec_result_from_json(const char *text, struct sl_exec_result *r, struct sl_err *err);
/* A result for `state` with the reason Slurm gives it. */
void sl_exec_result_init(struct sl_exec_result *r, enum sl_jobstate state);

/* Write dir/name. Not durable: in place (the file keeps its inode). durable:
 * a temporary file, fsync, rename, fsync of the directory, for what stepd
 * reports under `durability: power` (the started mark and the result).
 * The daemon's spec.json is never durable: the store is the truth, and
 * after an OS crash a job without a `started` mark is simply requeued. */
int sl_jobdir_write(const char *dir, const char *name, const char *data, size_t len,
		    mode_t mode, int durable, struct sl_err *err);
/* Read dir/name (at most SL_JOBDIR_FILE_MAX bytes). -SL_ENOENT when absent.
 * *out is malloc'd and NUL-terminated; caller frees. */
int sl_jobdir_read(const char *dir, const char *name, char **out, struct sl_err *err);
/* Remove the directory and every file in it (no subdirectories exist). */
int sl_jobdir_remove(const char *dir, struct sl_err *err);
/* Make a used directory fit for another launch without deleting or freeing
 * what can be kept: the marks and the result are emptied to a newline, which
 * reads as absent (sl_jobdir_blank); temporary files are removed; the lock,
 * spec.json and the script are left to their next writer. */
int sl_jobdir_reset(const char *dir, struct sl_err *err);
/* 1 when a file's text is only white space: a mark or result emptied. */
int sl_jobdir_blank(const char *text);

/* Field 22 of /proc/<pid>/stat (clock ticks since boot): with the pid it
 * names one process for good, so a reused pid is told apart. 0 or -SL_ENOENT. */
int sl_proc_starttime(pid_t pid, unsigned long long *out);

/* pidfd_open(2): a descriptor that names exactly this process, readable once
 * it has exited. -1 with errno (ENOSYS before Linux 5.3). */
int sl_pidfd_open(pid_t pid);

#endif
