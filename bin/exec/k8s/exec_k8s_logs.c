/* exec_k8s_logs.c - the end of a Kubernetes job. Without a shared
 * filesystem the script's output exists only as the pod log: read it once
 * (one GET, after the end, never streamed) and write the -o file as the
 * submitter, in a child that drops to the user's uid/gid/groups, so sluiced
 * never creates a file the user could not have created. Then the object is
 * deleted (the job's second and last write) and the end is reported.
 *
 * The writer child is never waited for: its pidfd (or, without pidfd_open,
 * a WNOHANG poll on a timer) tells the loop when it is done, and only then
 * is the end reported (so lifecycle's on_finished commits the job and
 * forget() frees it after the files exist). The writer remembers the job by
 * id and attempt, not by pointer: if the job was ended or forgotten
 * meanwhile (scancel, shutdown), it only reaps its child.
 *
 * The pod log merges the container's streams. With -e apart from -o, the
 * pod printed the script's stderr after stdout and a boundary line
 * (k8s/podlog.h): the log is split at the last boundary, and when there is
 * none (the container was killed hard) all of it goes to -o and the -e file
 * says why stderr is missing. Without -e, or with -e the -o file, the log
 * goes to -o as it is.
 *
 * Cost: the log goes through sluiced's memory (capped by the REST client's
 * body cap), and kubelet keeps only the last containerLogMaxSize (10 MiB by
 * default) of it: longer outputs need a shared filesystem.
 *
 * Calls down only: the job table (exec_k8s_job.c). */
#include "exec_k8s.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loop.h"
#include "conf.h"
#include "fsutil.h"
#include "k8s/podlog.h"
#include "k8s/status.h"
#include "log.h"
#include "slurm_pattern.h"
#include "jobdir.h"
#include "xalloc.h"

static char *expand(const struct sl_job *job, const char *pat, const char *host)
{
	struct sl_pattern_ctx pc = {
		.job_id = job->id, .array_task_id = SL_PATTERN_TASK(job), .job_name = job->spec.name,
		.array_job_id = job->array_job_id,
		.user = job->user, .host = host, .work_dir = job->spec.work_dir,
	};
	return sl_slurm_pattern_expand(pat, &pc);
}

/* What the -o and -e files get. */
struct texts {
	const char *out, *err; /* err NULL: no -e file apart from -o */
	size_t out_len, err_len;
	char *note;            /* owned: the -e text when stderr was lost */
};

/* The log as -o and -e texts (pointers into text, or t->note). */
static void split_log(const struct sl_job *job, const char *out, const char *errp,
		      const char *text, size_t len, struct texts *t)
{
	struct sl_podlog_parts p;

	memset(t, 0, sizeof(*t));
	t->out = text;
	t->out_len = len;
	if (errp == NULL || strcmp(errp, out) == 0)
		return;
	if (sl_podlog_split(text, len, job->id, job->attempt, &p)) {
		t->out_len = p.out_len;
		t->err = p.err;
		t->err_len = p.err_len;
		return;
	}
	t->note = sl_xasprintf("sluice: stderr of job %llu was lost: its pod log has no "
			       "stderr section, so the container was killed before its script "
			       "ended (e.g. SIGKILL after the grace period); the whole log is "
			       "in %s\n", (unsigned long long)job->id, out);
	t->err = t->note;
	t->err_len = strlen(t->note);
}

/* In the child: become the user, write, exit with 0 or an errno. */
static void child_write(const struct sl_job *job, const char *out, const char *errp,
			const struct texts *t)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC |
		    (job->spec.open_mode == SL_OPEN_APPEND ? O_APPEND : O_TRUNC);
	int fd;

	if (getuid() == 0 && job->uid != 0) {
		if ((job->user && initgroups(job->user, job->gid) != 0 && setgroups(0, NULL) != 0) ||
		    setgid(job->gid) != 0 || setuid(job->uid) != 0)
			_exit(EPERM);
	}
	umask(job->spec.umask ? job->spec.umask : 022);
	if (job->spec.work_dir && chdir(job->spec.work_dir) != 0)
		_exit(errno);
	if ((fd = open(out, flags, 0666)) < 0)
		_exit(errno);
	if (sl_write_all(fd, t->out, t->out_len) != 0 || close(fd) != 0)
		_exit(EIO);
	if (t->err != NULL) {
		if ((fd = open(errp, flags, 0666)) < 0)
			_exit(errno);
		if (sl_write_all(fd, t->err, t->err_len) != 0 || close(fd) != 0)
			_exit(EIO);
	}
	_exit(0);
}

#define REAP_POLL_MS 20

struct writer {
	struct sl_exec_k8s *x;
	uint64_t id;
	int attempt;
	pid_t pid;
	int pidfd;          /* -1: polled by the timer */
	uint64_t timer;
	char *out;          /* the -o path, for the error message */
};

static pid_t fork_writer(const struct sl_job *job, const char *out, const char *text,
			 size_t len, const char *host)
{
	char *errp = job->spec.std_err ? expand(job, job->spec.std_err, host) : NULL;
	struct texts t;
	pid_t pid;

	split_log(job, out, errp, text, len, &t);
	pid = fork();
	if (pid == 0)
		child_write(job, out, errp, &t);
	free(t.note);
	free(errp);
	return pid;
}

static void done(struct kjob *kj)
{
	/* The result is recorded; the object's only use now is history. */
	char *item = sl_k8s_kind_path(kj->kind, kj->ns, kj->name);
	sl_k8sexec_delete(kj->x, item, kj->x->kill_wait);
	free(item);
	sl_k8sexec_job_report(kj, &kj->res);
}

static const char *log_host(struct kjob *kj)
{
	for (size_t i = 0; i < kj->npods; i++) {
		const char *n = sl_k8s_obj_meta(kj->pods[i], "name");
		if (n && kj->log_pod && strcmp(n, kj->log_pod) == 0) {
			json_object *spec = NULL, *h = NULL;
			if (json_object_object_get_ex(kj->pods[i], "spec", &spec) &&
			    json_object_object_get_ex(spec, "hostname", &h))
				return json_object_get_string(h);
			return n;
		}
	}
	return kj->log_pod;
}

static void writer_free(struct writer *w)
{
	if (w->pidfd >= 0) {
		sl_loop_del_fd(w->x->loop, w->pidfd);
		close(w->pidfd);
	}
	if (w->timer != 0)
		sl_loop_del_timer(w->x->loop, w->timer);
	free(w->out);
	free(w);
}

/* The child is gone (st): report the job if it still waits for this. */
static void writer_end(struct writer *w, int st)
{
	struct kjob *kj = sl_k8sexec_job_find(w->x, w->id);

	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) /* the child's errno */
		sl_warn("job %llu: writing its output: %s: %s", (unsigned long long)w->id, w->out,
			WIFEXITED(st) ? strerror(WEXITSTATUS(st)) : "writer killed");
	if (kj != NULL && kj->attempt == w->attempt && kj->phase == KJ_FINISHING)
		done(kj);
	writer_free(w);
}

static void writer_poll(struct writer *w);

static void on_writer_timer(struct sl_loop *l, uint64_t id, void *arg)
{
	struct writer *w = arg;

	w->timer = 0;
	writer_poll(w);
}

static void writer_poll(struct writer *w)
{
	int st = 0;
	pid_t r = waitpid(w->pid, &st, WNOHANG);

	if (r == 0) {
		if (w->pidfd < 0)
			w->timer = sl_loop_add_timer(w->x->loop, REAP_POLL_MS, on_writer_timer, w);
		return;
	}
	if (r < 0)
		st = EIO << 8; /* cannot happen: nobody else reaps it */
	writer_end(w, st);
}

static void on_writer_pidfd(struct sl_loop *l, int fd, int events, void *arg)
{
	writer_poll(arg);
}

/* Fork the writer and follow it from the loop; 0, or -1 (then report now). */
static int start_writer(struct kjob *kj, const char *text, size_t len)
{
	const char *host = log_host(kj);
	struct writer *w = sl_xcalloc(1, sizeof(*w));

	w->x = kj->x;
	w->id = kj->id;
	w->attempt = kj->attempt;
	w->out = expand(kj->job, kj->job->spec.std_out ? kj->job->spec.std_out : "slurm-%j.out",
			host);
	w->pid = fork_writer(kj->job, w->out, text, len, host);
	w->pidfd = -1;
	if (w->pid < 0) {
		sl_warn("job %llu: writing its output: fork: %s", (unsigned long long)kj->id,
			strerror(errno));
		writer_free(w);
		return -1;
	}
	w->pidfd = sl_pidfd_open(w->pid);
	if (w->pidfd >= 0 &&
	    sl_loop_add_fd(w->x->loop, w->pidfd, SL_EV_READ, on_writer_pidfd, w) != 0) {
		close(w->pidfd);
		w->pidfd = -1;
	}
	writer_poll(w); /* arms the timer when there is no pidfd */
	return 0;
}

static void on_log(const struct sl_k8s_resp *resp, void *arg)
{
	struct kjob *kj = arg;
	kj->logreq = NULL;
	if (resp->rc != 0 || resp->status != 200)
		sl_warn("job %llu: pod log %s: %s", (unsigned long long)kj->id, kj->log_pod,
			resp->rc ? resp->err.msg : "bad status");
	else if (start_writer(kj, resp->body, resp->len) == 0)
		return; /* done() when the writer exits */
	done(kj);
}

void sl_k8sexec_finish(struct kjob *kj)
{
	const struct sl_conf *conf = *kj->x->confp;
	struct sl_k8s_req_spec spec;
	char *path;

	if (kj->log_pod == NULL ||
	    sl_render_shared_fs(sl_conf_kubernetes(conf), kj->job->spec.partition)) {
		done(kj);
		return;
	}
	memset(&spec, 0, sizeof(spec));
	path = sl_xasprintf("/api/v1/namespaces/%s/pods/%s/log", kj->ns, kj->log_pod);
	spec.method = "GET";
	spec.path = path;
	spec.retry_deadline_ms = 60000; /* the log is worth less than the end */
	kj->logreq = sl_k8s_http_send(kj->x->http, &spec, on_log, kj);
	free(path);
}
