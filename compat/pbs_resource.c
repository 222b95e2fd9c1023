/* pbs_resource.c - qsub's -l: the list split as OpenPBS's set_resources()
 * does (src/lib/Libcmds/set_resource.c: "name=value" pairs separated by
 * commas), values read as its attribute decoders do (sizes: to_size() in
 * src/lib/Libattr/attr_fn_size.c; durations: decode_time() in
 * attr_fn_time.c), select chunks as "N:res=val:..." joined by '+' (qsub(1B),
 * pbs_resources(7B)), and Torque's nodes= converted the way PBS Pro converts
 * it: nodes=N:ppn=M is select=N:ncpus=M:mpiprocs=M.
 *
 * Rejections keep PBS's texts and exit statuses (its error number's low
 * byte); what Sluice cannot do is refused with "... is not supported by
 * Sluice" and status 1, never dropped. */
#include "pbs_resource.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pbs_job.h"
#include "xalloc.h"

#define RES_MAX_LEN 4096     /* a -l value longer than this is refused */
#define MAX_CHUNKS 100000

void sl_pbs_res_init(struct sl_pbs_res *r)
{
	memset(r, 0, sizeof(*r));
	r->chunk.ncpus = r->chunk.mpiprocs = r->chunk.ngpus = r->chunk.ompthreads = -1;
	r->chunk.mem_mib = -1;
	r->walltime = r->mem_mib = r->pvmem_mib = r->pmem_mib = -1;
	r->ncpus = r->ngpus = r->ompthreads = r->procs = -1;
}

void sl_pbs_res_clear(struct sl_pbs_res *r)
{
	free(r->select_given);
	free(r->nodes_given);
	free(r->place_given);
	sl_pbs_res_init(r);
}

/* Keep v as given in *slot. */
static void given(char **slot, const char *v)
{
	free(*slot);
	*slot = sl_xstrdup(v);
}

/* PBS's rejection: its text, its status. */
static int pbse(int *status, struct sl_err *err, int e, const char *fmt, const char *arg)
{
	*status = sl_pbse_status(e);
	return sl_err_set(err, SL_EINVAL, fmt, sl_pbse_text(e), arg);
}

/* Sluice's refusal. */
static int unsupp(int *status, struct sl_err *err, const char *what)
{
	*status = 1;
	return sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice", what);
}

static int bad_value(int *status, struct sl_err *err)
{
	return pbse(status, err, SL_PBSE_BADATVAL, "%s%s", "");
}

int sl_pbs_parse_size(const char *v, int64_t *mib)
{
	char *end;
	unsigned long long n;
	int shift = 0, words = 0;

	if (!isdigit((unsigned char)*v))
		return -SL_EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno != 0)
		return -SL_EINVAL;
	static const char units[] = "kmgtp";
	const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
	if (u != NULL) {
		shift = 10 * (int)(u - units + 1);
		end++;
	}
	if (*end != '\0') {
		if (tolower((unsigned char)*end) == 'w')
			words = 1;
		else if (tolower((unsigned char)*end) != 'b')
			return -SL_EINVAL;
		end++;
	}
	if (*end != '\0')
		return -SL_EINVAL;
	/* bytes = n << shift (x8 for words), in MiB rounded up; capped far
	 * below overflow (a petabyte of memory per chunk is not a request). */
	if (n > (1ULL << 40))
		return -SL_EINVAL;
	long double bytes = (long double)n * (long double)(1ULL << shift) * (words ? 8 : 1);
	long double m = bytes / (1024.0L * 1024.0L);
	int64_t out = (int64_t)m;
	if ((long double)out < m)
		out++;
	if (out > ((int64_t)1 << 40))
		return -SL_EINVAL;
	*mib = out;
	return 0;
}

int sl_pbs_size_encode(const char *v, char *buf, size_t len)
{
	int64_t mib;
	const char *p = v, *unit;
	char shift[2] = "";

	if (sl_pbs_parse_size(v, &mib) != 0)
		return -SL_EINVAL;
	while (*p == '0' && isdigit((unsigned char)p[1]))
		p++;
	unit = p + strspn(p, "0123456789");
	if (*unit != '\0' && strchr("kmgtpKMGTP", *unit) != NULL)
		shift[0] = (char)tolower((unsigned char)*unit);
	/* from_size(): the number, the shift's letter, "w" for words, else "b" */
	snprintf(buf, len, "%.*s%s%s", (int)(unit - p), p, shift, strpbrk(unit, "wW") ? "w" : "b");
	return 0;
}

int sl_pbs_parse_time(const char *v, int64_t *seconds)
{
	int64_t rv = 0, field = 0;
	int colons = 0, digits = 0;
	const char *p;

	if (*v == '\0')
		return -SL_EINVAL;
	for (p = v; *p; p++) {
		if (*p == ':') {
			if (++colons > 2 || digits == 0)
				return -SL_EINVAL;
			rv = rv * 60 + field;
			field = 0;
			digits = 0;
		} else if (*p == '.') {
			if (digits == 0)
				return -SL_EINVAL;
			/* milliseconds: 500 and up round the second up (decode_time) */
			int ms = 0, n = 0;
			for (p++; *p; p++, n++) {
				if (!isdigit((unsigned char)*p))
					return -SL_EINVAL;
				if (n < 3)
					ms = ms * 10 + (*p - '0');
			}
			for (; n < 3; n++)
				ms *= 10;
			rv = rv * 60 + field + (ms >= 500);
			goto done;
		} else if (isdigit((unsigned char)*p)) {
			if (field > INT32_MAX)
				return -SL_EINVAL;
			field = field * 10 + (*p - '0');
			digits++;
		} else {
			return -SL_EINVAL;
		}
	}
	if (digits == 0)
		return -SL_EINVAL;
	rv = rv * 60 + field;
done:
	if (rv < 0 || rv > INT32_MAX) /* PBS_MAX_TIME */
		return -SL_EINVAL;
	*seconds = rv;
	return 0;
}

static int parse_count(const char *v, int min, int *out)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)*v))
		return -SL_EINVAL;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < min || n > MAX_CHUNKS * 1000L)
		return -SL_EINVAL;
	*out = (int)n;
	return 0;
}

/* Resources PBS knows that Sluice does not take (pbs_resources(7B)), and
 * Torque's: refused by name. Anything else is PBS's "Unknown resource". */
static const char *const known_unsupported[] = {
	"vmem", "cput", "pcput", "arch", "host", "vnode", "file",
	"software", "nice", "naccelerators", "accelerator",
	"accelerator_model", "accelerator_memory", "mpiprocs", "nchunk", "soft_walltime",
	"min_walltime", "max_walltime", "preempt_targets", "site", "start_time",
	"gres", "feature", "naccesspolicy", "hostlist", "tpn", "epilogue", "prologue",
	"qos", "other", "partition", "hbmem", "storage", "jobfs", NULL};

static int known(const char *name)
{
	for (size_t i = 0; known_unsupported[i]; i++)
		if (strcmp(known_unsupported[i], name) == 0)
			return 1;
	return 0;
}

static int refuse_resource(const char *name, int *status, struct sl_err *err)
{
	char what[128];

	if (!known(name))
		return pbse(status, err, SL_PBSE_UNKRESC, "%s: %s", name);
	snprintf(what, sizeof(what), "-l %s", name);
	if (strcmp(name, "vmem") == 0)
		snprintf(what, sizeof(what), "-l %s (Sluice limits real memory: use mem, or pvmem "
			 "for each process's virtual memory)", name);
	/* NCI Gadi's: file systems mounted for the job, and its local disk */
	if (strcmp(name, "storage") == 0 || strcmp(name, "jobfs") == 0)
		snprintf(what, sizeof(what), "-l %s (%s)", name,
			 strcmp(name, "storage") == 0 ? "Sluice mounts no file systems per job"
						      : "Sluice reserves no local disk per job");
	return unsupp(status, err, what);
}

/* Resources PBS knows that are job-wide alone (no ATR_DFLAG_CVTSLT in
 * master_resc_def_all.xml): in a chunk, do_schedselect()'s
 * PBSE_INVALSELECTRESC (src/server/vnparse.c:4626-4632). pmem and pvmem
 * are Torque's per-process limits, taken job-wide (-l pmem=). */
static int invalid_in_chunk(const char *name)
{
	static const char *const names[] = {"walltime", "place", "select",
					    "nodes", "pmem", "pvmem"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* One "res=val" of a chunk into c. */
static int chunk_item(struct sl_pbs_chunk *c, const char *item, int torque, int *status,
		      struct sl_err *err)
{
	const char *eq = strchr(item, '=');
	char name[64];
	const char *v;
	int r = 0;

	if (eq == NULL && torque) { /* a node property: "nodes=2:ppn=4:ib" */
		char what[160];
		snprintf(what, sizeof(what), "-l nodes with the property \"%s\"", item);
		return unsupp(status, err, what);
	}
	if (eq == NULL || eq == item || (size_t)(eq - item) >= sizeof(name))
		return bad_value(status, err);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - item), item);
	v = eq + 1;
	if (strcmp(name, torque ? "ppn" : "ncpus") == 0) {
		r = parse_count(v, 1, &c->ncpus);
		if (r == 0 && torque)
			c->mpiprocs = c->ncpus;
	} else if (!torque && strcmp(name, "mpiprocs") == 0) {
		r = parse_count(v, 1, &c->mpiprocs);
	} else if (!torque && strcmp(name, "ompthreads") == 0) {
		/* a long, zero or positive (master_resc_def_all.xml) */
		r = parse_count(v, 0, &c->ompthreads);
	} else if (strcmp(name, torque ? "gpus" : "ngpus") == 0) {
		r = parse_count(v, 0, &c->ngpus);
	} else if (!torque && strcmp(name, "mem") == 0) {
		r = sl_pbs_parse_size(v, &c->mem_mib);
		if (r == 0 && c->mem_mib == 0)
			r = -SL_EINVAL;
	} else if (!torque && invalid_in_chunk(name)) {
		return pbse(status, err, SL_PBSE_INVALSELECTRESC, "%s: %s", name);
	} else if (torque) {
		char what[160];
		snprintf(what, sizeof(what), "-l nodes with \"%s\"", item);
		return unsupp(status, err, what);
	} else {
		return refuse_resource(name, status, err);
	}
	return r != 0 ? bad_value(status, err) : 0;
}

/* "N:res=val:..." (or Torque's "N:ppn=M:gpus=G") into c. */
static int chunk_parse(const char *spec, int torque, struct sl_pbs_chunk *c, int *status,
		       struct sl_err *err)
{
	char *copy = sl_xstrdup(spec), *save = NULL, *tok;
	int r = 0, first = 1;

	c->count = 1;
	c->ncpus = c->mpiprocs = c->ngpus = c->ompthreads = -1;
	c->mem_mib = -1;
	for (tok = strtok_r(copy, ":", &save); tok && r == 0; tok = strtok_r(NULL, ":", &save)) {
		if (first && isdigit((unsigned char)tok[0])) {
			if (parse_count(tok, 1, &c->count) != 0 || c->count > MAX_CHUNKS)
				r = bad_value(status, err);
		} else if (first && torque) {
			/* nodes=hostname: naming hosts */
			r = unsupp(status, err, "-l nodes naming hosts");
		} else {
			r = chunk_item(c, tok, torque, status, err);
		}
		first = 0;
	}
	if (r == 0 && first)
		r = bad_value(status, err);
	free(copy);
	return r;
}

static int chunk_alike(const struct sl_pbs_chunk *a, const struct sl_pbs_chunk *b)
{
	return a->ncpus == b->ncpus && a->mpiprocs == b->mpiprocs && a->ngpus == b->ngpus &&
	       a->ompthreads == b->ompthreads && a->mem_mib == b->mem_mib;
}

/* "chunk+chunk+...": alike chunks are summed; unlike ones refused. */
static int select_parse(struct sl_pbs_res *r, const char *name, const char *v, int *status,
			struct sl_err *err)
{
	int torque = strcmp(name, "nodes") == 0, rc = 0;
	char *copy = sl_xstrdup(v), *save = NULL, *part;
	struct sl_pbs_chunk sum = {0}, c;
	int n = 0;

	for (part = strtok_r(copy, "+", &save); part && rc == 0; part = strtok_r(NULL, "+", &save)) {
		if ((rc = chunk_parse(part, torque, &c, status, err)) != 0)
			break;
		if (n > 0 && !chunk_alike(&sum, &c)) {
			char what[RES_MAX_LEN + 64];
			snprintf(what, sizeof(what), "-l %s=%s (chunks that differ: every chunk "
				 "must ask for the same resources)", name, v);
			rc = unsupp(status, err, what);
			break;
		}
		c.count += sum.count;
		if (c.count > MAX_CHUNKS)
			rc = bad_value(status, err);
		sum = c;
		n++;
	}
	if (rc == 0 && n == 0)
		rc = bad_value(status, err);
	free(copy);
	if (rc == 0) {
		r->from = torque ? 'n' : 's';
		r->chunk = sum;
		given(torque ? &r->nodes_given : &r->select_given, v);
	}
	return rc;
}

static int place_parse(struct sl_pbs_res *r, const char *v, int *status, struct sl_err *err)
{
	char *copy = sl_xstrdup(v), *save = NULL, *tok;
	enum sl_pbs_place p = SL_PBS_PLACE_FREE;
	int rc = 0, excl = 0;

	for (tok = strtok_r(copy, ":", &save); tok && rc == 0; tok = strtok_r(NULL, ":", &save)) {
		if (strcmp(tok, "free") == 0 || strcmp(tok, "shared") == 0)
			continue;
		if (strcmp(tok, "scatter") == 0 || strcmp(tok, "vscatter") == 0)
			p = SL_PBS_PLACE_SCATTER;
		else if (strcmp(tok, "pack") == 0)
			p = SL_PBS_PLACE_PACK;
		else if (strcmp(tok, "excl") == 0 || strcmp(tok, "exclhost") == 0)
			excl = 1; /* the job's hosts are its alone: sbatch's --exclusive */
		else if (strncmp(tok, "group=", 6) == 0)
			rc = unsupp(status, err, "-l place=group");
		else
			rc = bad_value(status, err);
	}
	free(copy);
	if (rc == 0) {
		r->place = p;
		r->excl = excl;
		given(&r->place_given, v);
	}
	return rc;
}

/* One "name=value". */
static int resource(struct sl_pbs_res *r, const char *name, const char *v, int *status,
		    struct sl_err *err)
{
	int rc = 0;

	if (strcmp(name, "select") == 0 || strcmp(name, "nodes") == 0)
		return select_parse(r, name, v, status, err);
	if (strcmp(name, "place") == 0)
		return place_parse(r, v, status, err);
	if (strcmp(name, "walltime") == 0) {
		rc = sl_pbs_parse_time(v, &r->walltime);
		if (rc == 0 && r->walltime == 0)
			rc = -SL_EINVAL; /* no time to run: PBS kills it at once */
	} else if (strcmp(name, "mem") == 0) {
		rc = sl_pbs_parse_size(v, &r->mem_mib);
		if (rc == 0 && r->mem_mib == 0)
			rc = -SL_EINVAL;
		if (rc == 0)
			sl_pbs_size_encode(v, r->mem_given, sizeof(r->mem_given));
	} else if (strcmp(name, "pvmem") == 0) { /* a process's address space: RLIMIT_AS */
		rc = sl_pbs_parse_size(v, &r->pvmem_mib);
		if (rc == 0 && r->pvmem_mib == 0)
			rc = -SL_EINVAL;
		if (rc == 0)
			sl_pbs_size_encode(v, r->pvmem_given, sizeof(r->pvmem_given));
	} else if (strcmp(name, "pmem") == 0) { /* a process's real memory */
		rc = sl_pbs_parse_size(v, &r->pmem_mib);
		if (rc == 0 && r->pmem_mib == 0)
			rc = -SL_EINVAL;
		if (rc == 0)
			sl_pbs_size_encode(v, r->pmem_given, sizeof(r->pmem_given));
	} else if (strcmp(name, "ncpus") == 0) {
		rc = parse_count(v, 1, &r->ncpus);
	} else if (strcmp(name, "ngpus") == 0) {
		rc = parse_count(v, 0, &r->ngpus);
	} else if (strcmp(name, "ompthreads") == 0) {
		rc = parse_count(v, 0, &r->ompthreads);
	} else if (strcmp(name, "procs") == 0) {
		rc = parse_count(v, 1, &r->procs);
	} else {
		return refuse_resource(name, status, err);
	}
	return rc != 0 ? bad_value(status, err) : 0;
}

/* The resources resource() knows, as bits of by_directive; others are
 * refused whoever gives them. */
static unsigned res_bit(const char *name)
{
	static const char *const names[] = {"select", "nodes", "place", "walltime",
					    "mem", "pvmem", "ncpus", "ngpus", "pmem", "ompthreads",
					    "procs"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1u << i;
	return 0;
}

static int parse_list(struct sl_pbs_res *r, const char *list, int directive, int *status,
		      struct sl_err *err)
{
	const char *p = list;
	int rc = 0;

	*status = 0;
	if (strlen(list) > RES_MAX_LEN)
		return bad_value(status, err);
	while (*p != '\0' && rc == 0) {
		const char *name, *eq, *end;
		char *n, *v;

		while (isspace((unsigned char)*p))
			p++;
		name = p;
		for (eq = p; *eq && *eq != '=' && *eq != ','; eq++)
			;
		if (eq == name || *eq != '=') {
			/* set_resources(): a name without a value, or none at all */
			*status = 2;
			return sl_err_set(err, SL_EINVAL, "illegal -l value");
		}
		for (end = eq + 1; *end && *end != ','; end++)
			;
		n = sl_xstrndup(name, (size_t)(eq - name));
		n[strcspn(n, " \t")] = '\0';
		v = sl_xstrndup(eq + 1, (size_t)(end - eq - 1));
		if (*v == '\0') {
			*status = 2;
			rc = sl_err_set(err, SL_EINVAL, "illegal -l value");
		} else if (!directive || (r->by_directive & res_bit(n)) == 0) {
			rc = resource(r, n, v, status, err);
			if (rc == 0 && directive)
				r->by_directive |= res_bit(n);
		}
		free(n);
		free(v);
		p = *end ? end + 1 : end;
	}
	return rc;
}

int sl_pbs_res_parse(struct sl_pbs_res *r, const char *list, int *status, struct sl_err *err)
{
	return parse_list(r, list, 0, status, err);
}

int sl_pbs_res_parse_directive(struct sl_pbs_res *r, const char *list, int *status,
			       struct sl_err *err)
{
	return parse_list(r, list, 1, status, err);
}

/* ---- the spec ---------------------------------------------------------- */

/* A job-wide resource next to select: PBS's PBSE_INVALJOBRESC. */
static int with_select(const char *res, int *status, struct sl_err *err)
{
	return pbse(status, err, SL_PBSE_INVALJOBRESC, "%s: %s", res);
}

/* The chunk the job asks for: select=/nodes=, else one chunk made of the
 * job-wide ncpus, mem and ngpus (PBS converts them so). */
static int job_chunk(const struct sl_pbs_res *r, struct sl_pbs_chunk *c, int *status,
		     struct sl_err *err)
{
	if (r->from == 's') {
		if (r->ncpus >= 0)
			return with_select("ncpus", status, err);
		if (r->mem_mib >= 0)
			return with_select("mem", status, err);
		if (r->ngpus >= 0)
			return with_select("ngpus", status, err);
		if (r->ompthreads >= 0)
			return with_select("ompthreads", status, err);
		*c = r->chunk;
		return 0;
	}
	if (r->from == 'n') {
		if (r->ncpus >= 0)
			return with_select("ncpus", status, err);
		if (r->ngpus >= 0)
			return with_select("ngpus", status, err);
		if (r->ompthreads >= 0)
			return with_select("ompthreads", status, err);
		*c = r->chunk;
		/* Torque's mem is the job's: spread over its nodes */
		if (r->mem_mib > 0)
			c->mem_mib = (r->mem_mib + c->count - 1) / c->count;
		return 0;
	}
	c->count = 1;
	c->ncpus = r->ncpus;
	c->mpiprocs = -1;
	c->ngpus = r->ngpus;
	c->ompthreads = r->ompthreads; /* ATR_DFLAG_CVTSLT: it goes into the chunk */
	c->mem_mib = r->mem_mib;
	return 0;
}

/* Torque's procs=N (src/server/resc_def_all.c: "number of processes per
 * job"; complete_req.cpp: N tasks of one execution slot, placed anywhere):
 * sbatch's -n N, the nodes left to the scheduler. Its mem is the job's,
 * each task's share, or pmem when larger (complete_req.cpp). A shape given
 * beside it is refused: Torque's reading of both depends on their order. */
static int procs_apply(const struct sl_pbs_res *r, struct sl_jobspec *s, int *status,
		       struct sl_err *err)
{
	const char *with = r->from == 's' ? "select" : r->from == 'n' ? "nodes"
			   : r->ncpus >= 0 ? "ncpus" : r->ngpus >= 0 ? "ngpus"
			   : r->ompthreads >= 0 ? "ompthreads"
			   : r->place == SL_PBS_PLACE_SCATTER || r->place == SL_PBS_PLACE_PACK
			   ? "place=scatter or pack" : NULL;
	char what[96];
	int64_t per_task;

	if (with != NULL) {
		snprintf(what, sizeof(what), "-l procs with %s", with);
		return unsupp(status, err, what);
	}
	s->nodes = s->nodes_max = SL_NO_VAL;
	s->ntasks = r->procs;
	s->ntasks_per_node = SL_NO_VAL;
	s->cpus_per_task = 1;
	s->mem_per_node = SL_NO_VAL;
	per_task = r->mem_mib > 0 ? (r->mem_mib + r->procs - 1) / r->procs : SL_NO_VAL;
	if (r->pmem_mib > per_task)
		per_task = r->pmem_mib;
	s->mem_per_cpu = per_task > 0 ? per_task : SL_NO_VAL;
	return 0;
}

int sl_pbs_res_apply(const struct sl_pbs_res *r, struct sl_jobspec *s, int *status,
		     struct sl_err *err)
{
	struct sl_pbs_chunk c = {0, -1, -1, -1, -1, -1};
	int rc, ncpus, procs, nodes, per_node;

	*status = 0;
	if ((rc = job_chunk(r, &c, status, err)) != 0)
		return rc;
	if (r->walltime > 0) /* to the second, as MOM enforces it; Slurm's minutes beside */
		sl_jobspec_limit_set_secs(s, r->walltime);
	if (r->excl)
		s->shared = SL_SHARED_EXCLUSIVE;
	if (r->pvmem_mib > 0) { /* every process of the job: setrlimit(RLIMIT_AS) */
		free(s->rlimits);
		s->rlimits = sl_xasprintf("AS=%lld", (long long)r->pvmem_mib * 1048576LL);
	}
	/* MOM's vn_threads: ompthreads when given, else the chunk's ncpus
	 * (start_exec.c:5796-5808); the CPUs asked stay ncpus */
	s->omp_threads = c.ompthreads >= 0 ? c.ompthreads : SL_NO_VAL;
	s->omp_threads_job = r->from == 0 && r->ompthreads >= 0;
	if (r->procs > 0)
		return procs_apply(r, s, status, err);
	if (r->from == 0 && c.ncpus < 0 && c.mem_mib < 0 && c.ngpus < 0) {
		/* no shape asked for: the defaults, as sbatch's (one process) */
		if (r->pmem_mib > 0)
			s->mem_per_node = r->pmem_mib;
		return 0;
	}
	ncpus = c.ncpus > 0 ? c.ncpus : 1;   /* default_chunk.ncpus = 1 */
	procs = c.mpiprocs > 0 ? c.mpiprocs : 1;
	if (ncpus % procs != 0) {
		char what[160];
		snprintf(what, sizeof(what), "-l select with ncpus=%d over mpiprocs=%d (each MPI "
			 "process gets the same whole CPUs)", ncpus, procs);
		return unsupp(status, err, what);
	}
	/* pack: every chunk on one host, so one node holding them all */
	nodes = r->place == SL_PBS_PLACE_PACK ? 1 : c.count;
	per_node = r->place == SL_PBS_PLACE_PACK ? c.count : 1;
	s->nodes = nodes;
	s->nodes_max = SL_NO_VAL;
	s->ntasks = SL_NO_VAL;
	s->ntasks_per_node = procs * per_node;
	s->cpus_per_task = ncpus / procs;
	s->mem_per_cpu = SL_NO_VAL;
	s->mem_per_node = c.mem_mib > 0 ? c.mem_mib * per_node : SL_NO_VAL;
	/* pmem, the most real memory one process may use (Torque's, which
	 * FireWorks' PBS template asks): without mem, a node holds that much
	 * for each of its processes, as Torque's schedulers count it */
	if (c.mem_mib <= 0 && r->pmem_mib > 0)
		s->mem_per_node = r->pmem_mib * procs * per_node;
	s->gpus = SL_NO_VAL;
	s->gpus_per_node = c.ngpus > 0 ? c.ngpus * per_node : SL_NO_VAL;
	return 0;
}
