/* test_proctree.c - libbatch/proctree.c against this process's own tree:
 * a child that started a grandchild, both asleep in pipes' reads; and a
 * batch job's tree with an srun whose task is left out of the script's
 * own figures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
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

/* A process named `name` that runs body (a fork of ours) and then
 * blocks until the gate closes, reaping what it started. */
static pid_t named(const char *name, int gate[2], void (*body)(int gate[2]))
{
	pid_t p = fork();
	if (p == 0) {
		char x;
		prctl(PR_SET_NAME, name, 0, 0, 0);
		if (body)
			body(gate);
		close(gate[1]);
		(void)read(gate[0], &x, 1);
		while (wait(NULL) > 0)
			;
		_exit(0);
	}
	return p;
}

/* The task holds 8 MiB of its own, touched, so its size shows. */
static void task_body(int gate[2])
{
	volatile char *m = malloc(8 << 20); /* volatile: the stores stay */
	(void)gate;
	for (size_t i = 0; m && i < (8 << 20); i += 4096)
		m[i] = 1;
}

/* A task that ended: 0.3 s of CPU, reaped by srun. */
static void burn(void)
{
	pid_t p = fork();
	if (p == 0) {
		struct timespec t0, t;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 300);
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

static void srun_body(int gate[2])
{
	burn();
	(void)named("task", gate, task_body);
}

static void script_body(int gate[2])
{
	(void)named("srun", gate, srun_body);
	(void)named("sleep", gate, NULL);
}

/* script -> srun -> task, script -> sleep: own is the script, srun and
 * sleep (srun is the script's, as in Slurm), all has the task too, and the
 * CPU of a task srun reaped. */
static void test_sample_job(void **state)
{
	int gate[2];
	struct sl_proc_sample all, own;
	pid_t script, list[16];
	char task_pid[16];
	(void)state;

	assert_int_equal(pipe(gate), 0);
	script = named("script", gate, script_body);
	for (int i = 0; i < 300; i++) { /* until the task has touched its memory */
		usleep(10000);
		sl_proc_sample_job(script, &all, &own);
		if (all.rss_kib - own.rss_kib >= 8 << 10)
			break;
	}
	assert_int_equal(sl_proc_tree(script, 1, list, 16), 4);
	assert_int_equal(all.nprocs, 4);
	assert_int_equal(own.nprocs, 3);
	assert_true(all.rss_kib - own.rss_kib >= 8 << 10);
	assert_true(all.vsize_kib > own.vsize_kib);
	assert_true(all.cpu_ticks - own.cpu_ticks >= sysconf(_SC_CLK_TCK) / 5);
	assert_true(all.reaped_ticks >= sysconf(_SC_CLK_TCK) / 5 && own.reaped_ticks == 0);
	/* the task is the tree's last: first in all's list, absent in own's */
	snprintf(task_pid, sizeof(task_pid), "%d", (int)list[3]);
	assert_int_equal(strncmp(all.pids, task_pid, strlen(task_pid)), 0);
	assert_null(strstr(own.pids, task_pid));
	close(gate[0]);
	close(gate[1]);
	waitpid(script, NULL, 0);
	sl_proc_sample_job(script, &all, &own);
	assert_int_equal(all.nprocs + own.nprocs, 0);
	assert_string_equal(own.pids, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_and_sample),
		cmocka_unit_test(test_sample_job),
	};
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
