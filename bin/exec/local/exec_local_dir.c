/* exec_local_dir.c - the local executor reads a job's directory (layout in
 * jobdir.h): whether a supervisor holds its lock, and the end it left. */
#include "exec_local_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "xalloc.h"

int sl_exec_local_lock_held(const char *dir)
{
	char *path = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), held = 0;
	free(path);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		held = errno == EWOULDBLOCK;
	close(fd); /* releases the probe's lock, if it got it */
	return held;
}

static int64_t read_num(const char *dir, const char *name)
{
	char *text = NULL;
	int64_t v = 0;
	if (sl_jobdir_read(dir, name, &text, NULL) == 0)
		v = strtoll(text, NULL, 10);
	free(text);
	return v;
}

int sl_exec_local_pidfile(const char *dir, pid_t *pid, unsigned long long *start)
{
	char *text = NULL;
	unsigned long long st = 0;
	int p = 0, r = -SL_ENOENT;
	if (sl_jobdir_read(dir, SL_JOBDIR_PID, &text, NULL) == 0 &&
	    sscanf(text, "%d %llu", &p, &st) == 2 && p > 1 && st > 0) {
		*pid = (pid_t)p;
		*start = st;
		r = 0;
	}
	free(text);
	return r;
}

/* The group's leader, the script, is the supervisor's child. Once it and
 * every other member are gone the number is free, and a process that takes
 * it as its pid may lead a group of its own with it: kill(-pgid) would end
 * that group. While any member lives the kernel keeps the number from
 * reuse, so the group is the job's unless the number is now the pid of a
 * process started at another time than the script. A mark without a start
 * time (a supervisor from before it was written, or no /proc) is taken as
 * it is. Left open: the instant between this read and the caller's kill. */
pid_t sl_exec_local_pgid(const char *dir)
{
	char *text = NULL;
	long long pgid = 0;
	unsigned long long st = 0, now = 0;
	int n = 0;
	if (sl_jobdir_read(dir, SL_JOBDIR_PGID, &text, NULL) == 0)
		n = sscanf(text, "%lld %llu", &pgid, &st);
	free(text);
	if (n < 1 || pgid <= 1 || pgid > INT32_MAX)
		return 0;
	if (n == 2 && st != 0 && sl_proc_starttime((pid_t)pgid, &now) == 0 && now != st)
		return -1;
	return (pid_t)pgid;
}

void sl_exec_local_outcome(const char *dir, uint64_t id, struct sl_exec_result *r)
{
	struct sl_err err = SL_ERR_INIT;
	char *text = NULL;
	int rc = sl_jobdir_read(dir, SL_JOBDIR_RESULT, &text, &err);
	if (rc == 0 && sl_jobdir_blank(text))
		rc = -SL_ENOENT; /* emptied for this launch (sl_jobdir_reset) */
	if (rc == 0 && sl_exec_result_from_json(text, r, &err) == 0) {
		free(text);
		return;
	}
	free(text);
	if (rc != -SL_ENOENT)
		sl_warn("job %llu: %s", (unsigned long long)id, err.msg);
	int64_t started = read_num(dir, SL_JOBDIR_STARTED);
	if (started == 0) {
		sl_exec_result_init(r, SL_JOB_PENDING);
		return;
	}
	/* The supervisor died mid-run: the job's remains run unsupervised, and
	 * its resources are about to be handed out again. End them. */
	pid_t pgid = sl_exec_local_pgid(dir);
	if (pgid > 1)
		(void)kill(-pgid, SIGKILL);
	sl_warn("job %llu: its supervisor died without a result: NODE_FAIL", (unsigned long long)id);
	sl_exec_result_init(r, SL_JOB_NODE_FAIL);
	r->start_time = started;
	r->end_time = (int64_t)time(NULL);
}
