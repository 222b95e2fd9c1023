/* slurm_opt_set.c - the setters of sbatch's option table (slurm_opt.c):
 * one per option, each checking its value with Slurm's text and exit
 * status (255 for what Slurm's option parser rejects, 1 for what its later
 * checks reject) and setting the job spec or the command's flags. */
#include "slurm_opt_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "hostlist.h"
#include "rlimit.h"
#include "slurm_time.h"
#include "xalloc.h"

int sl_sbopt_fail1(void *c, struct sl_err *err, const char *msg)
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

int sl_sbopt_name(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->name, a);
	return 0;
}

/* Slurm's list runs the job in whichever partition starts it first; a
 * Kueue workload waits in one LocalQueue, so a list of two is refused. */
int sl_sbopt_partition(void *c, const char *a, struct sl_err *e)
{
	size_t n = strcspn(a, ",");
	for (const char *p = a + n; *p == ','; p += 1 + strcspn(p + 1, ","))
		if (strcspn(p + 1, ",") != n || strncmp(p + 1, a, n) != 0)
			return sl_err_set(e, SL_EUNSUPP, "--partition=%s (a list of partitions) is "
					  "not supported by Sluice", a);
	free(CTX(c)->spec->partition);
	CTX(c)->spec->partition = sl_xstrndup(a, n);
	return 0;
}

int sl_sbopt_account(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->account, a);
	return 0;
}

int sl_sbopt_qos(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->qos, a);
	return 0;
}

/* --propagate[=LIST]: which of the shell's limits the job gets (finish()
 * records them). Without a list: all. */
int sl_sbopt_propagate(void *c, const char *a, struct sl_err *e)
{
	char *t = NULL;
	int r = sl_rlimit_capture(a, &t, e);
	if (r != 0) {
		CTX(c)->status = 1;
		return r;
	}
	free(t);
	free(CTX(c)->propagate);
	CTX(c)->propagate = sl_xstrdup(a && *a ? a : "ALL");
	return 0;
}

int sl_sbopt_wckey(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	set_str(&CTX(c)->spec->wckey, a);
	return 0;
}

int sl_sbopt_comment(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->comment, a);
	return 0;
}

/* Kept as given: sluiced checks it against its maxArraySize, as
 * slurmctld does (sbatch itself takes any text). */
int sl_sbopt_array(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->array, a);
	return 0;
}

/* -o/-e/-i "none" means /dev/null, as in Slurm. */
static void set_path(char **dst, const char *a)
{
	set_str(dst, strcasecmp(a, "none") == 0 ? "/dev/null" : a);
}

int sl_sbopt_output(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_out, a);
	return 0;
}

int sl_sbopt_error(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_err, a);
	return 0;
}

int sl_sbopt_input(void *c, const char *a, struct sl_err *e)
{
	set_path(&CTX(c)->spec->std_in, a);
	return 0;
}

int sl_sbopt_chdir(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->chdir, a);
	return 0;
}

int sl_sbopt_export(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->export_spec, a);
	return 0;
}

int sl_sbopt_nodes(void *c, const char *a, struct sl_err *e)
{
	int lo, hi, r;

	if ((r = sl_slurm_parse_nodes(a, &lo, &hi, e)) != 0)
		return r;
	CTX(c)->spec->nodes = lo;
	CTX(c)->spec->nodes_max = hi;
	return 0;
}

int sl_sbopt_ntasks(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--ntasks", a, &CTX(c)->spec->ntasks, e);
}

int sl_sbopt_cpus(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--cpus-per-task", a, &CTX(c)->spec->cpus_per_task, e);
}

int sl_sbopt_tpn(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--ntasks-per-node", a, &CTX(c)->spec->ntasks_per_node, e);
}

/* --mem, --mem-per-cpu and --mem-per-gpu exclude each other: two on the
 * command line is fatal; otherwise the one set last (highest precedence)
 * wins. */
int sl_sbopt_mem(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_parse_mem(a, &CTX(c)->spec->mem_per_node) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --mem specification");
	CTX(c)->spec->mem_per_cpu = SL_NO_VAL;
	CTX(c)->spec->mem_per_gpu = 0;
	CTX(c)->spec->mem_all = 0; /* --mem=0 is resolved by the submit policy */
	/* a directive counts as the command line (Slurm's set_by_cli) */
	CTX(c)->mem_cli |= CTX(c)->src != SRC_ENV;
	return 0;
}

int sl_sbopt_mem_per_cpu(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_parse_mem(a, &CTX(c)->spec->mem_per_cpu) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --mem-per-cpu specification");
	CTX(c)->spec->mem_per_node = SL_NO_VAL;
	CTX(c)->spec->mem_per_gpu = 0;
	CTX(c)->spec->mem_all = 0;
	CTX(c)->mem_per_cpu_cli |= CTX(c)->src != SRC_ENV;
	return 0;
}

int sl_sbopt_gres(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	char *type = NULL;
	int n;

	/* "--gres=" passes sbatch's own check and is slurmctld's to refuse */
	if (a[0] == '\0') {
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "Batch job submission failed: Invalid Trackable "
				  "RESource (TRES) specification");
	}
	if (sl_slurm_parse_gres(a, &n, &type, e) != 0) {
		CTX(c)->status = 1;
		return -SL_EINVAL;
	}
	s->gpus_per_node = n < 0 ? SL_NO_VAL : n;
	free(s->gpu_type);
	s->gpu_type = type;
	return 0;
}

int sl_sbopt_constraint(void *c, const char *a, struct sl_err *e)
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

/* An empty count asks for none, as Slurm 22.05 takes "--gpus=" (a
 * template's blank key): *dst back to its unset value `none`. */
static int gpus_common(void *c, const char *a, int *dst, int none, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	char *type = NULL;

	if (a[0] == '\0') {
		*dst = none;
		return 0;
	}
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

int sl_sbopt_gpus(void *c, const char *a, struct sl_err *e)
{
	return gpus_common(c, a, &CTX(c)->spec->gpus, SL_NO_VAL, e);
}

int sl_sbopt_gpus_per_node(void *c, const char *a, struct sl_err *e)
{
	int r = gpus_common(c, a, &CTX(c)->spec->gpus_per_node, SL_NO_VAL, e);
	/* its own field in Slurm's job, beside --gres's: SLURM_GPUS_PER_NODE */
	if (r == 0)
		CTX(c)->spec->gpus_per_node_opt = a[0] != '\0';
	return r;
}

int sl_sbopt_time(void *c, const char *a, struct sl_err *e)
{
	int64_t m;

	/* Past Slurm's largest limit the seconds of the limit and its end
	 * time would wrap. */
	if (sl_slurm_time_parse_limit(a, &m) != 0 || m > SL_TIME_MAX)
		return sl_err_set(e, SL_EINVAL, "Invalid --time specification");
	/* "A time limit of zero requests that no time limit be imposed." */
	CTX(c)->spec->time_limit = m == 0 ? SL_TIME_INFINITE : m;
	return 0;
}

int sl_sbopt_hold(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->hold = 1;
	return 0;
}

int sl_sbopt_nice(void *c, const char *a, struct sl_err *e)
{
	long long v = a ? strtoll(a, NULL, 10) : 100;

	/* Not llabs(): strtoll's LLONG_MIN has no absolute value. */
	if (v > 2147483645LL || v < -2147483645LL)
		return sl_err_set(e, SL_EINVAL,
				  "Nice value out of range (+/- 2147483645). Value ignored");
	CTX(c)->spec->nice = (int)v;
	return 0;
}

/* --get-user-env[=N[S|L]]: slurmd's timeout and su mode (Slurm's opt.c
 * reads N and the letter after it; "5LS" passes, "5X" does not). */
int sl_sbopt_get_user_env(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	char *end = NULL;
	long v = 0;

	s->get_user_env_mode = 0;
	if (a != NULL && *a != '\0') {
		v = strtol(a, &end, 10);
		if (*end == 's' || *end == 'S')
			s->get_user_env_mode = 1;
		else if (*end == 'l' || *end == 'L')
			s->get_user_env_mode = 2;
		else if (*end != '\0') /* past the letter, nothing is read */
			return sl_err_set(e, SL_EINVAL, "Invalid --get-user-env specification");
	}
	s->get_user_env = v > 0 && v < 3600 ? (int)v : SL_USER_ENV_WAIT;
	return 0;
}

int sl_sbopt_open_mode(void *c, const char *a, struct sl_err *e)
{
	if (a[0] == 'a' || a[0] == 'A')
		CTX(c)->spec->open_mode = SL_OPEN_APPEND;
	else if (a[0] == 't' || a[0] == 'T')
		CTX(c)->spec->open_mode = SL_OPEN_TRUNCATE;
	else
		return sl_err_set(e, SL_EINVAL, "Invalid --open-mode specification");
	return 0;
}

int sl_sbopt_priority(void *c, const char *a, struct sl_err *e)
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

int sl_sbopt_requeue(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->requeue = 1;
	return 0;
}

int sl_sbopt_no_requeue(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->requeue = 0;
	return 0;
}

int sl_sbopt_wrap(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->wrap, a);
	CTX(c)->wrap_set = 1;
	return 0;
}

/* pyxis's spelling; the image is the kubernetes executor's business. */
int sl_sbopt_container_image(void *c, const char *a, struct sl_err *e)
{
	const char *p;

	for (p = a; *p != '\0' && (unsigned char)*p > ' '; p++)
		;
	if (*a == '\0' || *p != '\0' || strlen(a) > 1024)
		return sl_sbopt_fail1(c, e, "Invalid --container-image: expected an image reference "
			     "without spaces");
	set_str(&CTX(c)->spec->container_image, a);
	return 0;
}

/* The MPI implementations the kubernetes executor runs as MPIJobs; "none"
 * overrides a partition's default. */
int sl_sbopt_mpi(void *c, const char *a, struct sl_err *e)
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

/* -M: checked against sluiced's cluster name by sbatch, which names it in
 * its reply ("... on cluster NAME"). */
int sl_sbopt_clusters(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	free(CTX(c)->fl->clusters);
	CTX(c)->fl->clusters = sl_xstrdup(a);
	return 0;
}

int sl_sbopt_parsable(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->parsable = 1;
	return 0;
}

int sl_sbopt_quiet(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->quiet = 1;
	return 0;
}

int sl_sbopt_verbose(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->verbose++;
	return 0;
}

int sl_sbopt_help(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->help = 1;
	return 0;
}

int sl_sbopt_usage(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->usage = 1;
	return 0;
}

int sl_sbopt_version(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->version = 1;
	return 0;
}


/* ---- options added for real users' scripts (issue 12) ---- */

/* Slurm ORs every --mail-type it is given, from every source: NONE adds
 * nothing. */
int sl_sbopt_mail_type(void *c, const char *a, struct sl_err *e)
{
	int bits = sl_slurm_parse_mail_type(a);

	if (bits < 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --mail-type specification");
	CTX(c)->spec->mail_type |= bits;
	return 0;
}

int sl_sbopt_mail_user(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->mail_user, a);
	return 0;
}

int sl_sbopt_exclusive(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;

	switch (sl_slurm_parse_exclusive(a)) {
	case SL_EXCL_EXCLUSIVE:
		s->shared = SL_SHARED_EXCLUSIVE;
		return 0;
	case SL_EXCL_OVERSUBSCRIBE:
		s->shared = SL_SHARED_OVERSUBSCRIBE;
		return 0;
	case SL_EXCL_USER:
	case SL_EXCL_MCS:
		/* Sharing a node with one's own jobs only needs a placement
		 * Kueue quota cannot express. */
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EUNSUPP, "--exclusive=%s is not supported by Sluice", a);
	default:
		return sl_err_set(e, SL_EINVAL, "Invalid --exclusive specification");
	}
}

int sl_sbopt_oversubscribe(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->shared = SL_SHARED_OVERSUBSCRIBE;
	return 0;
}

int sl_sbopt_signal(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;

	if (sl_slurm_parse_signal(a, &s->warn_signal, &s->warn_time, &s->warn_flags) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --signal specification");
	return 0;
}

int sl_sbopt_hint(void *c, const char *a, struct sl_err *e)
{
	struct sl_slurm_hint h;
	char *bad = NULL;

	if (sl_slurm_parse_hint(a, &h, &bad) != 0) {
		CTX(c)->status = 1;
		sl_err_set(e, SL_EINVAL, "unrecognized --hint argument \"%s\", see --hint=help",
			   bad);
		free(bad);
		return -SL_EINVAL;
	}
	if (h.help) {
		CTX(c)->fl->hint_help = 1;
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "--hint=help");
	}
	set_str(&CTX(c)->spec->hint, a);
	CTX(c)->hint_src |= SRC_BIT(CTX(c)->src);
	return 0;
}

int sl_sbopt_sockets_per_node(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--sockets-per-node", a, &CTX(c)->spec->sockets_per_node, e);
}

int sl_sbopt_cores_per_socket(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--cores-per-socket", a, &CTX(c)->spec->cores_per_socket, e);
}

int sl_sbopt_threads_per_core(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->cpu_layout_src |= SRC_BIT(CTX(c)->src);
	return parse_int(c, "--threads-per-core", a, &CTX(c)->spec->threads_per_core, e);
}

int sl_sbopt_ntasks_per_socket(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--ntasks-per-socket", a, &CTX(c)->spec->ntasks_per_socket, e);
}

int sl_sbopt_ntasks_per_core(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->cpu_layout_src |= SRC_BIT(CTX(c)->src);
	return parse_int(c, "--ntasks-per-core", a, &CTX(c)->spec->ntasks_per_core, e);
}

int sl_sbopt_extra_node_info(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;
	const char *what = NULL;
	char *bad = NULL;
	int v[3];

	if (sl_slurm_parse_extra_node_info(a, v, &bad, &what) != 0) {
		CTX(c)->status = 1;
		sl_err_set(e, SL_EINVAL, "Invalid numeric value \"%s\" for %s.", bad, what);
		free(bad);
		return -SL_EINVAL;
	}
	s->sockets_per_node = v[0];
	s->cores_per_socket = v[1];
	s->threads_per_core = v[2];
	CTX(c)->cpu_layout_src |= SRC_BIT(CTX(c)->src);
	return 0;
}

/* A host list Slurm's controller would take apart; its names are checked
 * against the nodes when the job is submitted. */
static int node_names(void *c, const char *a, char **dst, struct sl_err *e)
{
	struct sl_err ignore = SL_ERR_INIT;
	char **names = NULL;
	size_t n = 0;

	/* "-x=" or "-w=" (a template's blank key): no list, as Slurm 22.05
	 * takes it, which also drops an earlier one */
	if (a[0] == '\0') {
		free(*dst);
		*dst = NULL;
		return 0;
	}
	if (sl_hostlist_expand(a, &names, &n, &ignore) != 0 || n == 0) {
		sl_strv_free(names);
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "Batch job submission failed: Invalid node name "
				  "specified");
	}
	sl_strv_free(names);
	set_str(dst, a);
	return 0;
}

/* -w and --nodefile: the last one given counts (Slurm's). A list with '/'
 * names a host file, read once every option is in (sl_sbopt_finish). */
int sl_sbopt_nodelist(void *c, const char *a, struct sl_err *e)
{
	free(CTX(c)->nodefile);
	CTX(c)->nodefile = NULL;
	if (strchr(a, '/') != NULL) {
		set_str(&CTX(c)->spec->nodelist, a);
		return 0;
	}
	return node_names(c, a, &CTX(c)->spec->nodelist, e);
}

int sl_sbopt_nodefile(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	set_str(&CTX(c)->nodefile, a);
	free(CTX(c)->spec->nodelist);
	CTX(c)->spec->nodelist = NULL;
	return 0;
}

int sl_sbopt_exclude(void *c, const char *a, struct sl_err *e)
{
	if (strchr(a, '/') != NULL) {
		set_str(&CTX(c)->spec->exclude, a);
		return 0;
	}
	return node_names(c, a, &CTX(c)->spec->exclude, e);
}

int sl_sbopt_wait(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->wait = 1;
	return 0;
}

int sl_sbopt_test_only(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->test_only = 1;
	return 0;
}

/* Slurm reads --deadline with parse_time, as --begin: its line first. */
int sl_sbopt_deadline(void *c, const char *a, struct sl_err *e)
{
	int64_t t = 0;
	int pos;

	if (sl_slurm_time_parse(a, (int64_t)time(NULL), SL_TIME_NEXT, &t, &pos) != 0 || t == 0) {
		if (t != 0 || pos == SL_TIME_NO_POS)
			return sl_err_set(e, SL_EINVAL, "Invalid --deadline specification");
		CTX(c)->fl->raw_lines = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid time specification (pos=%d): %s\n"
				  "Invalid --deadline specification", pos, a);
	}
	CTX(c)->spec->deadline = t;
	return 0;
}

int sl_sbopt_gpus_per_task(void *c, const char *a, struct sl_err *e)
{
	return gpus_common(c, a, &CTX(c)->spec->gpus_per_task, 0, e);
}

int sl_sbopt_cpus_per_gpu(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--cpus-per-gpu", a, &CTX(c)->spec->cpus_per_gpu, e);
}

int sl_sbopt_mem_per_gpu(void *c, const char *a, struct sl_err *e)
{
	struct sl_jobspec *s = CTX(c)->spec;

	if (sl_slurm_parse_mem(a, &s->mem_per_gpu) != 0 || s->mem_per_gpu == 0) {
		s->mem_per_gpu = 0;
		return sl_err_set(e, SL_EINVAL, "Invalid --mem-per-gpu specification");
	}
	s->mem_per_node = s->mem_per_cpu = SL_NO_VAL;
	s->mem_all = 0;
	CTX(c)->mem_per_gpu_cli |= CTX(c)->src != SRC_ENV;
	return 0;
}

int sl_sbopt_mincpus(void *c, const char *a, struct sl_err *e)
{
	return parse_int(c, "--mincpus", a, &CTX(c)->spec->mincpus, e);
}

int sl_sbopt_ignore_pbs(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->ignore_pbs = 1;
	return 0;
}

/* --export-file: read when every option is in (slurm_opt.c's finish). */
int sl_sbopt_export_file(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	set_str(&CTX(c)->export_file, a);
	return 0;
}

/* -d is checked by the daemon, which knows the jobs it names (Slurm's
 * sbatch, too, leaves it to the controller). */
int sl_sbopt_dependency(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->spec->dependency, a);
	return 0;
}

/* --begin: an absolute time here, so the daemon never reads a clock the
 * user did not mean; Slurm's two lines when it is not a time. */
int sl_sbopt_begin(void *c, const char *a, struct sl_err *e)
{
	int64_t t;
	int pos;

	if (sl_slurm_time_parse(a, (int64_t)time(NULL), SL_TIME_NEXT, &t, &pos) != 0) {
		if (pos == SL_TIME_NO_POS)
			return sl_err_set(e, SL_EINVAL, "Invalid --begin specification");
		CTX(c)->fl->raw_lines = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid time specification (pos=%d): %s\n"
				  "Invalid --begin specification", pos, a);
	}
	CTX(c)->spec->begin_time = t;
	return 0;
}

int sl_sbopt_kill_invalid_dep(void *c, const char *a, struct sl_err *e)
{
	if (a == NULL || (strcasecmp(a, "yes") != 0 && strcasecmp(a, "no") != 0))
		return sl_err_set(e, SL_EINVAL, "Invalid --kill-on-invalid-dep specification");
	CTX(c)->spec->kill_invalid_dep = strcasecmp(a, "yes") == 0;
	return 0;
}
