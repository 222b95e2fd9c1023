/* statedir.c - the state directory's modes, and what it says about its past.
 *
 * Layout: <stateDir> 0711, the store's files in it 0600, jobs/ 0711, each
 * job's directory 0711 with its script owned by the job's user. A job user
 * needs search (x) access on the way to jobs/<id>/script, and nothing more:
 * without r on the state directory nobody lists it, and the store's files
 * are the daemon's alone. Keeping the store beside jobs/ rather than in a
 * 0700 directory of its own leaves every existing stateDir where it is; the
 * cost is that its mode must be set on the files, which SQLite would create
 * 0644 (its default) and whose -wal and -shm files copy the database's. */
#include "statedir.h"
#include "fsutil.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const sl_statedir_store_files[] = {"", "-wal", "-shm", "-journal", NULL};

int sl_statedir_check(const char *dir, struct sl_err *err)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return errno == ENOENT ? 0 : sl_err_set(err, SL_EIO, "stateDir %s: %s", dir,
						       strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return sl_err_set(err, SL_ECONFIG, "stateDir %s is not a directory", dir);
	if (st.st_mode & S_IWOTH)
		return sl_err_set(err, SL_ECONFIG,
				  "stateDir %s may be written by everyone (mode %04o): the job store "
				  "needs a directory of its own", dir, (unsigned)(st.st_mode & 07777));
	return 0;
}

int sl_statedir_prepare(const char *dir, struct sl_err *err)
{
	struct stat st;
	int r;

	if ((r = sl_mkdirs(dir, 0711, err)) != 0 || (r = sl_statedir_check(dir, err)) != 0)
		return r;
	if (stat(dir, &st) != 0)
		return sl_err_set(err, SL_EIO, "stateDir %s: %s", dir, strerror(errno));
	/* Not ours to change (a group's directory, say): enough if others
	 * can neither list nor write it. */
	if ((st.st_mode & 07777) != 0711 && chmod(dir, 0711) != 0 && (st.st_mode & 0006))
		return sl_err_set(err, SL_EIO, "stateDir %s: cannot make it 0711: %s", dir,
				  strerror(errno));
	return 0;
}

/* path 0600 if it exists (O_NOFOLLOW: a link planted there is refused). */
static int private_file(const char *path, int *exists, struct sl_err *err)
{
	struct stat st;
	int r = 0, fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	*exists = fd >= 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		r = sl_err_set(err, SL_EIO, "%s: not a regular file", path);
	else if ((st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0)
		r = sl_err_set(err, SL_EIO, "%s: cannot make it 0600: %s", path, strerror(errno));
	close(fd);
	return r;
}

int sl_statedir_private(const char *dir, const char *db, int *created, struct sl_err *err)
{
	int r = 0, exists = 0;

	*created = 0;
	for (size_t i = 0; r == 0 && sl_statedir_store_files[i] != NULL; i++) {
		char *path = sl_xasprintf("%s/%s%s", dir, db, sl_statedir_store_files[i]);
		int fd;
		if ((r = private_file(path, &exists, err)) == 0 && i == 0 && !exists) {
			/* Created here rather than by SQLite, so it is never 0644 for
			 * an instant; its companions take its mode. */
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd < 0)
				r = sl_err_set(err, SL_EIO, "cannot create %s: %s", path, strerror(errno));
			else
				close(fd);
			*created = r == 0;
		}
		free(path);
	}
	return r;
}

int sl_statedir_used(const char *dir, uint64_t *max_id)
{
	char *jobs = sl_xasprintf("%s/jobs", dir);
	DIR *d = opendir(jobs);
	struct dirent *e;
	int used = d != NULL || errno != ENOENT;

	*max_id = 0;
	while (d != NULL && (e = readdir(d)) != NULL) {
		char *end;
		unsigned long long v = strtoull(e->d_name, &end, 10);
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && *end == '\0' && v > *max_id)
			*max_id = v;
	}
	if (d != NULL)
		closedir(d);
	free(jobs);
	return used;
}

int sl_statedir_set_aside(const char *dir, const char *db, char **aside, struct sl_err *err)
{
	long long now = (long long)time(NULL);
	int r = 0;

	*aside = sl_xasprintf("%s/%s.broken-%lld", dir, db, now);
	for (size_t i = 0; r == 0 && sl_statedir_store_files[i] != NULL; i++) {
		const char *sfx = sl_statedir_store_files[i];
		char *from = sl_xasprintf("%s/%s%s", dir, db, sfx);
		char *to = sl_xasprintf("%s%s", *aside, sfx);
		if (rename(from, to) != 0 && errno != ENOENT)
			r = sl_err_set(err, SL_EIO, "cannot set %s aside: %s", from, strerror(errno));
		free(from);
		free(to);
	}
	return r;
}
