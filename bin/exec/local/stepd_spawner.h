/* stepd_spawner.h - sluiced starts sluice-stepd supervisors through one
 * long-lived `sluice-stepd --server` (stepd_server.c), which forks a
 * supervisor per job instead of sluiced exec'ing the program each time.
 * If the server cannot be used, the caller spawns the program itself: the
 * server makes launches cheaper, never possible. */
#ifndef SL_STEPD_SPAWNER_H
#define SL_STEPD_SPAWNER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"

/* The server's answer to one request (the wire format of the socket);
 * the descriptors that `flags` names come attached, in this order. */
struct sl_spawn_reply {
	int32_t err;              /* 0, or the errno of the failed fork */
	int32_t pid;              /* the job's supervisor */
	int32_t flags;            /* SL_SPAWN_* */
};
#define SL_SPAWN_PIDFD 1          /* the supervisor's pidfd is attached */
#define SL_SPAWN_ENDFD 2          /* the job's end pipe (read end) is attached */

/* A started supervisor, as sluiced follows it. The server keeps the
 * supervisors it forks and hands each a new job once its last one is over
 * (stepd_server.c), so the end of a job is not the end of a process: it is
 * the end pipe, readable (a byte, or EOF if the supervisor died) once the
 * result is written and the lock released. Closing it says the job has been
 * collected: only then may that supervisor take another, so a signal meant
 * for this job never reaches the next one. */
struct sl_spawned {
	pid_t pid;
	int pidfd;                /* close-on-exec, the caller's; -1: none */
	int endfd;                /* likewise; -1: none (follow the pidfd) */
};

struct sl_spawner;

/* Nothing starts until the first sl_spawner_spawn(). log_stderr: -D. */
struct sl_spawner *sl_spawner_new(const char *stepd_path, const char *jobs_dir, int log_stderr);
/* Closes the socket: the server exits; the supervisors keep running. */
void sl_spawner_free(struct sl_spawner *sp);

/* Start the supervisor of `dir` (under the jobs directory) with `lockfd` as
 * its fd 3, in one round trip: answers due from earlier sends are read (and
 * dropped) first. On success *out. On failure a broken server is stopped, and
 * not tried again for a while:
 *   -SL_EIO    nothing was started;
 *   -SL_EPROTO the request was taken but no answer came: a supervisor may
 *              or may not run (the lock tells). */
int sl_spawner_spawn(struct sl_spawner *sp, const char *dir, int lockfd, struct sl_spawned *out,
		     struct sl_err *err);

/* The same in two halves, so that many requests can be in flight. send:
 * 0 (an answer is now due), or -SL_EIO: nothing was started; a broken
 * server is stopped, and the answers due from it are lost (inflight drops
 * to 0: those supervisors may or may not run). recv: the oldest due answer,
 * as sl_spawner_spawn's; with wait 0, 1 when it has not come yet. */
int sl_spawner_send(struct sl_spawner *sp, const char *dir, int lockfd, struct sl_err *err);
int sl_spawner_recv(struct sl_spawner *sp, int wait, struct sl_spawned *out, struct sl_err *err);
/* Close what out holds. */
void sl_spawned_close(struct sl_spawned *out);
/* Answers due, and the socket they come on (-1: no server). */
size_t sl_spawner_inflight(const struct sl_spawner *sp);
int sl_spawner_fd(const struct sl_spawner *sp);

/* SIGHUP: the running server is let go (it exits at EOF; the supervisors
 * it started run on) and the next spawn starts a new one from the program
 * on disk. */
void sl_spawner_restart(struct sl_spawner *sp);

/* The server's pid, 0 when none runs (for tests). */
pid_t sl_spawner_pid(const struct sl_spawner *sp);

#endif
