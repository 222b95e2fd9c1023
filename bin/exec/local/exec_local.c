/* exec_local.c - the local executor, daemon side: launch one sluice-stepd
 * per job and follow it from the loop without ever blocking it.
 *
 * Liveness is the job directory's lock: sluiced takes flock(LOCK_EX) on
 * <dir>/lock, then hands that very descriptor to sluice-stepd as fd 3 and
 * closes its own copy, so the lock is held exactly while the supervisor
 * runs the job, across any crash of the daemon. Ends are noticed through
 * the job's end pipe that the fork server hands over (stepd_spawner.h: its
 * supervisors outlive their jobs), else through a pidfd (readable when the
 * supervisor exits); when neither can be had, a one-second probe of the
 * lock does the same job more slowly. */
#include "exec_local_int.h"
#include "exec/executors.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dirpool.h"
#include "evq.h"
#include "exec_local_dir.h"
#include "idcache.h"
#include "log.h"
#include "logincache.h"
#include "loop.h"
#include "stepd_spawner.h"
#include "xalloc.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/libexec"
#endif
#define POLL_MS 1000

extern char **environ;

/* ---- job table ---- */

static struct xjob **job_bucket(struct sl_exec_local *x, uint64_t id)
{
	return &x->jobs[id & (JOB_BUCKETS - 1)];
}

struct xjob *sl_xl_job_find(struct sl_exec_local *x, uint64_t id)
{
	for (struct xjob *j = *job_bucket(x, id); j != NULL; j = j->next)
		if (j->id == id)
			return j;
	return NULL;
}

static char *job_dir(const struct sl_exec_local *x, uint64_t id)
{
	return sl_xasprintf("%s/%llu", x->jobs_dir, (unsigned long long)id);
}

static struct xjob *job_add(struct sl_exec_local *x, uint64_t id)
{
	struct xjob *j = sl_xcalloc(1, sizeof(*j));
	j->x = x;
	j->id = id;
	j->dir = job_dir(x, id);
	j->pidfd = j->endfd = -1;
	j->next = *job_bucket(x, id);
	*job_bucket(x, id) = j;
	return j;
}

static void job_drop(struct sl_exec_local *x, struct xjob *j)
{
	for (struct xjob **pp = job_bucket(x, j->id); *pp != NULL; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	if (j->endfd >= 0) {
		/* closed only now that the job is collected: its supervisor may
		 * take the next one */
		if (j->end_watched)
			sl_loop_del_fd(x->loop, j->endfd);
		close(j->endfd);
	} else if (j->pidfd >= 0) {
		sl_loop_del_fd(x->loop, j->pidfd);
	}
	if (j->pidfd >= 0)
		close(j->pidfd);
	if (j->timer != 0)
		sl_loop_del_timer(x->loop, j->timer);
	free(j->dir);
	free(j);
}

/* ---- following a supervisor ---- */

static void job_collect(struct sl_exec_local *x, struct xjob *j)
{
	struct sl_exec_result r;
	if (j->child && j->pid > 0)
		(void)waitpid(j->pid, NULL, WNOHANG); /* it has exited: never blocks */
	sl_exec_local_outcome(j->dir, j->id, &r);
	sl_evq_finished(x->evq, j->id, &r);
	job_drop(x, j);
}

static void on_end(struct sl_loop *l, int fd, int events, void *arg)
{
	struct xjob *j = arg;
	job_collect(j->x, j);
}

static void on_poll(struct sl_loop *l, uint64_t id, void *arg)
{
	struct xjob *j = arg;
	j->timer = 0;
	if (sl_exec_local_lock_held(j->dir)) {
		sl_xl_send_deferred(j);
		j->timer = sl_loop_add_timer(l, POLL_MS, on_poll, j);
	} else {
		job_collect(j->x, j);
	}
}

/* Watch j->pid, through the end pipe or j->pidfd if the launch gave one;
 * `starttime` (0: launched by us) proves it is still the supervisor that
 * stepd.pid named and not a reused pid: checked once the pidfd is open,
 * else before each signal by pid (send_sig). An end pipe without a pidfd
 * names the supervisor by pid alone: pin() proves it before each signal. */
static void job_watch(struct sl_exec_local *x, struct xjob *j, unsigned long long starttime)
{
	unsigned long long now_st = 0;
	j->start = starttime;
	j->unproven = j->endfd >= 0 && j->pidfd < 0 && j->pid > 0;
	if (j->endfd >= 0) {
		if (sl_loop_add_fd(x->loop, j->endfd, SL_EV_READ, on_end, j) == 0) {
			j->end_watched = 1;
			return;
		}
		/* Its supervisor outlives the job, so the pidfd would never say:
		 * the lock does. The pipe stays open until the job is collected,
		 * or the supervisor would take another job meanwhile and a signal
		 * meant for this one reach it. */
		j->timer = sl_loop_add_timer(x->loop, POLL_MS, on_poll, j);
		return;
	}
	if (j->pidfd < 0 && j->pid > 0)
		j->pidfd = sl_pidfd_open(j->pid);
	if (j->pidfd >= 0 && starttime != 0 &&
	    (sl_proc_starttime(j->pid, &now_st) != 0 || now_st != starttime)) {
		close(j->pidfd);
		j->pidfd = -1;
		j->pid = 0; /* not ours: never signal it */
	}
	if (j->pidfd >= 0 && sl_loop_add_fd(x->loop, j->pidfd, SL_EV_READ, on_end, j) == 0)
		return;
	if (j->pidfd >= 0)
		close(j->pidfd);
	j->pidfd = -1;
	j->timer = sl_loop_add_timer(x->loop, POLL_MS, on_poll, j);
}

/* ---- launching ---- */

/* Exec the supervisor, its signals blocked from birth (jobdir.h): posix_spawn
 * returns once the program is exec'd, long before it has set up
 * (stepd.c: detach), and a cancel sent meanwhile, taken by its default
 * action, would kill it before `started`; the job would be requeued. As the
 * fork server does for the supervisors it forks. */
static int spawn_stepd(struct sl_exec_local *x, const char *dir, int lockfd, pid_t *pid,
		       struct sl_err *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t block, all;
	char *argv[4];
	int n = 0;
	argv[n++] = x->stepd_path;
	if (x->conf.stepd_log_stderr)
		argv[n++] = "-D";
	argv[n++] = (char *)dir;
	argv[n] = NULL;
	sl_stepd_sigset(&block);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, lockfd, SL_STEPD_LOCK_FD); /* dup2 clears CLOEXEC */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &block);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	int e = posix_spawn(pid, x->stepd_path, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (e != 0)
		return sl_err_set(err, SL_EIO, "%s: %s", x->stepd_path, strerror(e));
	return 0;
}

/* Open and lock <dir>/lock, above fd 3 (so that dup2(fd, 3) is a real
 * copy); the caller closes it once the supervisor holds its own copy. */
static int lock_open(const char *dir, int *out, struct sl_err *err)
{
	char *path = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	int r = 0;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0 && fd <= SL_STEPD_LOCK_FD) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, SL_STEPD_LOCK_FD + 1);
		close(fd);
		fd = hi;
	}
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
		r = sl_err_set(err, errno == EWOULDBLOCK ? SL_EEXIST : SL_EIO, "%s: %s", path,
			       errno == EWOULDBLOCK ? "a supervisor already runs" : strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	free(path);
	*out = fd;
	return r;
}

/* Start the supervisor by exec'ing the program (it is then our child). */
static int launch_exec(struct sl_exec_local *x, const char *dir, pid_t *pid, struct sl_err *err)
{
	int fd, r;
	if ((r = lock_open(dir, &fd, err)) != 0)
		return r;
	r = spawn_stepd(x, dir, fd, pid, err);
	close(fd);
	return r;
}

/* ---- the fork server's answers ---- */

static void due_push(struct sl_exec_local *x, uint64_t id)
{
	if (x->due_head > 0 && x->due_head == x->ndue)
		x->due_head = x->ndue = 0;
	x->due = sl_xgrow(x->due, &x->capdue, x->ndue + 1, sizeof(*x->due));
	x->due[x->ndue++] = id;
}

static int due_pop(struct sl_exec_local *x, uint64_t *id)
{
	if (x->due_head == x->ndue)
		return 0;
	*id = x->due[x->due_head++];
	return 1;
}

static void on_collect(struct sl_loop *l, uint64_t id, void *arg);

/* Answers due are read all at once, at the next loop turn's timers: by then
 * the server has forked most of them, and the loop sleeps at most once for a
 * whole turn's launches instead of once per launch. */
static void watch_spawner(struct sl_exec_local *x)
{
	int due = sl_spawner_inflight(x->spawner) > 0;
	if (due && x->collect_timer == 0)
		x->collect_timer = sl_loop_add_timer(x->loop, 0, on_collect, x);
	else if (!due && x->collect_timer != 0) {
		sl_loop_del_timer(x->loop, x->collect_timer);
		x->collect_timer = 0;
	}
}

/* Job id's answer: r as sl_spawner_recv's. A fork the server could not do
 * is done by exec'ing the program; a lost answer leaves the job to the lock
 * probe (a supervisor may run, and starting another could run it twice). */
static void answered(struct sl_exec_local *x, uint64_t id, int r, struct sl_spawned *sv)
{
	struct xjob *j = sl_xl_job_find(x, id);
	struct sl_err err = SL_ERR_INIT;
	pid_t pid = sv->pid;
	if (j == NULL || !j->awaiting) {
		sl_spawned_close(sv);
		return;
	}
	j->awaiting = 0;
	if (r == -SL_EIO) {
		pid = 0;
		if (launch_exec(x, j->dir, &pid, &err) == 0)
			j->child = 1;
		else
			sl_warn("job %llu: %s", (unsigned long long)id, err.msg);
	} else if (r != 0) {
		pid = 0;
	}
	j->pid = pid;
	j->pidfd = sv->pidfd;
	j->endfd = sv->endfd;
	job_watch(x, j, 0);
	sl_info("job %llu: started under sluice-stepd pid %d", (unsigned long long)id, (int)pid);
}

/* Read the answers that are due: those already there, or (wait) all. */
void sl_xl_collect(struct sl_exec_local *x, int wait)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_spawned sv, none = {0, -1, -1};
	uint64_t id;
	int r;
	while (sl_spawner_inflight(x->spawner) > 0 &&
	       (r = sl_spawner_recv(x->spawner, wait, &sv, &err)) != 1) {
		if (due_pop(x, &id))
			answered(x, id, r, &sv);
		else
			sl_spawned_close(&sv);
	}
	/* A server that broke took the rest of its answers with it. */
	while (sl_spawner_inflight(x->spawner) == 0 && due_pop(x, &id))
		answered(x, id, -SL_EPROTO, &none);
	watch_spawner(x);
}

static void on_collect(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_exec_local *x = arg;
	x->collect_timer = 0;
	sl_xl_collect(x, 1);
}

enum via { VIA_EXEC, VIA_SERVER };

/* Lock <dir>/lock and start the supervisor on it; our copy is closed, so
 * the lock lives exactly as long as sluice-stepd does. Through the fork
 * server when it works (VIA_SERVER: the answer, with the pid, comes later),
 * else by exec'ing the program (then it is our child). */
static int launch(struct sl_exec_local *x, const char *dir, pid_t *pid, enum via *via,
		  struct sl_err *err)
{
	struct sl_err serr = SL_ERR_INIT;
	int fd, r;
	if ((r = lock_open(dir, &fd, err)) != 0)
		return r;
	*via = VIA_SERVER;
	if ((r = sl_spawner_send(x->spawner, dir, fd, &serr)) != 0) {
		sl_xl_collect(x, 0); /* a broken server: the answers due are lost */
		*via = VIA_EXEC;
		r = spawn_stepd(x, dir, fd, pid, err);
	}
	close(fd);
	return r;
}

/* The job's directory, from the pool; a stale one (a daemon died before
 * launching) is emptied in place, a live one refused: a job never runs
 * twice. */
static int make_dir(struct sl_exec_local *x, const char *dir, uint64_t id, struct sl_err *err)
{
	int r = sl_dirpool_take(x->pool, dir, err);
	if (r != -SL_EEXIST)
		return r;
	sl_err_clear(err);
	if (sl_exec_local_lock_held(dir))
		return sl_err_set(err, SL_EEXIST, "job %llu: already running", (unsigned long long)id);
	return sl_jobdir_reset(dir, err);
}

static int write_spec(const char *dir, const struct sl_launch *l, struct sl_err *err)
{
	char *text = sl_launch_to_json(l);
	/* 0600: the exported environment may hold secrets. */
	int r = sl_jobdir_write(dir, SL_JOBDIR_SPEC, text, strlen(text), 0600, 0, err);
	free(text);
	return r;
}

int sl_exec_local_start(struct sl_exec_local *x, const struct sl_job *job, struct sl_err *err)
{
	struct sl_launch l;
	char *dir = job_dir(x, job->id);
	pid_t pid = 0;
	int r;
	enum via via = VIA_EXEC;
	memset(&l, 0, sizeof(l));
	if (sl_xl_job_find(x, job->id) != NULL) {
		r = sl_err_set(err, SL_EEXIST, "job %llu: already running", (unsigned long long)job->id);
		goto out;
	}
	if (geteuid() != 0 && job->uid != geteuid()) {
		r = sl_err_set(err, SL_EPERM, "job %llu: sluiced runs as uid %u and cannot run jobs of uid %u",
			       (unsigned long long)job->id, (unsigned)geteuid(), (unsigned)job->uid);
		goto out;
	}
	if ((r = sl_exec_local_prepare(&x->conf, x->logins, x->host, job, &l, err)) != 0 ||
	    (r = make_dir(x, dir, job->id, err)) != 0 || (r = write_spec(dir, &l, err)) != 0 ||
	    (r = launch(x, dir, &pid, &via, err)) != 0)
		goto out;
	struct xjob *j = job_add(x, job->id);
	if (via == VIA_SERVER) {
		j->awaiting = 1;
		due_push(x, job->id);
		watch_spawner(x);
	} else {
		j->pid = pid;
		j->child = 1;
		job_watch(x, j, 0);
		sl_info("job %llu: started under sluice-stepd pid %d", (unsigned long long)job->id,
			(int)pid);
	}
	sl_evq_started(x->evq, job->id, (int64_t)time(NULL), l.nodelist);
out:
	sl_launch_clear(&l);
	free(dir);
	return r;
}

/* ---- restart ---- */

int sl_exec_local_adopt(struct sl_exec_local *x, const struct sl_job *job, struct sl_err *err)
{
	if (sl_xl_job_find(x, job->id) != NULL)
		return 0;
	struct xjob *j = job_add(x, job->id);
	if (!sl_exec_local_lock_held(j->dir)) {
		struct sl_exec_result r;
		sl_exec_local_outcome(j->dir, j->id, &r);
		sl_evq_finished(x->evq, j->id, &r);
		job_drop(x, j);
		return 0;
	}
	unsigned long long st = 0;
	pid_t pid = 0;
	if (sl_exec_local_pidfile(j->dir, &pid, &st) == 0)
		j->pid = pid;
	job_watch(x, j, st); /* no pid file yet: the lock probe follows it */
	sl_info("job %llu: adopted (sluice-stepd pid %d)", (unsigned long long)job->id, (int)j->pid);
	/* A cancel, requeue or suspend the last daemon asked for may have
	 * been kept in its memory only (a supervisor not yet known; the
	 * moment between a reply and its signals, sluiced's acts.c): asked
	 * again. The supervisor takes the first reason to end and no later
	 * one; a stopped process stays stopped.
	 *
	 * A job the record calls RUNNING after a resume (suspend_time set)
	 * gets its SIGCONT again: a resume's signal kept in the last daemon's
	 * memory (a supervisor not yet known, exec_local_signal.c's defer)
	 * would leave it stopped for good while squeue says R. A second
	 * SIGCONT is nothing to a running group, and the supervisor's clock
	 * counts only a stop. A job never suspended gets none: a stop its
	 * owner sent (scancel -s STOP) is not ours to undo. */
	struct sl_err ignore = SL_ERR_INIT;
	if (job->state == SL_JOB_COMPLETING)
		(void)sl_exec_local_cancel(x, job->id, &ignore);
	else if (job->requeue_mark > 0)
		(void)sl_exec_local_requeue(x, job->id, &ignore);
	else if (job->state == SL_JOB_SUSPENDED)
		(void)sl_exec_local_signal(x, job->id, SIGSTOP | SL_SIGNAL_GROUP, &ignore);
	else if (job->state == SL_JOB_RUNNING && job->suspend_time > 0)
		(void)sl_exec_local_signal(x, job->id, SIGCONT | SL_SIGNAL_GROUP, &ignore);
	return 0;
}

void sl_exec_local_forget(struct sl_exec_local *x, uint64_t id)
{
	struct sl_err err = SL_ERR_INIT;
	struct xjob *j = sl_xl_job_find(x, id);
	char *dir = job_dir(x, id);
	if (sl_exec_local_lock_held(dir)) {
		sl_warn("job %llu: forget: its supervisor still runs; directory kept",
			(unsigned long long)id);
	} else {
		if (j != NULL)
			job_drop(x, j);
		if (sl_dirpool_give(x->pool, dir, &err) != 0)
			sl_warn("job %llu: %s", (unsigned long long)id, err.msg);
	}
	free(dir);
}

/* ---- lifetime ---- */

static const char *stepd_path(const struct sl_exec_conf *conf)
{
	return conf->stepd_path ? conf->stepd_path : LIBEXECDIR "/sluice-stepd";
}

/* Without its supervisor every job would end FAILED 0:53, with the reason
 * only in the log: refuse to start instead. */
static int ops_preflight(const struct sl_exec_conf *conf, struct sl_err *err)
{
	if (access(stepd_path(conf), X_OK) != 0)
		return sl_err_set(err, SL_ECONFIG, "local executor: cannot run sluice-stepd at %s: %s "
				  "(from a build tree, set SLUICE_STEPD=BUILD/bin/sluice-stepd/sluice-stepd)",
				  stepd_path(conf), strerror(errno));
	return 0;
}

struct sl_exec_local *sl_exec_local_new(struct sl_loop *loop, const struct sl_exec_conf *conf,
					const struct sl_exec_events *ev, void *arg,
					struct sl_err *err)
{
	char host[256] = "localhost";
	if (ops_preflight(conf, err) != 0)
		return NULL;
	if (conf->state_dir == NULL) {
		sl_err_set(err, SL_ECONFIG, "local executor: no stateDir");
		return NULL;
	}
	char *jobs = sl_xasprintf("%s/jobs", conf->state_dir);
	if ((mkdir(jobs, 0711) != 0 && errno != EEXIST) || chmod(jobs, 0711) != 0) {
		sl_err_set(err, SL_EIO, "%s: %s", jobs, strerror(errno));
		free(jobs);
		return NULL;
	}
	struct sl_exec_local *x = sl_xcalloc(1, sizeof(*x));
	x->loop = loop;
	x->jobs_dir = jobs;
	x->stepd_path = sl_xstrdup(stepd_path(conf));
	if (conf->hostname == NULL) {
		gethostname(host, sizeof(host) - 1);
		host[strcspn(host, ".")] = '\0';
	}
	x->host = sl_xstrdup(conf->hostname ? conf->hostname : host);
	x->cluster = sl_xstrdup(conf->cluster);
	x->conf = *conf;
	x->conf.state_dir = NULL; /* not kept: jobs_dir is */
	x->conf.cluster = x->cluster;
	x->conf.hostname = x->host;
	x->conf.stepd_path = x->stepd_path;
	x->evq = sl_evq_new(loop, ev, arg);
	x->spawner = sl_spawner_new(x->stepd_path, x->jobs_dir, conf->stepd_log_stderr);
	x->logins = sl_logincache_new(NULL, SL_IDCACHE_TTL);
	x->pool = sl_dirpool_new(x->jobs_dir, SL_DIRPOOL_MAX);
	return x;
}

void sl_exec_local_free(struct sl_exec_local *x)
{
	if (x == NULL)
		return;
	for (size_t b = 0; b < JOB_BUCKETS; b++)
		while (x->jobs[b] != NULL)
			job_drop(x, x->jobs[b]);
	if (x->collect_timer != 0)
		sl_loop_del_timer(x->loop, x->collect_timer);
	free(x->due);
	sl_spawner_free(x->spawner);
	sl_logincache_free(x->logins);
	sl_dirpool_free(x->pool);
	sl_evq_free(x->evq);
	free(x->jobs_dir);
	free(x->stepd_path);
	free(x->host);
	free(x->cluster);
	free(x);
}

/* ---- the ops table (exec.h) ---- */

static void *ops_create(struct sl_loop *loop, const struct sl_exec_conf *conf,
			const struct sl_exec_events *ev, void *arg, struct sl_err *err)
{
	return sl_exec_local_new(loop, conf, ev, arg, err);
}

static void ops_destroy(void *x)
{
	sl_exec_local_free(x);
}

static int ops_start(void *x, const struct sl_job *j, struct sl_err *e)
{
	return sl_exec_local_start(x, j, e);
}

static int ops_cancel(void *x, uint64_t id, struct sl_err *e)
{
	return sl_exec_local_cancel(x, id, e);
}

static int ops_preempt(void *x, uint64_t id, struct sl_err *e)
{
	return sl_exec_local_preempt(x, id, e);
}

static int ops_signal(void *x, uint64_t id, int sig, struct sl_err *e)
{
	return sl_exec_local_signal(x, id, sig, e);
}

static int ops_adopt(void *x, const struct sl_job *j, struct sl_err *e)
{
	return sl_exec_local_adopt(x, j, e);
}

static void ops_forget(void *x, uint64_t id)
{
	sl_exec_local_forget(x, id);
}
static void ops_reload(void *arg)
{
	struct sl_exec_local *x = arg;
	sl_xl_collect(x, 1); /* letting the server go loses what it has not answered */
	sl_spawner_restart(x->spawner);
	sl_logincache_clear(x->logins);
}

static int ops_requeue(void *x, uint64_t id, struct sl_err *e)
{
	return sl_exec_local_requeue(x, id, e);
}
static int ops_node_fail(void *x, uint64_t id, struct sl_err *e)
{
	return sl_exec_local_node_fail(x, id, e);
}
static int ops_time_limit(void *x, uint64_t id, int64_t secs, struct sl_err *e)
{
	return sl_exec_local_time_limit(x, id, secs, e);
}

const struct sl_executor sl_executor_local = {
	.name = "local", .reports_ready = 0, .preflight = ops_preflight, .check = sl_exec_local_check,
	.create = ops_create, .destroy = ops_destroy,
	.start = ops_start, .cancel = ops_cancel, .preempt = ops_preempt, .signal = ops_signal,
	.adopt = ops_adopt, .forget = ops_forget, .reload = ops_reload,
	.requeue = ops_requeue, .node_fail = ops_node_fail, .time_limit = ops_time_limit,
};
