/* slurm_opt.c - sbatch's option table and the job spec it builds.
 *
 * One table row per real sbatch 22.05 option: the command line, #SBATCH
 * directives and SBATCH_* variables all resolve through it. Options Sluice
 * does not implement stay in the table, flagged, so they fail loudly instead
 * of being mistaken for typos or silently ignored. Value errors use Slurm's
 * texts and exit statuses (255 for what Slurm's option parser rejects, 1 for
 * what its later checks reject). */
#include "slurm_opt.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "optable.h"
#include "script.h"
#include "slurm_time.h"
#include "xalloc.h"

#define OPTF_EARLY 0x100u /* applied in the first pass over the command line */

enum src { SRC_SCRIPT, SRC_ENV, SRC_CLI };

struct ctx {
	struct sl_jobspec *spec;
	struct sl_sbatch_flags *fl;
	enum src src;
	int status;        /* exit status for the current failure; 0: 255 */
	int mem_cli, mem_per_cpu_cli;
	char *chdir, *wrap, *export_spec;
	int wrap_set;
};

#define CTX(c) ((struct ctx *)(c))

static int fail1(void *c, struct sl_err *err, const char *msg)
{
	CTX(c)->status = 1;
	return sl_err_set(err, SL_EINVAL, "%s", msg);
}

static void set_str(char **dst, const char *arg)
{
	free(*dst);
	*dst = sl_xstrdup(arg);
}

/* Slurm's parse_int(): a positive decimal int, else exit 1. */
static int parse_int(void *c, const char *name, const char *arg, int *out,
		     struct sl_err *err)
{
	char *end = NULL;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || v <= 0) {
		CTX(c)->status = 1;
		return sl_err_set(err, SL_EINVAL, "Invalid numeric value \"%s\" for %s.", arg,
				  name);
	}
	if (errno == ERANGE || v > INT_MAX) {
		CTX(c)->status = 1;
		return sl_err_set(err, SL_EINVAL, "Numeric argument (%ld) to big for %s.", v,
				  name);
	}
	*out = (int)v;
	return 0;
}

/* ---- handlers: one per supported option ---- */

static int h_name(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->name, a);
	return 0;
}

static int h_partition(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->partition, a);
	return 0;
}

static int h_account(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->account, a);
	return 0;
}

static int h_qos(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->qos, a);
	return 0;
}

static int h_comment(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->comment, a);
	return 0;
}

/* -o/-e/-i "none" means /dev/null, as in Slurm. */
static void set_path(char **dst, const char *a)
{
	set_str(dst, strcasecmp(a, "none") == 0 ? "/dev/null" : a);
}

static int h_output(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_out, a);
	return 0;
}

static int h_error(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_err, a);
	return 0;
}

static int h_input(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_in, a);
	return 0;
}

static int h_chdir(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->chdir, a);
	return 0;
}

static int h_export(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->export_spec, a);
	return 0;
}

static int h_nodes(void *c, const char *a, struct sl_err *e)
{
	int lo, hi, r;

	if ((r = sl_slurm_parse_nodes(a, &lo, &hi, e)) != 0)
		return r;
	CTX(c)->spec->nodes = lo;
	CTX(c)->spec->nodes_max = hi;
	return 0;
}

static int h_ntasks(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--ntasks", a, &CTX(c)->spec->ntasks, e);
}

static int h_cpus(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--cpus-per-task", a, &CTX(c)->spec->cpus_per_task, e);
}

static int h_tpn(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--ntasks-per-node", a, &CTX(c)->spec->ntasks_per_node, e);
}

/* --mem and --mem-per-cpu exclude each other: both on the command line is
 * fatal; otherwise the one set last (highest precedence) wins. */
static int h_mem(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_parse_mem(a, &CTX(c)->spec->mem_per_node) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --mem specification");
	CTX(c)->spec->mem_per_cpu = SL_NO_VAL;
	CTX(c)->mem_cli |= CTX(c)->src == SRC_CLI;
	return 0;
}

static int h_mem_per_cpu(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_parse_mem(a, &CTX(c)->spec->mem_per_cpu) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --mem-per-cpu specification");
	CTX(c)->spec->mem_per_node = SL_NO_VAL;
	CTX(c)->mem_per_cpu_cli |= CTX(c)->src == SRC_CLI;
	return 0;
}

static int h_gres(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	char *type = NULL;
	int n;

	if (sl_slurm_parse_gres(a, &n, &type, e) != 0) {
		CTX(c)->status = 1;
		return -SL_EINVAL;
	}
	s->gpus_per_node = n < 0 ? SL_NO_VAL : n;
	free(s->gpu_type);
	s->gpu_type = type;
	return 0;
}

static int h_constraint(void *c, const char *a, struct sl_err *e)
{
	char **v = NULL;

	if (sl_slurm_parse_constraint(a, &v, e) != 0) {
		CTX(c)->status = 1;
		return -SL_EINVAL;
	}
	sl_strv_free(CTX(c)->spec->features);
	CTX(c)->spec->features = v;
	return 0;
}

static int gpus_common(void *c, const char *a, int *dst, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	char *type = NULL;

	if (sl_slurm_parse_gpus(a, dst, &type, e) != 0) {
		CTX(c)->status = 1;
		return -SL_EINVAL;
	}
	if (type) {
		free(s->gpu_type);
		s->gpu_type = type;
	}
	return 0;
}

static int h_gpus(void *c, const char *a, struct sl_err *e)
{
	return gpus_common(c, a, &CTX(c)->spec->gpus, e);
}

static int h_gpus_per_node(void *c, const char *a, struct sl_err *e)
{
	return gpus_common(c, a, &CTX(c)->spec->gpus_per_node, e);
}

static int h_time(void *c, const char *a, struct sl_err *e)
{
	int64_t m;

	if (sl_slurm_time_parse_limit(a, &m) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --time specification");
	/* "A time limit of zero requests that no time limit be imposed." */
	CTX(c)->spec->time_limit = m == 0 ? SL_TIME_INFINITE : m;
	return 0;
}

static int h_hold(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->hold = 1;
	return 0;
}

static int h_nice(void *c, const char *a, struct sl_err *e)
{
	long long v = a ? strtoll(a, NULL, 10) : 100;

	if (llabs(v) > 2147483645LL)
		return sl_err_set(e, SL_EINVAL,
				  "Nice value out of range (+/- 2147483645). Value ignored");
	CTX(c)->spec->nice = (int)v;
	return 0;
}

static int h_open_mode(void *c, const char *a, struct sl_err *e)
{
	if (a[0] == 'a' || a[0] == 'A')
		CTX(c)->spec->open_mode = SL_OPEN_APPEND;
	else if (a[0] == 't' || a[0] == 'T')
		CTX(c)->spec->open_mode = SL_OPEN_TRUNCATE;
	else
		return sl_err_set(e, SL_EINVAL, "Invalid --open-mode argument: %s. Ignored", a);
	return 0;
}

static int h_priority(void *c, const char *a, struct sl_err *e)
{
	long long v;

	if (strcasecmp(a, "TOP") == 0) {
		CTX(c)->spec->priority = 4294967294LL;
		return 0;
	}
	v = strtoll(a, NULL, 10);
	if (v < 0)
		return sl_err_set(e, SL_EINVAL, "Priority must be >= 0");
	if (v >= 4294967294LL)
		return sl_err_set(e, SL_EINVAL, "Priority must be < 4294967294");
	CTX(c)->spec->priority = v;
	return 0;
}

static int h_requeue(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->requeue = 1;
	return 0;
}

static int h_no_requeue(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->requeue = 0;
	return 0;
}

static int h_wrap(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->wrap, a);
	CTX(c)->wrap_set = 1;
	return 0;
}

/* pyxis's spelling; the image is the kubernetes executor's business. */
static int h_container_image(void *c, const char *a, struct sl_err *e)
{
	const char *p;

	for (p = a; *p != '\0' && (unsigned char)*p > ' '; p++)
		;
	if (*a == '\0' || *p != '\0' || strlen(a) > 1024)
		return fail1(c, e, "Invalid --container-image: expected an image reference "
			     "without spaces");
	set_str(&CTX(c)->spec->container_image, a);
	return 0;
}

/* The MPI implementations the kubernetes executor runs as MPIJobs; "none"
 * overrides a partition's default. */
static int h_mpi(void *c, const char *a, struct sl_err *e)
{
	static const char *const types[] = {"openmpi", "intel", "mpich", "none", NULL};
	size_t i;

	for (i = 0; types[i] != NULL; i++)
		if (strcasecmp(a, types[i]) == 0) {
			set_str(&CTX(c)->spec->mpi, types[i]);
			return 0;
		}
	CTX(c)->status = 1;
	return sl_err_set(e, SL_EINVAL, "Invalid --mpi type: %s (Sluice runs openmpi, "
			  "intel, mpich or none)", a);
}

/* -d is checked by the daemon, which knows the jobs it names (Slurm's
 * sbatch, too, leaves it to the controller). */
static int h_dependency(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->dependency, a);
	return 0;
}

/* --begin: an absolute time here, so the daemon never reads a clock the
 * user did not mean; Slurm's two lines when it is not a time. */
static int h_begin(void *c, const char *a, struct sl_err *e)
{
	int64_t t;
	int pos;

	if (sl_slurm_time_parse_begin(a, (int64_t)time(NULL), &t, &pos) != 0) {
		if (pos < 0)
			return sl_err_set(e, SL_EINVAL, "Invalid --begin specification");
		CTX(c)->fl->raw_lines = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid time specification (pos=%d): %s\n"
				  "Invalid --begin specification", pos, a);
	}
	CTX(c)->spec->begin_time = t;
	return 0;
}

static int h_kill_invalid_dep(void *c, const char *a, struct sl_err *e)
{
	if (a == NULL || (strcasecmp(a, "yes") != 0 && strcasecmp(a, "no") != 0))
		return sl_err_set(e, SL_EINVAL, "Invalid --kill-on-invalid-dep specification");
	CTX(c)->spec->kill_invalid_dep = strcasecmp(a, "yes") == 0;
	return 0;
}

static int h_parsable(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->parsable = 1;
	return 0;
}

static int h_quiet(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->quiet = 1;
	return 0;
}

static int h_verbose(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->verbose++;
	return 0;
}

static int h_help(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->help = 1;
	return 0;
}

static int h_usage(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->usage = 1;
	return 0;
}

static int h_version(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->version = 1;
	return 0;
}

/* ---- the table: every sbatch 22.05 option ---- */

#define R SL_OPT_REQ
#define N SL_OPT_NOARG
#define O SL_OPT_OPTARG
#define OK(nm, k, a, env, fn) {nm, k, a, {env, NULL}, 0, fn}
#define EARLY(nm, k, a, env, fn) {nm, k, a, {env, NULL}, OPTF_EARLY, fn}
#define NO(nm, k, a, env) {nm, k, a, {env, NULL}, SL_OPTF_UNSUPP, NULL}
#define NO2(nm, k, a, env, env2) {nm, k, a, {env, env2}, SL_OPTF_UNSUPP, NULL}

static const struct sl_opt sbatch_opts[] = {
	OK("account", 'A', R, "SBATCH_ACCOUNT", h_account),
	OK("begin", 'b', R, NULL, h_begin),
	OK("chdir", 'D', R, NULL, h_chdir),
	OK("comment", 0, R, NULL, h_comment),
	OK("constraint", 'C', R, "SBATCH_CONSTRAINT", h_constraint),
	OK("container-image", 0, R, NULL, h_container_image),
	OK("cpus-per-task", 'c', R, NULL, h_cpus),
	OK("dependency", 'd', R, NULL, h_dependency),
	OK("error", 'e', R, "SBATCH_ERROR", h_error),
	OK("export", 0, R, "SBATCH_EXPORT", h_export),
	OK("gpus", 'G', R, "SBATCH_GPUS", h_gpus),
	OK("gpus-per-node", 0, R, "SBATCH_GPUS_PER_NODE", h_gpus_per_node),
	OK("gres", 0, R, "SBATCH_GRES", h_gres),
	EARLY("help", 'h', N, NULL, h_help),
	OK("hold", 'H', N, NULL, h_hold),
	OK("input", 'i', R, "SBATCH_INPUT", h_input),
	OK("job-name", 'J', R, "SBATCH_JOB_NAME", h_name),
	OK("kill-on-invalid-dep", 0, R, NULL, h_kill_invalid_dep),
	OK("mem", 0, R, "SBATCH_MEM_PER_NODE", h_mem),
	OK("mem-per-cpu", 0, R, "SBATCH_MEM_PER_CPU", h_mem_per_cpu),
	OK("mpi", 0, R, NULL, h_mpi),
	OK("nice", 0, O, NULL, h_nice),
	OK("no-requeue", 0, N, "SBATCH_NO_REQUEUE", h_no_requeue),
	OK("nodes", 'N', R, NULL, h_nodes),
	OK("ntasks", 'n', R, NULL, h_ntasks),
	OK("ntasks-per-node", 0, R, NULL, h_tpn),
	OK("open-mode", 0, R, "SBATCH_OPEN_MODE", h_open_mode),
	OK("output", 'o', R, "SBATCH_OUTPUT", h_output),
	EARLY("parsable", 0, N, NULL, h_parsable),
	OK("partition", 'p', R, "SBATCH_PARTITION", h_partition),
	OK("priority", 0, R, NULL, h_priority),
	OK("qos", 'q', R, "SBATCH_QOS", h_qos),
	EARLY("quiet", 'Q', N, NULL, h_quiet),
	OK("requeue", 0, N, "SBATCH_REQUEUE", h_requeue),
	OK("time", 't', R, "SBATCH_TIMELIMIT", h_time),
	EARLY("usage", 'u', N, NULL, h_usage),
	EARLY("verbose", 'v', N, "SBATCH_DEBUG", h_verbose),
	EARLY("version", 'V', N, NULL, h_version),
	EARLY("wrap", 0, R, NULL, h_wrap),

	NO("acctg-freq", 0, R, "SBATCH_ACCTG_FREQ"),
	NO("array", 'a', R, "SBATCH_ARRAY_INX"),
	NO("batch", 0, R, "SBATCH_BATCH"),
	NO("bb", 0, R, NULL),
	NO("bbf", 0, R, NULL),
	NO("cluster-constraint", 0, R, "SBATCH_CLUSTER_CONSTRAINT"),
	NO2("clusters", 'M', R, "SBATCH_CLUSTERS", "SLURM_CLUSTERS"),
	NO("container", 0, R, "SBATCH_CONTAINER"),
	NO("contiguous", 0, N, NULL),
	NO("core-spec", 'S', R, "SBATCH_CORE_SPEC"),
	NO("cores-per-socket", 0, R, NULL),
	NO("cpu-freq", 0, R, "SBATCH_CPU_FREQ_REQ"),
	NO("cpus-per-gpu", 0, R, "SBATCH_CPUS_PER_GPU"),
	NO("deadline", 0, R, NULL),
	NO("delay-boot", 0, R, "SBATCH_DELAY_BOOT"),
	NO("distribution", 'm', R, "SBATCH_DISTRIBUTION"),
	NO("exclude", 'x', R, NULL),
	NO("exclusive", 0, O, "SBATCH_EXCLUSIVE"),
	NO("export-file", 0, R, NULL),
	NO("extra-node-info", 'B', R, NULL),
	NO("get-user-env", 0, O, "SBATCH_GET_USER_ENV"),
	NO("gid", 0, R, NULL),
	NO("gpu-bind", 0, R, "SBATCH_GPU_BIND"),
	NO("gpu-freq", 0, R, "SBATCH_GPU_FREQ"),
	NO("gpus-per-socket", 0, R, "SBATCH_GPUS_PER_SOCKET"),
	NO("gpus-per-task", 0, R, "SBATCH_GPUS_PER_TASK"),
	NO("gres-flags", 0, R, "SBATCH_GRES_FLAGS"),
	NO2("hint", 0, R, "SBATCH_HINT", "SLURM_HINT"),
	NO("ignore-pbs", 0, N, "SBATCH_IGNORE_PBS"),
	NO("licenses", 'L', R, NULL),
	NO("mail-type", 0, R, NULL),
	NO("mail-user", 0, R, NULL),
	NO("mcs-label", 0, R, NULL),
	NO("mem-bind", 0, R, "SBATCH_MEM_BIND"),
	NO("mem-per-gpu", 0, R, "SBATCH_MEM_PER_GPU"),
	NO("mincpus", 0, R, NULL),
	NO("network", 0, R, "SBATCH_NETWORK"),
	NO("no-kill", 'k', O, "SBATCH_NO_KILL"),
	NO("nodefile", 'F', R, NULL),
	NO("nodelist", 'w', R, NULL),
	NO("ntasks-per-core", 0, R, NULL),
	NO("ntasks-per-gpu", 0, R, NULL),
	NO("ntasks-per-socket", 0, R, NULL),
	NO("overcommit", 'O', N, "SBATCH_OVERCOMMIT"),
	NO("oversubscribe", 's', N, NULL),
	NO("power", 0, R, "SBATCH_POWER"),
	NO("prefer", 0, R, NULL),
	NO("profile", 0, R, "SBATCH_PROFILE"),
	NO("propagate", 0, O, NULL),
	NO("reboot", 0, N, NULL),
	NO("reservation", 0, R, "SBATCH_RESERVATION"),
	NO("signal", 0, R, "SBATCH_SIGNAL"),
	NO("sockets-per-node", 0, R, NULL),
	NO("spread-job", 0, N, "SBATCH_SPREAD_JOB"),
	NO("switches", 0, R, "SBATCH_REQ_SWITCH"),
	NO("test-only", 0, N, NULL),
	NO("thread-spec", 0, R, "SBATCH_THREAD_SPEC"),
	NO("threads-per-core", 0, R, "SBATCH_THREADS_PER_CORE"),
	NO("time-min", 0, R, NULL),
	NO("tmp", 0, R, NULL),
	NO("uid", 0, R, NULL),
	NO("use-min-nodes", 0, N, "SBATCH_USE_MIN_NODES"),
	NO("wait", 'W', N, "SBATCH_WAIT"),
	NO("wait-all-nodes", 0, R, "SBATCH_WAIT_ALL_NODES"),
	NO("wckey", 0, R, "SBATCH_WCKEY"),
	{NULL, 0, N, {NULL, NULL}, 0, NULL},
};

#undef R
#undef N
#undef O

/* ---- the parse: command line, script, directives, environment ---- */

enum pass { PASS_ALL, PASS_EARLY, PASS_LATE };

/* Remember "name                : value" for -v, replacing an earlier value. */
static void record(struct sl_sbatch_flags *fl, const struct sl_optval *v)
{
	char *line;
	size_t i, n = sl_strv_len(fl->defined), key;

	if (v->opt->set == h_verbose)
		line = sl_xasprintf("%-20s: %d", v->opt->name, fl->verbose);
	else
		line = sl_xasprintf("%-20s: %s", v->opt->name, v->arg ? v->arg : "set");
	key = strcspn(line, ":") + 1;
	for (i = 0; i < n; i++) {
		if (strncmp(fl->defined[i], line, key) == 0) {
			free(fl->defined[i]);
			fl->defined[i] = line;
			return;
		}
	}
	fl->defined = sl_xrealloc(fl->defined, (n + 2) * sizeof(char *));
	fl->defined[n] = line;
	fl->defined[n + 1] = NULL;
}

static int apply_vals(struct ctx *c, const struct sl_optval *v, size_t n, enum src src,
		      enum pass pass, struct sl_err *err)
{
	size_t i;
	int r;

	c->src = src;
	for (i = 0; i < n; i++) {
		int early = (v[i].opt->flags & OPTF_EARLY) != 0;

		if ((pass == PASS_EARLY && !early) || (pass == PASS_LATE && early))
			continue;
		c->status = 0;
		if ((r = sl_opt_apply_one(&v[i], c, err)) != 0) {
			c->fl->exit_code = (r == -SL_EUNSUPP) ? 1 : (c->status ? c->status : 255);
			return r;
		}
		record(c->fl, &v[i]);
	}
	return 0;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

static char *abs_path(const char *cwd, const char *p)
{
	return p[0] == '/' ? sl_xstrdup(p) : sl_xasprintf("%s/%s", cwd, p);
}

/* The script from --wrap, a file (searched like sbatch does) or stdin. */
static int load_script(struct ctx *c, int argc, char **argv, int optind, char **envp,
		       const char *cwd, size_t *len, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	const char *path = optind < argc ? argv[optind] : NULL;
	char *found = NULL;
	int r;

	if (c->wrap_set) {
		if (path != NULL)
			return fail1(c, err, "Script arguments not permitted with --wrap option");
		s->script = sl_script_wrap(c->wrap);
		*len = strlen(s->script);
		s->wrapped = 1;
		return 0;
	}
	if (path != NULL)
		found = sl_script_resolve(path, env_get(envp, "PATH"));
	if ((r = sl_script_read(found, path, &s->script, len, err)) == 0 &&
	    (r = sl_script_check(s->script, *len, err)) == 0 && path != NULL) {
		s->script_path = abs_path(cwd, found);
		s->argv = sl_strv_dup(argv + optind + 1);
	}
	free(found);
	if (r != 0)
		c->status = 1;
	return r;
}

static int apply_directives(struct ctx *c, size_t len, struct sl_err *err)
{
	char **dargv = NULL;
	int dargc = 0, dind = 0, r;
	struct sl_optval *v = NULL;
	size_t n = 0;

	if (c->spec->wrapped)
		return 0;
	if ((r = sl_script_directives(c->spec->script, len, "#SBATCH", "sbatch", &dargv,
				      &dargc, err)) != 0) {
		c->status = 1;
		goto out;
	}
	if ((r = sl_opt_scan(sbatch_opts, dargc, dargv, 1, &v, &n, &dind, err)) != 0) {
		c->fl->usage_error = 1;
		goto out;
	}
	if (dind < dargc) {
		r = sl_err_set(err, SL_EINVAL, "Invalid directive found in batch script: %s",
			       dargv[dind]);
		goto out;
	}
	r = apply_vals(c, v, n, SRC_SCRIPT, PASS_ALL, err);
out:
	free(v);
	sl_strv_free(dargv);
	return r;
}

static int apply_env(struct ctx *c, char **envp, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int r;

	sl_opt_from_env(sbatch_opts, envp, &v, &n);
	r = apply_vals(c, v, n, SRC_ENV, PASS_ALL, err);
	free(v);
	return r;
}

/* ---- finishing the spec ---- */

static int finish(struct ctx *c, char **envp, const char *cwd, const char *default_name,
		  struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	char host[256] = "";
	mode_t m;

	if (c->mem_cli && c->mem_per_cpu_cli) {
		c->fl->fatal = 1;
		c->status = 1;
		return sl_err_set(err, SL_EINVAL,
				  "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
	}
	if (s->name == NULL)
		s->name = sl_xstrdup(default_name);
	s->submit_dir = sl_xstrdup(cwd);
	s->work_dir = c->chdir ? abs_path(cwd, c->chdir) : sl_xstrdup(cwd);
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[strcspn(host, ".")] = '\0';
	s->submit_host = sl_xstrdup(host);
	m = umask(0);
	umask(m);
	s->umask = m;
	s->export_spec = sl_xstrdup(c->export_spec);
	s->env = sl_slurm_export_env(c->export_spec, envp);
	return 0;
}

static const char *default_name(const struct ctx *c, int argc, char **argv, int optind)
{
	const char *slash;

	if (c->wrap_set)
		return "wrap";
	if (optind >= argc)
		return "sbatch";
	slash = strrchr(argv[optind], '/');
	return slash ? slash + 1 : argv[optind];
}

void sl_sbatch_flags_clear(struct sl_sbatch_flags *flags)
{
	sl_strv_free(flags->defined);
	memset(flags, 0, sizeof(*flags));
}

static int cli_scan(struct ctx *c, int argc, char **argv, struct sl_optval **v, size_t *n,
		    int *optind, struct sl_err *err)
{
	int r = sl_opt_scan(sbatch_opts, argc, argv, 1, v, n, optind, err);

	if (r != 0) {
		c->fl->usage_error = 1;
		c->fl->exit_code = 255;
	}
	return r;
}

int sl_sbatch_parse(int argc, char **argv, char **envp, struct sl_jobspec *out,
		    struct sl_sbatch_flags *flags, struct sl_err *err)
{
	struct ctx c = {out, flags, SRC_CLI, 0, 0, 0, NULL, NULL, NULL, 0};
	struct sl_optval *v = NULL;
	size_t n = 0, len = 0;
	int optind = 1, r;
	char *cwd = NULL;

	memset(flags, 0, sizeof(*flags));
	sl_jobspec_init(out);
	if ((r = cli_scan(&c, argc, argv, &v, &n, &optind, err)) != 0 ||
	    (r = apply_vals(&c, v, n, SRC_CLI, PASS_EARLY, err)) != 0)
		goto out;
	if (flags->help || flags->usage || flags->version)
		goto out;
	if ((cwd = getcwd(NULL, 0)) == NULL) {
		c.status = 1;
		r = sl_err_set(err, SL_EIO, "getcwd failed: %s", strerror(errno));
		goto out;
	}
	if ((r = load_script(&c, argc, argv, optind, envp, cwd, &len, err)) != 0 ||
	    (r = apply_directives(&c, len, err)) != 0 || (r = apply_env(&c, envp, err)) != 0 ||
	    (r = apply_vals(&c, v, n, SRC_CLI, PASS_LATE, err)) != 0)
		goto out;
	r = finish(&c, envp, cwd, default_name(&c, argc, argv, optind), err);
out:
	if (r != 0 && flags->exit_code == 0)
		flags->exit_code = c.status ? c.status : 255;
	free(v);
	free(cwd);
	free(c.chdir);
	free(c.wrap);
	free(c.export_spec);
	return r;
}
