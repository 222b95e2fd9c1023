/* squeue_long.c - squeue -O: Slurm 22.05's field names (opts.c's
 * parse_long_format) and the columns only they reach.
 *
 * Most names print through a % code's row (squeue_fmt.c). The rest have
 * their own rows here, with the headers and the values the reference
 * cluster printed; fields Sluice has no counterpart for print Slurm's
 * value for "not set", so that a script parsing them keeps working. Three
 * names Slurm knows have no honest value here (the cluster name is the
 * daemon's config, the submitting session and the last scheduling pass are
 * not recorded); they are left out with a message. */
#include "squeue_cols.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "slurm_time.h"
#include "slurm_tres.h"

#define P(name) static int name(const struct sl_job *j, int64_t now, char *buf, size_t len)
#define S(expr) do { snprintf(buf, len, "%s", (expr)); return 1; } while (0)
#define N(expr) do { snprintf(buf, len, "%lld", (long long)(expr)); return 1; } while (0)
#define CONST(name, text) P(name) { (void)j; (void)now; S(text); }

CONST(c_null, "(null)")
CONST(c_na, "N/A")
CONST(c_na2, "NA")
CONST(c_zero, "0")
CONST(c_one, "1")
CONST(c_notset, "NotSet")
CONST(c_empty, "")

static struct sl_jobshape shape(const struct sl_job *j)
{
	struct sl_jobshape sh;
	sl_job_shape(j, &sh);
	return sh;
}

/* Held jobs are not eligible in Slurm (ELIGIBLE_TIME N/A) until released. */
static int64_t eligible(const struct sl_job *j)
{
	return j->state == SL_JOB_PENDING && j->spec.hold ? 0 : j->eligible_time;
}

/* sbatch makes -o/-e/-i absolute against the working directory. */
/* The path as 22.05's squeue prints it: given patterns raw, the default
 * (an array's too) as slurm-JOBID.out, where a pending task's JOBID is
 * its array's (Slurm's pending tasks share the array's record). */
static int path(const struct sl_job *j, const char *p, char *buf, size_t len)
{
	if (p == NULL || (j->array_job_id != 0 && strcmp(p, "slurm-%A_%a.out") == 0))
		snprintf(buf, len, "%s/slurm-%llu.out", j->spec.work_dir ? j->spec.work_dir : "",
			 (unsigned long long)(j->array_job_id != 0 && j->state == SL_JOB_PENDING
						      ? j->array_job_id : j->id));
	else if (p[0] == '/' || j->spec.work_dir == NULL)
		snprintf(buf, len, "%s", p);
	else
		snprintf(buf, len, "%s/%s", j->spec.work_dir, p);
	return 1;
}

P(p_tasks) { (void)now; N(shape(j).ntasks); }
P(p_cpus_per_task) { (void)now; N(shape(j).cpus_per_task); }
P(p_ntasks_per_node) { (void)now; N(j->spec.ntasks_per_node > 0 ? j->spec.ntasks_per_node : 0); }
P(p_max_cpus) { (void)now; N(sl_slurm_job_cpus(j)); }
P(p_max_nodes) { (void)now; N(j->spec.nodes_max > 0 ? j->spec.nodes_max : shape(j).nodes); }
P(p_requeue) { (void)now; N(j->spec.requeue ? 1 : 0); }
P(p_restarts) { (void)now; N(j->attempt); }
P(p_alloc_node) { (void)now; S(j->spec.submit_host ? j->spec.submit_host : "(null)"); }
P(p_alloc_sid) { (void)now; N(j->spec.submit_sid); }
P(p_stdout) { (void)now; return path(j, j->spec.std_out, buf, len); }
P(p_stdin) { (void)now; return path(j, j->spec.std_in ? j->spec.std_in : "/dev/null", buf, len); }
P(p_tres_alloc) { (void)now; sl_slurm_tres_fmt(j, SL_TRES_SQUEUE, 0, buf, len); return 1; }
/* The wait status: exit code in the high byte, signal in the low one. */
P(p_exit_code) { (void)now; N(((j->exit_code & 0xff) << 8) | (j->exit_signal & 0x7f)); }
P(p_eligible) { (void)now; sl_squeue_time_fmt(eligible(j), buf, len); return 1; }

P(p_stderr)
{
	(void)now;
	return path(j, j->spec.std_err ? j->spec.std_err : j->spec.std_out, buf, len);
}

/* Accrual starts once the job is eligible. */
P(p_accrue)
{
	int64_t t = eligible(j);
	sl_squeue_time_fmt(t <= now ? t : 0, buf, len);
	return 1;
}

/* Started: start - submit; else now - submit. */
P(p_pending)
{
	int64_t from = j->start_time && j->start_time < now ? j->start_time : now;
	N(from - j->submit_time);
}

P(p_tres_per_job)
{
	(void)now;
	if (j->spec.gpus <= 0)
		S("N/A");
	if (j->spec.gpu_type)
		snprintf(buf, len, "gres:gpu:%s:%d", j->spec.gpu_type, j->spec.gpus);
	else
		snprintf(buf, len, "gres:gpu:%d", j->spec.gpus);
	return 1;
}
/* minutes as squeue's times print: "10:00", "1-00:00:00" */
static int minutes(int64_t m, char *buf, size_t len)
{
	sl_slurm_time_fmt_elapsed(m * 60, buf, len);
	return 1;
}
P(p_time_min) { (void)now; return minutes(j->spec.time_min, buf, len); }
P(p_delay_boot) { (void)now; return minutes(j->spec.delay_boot, buf, len); }
P(p_wait4switch)
{
	(void)now;
	sl_slurm_time_fmt_elapsed(sl_jobspec_switch_wait(&j->spec), buf, len);
	return 1;
}
P(p_tres_bind)
{
	(void)now;
	if (j->spec.gpu_bind == NULL)
		S("N/A");
	snprintf(buf, len, "gpu:%s", j->spec.gpu_bind);
	return 1;
}

#undef P
#undef S
#undef N
#undef CONST

#define COL(var, header, fn) static const struct sl_squeue_col var = {0, header, 1, fn}
COL(k_container, "CONTAINER", c_null);
COL(k_bb, "BURST_BUFFER", c_null);
COL(k_bb_state, "BURST_BUFFER_STATE", c_null);
COL(k_delay_boot, "DELAY_BOOT", p_delay_boot);
COL(k_tasks, "TASKS", p_tasks);
COL(k_cluster_feat, "CLUSTER_FEATURES", c_null);
COL(k_prefer, "PREFER", c_null);
COL(k_admin_comment, "ADMIN_COMMENT", c_null);
COL(k_system_comment, "SYSTEM_COMMENT", c_null);
COL(k_select, "", c_empty);
COL(k_pending, "PENDING_TIME", p_pending);
COL(k_accrue, "ACCRUE_TIME", p_accrue);
COL(k_alloc_nodes, "ALLOC_NODES", p_alloc_node);
COL(k_alloc_sid, "ALLOC_SID", p_alloc_sid);
COL(k_assoc, "ASSOC_ID", c_zero);
COL(k_batch_flag, "BATCH_FLAG", c_one);
COL(k_boards, "BOARDS_PER_NODE", c_zero);
COL(k_cpus_per_task, "CPUS_PER_TASK", p_cpus_per_task);
COL(k_derived_ec, "DERIVED_EC", c_zero);
COL(k_eligible, "ELIGIBLE_TIME", p_eligible);
COL(k_exit_code, "EXIT_CODE", p_exit_code);
COL(k_origin, "ORIGIN", c_na2);
COL(k_origin_raw, "ORIGIN_RAW", c_na2);
COL(k_sib_active, "ACTIVE_SIBLINGS", c_na2);
COL(k_sib_active_raw, "ACTIVE_SIBLINGS_RAW", c_na2);
COL(k_sib_viable, "VIABLE_SIBLINGS", c_na2);
COL(k_sib_viable_raw, "VIALBLE_SIBLINGS_RAW", c_na2); /* Slurm's spelling */
COL(k_max_cpus, "MAX_CPUS", p_max_cpus);
COL(k_max_nodes, "MAX_NODES", p_max_nodes);
COL(k_network, "NETWORK", c_null);
COL(k_nt_core, "NTASKS_PER_CORE", c_na);
COL(k_nt_node, "NTASKS_PER_NODE", p_ntasks_per_node);
COL(k_nt_socket, "NTASKS_PER_SOCKET", c_na);
COL(k_nt_board, "NTASKS_PER_BOARD", c_zero);
COL(k_preempt_time, "PREEMPT_TIME", c_na);
COL(k_profile, "PROFILE", c_notset);
COL(k_reboot, "REBOOT", c_zero);
COL(k_req_switch, "REQ_SWITCH", c_zero);
COL(k_requeue, "REQUEUE", p_requeue);
COL(k_resize_time, "RESIZE_TIME", c_na);
COL(k_restarts, "RESTART_COUNT", p_restarts);
COL(k_s_board, "SOCKETS_PER_BOARD", c_zero);
COL(k_stderr, "STDERR", p_stderr);
COL(k_stdin, "STDIN", p_stdin);
COL(k_stdout, "STDOUT", p_stdout);
COL(k_time_min, "TIME_MIN", p_time_min);
COL(k_wait4switch, "WAIT4SWITCH", p_wait4switch);
COL(k_cpus_per_tres, "CPUS_PER_TRES", c_na);
COL(k_mem_per_tres, "MEM_PER_TRES", c_na);
COL(k_tres_alloc, "TRES_ALLOC", p_tres_alloc);
COL(k_tres_bind, "TRES_BIND", p_tres_bind);
COL(k_tres_freq, "TRES_FREQ", c_na);
COL(k_tres_per_job, "TRES_PER_JOB", p_tres_per_job);
COL(k_tres_per_socket, "TRES_PER_SOCKET", c_na);
COL(k_tres_per_task, "TRES_PER_TASK", c_na);
COL(k_mcs, "MCSLABEL", c_null);
COL(k_deadline, "DEADLINE", c_na);
COL(k_het_id, "HET_JOB_ID", c_na);
COL(k_het_offset, "HET_JOB_OFFSET", c_na);
COL(k_het_id_set, "HET_JOB_ID_SET", c_na);
#undef COL

/* A name: a % code's row, its own row, or neither (known to Slurm, no
 * value here). In parse_long_format's order. */
static const struct {
	const char *name;
	char code;
	const struct sl_squeue_col *col;
} names[] = {
	{"account", 'a', NULL}, {"container", 0, &k_container}, {"jobid", 'A', NULL},
	{"gres", 'b', NULL}, {"batchhost", 'B', NULL}, {"burstbuffer", 0, &k_bb},
	{"burstbufferstate", 0, &k_bb_state}, {"cluster", 0, NULL},
	{"delayboot", 0, &k_delay_boot}, {"mincpus", 'c', NULL}, {"numcpus", 'C', NULL},
	{"mintmpdisk", 'd', NULL}, {"numnodes", 'D', NULL}, {"numtasks", 0, &k_tasks},
	{"endtime", 'e', NULL}, {"dependency", 'E', NULL}, {"feature", 'f', NULL},
	{"clusterfeature", 0, &k_cluster_feat}, {"prefer", 0, &k_prefer},
	{"arrayjobid", 'F', NULL}, {"groupname", 'g', NULL}, {"groupid", 'G', NULL},
	{"oversubscribe", 'h', NULL}, {"shared", 'h', NULL}, {"sockets", 'H', NULL},
	{"jobarrayid", 'i', NULL}, {"cores", 'I', NULL}, {"name", 'j', NULL},
	{"threads", 'J', NULL}, {"admin_comment", 0, &k_admin_comment},
	{"system_comment", 0, &k_system_comment}, {"comment", 'k', NULL},
	{"arraytaskid", 'K', NULL}, {"timelimit", 'l', NULL}, {"timeleft", 'L', NULL},
	{"minmemory", 'm', NULL}, {"timeused", 'M', NULL}, {"reqnodes", 'n', NULL},
	{"nodelist", 'N', NULL}, {"command", 'o', NULL}, {"contiguous", 'O', NULL},
	{"priority", 'p', NULL}, {"partition", 'P', NULL}, {"qos", 'q', NULL},
	{"prioritylong", 'Q', NULL}, {"reason", 'r', NULL}, {"reasonlist", 'R', NULL},
	{"selectjobinfo", 0, &k_select}, {"starttime", 'S', NULL},
	{"lastschedeval", 0, NULL}, {"statecompact", 't', NULL}, {"state", 'T', NULL},
	{"userid", 'U', NULL}, {"username", 'u', NULL}, {"reservation", 'v', NULL},
	{"submittime", 'V', NULL}, {"pendingtime", 0, &k_pending}, {"wckey", 'w', NULL},
	{"licenses", 'W', NULL}, {"corespec", 'X', NULL}, {"nice", 'y', NULL},
	{"schednodes", 'Y', NULL}, {"sct", 'z', NULL}, {"workdir", 'Z', NULL},
	{"accruetime", 0, &k_accrue}, {"allocnodes", 0, &k_alloc_nodes},
	{"allocsid", 0, &k_alloc_sid}, {"associd", 0, &k_assoc}, {"batchflag", 0, &k_batch_flag},
	{"boardspernode", 0, &k_boards}, {"cpuspertask", 0, &k_cpus_per_task},
	{"cpus-per-task", 0, &k_cpus_per_task}, {"derivedec", 0, &k_derived_ec},
	{"eligibletime", 0, &k_eligible}, {"exit_code", 0, &k_exit_code},
	{"origin", 0, &k_origin}, {"originraw", 0, &k_origin_raw},
	{"siblingsactive", 0, &k_sib_active}, {"siblingsactiveraw", 0, &k_sib_active_raw},
	{"siblingsviable", 0, &k_sib_viable}, {"siblingsviableraw", 0, &k_sib_viable_raw},
	{"maxcpus", 0, &k_max_cpus}, {"maxnodes", 0, &k_max_nodes},
	{"network", 0, &k_network}, {"ntpercore", 0, &k_nt_core},
	{"ntpernode", 0, &k_nt_node}, {"ntpersocket", 0, &k_nt_socket},
	{"ntperboard", 0, &k_nt_board}, {"preempttime", 0, &k_preempt_time},
	{"profile", 0, &k_profile}, {"reboot", 0, &k_reboot}, {"reqswitch", 0, &k_req_switch},
	{"requeue", 0, &k_requeue}, {"resizetime", 0, &k_resize_time},
	{"restartcnt", 0, &k_restarts}, {"sperboard", 0, &k_s_board},
	{"stderr", 0, &k_stderr}, {"stdin", 0, &k_stdin}, {"stdout", 0, &k_stdout},
	{"mintime", 0, &k_time_min}, {"wait4switch", 0, &k_wait4switch},
	{"cpus-per-tres", 0, &k_cpus_per_tres}, {"mem-per-tres", 0, &k_mem_per_tres},
	{"tres", 0, &k_tres_alloc}, {"tres-alloc", 0, &k_tres_alloc},
	{"tres-bind", 0, &k_tres_bind}, {"tres-freq", 0, &k_tres_freq},
	{"tres-per-job", 0, &k_tres_per_job}, {"tres-per-node", 'b', NULL},
	{"tres-per-socket", 0, &k_tres_per_socket}, {"tres-per-task", 0, &k_tres_per_task},
	{"mcslabel", 0, &k_mcs}, {"deadline", 0, &k_deadline},
	{"packjobid", 0, &k_het_id}, {"hetjobid", 0, &k_het_id},
	{"packjoboffset", 0, &k_het_offset}, {"hetjoboffset", 0, &k_het_offset},
	{"packjobidset", 0, &k_het_id_set}, {"hetjobidset", 0, &k_het_id_set},
};

const struct sl_squeue_col *sl_squeue_col_name(const char *name, int *known)
{
	*known = 0;
	/* opts.c compares "numtasks" on its first 7 letters only */
	if (strncasecmp(name, "numtask", 7) == 0)
		name = "numtasks";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(names[i].name, name) != 0)
			continue;
		*known = 1;
		return names[i].code ? sl_squeue_col_code(names[i].code) : names[i].col;
	}
	return NULL;
}
