/* test_fsutil.c - the file-system helpers: whole writes through a pipe and
 * their errors, lexical path normalisation, mkdir -p. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

/* 200 KiB through a pipe whose reader drains it: more than one write. */
static void test_write_all(void **state)
{
	size_t n = 200 * 1024, got = 0;
	char *data = sl_xmalloc(n), *back = sl_xmalloc(n);
	int fds[2];
	pid_t pid;

	for (size_t i = 0; i < n; i++)
		data[i] = (char)(i * 7);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(sl_write_all(fds[1], data, n) == 0 ? 0 : 1);
	}
	close(fds[1]);
	for (ssize_t r; got < n && (r = read(fds[0], back + got, n - got)) > 0;)
		got += (size_t)r;
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_int_equal(got, n);
	assert_memory_equal(back, data, n);
	errno = 0;
	assert_int_equal(sl_write_all(-1, data, 1), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(sl_write_all(-1, data, 0), 0); /* nothing to write */
	free(data);
	free(back);
}

static void test_normalize(void **state)
{
	char a[] = "/a//b/./c/../d/", b[] = "/../..", c[] = "/x/y/..";

	sl_path_normalize(a);
	sl_path_normalize(b);
	sl_path_normalize(c);
	assert_string_equal(a, "/a/b/d");
	assert_string_equal(b, "/");
	assert_string_equal(c, "/x");
}

/* A new directory under /tmp for one test; the caller frees the path and
 * removes the tree with remove_root(). */
static char *make_root(void)
{
	char *root = sl_xstrdup("/tmp/test_fsutil.XXXXXX");

	assert_non_null(mkdtemp(root));
	return root;
}

static void remove_root(char *root)
{
	char *cmd = sl_xasprintf("rm -rf %s", root);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(root);
}

static void test_mkdirs(void **state)
{
	char *root = make_root(), *deep;
	struct sl_err err = SL_ERR_INIT;
	struct stat st;

	deep = sl_xasprintf("%s/a/b/c", root);
	assert_int_equal(sl_mkdirs(deep, 0750, &err), 0);
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(sl_mkdirs(deep, 0750, &err), 0); /* already there */
	free(deep);
	remove_root(root);
}

/* An empty file of this mode at DIR/NAME; the path, for the caller to free. */
static char *touch(const char *dir, const char *name, mode_t mode)
{
	char *p = sl_xasprintf("%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, mode);

	assert_true(fd >= 0);
	close(fd);
	return p;
}

/* srun's lookup (executables) and sbatch's (readable files) walk PATH the
 * same way: in order, regular files the mode allows, "" the cwd. */
static void test_path_search(void **state)
{
	char *root = make_root(), *a, *b, *plain, *tool, *path, *got;
	char *env[3] = {"HOME=/x", NULL, NULL};
	(void)state;

	a = sl_xasprintf("%s/a", root);
	b = sl_xasprintf("%s/b", root);
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	plain = touch(a, "tool", 0644); /* readable, not executable */
	tool = touch(b, "tool", 0755);
	path = sl_xasprintf("%s::%s", a, b);
	env[1] = sl_xasprintf("PATH=%s", path);

	got = sl_path_search(path, "tool", R_OK);
	assert_string_equal(got, plain);
	free(got);
	got = sl_path_search(path, "tool", X_OK);
	assert_string_equal(got, tool);
	free(got);
	assert_null(sl_path_search(path, "no-such-tool-here", R_OK));
	assert_null(sl_path_search(path, "a", R_OK)); /* a directory is no file */

	got = sl_find_program("tool", env);
	assert_string_equal(got, tool);
	free(got);
	got = sl_find_program("./tool", env);
	assert_string_equal(got, "./tool");
	free(got);
	got = sl_find_program("no-such-tool-here", env);
	assert_string_equal(got, "no-such-tool-here");
	free(got);
	got = sl_find_program("sh", NULL); /* no PATH: as given, as slurmstepd */
	assert_string_equal(got, "sh");
	free(got);

	remove_root(root);
	free(env[1]);
	free(path);
	free(tool);
	free(plain);
	free(b);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_all),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_mkdirs),
		cmocka_unit_test(test_path_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
