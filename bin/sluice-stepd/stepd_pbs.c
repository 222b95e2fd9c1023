/* stepd_pbs.c - a qsub job's files, as OpenPBS's MOM makes them: the node
 * file PBS_NODEFILE names (one line per MPI process; MOM's is
 * $PBS_HOME/aux/JOBID, ours is the job directory's `nodefile`), and the
 * job's own TMPDIR (mktmpdir() in src/resmom/start_exec.c: mode 0700,
 * owned by the user; an existing one must be a directory of the user or
 * root, else the launch fails), removed with everything in it when the
 * job is over; and the variables MOM gives a job besides. Jobs submitted
 * otherwise have none of these. */
#define _XOPEN_SOURCE 700
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "log.h"
#include "xalloc.h"

static int as_root(void)
{
	return geteuid() == 0;
}

static void env_add(struct stepd *s, const char *k, const char *v)
{
	size_t n = sl_strv_len(s->pbs_env);
	s->pbs_env = sl_xrealloc(s->pbs_env, (n + 2) * sizeof(char *));
	s->pbs_env[n] = sl_xasprintf("%s=%s", k, v);
	s->pbs_env[n + 1] = NULL;
}

static int write_nodefile(struct stepd *s)
{
	char *path = sl_xasprintf("%s/%s", s->dir, SL_JOBDIR_NODEFILE);
	int fd, r = -1;

	(void)unlink(path); /* a spare directory's, maybe another user's */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0 && sl_write_all(fd, s->l.nodefile, strlen(s->l.nodefile)) == 0 &&
	    fchmod(fd, 0644) == 0 && (!as_root() || fchown(fd, s->l.uid, s->l.gid) == 0))
		r = 0;
	if (r != 0)
		sl_err_log("job %llu: %s: %s", (unsigned long long)s->l.job_id, path,
			   strerror(errno));
	else
		env_add(s, "PBS_NODEFILE", path);
	if (fd >= 0)
		close(fd);
	free(path);
	return r;
}

static int make_tmpdir(struct stepd *s)
{
	const char *dir = s->l.tmpdir;
	struct stat st;
	int fd, r = -1;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		goto out;
	if (lstat(dir, &st) != 0)
		goto out;
	if (!S_ISDIR(st.st_mode) || !(st.st_uid == s->l.uid || st.st_uid == 0)) {
		sl_err_log("job %llu: %s exists and is not the job's: refused",
			   (unsigned long long)s->l.job_id, dir);
		errno = EEXIST;
		return -1;
	}
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		goto out;
	if (fchmod(fd, 0700) == 0 && (!as_root() || fchown(fd, s->l.uid, s->l.gid) == 0))
		r = 0;
	close(fd);
out:
	if (r != 0)
		sl_err_log("job %llu: TMPDIR %s: %s", (unsigned long long)s->l.job_id, dir,
			   strerror(errno));
	else
		env_add(s, "TMPDIR", dir);
	s->tmpdir_made = r == 0;
	return r;
}

/* MOM's other per-job variables (variables_else[], start_exec.c):
 * PBS_JOBDIR (the user's home without a sandbox), PBS_MOMPORT (its
 * default) and PBS_JOBCOOKIE (a random 128-bit hex string). */
static void mom_vars(struct stepd *s)
{
	struct passwd pw, *res = NULL;
	char buf[4096], cookie[33];
	unsigned char r[16];

	if (getpwuid_r(s->l.uid, &pw, buf, sizeof(buf), &res) == 0 && res != NULL)
		env_add(s, "PBS_JOBDIR", pw.pw_dir);
	env_add(s, "PBS_MOMPORT", "15003");
	if (getrandom(r, sizeof(r), 0) == (ssize_t)sizeof(r)) {
		for (size_t i = 0; i < sizeof(r); i++)
			snprintf(cookie + 2 * i, 3, "%02X", r[i]);
		env_add(s, "PBS_JOBCOOKIE", cookie);
	}
}

int stepd_pbs_prepare(struct stepd *s)
{
	if (s->l.nodefile != NULL)
		mom_vars(s);
	if (s->l.nodefile != NULL && write_nodefile(s) != 0)
		return -1;
	if (s->l.tmpdir != NULL && make_tmpdir(s) != 0)
		return -1;
	return 0;
}

/* What the job left in its TMPDIR; the directory itself is removed after,
 * with the rights of its parent's owner (pbsTmpDir need not be sticky). */
static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	if (f->level == 0)
		return 0;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) != 0 && errno != ENOENT)
		sl_warn("%s: %s", path, strerror(errno));
	return 0;
}

void stepd_pbs_cleanup(struct stepd *s)
{
	if (!s->tmpdir_made) {
		sl_strv_free(s->pbs_env);
		s->pbs_env = NULL;
		return;
	}
	/* As the user: what the job left is removed with its rights only. */
	if (as_root()) {
		(void)setfsgid(s->l.gid);
		(void)setfsuid(s->l.uid);
	}
	(void)nftw(s->l.tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	if (as_root()) {
		(void)setfsuid(0);
		(void)setfsgid(0);
	}
	if (rmdir(s->l.tmpdir) != 0 && errno != ENOENT)
		sl_warn("%s: %s", s->l.tmpdir, strerror(errno));
	sl_strv_free(s->pbs_env);
	s->pbs_env = NULL;
	s->tmpdir_made = 0;
}
