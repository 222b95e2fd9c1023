/* stepd_testlib.h - the harness of the tests of sluice-stepd
 * (test_stepd.c, test_stepd_server.c) and of the local executor
 * (test_exec_local.c). Finds sluice-stepd through $SLUICE_STEPD or
 * $top_builddir/bin/sluice-stepd. */
#ifndef SL_STEPD_TESTLIB_H
#define SL_STEPD_TESTLIB_H

#include <stdint.h>
#include <sys/types.h>
#include "exec_local.h"
#include "jobdir.h"
#include "loop.h"

extern char stepd_path[4096];
extern char root[]; /* made by stepd_test_setup, mode 1777 */
/* sluice-stepd built with hooks for tests (sluice-stepd-hooked). */
extern char hooked_path[4096];
/* Its decoy for a reused pid (stepd_decoy.c) writes the decoy's pid to the
 * file $SL_TEST_DECOY names, which this reads: 0 when there is none (no
 * file: the decoy server never opened a pidfd), which the caller judges. */
pid_t decoy_pid(const char *mark);
/* Its hold on a new supervisor's start (stepd_window.c: $SL_TEST_WINDOW
 * names the directory): the pid of the supervisor held there once one is
 * (pid 0: any; 5 s at most, else 0), and letting it go on. */
pid_t window_held(const char *dir, pid_t pid);
void window_release(const char *dir, pid_t pid);

/* dir/name (a full path) read whole, or NULL. */
char *slurp(const char *path);
/* A mark or result is there when its file has content: a recycled job
 * directory (dirpool.h) holds them emptied to a newline. */
int exists(const char *dir, const char *name);
/* A job dir <root>/<name> with a spec for `script`; output in <root>/<name>.out */
char *make_job(const char *name, const char *script, int64_t limit, int kill_wait);
pid_t run_stepd(const char *dir);
int wait_stepd(pid_t pid);            /* its exit code, within 30 s */
void wait_file(const char *dir, const char *name); /* within 5 s */
void read_result(const char *dir, struct sl_exec_result *r);
char *output(const char *name);      /* <root>/<name>.out */

/* The local executor on a loop, with what its events said. */
struct evlog {
	int started, finished;
	uint64_t id;
	char nodelist[64];
	struct sl_exec_result res;
	struct sl_loop *loop;
};
extern const struct sl_exec_events evlog_events;
/* Its conf: the state under root, host "vm", kill_wait 2 s, `stepd` the
 * supervisor's program. */
struct sl_exec_conf exec_conf(const char *stepd);
/* With stepd_path; e is its events' log. */
struct sl_exec_local *new_exec(struct sl_loop *loop, struct evlog *e);
/* The loop run until a job's end (20 s at most). */
void run_until_finished(struct sl_loop *loop);
void on_deadline(struct sl_loop *l, uint64_t id, void *arg); /* stops the loop */
/* A job record of the current user, writing rec-%j-%N.out under root. */
struct sl_job *make_record(uint64_t id, const char *script, int nodes);

/* A daemon of its own, in a child: the executor on `server`, the subreaper
 * of what its fork server leaves, and with no_pidfd, pidfd_open(2) failing
 * in it and in the server it starts. fn's return is the child's exit code,
 * which this returns (77: skip; also when seccomp cannot be had). */
int in_daemon(const char *server, int no_pidfd,
	      int (*fn)(struct sl_exec_local *x, struct evlog *e, void *arg), void *arg);

/* cmocka group setup and teardown */
int stepd_test_setup(void **state);
int stepd_test_teardown(void **state);

#endif
