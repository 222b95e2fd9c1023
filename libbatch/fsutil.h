/* fsutil.h - small file-system helpers shared by the daemon and tools. */
#ifndef SL_FSUTIL_H
#define SL_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>
#include "err.h"

/* mkdir -p: create path and missing parents with mode (existing ones are
 * left as they are). 0 or -SL_EIO with the failing directory in err. */
int sl_mkdirs(const char *path, mode_t mode, struct sl_err *err);

/* Collapse "//", "." and ".." lexically in an absolute path, in place. */
void sl_path_normalize(char *p);

/* dir's entries ending in suffix (dot files skipped) as "dir/name", sorted,
 * NULL-terminated; caller frees with sl_strv_free(). -SL_ETOOBIG past max
 * entries, -SL_ECONFIG when none matches. */
int sl_list_files(const char *dir, const char *suffix, size_t max, char ***out,
		  struct sl_err *err);

/* write(2) all n bytes, through EINTR and short writes: 0, or -1 with
 * errno set (a write that returns 0 counts as an error). */
int sl_write_all(int fd, const char *p, size_t n);

/* Replace the content of the regular file fd with p[0..n): written from
 * offset 0, then cut to n. Truncating to empty first would free its blocks
 * and allocate them again; on ext4 mounted with `discard` and no journal,
 * every block freed is a discard the disk must finish there and then.
 * 0, or -1 with errno set. */
int sl_overwrite(int fd, const char *p, size_t n);

/* A task's working directory, as slurmstepd sets it: dir, else /tmp, with
 * its line on stderr ("slurmstepd-HOST: error: couldn't chdir to `DIR':
 * REASON: going to /tmp instead"), written twice as slurmstepd writes it
 * (once in the step, once in the task). Allocates nothing, for the child
 * of a fork. 0, or -1 when /tmp will not do either. */
int sl_task_chdir(const char *host, const char *dir);

/* The PATH a command gets when its environment has none. */
#define SL_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* The first "DIR/name" along path (a PATH value; an empty entry is the
 * working directory) that is a regular file the caller may access with
 * mode (R_OK, X_OK); NULL when none is. Caller frees. */
char *sl_path_search(const char *path, const char *name, int mode);

/* The program as slurmstepd finds a task's: a name without '/' through the
 * PATH in env, the first executable regular file; not found, or env
 * without PATH (an --export=NONE step's), the name itself, so that
 * execve's ENOENT is the error reported, as Slurm's. Directories the user
 * cannot search are passed over. Caller frees. */
char *sl_find_program(const char *name, char *const *env);

#endif
