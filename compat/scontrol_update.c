/* scontrol_update.c - the words of `scontrol update JobId=N KEY=VALUE...`
 * into the daemon's update fields (PROTOCOL.md, UPDATE), with Slurm
 * 22.05's messages for what it refuses before asking the controller. */
#include "scontrol_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_opt.h"
#include "slurm_state.h"
#include "slurm_time.h"
#include "xalloc.h"

struct up {
	struct sl_update_field *f;
	size_t n;
	int64_t now;
	int dropped;     /* a value Slurm drops with a message (StartTime=garbage) */
	int ignored;     /* a key Slurm takes and this job has no use for */
	int have_id;     /* JobId= came before the word at hand */
	const char *jobs; /* its value */
	struct sl_err *err;
};

static void add(struct up *u, const char *key, const char *str, int64_t num)
{
	u->f = sl_xrealloc(u->f, (u->n + 1) * sizeof(*u->f));
	u->f[u->n++] = (struct sl_update_field){key, str, num};
}

/* s is N or N_I (strtol's numbers). */
static int one_job(const char *s)
{
	char *end;
	(void)strtol(s, &end, 10);
	if (*end == '_')
		(void)strtol(end + 1, &end, 10);
	return *end == '\0';
}

/* TimeLimit=+T and -T change the current limit by T: scontrol asks for the
 * job's limit first (scontrol.c), as 22.05's _get_job_time, and sends the
 * sum; "time_limit_add" carries T, signed, until then. */
static int k_time_limit(struct up *u, const char *v)
{
	int64_t m;
	int sign = *v == '+' ? 1 : *v == '-' ? -1 : 0;
	if (sl_slurm_time_parse_limit(v + (sign != 0), &m) != 0 || (sign && m < 0))
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid TimeLimit value");
	if (sign && !u->have_id)
		return sl_err_set(u->err, SL_EINVAL,
				  "scontrol: error: JobId must precede TimeLimit increment or decrement");
	/* 22.05's _get_job_time reads one N or N_I: a list or N_[...] is not one */
	if (sign && !one_job(u->jobs))
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid job ID %s", u->jobs);
	add(u, sign ? "time_limit_add" : "time_limit", NULL, sign ? sign * m : m);
	return 0;
}

/* TimeMin=: 0 clears it; scontrol refuses what is not a time. */
static int k_time_min(struct up *u, const char *v)
{
	int64_t m;
	if (sl_slurm_time_parse_limit(v, &m) != 0 || (m < 0 && m != SL_TIME_INFINITE))
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid TimeMin value");
	add(u, "time_min", NULL, m);
	return 0;
}

static int number(struct up *u, const char *key, const char *what, const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0')
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid %s value", what);
	add(u, key, NULL, n);
	return 0;
}

static int k_priority(struct up *u, const char *v)
{
	return number(u, "priority", "Priority", v);
}

static int k_nice(struct up *u, const char *v)
{
	add(u, "nice", NULL, atoll(v)); /* Slurm reads it with atoi: "abc" is 0 */
	return 0;
}

/* Slurm names the value and goes on with exit status 0, sending nothing. */
static int k_num_nodes(struct up *u, const char *v)
{
	int lo, hi, n = 0;
	/* "3-1" and "0" are the controller's to refuse (Node count
	 * specification invalid) */
	if (sscanf(v, "%d-%d%n", &lo, &hi, &n) == 2 && v[n] == '\0' && lo >= 0 && hi < lo) {
		add(u, "nodes", NULL, lo);
		add(u, "nodes_max", NULL, hi);
		return 0;
	}
	if (sl_slurm_parse_nodes(v, &lo, &hi, NULL) != 0) {
		u->dropped = 2;
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid numeric value \"%s\" "
				  "for requested node count.", v);
	}
	add(u, "nodes", NULL, lo);
	/* a range sets the maximum too, "1-1" as well: a running job refuses
	 * it (Job is no longer pending execution) */
	if (hi != SL_NO_VAL && (hi != lo || strchr(v, '-') != NULL))
		add(u, "nodes_max", NULL, hi);
	return 0;
}

/* NumCPUs: below 1 is scontrol's to refuse, with the value. */
static int k_num_cpus(struct up *u, const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 1)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid NumCPUs value: %s", v);
	add(u, "cpus", NULL, n);
	return 0;
}


/* A time (StartTime=, Deadline=): parse_time's line when it is not one,
 * and the field goes. */
static int time_key(struct up *u, const char *key, const char *v)
{
	int64_t t;
	int pos;
	if (sl_slurm_time_parse(v, u->now, SL_TIME_NEXT, &t, &pos) == 0) {
		add(u, key, NULL, t);
		return 0;
	}
	u->dropped = 1;
	if (pos != SL_TIME_NO_POS)
		return sl_err_set(u->err, SL_EINVAL, "Invalid time specification (pos=%d): %s", pos, v);
	return 0;
}

static int k_start(struct up *u, const char *v)
{
	return time_key(u, "begin_time", v);
}

static int k_deadline(struct up *u, const char *v)
{
	return time_key(u, "deadline", v);
}

/* DelayBoot=: a time, minutes without a unit (time_str2secs). */
static int k_delay_boot(struct up *u, const char *v)
{
	int64_t m;
	if (sl_slurm_time_parse_limit(v, &m) != 0 || m < 0)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid DelayBoot value");
	add(u, "delay_boot", NULL, m);
	return 0;
}

/* Switches=N[@TIME]: strtol's number, the wait in minutes as a time. */
static int k_switches(struct up *u, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	int64_t m;
	add(u, "switches", NULL, n < 0 ? 0 : n);
	if (*end == '@') {
		if (sl_slurm_time_parse_limit(end + 1, &m) != 0 || m < 0)
			m = 0;
		add(u, "wait4switch", NULL, m * 60);
	}
	return 0;
}

/* A number below NO_VAL16 or NO_VAL (2^bits - 2), else "Invalid WHAT
 * value: V" (parse_uint16/32: an empty value is 0). */
static int unsigned_key(struct up *u, const char *key, const char *what, int bits,
			const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (*end != '\0' || n < 0 || n >= (1LL << bits) - 2)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid %s value: %s", what, v);
	add(u, key, NULL, n);
	return 0;
}

static int k_wait4switch(struct up *u, const char *v)
{
	return unsigned_key(u, "wait4switch", "wait-for-switch", 32, v);
}

static int k_tasks_per_node(struct up *u, const char *v)
{
	return unsigned_key(u, "tasks_per_node", "TasksPerNode", 16, v);
}

/* Contiguous=YES|NO|N (Y and N will do, any case). */
static int k_contiguous(struct up *u, const char *v)
{
	size_t k = strlen(v);
	if (k > 0 && strncasecmp(v, "YES", k) == 0)
		v = "1";
	else if (k > 0 && strncasecmp(v, "NO", k) == 0)
		v = "0";
	return unsigned_key(u, "contiguous", "Contiguous", 16, v);
}

/* Features=: the form sbatch -C takes (features joined with &). */
static int k_features(struct up *u, const char *v)
{
	char **f = NULL;
	struct sl_err e = SL_ERR_INIT;
	if (sl_slurm_parse_constraint(v, &f, &e) != 0)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Features=%s: only features "
				  "joined with & are supported by Sluice", v);
	sl_strv_free(f);
	add(u, "features", v, 0);
	return 0;
}

/* Slurm reads it with strtoll: "abc" is 0 (no throttle); below 0 refused. */
static int k_throttle(struct up *u, const char *v)
{
	long long n = strtoll(v, NULL, 10);
	if (n < 0)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid ArrayTaskThrottle value");
	add(u, "array_throttle", NULL, n > 4000001 ? 4000001 : n);
	return 0;
}

/* "scontrol: error: Invalid KEY value: V" (scontrol's parse of the
 * number, before anything is sent). */
static int count(struct up *u, const char *key, const char *what, const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0')
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid %s value: %s", what, v);
	add(u, key, NULL, n);
	return 0;
}

static int k_min_cpus_node(struct up *u, const char *v)
{
	return count(u, "mincpus", "MinCPUsNode", v);
}

static int k_num_tasks(struct up *u, const char *v)
{
	return count(u, "ntasks", "NumTasks", v);
}

static int k_cpus_per_task(struct up *u, const char *v)
{
	return count(u, "cpus_per_task", "CPUsPerTask", v);
}

/* Requeue=N: any number, not 0 is 1, as Slurm reads it. */
static int k_requeue(struct up *u, const char *v)
{
	int r = count(u, "requeue", "Requeue", v);
	if (r == 0)
		u->f[u->n - 1].num = u->f[u->n - 1].num != 0;
	return r;
}

static int mem(struct up *u, const char *key, const char *what, const char *v)
{
	int64_t mib;
	if (sl_slurm_parse_mem(v, &mib) != 0)
		return sl_err_set(u->err, SL_EINVAL, "scontrol: error: Invalid %s value: %s", what, v);
	add(u, key, NULL, mib);
	return 0;
}

static int k_mem_node(struct up *u, const char *v)
{
	return mem(u, "mem_per_node", "MinMemoryNode", v);
}

static int k_mem_cpu(struct up *u, const char *v)
{
	return mem(u, "mem_per_cpu", "MinMemoryCPU", v);
}

static int k_tmp(struct up *u, const char *v)
{
	return mem(u, "tmp_mb", "MinTmpDiskNode", v);
}

static int k_mail_type(struct up *u, const char *v)
{
	int bits = sl_slurm_parse_mail_type(v);
	if (bits < 0)
		return sl_err_set(u->err, SL_EINVAL, "Invalid MailType: %s", v);
	add(u, "mail_type", NULL, bits);
	return 0;
}

#define STR_KEY(fn, wire) \
	static int fn(struct up *u, const char *v) { add(u, wire, v, 0); return 0; }
STR_KEY(k_partition, "partition")
STR_KEY(k_qos, "qos")
STR_KEY(k_name, "name")
STR_KEY(k_comment, "comment")
STR_KEY(k_dependency, "dependency")
STR_KEY(k_account, "account")
STR_KEY(k_mail_user, "mail_user")
STR_KEY(k_std_out, "std_out")
STR_KEY(k_work_dir, "work_dir")
STR_KEY(k_wckey, "wckey")
STR_KEY(k_nodelist, "nodelist")
STR_KEY(k_exclude, "exclude")

/* Slurm 22.05's update_job keys in its order, each taken from its least
 * abbreviation on (update_job.c's xstrncasecmp(tag, KEY, MAX(taglen, MIN))). */
static const struct {
	const char *key;
	size_t min;
	int (*fn)(struct up *u, const char *v); /* NULL: not supported by Sluice */
} keys[] = {
	{"AdminComment", 6, NULL}, {"SiteFactor", 5, NULL},
	{"ArrayTaskThrottle", 10, k_throttle}, {"Comment", 3, k_comment},
	{"Clusters", 8, NULL}, {"ClusterFeatures", 8, NULL}, {"DelayBoot", 5, k_delay_boot},
	{"TimeLimit", 5, k_time_limit}, {"TimeMin", 5, k_time_min},
	{"Priority", 2, k_priority}, {"Nice", 2, k_nice},
	{"CPUsPerTask", 9, k_cpus_per_task}, {"CpusPerTres", 9, NULL}, {"NumCPUs", 6, k_num_cpus},
	{"NumTasks", 8, k_num_tasks}, {"ReqProcs", 8, k_num_tasks},
	{"Requeue", 4, k_requeue}, {"ReqNodes", 8, k_num_nodes}, {"NumNodes", 8, k_num_nodes},
	{"ReqSockets", 4, NULL}, {"ReqCores", 4, NULL}, {"TasksPerNode", 2, k_tasks_per_node},
	{"ReqThreads", 4, NULL},
	{"MinCPUsNode", 4, k_min_cpus_node}, {"MinMemoryNode", 10, k_mem_node},
	{"MinMemoryCPU", 10, k_mem_cpu}, {"MinTmpDiskNode", 5, k_tmp},
	{"Partition", 2, k_partition}, {"QOS", 2, k_qos}, {"ReservationName", 3, NULL},
	{"Name", 2, k_name}, {"JobName", 4, k_name}, {"WCKey", 1, k_wckey},
	{"StdOut", 6, k_std_out}, {"Switches", 5, k_switches},
	{"wait-for-switch", 5, k_wait4switch}, {"OverSubscribe", 2, NULL}, {"Shared", 2, NULL},
	{"Contiguous", 3, k_contiguous}, {"CoreSpec", 4, NULL}, {"MemPerTres", 5, NULL},
	{"ThreadSpec", 4, NULL}, {"TresBind", 5, NULL}, {"TresFreq", 5, NULL},
	{"TresPerJob", 8, NULL}, {"TresPerNode", 8, NULL}, {"TresPerSocket", 8, NULL},
	{"TresPerTask", 8, NULL}, {"ExcNodeList", 3, k_exclude}, {"NodeList", 8, k_nodelist},
	{"ReqNodeList", 8, k_nodelist}, {"Features", 1, k_features}, {"Prefer", 3, NULL},
	{"Gres", 2, NULL}, {"Account", 1, k_account}, {"BurstBuffer", 1, NULL},
	{"Dependency", 1, k_dependency}, {"Licenses", 1, NULL}, {"EligibleTime", 2, k_start},
	{"StartTime", 2, k_start}, {"EndTime", 2, NULL}, {"Reboot", 3, NULL},
	{"UserID", 3, NULL}, {"Deadline", 3, k_deadline}, {"WorkDir", 2, k_work_dir},
	{"MailType", 5, k_mail_type}, {"MailUser", 5, k_mail_user},
};

/* tag (klen bytes) names key, at least min of it (Slurm's abbreviations). */
static int is_key(const char *tag, size_t klen, const char *key, size_t min)
{
	return klen <= strlen(key) && klen >= min && strncasecmp(tag, key, klen) == 0;
}

/* One KEY=VALUE (or KEY and VALUE as two words: val not NULL). */
static int one(struct up *u, const char *word, const char *val, const char **jobs)
{
	const char *eq = val ? NULL : strchr(word, '=');
	size_t klen = eq ? (size_t)(eq - word) : strlen(word);
	const char *v = val ? val : eq ? eq + 1 : NULL;

	if (v != NULL && is_key(word, klen, "JobId", 3)) {
		*jobs = u->jobs = v;
		u->have_id = 1;
		return 0;
	}
	for (size_t i = 0; v && i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!is_key(word, klen, keys[i].key, keys[i].min))
			continue;
		if (keys[i].fn == NULL)
			return sl_err_set(u->err, SL_EUNSUPP, "scontrol: error: update %s= is not "
					  "supported by Sluice", keys[i].key);
		return keys[i].fn(u, v);
	}
	return sl_err_set(u->err, SL_EINVAL, "Update of this parameter is not supported: %s\n"
			  "Request aborted", word);
}

int sl_scontrol_update_parse(int argc, char **argv, int64_t now, const char **jobs,
			     struct sl_update_field **f, size_t *n, int *rc, struct sl_buf *notes,
			     struct sl_err *err)
{
	struct up u = {NULL, 0, now, 0, 0, 0, NULL, err};
	int have_id = 0, r = 0;

	*f = NULL;
	*n = 0;
	*rc = 1;
	*jobs = NULL;
	if (argc == 0)
		return sl_err_set(err, SL_EINVAL, "too few arguments for update keyword");
	/* Slurm's _update_it: the entity is a JobId tag (Job=, JobId N, ...) */
	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t klen = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		have_id |= is_key(argv[i], klen, "JobId", 3) && (eq || i + 1 < argc);
		i += eq == NULL;
	}
	if (!have_id)
		return sl_err_set(err, SL_EINVAL, "No valid entity in update command\nInput line must "
				  "include \"NodeName\", \"PartitionName\", \"Reservation\", "
				  "\"JobId\", or \"SlurmctldDebug\"");
	for (int i = 0; i < argc && r == 0; i++) {
		/* a word without '=' takes the next as its value (Slurm's "tag val"),
		 * but for Nice alone, which means Nice=100 */
		const char *val = NULL;
		if (strchr(argv[i], '=') == NULL &&
		    is_key(argv[i], strlen(argv[i]), "ResetAccrueTime", 3)) {
			r = sl_err_set(err, SL_EUNSUPP, "scontrol: error: update ResetAccrueTime is "
				       "not supported by Sluice");
			break;
		}
		if (strchr(argv[i], '=') == NULL && is_key(argv[i], strlen(argv[i]), "Nice", 2)) {
			add(&u, "nice", NULL, 100);
			continue;
		}
		if (strchr(argv[i], '=') == NULL && i + 1 >= argc) {
			r = sl_err_set(err, SL_EINVAL, "Invalid input: %s\nRequest aborted", argv[i]);
			break;
		}
		if (strchr(argv[i], '=') == NULL)
			val = argv[++i];
		if ((r = one(&u, val ? argv[i - 1] : argv[i], val, jobs)) != 0 &&
		    u.dropped == 1) {
			r = 0; /* its line is printed; the other fields still go */
			u.dropped = 0;
			sl_buf_addf(notes, "%s\n", err->msg);
			sl_err_clear(err);
		}
	}
	if (r == 0 && u.n == 0 && !u.ignored)
		r = sl_err_set(err, SL_EINVAL, "No changes specified");
	if (r != 0) {
		*rc = u.dropped == 2 ? 0 : 1;
		free(u.f);
		return r;
	}
	*f = u.f;
	*n = u.n;
	*rc = 0;
	return 0;
}
