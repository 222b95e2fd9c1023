/* qstat.c - PBS's status of jobs, queues and the server over the same job
 * record: options through compat/pbs_qopt, one sl_client_query() (and for
 * -Q the partitions too), layouts from compat/pbs_fmt.
 *
 * As OpenPBS's qstat (src/cmds/qstat.c main()): operands are job ids or
 * destinations, each looked at in turn; the header goes with the first
 * operand's output only; an unknown id prints "qstat: Unknown Job Id ID"
 * and a finished one without -x "qstat: ID Job has finished, use -x or -H
 * to obtain historical job information"; the exit status is the last
 * error's PBS number's low byte (153, 35). -f writes through compat/pbs_out
 * in -F's format (default, dsv, json).
 *
 * An array is one line "N[].server" (compat/pbs_array.h); -t adds its
 * subjobs "N[I].server" under it, -J leaves out the jobs that are not
 * arrays. Operands: "N", "N[]" (with -t its subjobs too), "N[I]" and
 * "N[A-B]"; a plain "N" never names an array, as PBS's ids differ ("N" vs
 * "N[]"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "buf.h"
#include "client.h"
#include "job_proj.h"
#include "pbs_array.h"
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "pbs_qopt.h"
#include "xalloc.h"

#define OUT_CAP (512u << 20)

struct run {
	const struct sl_qstat_opts *o;
	struct sl_pbs_view view;
	struct sl_job **all;  /* what the daemon sent: every subjob */
	size_t n_all;
	struct sl_pbs_listing list; /* what qstat lists (arrays made) */
	struct sl_job **jobs; /* list.v */
	size_t n;
	struct sl_buf *out;
	struct sl_pbs_out *full; /* -f's writer */
	int failed;   /* the last PBS error number */
	int header;   /* the header may still go out */
};

static int user_listed(const char *users, const char *user)
{
	const char *p = users;

	while (p && *p && user) {
		size_t n = strcspn(p, ",@");
		if (n == strlen(user) && strncmp(p, user, n) == 0)
			return 1;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

/* What a listing shows: -u, the states of -i -r -H, no history without -x. */
static int shown(const struct sl_qstat_opts *o, const struct sl_job *j)
{
	char st = sl_pbs_state(j);

	if (st == 'F' && !o->history)
		return 0;
	if (o->states && strchr(o->states, st) == NULL)
		return 0;
	return o->users == NULL || user_listed(o->users, j->user);
}

static void print_full(struct run *r, const struct sl_job *j)
{
	char *rem = sl_pbs_is_array(j) ? sl_pbs_array_remaining(r->all, r->n_all, j->id) : NULL;

	r->view.arr_remaining = rem;
	sl_qstat_full(r->full, &r->view, j);
	r->view.arr_remaining = NULL;
	free(rem);
}

static void print_jobs(struct run *r, struct sl_job **v, size_t n)
{
	if (r->o->full) {
		for (size_t i = 0; i < n; i++)
			print_full(r, v[i]);
	} else if (r->o->alt) {
		sl_qstat_alt(r->out, &r->view, v, n, r->header);
	} else {
		sl_qstat_default(r->out, &r->view, v, n, r->header);
	}
}

static void one_id(struct run *r, const char *operand)
{
	struct sl_pbs_sel sel;
	char *shown_id = NULL;
	int k = sl_pbs_operand_sel(operand, r->view.server, &sel, &shown_id);
	struct sl_job **v = sl_xcalloc(r->n + 1, sizeof(*v));
	const struct sl_job *top = NULL;
	size_t n = k == 0 ? sl_pbs_listing_find(&r->list, &sel, r->o->subjobs, v, &top) : 0;

	if (n == 0) {
		fprintf(stderr, "qstat: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID), shown_id);
		r->failed = SL_PBSE_UNKJOBID;
	} else if (top && sl_pbs_state(top) == 'F' && !r->o->history) {
		fprintf(stderr, "qstat: %s %s, use -x or -H to obtain historical job information\n",
			shown_id, sl_pbse_text(SL_PBSE_HISTJOBID));
		r->failed = SL_PBSE_HISTJOBID;
	} else {
		print_jobs(r, v, n);
	}
	free(v);
	free(shown_id);
}

/* A destination: "queue", "queue@server" or "@server". */
static void one_queue(struct run *r, const char *operand)
{
	size_t qn = strcspn(operand, "@"), m = 0;
	struct sl_job **v = sl_xcalloc(r->n + 1, sizeof(*v));

	int parent_shown = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct sl_job *j = r->jobs[i];
		int in_queue = qn == 0 || (j->spec.partition && strlen(j->spec.partition) == qn &&
					   strncmp(j->spec.partition, operand, qn) == 0);
		if (j->array_job_id != 0 && !sl_pbs_is_array(j)) {
			if (parent_shown && in_queue && r->o->subjobs) /* with its array */
				v[m++] = r->jobs[i];
			continue;
		}
		parent_shown = shown(r->o, j) && in_queue;
		if (parent_shown)
			v[m++] = r->jobs[i];
	}
	print_jobs(r, v, m);
	free(v);
}

static int is_jobid(const char *s)
{
	return *s >= '0' && *s <= '9';
}

/* -f asks for the environment too, which listings leave out, for
 * Variable_List: the daemon reads it back from its store for the jobs the
 * caller may see it of (their own; an operator's, all), one read per job. */
static int query(const struct run *r, const struct sl_jobfilter *f, struct sl_job ***v,
		 size_t *n, struct sl_err *err)
{
	struct sl_jobproj *p;
	int rc;

	if (!r->o->full)
		return sl_client_query(f, v, n, err);
	p = sl_jobproj_new();
	sl_jobproj_add_all(p);
	sl_jobproj_del(p, SL_JP_SPEC_script);
	rc = sl_client_query_proj(f, p, v, n, err);
	sl_jobproj_free(p);
	return rc;
}

/* The jobs f names, the arrays' subjobs that ended long ago merged in
 * (their array's state needs them), as the listing (subjobs always: "N[I]"
 * names one without -t). 0, or qstat's status when the server is away. */
static int fetch(struct run *r, struct sl_jobfilter *f)
{
	struct sl_jobfilter h;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **more = NULL;
	size_t n_more = 0;

	if (query(r, f, &r->all, &r->n_all, &err) != 0) {
		fprintf(stderr, "qstat: cannot connect to server %s (errno=%d)\n", r->view.server,
			SL_PBSE_SYSTEM);
		return 255; /* any_failed = the failed connection's -1 */
	}
	if (!f->history && sl_pbs_arrays_filter(r->all, r->n_all, &h)) {
		if (query(r, &h, &more, &n_more, &err) == 0)
			sl_pbs_arrays_merge(&r->all, &r->n_all, more, n_more);
		free(h.ids);
	}
	sl_pbs_listing_make(r->all, r->n_all, 1, r->o->arrays_only, &r->list);
	sl_pbs_listing_ending(&r->list, (int64_t)time(NULL));
	return 0;
}

static int jobs_mode(struct run *r)
{
	const struct sl_qstat_opts *o = r->o;
	struct sl_jobfilter f = {0};
	int any_id = 0, rc;

	for (int i = 0; i < o->n_operands; i++)
		any_id |= is_jobid(o->operands[i]);
	f.history = o->history || any_id; /* an id may name a finished job */
	if ((rc = fetch(r, &f)) != 0)
		return rc;
	r->jobs = r->list.v;
	r->n = r->list.n;
	if (o->n_operands == 0)
		one_queue(r, "");
	for (int i = 0; i < o->n_operands; i++) {
		if (is_jobid(o->operands[i]))
			one_id(r, o->operands[i]);
		else
			one_queue(r, o->operands[i]);
		r->header = 0; /* PBS prints it with the first operand only */
	}
	return sl_pbse_status(r->failed);
}

static int part_known(const struct sl_clusterinfo *ci, const char *name, size_t n)
{
	for (size_t i = 0; i < ci->nparts; i++)
		if (strlen(ci->parts[i].name) == n && strncmp(ci->parts[i].name, name, n) == 0)
			return 1;
	return 0;
}

/* -Q and -B: the partitions, and the jobs for their counts. */
static int queues_mode(struct run *r)
{
	const struct sl_qstat_opts *o = r->o;
	struct sl_clusterinfo *ci = NULL;
	struct sl_jobfilter f = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_pbs_counts all = {0}, *c;
	const char *dflt = NULL;

	if (sl_client_partitions(&ci, &err) != 0) {
		fprintf(stderr, "qstat: cannot connect to server %s (errno=%d)\n", r->view.server,
			SL_PBSE_SYSTEM);
		return 255;
	}
	if (fetch(r, &f) != 0) {
		sl_clusterinfo_free(ci);
		return 255;
	}
	/* PBS counts an array as its array job (Q, then B) and the subjobs
	 * it has made real, which are the running ones (create_subjob()). */
	c = sl_xcalloc(ci->nparts + 1, sizeof(*c));
	for (size_t i = 0; i < r->list.n; i++) {
		const struct sl_job *j = r->list.v[i];
		char st = sl_pbs_state(j);
		if (j->array_job_id != 0 && !sl_pbs_is_array(j) && st != 'R' && st != 'E')
			continue;
		sl_pbs_count(&all, j);
		for (size_t p = 0; p < ci->nparts; p++)
			if (j->spec.partition && strcmp(ci->parts[p].name, j->spec.partition) == 0)
				sl_pbs_count(&c[p], j);
	}
	for (size_t p = 0; p < ci->nparts; p++)
		if (ci->parts[p].is_default)
			dflt = ci->parts[p].name;
	if (o->mode == SL_QSTAT_SERVER) {
		sl_qstat_server(r->out, r->full, r->view.server, dflt, &all, 1);
	} else if (o->n_operands == 0) {
		sl_qstat_queues(r->out, r->full, ci, c, 1);
	} else {
		for (int i = 0; i < o->n_operands; i++) {
			const char *q = o->operands[i];
			size_t qn = strcspn(q, "@");
			struct sl_clusterinfo one = *ci;
			if (qn > 0 && !part_known(ci, q, qn)) {
				fprintf(stderr, "qstat: %s %.*s\n", sl_pbse_text(SL_PBSE_UNKQUE), (int)qn, q);
				r->failed = SL_PBSE_UNKQUE;
				continue;
			}
			for (size_t p = 0; p < ci->nparts; p++)
				if (qn == 0 || (strlen(ci->parts[p].name) == qn &&
						strncmp(ci->parts[p].name, q, qn) == 0)) {
					one.parts = &ci->parts[p];
					one.nparts = qn ? 1 : ci->nparts - p;
					sl_qstat_queues(r->out, r->full, &one, &c[p], r->header);
					r->header = 0;
					break;
				}
		}
	}
	free(c);
	sl_clusterinfo_free(ci);
	return sl_pbse_status(r->failed);
}

int main(int argc, char **argv)
{
	struct sl_qstat_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct run r = {.o = &o, .header = 1};
	char *server;
	int rc;

	sl_pbs_version_exit(argc, argv);
	if (sl_qstat_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "qstat: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_qstat_usage, stderr);
		return fail.status;
	}
	server = sl_pbs_server_name();
	r.view.server = server;
	r.view.nodes = o.nodes;
	r.view.comments = o.comments;
	r.view.one_line = o.one_line;
	r.view.wide = o.wide;
	r.view.percent = o.percent;
	r.out = sl_buf_new(OUT_CAP);
	r.view.now = (int64_t)time(NULL);
	if (o.full) {
		r.full = sl_pbs_out_new(r.out, (enum sl_pbs_outfmt)o.format, o.delim, r.view.now,
					PACKAGE_VERSION, server);
		/* -w: prt_attr()'s one_line (qstat.c:1507); -1: Torque's */
		if (o.one_line || o.wide)
			sl_pbs_out_unfolded(r.full);
	}
	rc = o.mode == SL_QSTAT_JOBS ? jobs_mode(&r) : queues_mode(&r);
	/* the document is closed with the server away too: OpenPBS prints
	 * its JSON root whatever happened (qstat.c:3321), a parseable one */
	if (r.full && sl_pbs_out_finish(r.full) != 0) {
		fprintf(stderr, "qstat: the listing is longer than %u MiB\n", OUT_CAP >> 20);
		rc = 1;
	}
	fwrite(sl_buf_str(r.out), 1, sl_buf_len(r.out), stdout);
	sl_pbs_out_free(r.full);
	sl_buf_free(r.out);
	sl_pbs_listing_clear(&r.list);
	sl_job_free_array(r.all, r.n_all);
	free(server);
	return rc;
}
