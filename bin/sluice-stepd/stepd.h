/* stepd.h - sluice-stepd's internal state, shared by its files, each
 * calling only those after it: stepd_main.c, stepd_server.c (sluiced's fork
 * server), stepd.c (supervision: signals, time limit, result), stepd_launch.c
 * (starting the batch script as the user), stepd_pam.c (the job's PAM
 * session). Not a library interface. */
#ifndef SL_STEPD_H
#define SL_STEPD_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "jobdir.h"

struct pam_handle;

/* The job's PAM session (stepd_pam.c). */
struct stepd_pam {
	struct pam_handle *h;     /* NULL: no session open */
	char **env;               /* pam_getenvlist() of the open session */
	struct rlimit rl[RLIM_NLIMITS]; /* the supervisor's own, from before it */
	int prio;                 /* its nice value, likewise */
	int saved;                /* rl and prio are to be put back */
};

struct stepd {
	const char *dir;          /* the job directory */
	struct sl_launch l;
	int64_t start_time;       /* unix seconds, as written to `started` */
	pid_t job_pid;            /* the script; also its process group and session */
	int job_reaped;           /* the script is reaped: its number may be anyone's */
	int told_signal;          /* the CANCELLED line for scancel -s TERM/KILL written */
	int in_fd, out_fd, err_fd; /* the job's stdio as opened for the user */
	struct stepd_pam pam;
	char **pbs_env;           /* PBS_NODEFILE, TMPDIR of a qsub job (stepd_pbs.c) */
	int tmpdir_made;          /* its TMPDIR is ours to remove */
	struct sl_usage usage;    /* what the job used so far (stepd_usage.c) */
	int64_t usage_next_ms;    /* monotonic time of the next sample */
	struct rusage ru0;        /* RUSAGE_CHILDREN at the launch: a kept
	                           * supervisor's earlier jobs are not this one's */
	long maxrss_kib;          /* the largest of the job's reaped processes */
};

/* A supervisor the fork server keeps (stepd_server.c) has, besides the lock
 * on fd 3, its socket to the server and the job's end pipe. */
#define SL_STEPD_POOL_FD 4
#define SL_STEPD_END_FD 5

/* Supervise the job of `dir` to its end (the lock is fd 3); the exit status
 * of sluice-stepd. fg: log to stderr; forked: by the fork server, which has
 * its own session already. */
int stepd_run(int fg, const char *dir, int forked);

/* The same for a supervisor the fork server keeps: detached once (first),
 * keeping fds 4 and 5. *reusable: nothing of the job has changed the
 * process (no PAM session), so it may take another once stepd_settle()
 * says nothing of this one is left. */
int stepd_run_kept(int fg, const char *dir, int first, int *reusable);
/* The job's leftovers reaped: 1 when the supervisor has no child left
 * (waiting half a second at most for those just killed). */
int stepd_settle(void);
/* Drop every signal pending for a kept supervisor between two jobs: all
 * were meant for the last one (stepd_server.c says why). */
void stepd_drain_signals(void);

/* Every signal's disposition back to the default: what a supervisor
 * inherited must not reach the job (it resets only what it set itself). */
void sl_signals_default(void);

/* sluiced's fork server on fd 3 (stepd_server.c); argv is rewritten in each
 * child to name its job directory. keep: --keep, the supervisors are kept
 * for the next jobs and the protocol has end pipes. */
int stepd_server(int fg, int keep, const char *jobs_dir, char **argv, int argc);

/* Open the job's files as the user, write the script, fork and exec it.
 * 0 on success (s->job_pid set). Otherwise the job could not be launched
 * and r holds the FAILED/JobLaunchFailure result. */
int stepd_launch(struct stepd *s, struct sl_exec_result *r);

/* 1 with r's state set when a cancel (or a preemption) is pending: the
 * script must not start; else 0. */
int stepd_cancel_pending(struct sl_exec_result *r);

/* The job's PAM session, when the launch spec names a service. Open it
 * (pam_start, pam_setcred(PAM_ESTABLISH_CRED), pam_open_session) in the
 * supervisor, before the fork: 0, also without PAM; -1 (logged) with
 * nothing left open. */
int stepd_pam_open(struct stepd *s);
/* After the fork: the supervisor's own limits and nice value back; the job
 * keeps the session's. */
void stepd_pam_restore(struct stepd *s);
/* Close it (pam_close_session, pam_setcred(PAM_DELETE_CRED), pam_end) and
 * forget it, so that a second call does nothing. */
void stepd_pam_close(struct stepd *s);

/* A qsub job's node file and TMPDIR (stepd_pbs.c), made before the fork:
 * 0, or -1 (logged): the launch fails. Their variables go to s->pbs_env. */
int stepd_pbs_prepare(struct stepd *s);

/* The user's login environment (stepd_userenv.c), for l->user_env seconds
 * at most; NULL with the reason in err. Caller frees (sl_strv_free). */
struct sl_err;
char **stepd_user_env(const struct sl_launch *l, struct sl_err *err);
/* After the job: its TMPDIR removed, as the user; s->pbs_env freed. */
void stepd_pbs_cleanup(struct stepd *s);

/* Signal the job's process group (falls back to the pid while the child has
 * not yet made its own session), and the groups of its steps. */
void stepd_job_kill(struct stepd *s, int sig);
/* The same signal to every other process group of the job's session: the
 * tasks of its srun steps (step_track.c); only the user's processes are
 * looked at. own: the session's own group too, when one of them is in it. */
void stepd_steps_kill(pid_t session, int sig, int own);

/* Sample the job's processes when a sample is due at now_ms (monotonic)
 * and write <jobdir>/usage; the time the next one is due. */
int64_t stepd_usage_sample(struct stepd *s, int64_t now_ms);
/* At the launch: the supervisor's children's usage so far. */
void stepd_usage_begin(struct stepd *s);
/* A process of the job has been reaped with this usage. */
void stepd_usage_reaped(struct stepd *s, const struct rusage *ru);
/* The job has been reaped: its totals (wait4's rusage with the samples)
 * into r->usage. */
void stepd_usage_end(struct stepd *s, struct sl_exec_result *r);

#endif
