/* test_podlog.c - the pod log protocol both ways: the split of a log at its
 * last boundary (exact bytes, NULs, a missing or foreign boundary), and the
 * wrapper the renderer puts in the pod, run for real by /bin/sh (and by
 * busybox sh when installed) on scripts that write both streams, exit 3, die
 * of SIGTERM or trap it, do not exist, or whose wrapper is SIGKILLed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "k8s/podlog.h"
#include "xalloc.h"

#define B "--- sluice: stderr of job 1003 attempt 0 follows " \
	  "(5f0c9a7e3b1d48e2a6c4f8b0d2e97153) ---"

/* ---- the split ---------------------------------------------------------- */

static void split(const char *log, size_t len, int found, const char *out, size_t out_len,
		  const char *err, size_t err_len)
{
	struct sl_podlog_parts p;

	assert_int_equal(sl_podlog_split(log, len, 1003, 0, &p), found);
	assert_int_equal(p.out_len, out_len);
	assert_memory_equal(p.out, out, out_len);
	if (err == NULL) {
		assert_null(p.err);
		assert_int_equal(p.err_len, 0);
		return;
	}
	assert_non_null(p.err);
	assert_int_equal(p.err_len, err_len);
	assert_memory_equal(p.err, err, err_len);
}

#define SPLIT(log, found, out, err) \
	split(log, sizeof(log) - 1, found, out, sizeof(out) - 1, err, sizeof(err) - 1)

static void test_boundary(void **state)
{
	char *b = sl_podlog_boundary(1003, 0);

	assert_string_equal(b, B);
	free(b);
	b = sl_podlog_boundary(18446744073709551615ULL, 2);
	assert_string_equal(b, "--- sluice: stderr of job 18446744073709551615 attempt 2 "
			    "follows (5f0c9a7e3b1d48e2a6c4f8b0d2e97153) ---");
	free(b);
}

static void test_split(void **state)
{
	/* A last line without '\n' keeps it; one with keeps it too. */
	SPLIT("out 1\nlast" "\n" B "\n" "err 1\nerr 2\n", 1, "out 1\nlast", "err 1\nerr 2\n");
	SPLIT("out 1\n" "\n" B "\n" "err", 1, "out 1\n", "err");
	SPLIT("\n" B "\n", 1, "", "");
	/* Stdout that printed a boundary itself (cat of an old log): the last one wins. */
	SPLIT("a\n" B "\nb\n" "\n" B "\n" "e\n", 1, "a\n" B "\nb\n", "e\n");
	/* NUL bytes pass through on both sides. */
	SPLIT("a\0b" "\n" B "\n" "e\0f", 1, "a\0b", "e\0f");
}

static void test_split_missing(void **state)
{
	struct sl_podlog_parts p;

	/* Killed before the wrapper printed stderr: everything is stdout. */
	SPLIT("out 1\npartial", 0, "out 1\npartial", NULL);
	/* Cut inside the boundary line, or with no line start before it. */
	SPLIT("out\n" "\n--- sluice: stderr of job 1003", 0, "out\n" "\n--- sluice: stderr of job 1003",
	      NULL);
	SPLIT("x" B "\nerr", 0, "x" B "\nerr", NULL);
	SPLIT("\n" B, 0, "\n" B, NULL);
	/* Another attempt's boundary (a requeued job's old log) is not this one's. */
	assert_int_equal(sl_podlog_split("o\n" B "\ne", 5 + strlen(B), 1003, 1, &p), 0);
	assert_int_equal(p.out_len, 5 + strlen(B));
	assert_int_equal(sl_podlog_split("", 0, 1003, 0, &p), 0);
	assert_int_equal(p.out_len, 0);
	assert_null(p.err);
}

/* The exact wrapper: sluice render's goldens show it inside the object. */
static void test_run_text(void **state)
{
	char *t = sl_podlog_run("/sluice/slurm_script", 1003, 0);

	assert_string_equal(t, "exec 2>/tmp/sluice-stderr\n"
			       "/sluice/slurm_script \"$@\" </dev/null &\n"
			       "pid=$!\n"
			       "trap 'kill -TERM $pid 2>/dev/null && again=1' TERM\n"
			       "again=1\n"
			       "while [ \"$again\" ]; do again=; wait $pid 2>/dev/null; rc=$?; done\n"
			       "printf '\\n%s\\n' '" B "'\n"
			       "cat /tmp/sluice-stderr\n"
			       "exit $rc\n");
	free(t);
}

/* ---- the wrapper, run ---------------------------------------------------- */

struct shell {
	const char *path, *argv0;
};

struct run {
	char *log;
	size_t len;
	int status; /* the wrapper's exit status (it exits, never dies) */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = sl_xmalloc(65536);

	assert_non_null(f);
	*len = fread(buf, 1, 65535, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* text with every "/tmp/sluice-stderr" replaced by path: the test must not
 * share /tmp's file with a real pod or a parallel run. */
static char *relocate(const char *text, const char *path)
{
	const char *from = "/tmp/sluice-stderr", *at;
	char *t = sl_xstrdup(text), *u;

	while ((at = strstr(t, from)) != NULL) {
		u = sl_xasprintf("%.*s%s%s", (int)(at - t), t, path, at + strlen(from));
		free(t);
		t = u;
	}
	return t;
}

/* Has pid a SIGTERM handler yet (Linux /proc; elsewhere assume so)? A TERM
 * before the wrapper's trap would kill it, which is not what is tested. */
static int term_caught(pid_t pid)
{
	char *path = sl_xasprintf("/proc/%d/status", (int)pid), line[256];
	FILE *f = fopen(path, "r");
	unsigned long long mask = 1ULL << (SIGTERM - 1);
	int caught = f == NULL;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "SigCgt:", 7) == 0)
			caught = (strtoull(line + 7, NULL, 16) & mask) != 0;
	if (f != NULL)
		fclose(f);
	free(path);
	return caught;
}

/* Run the wrapper of job 1003.0 around body (NULL: no script file) with sh;
 * with sig, send the wrapper (the container's PID 1) that signal once the
 * script touched $READY. */
static void run(const struct shell *sh, const char *body, int sig, struct run *r)
{
	char dir[] = "/tmp/test_podlog.XXXXXX", *script, *logf, *ready, *errf, *w, *text;
	int st = 0, n, fd;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	script = sl_xasprintf("%s/script", dir);
	logf = sl_xasprintf("%s/log", dir);
	ready = sl_xasprintf("%s/ready", dir);
	errf = sl_xasprintf("%s/stderr", dir);
	if (body != NULL)
		put_file(script, body, 0755);
	w = sl_podlog_run(script, 1003, 0);
	text = relocate(w, errf);
	assert_non_null(strstr(text, errf));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (setpgid(0, 0) != 0 || fd < 0 || dup2(fd, 1) < 0 || setenv("READY", ready, 1) != 0)
			_exit(126);
		execl(sh->path, sh->argv0, "-c", text, "sluice-batch", "a b", "it's", (char *)NULL);
		_exit(127);
	}
	for (n = 0; sig && (access(ready, F_OK) != 0 || !term_caught(pid)) && n < 1000; n++)
		usleep(10000);
	/* SIGKILL ends the whole container; SIGTERM reaches PID 1 alone. */
	if (sig)
		assert_int_equal(kill(sig == SIGKILL ? -pid : pid, sig), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	kill(-pid, SIGKILL); /* nothing may outlive the test */
	assert_true(WIFEXITED(st) || (sig == SIGKILL && WIFSIGNALED(st)));
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->log = slurp(logf, &r->len);
	unlink(script);
	unlink(logf);
	unlink(ready);
	unlink(errf);
	rmdir(dir);
	free(script);
	free(logf);
	free(ready);
	free(errf);
	free(w);
	free(text);
}

static void expect(const struct run *r, int status, const char *out, const char *err)
{
	struct sl_podlog_parts p;

	if (r->status != status)
		fail_msg("status %d, want %d; log:\n%s", r->status, status, r->log);
	assert_int_equal(sl_podlog_split(r->log, r->len, 1003, 0, &p), 1);
	assert_int_equal(p.out_len, strlen(out));
	assert_memory_equal(p.out, out, p.out_len);
	assert_int_equal(p.err_len, strlen(err));
	assert_memory_equal(p.err, err, p.err_len);
}

static const char both_exit3[] =
	"#!/bin/sh\n"
	"echo 'out 1'\n"
	"echo 'err 1' >&2\n"
	"printf 'args [%s] [%s]\\n' \"$1\" \"$2\"\n"
	"echo 'err 2' >&2\n"
	"printf 'last line without newline'\n"
	"exit 3\n";

/* Default SIGTERM: the script dies of it, sh reports 128+15. */
static const char killed[] =
	"#!/bin/sh\n"
	"echo started\n"
	"echo 'err before TERM' >&2\n"
	": >\"$READY\"\n"
	"exec sleep 30\n";

/* A trap that cleans up and writes to stderr on its way out. */
static const char trapped[] =
	"#!/bin/sh\n"
	"sleep 30 & s=$!\n"
	"trap 'kill $s; echo \"TERM caught\" >&2; exit 7' TERM\n"
	"echo started\n"
	": >\"$READY\"\n"
	"wait $s\n";

static void run_all(const struct shell *sh)
{
	struct run r;

	struct sl_podlog_parts p;

	run(sh, both_exit3, 0, &r);
	expect(&r, 3, "out 1\nargs [a b] [it's]\nlast line without newline", "err 1\nerr 2\n");
	free(r.log);
	run(sh, killed, SIGTERM, &r);
	expect(&r, 128 + SIGTERM, "started\n", "err before TERM\n");
	free(r.log);
	run(sh, trapped, SIGTERM, &r);
	expect(&r, 7, "started\n", "TERM caught\n");
	free(r.log);
	/* The shell's own complaint is stderr too: the log holds only the boundary. */
	run(sh, NULL, 0, &r);
	assert_int_equal(r.status, 127);
	assert_int_equal(sl_podlog_split(r.log, r.len, 1003, 0, &p), 1);
	assert_int_equal(p.out_len, 0);
	assert_non_null(memmem(p.err, p.err_len, "not found", 9));
	free(r.log);
	/* SIGKILL (the grace period over): no boundary, the log is all stdout. */
	run(sh, killed, SIGKILL, &r);
	assert_int_equal(r.status, 128 + SIGKILL);
	assert_int_equal(sl_podlog_split(r.log, r.len, 1003, 0, &p), 0);
	assert_int_equal(p.out_len, 8);
	assert_memory_equal(p.out, "started\n", 8);
	free(r.log);
}

static void test_wrapper_dash(void **state)
{
	static const struct shell sh = {"/bin/sh", "sh"};

	run_all(&sh);
}

static void test_wrapper_busybox(void **state)
{
	static const struct shell bb[] = {{"/bin/busybox", "sh"}, {"/usr/bin/busybox", "sh"}};
	size_t i;

	for (i = 0; i < sizeof(bb) / sizeof(bb[0]); i++)
		if (access(bb[i].path, X_OK) == 0) {
			run_all(&bb[i]);
			return;
		}
	skip(); /* busybox is not installed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundary),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_missing),
		cmocka_unit_test(test_run_text),
		cmocka_unit_test(test_wrapper_dash),
		cmocka_unit_test(test_wrapper_busybox),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
