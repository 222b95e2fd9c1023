/* test_exec_local.c - the daemon's side of the local executor on the real
 * loop and the real sluice-stepd: start, events, forget, adoption after a
 * "daemon crash", a lost server answer, and recycled job directories (its
 * signals: test_exec_local_signal.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec_local.h"
#include "logincache.h"
#include "loop.h"
#include "jobdir.h"
#include "stepd_spawner.h"
#include "xalloc.h"
#include "stepd_testlib.h"

static void test_exec_local_run(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(101, "#!/bin/sh\necho $SLURM_JOB_NODELIST $SLURMD_NODENAME $SLURM_CLUSTER_NAME\nexit 2\n", 2);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	assert_int_equal(e.started, 0); /* never from inside the call */
	assert_int_equal(sl_exec_local_start(x, j, &err), -SL_EEXIST);
	run_until_finished(loop);
	assert_int_equal(e.started, 1);
	assert_string_equal(e.nodelist, "vm-[0-1]");
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.id, 101);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 2);
	char *p = sl_xasprintf("%s/rec-101-vm.out", root), *out = slurp(p);
	assert_non_null(out);
	assert_string_equal(out, "vm-[0-1] vm-0 sluice\n");
	char *dir = sl_xasprintf("%s/jobs/101", root);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0711);
	sl_exec_local_forget(x, 101);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(sl_exec_local_cancel(x, 101, &err), -SL_ENOENT);
	free(dir);
	free(out);
	free(p);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

/* The daemon "dies" (its executor is dropped without a word), the job runs
 * on; a new daemon adopts it and records its end. */
static void test_adopt_running(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(103, "#!/bin/sh\nsleep 1\nexit 4\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	sl_exec_local_free(x);
	sl_loop_free(loop);

	char *dir = sl_xasprintf("%s/jobs/103", root);
	wait_file(dir, SL_JOBDIR_PID);
	loop = sl_loop_new();
	memset(&e, 0, sizeof(e));
	x = new_exec(loop, &e);
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	assert_int_equal(e.finished, 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 4);
	/* Adopting it again (a second restart before forget) gives the same end. */
	sl_exec_local_free(x);
	sl_loop_free(loop);
	loop = sl_loop_new();
	memset(&e, 0, sizeof(e));
	x = new_exec(loop, &e);
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 4);
	sl_exec_local_forget(x, 103);
	assert_int_equal(access(dir, F_OK), -1);
	while (waitpid(-1, NULL, WNOHANG) > 0) /* the first daemon's child */
		;
	free(dir);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void adopt_expect(uint64_t id, enum sl_jobstate want, const char *reason)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(id, "#!/bin/sh\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, want);
	assert_string_equal(e.res.reason, reason);
	sl_exec_local_forget(x, id);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void test_adopt_dead_or_never(void **state)
{
	/* never launched: no directory at all, or a spec without `started` */
	adopt_expect(201, SL_JOB_PENDING, "NotStarted");
	char *dir = sl_xasprintf("%s/jobs/202", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, "{}", 2, 0600, 1, NULL), 0);
	adopt_expect(202, SL_JOB_PENDING, "NotStarted");
	free(dir);
	/* the supervisor died mid-run: started, no result, lock free */
	dir = sl_xasprintf("%s/jobs/203", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_STARTED, "1700000000\n", 11, 0644, 1, NULL), 0);
	adopt_expect(203, SL_JOB_NODE_FAIL, "NodeFail");
	free(dir);
	/* ended while the daemon was away */
	dir = sl_xasprintf("%s/jobs/204", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	struct sl_exec_result r;
	sl_exec_result_init(&r, SL_JOB_TIMEOUT);
	r.exit_signal = 15;
	char *json = sl_exec_result_to_json(&r);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_RESULT, json, strlen(json), 0644, 1, NULL), 0);
	adopt_expect(204, SL_JOB_TIMEOUT, "TimeLimit");
	free(json);
	free(dir);
}

/* A server that takes the request and dies without answering: a supervisor
 * may or may not run, so none is exec'd in its place (the job must never
 * run twice); the lock shows nobody holds it, and the job, never started,
 * goes back to the queue (PENDING, NotStarted). */
static void test_exec_local_answer_lost(void **state)
{
	char saved[sizeof(stepd_path)], *fake = sl_xasprintf("%s/fake-stepd", root);
	FILE *f = fopen(fake, "w");
	assert_non_null(f);
	/* the server reads the request and exits; a supervisor exec'd in its
	 * place would be the real one, and run the job */
	fprintf(f, "#!/bin/sh\n[ \"$1\" = --server ] || exec '%s' \"$@\"\n"
		   "exec dd bs=65536 count=1 <&3 >/dev/null 2>&1\n", stepd_path);
	fclose(f);
	assert_int_equal(chmod(fake, 0755), 0);
	memcpy(saved, stepd_path, sizeof(saved));
	snprintf(stepd_path, sizeof(stepd_path), "%s", fake);
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	memcpy(stepd_path, saved, sizeof(saved));
	struct sl_job *j = make_record(104, "#!/bin/sh\ntouch ran\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_PENDING);
	assert_string_equal(e.res.reason, "NotStarted");
	char *dir = sl_xasprintf("%s/jobs/104", root);
	assert_false(exists(dir, SL_JOBDIR_STARTED));
	char *ran = sl_xasprintf("%s/ran", root);
	assert_int_equal(access(ran, F_OK), -1);
	free(ran);
	sl_exec_local_forget(x, 104);
	while (waitpid(-1, NULL, WNOHANG) > 0) /* the fake server */
		;
	free(dir);
	free(fake);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

/* A turn's launches go to the fork server back to back; their answers are
 * read together at the next turn, and every job is followed to its end. */
static void test_exec_local_pipelined(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j[5];
	struct sl_err err = SL_ERR_INIT;
	for (int i = 0; i < 5; i++) {
		j[i] = make_record(130 + (uint64_t)i, "#!/bin/sh\necho done\n", 1);
		assert_int_equal(sl_exec_local_start(x, j[i], &err), 0);
	}
	/* one flush may deliver several ends: run until all five came */
	for (int seen = 0; e.finished < 5; seen = e.finished) {
		run_until_finished(loop);
		assert_true(e.finished > seen); /* else the deadline stopped it */
		assert_int_equal(e.res.state, SL_JOB_COMPLETED);
	}
	assert_int_equal(e.finished, 5);
	assert_int_equal(e.started, 5);
	for (int i = 0; i < 5; i++) {
		char *p = sl_xasprintf("%s/rec-%d-vm.out", root, 130 + i), *out = slurp(p);
		assert_string_equal(out ? out : "", "done\n");
		sl_exec_local_forget(x, 130 + (uint64_t)i);
		free(out);
		free(p);
		sl_job_free(j[i]);
	}
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

/* Run one job to its end and forget it (its directory becomes a spare). */
static void run_forget(struct sl_exec_local *x, struct evlog *e, uint64_t id,
		       const char *script, const char *want_out)
{
	struct sl_job *j = make_record(id, script, 1);
	struct sl_err err = SL_ERR_INIT;
	struct sl_loop *loop = e->loop;
	memset(e, 0, sizeof(*e));
	e->loop = loop;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e->res.state, SL_JOB_COMPLETED);
	char *out = sl_xasprintf("%s/rec-%llu-vm.out", root, (unsigned long long)id);
	char *text = slurp(out);
	assert_string_equal(text ? text : "", want_out);
	sl_exec_local_forget(x, id);
	free(text);
	free(out);
	sl_job_free(j);
}

/* The script of the spare handed out next (the newest), held open as a
 * process of its owner could. */
static int open_next_script(void)
{
	char cmd[256];
	unsigned n = 0;
	snprintf(cmd, sizeof(cmd), "ls -a %s/jobs | sed -n 's/^\\.spare-//p' | sort -n | tail -1", root);
	FILE *ls = popen(cmd, "r");
	assert_int_equal(fscanf(ls, "%u", &n), 1);
	pclose(ls);
	snprintf(cmd, sizeof(cmd), "%s/jobs/.spare-%u/" SL_JOBDIR_SCRIPT, root, n);
	int fd = open(cmd, O_RDONLY);
	assert_true(fd >= 0);
	return fd;
}

/* A finished job's directory serves the next job (dirpool.h): the same
 * user's script is rewritten in place, anyone else's is replaced. */
static void test_exec_local_recycles(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct stat st;
	char cmd[256];

	run_forget(x, &e, 301, "#!/bin/sh\necho the first job\n", "the first job\n");
	int fd = open_next_script();
	run_forget(x, &e, 302, "#!/bin/sh\necho 2\n", "2\n");
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_nlink, 1); /* rewritten */
	close(fd);
	snprintf(cmd, sizeof(cmd), "chown 1:1 %s/jobs/.spare-*/" SL_JOBDIR_SCRIPT, root);
	assert_int_equal(system(cmd), 0);
	fd = open_next_script();
	run_forget(x, &e, 303, "#!/bin/sh\necho 3\n", "3\n");
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_nlink, 0); /* replaced */
	close(fd);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}


static void test_nodelist(void **state)
{
	char *b = NULL, *n = sl_exec_local_nodelist("vm", 1, &b);
	assert_string_equal(n, "vm");
	assert_string_equal(b, "vm");
	free(n);
	free(b);
	n = sl_exec_local_nodelist("node7", 3, &b);
	assert_string_equal(n, "node7-[0-2]");
	assert_string_equal(b, "node7-0");
	free(n);
	free(b);
}

/* -w and -x on this host's nodes (HOST, HOST-N), in slurmctld's words;
 * a name both give is refused before either is looked at further. */
static void test_check_nodes(void **state)
{
	char host[256] = "localhost", *other;
	static const struct {
		const char *w, *x; /* "H": this host */
		int r;
		const char *msg;
	} cases[] = {
		{"H", NULL, 0, ""},
		{"nosuchnode", NULL, -SL_EINVAL, "Invalid node name specified"},
		{NULL, "H-5", 0, ""},
		{NULL, "nosuchnode", -SL_EINVAL, "Invalid node name specified"},
		{"H", "H", -SL_EINVAL, "Invalid node name specified"},
		{"H", "H-5", 0, ""},
	};
	(void)state;
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, ".")] = '\0';
	other = sl_xasprintf("%s-5", host);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		const char *w = cases[i].w, *x = cases[i].x;
		sl_jobspec_init(&s);
		s.nodelist = w ? sl_xstrdup(strcmp(w, "H") == 0 ? host : w) : NULL;
		s.exclude = x ? sl_xstrdup(strcmp(x, "H") == 0 ? host
					 : strcmp(x, "H-5") == 0 ? other : x) : NULL;
		assert_int_equal(sl_exec_local_check(NULL, &s, &err), cases[i].r);
		assert_string_equal(err.msg, cases[i].msg);
		sl_jobspec_clear(&s);
	}
	free(other);
}

/* The launch's limit in seconds: a record's minutes past Slurm's largest
 * limit (stored before the submit policy checked them) are no limit, not
 * seconds that wrap negative (issue 11, hole 1; UBSan saw the product). */
static void test_prepare_time_limit(void **state)
{
	static const int64_t cases[][2] = {
		{10, 600}, {SL_TIME_INFINITE, 0}, {SL_TIME_MAX, SL_TIME_MAX * 60}, {INT64_MAX, 0},
	};
	struct sl_exec_conf c = {.state_dir = root, .cluster = "sluice", .hostname = "vm"};
	struct sl_logincache *logins = sl_logincache_new(NULL, 60);
	struct sl_job *j = make_record(1, "#!/bin/sh\ntrue\n", 1);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_launch out;

		j->spec.time_limit = cases[i][0];
		assert_int_equal(sl_exec_local_prepare(&c, logins, "vm", j, &out, &err), 0);
		assert_true(out.time_limit == cases[i][1]);
		sl_launch_clear(&out);
	}
	sl_job_free(j);
	sl_logincache_free(logins);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodelist),
		cmocka_unit_test(test_check_nodes),
		cmocka_unit_test(test_prepare_time_limit),
		cmocka_unit_test(test_exec_local_run),
		cmocka_unit_test(test_adopt_running),
		cmocka_unit_test(test_adopt_dead_or_never),
		cmocka_unit_test(test_exec_local_answer_lost),
		cmocka_unit_test(test_exec_local_pipelined),
		cmocka_unit_test(test_exec_local_recycles),
	};
	return cmocka_run_group_tests(tests, stepd_test_setup, stepd_test_teardown);
}
