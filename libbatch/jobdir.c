/* jobdir.c - files of a job directory: the launch spec, the result,
 * atomic writes and capped reads (see jobdir.h for the layout). */
#include "jobdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <json-c/json.h>

#include "fsutil.h"
#include "proctree.h"
#include "xalloc.h"

/* ---- launch spec ---- */

enum lf_type { LF_STR, LF_INT, LF_I64, LF_STRV };

struct launch_field {
	const char *key;
	enum lf_type type;
	size_t off;
	int required;
};

#define LF(k, t, m, r) {k, t, offsetof(struct sl_launch, m), r}

/* One table drives both directions. uid/gid/umask/job_id are stored as i64. */
static const struct launch_field launch_fields[] = {
	LF("attempt", LF_INT, attempt, 0),
	LF("user", LF_STR, user, 1),
	LF("home", LF_STR, home, 0),
	LF("shell", LF_STR, shell, 0),
	LF("workDir", LF_STR, work_dir, 1),
	LF("stdin", LF_STR, std_in, 0),
	LF("stdout", LF_STR, std_out, 1),
	LF("stderr", LF_STR, std_err, 0),
	LF("append", LF_INT, append, 0),
	LF("timeLimit", LF_I64, time_limit, 0),
	LF("killWait", LF_INT, kill_wait, 0),
	LF("host", LF_STR, host, 1),
	LF("nodelist", LF_STR, nodelist, 0),
	LF("script", LF_STR, script, 1),
	LF("argv", LF_STRV, argv, 0),
	LF("env", LF_STRV, env, 0),
	LF("durable", LF_INT, durable, 0),
	LF("pamService", LF_STR, pam_service, 0),
	LF("nodefile", LF_STR, nodefile, 0),
	LF("tmpdir", LF_STR, tmpdir, 0),
	LF("warnSignal", LF_INT, warn_signal, 0),
	LF("warnTime", LF_INT, warn_time, 0),
	LF("warnBatch", LF_INT, warn_batch, 0),
	LF("rlimits", LF_STR, rlimits, 0),
	LF("userEnv", LF_INT, user_env, 0),
	LF("userEnvMode", LF_INT, user_env_mode, 0),
	LF("sampleSecs", LF_INT, sample_secs, 0),
};

#define NLAUNCH (sizeof(launch_fields) / sizeof(launch_fields[0]))

void sl_launch_clear(struct sl_launch *l)
{
	for (size_t i = 0; i < NLAUNCH; i++) {
		void *p = (char *)l + launch_fields[i].off;
		if (launch_fields[i].type == LF_STR)
			free(*(char **)p);
		else if (launch_fields[i].type == LF_STRV)
			sl_strv_free(*(char ***)p);
	}
	free(l->groups);
	memset(l, 0, sizeof(*l));
}

static json_object *strv_to_json(char *const *v)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

char *sl_launch_to_json(const struct sl_launch *l)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "jobId", json_object_new_int64((int64_t)l->job_id));
	json_object_object_add(o, "uid", json_object_new_int64(l->uid));
	json_object_object_add(o, "gid", json_object_new_int64(l->gid));
	json_object_object_add(o, "umask", json_object_new_int64(l->umask));
	json_object *g = json_object_new_array();
	for (size_t i = 0; i < l->ngroups; i++)
		json_object_array_add(g, json_object_new_int64(l->groups[i]));
	json_object_object_add(o, "groups", g);
	for (size_t i = 0; i < NLAUNCH; i++) {
		const struct launch_field *f = &launch_fields[i];
		const void *p = (const char *)l + f->off;
		json_object *v = NULL;
		if (f->type == LF_STR && *(char *const *)p != NULL)
			v = json_object_new_string(*(char *const *)p);
		else if (f->type == LF_INT)
			v = json_object_new_int(*(const int *)p);
		else if (f->type == LF_I64)
			v = json_object_new_int64(*(const int64_t *)p);
		else if (f->type == LF_STRV)
			v = strv_to_json(*(char **const *)p);
		if (v != NULL)
			json_object_object_add(o, f->key, v);
	}
	char *s = sl_xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

static int launch_get(json_object *o, const struct launch_field *f, struct sl_launch *l,
		      struct sl_err *err)
{
	json_object *v;
	void *p = (char *)l + f->off;
	if (!json_object_object_get_ex(o, f->key, &v) || json_object_is_type(v, json_type_null))
		return f->required ? sl_err_set(err, SL_EINVAL, "spec.json: %s: missing", f->key) : 0;
	switch (f->type) {
	case LF_STR:
		if (!json_object_is_type(v, json_type_string))
			return sl_err_set(err, SL_EINVAL, "spec.json: %s: not a string", f->key);
		*(char **)p = sl_xstrdup(json_object_get_string(v));
		return 0;
	case LF_INT:
		*(int *)p = json_object_get_int(v);
		return 0;
	case LF_I64:
		*(int64_t *)p = json_object_get_int64(v);
		return 0;
	case LF_STRV:
		break;
	}
	if (!json_object_is_type(v, json_type_array))
		return sl_err_set(err, SL_EINVAL, "spec.json: %s: not an array", f->key);
	size_t n = json_object_array_length(v);
	char **sv = sl_xcalloc(n + 1, sizeof(char *));
	*(char ***)p = sv;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		if (!json_object_is_type(e, json_type_string))
			return sl_err_set(err, SL_EINVAL, "spec.json: %s[%zu]: not a string", f->key, i);
		sv[i] = sl_xstrdup(json_object_get_string(e));
	}
	return 0;
}

static int64_t get_i64(json_object *o, const char *key, int64_t dflt)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : dflt;
}

static int get_groups(json_object *o, struct sl_launch *out, struct sl_err *err)
{
	json_object *a;
	if (!json_object_object_get_ex(o, "groups", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return sl_err_set(err, SL_EINVAL, "spec.json: groups: not an array");
	out->ngroups = json_object_array_length(a);
	out->groups = sl_xcalloc(out->ngroups + 1, sizeof(gid_t));
	for (size_t i = 0; i < out->ngroups; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int))
			return sl_err_set(err, SL_EINVAL, "spec.json: groups[%zu]: not a number", i);
		out->groups[i] = (gid_t)json_object_get_int64(e);
	}
	return 0;
}

int sl_launch_from_json(const char *text, struct sl_launch *out, struct sl_err *err)
{
	int r = -SL_EINVAL;
	memset(out, 0, sizeof(*out));
	json_object *o = json_tokener_parse(text);
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		r = sl_err_set(err, SL_EINVAL, "spec.json: not a JSON object");
		goto out;
	}
	if (get_i64(o, "version", 0) != 1) {
		r = sl_err_set(err, SL_EINVAL, "spec.json: version %" PRId64 " unknown",
			       get_i64(o, "version", 0));
		goto out;
	}
	out->job_id = (uint64_t)get_i64(o, "jobId", 0);
	out->uid = (uid_t)get_i64(o, "uid", -1);
	out->gid = (gid_t)get_i64(o, "gid", -1);
	out->umask = (mode_t)get_i64(o, "umask", 022);
	if ((r = get_groups(o, out, err)) != 0)
		goto out;
	for (size_t i = 0; i < NLAUNCH; i++)
		if ((r = launch_get(o, &launch_fields[i], out, err)) != 0)
			goto out;
	r = 0;
out:
	json_object_put(o);
	if (r != 0)
		sl_launch_clear(out);
	return r;
}

/* ---- result ---- */

static const struct {
	enum sl_jobstate state;
	const char *reason;
} result_reasons[] = {
	{SL_JOB_COMPLETED, "None"},        {SL_JOB_FAILED, "NonZeroExitCode"},
	{SL_JOB_CANCELLED, "None"},        {SL_JOB_TIMEOUT, "TimeLimit"},
	{SL_JOB_PREEMPTED, "Preempted"},   {SL_JOB_NODE_FAIL, "NodeFail"},
	{SL_JOB_PENDING, "NotStarted"},    {SL_JOB_OUT_OF_MEMORY, "OutOfMemory"},
};

void sl_exec_result_init(struct sl_exec_result *r, enum sl_jobstate state)
{
	memset(r, 0, sizeof(*r));
	r->state = state;
	snprintf(r->reason, sizeof(r->reason), "None");
	for (size_t i = 0; i < sizeof(result_reasons) / sizeof(result_reasons[0]); i++)
		if (result_reasons[i].state == state)
			snprintf(r->reason, sizeof(r->reason), "%s", result_reasons[i].reason);
}

char *sl_exec_result_to_json(const struct sl_exec_result *r)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "state", json_object_new_string(sl_jobstate_name(r->state)));
	json_object_object_add(o, "exitCode", json_object_new_int(r->exit_code));
	json_object_object_add(o, "exitSignal", json_object_new_int(r->exit_signal));
	json_object_object_add(o, "startTime", json_object_new_int64(r->start_time));
	json_object_object_add(o, "endTime", json_object_new_int64(r->end_time));
	json_object_object_add(o, "reason", json_object_new_string(r->reason));
	if (r->launch_failed)
		json_object_object_add(o, "launchFailed", json_object_new_boolean(1));
	if (r->usage.max_rss || r->usage.reaped_rss || r->usage.user_usec || r->usage.sys_usec ||
	    r->usage.max_vmsize)
		json_object_object_add(o, "usage", sl_usage_to_obj(&r->usage));
	char *s = sl_xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

int sl_exec_result_from_json(const char *text, struct sl_exec_result *r, struct sl_err *err)
{
	int rc = -SL_EINVAL;
	json_object *o = json_tokener_parse(text), *v;
	memset(r, 0, sizeof(*r));
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "state", &v)) {
		rc = sl_err_set(err, SL_EINVAL, "result: not a result object");
		goto out;
	}
	int st = sl_jobstate_parse(json_object_get_string(v));
	if (st < 0) {
		rc = sl_err_set(err, SL_EINVAL, "result: state \"%s\" unknown",
				json_object_get_string(v));
		goto out;
	}
	sl_exec_result_init(r, (enum sl_jobstate)st);
	r->exit_code = (int)get_i64(o, "exitCode", 0);
	r->exit_signal = (int)get_i64(o, "exitSignal", 0);
	r->start_time = get_i64(o, "startTime", 0);
	r->end_time = get_i64(o, "endTime", 0);
	if (json_object_object_get_ex(o, "reason", &v) && json_object_is_type(v, json_type_string))
		snprintf(r->reason, sizeof(r->reason), "%s", json_object_get_string(v));
	if (json_object_object_get_ex(o, "launchFailed", &v))
		r->launch_failed = json_object_get_boolean(v) ? 1 : 0;
	if (json_object_object_get_ex(o, "usage", &v))
		sl_usage_from_obj(v, &r->usage);
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

/* ---- files ---- */

/* In place: the file keeps its inode and its blocks, so a recycled
 * directory (dirpool.h) allocates and frees nothing. Readers come only after the writer is done (the
 * supervisor reads spec.json once launched; sluiced reads the result once
 * the lock is free), and a writer killed halfway leaves what a missing file
 * would mean: no supervisor ran, or none finished. */
static int write_in_place(const char *dir, const char *name, const char *data, size_t len,
			  mode_t mode, struct sl_err *err)
{
	char *path = sl_xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode), r = 0;

	if (fd < 0 || sl_overwrite(fd, data, len) != 0)
		r = sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	if (fd >= 0 && close(fd) != 0 && r == 0)
		r = sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	free(path);
	return r;
}

int sl_jobdir_write(const char *dir, const char *name, const char *data, size_t len,
		    mode_t mode, int durable, struct sl_err *err)
{
	int r = -SL_EIO, fd = -1, dfd = -1;
	if (!durable)
		return write_in_place(dir, name, data, len, mode, err);
	char *tmp = sl_xasprintf("%s/.%s.tmp", dir, name);
	char *dst = sl_xasprintf("%s/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0 || sl_write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		r = sl_err_set(err, SL_EIO, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd) != 0 || (fd = -1, rename(tmp, dst) != 0)) {
		fd = -1;
		r = sl_err_set(err, SL_EIO, "rename %s: %s", dst, strerror(errno));
		goto out;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		(void)fsync(dfd); /* the rename must survive a crash too */
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (r != 0)
		(void)unlink(tmp);
	free(tmp);
	free(dst);
	return r;
}

int sl_jobdir_read(const char *dir, const char *name, char **out, struct sl_err *err)
{
	int r = -SL_EIO;
	char *path = sl_xasprintf("%s/%s", dir, name), *buf = NULL;
	size_t len = 0, cap = 0;
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = errno == ENOENT ? -SL_ENOENT : sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
		goto out;
	}
	for (;;) {
		buf = sl_xgrow(buf, &cap, len + 4096, 1);
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > SL_JOBDIR_FILE_MAX) {
			r = sl_err_set(err, SL_ETOOBIG, "%s: over %u bytes", path, SL_JOBDIR_FILE_MAX);
			goto out;
		}
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	free(path);
	return r;
}

int sl_jobdir_remove(const char *dir, struct sl_err *err)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return errno == ENOENT ? 0 : sl_err_set(err, SL_EIO, "%s: %s", dir, strerror(errno));
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			(void)unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	if (rmdir(dir) != 0 && errno != ENOENT)
		return sl_err_set(err, SL_EIO, "rmdir %s: %s", dir, strerror(errno));
	return 0;
}

/* An emptied mark or result holds one newline rather than nothing: cutting
 * a file to empty frees its block (see sl_overwrite). */
int sl_jobdir_reset(const char *dir, struct sl_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	if (d == NULL)
		return sl_err_set(err, errno == ENOENT ? SL_ENOENT : SL_EIO, "%s: %s", dir,
				  strerror(errno));
	while ((e = readdir(d)) != NULL && r == 0) {
		const char *n = e->d_name;
		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0 || strcmp(n, SL_JOBDIR_LOCK) == 0 ||
		    strcmp(n, SL_JOBDIR_SPEC) == 0 || strcmp(n, SL_JOBDIR_SCRIPT) == 0)
			continue; /* spec: rewritten next; script: stepd decides (stepd_launch.c) */
		if (n[0] == '.') { /* a temporary file left over */
			if (unlinkat(dirfd(d), n, 0) != 0 && errno != ENOENT)
				r = sl_err_set(err, SL_EIO, "%s/%s: %s", dir, n, strerror(errno));
			continue;
		}
		int fd = openat(dirfd(d), n, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if ((fd < 0 && errno != ENOENT) || (fd >= 0 && sl_overwrite(fd, "\n", 1) != 0))
			r = sl_err_set(err, SL_EIO, "%s/%s: %s", dir, n, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	return r;
}

int sl_proc_starttime(pid_t pid, unsigned long long *out)
{
	char buf[1024];
	const char *p = sl_proc_stat_tail(pid, buf, sizeof(buf)); /* at field 3 */

	for (int f = 3; f < 22 && p != NULL; f++)
		p = strchr(p + 1, ' ');
	if (p == NULL)
		return -SL_ENOENT;
	*out = strtoull(p + 1, NULL, 10);
	return 0;
}

int sl_pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

void sl_stepd_sigset(sigset_t *set)
{
	int sigs[] = {SIGTERM, SIGINT, SIGUSR2, SIGCHLD, SL_STEPD_SIG_FORWARD, SL_STEPD_SIG_LIMIT};
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
}

int sl_jobdir_blank(const char *text)
{
	while (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r')
		text++;
	return *text == '\0';
}
