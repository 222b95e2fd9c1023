/* scontrol.c - the job and controller subset of Slurm 22.05's scontrol. Its
 * verbs (show, hold, uhold, release, requeue, requeuehold, top, suspend,
 * resume, update, ping, reconfigure, version) are a table in
 * compat/scontrol_cmd.c; each makes one client call here, and what it
 * prints and parses is compat/scontrol_*.c's. Options go anywhere, as
 * getopt lets Slurm's ("show job -dd 5"). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "buf.h"
#include "client.h"
#include "optable.h"
#include "client_step.h"
#include "job_proj.h"
#include "scontrol_fmt.h"
#include "scontrol_jobs.h"
#include "scontrol_node.h"
#include "slurm_clusters.h"
#include "sinfo_fmt.h"
#include "slurm_json.h"
#include "slurm_state.h"
#include "squeue_fmt.h"
#include "xalloc.h"

#define OUT_CAP (256u << 20)

struct opts {
	unsigned flags; /* SL_SCONTROL_ONELINE, SL_SCONTROL_DETAIL */
	int json; /* --json 1, --yaml 2 */
};

static int write_out(struct sl_buf *b)
{
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* ---- show ---- */

/* Slurm's other entities: the ones Sluice has none of answer as Slurm does
 * with none (a reservation asked for by name is not found, exit 1); the
 * rest are refused by name. */
static int show_other(const char *word, const char *name)
{
	static const struct {
		const char *name;
		size_t min;
		const char *text; /* NULL: not supported */
	} other[] = {
		{"reservations", 3, "No reservations in the system\n"},
		{"licenses", 3, "No licenses configured in Slurm.\n"},
		{"federation", 3, ""},
		{"assoc_mgr", 3, NULL}, {"aliases", 3, NULL}, {"bbstat", 3, NULL},
		{"burstbuffer", 3, NULL}, {"daemons", 3, NULL}, {"dwstat", 3, NULL},
		{"frontend", 3, NULL}, {"slurmd", 3, NULL}, {"topology", 3, NULL},
	};
	size_t n = strlen(word);
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		if (n < other[i].min || n > strlen(other[i].name) ||
		    strncasecmp(word, other[i].name, n) != 0)
			continue;
		if (other[i].text == NULL) {
			fprintf(stderr, "scontrol: error: show %s is not supported by Sluice\n",
				other[i].name);
			return 1;
		}
		if (name != NULL && strcmp(other[i].name, "reservations") == 0) {
			printf("Reservation %s not found\n", name);
			return 1;
		}
		fputs(other[i].text, stdout);
		return 0;
	}
	fprintf(stderr, "invalid entity:%s for keyword:show \n", word);
	return 1;
}

/* --json, --yaml (Slurm 23.02's; 22.05's scontrol has neither): squeue
 * --json's document for the jobs asked for. Consumes v. */
static int show_job_json(struct sl_job **v, size_t n, enum sl_doc_form form)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	char *cluster = NULL;
	int r = sl_client_cluster_name(&cluster, &err);

	if (r == 0)
		(void)sl_squeue_json(v, n, cluster, (int64_t)time(NULL), form, b);
	else
		fprintf(stderr, "slurm_load_ctl_conf error: %s\n",
			r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
	free(cluster);
	sl_job_free_array(v, n);
	if (r != 0) {
		sl_buf_free(b);
		return 1;
	}
	return write_out(b);
}

/* f selects job *id, or its array task "N_I" (*t holds it). */
static void id_filter(struct sl_jobfilter *f, uint64_t *id, long task, struct sl_taskid *t)
{
	if (task >= 0) {
		*t = (struct sl_taskid){*id, (uint32_t)task};
		f->tasks = t;
		f->n_tasks = 1;
	} else {
		f->ids = id;
		f->n_ids = 1;
	}
}

static int show_job(const char *idstr, const struct opts *o)
{
	struct sl_jobfilter f = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	struct sl_buf *b;
	size_t n = 0;
	struct sl_taskid t;
	uint64_t id;
	long task;
	int r;

	/* scontrol_print_job reads the id with strtol: "" and 0 are every
	 * job, "N_" task 0 of N */
	if (idstr && idstr[strspn(idstr, "0")] == '\0')
		idstr = NULL;
	if (idstr) {
		if (sl_slurm_jobid_read(idstr, SL_JOBID_BARE_TASK, &id, &task) != 0) {
			fprintf(stderr, "scontrol_print_job error: Invalid job id specified\n");
			return 1;
		}
		id_filter(&f, &id, task, &t);
	}
	/* an array's pending tasks: Slurm's one meta record, the tasks split
	 * off it records of their own */
	f.fold = f.n_tasks == 0 ? 3 : 0;
	if ((r = sl_client_query(&f, &v, &n, &err)) != 0) {
		fprintf(stderr, "slurm_load_jobs error: %s\n", r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
		return 1;
	}
	if (n == 0 && idstr) {
		/* a task its array does not have: the array loads, the task
		 * is not among its records (22.05's scontrol_print_job) */
		struct sl_jobfilter a = {.ids = &id, .n_ids = 1};
		struct sl_job **w = NULL;
		size_t k = 0;
		if (task >= 0 && sl_client_query(&a, &w, &k, &err) == 0 && k > 0)
			printf("Job %llu_%ld not found\n", (unsigned long long)id, task);
		else
			fprintf(stderr, "slurm_load_jobs error: Invalid job id specified\n");
		sl_job_free_array(w, k);
		sl_job_free_array(v, n);
		return 1;
	}
	if (o->json)
		return show_job_json(v, n, o->json == 2 ? SL_DOC_YAML : SL_DOC_JSON);
	if (n == 0)
		printf("No jobs in the system\n");
	if (idstr == NULL || task < 0)
		sl_squeue_collapse(v, &n, SL_COLLAPSE_META);
	if (idstr != NULL && task < 0)
		sl_array_load_order(v, n);
	else if (idstr == NULL) /* slurmctld appends the meta record it copies at a split */
		sl_array_meta_last(v, n);
	b = sl_buf_new(OUT_CAP);
	for (size_t i = 0; i < n; i++)
		sl_scontrol_job(b, v[i], (int64_t)time(NULL), o->flags);
	sl_job_free_array(v, n);
	return write_out(b);
}

/* show partition|node [NAME]: sinfo's view of the daemon's answer. */
static int show_parts(const char *name, int nodes, const struct opts *o)
{
	struct sl_clusterinfo *ci = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_sinfo_built *built;
	const struct sl_sinfo_view *v;
	struct sl_buf *b;
	size_t shown = 0, n;
	int r = sl_client_partitions(&ci, &err);

	if (r != 0) {
		fprintf(stderr, "slurm_load_%s error: %s\n", nodes ? "node" : "partitions",
			r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
		return 1;
	}
	built = sl_sinfo_build(ci);
	v = sl_sinfo_built_view(built);
	b = sl_buf_new(OUT_CAP);
	if (o->json && nodes) /* sinfo --json's /nodes/ document */
		(void)(o->json == 2 ? sl_sinfo_yaml(v, b) : sl_sinfo_json(v, b));
	n = nodes ? v->nnodes : v->nparts;
	for (size_t i = 0; i < n; i++) {
		const char *nm = nodes ? v->nodes[i].name : v->parts[i].name;
		if (name && strcmp(name, nm) != 0)
			continue;
		shown++;
		if (o->json)
			continue;
		if (nodes)
			sl_scontrol_node(b, &v->nodes[i], o->flags);
		else
			sl_scontrol_partition(b, &v->parts[i], o->flags);
	}
	sl_sinfo_built_free(built);
	sl_clusterinfo_free(ci);
	if (name && shown == 0) {
		sl_buf_free(b);
		printf("%s %s not found\n", nodes ? "Node" : "Partition", name);
		return 1;
	}
	if (shown == 0 && !o->json)
		printf("No %s in the system\n", nodes ? "nodes" : "partitions");
	return write_out(b);
}

static int show_config(void)
{
	struct sl_daemonconf *dc = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;
	int r = sl_client_config(&dc, &err);

	if (r != 0) {
		fprintf(stderr, "slurm_load_ctl_conf error: %s\n", r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
		return 1;
	}
	b = sl_buf_new(OUT_CAP);
	sl_scontrol_config(b, dc);
	sl_daemonconf_free(dc);
	return write_out(b);
}

/* show hostnames|hostlist|hostlistsorted [LIST]: no daemon involved; the
 * job's node list when no list is given. */
static int show_hosts(enum sl_scontrol_entity e, const char *list)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;

	/* 22.05's scontrol: hostnames without a list reads SLURM_NODELIST, an
	 * empty one says nothing; hostlist needs a list ("" is an empty line) */
	if (list == NULL && e != SL_SC_HOSTNAMES) {
		fprintf(stderr, "invalid encode argument\n");
		return 1;
	}
	if (list != NULL && *list == '\0') {
		if (e != SL_SC_HOSTNAMES)
			putchar('\n');
		return 0;
	}
	b = sl_buf_new(OUT_CAP);
	if (sl_scontrol_hosts(e, list ? list : getenv("SLURM_NODELIST"), b, &err) != 0) {
		sl_buf_free(b);
		fprintf(stderr, "scontrol: error: %s\n", err.msg);
		return strcmp(err.msg, "host list is empty") != 0; /* Slurm: 0 for that */
	}
	return write_out(b);
}

/* show step [N[.S|.batch]]: the running steps, a running batch job's batch
 * step first (Slurm's slurm_get_job_steps and its lines for none). */
static int show_steps(const char *arg, const struct opts *o)
{
	int states[] = {SL_JOB_RUNNING, SL_JOB_SUSPENDED};
	struct sl_jobfilter f = {.states = states, .n_states = 2};
	struct sl_err err = SL_ERR_INIT;
	struct sl_step *st = NULL;
	struct sl_job **v = NULL;
	struct sl_taskid t;
	size_t n = 0, ns = 0, printed = 0;
	const char *dot = arg ? strchr(arg, '.') : NULL, *want = dot ? dot + 1 : NULL;
	char jobpart[64];
	uint64_t id = 0;
	long task = -1;
	int r;

	if (arg != NULL) {
		snprintf(jobpart, sizeof(jobpart), "%.*s", (int)(dot ? dot - arg : (long)strlen(arg)),
			 arg);
		if (sl_slurm_jobid_parse(jobpart, &id, &task) != 0) {
			fprintf(stderr, "slurm_get_job_steps error: Invalid job id specified\n");
			return 1;
		}
		id_filter(&f, &id, task, &t);
		f.states = NULL; /* an ended job is "not found", a missing one an error */
		f.n_states = 0;
	}
	if ((r = sl_client_query(&f, &v, &n, &err)) != 0) {
		fprintf(stderr, "slurm_get_job_steps error: %s\n",
			r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
		return 1;
	}
	if (arg != NULL && n == 0) {
		fprintf(stderr, "slurm_get_job_steps error: Invalid job id specified\n");
		return 1;
	}
	uint64_t *ids = sl_xcalloc(n + 1, sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = v[i]->id;
	if (n > 0 && (r = sl_client_steps(ids, n, 1, &st, &ns, &err)) != 0) {
		fprintf(stderr, "slurm_get_job_steps error: %s\n", err.msg);
		free(ids);
		sl_job_free_array(v, n);
		return 1;
	}
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	for (size_t i = 0; i < n; i++) {
		const struct sl_job *j = v[i];
		if (j->state != SL_JOB_RUNNING && j->state != SL_JOB_SUSPENDED)
			continue;
		if (!j->spec.interactive && (want == NULL || strcmp(want, "batch") == 0)) {
			sl_scontrol_batch_step(b, j, (o->flags & SL_SCONTROL_ONELINE) != 0);
			printed++;
		}
		for (size_t k = 0; k < ns; k++) {
			char sid[16];
			snprintf(sid, sizeof(sid), "%u", st[k].step_id);
			if (st[k].job_id != j->id || (want != NULL && strcmp(want, sid) != 0))
				continue;
			sl_scontrol_step(b, j, &st[k], (o->flags & SL_SCONTROL_ONELINE) != 0);
			printed++;
		}
	}
	fputs(sl_buf_str(b), stdout);
	sl_buf_free(b);
	r = 0;
	if (printed == 0 && arg != NULL) {
		if (task >= 0)
			printf("Job step %llu_%ld.%s not found\n", (unsigned long long)id, task,
			       want ? want : "");
		else
			printf("Job step %llu.%s not found\n", (unsigned long long)id, want ? want : "");
		r = 1;
	} else if (printed == 0) {
		printf("No job steps in the system\n");
	}
	sl_step_free_array(st, ns);
	free(ids);
	sl_job_free_array(v, n);
	return r;
}

static int cmd_show(int argc, char **argv, const struct opts *o)
{
	const char *arg = argc > 1 ? argv[1] : NULL;
	enum sl_scontrol_entity e;
	char word[64], *eq;

	if (argc == 0) {
		fprintf(stderr, "too few arguments for keyword:show\n");
		return 1;
	}
	if (argc > 2) {
		fprintf(stderr, "too many arguments for keyword:show\n");
		return 1;
	}
	/* "show job=N" as Slurm's _show_it reads it: the value after '=' (none
	 * when empty), any next word passed over */
	snprintf(word, sizeof(word), "%s", argv[0]);
	if ((eq = strchr(word, '=')) != NULL) {
		*eq = '\0';
		arg = argv[0][eq - word + 1] ? argv[0] + (eq - word) + 1 : NULL;
		argv[0] = word;
	}
	e = sl_scontrol_entity(argv[0]);
	if (o->json && e != SL_SC_JOB && e != SL_SC_NODE && e != SL_SC_NO_ENTITY) {
		fprintf(stderr, "scontrol: error: --%s with show %s is not supported by Sluice\n",
			o->json == 2 ? "yaml" : "json", argv[0]);
		return 1;
	}
	switch (e) {
	case SL_SC_JOB: return show_job(arg, o);
	case SL_SC_PARTITION: return show_parts(arg, 0, o);
	case SL_SC_NODE: return show_parts(arg, 1, o);
	case SL_SC_CONFIG: return show_config();
	case SL_SC_STEP: return show_steps(arg, o);
	case SL_SC_NO_ENTITY: break;
	default: return show_hosts(e, arg);
	}
	return show_other(argv[0], arg);
}

/* write batch_script ID [FILE|-]: the job's script, for its owner and
 * operators (the daemon sends it to no one else), into slurm-ID.sh by
 * default, as Slurm's scontrol writes it. Slurm exits 0 on its errors. */
static int cmd_write(int argc, char **argv)
{
	struct sl_jobproj *p = sl_jobproj_new();
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	uint64_t id;
	long task;
	size_t n = 0;
	int r;

	if (argc < 1 || strncasecmp(argv[0], "batch_script", strlen(argv[0]) > 5 ? strlen(argv[0])
										  : 5) != 0) {
		fprintf(stderr, argc < 1 ? "too few arguments for keyword:write\n"
					 : "scontrol: error: write %s is not supported by Sluice\n",
			argc < 1 ? "" : argv[0]);
		sl_jobproj_free(p);
		return 1;
	}
	if (argc < 2 || sl_slurm_jobid_parse(argv[1], &id, &task) != 0) {
		fprintf(stderr, "job script retrieval failed: Invalid job id specified\n");
		sl_jobproj_free(p);
		return 0;
	}
	struct sl_taskid t = {id, (uint32_t)task};
	struct sl_jobfilter f = task >= 0 ? (struct sl_jobfilter){.tasks = &t, .n_tasks = 1}
					  : (struct sl_jobfilter){.ids = &id, .n_ids = 1};
	(void)sl_jobproj_add(p, "spec.script");
	(void)sl_jobproj_add(p, "spec.interactive");
	(void)sl_jobproj_add(p, "uid");
	r = sl_client_query_proj(&f, p, &v, &n, &err);
	sl_jobproj_free(p);
	if (r != 0 || n == 0) {
		fprintf(stderr, "job script retrieval failed: %s\n",
			r == -SL_ECONNECT ? CONNECT_FAIL : r != 0 ? err.msg : "Invalid job id specified");
	} else if (v[0]->spec.script == NULL || *v[0]->spec.script == '\0' ||
		   v[0]->spec.interactive) {
		fprintf(stderr, "job script retrieval failed: %s\n",
			v[0]->uid != getuid() && getuid() != 0 ? "Invalid user id"
							       : "Job script not specified");
	} else if (argc > 2 && strcmp(argv[2], "-") == 0) {
		fputs(v[0]->spec.script, stdout);
	} else {
		char num[48];
		if (task >= 0)
			snprintf(num, sizeof(num), "%llu_%ld", (unsigned long long)id, task);
		else
			snprintf(num, sizeof(num), "%llu", (unsigned long long)id);
		char *path = argc > 2 ? sl_xstrdup(argv[2]) : sl_xasprintf("slurm-%s.sh", num);
		FILE *out = fopen(path, "w");
		int bad = out == NULL || fputs(v[0]->spec.script, out) < 0;
		if (out != NULL && fclose(out) != 0)
			bad = 1;
		if (bad)
			fprintf(stderr, "failed to open file `%s`: %s\n", path, strerror(errno));
		else
			printf("batch script for job %s written to %s\n", num, path);
		free(path);
	}
	sl_job_free_array(v, n);
	return 0;
}

/* ---- the controller ---- */

static int cmd_ping(void)
{
	struct sl_err err = SL_ERR_INIT;
	char *host = NULL, here[256] = "localhost";
	int r = sl_client_ping(&host, &err);

	if (r != 0 && gethostname(here, sizeof(here) - 1) == 0)
		here[strcspn(here, ".")] = '\0';
	printf("Slurmctld(primary) at %s is %s\n", r == 0 && host ? host : here,
	       r == 0 ? "UP" : "DOWN");
	free(host);
	return r != 0;
}

static int cmd_reconfigure(void)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_client_reconfigure(&err);

	if (r == 0)
		return 0;
	fprintf(stderr, "slurm_reconfigure error: %s\n", r == -SL_EPERM ? "Invalid user id"
							: r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
	return 1;
}

/* update NodeName=...: the local node's state (an operator's). */
static int cmd_update_node(int argc, char **argv)
{
	struct sl_node_update u;
	struct sl_err err = SL_ERR_INIT;
	int r = sl_scontrol_node_update_parse(argc, argv, &u, &err);

	if (r != 0) { /* in scontrol's own words */
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	r = sl_client_node_update((const char *const *)u.names, u.state, u.reason, &err);
	if (r == -SL_EUNSUPP)
		fprintf(stderr, "scontrol: error: %s\n", err.msg);
	else if (r != 0)
		fprintf(stderr, "slurm_update error: %s\n", r == -SL_EPERM ? "Invalid user id"
							   : r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
	sl_node_update_clear(&u);
	return r != 0;
}

/* update PartitionName=...: its State= (an operator's). */
static int cmd_update_part(int argc, char **argv)
{
	const char *name, *state;
	struct sl_err err = SL_ERR_INIT;
	int r = sl_scontrol_part_update_parse(argc, argv, &name, &state, &err);

	if (r != 0) { /* in scontrol's own words */
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	r = sl_client_part_update(name, state, &err);
	if (r == -SL_EUNSUPP)
		fprintf(stderr, "scontrol: error: %s\n", err.msg);
	else if (r != 0)
		fprintf(stderr, "slurm_update error: %s\n", r == -SL_EPERM ? "Invalid user id"
							   : r == -SL_ECONNECT ? CONNECT_FAIL : err.msg);
	return r != 0;
}

/* Slurm's _update_it: the entity its tags name picks the update. */
static int cmd_update(int argc, char **argv)
{
	static const char *const names[] = {
		[SL_UPD_STEP] = "StepId", [SL_UPD_RESERVATION] = "ReservationName",
		[SL_UPD_FRONTEND] = "FrontendName", [SL_UPD_DEBUG] = "SlurmctldDebug",
	};
	enum sl_update_entity e = sl_scontrol_update_entity(argc, argv);

	if (e == SL_UPD_NODE)
		return cmd_update_node(argc, argv);
	if (e == SL_UPD_PARTITION)
		return cmd_update_part(argc, argv);
	if (e == SL_UPD_JOB || e == SL_UPD_NONE)
		return scontrol_update(argc, argv);
	fprintf(stderr, "scontrol: error: update %s is not supported by Sluice\n", names[e]);
	return 1;
}

static int run(int argc, char **argv, const struct opts *o)
{
	const struct sl_scontrol_verb *v = sl_scontrol_verb(argv[0]);

	if (v == NULL) {
		fprintf(stderr, "invalid keyword: %s\n", argv[0]);
		return 1;
	}
	switch (v->kind) {
	case SL_SC_SHOW: return cmd_show(argc - 1, argv + 1, o);
	case SL_SC_CONTROL: return scontrol_control(v, argc - 1, argv + 1);
	case SL_SC_UPDATE: return cmd_update(argc - 1, argv + 1);
	case SL_SC_PING: return cmd_ping();
	case SL_SC_RECONFIGURE: return cmd_reconfigure();
	case SL_SC_VERSION: printf("slurm 22.05.8\n"); return 0;
	case SL_SC_WRITE: return cmd_write(argc - 1, argv + 1);
	}
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"details", no_argument, NULL, 'd'}, {"oneliner", no_argument, NULL, 'o'},
		{"version", no_argument, NULL, 'V'}, {"json", no_argument, NULL, 'j'},
		{"yaml", no_argument, NULL, 'y'},
		{"quiet", no_argument, NULL, 'Q'}, {"all", no_argument, NULL, 'a'},
		{"cluster", required_argument, NULL, 'M'},
		{"clusters", required_argument, NULL, 'M'},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {0, 0};
	int c;

	opterr = 0;
	/* Sluice is one cluster: -M (or SLURM_CLUSTERS) naming it, or "all",
	 * changes nothing; another name is refused as Slurm's */
	if (getenv("SLURM_CLUSTERS") != NULL)
		free(sl_slurm_clusters_or_exit("scontrol", getenv("SLURM_CLUSTERS")));
	while ((c = getopt_long(argc, argv, "adM:oQV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o.flags |= SL_SCONTROL_DETAIL; break;
		case 'o': o.flags |= SL_SCONTROL_ONELINE; break;
		case 'j': o.json = 1; break;
		case 'y': o.json = 2; break;
		case 'a': break;
		case 'M': free(sl_slurm_clusters_or_exit("scontrol", optarg)); break;
		case 'Q': /* Slurm's quiet_flag: its error lines go, its exit status stays */
			(void)!freopen("/dev/null", "w", stderr);
			break;
		case 'V': printf("slurm 22.05.8\n"); return 0;
		default:
			sl_getopt_complain("scontrol", argv, optind, optopt);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "scontrol: error: interactive mode is not supported by Sluice\n");
		return 1;
	}
	return run(argc - optind, argv + optind, &o);
}
