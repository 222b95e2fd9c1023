/* sacct_fields.c - the sacct field table and its printers.
 *
 * The table is Slurm 22.05's (sacct.c's fields[]), every name in its
 * order, because -o matches names by prefix in table order: "-o MaxRSSN"
 * must find MaxRSSNode and "-o C" Cluster, as in Slurm. Each row has its
 * default width, its kind of cell (print_fields.c prints strings, dates
 * and numbers differently: a string too long ends in '+', a date is cut,
 * a number or a duration overflows its column) and a printer that gets
 * the job and whether it prints the job row or its batch step row.
 *
 * A step's use (memory, pages, disk, CPU) is what was measured of it: the
 * batch step's by its supervisor, the script's own (libbatch/usage.h), an
 * srun step's by its srun, task by task; printed on the step's row as
 * Slurm prints a step's (slurm_usage.c). The job's row carries only the
 * CPU times, the sum of its steps (sacct_usage.c splits them). A step
 * without figures (Kubernetes, never ran, still running, an srun that died
 * before its end) prints them empty and its CPU times 00:00:00, as Slurm
 * does for a step it has no accounting data for. Energy and CPU frequency
 * are not measured: Slurm's zeros. */
#include "prio.h"
#include "sacct_fmt.h"
#include "sacct_fmt_int.h"

#include <stdio.h>

#include "hostlist.h"
#include "sacct_cond.h"
#include "slurm_freq.h"
#include "slurm_time.h"
#include "slurm_tres.h"
#include "slurm_usage.h"

enum sl_jobstate sl_sacct_job_state(const struct sl_job *j, int64_t now)
{
	if (j->state == SL_JOB_CONFIGURING)
		return SL_JOB_RUNNING;
	if (j->state == SL_JOB_COMPLETING && j->cancelled_by >= 0)
		return SL_JOB_CANCELLED;
	return sl_job_past_limit(j, now) ? SL_JOB_TIMEOUT : j->state;
}

enum sl_jobstate sl_sacct_step_state(const struct sl_job *j, enum sl_jobstate stored)
{
	return stored == SL_JOB_RUNNING && j->state == SL_JOB_SUSPENDED ? SL_JOB_SUSPENDED : stored;
}

enum sl_jobstate sl_sacct_batch_state(const struct sl_job *j)
{
	if (j->state == SL_JOB_COMPLETING && j->cancelled_by >= 0)
		return SL_JOB_CANCELLED; /* its shell had the cancel's SIGTERM */
	if (j->state == SL_JOB_SUSPENDED)
		return SL_JOB_SUSPENDED; /* slurmdbd's, for each of its steps */
	if (!sl_jobstate_is_final(j->state))
		return SL_JOB_RUNNING;
	if (j->state == SL_JOB_OUT_OF_MEMORY)
		return SL_JOB_OUT_OF_MEMORY;
	if (j->exit_signal != 0)
		return SL_JOB_CANCELLED;
	return j->exit_code != 0 ? SL_JOB_FAILED : SL_JOB_COMPLETED;
}

static int started(const struct sl_job *j)
{
	return j->start_time != 0;
}

int sl_sacct_has_batch_step(const struct sl_job *j)
{
	return sl_job_ran(j) && !j->spec.interactive; /* srun's and salloc's have none */
}

static int64_t elapsed(const struct sl_job *j, int64_t now)
{
	return started(j) ? sl_job_run_secs(j, now) : 0;
}

static struct sl_jobshape shape(const struct sl_job *j)
{
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	return sh;
}

/* The CPUs of the row: the job's (allocated, or asked for while it never
 * ran), or the batch step's, one node's worth. */
static int row_cpus(const struct sl_job *j, enum row row, const struct pctx *c)
{
	if (c->step)
		return c->step->cpus;
	/* a pending job's are the CPUs it asks for, as slurmdbd has them */
	int cpus = started(j) || !sl_jobstate_is_final(j->state) ? j->alloc_cpus : 0;
	int nodes = shape(j).nodes;
	if (cpus <= 0 && started(j))
		cpus = sl_slurm_job_cpus(j);
	return row == ROW_BATCH && nodes > 0 ? cpus / nodes : cpus;
}

int64_t sl_sacct_eligible(const struct sl_job *j)
{
	return j->spec.hold ? 0 : j->eligible_time;
}
#define eligible sl_sacct_eligible

/* Reserved: the wait between eligible and start (or now). */
static int64_t reserved(const struct sl_job *j, int64_t now)
{
	int64_t e = eligible(j), t = started(j) ? j->start_time : now;
	return e == 0 || t < e ? 0 : t - e;
}

static void secs(int64_t v, char *buf, size_t len)
{
	sl_slurm_time_fmt_elapsed_sacct(v, buf, len);
}

#define F(name) static void name(const struct sl_job *j, enum row row, \
				 const struct pctx *c, char *buf, size_t len)
#define S(expr) snprintf(buf, len, "%s", (expr))
#define JOBONLY(expr) S(row == ROW_JOB ? (expr) : "")
#define OR_EMPTY(s) ((s) ? (s) : "")
#define JOBNUM(v) do { \
		if (row == ROW_JOB) \
			snprintf(buf, len, "%lld", (long long)(v)); \
		else \
			S(""); \
	} while (0)
#define CONST(name, job, batch) F(name) { (void)j; (void)c; S(row == ROW_JOB ? job : batch); }

CONST(f_blank, "", "")
/* ReqCPUFreq{Min,Max,Gov}: a step's --cpu-freq (ReqCPUFreq is its maximum);
 * "Unknown" on the job and for a step without one, "0" on the batch step */
static void freq(const struct pctx *c, enum row row, int which, char *buf, size_t len)
{
	struct sl_cpu_freq f = {0, 0, 0};
	if (row == ROW_BATCH && c->step == NULL) {
		S("0");
		return;
	}
	if (row == ROW_BATCH && c->step->cpu_freq != NULL)
		(void)sl_slurm_cpu_freq_parse(c->step->cpu_freq, &f, NULL);
	sl_slurm_cpu_freq_value(which == 0 ? f.min : which == 1 ? f.max : f.gov, buf, len);
}
F(f_freq_min) { (void)j; freq(c, row, 0, buf, len); }
F(f_freq_max) { (void)j; freq(c, row, 1, buf, len); }
F(f_freq_gov) { (void)j; freq(c, row, 2, buf, len); }
CONST(f_batch_zero, "", "0")

F(f_account) { (void)row; (void)c; S(OR_EMPTY(j->spec.account)); }
F(f_partition) { (void)c; JOBONLY(OR_EMPTY(j->spec.partition)); }
F(f_qos) { (void)c; JOBONLY(OR_EMPTY(j->spec.qos)); }
F(f_wckey) { (void)c; JOBONLY(OR_EMPTY(j->spec.wckey)); }
F(f_comment) { (void)c; JOBONLY(OR_EMPTY(j->spec.comment)); }
F(f_user) { (void)c; JOBONLY(OR_EMPTY(j->user)); }
F(f_group) { (void)c; JOBONLY(OR_EMPTY(j->group)); }
F(f_workdir) { (void)c; JOBONLY(OR_EMPTY(j->spec.work_dir)); }
F(f_reason) { (void)c; JOBONLY(sl_sacct_cond_reason_of(j)); }
F(f_submit_line) { (void)c; JOBONLY(OR_EMPTY(j->spec.submit_line)); }
F(f_cluster) { (void)j; (void)row; S(OR_EMPTY(c->cluster)); }
F(f_derived) { JOBONLY(c->derived ? c->derived : "0:0"); }
/* A job that ended before it ran (cancelled while pending) never started:
 * "None", though slurmctld stamps its start with the cancel time. */
F(f_start)
{
	(void)row;
	(void)c;
	if (sl_jobstate_is_final(j->state) && !sl_job_ran(j))
		S("None");
	else
		sl_slurm_time_fmt_ts(j->start_time, buf, len);
}
/* The job's End is slurmctld's once it ends it for its time limit; the
 * batch step's comes when its processes end. */
F(f_end)
{
	sl_slurm_time_fmt_ts(row == ROW_JOB ? sl_job_end_time(j, c->now) : j->end_time, buf, len);
}
F(f_elapsed) { (void)row; secs(elapsed(j, c->now), buf, len); }
F(f_elapsed_raw) { (void)row; snprintf(buf, len, "%lld", (long long)elapsed(j, c->now)); }
F(f_uid) { (void)c; JOBNUM((unsigned)j->uid); }
F(f_gid) { (void)c; JOBNUM((unsigned)j->gid); }
F(f_priority) { (void)c; JOBNUM(sl_prio_slurm(j)); }
F(f_alloc_cpus) { snprintf(buf, len, "%d", row_cpus(j, row, c)); }
F(f_nnodes)
{
	snprintf(buf, len, "%d", c->step ? c->step->nnodes : row == ROW_BATCH ? 1 : shape(j).nodes);
}
/* The row's figures (a step's, or the batch step's own), when measured:
 * a job's row has its CPU times alone. */
static int measured(enum row row, const struct pctx *c)
{
	return row == ROW_BATCH && c->tasks.n > 0;
}

/* The node of a step's figures: its first (all its tasks run here). */
static void usage_host(const struct sl_job *j, const struct pctx *c, char *buf, size_t len)
{
	sl_hostlist_first(c->step ? c->step->nodelist : j->nodelist, buf, len);
}

#define V(k, of) sl_slurm_usage_value(&c->tasks, k, of)
#define USAGE(name, expr) F(name) { \
		(void)j; \
		if (measured(row, c)) \
			expr; \
		else \
			S(""); \
	}
#define SIZE(name, k, of) USAGE(name, sl_slurm_usage_bytes(V(k, of), c->unit, buf, len))
#define COUNT(name, k, of) USAGE(name, sl_slurm_usage_count(V(k, of), c->unit, buf, len))
#define DISK(name, k, of) USAGE(name, sl_slurm_usage_disk(V(k, of), c->unit, buf, len))
#define CPUS(name, of) USAGE(name, sl_slurm_usage_cpu_secs(V(SL_USE_CPU, of), buf, len))
#define TASK(name, k, of) \
	USAGE(name, snprintf(buf, len, "%d", sl_slurm_usage_task(&c->tasks, k, of)))
SIZE(f_max_rss, SL_USE_RSS, SL_UOF_MAX)
SIZE(f_ave_rss, SL_USE_RSS, SL_UOF_AVE)
SIZE(f_max_vmsize, SL_USE_VMSIZE, SL_UOF_MAX)
SIZE(f_ave_vmsize, SL_USE_VMSIZE, SL_UOF_AVE)
COUNT(f_max_pages, SL_USE_PAGES, SL_UOF_MAX)
COUNT(f_ave_pages, SL_USE_PAGES, SL_UOF_AVE)
CPUS(f_ave_cpu, SL_UOF_AVE)
CPUS(f_min_cpu, SL_UOF_MIN)
DISK(f_max_read, SL_USE_READ, SL_UOF_MAX)
DISK(f_ave_read, SL_USE_READ, SL_UOF_AVE)
DISK(f_max_write, SL_USE_WRITE, SL_UOF_MAX)
DISK(f_ave_write, SL_USE_WRITE, SL_UOF_AVE)
TASK(f_rss_task, SL_USE_RSS, SL_UOF_MAX)
TASK(f_vmsize_task, SL_USE_VMSIZE, SL_UOF_MAX)
TASK(f_pages_task, SL_USE_PAGES, SL_UOF_MAX)
TASK(f_read_task, SL_USE_READ, SL_UOF_MAX)
TASK(f_write_task, SL_USE_WRITE, SL_UOF_MAX)
TASK(f_cpu_task, SL_USE_CPU, SL_UOF_MIN)
USAGE(f_usage_node, usage_host(j, c, buf, len))
#undef TASK
#undef CPUS
#undef DISK
#undef COUNT
#undef SIZE
#undef USAGE
#undef V

/* A TRESUsage cell: the row's figures, else unmeasured (Ave and Tot say
 * "energy=0" on a step without figures, as Slurm's). */
static void usage_tres(const struct sl_job *j, enum row row, const struct pctx *c,
		       enum sl_usage_tres kind, enum sl_usage_of of, int energy, char *buf,
		       size_t len)
{
	char host[256];

	usage_host(j, c, host, sizeof(host));
	if (measured(row, c))
		sl_slurm_usage_tres(&c->tasks, kind, of, host, c->unit, buf, len);
	else
		S(row == ROW_BATCH && energy ? "energy=0" : "");
}

#define TRES(name, kind, of, energy) F(name) { usage_tres(j, row, c, kind, of, energy, buf, len); }
TRES(f_tres_in_ave, SL_UTRES_IN, SL_UOF_AVE, 1)
TRES(f_tres_in_max, SL_UTRES_IN, SL_UOF_MAX, 0)
TRES(f_tres_in_min, SL_UTRES_IN, SL_UOF_MIN, 0)
TRES(f_tres_in_tot, SL_UTRES_IN, SL_UOF_TOT, 1)
TRES(f_tres_in_node, SL_UTRES_IN_NODE, SL_UOF_MAX, 0)
TRES(f_tres_in_max_task, SL_UTRES_IN_TASK_N, SL_UOF_MAX, 0)
TRES(f_tres_in_min_task, SL_UTRES_IN_TASK_N, SL_UOF_MIN, 0)
TRES(f_tres_out_ave, SL_UTRES_OUT, SL_UOF_AVE, 1)
TRES(f_tres_out_max, SL_UTRES_OUT, SL_UOF_MAX, 0)
TRES(f_tres_out_min, SL_UTRES_OUT, SL_UOF_MIN, 0)
TRES(f_tres_out_tot, SL_UTRES_OUT, SL_UOF_TOT, 1)
TRES(f_tres_out_node, SL_UTRES_OUT_NODE, SL_UOF_MAX, 0)
TRES(f_tres_out_max_task, SL_UTRES_OUT_TASK, SL_UOF_MAX, 0)
TRES(f_tres_out_min_task, SL_UTRES_OUT_TASK, SL_UOF_MIN, 0)
#undef TRES

/* CPU times: the row's (sacct_usage.c): the job's the whole, a step's its
 * own, the batch step's the script's. */
#define CPU(name, usec) \
	F(name) { (void)j; (void)row; sl_slurm_usage_cpu(c->use ? (usec) : 0, buf, len); }
CPU(f_user_cpu, c->use->user_usec)
CPU(f_system_cpu, c->use->sys_usec)
CPU(f_total_cpu, c->use->user_usec + c->use->sys_usec)
#undef CPU

F(f_ntasks)
{
	(void)j;
	if (c->step)
		snprintf(buf, len, "%d", c->step->ntasks);
	else
		S(row == ROW_BATCH ? "1" : "");
}
F(f_cputime) { secs(elapsed(j, c->now) * row_cpus(j, row, c), buf, len); }
/* the job's and its batch step's; an srun step's own share is not kept */
F(f_suspended)
{
	(void)row;
	secs(c->step ? 0 : sl_job_suspended_secs(j, c->now), buf, len);
}

F(f_cputime_raw)
{
	snprintf(buf, len, "%lld", (long long)(elapsed(j, c->now) * row_cpus(j, row, c)));
}

/* A step's Submit and Eligible are its start (print.c: step->start). */
F(f_submit)
{
	(void)c;
	sl_slurm_time_fmt_ts(row == ROW_JOB ? j->submit_time : j->start_time, buf, len);
}

F(f_eligible)
{
	(void)c;
	sl_slurm_time_fmt_ts(row == ROW_JOB ? eligible(j) : j->start_time, buf, len);
}

/* JobID: an array task's is "N_I", its array's pending tasks' (folded,
 * sl_squeue_collapse) "N_[2-5%2]". */
F(f_jobid)
{
	const char *step = row == ROW_BATCH ? ".batch" : "";
	char base[96];

	sl_job_id_text(j, base, sizeof(base));
	if (c->step) /* an srun step: N.S, or N_I.S on an array's task */
		snprintf(buf, len, "%s.%u", base, c->step->step_id);
	else
		snprintf(buf, len, "%s%s", base, step);
}

/* JobIDRaw: the record's own id; folded pending tasks, their array's. */
F(f_jobid_raw)
{
	if (c->step)
		snprintf(buf, len, "%llu.%u", (unsigned long long)j->id, c->step->step_id);
	else
		snprintf(buf, len, "%llu%s",
			 (unsigned long long)(j->array_tasks ? j->array_job_id : j->id),
			 row == ROW_BATCH ? ".batch" : "");
}

F(f_jobname)
{
	S(c->step ? OR_EMPTY(c->step->name) : row == ROW_BATCH ? "batch" : OR_EMPTY(j->spec.name));
}

F(f_alloc_nodes)
{
	snprintf(buf, len, "%d", c->step ? c->step->nnodes : row == ROW_BATCH ? 1 :
				 sl_job_ran(j) ? shape(j).nodes : 0);
}

F(f_req_nodes) { (void)c; snprintf(buf, len, "%d", row == ROW_BATCH ? 1 : shape(j).nodes); }

F(f_req_cpus)
{
	struct sl_jobshape sh = shape(j);
	(void)c;
	snprintf(buf, len, "%d", row == ROW_BATCH ? row_cpus(j, row, c) : sh.cpus_per_node * sh.nodes);
}

/* TRES: the job's request always, its allocation once it ran; the batch
 * step's allocation is one node's, without billing. */
F(f_req_tres)
{
	(void)c;
	if (row == ROW_JOB)
		sl_slurm_tres_fmt(j, SL_TRES_SACCT, c->unit, buf, len);
	else
		S("");
}

F(f_alloc_tres)
{
	(void)c;
	if (!sl_job_ran(j))
		S("");
	else
		sl_slurm_tres_fmt(j, row == ROW_JOB ? SL_TRES_SACCT : SL_TRES_BATCH, c->unit, buf,
				  len);
}

F(f_constraints)
{
	size_t used = 0;
	(void)c;
	buf[0] = '\0';
	for (char **f = j->spec.features; row == ROW_JOB && f && *f && used < len; f++) {
		int k = snprintf(buf + used, len - used, "%s%s", used ? "&" : "", *f);
		used += k > 0 ? (size_t)k : 0;
	}
}

/* slurmdb_job_flags_str() as slurmdbd's records read on the reference
 * cluster: the scheduler that started it, then StartRecieved (Slurm's
 * spelling), which every job it has a record of carries, pending or not. */
F(f_flags)
{
	(void)c;
	JOBONLY(sl_job_ran(j) ? "SchedMain,StartRecieved" : "StartRecieved");
}

F(f_reserved)
{
	if (row == ROW_JOB)
		secs(reserved(j, c->now), buf, len);
	else
		S("");
}

F(f_resv_cpu)
{
	struct sl_jobshape sh = shape(j);
	if (row == ROW_JOB)
		secs(reserved(j, c->now) * sh.cpus_per_node * sh.nodes, buf, len);
	else
		S("");
}

F(f_resv_cpu_raw)
{
	struct sl_jobshape sh = shape(j);
	if (row == ROW_JOB)
		snprintf(buf, len, "%lld", (long long)(reserved(j, c->now) * sh.cpus_per_node * sh.nodes));
	else
		S("");
}

/* The batch step runs on the first node only: "n[1-3]" -> "n1". */
F(f_nodelist)
{
	const char *nl = c->step ? c->step->nodelist : j->nodelist;
	if (c->step && nl && *nl)
		S(nl);
	else if (nl == NULL || *nl == '\0')
		S("None assigned");
	else if (row == ROW_JOB)
		S(nl);
	else
		sl_hostlist_first(j->nodelist, buf, len);
}

/* ReqMem is the job's memory request from its TRES, all nodes together. */
F(f_reqmem)
{
	int64_t mib = sl_slurm_job_mem(j);
	(void)c;
	if (row == ROW_BATCH)
		S("");
	else if (mib > 0)
		sl_slurm_mem_fmt(mib, c->unit, buf, len);
	else
		S("0");
}

/* A job without --time has the partition's limit; Sluice's partitions
 * have none. slurmdbd keeps NO_VAL ("Partition_Limit") until the job
 * starts and slurmctld resolves it (UNLIMITED here), so a job that never
 * ran keeps it. */
static int64_t limit_of(const struct sl_job *j)
{
	if (j->spec.time_limit == SL_TIME_UNSET && sl_job_ran(j))
		return SL_TIME_INFINITE;
	return j->spec.time_limit;
}

F(f_timelimit)
{
	(void)c;
	if (row == ROW_JOB)
		sl_slurm_time_fmt_limit_sacct(limit_of(j), buf, len);
	else
		S("");
}

F(f_timelimit_raw)
{
	int64_t m = limit_of(j);
	(void)c;
	if (row == ROW_BATCH)
		S("");
	else if (m < 0)
		sl_slurm_time_fmt_limit_sacct(m, buf, len);
	else
		snprintf(buf, len, "%lld", (long long)m);
}

F(f_state)
{
	if (c->step && c->step->state == SL_JOB_CANCELLED && c->step->cancelled_by >= 0)
		snprintf(buf, len, "CANCELLED by %lld", (long long)c->step->cancelled_by);
	else if (c->step)
		S(sl_jobstate_name(sl_sacct_step_state(j, c->step->state)));
	else if (row == ROW_BATCH)
		S(sl_jobstate_name(sl_sacct_batch_state(j)));
	else if (sl_sacct_job_state(j, c->now) == SL_JOB_CANCELLED && j->cancelled_by >= 0)
		snprintf(buf, len, "CANCELLED by %d", j->cancelled_by);
	else
		S(sl_jobstate_name(sl_sacct_job_state(j, c->now)));
}

/* print.c: an exit status of 128 and up is shown less 128 ("exit 143"
 * after a TERM trap reads 15:0). */
static void exit_pair(int code, int sig, char *buf, size_t len)
{
	snprintf(buf, len, "%d:%d", sig ? 0 : code >= 128 ? code - 128 : code, sig);
}

F(f_exitcode)
{
	(void)c;
	if (!sl_jobstate_is_final(j->state))
		S("0:0");
	else if (row == ROW_BATCH)
		exit_pair(j->exit_code, j->exit_signal, buf, len);
	else if (j->state == SL_JOB_DEADLINE && !sl_job_ran(j)) /* slurmdbd's exit_code 1, read so */
		S("1:0");
	else if (j->state == SL_JOB_CANCELLED || j->state == SL_JOB_TIMEOUT ||
		 j->state == SL_JOB_PREEMPTED ||
		 (j->state == SL_JOB_REQUEUED && j->exit_code == 0)) /* the requeue's kill */
		S("0:0");
	else
		exit_pair(j->exit_code, j->exit_signal, buf, len);
}
#undef F
#undef S
#undef JOBONLY
#undef CONST

/* sacct.c's fields[], in its order (prefix matching depends on it). */
const struct field_row sl_sacct_table[] = {
	{"Account", 10, K_STR, f_account},
	{"AdminComment", 15, K_STR, f_blank},
	{"AllocCPUS", 10, K_NUM, f_alloc_cpus},
	{"AllocNodes", 10, K_STR, f_alloc_nodes},
	{"AllocTRES", 10, K_STR, f_alloc_tres},
	{"AssocID", 7, K_NUM, f_blank},
	{"AveCPU", 10, K_STR, f_ave_cpu},
	{"AveCPUFreq", 10, K_STR, f_batch_zero},
	{"AveDiskRead", 14, K_STR, f_ave_read},
	{"AveDiskWrite", 14, K_STR, f_ave_write},
	{"AvePages", 10, K_STR, f_ave_pages},
	{"AveRSS", 10, K_STR, f_ave_rss},
	{"AveVMSize", 10, K_STR, f_ave_vmsize},
	{"BlockID", 16, K_STR, f_blank},
	{"Cluster", 10, K_STR, f_cluster},
	{"Comment", 14, K_STR, f_comment},
	{"Constraints", 19, K_STR, f_constraints},
	{"ConsumedEnergy", 14, K_STR, f_batch_zero},
	{"ConsumedEnergyRaw", 17, K_NUM, f_batch_zero},
	{"Container", 19, K_STR, f_blank},
	{"CPUTime", 10, K_NUM, f_cputime},
	{"CPUTimeRAW", 10, K_NUM, f_cputime_raw},
	{"DBIndex", -10, K_NUM, f_blank},
	{"DerivedExitCode", 15, K_STR, f_derived},
	{"Elapsed", 10, K_NUM, f_elapsed},
	{"ElapsedRaw", 10, K_NUM, f_elapsed_raw},
	{"Eligible", 19, K_DATE, f_eligible},
	{"End", 19, K_DATE, f_end},
	{"ExitCode", 8, K_STR, f_exitcode},
	{"Flags", 19, K_STR, f_flags},
	{"GID", 6, K_NUM, f_gid},
	{"Group", 9, K_STR, f_group},
	{"JobID", -12, K_STR, f_jobid},
	{"JobIDRaw", -12, K_STR, f_jobid_raw},
	{"JobName", 10, K_STR, f_jobname},
	{"Layout", 9, K_STR, f_blank},
	{"MaxDiskRead", 12, K_STR, f_max_read},
	{"MaxDiskReadNode", 15, K_STR, f_usage_node},
	{"MaxDiskReadTask", 15, K_NUM, f_read_task},
	{"MaxDiskWrite", 12, K_STR, f_max_write},
	{"MaxDiskWriteNode", 16, K_STR, f_usage_node},
	{"MaxDiskWriteTask", 16, K_NUM, f_write_task},
	{"MaxPages", 8, K_STR, f_max_pages},
	{"MaxPagesNode", 12, K_STR, f_usage_node},
	{"MaxPagesTask", 14, K_NUM, f_pages_task},
	{"MaxRSS", 10, K_STR, f_max_rss},
	{"MaxRSSNode", 10, K_STR, f_usage_node},
	{"MaxRSSTask", 10, K_NUM, f_rss_task},
	{"MaxVMSize", 10, K_STR, f_max_vmsize},
	{"MaxVMSizeNode", 14, K_STR, f_usage_node},
	{"MaxVMSizeTask", 14, K_NUM, f_vmsize_task},
	{"McsLabel", 12, K_STR, f_blank},
	{"MinCPU", 10, K_STR, f_min_cpu},
	{"MinCPUNode", 10, K_STR, f_usage_node},
	{"MinCPUTask", 10, K_NUM, f_cpu_task},
	{"NCPUS", 10, K_NUM, f_alloc_cpus},
	{"NNodes", 8, K_NUM, f_nnodes},
	{"NodeList", 15, K_STR, f_nodelist},
	{"NTasks", 8, K_NUM, f_ntasks},
	{"Partition", 10, K_STR, f_partition},
	{"Priority", 10, K_NUM, f_priority},
	{"QOS", 10, K_STR, f_qos},
	{"QOSRAW", 6, K_NUM, f_blank},
	{"Reason", 22, K_STR, f_reason},
	{"ReqCPUFreq", 10, K_STR, f_freq_max},
	{"ReqCPUFreqGov", 13, K_STR, f_freq_gov},
	{"ReqCPUFreqMax", 13, K_STR, f_freq_max},
	{"ReqCPUFreqMin", 13, K_STR, f_freq_min},
	{"ReqCPUS", 8, K_NUM, f_req_cpus},
	{"ReqMem", 10, K_STR, f_reqmem},
	{"ReqNodes", 8, K_STR, f_req_nodes},
	{"ReqTRES", 10, K_STR, f_req_tres},
	{"Reservation", 20, K_STR, f_blank},
	{"ReservationId", 8, K_NUM, f_blank},
	{"Reserved", 10, K_NUM, f_reserved},
	{"ResvCPU", 10, K_NUM, f_resv_cpu},
	{"ResvCPURAW", 10, K_NUM, f_resv_cpu_raw},
	{"Start", 19, K_DATE, f_start},
	{"State", 10, K_STR, f_state},
	{"Submit", 19, K_DATE, f_submit},
	{"SubmitLine", 20, K_STR, f_submit_line},
	{"Suspended", 10, K_NUM, f_suspended},
	{"SystemComment", 15, K_STR, f_blank},
	{"SystemCPU", 10, K_STR, f_system_cpu},
	{"Timelimit", 10, K_STR, f_timelimit},
	{"TimelimitRaw", 10, K_STR, f_timelimit_raw},
	{"TotalCPU", 10, K_STR, f_total_cpu},
	{"TRESUsageInAve", 14, K_STR, f_tres_in_ave},
	{"TRESUsageInMax", 14, K_STR, f_tres_in_max},
	{"TRESUsageInMaxNode", 18, K_STR, f_tres_in_node},
	{"TRESUsageInMaxTask", 18, K_STR, f_tres_in_max_task},
	{"TRESUsageInMin", 14, K_STR, f_tres_in_min},
	{"TRESUsageInMinNode", 18, K_STR, f_tres_in_node},
	{"TRESUsageInMinTask", 18, K_STR, f_tres_in_min_task},
	{"TRESUsageInTot", 14, K_STR, f_tres_in_tot},
	{"TRESUsageOutAve", 15, K_STR, f_tres_out_ave},
	{"TRESUsageOutMax", 15, K_STR, f_tres_out_max},
	{"TRESUsageOutMaxNode", 19, K_STR, f_tres_out_node},
	{"TRESUsageOutMaxTask", 19, K_STR, f_tres_out_max_task},
	{"TRESUsageOutMin", 15, K_STR, f_tres_out_min},
	{"TRESUsageOutMinNode", 19, K_STR, f_tres_out_node},
	{"TRESUsageOutMinTask", 19, K_STR, f_tres_out_min_task},
	{"TRESUsageOutTot", 15, K_STR, f_tres_out_tot},
	{"UID", 6, K_NUM, f_uid},
	{"User", 9, K_STR, f_user},
	{"UserCPU", 10, K_STR, f_user_cpu},
	{"WCKey", 10, K_STR, f_wckey},
	{"WCKeyID", 10, K_NUM, f_blank},
	{"WorkDir", 20, K_STR, f_workdir},
};

/* The count, checked against the table at compile time. */
_Static_assert(sizeof(sl_sacct_table) / sizeof(sl_sacct_table[0]) == SL_SACCT_NFIELDS,
	       "SL_SACCT_NFIELDS is the table's length");
