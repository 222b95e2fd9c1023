/* test_scontrol_fmt.c - scontrol's printing and parsing: a job record byte
 * for byte as the real Slurm 22.05 printed it (reference.md, job 26: a job
 * waiting on a dependency), a begin-time job, a suspended and resumed one
 * (the times the real one showed), -d and -o, and `update`'s words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "prio.h"
#include "scontrol_fmt.h"
#include "xalloc.h"

static int64_t mk(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = {0};
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* Slurm's job 26 of reference.md, as a Sluice record. */
static struct sl_job *job26(void)
{
	struct sl_job *j = sl_job_new();
	j->id = 26;
	j->spec.name = sl_xstrdup("wrap");
	j->user = sl_xstrdup("alice");
	j->group = sl_xstrdup("alice");
	j->uid = j->gid = 2001;
	j->priority = 1012 - SL_PRIO_SITE; /* printed on Slurm's scale (prio.h) */
	j->state = SL_JOB_PENDING;
	j->reason = sl_xstrdup("Dependency");
	j->dependency = sl_xstrdup("afterok:25(unfulfilled)");
	j->spec.time_limit = SL_TIME_INFINITE;
	j->submit_time = mk(2026, 11, 21, 10, 23, 18);
	j->spec.partition = sl_xstrdup("cpu");
	j->spec.submit_host = sl_xstrdup("localhost");
	j->spec.mem_per_cpu = 4000;
	j->spec.wrapped = 1;
	j->spec.work_dir = sl_xstrdup("/home/alice/ref");
	j->alloc_cpus = 1;
	return j;
}

static const char job26_text[] =
	"JobId=26 JobName=wrap\n"
	"   UserId=alice(2001) GroupId=alice(2001) MCS_label=N/A\n"
	"   Priority=1012 Nice=0 Account=(null) QOS=(null)\n"
	"   JobState=PENDING Reason=Dependency Dependency=afterok:25(unfulfilled)\n"
	"   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
	"   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A\n"
	"   SubmitTime=2026-11-21T10:23:18 EligibleTime=Unknown\n"
	"   AccrueTime=Unknown\n"
	"   StartTime=Unknown EndTime=Unknown Deadline=N/A\n"
	"   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-21T10:23:18 Scheduler=Main\n"
	/* Slurm's session id after the ':' (2542); Sluice has none to give */
	"   Partition=cpu AllocNode:Sid=localhost:0\n"
	"   ReqNodeList=(null) ExcNodeList=(null)\n"
	"   NodeList=\n"
	"   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
	"   TRES=cpu=1,mem=4000M,node=1,billing=1\n"
	"   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
	"   MinCPUsNode=1 MinMemoryCPU=4000M MinTmpDiskNode=0\n"
	"   Features=(null) DelayBoot=00:00:00\n"
	"   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
	"   Command=(null)\n"
	"   WorkDir=/home/alice/ref\n"
	"   StdErr=/home/alice/ref/slurm-26.out\n"
	"   StdIn=/dev/null\n"
	"   StdOut=/home/alice/ref/slurm-26.out\n"
	"   Power=\n"
	"   \n\n";

static char *show(const struct sl_job *j, int64_t now, unsigned flags)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	char *t;
	assert_int_equal(sl_scontrol_job(b, j, now, flags), 0);
	t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

static void test_job_dependency(void **state)
{
	struct sl_job *j = job26();
	char *t = show(j, mk(2026, 11, 21, 10, 24, 0), 0);
	(void)state;
	assert_string_equal(t, job26_text);
	free(t);
	/* -o: one line, a space for each line break, the trailing space */
	t = show(j, mk(2026, 11, 21, 10, 24, 0), SL_SCONTROL_ONELINE);
	assert_non_null(strstr(t, "JobId=26 JobName=wrap UserId=alice(2001) "));
	assert_non_null(strstr(t, " Dependency=afterok:25(unfulfilled) Requeue=1 "));
	assert_int_equal(strchr(t, '\n') - t, (long)strlen(t) - 1);
	assert_string_equal(t + strlen(t) - 9, " Power= \n");
	free(t);
	/* -d: DerivedExitCode after the Requeue line; no JOB_GRES while pending */
	t = show(j, mk(2026, 11, 21, 10, 24, 0), SL_SCONTROL_DETAIL);
	assert_non_null(strstr(t, "ExitCode=0:0\n   DerivedExitCode=0:0\n   RunTime="));
	assert_null(strstr(t, "JOB_GRES"));
	free(t);
	sl_job_free(j);
}

/* A reason of several words: '_' for ' ' (scontrol's), as requeuehold's. */
static void test_reason_words(void **state)
{
	struct sl_job *j = job26();
	char *t;
	(void)state;
	free(j->reason);
	j->reason = sl_xstrdup("job requeued in held state");
	free(j->dependency);
	j->dependency = NULL;
	t = show(j, mk(2026, 11, 21, 10, 24, 0), 0);
	assert_non_null(strstr(t, "\n   JobState=PENDING Reason=job_requeued_in_held_state "
				  "Dependency=(null)\n"));
	free(t);
	sl_job_free(j);
}

/* reference.md, job 36 (--begin=now+1hour): the begin time is its
 * EligibleTime, AccrueTime and StartTime. */
static void test_begin(void **state)
{
	struct sl_job *j = job26();
	char *t;
	(void)state;
	free(j->reason);
	j->reason = sl_xstrdup("BeginTime");
	free(j->dependency);
	j->dependency = NULL;
	j->eligible_time = mk(2026, 11, 21, 11, 23, 21);
	t = show(j, mk(2026, 11, 21, 10, 24, 0), 0);
	assert_non_null(strstr(t, "   SubmitTime=2026-11-21T10:23:18 EligibleTime=2026-11-21T11:23:21\n"
				  "   AccrueTime=2026-11-21T11:23:21\n"
				  "   StartTime=2026-11-21T11:23:21 EndTime=Unknown Deadline=N/A\n"));
	free(t);
	/* held with a limit (reference run of scontrol update StartTime=): */
	j->spec.hold = 1;
	j->spec.time_limit = 5;
	t = show(j, mk(2026, 11, 21, 10, 24, 0), 0);
	assert_non_null(strstr(t, "   AccrueTime=Unknown\n"
				  "   StartTime=2026-11-21T11:23:21 EndTime=2026-11-21T11:28:21 "));
	free(t);
	sl_job_free(j);
}

/* A pending job's NumNodes: min-max once -N gave a maximum, else the
 * count (22.05: -N 1 is 1-1, -n 4 --ntasks-per-node=2 is 2). */
static void test_num_nodes(void **state)
{
	static const struct {
		int nodes, nodes_max, ntasks, per_node;
		const char *want;
	} cases[] = {
		{SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, 0, "NumNodes=1 "},
		{1, 1, SL_NO_VAL, 0, "NumNodes=1-1 "},
		{1, 2, SL_NO_VAL, 0, "NumNodes=1-2 "},
		{2, 2, SL_NO_VAL, 0, "NumNodes=2-2 "},
		{1, 0, SL_NO_VAL, 0, "NumNodes=1 "},
		{SL_NO_VAL, SL_NO_VAL, 4, 2, "NumNodes=2 "},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_job *j = job26();
		j->spec.nodes = cases[i].nodes;
		j->spec.nodes_max = cases[i].nodes_max;
		j->spec.ntasks = cases[i].ntasks;
		j->spec.ntasks_per_node = cases[i].per_node;
		char *t = show(j, mk(2026, 11, 21, 10, 24, 0), 0);
		if (strstr(t, cases[i].want) == NULL)
			fail_msg("case %zu: no %s in\n%s", i, cases[i].want, t);
		free(t);
		sl_job_free(j);
	}
}

/* The real Slurm's job 86: -t 5, started 23:07:47, suspended at 23:07:51,
 * resumed at 23:07:54. */
static void test_suspended(void **state)
{
	struct sl_job *j = job26();
	char *t;
	(void)state;
	j->state = SL_JOB_SUSPENDED;
	free(j->reason);
	j->reason = sl_xstrdup("None");
	free(j->dependency);
	j->dependency = NULL;
	j->spec.time_limit = 5;
	j->start_time = j->eligible_time = mk(2026, 11, 25, 23, 7, 47);
	j->suspend_time = mk(2026, 11, 25, 23, 7, 51);
	j->pre_suspend = 4;
	j->nodelist = sl_xstrdup("n1");
	t = show(j, mk(2026, 11, 25, 23, 7, 53), 0);
	assert_non_null(strstr(t, "   RunTime=00:00:04 TimeLimit=00:05:00 "));
	assert_non_null(strstr(t, "   StartTime=2026-11-25T23:07:47 EndTime=2026-11-25T23:12:47 "));
	assert_non_null(strstr(t, "   SuspendTime=2026-11-25T23:07:51 SecsPreSuspend=4 "));
	free(t);
	j->state = SL_JOB_RUNNING;
	j->suspend_time = mk(2026, 11, 25, 23, 7, 54);
	t = show(j, mk(2026, 11, 25, 23, 7, 56), SL_SCONTROL_DETAIL);
	assert_non_null(strstr(t, "   RunTime=00:00:06 TimeLimit=00:05:00 "));
	assert_non_null(strstr(t, "   StartTime=2026-11-25T23:07:47 EndTime=2026-11-25T23:12:50 "));
	assert_non_null(strstr(t, "   SuspendTime=2026-11-25T23:07:54 SecsPreSuspend=4 "));
	/* -d of a running job: what its node gave it */
	assert_non_null(strstr(t, "CoreSpec=*\n   JOB_GRES=(null)\n     Nodes=n1 CPU_IDs=0 Mem=4000 GRES=\n"
				  "   MinCPUsNode=1 "));
	free(t);
	sl_job_free(j);
}

/* ---- update ---- */

struct upd {
	int r, rc;
	const char *jobs;
	struct sl_update_field *f;
	size_t n;
	struct sl_err err;
	char notes[256];
};

static void parse(struct upd *u, int argc, char **argv)
{
	struct sl_buf *notes = sl_buf_new(1 << 12);
	memset(u, 0, sizeof(*u));
	u->r = sl_scontrol_update_parse(argc, argv, 1000000000, &u->jobs, &u->f, &u->n, &u->rc, notes,
					&u->err);
	snprintf(u->notes, sizeof(u->notes), "%s", sl_buf_str(notes));
	sl_buf_free(notes);
}

#define PARSE(u, ...) parse(u, (int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)), \
			    (char *[]){__VA_ARGS__})

static void refused(struct upd *u, int rc, const char *msg)
{
	assert_int_not_equal(u->r, 0);
	assert_int_equal(u->rc, rc);
	assert_string_equal(u->err.msg, msg);
	assert_null(u->f);
}

static void test_update_parse(void **state)
{
	struct upd u;
	(void)state;

	PARSE(&u, "JobId=36", "TimeLimit=00:20:00", "jobname=renamed", "NICE=5", "Partition=gpu",
	      "NumNodes=2-4", "NumCPUs=4", "Dependency=afterok:3", "StartTime=now+60", "QOS=high",
	      "Comment=a b", "Priority=9");
	assert_int_equal(u.r, 0);
	assert_string_equal(u.jobs, "36");
	assert_int_equal(u.n, 12);
	assert_string_equal(u.f[0].key, "time_limit");
	assert_null(u.f[0].str);
	assert_int_equal(u.f[0].num, 20);
	assert_string_equal(u.f[1].key, "name");
	assert_string_equal(u.f[1].str, "renamed");
	assert_string_equal(u.f[2].key, "nice");
	assert_int_equal(u.f[2].num, 5);
	assert_string_equal(u.f[3].str, "gpu");
	assert_string_equal(u.f[4].key, "nodes");
	assert_int_equal(u.f[4].num, 2);
	assert_string_equal(u.f[5].key, "nodes_max");
	assert_int_equal(u.f[5].num, 4);
	assert_string_equal(u.f[6].key, "cpus");
	assert_string_equal(u.f[7].key, "dependency");
	assert_string_equal(u.f[7].str, "afterok:3");
	assert_string_equal(u.f[8].key, "begin_time");
	assert_int_equal(u.f[8].num, 1000000060);
	assert_string_equal(u.f[9].key, "qos");
	assert_string_equal(u.f[10].str, "a b");
	assert_int_equal(u.f[11].num, 9);
	free(u.f);
	PARSE(&u, "Dependency=", "JobId=7");
	assert_int_equal(u.r, 0);
	assert_string_equal(u.f[0].str, "");
	free(u.f);

	PARSE(&u, "JobId=36", "TimeLimit=bogus");
	refused(&u, 1, "scontrol: error: Invalid TimeLimit value");
	PARSE(&u, "JobId=36", "Bogus=1");
	refused(&u, 1, "Update of this parameter is not supported: Bogus=1\nRequest aborted");
	PARSE(&u, "36", "TimeLimit=3");
	refused(&u, 1, "No valid entity in update command\nInput line must include \"NodeName\", "
		"\"PartitionName\", \"Reservation\", \"JobId\", or \"SlurmctldDebug\"");
	PARSE(&u, "JobId=36");
	refused(&u, 1, "No changes specified");
	PARSE(&u, "JobId=abc", "TimeLimit=3"); /* the list is read later, sl_scontrol_job_list */
	assert_int_equal(u.r, 0);
	assert_string_equal(u.jobs, "abc");
	free(u.f);
	/* Slurm's quirks: a message but exit 0; a field dropped with its line */
	PARSE(&u, "JobId=36", "NumNodes=abc");
	refused(&u, 0, "scontrol: error: Invalid numeric value \"abc\" for requested node count.");
	/* NumCPUs below 1 is scontrol's to refuse; NumNodes=3-1 the daemon's */
	PARSE(&u, "JobId=36", "NumCPUs=0");
	refused(&u, 1, "scontrol: error: Invalid NumCPUs value: 0");
	PARSE(&u, "JobId=36", "NumNodes=3-1", "MinCPUsNode=2");
	assert_int_equal(u.r, 0);
	assert_int_equal(u.n, 3);
	assert_string_equal(u.f[0].key, "nodes");
	assert_int_equal(u.f[1].num, 1);
	assert_string_equal(u.f[2].key, "mincpus");
	free(u.f);
	PARSE(&u, "JobId=36", "StartTime=garbage");
	refused(&u, 1, "No changes specified");
	assert_string_equal(u.notes, "Invalid time specification (pos=0): garbage\n");
	PARSE(&u, "JobId=36", "StartTime=garbage", "Nice=3");
	assert_int_equal(u.r, 0);
	assert_int_equal(u.n, 1);
	assert_string_equal(u.notes, "Invalid time specification (pos=0): garbage\n");
	free(u.f);
	PARSE(&u, "JobId=36_4", "ArrayTaskThrottle=2");
	assert_int_equal(u.r, 0);
	assert_string_equal(u.jobs, "36_4");
	assert_int_equal(u.n, 1);
	assert_string_equal(u.f[0].key, "array_throttle");
	assert_int_equal(u.f[0].num, 2);
	free(u.f);
	PARSE(&u, "JobId=36", "ArrayTaskThrottle=-1");
	refused(&u, 1, "scontrol: error: Invalid ArrayTaskThrottle value");
	/* Slurm's abbreviations and its "KEY VALUE" words (each as the
	 * reference scontrol took it); Nice alone is Nice=100 */
	PARSE(&u, "Job=36", "TimeLim=5", "W", "k1", "nice", "St=now", "Comm=c");
	assert_int_equal(u.r, 0);
	assert_string_equal(u.jobs, "36");
	assert_int_equal(u.n, 5);
	assert_string_equal(u.f[0].key, "time_limit");
	assert_string_equal(u.f[1].key, "wckey");
	assert_string_equal(u.f[1].str, "k1");
	assert_string_equal(u.f[2].key, "nice");
	assert_int_equal(u.f[2].num, 100);
	assert_string_equal(u.f[3].key, "begin_time");
	assert_string_equal(u.f[4].key, "comment");
	free(u.f);
	PARSE(&u, "JobID", "36", "TimeLimit", "6");
	assert_int_equal(u.r, 0);
	assert_string_equal(u.jobs, "36");
	assert_int_equal(u.f[0].num, 6);
	free(u.f);
	PARSE(&u, "JobId=36", "Co=x");
	refused(&u, 1, "Update of this parameter is not supported: Co=x\nRequest aborted");
	PARSE(&u, "JobId=36", "BeginTime=now");
	refused(&u, 1, "Update of this parameter is not supported: BeginTime=now\nRequest aborted");
	PARSE(&u, "JobId=36", "TimeLimit");
	refused(&u, 1, "Invalid input: TimeLimit\nRequest aborted");
	/* where it may run: Slurm's least abbreviations, its value forms */
	PARSE(&u, "JobId=36", "F=a&b", "ReqNodeL=n1", "Exc=n2", "Con=Y", "Switch=2@1:00:00",
	      "wait-for=30", "Tas=4", "DelayB=1:00:00");
	assert_int_equal(u.r, 0);
	assert_int_equal(u.n, 9);
	assert_string_equal(u.f[0].key, "features");
	assert_string_equal(u.f[0].str, "a&b");
	assert_string_equal(u.f[1].key, "nodelist");
	assert_string_equal(u.f[2].key, "exclude");
	assert_string_equal(u.f[3].key, "contiguous");
	assert_int_equal(u.f[3].num, 1);
	assert_string_equal(u.f[4].key, "switches");
	assert_int_equal(u.f[4].num, 2);
	assert_string_equal(u.f[5].key, "wait4switch");
	assert_int_equal(u.f[5].num, 3600);
	assert_string_equal(u.f[6].key, "wait4switch");
	assert_int_equal(u.f[6].num, 30);
	assert_string_equal(u.f[7].key, "tasks_per_node");
	assert_string_equal(u.f[8].key, "delay_boot");
	assert_int_equal(u.f[8].num, 60);
	free(u.f);
	PARSE(&u, "JobId=36", "Contiguous=maybe");
	refused(&u, 1, "scontrol: error: Invalid Contiguous value: maybe");
	/* parse_uint16: below NO_VAL16 (65534); an empty value is 0 */
	PARSE(&u, "JobId=36", "TasksPerNode=65534");
	refused(&u, 1, "scontrol: error: Invalid TasksPerNode value: 65534");
	PARSE(&u, "JobId=36", "TasksPerNode=65533", "Contiguous=");
	assert_int_equal(u.r, 0);
	assert_int_equal(u.f[0].num, 65533);
	assert_int_equal(u.f[1].num, 0);
	free(u.f);
	PARSE(&u, "JobId=36", "Features=a|b");
	refused(&u, 1, "scontrol: error: Features=a|b: only features joined with & are supported "
		"by Sluice");
	PARSE(&u, "JobId=36", "Gres=gpu:1");
	refused(&u, 1, "scontrol: error: update Gres= is not supported by Sluice");
	PARSE(&u, "JobId=36", "ResetAccrueTime");
	refused(&u, 1, "scontrol: error: update ResetAccrueTime is not supported by Sluice");
	parse(&u, 0, NULL);
	refused(&u, 1, "too few arguments for update keyword");
}

/* A job cancelled before it ran, without -n: NumTasks=N/A (slurmctld never
 * counted its tasks); with -n its count, as the reference cluster shows. */
static void test_cancelled_pending_tasks(void **state)
{
	struct sl_job *j = job26();
	struct sl_buf *b = sl_buf_new(1 << 14);
	(void)state;

	j->state = SL_JOB_CANCELLED;
	assert_int_equal(sl_scontrol_job(b, j, mk(2026, 11, 21, 10, 24, 0), 0), 0);
	assert_non_null(strstr(sl_buf_str(b), " NumTasks=N/A "));
	sl_buf_reset(b);
	j->spec.ntasks = 2;
	assert_int_equal(sl_scontrol_job(b, j, mk(2026, 11, 21, 10, 24, 0), 0), 0);
	assert_non_null(strstr(sl_buf_str(b), " NumTasks=2 "));
	sl_buf_free(b);
	sl_job_free(j);
}

/* ---- show step ---- */

/* The reference cluster's steps 123027.batch and 123028.0 (-n 1 -m cyclic
 * --cpu-freq=low -t 5 on a two-CPU job with 4000M a CPU). */
static void test_step(void **state)
{
	struct sl_job *j = job26();
	struct sl_buf *b = sl_buf_new(1 << 14);
	struct sl_step s = {.job_id = 26, .step_id = 0, .state = SL_JOB_RUNNING, .ntasks = 1,
			    .nnodes = 1, .cpus = 2, .mem = 8000, .pid = 31384, .time_limit = 5};
	(void)state;

	j->state = SL_JOB_RUNNING;
	j->start_time = s.start_time = mk(2026, 11, 21, 10, 24, 17);
	j->nodelist = sl_xstrdup("n1");
	s.name = sl_xstrdup("sleep");
	s.nodelist = sl_xstrdup("n1");
	s.dist = sl_xstrdup("cyclic");
	s.cpu_freq = sl_xstrdup("Low");
	s.srun_host = sl_xstrdup("vm");
	sl_scontrol_batch_step(b, j, 0);
	sl_scontrol_step(b, j, &s, 0);
	assert_string_equal(sl_buf_str(b),
		"StepId=26.batch UserId=2001 StartTime=2026-11-21T10:24:17 TimeLimit=UNLIMITED\n"
		"   State=RUNNING Partition=cpu NodeList=n1\n"
		"   Nodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)\n"
		"   TRES=(null)\n"
		"   ResvPorts=(null)\n"
		"   CPUFreqReq=Default\n"
		"   SrunHost:Pid=(null):0\n\n"
		"StepId=26.0 UserId=2001 StartTime=2026-11-21T10:24:17 TimeLimit=00:05:00\n"
		"   State=RUNNING Partition=cpu NodeList=n1\n"
		"   Nodes=1 CPUs=2 Tasks=1 Name=sleep Network=(null)\n"
		"   TRES=cpu=2,mem=8000M,node=1\n"
		"   ResvPorts=(null)\n"
		"   CPU_max_freq=Low  Dist=Cyclic\n"
		"   SrunHost:Pid=vm:31384\n\n");
	/* -o, the default frequency, and Slurm's layout names */
	static const struct {
		const char *dist, *name;
	} names[] = {{"block", "Block"}, {"block:cyclic", "BCyclic"}, {"cyclic:fcyclic", "CFCyclic"},
		     {"block:block:cyclic", "BBlockCyclic"}, {"block:*", "Block"}, {"*", "Block"},
		     {"plane=4", "Plane"}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char want[64];
		sl_buf_reset(b);
		free(s.dist);
		s.dist = sl_xstrdup(names[i].dist);
		free(s.cpu_freq);
		s.cpu_freq = NULL;
		s.time_limit = 0;
		sl_scontrol_step(b, j, &s, 1);
		snprintf(want, sizeof(want), "CPUFreqReq=Default Dist=%s SrunHost", names[i].name);
		assert_non_null(strstr(sl_buf_str(b), want));
		assert_non_null(strstr(sl_buf_str(b), "TimeLimit=UNLIMITED State=RUNNING"));
		assert_string_equal(sl_buf_str(b) + sl_buf_len(b) - 2, "4\n");
	}
	sl_step_clear(&s);
	sl_buf_free(b);
	sl_job_free(j);
}

/* ---- partition, node, config ---- */

static void test_partition_node(void **state)
{
	const char *parts[] = {"cpu", "gpu", NULL};
	struct sl_sinfo_node n = {.name = "n1", .state = SL_NODE_MIXED, .cpus = 64, .cpus_alloc = 2,
				  .mem = 256000, .mem_alloc = 8000, .free_mem = 23650,
				  .cpu_load = 147, .gres = "gpu:8", .addr = "127.0.0.1",
				  .arch = "x86_64", .os = "Linux 6.1 #1 SMP", .port = 17001,
				  .partitions = parts};
	struct sl_sinfo_part p = {.name = "cpu", .is_default = 1, .avail = SL_PART_UP,
				  .max_time = SL_SINFO_INFINITE, .default_time = SL_SINFO_UNSET,
				  .nnodes = 1, .nodes = &n, .def_mem = -1, .max_mem = -1};
	struct sl_buf *b = sl_buf_new(1 << 16);
	(void)state;

	assert_int_equal(sl_scontrol_partition(b, &p, 0), 0);
	/* reference.md's partition cpu, on one node of 64 CPUs */
	assert_string_equal(sl_buf_str(b),
		"PartitionName=cpu\n"
		"   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"
		"   AllocNodes=ALL Default=YES QoS=N/A\n"
		"   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n"
		"   MaxNodes=UNLIMITED MaxTime=UNLIMITED MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n"
		"   Nodes=n1\n"
		"   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO\n"
		"   OverTimeLimit=NONE PreemptMode=OFF\n"
		"   State=UP TotalCPUs=64 TotalNodes=1 SelectTypeParameters=NONE\n"
		"   JobDefaults=(null)\n"
		"   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
		"   TRES=cpu=64,mem=250G,node=1,billing=64\n\n");
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_node(b, &n, 0), 0);
	assert_non_null(strstr(sl_buf_str(b), "NodeName=n1 Arch=x86_64 CoresPerSocket=1 \n"
					      "   CPUAlloc=2 CPUEfctv=64 CPUTot=64 CPULoad=1.47\n"));
	assert_non_null(strstr(sl_buf_str(b), "\n   Gres=gpu:8\n   NodeAddr=127.0.0.1 NodeHostName=n1 "
					      "Port=17001 Version=22.05.8\n   OS=Linux 6.1 #1 SMP \n"));
	assert_non_null(strstr(sl_buf_str(b), "\n   RealMemory=256000 AllocMem=8000 FreeMem=23650 "
					      "Sockets=64 Boards=1\n   State=MIXED "));
	assert_non_null(strstr(sl_buf_str(b), "\n   Partitions=cpu,gpu \n"));
	assert_non_null(strstr(sl_buf_str(b), "\n   CfgTRES=cpu=64,mem=250G,billing=64\n"
					      "   AllocTRES=cpu=2,mem=8000M\n"));
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_partition(b, &p, SL_SCONTROL_ONELINE), 0);
	assert_non_null(strstr(sl_buf_str(b), "PartitionName=cpu AllowGroups=ALL "));
	assert_string_equal(sl_buf_str(b) + sl_buf_len(b) - 11, "billing=64\n"); /* no blank line */
	sl_buf_free(b);
}

static void test_config(void **state)
{
	char *keys[] = {"clusterName", "killWait", "minJobAge", "killInvalidDepend", "auth",
			"stateDir", "executor", NULL};
	char *vals[] = {"sluicetest", "2", "300", "yes", "munge", "/var/lib/sluice", "local", NULL};
	struct sl_daemonconf dc = {.now = mk(2026, 11, 25, 23, 8, 15), .start_time = 0,
				   .host = "vm", .user = "root", .conf_path = "/etc/sluice/sluice.yaml",
				   .uid = 0, .n = 7, .keys = keys, .values = vals};
	struct sl_buf *b = sl_buf_new(1 << 16);
	const char *t, *end;
	(void)state;

	assert_int_equal(sl_scontrol_config(b, &dc), 0);
	t = sl_buf_str(b);
	assert_int_equal(strncmp(t, "Configuration data as of 2026-11-25T23:08:15\n", 45), 0);
	assert_non_null(strstr(t, "\nAuthType                = auth/munge\n"));
	assert_non_null(strstr(t, "\nClusterName             = sluicetest\n"));
	assert_non_null(strstr(t, "\nDependencyParameters    = kill_invalid_depend\n"));
	assert_non_null(strstr(t, "\nKillWait                = 2 sec\n"));
	assert_non_null(strstr(t, "\nMinJobAge               = 300 sec\n"));
	/* Sluice's own keys, less those Slurm's names showed: one MinJobAge */
	assert_non_null(strstr(t, "\nSluice Configuration:\nexecutor                = local\n"));
	assert_null(strstr(t, "minJobAge"));
	assert_non_null(strstr(t, "\nProctrackType           = proctrack/pgid\n"));
	end = "\n\nSlurmctld(primary) at vm is UP\n"; /* a blank line, then ping's */
	assert_string_equal(t + strlen(t) - strlen(end), end);
	sl_buf_free(b);
}

/* ---- the words ---- */

static void test_words(void **state)
{
	const struct sl_scontrol_verb *v;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	(void)state;

	assert_int_equal(sl_scontrol_verb("SHOW")->kind, SL_SC_SHOW);
	assert_int_equal(sl_scontrol_verb("sho")->kind, SL_SC_SHOW);
	assert_null(sl_scontrol_verb("sh"));
	assert_null(sl_scontrol_verb("bogus"));
	assert_int_equal(sl_scontrol_verb("requeuehold")->op, SL_CTL_REQUEUE_HOLD);
	assert_int_equal(sl_scontrol_verb("requeue")->op, SL_CTL_REQUEUE);
	assert_int_equal(sl_scontrol_verb("u")->kind, SL_SC_UPDATE);
	assert_int_equal(sl_scontrol_verb("reconfig")->kind, SL_SC_RECONFIGURE);
	assert_int_equal(sl_scontrol_entity("job"), SL_SC_JOB);
	assert_int_equal(sl_scontrol_entity("jobid"), SL_SC_JOB);
	assert_int_equal(sl_scontrol_entity("part"), SL_SC_PARTITION);
	assert_int_equal(sl_scontrol_entity("Nodes"), SL_SC_NODE);
	assert_int_equal(sl_scontrol_entity("hostlistsorted"), SL_SC_HOSTLIST_SORTED);
	assert_int_equal(sl_scontrol_entity("bogus"), SL_SC_NO_ENTITY);

	/* a refusal: the daemon's reason once, " for job N" by scontrol */
	char why[256];
	v = sl_scontrol_verb("hold");
	sl_err_set(&err, SL_EPERM, "Invalid user id for job 36");
	sl_scontrol_why(v, -SL_EPERM, &err, why, sizeof(why));
	assert_string_equal(why, "Invalid user id");
	sl_err_clear(&err);
	sl_err_set(&err, SL_ESTATE, "Job has already finished");
	sl_scontrol_why(sl_scontrol_verb("requeue"), -SL_ESTATE, &err, why, sizeof(why));
	assert_string_equal(why, "Job has already finished");
	sl_scontrol_why(sl_scontrol_verb("suspend"), -SL_ENOENT, &err, why, sizeof(why));
	assert_string_equal(why, "Unexpected message received");
	sl_scontrol_why(sl_scontrol_verb("release"), -SL_ENOENT, &err, why, sizeof(why));
	assert_string_equal(why, "Invalid job id specified");

	assert_int_equal(sl_scontrol_hosts(SL_SC_HOSTNAMES, "n[1-3],x01", b, NULL), 0);
	assert_string_equal(sl_buf_str(b), "n1\nn2\nn3\nx01\n");
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_hosts(SL_SC_HOSTLIST, "n3,n1,n2,x01", b, NULL), 0);
	assert_string_equal(sl_buf_str(b), "n[3,1-2],x01\n");
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_hosts(SL_SC_HOSTLIST_SORTED, "n3,n1,n2", b, NULL), 0);
	assert_string_equal(sl_buf_str(b), "n[1-3]\n");
	sl_err_clear(&err);
	assert_int_equal(sl_scontrol_hosts(SL_SC_HOSTNAMES, NULL, b, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "host list is empty");
	sl_buf_free(b);
}

/* update on an array whole: Slurm's lines per answer, each task's own
 * (the daemon's "each"), a running task's refusal of a field that only
 * changes while pending too (observed on 22.05: "N_1: Job is no longer
 * pending execution" and "N_2-3: No error", exit 1). */
static void test_array_report(void **state)
{
	struct sl_jobresult res[4];
	struct sl_buf *b = sl_buf_new(1 << 12);
	(void)state;
	memset(res, 0, sizeof(res));
	for (int i = 0; i < 4; i++) {
		res[i].id = 42 + (uint64_t)(3 - i); /* any order in */
		res[i].array_job_id = 41;
		res[i].array_task_id = 3 - i;
	}
	res[3].ended = 1;
	res[3].rc = -SL_ESTATE;
	snprintf(res[3].msg, sizeof(res[3].msg), "Job has already finished");
	res[2].rc = -SL_ESTATE;
	snprintf(res[2].msg, sizeof(res[2].msg), "Job is no longer pending execution");
	assert_int_equal(sl_scontrol_array_report(b, 41, res, 4), 1);
	assert_string_equal(sl_buf_str(b), "41_0: Job has already finished\n"
					   "41_1: Job is no longer pending execution\n"
					   "41_2-3: No error\n");
	sl_buf_reset(b);
	res[3].rc = res[2].rc = 0;
	assert_int_equal(sl_scontrol_array_report(b, 41, res, 4), 0); /* all took it: silent */
	assert_string_equal(sl_buf_str(b), "");
	for (int i = 0; i < 4; i++) { /* all refused: one line, still per task */
		res[i].rc = -SL_EPERM;
		snprintf(res[i].msg, sizeof(res[i].msg), "Invalid user id");
	}
	assert_int_equal(sl_scontrol_array_report(b, 41, res, 4), 1);
	assert_string_equal(sl_buf_str(b), "41_0-3: Invalid user id\n");
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_array_report(b, 40, res, 4), 0); /* not array 40's */
	assert_int_equal(sl_scontrol_array_report(b, 41, res, 0), 0);
	assert_int_equal(sl_scontrol_array_report(b, 41, NULL, 0), 0); /* a plain job */
	assert_string_equal(sl_buf_str(b), "");
	sl_buf_free(b);
}

/* Slurm's record count for a job id (slurm_load_job): an array's pending
 * tasks still in its meta record are one; a task that ran, or was split
 * off by its own id, is its own; a plain job is one. */
static void test_records(void **state)
{
	struct sl_job t[4], *v[4];
	(void)state;
	memset(t, 0, sizeof(t));
	for (int i = 0; i < 4; i++) {
		t[i].id = 42 + (uint64_t)i;
		t[i].array_job_id = 41;
		t[i].array_task_id = i;
		t[i].state = SL_JOB_PENDING;
		v[i] = &t[i];
	}
	assert_int_equal(sl_scontrol_records(v, 4), 1);
	t[3].array_split = 1;
	assert_int_equal(sl_scontrol_records(v, 4), 2);
	t[0].state = SL_JOB_RUNNING;
	assert_int_equal(sl_scontrol_records(v, 4), 3);
	t[1].state = t[2].state = SL_JOB_COMPLETED;
	assert_int_equal(sl_scontrol_records(v, 4), 4);
	t[0].array_job_id = 0; /* a plain job */
	assert_int_equal(sl_scontrol_records(v, 1), 1);
	t[0].state = SL_JOB_PENDING;
	assert_int_equal(sl_scontrol_records(v, 1), 1);
}

/* Job lists as 22.05's scontrol reads them (update_job.c's _is_job_id and
 * _next_job_id), and its lines per group of an array's tasks, each case
 * as the reference cluster printed it. */
static void test_job_list(void **state)
{
	char **v = NULL;
	size_t n = 0;
	(void)state;
	assert_int_equal(sl_scontrol_job_list("7,8 9_[1-3,5],[11-13]_2,14_4", &v, &n), 0);
	assert_int_equal(n, 7);
	const char *want[] = {"7", "8", "9_1-3,5", "11_2", "12_2", "13_2", "14_4"};
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i], want[i]);
	sl_strv_free(v);
	const char *bad[] = {"abc", "7_1_2", "7-8", "7_[1-2", "7_*", "7.1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sl_scontrol_job_list(bad[i], &v, &n), -1);
		assert_null(v);
	}
	assert_int_equal(sl_scontrol_job_list("7_", &v, &n), 0); /* the daemon's to refuse */
	assert_string_equal(v[0], "7_");
	sl_strv_free(v);

	struct sl_jobresult res[4] = {
		{.array_task_id = 3, .rc = -SL_ESTATE, .msg = "Job has already finished"},
		{.array_task_id = 1, .rc = -SL_ESTATE, .msg = "Job has already finished"},
		{.array_task_id = 2}, {.array_task_id = 4},
	};
	struct sl_buf *b = sl_buf_new(1 << 12);
	assert_int_equal(sl_scontrol_task_report(b, 41, NULL, 0, res, 4), 1);
	assert_string_equal(sl_buf_str(b), "41_1,3: Job has already finished\n41_2,4: No error\n");
	sl_buf_reset(b);
	uint32_t asked[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
	assert_int_equal(sl_scontrol_task_report(b, 41, asked + 1, 1, res, 4), 0); /* lone success */
	assert_string_equal(sl_buf_str(b), "");
	res[0].rc = res[1].rc = 0;
	assert_int_equal(sl_scontrol_task_report(b, 41, asked, 9, res, 4), 1);
	assert_string_equal(sl_buf_str(b), "41_1-4: No error\n41_5-9: Invalid job id specified\n");
	sl_buf_reset(b);
	assert_int_equal(sl_scontrol_task_report(b, 41, asked, 1, res, 0), 1); /* no such array */
	assert_string_equal(sl_buf_str(b), "41_1: Invalid job id specified\n");
	sl_buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_dependency),
		cmocka_unit_test(test_reason_words),
		cmocka_unit_test(test_begin),
		cmocka_unit_test(test_num_nodes),
		cmocka_unit_test(test_suspended),
		cmocka_unit_test(test_update_parse),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_cancelled_pending_tasks),
		cmocka_unit_test(test_partition_node),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_words), cmocka_unit_test(test_array_report),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_job_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
