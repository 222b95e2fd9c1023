/* test_proctree.c - libbatch/proctree.c against this process's own tree:
 * a child that started a grandchild, both asleep in pipes' reads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proctree.h"

/* A child that forks a grandchild; both block until *gate closes. The
 * grandchild's pid comes back through *report. */
static pid_t family(int gate[2], pid_t *grandchild)
{
	int rep[2];
	pid_t c;

	assert_int_equal(pipe(gate), 0);
	assert_int_equal(pipe(rep), 0);
	if ((c = fork()) == 0) {
		char x;
		pid_t g = fork();
		if (g == 0) {
			close(gate[1]);
			(void)read(gate[0], &x, 1);
			_exit(0);
		}
		(void)write(rep[1], &g, sizeof(g));
		close(gate[1]);
		(void)read(gate[0], &x, 1);
		waitpid(g, NULL, 0);
		_exit(0);
	}
	close(gate[0]);
	close(rep[1]);
	assert_int_equal(read(rep[0], grandchild, sizeof(*grandchild)), (ssize_t)sizeof(*grandchild));
	close(rep[0]);
	return c;
}

static int has(const pid_t *v, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == p)
			return 1;
	return 0;
}

static void test_tree_and_sample(void **state)
{
	int gate[2];
	pid_t g, c = family(gate, &g), list[64];
	struct sl_proc_sample s;
	size_t n;
	(void)state;

	n = sl_proc_tree(getpid(), 1, list, 64);
	assert_true(n >= 3);
	assert_int_equal(list[0], getpid());
	assert_true(has(list, n, c) && has(list, n, g));
	n = sl_proc_tree(getpid(), 0, list, 64);
	assert_false(has(list, n, getpid()));
	assert_true(has(list, n, g));
	assert_int_equal(sl_proc_tree(getpid(), 1, list, 1), 1); /* bounded */
	assert_int_equal(sl_proc_parent(c), getpid());
	assert_int_equal(sl_proc_parent(g), c);

	sl_proc_sample_tree(c, 1, &s);
	assert_int_equal(s.nprocs, 2);
	assert_true(s.rss_kib > 0 && s.vsize_kib >= s.rss_kib);
	assert_non_null(strchr(s.pids, ','));
	sl_proc_sample_tree(c, 0, &s);
	assert_int_equal(s.nprocs, 1);

	close(gate[1]);
	waitpid(c, NULL, 0);
	assert_int_equal(sl_proc_parent(c), -1); /* gone */
	sl_proc_sample_tree(c, 1, &s);
	assert_int_equal(s.nprocs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_and_sample),
	};
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
