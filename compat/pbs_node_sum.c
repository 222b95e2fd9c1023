/* pbs_node_sum.c - pbsnodes -S and -Sj: a node on one line, as OpenPBS's
 * prt_node_summary() (src/cmds/pbsnodes.c:293-638) prints it from the
 * node's attributes. -S: state, OS, hardware, host, queue, the memory,
 * ncpus, nmics and ngpus available, the comment; -Sj: the node's jobs
 * (run: each job once; susp: always 0, as prt_node_summary() never counts
 * one) and each resource as free/total, free being resources_available
 * less resources_assigned. Memory is scaled to at most three digits
 * (1024 to the next suffix letter, rounding up by what the remainder
 * adds); a value not there is "--", a resource 0. */
#include "pbs_node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Field widths (pbsnodes.c:101-118) */
enum {
	NODE_NAME = 15, NODE_STATE = 15, NODE_OS = 8, NODE_HARDW = 8, NODE_HOST = 15,
	QUEUE = 10, NCPUS = 7, MEM = 8, NMIC = 7, NGPUS = 7, NJOBS = 6, RUNNING_JOBS = 5,
	SUSP_JOBS = 6, NCPUS_FT = 7, MEM_FT = 12, NMIC_FT = 7, NGPUS_FT = 7,
};

struct summary {
	const char *name, *os, *hardware, *host, *queue, *comment;
	char *state;            /* the first of its states, or all (-L) */
	char mem[50], ncpus[20], nmics[20], ngpus[20];
	long run;               /* njobs too: no job is counted suspended */
	char *jobs;             /* the ids joined by ',', or NULL ("--") */
};

static const char *or_dashes(const char *s)
{
	return s ? s : "--";
}

/* The suffix's power of 1024: k 1, m 2, g 3, t 4, else (bytes, words) 0. */
static int prefix_of(char c)
{
	static const char letters[] = "kmgt";
	const char *p = c ? strchr(letters, c) : NULL;
	return p ? (int)(p - letters) + 1 : 0;
}

/* A size past 999 in the next unit up, rounded as pbsnodes rounds it. */
static long scale(long v, int *prefix)
{
	while (v > 999) {
		v = ((v % 1024) + v) >> 10;
		(*prefix)++;
	}
	return v;
}

static char suffix(int prefix)
{
	static const char letters[] = " kmgtp?";
	return letters[prefix < 0 ? 0 : prefix > 6 ? 6 : prefix];
}

/* mem_info: "TOTAL" or, with -j, "FREE/TOTAL", each with its unit. The
 * assigned memory is first brought to the total's unit (up: rounded as
 * scale() rounds; down: times 1024). */
static void mem_info(struct summary *s, const char *total_s, const char *assigned_s, int jobs)
{
	char *pc;
	long total = strtol(total_s, &pc, 10), avail = 0;
	int pt = prefix_of(*pc), pa, pav = pt;

	if (jobs && assigned_s) {
		long assigned = strtol(assigned_s, &pc, 10);
		for (pa = prefix_of(*pc); pa != pt;) {
			if (pa < pt) {
				assigned = ((assigned % 1024) + assigned) >> 10;
				pa++;
			} else {
				assigned <<= 10;
				pa--;
			}
		}
		avail = scale(total - assigned, &pav);
	}
	total = scale(total, &pt);
	if (jobs)
		snprintf(s->mem, sizeof(s->mem), "%ld%cb/%ld%cb", avail, suffix(pav), total,
			 suffix(pt));
	else
		snprintf(s->mem, sizeof(s->mem), "%ld%cb", total, suffix(pt));
}

/* ncpus_info, nmic_info, ngpus_info: "TOTAL" or "FREE/TOTAL". */
static void count_info(char *buf, size_t len, const char *total_s, const char *assigned_s,
		       int jobs)
{
	long total = total_s ? atol(total_s) : 0, assigned = assigned_s ? atol(assigned_s) : 0;

	if (jobs)
		snprintf(buf, len, "%ld/%ld", total - assigned, total);
	else
		snprintf(buf, len, "%ld", total);
}

/* The jobs column: "ID/CPU, ..." as its ids, a job once for its run of
 * CPUs (and not again when it is the first), in the default layout
 * without ".server" when server is the job's. */
static void jobs_info(struct summary *s, const char *value, const char *server, int cut)
{
	char *copy = sl_xstrdup(value), *save = NULL, *prev = "";
	struct sl_buf *b = sl_buf_new(strlen(value) + 1);

	s->run = 1;
	for (char *id = strtok_r(copy, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
		char *dot;
		id[strcspn(id, "/")] = '\0';
		if (cut && (dot = strchr(id, '.')) != NULL && strcmp(dot + 1, server) == 0)
			*dot = '\0';
		if (sl_buf_len(b) == 0) {
			sl_buf_addstr(b, id);
		} else if (strcmp(id, prev) != 0 && strcmp(id, sl_buf_str(b)) != 0) {
			sl_buf_addc(b, ',');
			sl_buf_addstr(b, id);
			s->run++;
		}
		prev = id;
	}
	s->jobs = sl_buf_steal(b);
	sl_buf_free(b);
	free(copy);
}

static void summarize(struct summary *s, const struct sl_pbsnodes_view *v,
		      const struct sl_pbs_node *nd)
{
	static const char *const av = "resources_available", *const as = "resources_assigned";
	const char *state = sl_pbs_node_get(nd, "state", NULL), *mem, *jobs;
	int j = v->jobs;

	memset(s, 0, sizeof(*s));
	s->name = sl_pbs_node_name(nd);
	s->os = or_dashes(sl_pbs_node_get(nd, av, "OS"));
	s->hardware = or_dashes(sl_pbs_node_get(nd, av, "hardware"));
	s->host = or_dashes(sl_pbs_node_get(nd, av, "host"));
	s->queue = or_dashes(sl_pbs_node_get(nd, "queue", NULL));
	s->comment = or_dashes(sl_pbs_node_get(nd, "comment", NULL));
	s->state = sl_xstrdup(or_dashes(state));
	if (state && !v->wide) { /* strtok(state, ","): its first */
		char *save = NULL, *first = strtok_r(s->state, ",", &save);
		memmove(s->state, first ? first : "", strlen(first ? first : "") + 1);
	}
	snprintf(s->mem, sizeof(s->mem), j ? "0kb/0kb" : "0kb");
	if ((mem = sl_pbs_node_get(nd, av, "mem")) != NULL)
		mem_info(s, mem, sl_pbs_node_get(nd, as, "mem"), j);
	count_info(s->ncpus, sizeof(s->ncpus), sl_pbs_node_get(nd, av, "ncpus"),
		   sl_pbs_node_get(nd, as, "ncpus"), j);
	count_info(s->nmics, sizeof(s->nmics), sl_pbs_node_get(nd, av, "nmics"),
		   sl_pbs_node_get(nd, as, "nmics"), j);
	count_info(s->ngpus, sizeof(s->ngpus), sl_pbs_node_get(nd, av, "ngpus"),
		   sl_pbs_node_get(nd, as, "ngpus"), j);
	if (j && (jobs = sl_pbs_node_get(nd, "jobs", NULL)) != NULL)
		jobs_info(s, jobs, v->server ? v->server : "", v->fmt == SL_PBS_OUT_DEFAULT);
}

static void header(struct sl_buf *b, int jobs)
{
	if (jobs)
		sl_buf_addstr(b, "                                                        mem       ncpus   nmics   ngpus\n"
				 "vnode           state           njobs   run   susp      f/t        f/t     f/t     f/t   jobs\n"
				 "--------------- --------------- ------ ----- ------ ------------ ------- ------- ------- -------\n");
	else
		sl_buf_addstr(b, "vnode           state           OS       hardware host            queue        mem     ncpus   nmics   ngpus  comment\n"
				 "--------------- --------------- -------- -------- --------------- ---------- -------- ------- ------- ------- ---------\n");
}

/* The default layout: columns cut to their width, or (-L) not: a
 * negative precision is none. */
static void line_default(struct sl_buf *b, const struct summary *s, int jobs, int wide)
{
#define CUT(width) (wide ? -1 : (width))
	if (jobs) {
		sl_buf_addf(b, "%-*.*s %-*.*s %*ld %*ld %*ld %*.*s %*.*s %*.*s %*.*s %s\n",
			    NODE_NAME, CUT(NODE_NAME), s->name, NODE_STATE, CUT(NODE_STATE), s->state,
			    NJOBS, s->run, RUNNING_JOBS, s->run, SUSP_JOBS, 0L, MEM_FT, CUT(MEM_FT),
			    s->mem, NCPUS_FT, CUT(NCPUS_FT), s->ncpus, NMIC_FT, CUT(NMIC_FT), s->nmics,
			    NGPUS_FT, CUT(NGPUS_FT), s->ngpus, s->jobs ? s->jobs : "--");
		return;
	}
	sl_buf_addf(b, "%-*.*s %-*.*s %-*.*s %-*.*s %-*.*s %-*.*s %*.*s %*.*s %*.*s %*.*s ",
		    NODE_NAME, CUT(NODE_NAME), s->name, NODE_STATE, CUT(NODE_STATE), s->state,
		    NODE_OS, CUT(NODE_OS), s->os, NODE_HARDW, CUT(NODE_HARDW), s->hardware,
		    NODE_HOST, CUT(NODE_HOST), s->host, QUEUE, CUT(QUEUE), s->queue, MEM, CUT(MEM),
		    s->mem, NCPUS, CUT(NCPUS), s->ncpus, NMIC, CUT(NMIC), s->nmics, NGPUS,
		    CUT(NGPUS), s->ngpus);
#undef CUT
	sl_pbs_out_shown(b, s->comment);
	sl_buf_addc(b, '\n');
}

static void line_dsv(struct sl_buf *b, const struct summary *s, int jobs, const char *d)
{
	if (jobs) {
		sl_buf_addf(b, "vnode=%s%sstate=%s%snjobs=%ld%srun=%ld%ssusp=%d%smem(f/t)=%s%s"
			    "ncpus(f/t)=%s%snmics(f/t)=%s%sngpus(f/t)=%s%sjobs=%s\n",
			    s->name, d, s->state, d, s->run, d, s->run, d, 0, d, s->mem, d, s->ncpus,
			    d, s->nmics, d, s->ngpus, d, s->jobs ? s->jobs : "--");
		return;
	}
	sl_buf_addf(b, "vnode=%s%sstate=%s%sOS=%s%shardware=%s%shost=%s%squeue=%s%smem=%s%s"
		    "ncpus=%s%snmics=%s%sngpus=%s%scomment=",
		    s->name, d, s->state, d, s->os, d, s->hardware, d, s->host, d, s->queue, d,
		    s->mem, d, s->ncpus, d, s->nmics, d, s->ngpus, d);
	sl_pbs_out_shown(b, s->comment);
	sl_buf_addc(b, '\n');
}

/* json: typed members, whatever the text (State a string, counts numbers,
 * the -S resources numbers from their text, as atol() reads it). */
static void line_json(struct sl_pbs_out *o, const struct summary *s, int jobs)
{
	sl_pbs_out_begin(o, "Node", s->name);
	sl_pbs_out_str(o, "State", s->state);
	if (jobs) {
		char **ids = NULL;
		size_t n = 0;
		if (s->jobs) { /* the column split at its commas */
			char *copy = sl_xstrdup(s->jobs), *save = NULL;
			ids = sl_xcalloc(strlen(s->jobs) + 1, sizeof(*ids));
			for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
				ids[n++] = sl_xstrdup(t);
			free(copy);
		}
		sl_pbs_out_num(o, "Total Jobs", (double)s->run);
		sl_pbs_out_num(o, "Running Jobs", (double)s->run);
		sl_pbs_out_num(o, "Suspended Jobs", 0);
		sl_pbs_out_str(o, "mem f/t", s->mem);
		sl_pbs_out_str(o, "ncpus f/t", s->ncpus);
		sl_pbs_out_str(o, "nmics f/t", s->nmics);
		sl_pbs_out_str(o, "ngpus f/t", s->ngpus);
		sl_pbs_out_strv(o, "jobs", ids, n);
		for (size_t i = 0; i < n; i++)
			free(ids[i]);
		free(ids);
	} else {
		sl_pbs_out_str(o, "OS", s->os);
		sl_pbs_out_str(o, "hardware", s->hardware);
		sl_pbs_out_str(o, "host", s->host);
		sl_pbs_out_str(o, "queue", s->queue);
		sl_pbs_out_str(o, "Memory", s->mem);
		sl_pbs_out_num(o, "ncpus", (double)atol(s->ncpus));
		sl_pbs_out_num(o, "nmics", (double)atol(s->nmics));
		sl_pbs_out_num(o, "ngpus", (double)atol(s->ngpus));
		sl_pbs_out_str(o, "comment", s->comment);
	}
	sl_pbs_out_end(o);
}

void sl_pbsnodes_summary(struct sl_buf *b, struct sl_pbs_out *o, struct sl_pbsnodes_view *v,
			 const struct sl_pbs_node *nd)
{
	struct summary s;

	if (v->fmt == SL_PBS_OUT_DEFAULT && !v->headed) {
		header(b, v->jobs);
		v->headed = 1;
	}
	summarize(&s, v, nd);
	if (v->fmt == SL_PBS_OUT_JSON)
		line_json(o, &s, v->jobs);
	else if (v->fmt == SL_PBS_OUT_DSV)
		line_dsv(b, &s, v->jobs, v->delim ? v->delim : "|");
	else
		line_default(b, &s, v->jobs, v->wide);
	free(s.state);
	free(s.jobs);
}
