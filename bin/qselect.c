/* qselect.c - the ids of the PBS jobs that match: options through
 * compat/pbs_qopt (-u, -s, -q, -N, -A, -x, -H), one sl_client_query(), one
 * "N.server" per line, as OpenPBS's qselect prints pbs_selectjob()'s list
 * (src/cmds/qselect.c main()). Without -x finished jobs are left out. An
 * array is "N[].server" (compat/pbs_array.h); -J selects arrays only
 * (qselect.c:445), -T adds their subjobs "N[I].server" (its extend "T").
 * An array given with Torque's qsub -t is Torque's: its subjobs, each
 * with its own state and Job_Name, in place of "N[]", as Torque's
 * req_select() walks every job and summarises arrays for qstat alone
 * (batchtools matches them: qselect -u $USER -s EHRT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "pbs_array.h"
#include "pbs_job.h"
#include "pbs_qopt.h"

/* "a,b@host" holds name? */
static int listed(const char *list, const char *name)
{
	const char *p = list;

	while (p && *p && name) {
		size_t n = strcspn(p, ",@");
		if (n == strlen(name) && strncmp(p, name, n) == 0)
			return 1;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

static int selected(const struct sl_qselect_opts *o, const struct sl_job *j)
{
	char st = sl_pbs_state(j);
	size_t qn = o->queue ? strcspn(o->queue, "@") : 0;

	if ((strchr("FX", st) && !o->history) || (o->finished_only && st != 'F'))
		return 0;
	if (o->states && strchr(o->states, st) == NULL)
		return 0;
	if (o->users && !listed(o->users, j->user))
		return 0;
	if (qn > 0 && !(j->spec.partition && strlen(j->spec.partition) == qn &&
			strncmp(j->spec.partition, o->queue, qn) == 0))
		return 0;
	char name[288];
	if (o->name && strcmp(o->name, sl_pbs_job_name(j, name, sizeof(name))) != 0)
		return 0;
	if (o->project && (j->spec.wckey == NULL || strcmp(o->project, j->spec.wckey) != 0))
		return 0;
	return o->account == NULL || (j->spec.account && strcmp(o->account, j->spec.account) == 0);
}

int main(int argc, char **argv)
{
	struct sl_qselect_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobfilter f = {0}, h;
	struct sl_job **v = NULL, **more = NULL;
	struct sl_pbs_listing l;
	size_t n = 0, n_more = 0;
	char *server, id[160];
	int rc = 0;

	sl_pbs_version_exit(argc, argv);
	if (sl_qselect_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "qselect: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_qselect_usage, stderr);
		return fail.status;
	}
	server = sl_pbs_server_name();
	f.history = o.history;
	if (sl_client_query(&f, &v, &n, &err) != 0) {
		fprintf(stderr, "qselect: cannot connect to server %s (errno=%d)\n", server,
			SL_PBSE_SYSTEM);
		rc = sl_pbse_status(SL_PBSE_SYSTEM);
	} else if (!f.history && sl_pbs_arrays_filter(v, n, &h)) {
		/* an array's state needs its subjobs that ended long ago */
		if (sl_client_query(&h, &more, &n_more, &err) == 0)
			sl_pbs_arrays_merge(&v, &n, more, n_more);
		free(h.ids);
	}
	sl_pbs_listing_make(v, n, 1, o.arrays_only, &l);
	sl_pbs_listing_ending(&l, (int64_t)time(NULL));
	for (size_t i = 0; i < l.n; i++)
		if (sl_pbs_select_lists(l.v[i], o.subjobs) && selected(&o, l.v[i])) {
			sl_pbs_idstr(l.v[i], server, id, sizeof(id));
			printf("%s\n", id);
		}
	sl_pbs_listing_clear(&l);
	sl_job_free_array(v, n);
	free(server);
	return rc;
}
