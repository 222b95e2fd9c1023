/* replay_load.c - traces for `sluice replay`, from sacct -P or SWF. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_load.h"
#include "job.h"
#include "replay.h"
#include "slurm_time.h"
#include "xalloc.h"

enum col { C_JOBID, C_USER, C_ACCOUNT, C_PARTITION, C_SUBMIT, C_START, C_END, C_ELAPSED,
	   C_TIMELIMIT, C_REQTRES, C_NNODES, C_NCPUS, C_STATE, C_NCOLS };

static const char *const col_names[C_NCOLS] = {
	"JobID", "User", "Account", "Partition", "Submit", "Start", "End", "Elapsed",
	"Timelimit", "ReqTRES", "NNodes", "NCPUS", "State",
};

struct loader {
	const char *path;
	size_t line;
	struct sl_replay_trace *t;
	int col[C_NCOLS];          /* column of each field, -1 absent */
	struct sl_err *err;
};

static int bad(struct loader *l, const char *what, const char *val)
{
	return sl_err_set(l->err, SL_EINVAL, "%s:%zu: %s \"%s\"", l->path, l->line, what, val);
}

static void skip(struct loader *l, const char *why)
{
	if (!l->t->first_skip) {
		char buf[512];
		snprintf(buf, sizeof(buf), "%s:%zu: %s", l->path, l->line, why);
		l->t->first_skip = sl_xstrdup(buf);
	}
	l->t->skipped++;
}

/* "16G", "2000M", "512K", "1T": Slurm's memory in TRES, to MiB. */
static int mem_mib(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	double mul = 1;
	switch (*end) {
	case 'K': mul = 1.0 / 1024; end++; break;
	case 'M': case '\0': mul = 1; if (*end) end++; break;
	case 'G': mul = 1024; end++; break;
	case 'T': mul = 1024.0 * 1024; end++; break;
	case 'P': mul = 1024.0 * 1024 * 1024; end++; break;
	default: return -1;
	}
	if (*end)
		return -1;
	*out = (int64_t)(v * mul + 0.999);
	return 0;
}

static int count(const char *s, int32_t *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 0 || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

/* ReqTRES: "billing=4,cpu=4,mem=16G,node=1,gres/gpu=2" (GPU types too:
 * "gres/gpu:a100=2"; the typed entry repeats the plain one, so only the
 * plain one counts). */
static int tres(struct loader *l, const char *s, struct sl_replay_job *j)
{
	char *dup = sl_xstrdup(s), *save = NULL, *tok;
	int rc = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			rc = bad(l, "ReqTRES entry without '='", tok);
			break;
		}
		*eq = '\0';
		const char *v = eq + 1;
		if (strcmp(tok, "cpu") == 0)
			rc = count(v, &j->cpus) ? bad(l, "ReqTRES cpu", v) : 0;
		else if (strcmp(tok, "node") == 0)
			rc = count(v, &j->nodes) ? bad(l, "ReqTRES node", v) : 0;
		else if (strcmp(tok, "mem") == 0)
			rc = mem_mib(v, &j->mem_mib) ? bad(l, "ReqTRES mem", v) : 0;
		else if (strcmp(tok, "gres/gpu") == 0)
			rc = count(v, &j->gpus) ? bad(l, "ReqTRES gres/gpu", v) : 0;
	}
	free(dup);
	return rc;
}

static int ts(struct loader *l, const char *what, const char *s, int64_t *ms)
{
	int64_t t;
	if (!*s || strcmp(s, "Unknown") == 0 || strcmp(s, "None") == 0) {
		*ms = -1;
		return 0;
	}
	if (sl_slurm_time_parse(s, 0, SL_TIME_PAST, &t, NULL) != 0)
		return bad(l, what, s);
	*ms = t * 1000;
	return 0;
}

static int header(struct loader *l, char **f, size_t n)
{
	for (int c = 0; c < C_NCOLS; c++)
		l->col[c] = -1;
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < C_NCOLS; c++)
			if (strcasecmp(f[i], col_names[c]) == 0)
				l->col[c] = (int)i;
	static const enum col need[] = {C_JOBID, C_PARTITION, C_SUBMIT, C_START};
	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
		if (l->col[need[k]] < 0)
			return bad(l, "the header lacks", col_names[need[k]]);
	if (l->col[C_END] < 0 && l->col[C_ELAPSED] < 0)
		return bad(l, "the header lacks", "End (or Elapsed)");
	if (l->col[C_REQTRES] < 0 && l->col[C_NCPUS] < 0)
		return bad(l, "the header lacks", "ReqTRES (or NCPUS)");
	return 0;
}

static const char *field(struct loader *l, char **f, size_t n, enum col c)
{
	return l->col[c] >= 0 && (size_t)l->col[c] < n ? f[l->col[c]] : "";
}

static int sacct_row(struct loader *l, char **f, size_t n)
{
	struct sl_replay_job j = {.nodes = 1, .cpus = 1};
	const char *id = field(l, f, n, C_JOBID);
	int64_t start, end = -1, lim;
	int rc;

	if (strchr(id, '.'))
		return 0; /* a step: its job's row holds what was asked */
	if ((rc = ts(l, "Submit", field(l, f, n, C_SUBMIT), &j.submit)) ||
	    (rc = ts(l, "Start", field(l, f, n, C_START), &start)) ||
	    (rc = ts(l, "End", field(l, f, n, C_END), &end)))
		return rc;
	if (j.submit < 0)
		return bad(l, "no submit time in", id);
	if (start < 0) {
		skip(l, "a job that never started: no run time to replay");
		return 0;
	}
	if (end >= start) {
		j.runtime = end - start;
	} else if (*field(l, f, n, C_ELAPSED)) {
		int64_t min;
		/* Elapsed has seconds, which limits round up: parse them here. */
		unsigned d = 0, h = 0, m = 0, s = 0;
		const char *e = field(l, f, n, C_ELAPSED);
		if (sscanf(e, "%u-%u:%u:%u", &d, &h, &m, &s) == 4 ||
		    (d = 0, sscanf(e, "%u:%u:%u", &h, &m, &s) == 3))
			j.runtime = ((((int64_t)d * 24 + h) * 60 + m) * 60 + s) * 1000;
		else if (sl_slurm_time_parse_limit(e, &min) == 0)
			j.runtime = min * 60000;
		else
			return bad(l, "Elapsed", e);
	} else {
		skip(l, "a job still running: no end time");
		return 0;
	}
	j.hist_start = start;
	const char *tl = field(l, f, n, C_TIMELIMIT);
	if (*tl && strcmp(tl, "UNLIMITED") != 0 && strcmp(tl, "Partition_Limit") != 0) {
		if (sl_slurm_time_parse_limit(tl, &lim) != 0)
			return bad(l, "Timelimit", tl);
		j.limit = lim == SL_TIME_INFINITE ? 0 : lim * 60000;
	}
	if (l->col[C_REQTRES] >= 0 && *field(l, f, n, C_REQTRES)) {
		if ((rc = tres(l, field(l, f, n, C_REQTRES), &j)))
			return rc;
	} else if (*field(l, f, n, C_NCPUS) && count(field(l, f, n, C_NCPUS), &j.cpus)) {
		return bad(l, "NCPUS", field(l, f, n, C_NCPUS));
	}
	if (*field(l, f, n, C_NNODES) && count(field(l, f, n, C_NNODES), &j.nodes))
		return bad(l, "NNodes", field(l, f, n, C_NNODES));
	if (j.nodes < 1)
		j.nodes = 1;
	j.user = sl_replay_trace_name(l->t, field(l, f, n, C_USER));
	j.account = sl_replay_trace_name(l->t, field(l, f, n, C_ACCOUNT));
	j.partition = sl_replay_trace_name(l->t, field(l, f, n, C_PARTITION));
	sl_replay_trace_add(l->t, &j);
	return 0;
}

/* SWF: 18 numbers per job; -1 = unknown. Times in seconds from the trace's
 * start. Every job gets one node (SWF counts processors only), the user
 * "uUID", no account and the partition "qQUEUE": a config without those
 * names replays them in the user's default account and the default
 * partition. */
static int swf_row(struct loader *l, char *line)
{
	double v[18];
	int n = 0;
	char *p = line, *end;
	while (n < 18) {
		errno = 0;
		v[n] = strtod(p, &end);
		if (end == p)
			break;
		p = end;
		n++;
	}
	if (n < 18)
		return bad(l, "an SWF line needs 18 fields, this has", line);
	if (v[3] < 0) {
		skip(l, "an SWF job without a run time");
		return 0;
	}
	struct sl_replay_job j = {.nodes = 1};
	char name[64];
	j.submit = (int64_t)(v[1] * 1000);
	j.runtime = (int64_t)(v[3] * 1000);
	j.hist_start = v[2] >= 0 ? j.submit + (int64_t)(v[2] * 1000) : -1;
	j.cpus = (int32_t)(v[7] > 0 ? v[7] : v[4] > 0 ? v[4] : 1);
	j.limit = v[8] > 0 ? (int64_t)(v[8] * 1000) : 0;
	if (v[9] > 0)
		j.mem_mib = (int64_t)(v[9] * j.cpus / 1024 + 0.999);
	snprintf(name, sizeof(name), "u%lld", (long long)v[11]);
	j.user = sl_replay_trace_name(l->t, name);
	j.account = sl_replay_trace_name(l->t, "");
	snprintf(name, sizeof(name), "q%lld", (long long)v[14]);
	j.partition = sl_replay_trace_name(l->t, name);
	sl_replay_trace_add(l->t, &j);
	return 0;
}

static size_t split(char *line, char **f, size_t cap)
{
	size_t n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < cap; p++)
		if (*p == '|') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

int sl_replay_load(const char *path, struct sl_replay_trace **out, struct sl_err *err)
{
	struct loader l = {.path = path, .err = err};
	FILE *fp = fopen(path, "r");
	char *line = NULL, *f[64];
	size_t cap = 0;
	ssize_t len;
	int rc = 0, kind = 0, have_header = 0; /* kind: 0 unknown, 1 sacct, 2 SWF */

	if (!fp)
		return sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	l.t = sl_replay_trace_new();
	while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
		l.line++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		char *s = line + strspn(line, " \t");
		if (*s == '\0')
			continue;
		if (*s == ';') {
			kind = kind ? kind : 2;
			continue;
		}
		if (kind == 0)
			kind = strchr(s, '|') ? 1 : 2;
		if (kind == 2) {
			rc = swf_row(&l, s);
			continue;
		}
		size_t n = split(s, f, 64);
		rc = have_header ? sacct_row(&l, f, n) : header(&l, f, n);
		have_header = 1;
	}
	free(line);
	fclose(fp);
	if (!rc && l.t->n == 0)
		rc = sl_err_set(err, SL_EINVAL, "%s: no job to replay%s%s", path,
				l.t->first_skip ? " (" : "", l.t->first_skip ? l.t->first_skip : "");
	if (rc) {
		sl_replay_trace_free(l.t);
		return rc;
	}
	*out = l.t;
	return 0;
}
