/* main.c - sluiced: setup in order, the loop, teardown in reverse. */
#include "conf.h"
#include "acts.h"
#include "conn.h"
#include "diag.h"
#include "exec/executors.h"
#include "handlers.h"
#include "idcache.h"
#include "jobtab.h"
#include "kueue.h"
#include "lifecycle.h"
#include "log.h"
#include "mail.h"
#include "metrics.h"
#include "nodeadmin.h"
#include "partadmin.h"
#include "nodefeed.h"
#include "loop.h"
#include "schedule.h"
#include "sluiced.h"
#include "statedir.h"
#include "store.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define EXPIRE_MS 30000

static void usage(FILE *f)
{
	fprintf(f, "Usage: sluiced [-f FILE] [-D] [-v] [--reset-state]\n"
		   "       sluiced --check-config FILE\n"
		   "  -f FILE   configuration (default " SYSCONFDIR "/sluice/sluice.yaml)\n"
		   "  -D        stay in the foreground, log to stderr\n"
		   "  -v        log debug messages\n"
		   "  --reset-state\n"
		   "            start even when the job store (stateDir/sluice.db) is empty or\n"
		   "            unreadable in a stateDir that has given out job ids: an\n"
		   "            unreadable store is set aside as sluice.db.broken-TIME, and job\n"
		   "            ids go on past the job directories; a readable store is kept\n");
}

/* What the config lets through as Kueue does (a queue left inactive). */
static void warn_queues(const struct sl_conf *c, FILE *to)
{
	const struct sl_kueue *k = sl_conf_kueue(c);
	for (size_t i = 0; k != NULL && i < k->nwarnings; i++)
		if (to != NULL)
			fprintf(to, "sluiced: warning: %s\n", k->warnings[i]);
		else
			sl_warn("%s", k->warnings[i]);
}

/* A defaultPartition no LocalQueue has: every sbatch without -p fails. */
static void warn_default_partition(const struct sl_conf *c)
{
	const struct sl_kueue *k = sl_conf_kueue(c);
	const char *p = sl_conf_default_partition(c);

	if (p == NULL || k == NULL)
		return;
	for (size_t i = 0; i < k->nlqs; i++)
		if (strcmp(k->lqs[i].name, p) == 0)
			return;
	fprintf(stderr, "sluiced: warning: defaultPartition \"%s\" is no LocalQueue's name: "
		"jobs submitted without -p are refused\n", p);
}

static int check_config(const char *path)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = NULL;
	if (sl_conf_load(path, &c, &err) != 0 ||
	    sl_statedir_check(sl_conf_state_dir(c), &err) != 0) {
		fprintf(stderr, "sluiced: %s\n", err.msg);
		sl_conf_free(c);
		return 1;
	}
	warn_queues(c, stderr);
	warn_default_partition(c);
	printf("%s: OK\n", path);
	sl_conf_free(c);
	return 0;
}

/* SLUICE_STEPD overrides where sluice-stepd is (tests, a build tree). */
static const char *stepd_override(void)
{
	const char *p = getenv("SLUICE_STEPD");
	return p && *p ? p : NULL;
}

/* The config, and whether its executor can run here at all. */
static int check_quiet(const char *path)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = NULL;
	const struct sl_executor *x;
	struct sl_exec_conf xc = {.stepd_path = stepd_override()};
	int r = sl_conf_load(path, &c, &err);
	if (r == 0 && (x = sl_executor_find(sl_conf_executor(c))) != NULL && x->preflight != NULL)
		r = x->preflight(&xc, &err);
	if (r != 0)
		fprintf(stderr, "sluiced: %s\n", err.msg);
	sl_conf_free(c);
	return r;
}

static void on_exec_started(void *arg, uint64_t id, int64_t start, const char *nodes)
{
	struct sluiced *d = arg;
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;
	if (j == NULL)
		return;
	if (start > 0)
		j->start_time = start;
	if (nodes != NULL) {
		free(j->nodelist);
		j->nodelist = sl_xstrdup(nodes);
	}
	if (sl_lifecycle_save(d, j, &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)id, err.msg);
}

static void on_exec_finished(void *arg, uint64_t id, const struct sl_exec_result *r)
{
	sl_lifecycle_finished(arg, id, r);
}

static void on_exec_ready(void *arg, uint64_t id, const char *nodelist)
{
	sl_lifecycle_ready(arg, id, nodelist);
}

static void on_exec_nodes(void *arg)
{
	struct sluiced *d = arg;
	sl_nodefeed_run(d->nodefeed, d, 0);
}

static void on_term(struct sl_loop *l, int signo, void *arg)
{
	struct sluiced *d = arg;
	sl_info("signal %d: stopping (running jobs keep running)", signo);
	d->stopping = 1;
	sl_conns_close_listener(d->conns);
	sl_loop_stop(l);
}

static int same_list(const char *const *a, const char *const *b)
{
	for (; a && b && *a && *b; a++, b++)
		if (strcmp(*a, *b) != 0)
			return 0;
	return (a == NULL || *a == NULL) && (b == NULL || *b == NULL);
}

/* What sl_conns_listen() took from the config. */
static int same_listening(const struct sl_conf *a, const struct sl_conf *b)
{
	const char *ma = sl_conf_munge_socket(a), *mb = sl_conf_munge_socket(b);

	return same_list(sl_conf_listen(a), sl_conf_listen(b)) &&
	       strcmp(sl_conf_auth(a), sl_conf_auth(b)) == 0 &&
	       (ma == mb || (ma && mb && strcmp(ma, mb) == 0));
}

int sl_daemon_reload(struct sluiced *d, struct sl_err *err)
{
	struct sl_conf *c = NULL, *old;

	if (sl_conf_load(d->conf_path, &c, err) != 0)
		return -err->code;
	warn_queues(c, NULL);
	if (strcmp(sl_conf_socket(c), sl_conf_socket(d->conf)) != 0 ||
	    strcmp(sl_conf_state_dir(c), sl_conf_state_dir(d->conf)) != 0 ||
	    sl_conf_fsync(c) != sl_conf_fsync(d->conf))
		sl_warn("SIGHUP: socket, stateDir and durability changes need a restart");
	if (!same_listening(c, d->conf))
		sl_warn("SIGHUP: listen, auth and munge changes need a restart");
	const char *na = sl_conf_metrics_listen(c), *nb = sl_conf_metrics_listen(d->conf);
	if (!(na == nb || (na && nb && strcmp(na, nb) == 0)))
		sl_warn("SIGHUP: metrics changes need a restart");
	old = d->conf;
	d->conf = c;
	if (sl_schedctl_reconfigure(d->sched, err) != 0) {
		struct sl_err ignore = SL_ERR_INIT;
		int r = -err->code;
		d->conf = old;
		sl_schedctl_reconfigure(d->sched, &ignore);
		sl_conf_free(c);
		return r;
	}
	sl_conf_free(old);
	sl_idcache_clear(d->ids); /* an admin who just added a user expects to see it */
	sl_nodefeed_run(d->nodefeed, d, 1); /* a topology, or `nodes:`, may be new or gone */
	d->need_schedule = 1;
	if (d->executor->reload != NULL)
		d->executor->reload(d->exec);
	sl_info("SIGHUP: configuration %s reloaded", d->conf_path);
	return 0;
}

static void on_hup(struct sl_loop *l, int signo, void *arg)
{
	struct sl_err err = SL_ERR_INIT;

	if (sl_daemon_reload(arg, &err) != 0)
		sl_err_log("SIGHUP: new configuration refused, the old one stays: %s", err.msg);
}

static void on_expire(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sluiced *d = arg;
	sl_jobtab_expire(d->jobs, sl_loop_wall(l) - sl_conf_min_job_age(d->conf));
	sl_loop_add_timer(l, EXPIRE_MS, on_expire, d);
}

static void before_sleep(struct sl_loop *l, void *arg)
{
	sl_lifecycle_turn(arg);
}

static int daemonize(void)
{
	pid_t pid = fork();
	int fd;
	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		return -1;
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	return 0;
}

static void identity(struct sluiced *d)
{
	char host[256] = "localhost";
	struct passwd *pw;
	d->self_uid = getuid();
	pw = getpwuid(d->self_uid);
	d->self_user = pw ? sl_xstrdup(pw->pw_name) : sl_xasprintf("%u", (unsigned)d->self_uid);
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, ".")] = '\0';
	d->hostname = sl_xstrdup(host);
	d->diag = sl_diag_new((int64_t)time(NULL));
	d->ids = sl_idcache_new(NULL, SL_IDCACHE_TTL);
}

/* The store keeps, through a full disk, the records of the jobs it is given
 * (store.h): these. */
static const struct sl_job *job_of(void *arg, uint64_t id)
{
	return sl_jobtab_get(arg, id);
}

static int setup(struct sluiced *d, int foreground, unsigned store_flags, struct sl_err *err)
{
	static const struct sl_exec_events ev = {on_exec_started, on_exec_finished,
						    on_exec_ready, on_exec_nodes};
	struct sl_exec_conf xc;
	int r;

	if ((r = sl_conf_load(d->conf_path, &d->conf, err)) != 0)
		return r;
	warn_queues(d->conf, NULL);
	memset(&xc, 0, sizeof(xc));
	xc.stepd_path = stepd_override();
	if ((d->executor = sl_executor_find(sl_conf_executor(d->conf))) == NULL)
		return sl_err_set(err, SL_ECONFIG, "executor \"%s\" is not built into sluiced",
				  sl_conf_executor(d->conf));
	if (d->executor->preflight != NULL && (r = d->executor->preflight(&xc, err)) != 0)
		return r;
	identity(d);
	d->loop = sl_loop_new();
	d->jobs = sl_jobtab_new();
	d->acts = sl_acts_new();
	if (sl_conf_fsync(d->conf))
		store_flags |= SL_STORE_FSYNC;
	if ((r = sl_store_open(sl_conf_state_dir(d->conf), store_flags, &d->store, err)) != 0 ||
	    (r = sl_partadmin_load(d, &d->partadmin, err)) != 0 ||
	    (r = sl_schedctl_new(d, &d->sched, err)) != 0)
		return r;
	d->nodefeed = sl_nodefeed_new();
	sl_store_set_lookup(d->store, job_of, d->jobs);
	xc.state_dir = sl_conf_state_dir(d->conf);
	xc.cluster = sl_conf_cluster_name(d->conf);
	xc.hostname = d->hostname;
	xc.kill_wait = sl_conf_kill_wait(d->conf);
	xc.durable = sl_conf_fsync(d->conf);
	xc.stepd_log_stderr = foreground;
	xc.confp = &d->conf;
	if ((d->exec = d->executor->create(d->loop, &xc, &ev, d, err)) == NULL)
		return -SL_EINTERNAL;
	if ((r = sl_nodeadmin_load(d, &d->nodeadmin, err)) != 0 ||
	    (r = sl_lifecycle_recover(d, err)) != 0 ||
	    (r = sl_conns_listen(d, &d->conns, err)) != 0 ||
	    (r = sl_metrics_start(d, &d->metrics, err)) != 0)
		return r;
	sl_loop_add_signal(d->loop, SIGTERM, on_term, d);
	sl_loop_add_signal(d->loop, SIGINT, on_term, d);
	sl_loop_add_signal(d->loop, SIGHUP, on_hup, d);
	signal(SIGPIPE, SIG_IGN);
	sl_loop_add_timer(d->loop, EXPIRE_MS, on_expire, d);
	sl_loop_set_before_sleep(d->loop, before_sleep, d);
	d->need_schedule = 1;
	return 0;
}

static void teardown(struct sluiced *d)
{
	struct sl_err err = SL_ERR_INIT;
	size_t unsaved_jobs = 0;
	if (d->store != NULL && sl_store_kept(d->store, NULL) > 0)
		(void)sl_store_begin(d->store, &err); /* a last try for what a full disk kept */
	if (d->store != NULL && sl_store_commit(d->store, &err) != 0)
		sl_err_log("final commit failed: %s", err.msg);
	size_t kept = d->store != NULL ? sl_store_kept(d->store, &unsaved_jobs) : 0;
	if (d->conns != NULL && unsaved_jobs == 0) /* no id of a job not on disk goes out */
		sl_conns_flush(d->conns, kept == 0);
	sl_conns_free(d->conns);
	sl_acts_finish(d); /* after the connections, whose going releases them */
	sl_metrics_free(d->metrics);
	sl_diag_free(d->diag);
	sl_mailer_free(d->mail);
	if (d->executor != NULL)
		d->executor->destroy(d->exec);
	sl_nodefeed_free(d->nodefeed);
	sl_nodeadmin_free(d->nodeadmin);
	sl_partadmin_free(d->partadmin);
	sl_schedctl_free(d->sched);
	sl_acts_free(d->acts);
	sl_store_free(d->store);
	sl_jobtab_free(d->jobs);
	sl_loop_free(d->loop);
	sl_conf_free(d->conf);
	free(d->launch);
	free(d->step_sigs);
	free(d->forget);
	free(d->self_user);
	free(d->hostname);
	sl_idcache_free(d->ids);
	free(d->conf_path);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"check-config", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{"reset-state", no_argument, NULL, 'R'},
		{NULL, 0, NULL, 0}};
	struct sluiced d;
	struct sl_err err = SL_ERR_INIT;
	const char *path = SYSCONFDIR "/sluice/sluice.yaml";
	int c, foreground = 0, verbose = 0, rc = 1;
	unsigned store_flags = 0;

	while ((c = getopt_long(argc, argv, "f:DvhC:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': path = optarg; break;
		case 'D': foreground = 1; break;
		case 'v': verbose = 1; break;
		case 'C': return check_config(optarg);
		case 'h': usage(stdout); return 0;
		case 'R': store_flags |= SL_STORE_RESET; break;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	memset(&d, 0, sizeof(d));
	d.conf_path = realpath(path, NULL);
	if (d.conf_path == NULL) {
		fprintf(stderr, "sluiced: %s: %s\n", path, strerror(errno));
		return 1;
	}
	sl_log_open("sluiced", foreground, verbose ? SL_LOG_DEBUG : SL_LOG_INFO);
	/* Refuse a bad file while the terminal can still see the reason. */
	if (!foreground && check_quiet(d.conf_path) != 0)
		return 1;
	if (!foreground && daemonize() != 0) {
		fprintf(stderr, "sluiced: cannot daemonize: %s\n", strerror(errno));
		return 1;
	}
	umask(022);
	/* A listing of ten thousand jobs is a megabyte built and freed per
	 * squeue. Kept in the heap, not mapped and unmapped (or trimmed) each
	 * time, its pages are not faulted in again on every request, which
	 * was a quarter of the daemon's time on such a listing. The heap is
	 * still given back above 64 MiB of free top, and a reply over 32 MiB
	 * is a mapping of its own that goes back whole. */
	if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 64 << 20) != 1)
		sl_warn("malloc keeps its own thresholds: big listings cost page faults each time");
	if (setup(&d, foreground, store_flags, &err) != 0) {
		sl_err_log("%s", err.msg);
		goto out;
	}
	sl_info("ready: socket %s, state %s, executor %s, auth %s, %zu jobs",
		sl_conf_socket(d.conf), sl_conf_state_dir(d.conf), d.executor->name,
		sl_conf_auth(d.conf), sl_jobtab_count(d.jobs));
	rc = sl_loop_run(d.loop) == 0 ? 0 : 1;
out:
	teardown(&d);
	return rc;
}
