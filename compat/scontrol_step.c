/* scontrol_step.c - scontrol show step's records, as Slurm 22.05's
 * slurm_sprint_job_step_info prints them (scontrol_fmt.h). */
#include "scontrol_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "slurm_freq.h"
#include "slurm_tres.h"
#include "slurm_time.h"

/* Slurm's layout type names (slurm_step_layout.c) for -m's words: one
 * level by its name ("Block"), more as the first's letter and the rest's
 * names ("block:cyclic" is BCyclic, "cyclic:fcyclic" CFCyclic); "*" is
 * the default, block for the nodes and nothing below. */
static const char *level_name(const char *w, size_t n, int first_letter)
{
	static const struct {
		const char *word, *name, *letter;
	} levels[] = {
		{"block", "Block", "B"}, {"cyclic", "Cyclic", "C"}, {"fcyclic", "FCyclic", "F"},
		{"plane", "Plane", "P"}, {"arbitrary", "arbitrary task distribution", "A"},
	};
	for (size_t k = 0; k < sizeof(levels) / sizeof(levels[0]); k++)
		if (strlen(levels[k].word) == n && strncasecmp(w, levels[k].word, n) == 0)
			return first_letter ? levels[k].letter : levels[k].name;
	return NULL;
}

static void dist_name(const char *dist, char *buf, size_t len)
{
	const char *p = dist ? dist : "block", *w[3];
	size_t n[3], used = 0;
	int levels = 0;

	while (levels < 3) {
		w[levels] = p;
		n[levels] = strcspn(p, ":,="); /* "plane=4" is Plane */
		if (level_name(p, n[levels], 0) == NULL && levels > 0)
			break; /* "*" or what Slurm leaves at its default */
		levels++;
		p += strcspn(p, ":,");
		if (*p != ':')
			break;
		p++;
	}
	buf[0] = '\0';
	for (int i = 0; i < levels; i++) {
		const char *s = level_name(w[i], n[i], i == 0 && levels > 1);
		if (s == NULL)
			s = i == 0 && levels > 1 ? "B" : "Block";
		used += (size_t)snprintf(buf + used, len > used ? len - used : 0, "%s", s);
	}
}

static void head(struct sl_buf *b, const struct sl_job *j, const char *step, int64_t start,
		 int64_t limit, const char *sep)
{
	char t[64], l[64];
	sl_slurm_time_fmt_ts(start, t, sizeof(t));
	if (limit > 0)
		sl_slurm_time_fmt_limit_sacct(limit, l, sizeof(l));
	else
		snprintf(l, sizeof(l), "UNLIMITED");
	char base[96];
	sl_job_id_text(j, base, sizeof(base));
	sl_buf_addf(b, "StepId=%s.%s", base, step);
	sl_buf_addf(b, " UserId=%u StartTime=%s TimeLimit=%s%sState=", (unsigned)j->uid, t, l,
		    sep);
}

void sl_scontrol_step(struct sl_buf *b, const struct sl_job *j, const struct sl_step *s,
		      int oneline)
{
	const char *sep = oneline ? " " : "\n   ";
	char id[16], m[32], freq[160], dist[64];
	struct sl_cpu_freq f;

	snprintf(id, sizeof(id), "%u", s->step_id);
	head(b, j, id, s->start_time, s->time_limit, sep);
	sl_buf_addf(b, "%s Partition=%s NodeList=%s", sl_jobstate_name(s->state),
		    j->spec.partition ? j->spec.partition : "", s->nodelist ? s->nodelist : "");
	sl_buf_addf(b, "%sNodes=%d CPUs=%d Tasks=%d Name=%s Network=(null)", sep, s->nnodes, s->cpus,
		    s->ntasks, s->name ? s->name : "");
	sl_buf_addf(b, "%sTRES=cpu=%d", sep, s->cpus);
	if (s->mem > 0) {
		sl_slurm_mem_fmt(s->mem * (s->nnodes > 0 ? s->nnodes : 1), 0, m, sizeof(m));
		sl_buf_addf(b, ",mem=%s", m);
	}
	sl_buf_addf(b, ",node=%d%sResvPorts=(null)%s", s->nnodes, sep, sep);
	if (s->cpu_freq != NULL && sl_slurm_cpu_freq_parse(s->cpu_freq, &f, NULL) == 0) {
		sl_slurm_cpu_freq_show(&f, freq, sizeof(freq));
		sl_buf_addstr(b, freq);
	} else {
		sl_buf_addstr(b, "CPUFreqReq=Default");
	}
	dist_name(s->dist, dist, sizeof(dist));
	sl_buf_addf(b, " Dist=%s%sSrunHost:Pid=%s:%d%s", dist, sep,
		    s->srun_host ? s->srun_host : "(null)", (int)s->pid, oneline ? "\n" : "\n\n");
}

void sl_scontrol_batch_step(struct sl_buf *b, const struct sl_job *j, int oneline)
{
	const char *sep = oneline ? " " : "\n   ";
	char host[256];

	sl_hostlist_first(j->nodelist, host, sizeof(host));
	head(b, j, "batch", j->start_time, 0, sep);
	sl_buf_addf(b, "%s Partition=%s NodeList=%s", sl_jobstate_name(j->state),
		    j->spec.partition ? j->spec.partition : "", host);
	sl_buf_addf(b, "%sNodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)%sTRES=(null)%s"
		    "ResvPorts=(null)%sCPUFreqReq=Default%sSrunHost:Pid=(null):0%s",
		    sep, sep, sep, sep, sep, oneline ? "\n" : "\n\n");
}
