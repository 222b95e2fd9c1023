/* scontrol_job.c - `scontrol show job` as Slurm 22.05 prints it: the record
 * in Key=Value lines indented by three spaces (or one line with -o), with
 * -d's extra lines. The times follow Slurm's rules: a job waiting for its
 * begin time shows that time as its StartTime; time suspended is not run
 * time and moves the expected end. */
#include "scontrol_fmt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prio.h"
#include "script.h"
#include "slurm_freq.h"
#include "slurm_opt.h"
#include "slurm_pattern.h"
#include "slurm_time.h"
#include "xalloc.h"

static void ts(int64_t t, char *buf, size_t len)
{
	sl_slurm_time_fmt_ts(t, buf, len); /* 0 -> "Unknown" */
}

/* Slurm's convert_num_unit(CONVERT_NUM_UNIT_EXACT) of MiB: "0", "4000M",
 * "1.50G", "32G". */
static void mem(int64_t mib, char *buf, size_t len)
{
	static const char unit[] = "MGTP";
	double num = (double)mib;
	int u = 0;

	if (mib == 0) {
		snprintf(buf, len, "0");
		return;
	}
	while (num >= 1024 && u < 3 && (uint64_t)num % 512 == 0) {
		num /= 1024;
		u++;
	}
	if ((double)(uint64_t)num == num)
		snprintf(buf, len, "%llu%c", (unsigned long long)num, unit[u]);
	else
		snprintf(buf, len, "%.2f%c", num, unit[u]);
}

/* Output paths as scontrol shows them (Slurm's _fname_format). */
static void outpath(const struct sl_job *j, const char *pat, struct sl_buf *b)
{
	struct sl_pattern_ctx x = {.job_id = j->id, .array_task_id = SL_PATTERN_TASK(j),
				   .array_job_id = j->array_job_id,
				   .job_name = j->spec.name ? j->spec.name : "",
				   .user = j->user ? j->user : "",
				   .work_dir = j->spec.work_dir ? j->spec.work_dir : ""};
	char *p = sl_slurm_pattern_scontrol(pat ? pat : "slurm-%j.out", &x);

	sl_buf_addstr(b, p);
	free(p);
}


/* StartTime and EndTime: what happened, else what is expected (a begin
 * time; an end by the time limit, moved by suspensions). */
static void start_end(const struct sl_job *j, int64_t now, int64_t *start, int64_t *end)
{
	/* the enforced seconds (a qsub job's walltime), where TimeLimit= shows
	 * Slurm's minutes */
	int64_t lim = j->spec.time_limit >= 0 ? sl_jobspec_limit_secs(&j->spec) : -1;

	*start = j->start_time;
	*end = j->end_time;
	if (*start == 0 && j->state == SL_JOB_PENDING && j->eligible_time > now)
		*start = j->eligible_time;
	if (*end == 0 && *start != 0 && lim >= 0)
		*end = (j->suspend_time ? j->suspend_time - j->pre_suspend : *start) + lim;
}

/* Slurm prints a reason of several words with '_' for ' '. */
/* White space as '_', as Slurm writes a reason "for easier parsing". */
static void reason(struct sl_buf *b, const char *r)
{
	for (r = r ? r : "None"; *r; r++)
		sl_buf_addc(b, isspace((unsigned char)*r) ? '_' : *r);
}

/* Identity, state and times: the record's first half. */
static void show_head(const struct sl_job *j, int64_t now, const char *sep, unsigned flags,
		      struct sl_buf *b)
{
	char t1[64], t2[64], t3[64];
	/* a pending job's StartTime is its expected start (h_query.c) */
	int started = j->start_time != 0 && j->state != SL_JOB_PENDING;
	int held = j->state == SL_JOB_PENDING && j->spec.hold;
	int64_t start, end;

	start_end(j, now, &start, &end);
	if (j->array_tasks != NULL) /* pending tasks, as Slurm's meta record N */
		sl_buf_addf(b, "JobId=%llu ArrayJobId=%llu ArrayTaskId=%s ",
			    (unsigned long long)j->array_job_id, (unsigned long long)j->array_job_id,
			    j->array_tasks);
	else if (j->array_job_id != 0)
		sl_buf_addf(b, "JobId=%llu ArrayJobId=%llu ArrayTaskId=%d ",
			    (unsigned long long)sl_job_slurm_id(j),
			    (unsigned long long)j->array_job_id, j->array_task_id);
	else
		sl_buf_addf(b, "JobId=%llu ", (unsigned long long)j->id);
	if (j->array_job_id != 0 && j->array_throttle > 0)
		sl_buf_addf(b, "ArrayTaskThrottle=%d ", j->array_throttle);
	sl_buf_addf(b, "JobName=%s", j->spec.name ? j->spec.name : "");
	sl_buf_addf(b, "%sUserId=%s(%u) GroupId=%s(%u) MCS_label=N/A", sep, j->user ? j->user : "",
		    (unsigned)j->uid, j->group ? j->group : "", (unsigned)j->gid);
	sl_buf_addf(b, "%sPriority=%lld Nice=%d Account=%s QOS=%s", sep, (long long)sl_prio_slurm(j),
		    j->spec.nice, j->spec.account ? j->spec.account : "(null)",
		    j->spec.qos ? j->spec.qos : "(null)");
	if (sl_job_past_limit(j, now)) { /* being ended: TIMEOUT|COMPLETING */
		sl_buf_addf(b, "%sJobState=COMPLETING Reason=", sep);
		reason(b, "TimeLimit");
	} else {
		sl_buf_addf(b, "%sJobState=%s Reason=", sep, sl_jobstate_name(j->state));
		reason(b, j->reason);
	}
	sl_buf_addf(b, " Dependency=%s", j->dependency ? j->dependency : "(null)");
	/* Sluice's admission view (Kueue): where the job waits and why, in the
	 * engine's own words, spaces as '_' like Slurm's Reason, so that a
	 * parser splitting Key=Value pairs on blanks (scontrol -o) finds only
	 * pairs. */
	if (j->cluster_queue != NULL || j->queue_pos > 0) {
		sl_buf_addf(b, "%sClusterQueue=%s", sep, j->cluster_queue ? j->cluster_queue : "(null)");
		if (j->queue_pos > 0)
			sl_buf_addf(b, " QueuePosition=%d", j->queue_pos);
		if (j->flavors != NULL)
			sl_buf_addf(b, " Flavors=%s", j->flavors);
		if (j->reason_text != NULL) {
			sl_buf_addstr(b, " PendingReason=");
			reason(b, j->reason_text);
		}
	} else if (j->reason_text != NULL) { /* the gates' (gates.c), or an end's */
		sl_buf_addf(b, "%sPendingReason=", sep);
		reason(b, j->reason_text);
	}
	sl_buf_addf(b, "%sRequeue=%d Restarts=%d BatchFlag=%d Reboot=0 ExitCode=%d:%d", sep,
		    j->spec.requeue, j->attempt, !j->spec.interactive, j->exit_code, j->exit_signal);
	if (flags & SL_SCONTROL_DETAIL)
		sl_buf_addf(b, "%sDerivedExitCode=0:0", sep);
	sl_slurm_time_fmt_elapsed_sacct(sl_job_run_secs(j, now), t1, sizeof(t1));
	/* no --time: the partition's limit, UNLIMITED in Sluice's model */
	sl_slurm_time_fmt_limit_sacct(j->spec.time_limit == SL_TIME_UNSET ? SL_TIME_INFINITE
								    : j->spec.time_limit, t2, sizeof(t2));
	/* Slurm gives a --deadline job without --time a TimeMin of one minute */
	sl_buf_addf(b, "%sRunTime=%s TimeLimit=%s TimeMin=", sep, t1, t2);
	if (j->spec.time_min > 0 || j->spec.time_min == SL_TIME_INFINITE) {
		sl_slurm_time_fmt_limit_sacct(j->spec.time_min, t2, sizeof(t2));
		sl_buf_addstr(b, t2);
	} else {
		sl_buf_addstr(b, j->spec.deadline && j->spec.time_limit == SL_TIME_UNSET ? "00:01:00"
											    : "N/A");
	}
	ts(j->submit_time, t1, sizeof(t1));
	ts(j->eligible_time, t2, sizeof(t2));
	sl_buf_addf(b, "%sSubmitTime=%s EligibleTime=%s", sep, t1, t2);
	sl_buf_addf(b, "%sAccrueTime=%s", sep, held ? "Unknown" : t2);
	ts(start, t2, sizeof(t2));
	ts(end, t3, sizeof(t3));
	sl_buf_addf(b, "%sStartTime=%s EndTime=%s Deadline=", sep, t2, t3);
	if (j->spec.deadline) {
		ts(j->spec.deadline, t3, sizeof(t3));
		sl_buf_addstr(b, t3);
	} else {
		sl_buf_addstr(b, "N/A");
	}
	ts(j->suspend_time, t3, sizeof(t3));
	sl_buf_addf(b, "%sSuspendTime=%s SecsPreSuspend=%lld LastSchedEval=%s Scheduler=Main", sep,
		    j->suspend_time ? t3 : "None", (long long)j->pre_suspend, started ? t2 : t1);
	sl_buf_addf(b, "%sPartition=%s AllocNode:Sid=%s:%d", sep, j->spec.partition ? j->spec.partition : "",
		    j->spec.submit_host ? j->spec.submit_host : "localhost", j->spec.submit_sid);
	sl_buf_addf(b, "%sReqNodeList=%s ExcNodeList=%s", sep,
		    j->spec.nodelist ? j->spec.nodelist : "(null)",
		    j->spec.exclude ? j->spec.exclude : "(null)");
	sl_buf_addf(b, "%sNodeList=%s", sep, j->nodelist ? j->nodelist : "");
	if (started && j->nodelist) {
		size_t k = strcspn(j->nodelist, "[,");
		sl_buf_addf(b, "%sBatchHost=%.*s", sep, (int)k, j->nodelist);
		if (j->nodelist[k] == '[')
			sl_buf_addf(b, "%.*s", (int)strcspn(j->nodelist + k + 1, "-,]"), j->nodelist + k + 1);
	}
}

/* -d, for a job that holds nodes: what each node gave it. Sluice does not
 * pin CPUs: the ids are the first ones. */
static void show_alloc(const struct sl_job *j, const struct sl_jobshape *sh, const char *sep,
		       struct sl_buf *b)
{
	sl_buf_addf(b, "%sJOB_GRES=%s", sep, "(null)");
	sl_buf_addf(b, "%s  Nodes=%s CPU_IDs=0", sep, j->nodelist);
	if (sh->cpus_per_node > 1)
		sl_buf_addf(b, "-%d", sh->cpus_per_node - 1);
	sl_buf_addf(b, " Mem=%lld GRES=", (long long)sh->mem_per_node);
}

/* "*" for a count not given, as Slurm prints NO_VAL16. */
static const char *count(int v, char *buf, size_t len)
{
	if (v <= 0)
		return "*";
	snprintf(buf, len, "%d", v);
	return buf;
}

/* "gres:gpu[:TYPE]:N", as Slurm keeps a GPU request's type. */
static void gres_tres(struct sl_buf *b, const char *sep, const char *key,
		      const struct sl_jobspec *s, long long n)
{
	sl_buf_addf(b, "%s%s=gres:gpu:", sep, key);
	if (s->gpu_type != NULL)
		sl_buf_addf(b, "%s:", s->gpu_type);
	sl_buf_addf(b, "%lld", n);
}

/* The optional lines after Power=, in Slurm's order. */
static void show_tail(const struct sl_job *j, const char *sep, struct sl_buf *b)
{
	const struct sl_jobspec *s = &j->spec;

	/* Slurm's line 38: its flags run together, no space between */
	if (s->gres_flags != 0 || s->kill_invalid_dep == 0 || s->kill_invalid_dep == 1 ||
	    s->spread_job) {
		sl_buf_addstr(b, sep);
		if (s->gres_flags != 0)
			sl_buf_addf(b, "GresEnforceBind=%s", s->gres_flags == 1 ? "Yes" : "No");
		if (s->kill_invalid_dep == 0 || s->kill_invalid_dep == 1)
			sl_buf_addf(b, "KillOInInvalidDependent=%s",
				    s->kill_invalid_dep ? "Yes" : "No");
		if (s->spread_job)
			sl_buf_addstr(b, "SpreadJob=Yes");
	}
	if (s->cpus_per_gpu > 0)
		sl_buf_addf(b, "%sCpusPerTres=gres:gpu:%d", sep, s->cpus_per_gpu);
	if (s->mem_per_gpu > 0)
		sl_buf_addf(b, "%sMemPerTres=gres:gpu:%lld", sep, (long long)s->mem_per_gpu);
	if (s->gpu_bind != NULL)
		sl_buf_addf(b, "%sTresBind=gpu:%s", sep, s->gpu_bind);
	if (s->gpu_freq != NULL)
		sl_buf_addf(b, "%sTresFreq=gpu:%s", sep, s->gpu_freq);
	if (s->gpus > 0)
		gres_tres(b, sep, "TresPerJob", s, s->gpus);
	if (s->gpus_per_node > 0)
		gres_tres(b, sep, "TresPerNode", s, s->gpus_per_node);
	if (s->gpus_per_task > 0)
		gres_tres(b, sep, "TresPerTask", s, s->gpus_per_task);
	/* Slurm clears a TIME_LIMIT* bit once its mail went */
	if ((s->mail_type & ~j->mail_sent) != 0 && s->mail_user != NULL) {
		char *t = sl_slurm_mail_type_text(s->mail_type & ~j->mail_sent);
		sl_buf_addf(b, "%sMailUser=%s MailType=%s", sep, s->mail_user, t);
		free(t);
	}
}

/* NumNodes= to CoreSpec=: the shape, and the TRES it makes. */
static void show_shape(const struct sl_job *j, const struct sl_jobshape *sh, const char *sep,
		       struct sl_buf *b)
{
	const struct sl_jobspec *s = &j->spec;
	char t1[64], m[32], c1[16], c2[16];
	int cpus = j->alloc_cpus > 0 ? j->alloc_cpus : sh->cpus_per_node * sh->nodes;
	int lo = sl_job_nodes_shown(j, sh), hi = s->nodes_max > lo ? s->nodes_max : lo;

	/* a pending job's -N as asked: min-max once a maximum was given */
	if (j->start_time == 0 && j->alloc_nodes == 0 && s->nodes_max != SL_NO_VAL && s->nodes_max > 0)
		snprintf(t1, sizeof(t1), "%d-%d", lo, hi); /* what was asked */
	else
		snprintf(t1, sizeof(t1), "%d", lo);
	/* a job ended before it ran without -n: slurmctld never counted its
	 * tasks (N/A) */
	char tasks[16] = "N/A";
	if (!sl_jobstate_is_final(j->state) || sl_job_ran(j) || s->ntasks != SL_NO_VAL)
		snprintf(tasks, sizeof(tasks), "%d", sh->ntasks);
	sl_buf_addf(b, "%sNumNodes=%s NumCPUs=%d NumTasks=%s CPUs/Task=%d ReqB:S:C:T=0:0:%s:%s", sep,
		    t1, cpus, tasks, sh->cpus_per_task, count(s->cores_per_socket, c1, sizeof(c1)),
		    count(s->threads_per_core, c2, sizeof(c2)));
	sl_buf_addf(b, "%sTRES=cpu=%d", sep, cpus);
	if (sh->mem_per_node > 0) {
		mem(sh->mem_per_node * sh->nodes, m, sizeof(m));
		sl_buf_addf(b, ",mem=%s", m);
	}
	sl_buf_addf(b, ",node=%d,billing=%d", sh->nodes, cpus);
	sl_buf_addf(b, "%sSocks/Node=%s NtasksPerN:B:S:C=%d:0:", sep,
		    count(s->sockets_per_node, c1, sizeof(c1)),
		    s->ntasks_per_node > 0 ? s->ntasks_per_node : 0);
	sl_buf_addf(b, "%s:", count(s->ntasks_per_socket, c1, sizeof(c1)));
	sl_buf_addf(b, "%s CoreSpec=*", count(s->ntasks_per_core, c1, sizeof(c1)));
}

/* Resources and files: the record's second half. */
static void show_res(const struct sl_job *j, const char *sep, unsigned flags, struct sl_buf *b)
{
	static const char *const shared[] = {"OK", "NO", "YES"};
	const struct sl_jobspec *s = &j->spec;
	struct sl_jobshape sh;
	char m[32];

	sl_job_shape(j, &sh);
	show_shape(j, &sh, sep, b);
	if ((flags & SL_SCONTROL_DETAIL) && j->start_time != 0 && j->nodelist != NULL &&
	    !sl_jobstate_is_final(j->state))
		show_alloc(j, &sh, sep, b);
	/* --mem=0 shows 0, as Slurm; --mem-per-gpu is MemPerTres, not this */
	if (s->mem_per_cpu > 0)
		mem(s->mem_per_cpu, m, sizeof(m));
	else
		mem(s->mem_per_node > 0 && !s->mem_all ? s->mem_per_node : 0, m, sizeof(m));
	sl_buf_addf(b, "%sMinCPUsNode=%d MinMemory%s=%s", sep, sl_jobspec_min_cpus_node(s, &sh),
		    s->mem_per_cpu > 0 ? "CPU" : "Node", m);
	mem(s->tmp_mb > 0 ? s->tmp_mb : 0, m, sizeof(m));
	sl_buf_addf(b, " MinTmpDiskNode=%s", m);
	/* -C as Slurm shows it: the features joined with '&' */
	sl_buf_addf(b, "%sFeatures=", sep);
	for (char **f = s->features; f != NULL && *f != NULL; f++)
		sl_buf_addf(b, "%s%s", f == s->features ? "" : "&", *f);
	if (s->features == NULL || s->features[0] == NULL)
		sl_buf_addstr(b, "(null)");
	char boot[32];
	sl_slurm_time_fmt_elapsed_sacct(s->delay_boot * 60, boot, sizeof(boot));
	sl_buf_addf(b, " DelayBoot=%s", boot);
	sl_buf_addf(b, "%sOverSubscribe=%s Contiguous=%d Licenses=(null) Network=(null)", sep,
		    shared[s->shared >= 0 && s->shared <= 2 ? s->shared : 0], s->contiguous ? 1 : 0);
	char *cmd = sl_script_command(s);
	sl_buf_addf(b, "%sCommand=%s", sep, cmd ? cmd : "(null)");
	free(cmd);
	sl_buf_addf(b, "%sWorkDir=%s", sep, s->work_dir ? s->work_dir : "");
	if (s->comment != NULL) /* Slurm's trailing space included */
		sl_buf_addf(b, "%sComment=%s ", sep, s->comment);
	sl_buf_addf(b, "%sStdErr=", sep);
	outpath(j, s->std_err ? s->std_err : s->std_out, b);
	sl_buf_addf(b, "%sStdIn=", sep);
	if (s->std_in != NULL)
		outpath(j, s->std_in, b);
	else
		sl_buf_addstr(b, "/dev/null");
	sl_buf_addf(b, "%sStdOut=", sep);
	outpath(j, s->std_out, b);
	if (s->switches > 0) {
		char w[32];
		sl_slurm_time_fmt_elapsed_sacct(sl_jobspec_switch_wait(s), w, sizeof(w));
		sl_buf_addf(b, "%sSwitches=%d@%s", sep, s->switches, w);
	}
	if (s->cpu_freq != NULL) {
		struct sl_cpu_freq f;
		char line[160];
		if (sl_slurm_cpu_freq_parse(s->cpu_freq, &f, NULL) == 0) {
			sl_slurm_cpu_freq_show(&f, line, sizeof(line));
			sl_buf_addf(b, "%s%s", sep, line);
		}
	}
	sl_buf_addf(b, "%sPower=", sep);
	show_tail(j, sep, b);
}

int sl_scontrol_job(struct sl_buf *b, const struct sl_job *j, int64_t now, unsigned flags)
{
	const char *sep = (flags & SL_SCONTROL_ONELINE) ? " " : "\n   ";
	size_t len = sl_buf_len(b);
	int r;

	show_head(j, now, sep, flags, b);
	show_res(j, sep, flags, b);
	r = sl_buf_addstr(b, (flags & SL_SCONTROL_ONELINE) ? " \n" : "\n   \n\n");
	if (r != 0)
		sl_buf_truncate(b, len);
	return r;
}
