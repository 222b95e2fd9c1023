/* tracejob.c - OpenPBS's tracejob over the same job record: options
 * through compat/pbs_qopt, one sl_client_query() of the jobs the operands
 * name (history too, as qstat -x reads it), each job's lines rebuilt and
 * laid out by compat/pbs_tracejob (what the server, scheduler, MOM and
 * accounting logs would hold: Sluice keeps no such logs). As OpenPBS's
 * src/tools/tracejob.c main(): the usage goes to stdout; each operand is
 * traced in turn ("\nJob: ID\n\n" and its lines), one it finds nothing of
 * is told on stderr, and then tracejob exits 1. The accounting lines are
 * root's, as the accounting log is under server_priv; MOM's are of the
 * jobs that ran on this host. */
#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "pbs_array.h"
#include "pbs_job.h"
#include "pbs_qopt.h"
#include "pbs_tracejob.h"
#include "xalloc.h"

#define OUT_CAP (64u << 20)

/* get_cols(): the terminal's width, 0 (no wrapping) when stdout is none. */
static int columns(void)
{
	struct winsize ws;

	return ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 ? ws.ws_col : 0;
}

static int user_name(int uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwuid_r((uid_t)uid, &pw, tmp, sizeof(tmp), &res) != 0 || res == NULL)
		return -1;
	snprintf(buf, len, "%s", res->pw_name);
	return 0;
}

/* The jobs the operands' sequence numbers name ("12", "12[]", "12[3].s"):
 * an id selects an array's subjobs too. f->ids: caller frees. */
static void ids_of(const struct sl_tracejob_opts *o, struct sl_jobfilter *f)
{
	f->ids = sl_xcalloc((size_t)o->n_operands + 1, sizeof(*f->ids));
	for (int i = 0; i < o->n_operands; i++)
		if (isdigit((unsigned char)o->operands[i][0]))
			f->ids[f->n_ids++] = strtoull(o->operands[i], NULL, 10);
	f->history = 1;
}

static char *this_host(void)
{
	char h[256] = "";

	if (gethostname(h, sizeof(h) - 1) != 0)
		h[0] = '\0';
	h[strcspn(h, ".")] = '\0';
	return sl_xstrdup(h);
}

int main(int argc, char **argv)
{
	struct sl_tracejob_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobfilter f = {0};
	struct sl_job **all = NULL;
	struct sl_pbs_listing l = {0};
	struct sl_tracejob_view v = {.user_name = user_name};
	struct sl_buf *out = sl_buf_new(OUT_CAP), *msg = sl_buf_new(1 << 20);
	size_t n = 0;
	char *server = NULL, *host = NULL, *prog = strrchr(argv[0], '/');
	int rc = 0;

	sl_pbs_version_exit(argc, argv);
	if (sl_tracejob_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "tracejob: %s\n", err.msg);
		if (fail.usage) {
			sl_tracejob_usage(out, prog ? prog + 1 : argv[0]);
			fputs(sl_buf_str(out), stdout);
		}
		rc = fail.status;
		goto out;
	}
	server = sl_pbs_server_name();
	host = this_host();
	ids_of(&o, &f);
	if (f.n_ids > 0 && sl_client_query(&f, &all, &n, &err) != 0) {
		fprintf(stderr, "tracejob: cannot connect to server %s (errno=%d)\n", server,
			SL_PBSE_SYSTEM);
		rc = 1;
		goto out;
	}
	sl_pbs_listing_make(all, n, 1, 0, &l);
	v.server = server;
	v.host = host;
	v.accounting = geteuid() == 0;
	v.now = (int64_t)time(NULL);
	if (o.width == -1) /* main()'s test: another negative width is a word a line */
		o.width = columns();
	for (int i = 0; i < o.n_operands; i++) {
		const struct sl_job *j = sl_tracejob_find(l.v, l.n, server, o.operands[i]);
		struct sl_tracejob *t = j ? sl_tracejob_new(&v, j) : NULL;
		if (t == NULL || sl_tracejob_print(t, &o, o.width, v.now, out) == 0) {
			/* main() prints as it goes: what came before goes first */
			fputs(sl_buf_str(out), stdout);
			fflush(stdout);
			sl_buf_reset(out);
			sl_tracejob_unknown(msg, o.operands[i], server, o.days);
			fputs(sl_buf_str(msg), stderr);
			sl_buf_reset(msg);
			rc = 1;
		}
		sl_tracejob_free(t);
	}
	fputs(sl_buf_str(out), stdout);
out:
	sl_pbs_listing_clear(&l);
	sl_job_free_array(all, n);
	free(f.ids);
	free(server);
	free(host);
	sl_buf_free(out);
	sl_buf_free(msg);
	return rc;
}
