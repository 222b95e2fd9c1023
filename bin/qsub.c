/* qsub.c - submit a batch job, PBS's way: parse with compat's qsub table
 * (pbs_opt.c), make one sl_client_submit_once() call, print "N.server" as
 * OpenPBS's qsub does (src/cmds/qsub.c:3377: the job id and a newline).
 *
 * Rejections print "qsub: TEXT" and exit as OpenPBS's qsub: 2 with the
 * usage for bad options and values, PBS's error number's low byte for
 * what its server refuses (qsub.c:2967: "qsub: Unknown queue", 170), 1 for
 * what Sluice refuses ("qsub: -R is not supported by Sluice"). An array
 * job (-J, -t) prints "N[].server", the array's id. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "err.h"
#include "job.h"
#include "jobstate.h"
#include "pbs_array.h"
#include "pbs_job.h"
#include "pbs_env.h"
#include "pbs_opt.h"
#include "srun_alloc.h"
#include "xalloc.h"

extern char **environ;

/* Each line of msg as "qsub: LINE"; an empty message prints nothing. */
static void print_lines(const char *msg)
{
	const char *p = msg;

	while (*p) {
		size_t n = strcspn(p, "\n");
		fprintf(stderr, "qsub: %.*s\n", (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
	}
}

static int parse_failed(const struct sl_qsub_flags *fl, const struct sl_err *err)
{
	print_lines(err->msg);
	if (fl->usage)
		fputs(sl_qsub_usage, stderr);
	return fl->exit_code ? fl->exit_code : 2;
}

/* The daemon's refusal in PBS's words: its text for the codes PBS has a
 * number for, else the daemon's last line (its reason). */
static int submit_failed(int r, const struct sl_err *err, const char *server)
{
	const char *msg = err->msg[0] ? err->msg : sl_strerror(r), *last = strrchr(msg, '\n');
	int e = sl_pbse_of(err->code ? err->code : r);

	if (strstr(msg, "Invalid job array specification") != NULL) {
		/* the syntax was qsub's to check: what is left is the size */
		fprintf(stderr, "qsub: %s\n", sl_pbse_text(SL_PBSE_MAXARRAYSIZE));
		return sl_pbse_status(SL_PBSE_MAXARRAYSIZE);
	}
	if (e == SL_PBSE_SYSTEM) {
		fprintf(stderr, "qsub: cannot connect to server %s (errno=%d)\n", server, e);
		return sl_pbse_status(e);
	}
	if (e != 0 && e != SL_PBSE_UNKJOBID) {
		fprintf(stderr, "qsub: %s\n", sl_pbse_text(e));
		return sl_pbse_status(e);
	}
	fprintf(stderr, "qsub: %s\n", last ? last + 1 : msg);
	return 1;
}

static volatile sig_atomic_t sig_happened;

static void blockint(int sig)
{
	sig_happened = sig;
}

/* A signal while blocking deletes the job, as bailout() (qsub.c:789) does:
 * "Job ID is being deleted" on stdout, the interruption on stderr, exit 2. */
static int bailout(uint64_t id, const char *shown)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_jobresult *res = NULL;
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	size_t n = 0;
	int rc = 2;

	fprintf(stderr, "qsub: wait for job %s interrupted by signal %d\n", shown,
		(int)sig_happened);
	printf("Job %s is being deleted\n", shown);
	fflush(stdout);
	if (sl_client_connect(NULL, &c, &err) != 0 ||
	    sl_client_cancel(c, &f, 0, 0, &res, &n, &err) != 0) {
		fprintf(stderr, "qsub: cannot connect to server %s (errno=%d)\n",
			strchr(shown, '.') + 1, SL_PBSE_SYSTEM);
		rc = 1;
	}
	free(res);
	sl_client_free(c);
	return rc;
}

/* An array's status once every subjob ended: its Exit_status
 * (compat/pbs_array.h); -1 while one is live. n > 0. */
static int array_status(struct sl_job **v, size_t n)
{
	struct sl_job *a = sl_pbs_array_job(v, n);
	int st = sl_jobstate_is_final(a->state) ? a->exit_code : -1;

	sl_job_free(a);
	return st;
}

/* -W block=true: qsub stays until the job ends and exits with its exit
 * status, as block() (src/cmds/qsub.c:874) exits with what the server
 * sends; a job a signal ended has PBS's status 256+SIG, whose low byte is
 * the signal; an array's is array_status(). Polled on a fresh connection
 * each time (sluiced closes idle ones), every second at first, then up to every 10 s. SIGINT, SIGQUIT
 * and SIGTERM end the wait (blockint(), qsub_sup.c:362). */
static int block(uint64_t id, const char *shown, int array)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1, .history = 1};
	struct sigaction act = {.sa_handler = blockint};

	sigemptyset(&act.sa_mask);
	if (sigaction(SIGINT, &act, NULL) != 0 || sigaction(SIGQUIT, &act, NULL) != 0 ||
	    sigaction(SIGTERM, &act, NULL) != 0) {
		perror("qsub: unable to catch signals");
		return 1;
	}
	for (unsigned pause = 1;; pause = pause < 10 ? pause + 1 : 10) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_job **v = NULL;
		size_t n = 0;
		int status = -1;

		for (unsigned t = 0; t < pause * 10 && !sig_happened; t++)
			(void)usleep(100000);
		if (sig_happened)
			return bailout(id, shown);
		if (sl_client_query(&f, &v, &n, &err) != 0)
			continue; /* the server is restarting: the job is durable */
		if (n == 0) {
			fprintf(stderr, "qsub: Unknown Job Identifier %s\n", shown);
			status = 3;
		} else if (array) {
			status = array_status(v, n);
		} else if (sl_jobstate_is_final(v[0]->state)) {
			status = v[0]->exit_signal ? (256 + v[0]->exit_signal) & 0xff
						   : v[0]->exit_code & 0xff;
		}
		sl_job_free_array(v, n);
		if (status >= 0)
			return status;
	}
}

/* -I: the job holds an allocation (bin/srun_alloc.c, as salloc's) while
 * the user's login shell runs here with the job's PBS variables
 * (PBS_ENVIRONMENT=PBS_INTERACTIVE), in $HOME as PBS starts one; its end
 * releases the job. PBS's lines (src/cmds/qsub_sup.c:1466, 1566, 1600)
 * on stdout, and qsub's status 0 as exit_qsub(0) gives it. On the local
 * executor only: the shell runs on this machine. */
static int interactive(struct sl_jobspec *spec, const char *server)
{
	struct srun_alloc_req q = {.prog = "qsub", .spec = spec, .pbs_server = server};
	struct sl_job *j = NULL;
	struct passwd *pw = getpwuid(getuid());
	const char *shell = pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh";
	int status = 0;
	pid_t pid;

	if (srun_alloc_get(&q, &j) != 0)
		return 1;
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	struct sl_pbs_env_in in = {j, &sh, server};
	char **pbs = sl_pbs_env_build(&in);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		const char *home = pw && pw->pw_dir ? pw->pw_dir : "/";
		for (char **e = pbs; e && *e; e++)
			putenv(*e);
		setenv("PBS_ENVIRONMENT", "PBS_INTERACTIVE", 1);
		setenv("PBS_O_WORKDIR", spec->submit_dir ? spec->submit_dir : home, 1);
		if (chdir(home) != 0)
			(void)chdir("/");
		execl(shell, shell, (char *)NULL);
		fprintf(stderr, "qsub: %s: %s\n", shell, strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		fprintf(stderr, "qsub: cannot start %s: %s\n", shell, strerror(errno));
		status = 1 << 8; /* exited 1: the job ends failed */
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	srun_alloc_release(j->id, WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	if (pid > 0)
		printf("\nqsub: job %llu.%s completed\n", (unsigned long long)j->id, server);
	sl_job_free(j);
	sl_strv_free(pbs);
	return pid > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct sl_jobspec spec;
	struct sl_qsub_flags fl;
	struct sl_err err = SL_ERR_INIT;
	char *server = NULL, *id = NULL;
	uint64_t n = 0;
	int rc = 0, r;

	sl_pbs_version_exit(argc, argv);
	if (sl_qsub_parse(argc, argv, environ, &spec, &fl, &err) != 0) {
		rc = parse_failed(&fl, &err);
		goto out;
	}
	server = sl_pbs_server_name();
	if (fl.interactive && spec.array) { /* INTER_ARRAY, qsub.c:1129: a usage error */
		fprintf(stderr, "qsub: interactive and array job submission cannot be used together\n");
		fputs(sl_qsub_usage, stderr);
		rc = 2;
		goto out;
	}
	if (fl.interactive) {
		rc = interactive(&spec, server);
		goto out;
	}
	if ((r = sl_client_submit_once(&spec, &n, &err)) != 0) {
		rc = submit_failed(r, &err, server);
		goto out;
	}
	id = spec.array ? sl_pbs_array_jobid(n, -1, server) : sl_pbs_jobid(n, server);
	if (!fl.quiet)
		printf("%s\n", id);
	rc = fflush(stdout) == 0 ? 0 : 1;
	if (rc == 0 && fl.block)
		rc = block(n, id, spec.array != NULL);
out:
	free(id);
	free(server);
	sl_jobspec_clear(&spec);
	return rc;
}
