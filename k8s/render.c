/* render.c - what every kind's object is built from: its name and
 * metadata, the pod template (command, environment, resources, flavor
 * placement, identity, volumes) for each role a kind's pods play, and the
 * context they are rendered in (render_int.h). render_jobset.c and
 * render_mpijob.c assemble them; kinds.c renders through them. See render.h
 * for the rules and their reasons. */
#include "render.h"
#include "render_int.h"

#include <grp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf_kube.h"
#include "hostlist.h"
#include "kueue.h"
#include "pbs_env.h"
#include "podlog.h"
#include "slurm_env.h"
#include "slurm_pattern.h"
#include "workload.h"
#include "xalloc.h"

#define SCRIPT_ANNOTATION "sluice.io/script"
#define SCRIPT_DIR "/sluice"
#define ANNOTATIONS_MAX 262144 /* Kubernetes: all annotations of an object */
#define GROUPS_MAX 65536

/* ---- small JSON helpers ------------------------------------------------ */

static void put(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static void put_s(json_object *o, const char *k, const char *v)
{
	if (v != NULL)
		put(o, k, json_object_new_string(v));
}

/* Kubernetes expands $(VAR) in env values, command and args, and turns $$
 * into $: doubling a '$' before '(' or '$' keeps the text as written. */
static json_object *kstr(const char *s)
{
	size_t n = 0, i;
	char *t, *p;
	json_object *o;

	for (i = 0; s[i]; i++)
		n += s[i] == '$' && (s[i + 1] == '(' || s[i + 1] == '$');
	if (n == 0)
		return json_object_new_string(s);
	p = t = sl_xmalloc(strlen(s) + n + 1);
	for (i = 0; s[i]; i++) {
		if (s[i] == '$' && (s[i + 1] == '(' || s[i + 1] == '$'))
			*p++ = '$';
		*p++ = s[i];
	}
	*p = '\0';
	o = json_object_new_string(t);
	free(t);
	return o;
}

/* ---- names and labels -------------------------------------------------- */

char *sl_render_name(uint64_t id, int attempt)
{
	if (attempt > 0)
		return sl_xasprintf("sl-%llu-%d", (unsigned long long)id, attempt);
	return sl_xasprintf("sl-%llu", (unsigned long long)id);
}

int sl_render_check_name(const char *what, const char *name, struct sl_err *err)
{
	size_t i, n = strlen(name);

	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '-'))
			break;
	if (n == 0 || n > 63 || i < n || name[0] < 'a' || name[0] > 'z' || name[n - 1] == '-')
		return sl_err_set(err, SL_EINVAL, "%s \"%s\" is not a DNS-1035 label "
				  "(at most 63 lowercase letters, digits and '-', starting "
				  "with a letter)", what, name);
	return 0;
}

/* A label value: at most 63 of [A-Za-z0-9._-], alphanumeric at both ends. */
static int label_value_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n > 63)
		return 0;
	for (i = 0; i < n; i++) {
		int an = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9');

		if (!an && ((i == 0 || i == n - 1) || !strchr("._-", s[i])))
			return 0;
	}
	return 1;
}

static json_object *labels(const struct sl_render_ctx *c)
{
	const struct sl_job *j = c->in->job;
	json_object *l = json_object_new_object();
	char id[32];

	snprintf(id, sizeof(id), "%llu", (unsigned long long)j->id);
	put_s(l, "sluice.io/job-id", id);
	if (j->user != NULL && label_value_ok(j->user))
		put_s(l, "sluice.io/user", j->user);
	put_s(l, "sluice.io/partition", c->spec->partition);
	put_s(l, "sluice.io/cluster", c->in->cluster);
	return l;
}

json_object *sl_render_metadata(const struct sl_render_ctx *c)
{
	const struct sl_job *j = c->in->job;
	json_object *m = json_object_new_object(), *a = json_object_new_object();

	char ns[SL_K8S_NAME_MAX];

	put_s(m, "name", c->name);
	/* the account's namespace: its Kubernetes name (conf.h) */
	put_s(m, "namespace", sl_conf_k8s_name(c->spec->account, ns) == 0 ? ns : c->spec->account);
	put(m, "labels", labels(c));
	/* Job names and odd user names may hold anything: annotations take it. */
	put_s(a, "sluice.io/job-name", c->spec->name);
	if (j->user != NULL && !label_value_ok(j->user))
		put_s(a, "sluice.io/user", j->user);
	put(m, "annotations", a);
	return m;
}

char *sl_render_nodelist(const struct sl_render_ctx *c, const char *infix)
{
	int n = c->shape.nodes, i;
	char **v = sl_xcalloc((size_t)n + 1, sizeof(*v)), *list;

	for (i = 0; i < n; i++)
		v[i] = sl_xasprintf("%s-%s-%d", c->name, infix, i);
	list = sl_hostlist_compress(v, (size_t)n);
	sl_strv_free(v);
	return list;
}

int64_t sl_render_deadline(const struct sl_render_ctx *c)
{
	return sl_jobspec_limit_secs(c->spec); /* a qsub job's to the second */
}

/* ---- the launcher: what the container runs ----------------------------- */

/* 'text' for sh, with ' as '\''. */
static char *sh_quote(const char *s)
{
	size_t n = 3, i;
	char *t, *p;

	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	p = t = sl_xmalloc(n);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return t;
}

static char *expand(const struct sl_render_ctx *c, const struct sl_render_pod *p,
		    const char *pat)
{
	const struct sl_job *j = c->in->job;
	struct sl_pattern_ctx pc = {
		.job_id = j->id, .array_task_id = SL_PATTERN_TASK(j), .job_name = c->spec->name,
		.array_job_id = j->array_job_id,
		.user = j->user, .host = p->batch_host, .work_dir = c->spec->work_dir,
	};

	return sl_slurm_pattern_expand(pat, &pc);
}

/* Redirections of the batch script: the -o/-e/-i files on the shared
 * filesystem, or the pod log (stdin /dev/null) without one. */
static char *redirections(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	const struct sl_jobspec *s = c->spec;
	char *out, *errp = NULL, *in, *qo, *qe = NULL, *qi, *r;
	const char *op = s->open_mode == SL_OPEN_APPEND ? ">>" : ">";

	if (!c->shared_fs)
		return sl_xstrdup("</dev/null");
	out = expand(c, p, s->std_out ? s->std_out : "slurm-%j.out");
	if (s->std_err != NULL)
		errp = expand(c, p, s->std_err);
	in = s->std_in ? expand(c, p, s->std_in) : sl_xstrdup("/dev/null");
	qo = sh_quote(out);
	qi = sh_quote(in);
	if (errp != NULL && strcmp(errp, out) != 0) {
		qe = sh_quote(errp);
		r = sl_xasprintf("<%s %s%s 2%s%s", qi, op, qo, op, qe);
	} else {
		r = sl_xasprintf("<%s %s%s 2>&1", qi, op, qo);
	}
	free(out);
	free(errp);
	free(in);
	free(qo);
	free(qe);
	free(qi);
	return r;
}

/* Without a shared filesystem, is -e a file apart from -o? Then the pod log
 * must carry stderr after stdout (podlog.h). Compared expanded, as the shared
 * filesystem's redirections do, and as sluiced does when it splits the log. */
static int err_in_log_apart(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	const struct sl_jobspec *s = c->spec;
	char *out, *errp;
	int apart;

	if (c->shared_fs || s->std_err == NULL)
		return 0;
	out = expand(c, p, s->std_out ? s->std_out : "slurm-%j.out");
	errp = expand(c, p, s->std_err);
	apart = strcmp(errp, out) != 0;
	free(out);
	free(errp);
	return apart;
}

/* Index 0 runs the script; the others idle until the Job's successPolicy
 * (or a failure) ends them, and leave at once on SIGTERM. */
#define IDLE_UNLESS_INDEX0                                                   \
	"if [ \"${JOB_COMPLETION_INDEX:-0}\" != 0 ]; then\n"                  \
	"  trap 'exit 0' TERM\n"                                              \
	"  while :; do sleep 3600 & wait $!; done\n"                          \
	"fi\n"

static json_object *command(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	json_object *a = json_object_new_array();
	char *redir, *run, *text;
	size_t i;

	if (p->role == SL_ROLE_WORKER) {
		/* mpirun reaches the workers over ssh (mpi-operator's model). */
		json_object_array_add(a, json_object_new_string("/usr/sbin/sshd"));
		json_object_array_add(a, json_object_new_string("-De"));
		return a;
	}
	if (err_in_log_apart(c, p)) {
		run = sl_podlog_run(SCRIPT_DIR "/slurm_script", c->in->job->id, c->in->attempt);
	} else {
		redir = redirections(c, p);
		run = sl_xasprintf("exec " SCRIPT_DIR "/slurm_script \"$@\" %s\n", redir);
		free(redir);
	}
	text = sl_xasprintf("%sumask %04o\n%s", p->role == SL_ROLE_NODE ? IDLE_UNLESS_INDEX0 : "",
			    (unsigned)c->spec->umask, run);
	json_object_array_add(a, json_object_new_string("/bin/sh"));
	json_object_array_add(a, json_object_new_string("-c"));
	json_object_array_add(a, kstr(text));
	json_object_array_add(a, json_object_new_string("sluice-batch")); /* $0 */
	for (i = 0; c->spec->argv != NULL && c->spec->argv[i] != NULL; i++)
		json_object_array_add(a, kstr(c->spec->argv[i]));
	free(run);
	free(text);
	return a;
}

/* ---- environment ------------------------------------------------------- */

/* Host-specific variables that would break the image or lie in the pod. */
static const char *const env_skip[] = {
	"PATH", "LD_LIBRARY_PATH", "HOSTNAME", "PWD", "OLDPWD", "SHLVL", "_", NULL,
};

/* Kubernetes' pre-1.30 rule for env names: [-._a-zA-Z][-._a-zA-Z0-9]*. */
static int env_name_ok(const char *kv, size_t n)
{
	size_t i;

	if (n == 0 || (kv[0] >= '0' && kv[0] <= '9'))
		return 0;
	for (i = 0; i < n; i++)
		if (!((kv[i] >= 'a' && kv[i] <= 'z') || (kv[i] >= 'A' && kv[i] <= 'Z') ||
		      (kv[i] >= '0' && kv[i] <= '9') || strchr("-._", kv[i])))
			return 0;
	for (i = 0; env_skip[i] != NULL; i++)
		if (strlen(env_skip[i]) == n && strncmp(env_skip[i], kv, n) == 0)
			return 0;
	return 1;
}

static json_object *environment(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	struct sl_slurm_env_in ei = {.job = c->in->job, .shape = &c->shape,
				     .nodelist = p->nodelist, .batch_host = p->batch_host,
				     .cluster = c->in->cluster, .pod = 1};
	char host[256] = "localhost";
	struct sl_pbs_env_in pi = {c->in->job, &c->shape, c->in->pbs_server};
	char **slurm = sl_slurm_env_build(&ei), **all;
	json_object *a = json_object_new_array();
	size_t i;

	/* PBS's variables too, as the local executor gives them (pbs_env.h);
	 * the node file and TMPDIR are the local supervisor's, not a pod's */
	if (pi.server == NULL) {
		(void)gethostname(host, sizeof(host) - 1);
		host[strcspn(host, ".")] = '\0';
		pi.server = host;
	}
	all = sl_pbs_env_job(&pi, slurm);
	for (i = 0; all[i] != NULL; i++) {
		const char *eq = strchr(all[i], '=');
		json_object *e;
		char *name;

		if (eq == NULL || !env_name_ok(all[i], (size_t)(eq - all[i])))
			continue;
		e = json_object_new_object();
		name = sl_xstrndup(all[i], (size_t)(eq - all[i]));
		put_s(e, "name", name);
		put(e, "value", kstr(eq + 1));
		json_object_array_add(a, e);
		free(name);
	}
	sl_strv_free(slurm);
	sl_strv_free(all);
	return a;
}

/* ---- resources, placement, identity ------------------------------------ */

static json_object *resources(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	json_object *r = json_object_new_object(), *q = json_object_new_object();
	char buf[64];

	if (p->role == SL_ROLE_LAUNCHER) {
		/* mpirun only: a small request, no limit (no GPU: the operator
		 * hides devices from the launcher anyway). */
		put_s(q, "cpu", "1");
		put_s(q, "memory", "1Gi");
		put(r, "requests", q);
		return r;
	}
	snprintf(buf, sizeof(buf), "%d", c->shape.cpus_per_node);
	put_s(q, "cpu", buf);
	if (c->shape.mem_per_node > 0) {
		snprintf(buf, sizeof(buf), "%lldMi", (long long)c->shape.mem_per_node);
		put_s(q, "memory", buf);
	}
	if (c->shape.gpus_per_node > 0) {
		snprintf(buf, sizeof(buf), "%d", c->shape.gpus_per_node);
		put_s(q, c->gpu_resource, buf);
	}
	/* requests = limits: the Guaranteed QoS class, as a Slurm allocation. */
	put(r, "requests", q);
	put(r, "limits", json_tokener_parse(json_object_to_json_string(q)));
	return r;
}

/* The distinct flavors of the admission, in order. */
static size_t flavors(const struct sl_render_in *in, const struct sl_kq_flavor **v, size_t cap)
{
	size_t i, j, n = 0;

	for (i = 0; i < in->nflavors && n < cap; i++) {
		for (j = 0; j < n && v[j] != in->flavors[i].flavor; j++)
			;
		if (j == n && in->flavors[i].flavor != NULL)
			v[n++] = in->flavors[i].flavor;
	}
	return n;
}

/* As Kueue: the pod's own nodeSelector (the job's -C features and GPU type
 * as node labels) first, then the admitted flavors' nodeLabels added. */
static int node_selector(const struct sl_render_ctx *c, json_object *spec, struct sl_err *err)
{
	const struct sl_kq_flavor *fv[16];
	struct sl_sched_label own[SL_JOB_WL_LABELS];
	size_t n = flavors(c->in, fv, 16), i, k, o, nown = 0;
	json_object *sel = json_object_new_object(), *old;
	int r;

	if ((r = sl_job_node_selector(c->spec, c->in->features, own, SL_JOB_WL_LABELS, &nown,
				      err)) != 0) {
		json_object_put(sel);
		return r;
	}
	for (k = 0; k < nown; k++)
		put_s(sel, own[k].key, own[k].value);
	for (i = 0; i < n; i++)
		for (k = 0; k < fv[i]->nlabels; k++) {
			const struct sl_kq_kv *l = &fv[i]->labels[k];

			if (json_object_object_get_ex(sel, l->key, &old) &&
			    strcmp(json_object_get_string(old), l->value) != 0) {
				for (o = 0; o < nown && strcmp(own[o].key, l->key) != 0; o++)
					;
				r = sl_err_set(err, SL_ECONFIG, "ResourceFlavor \"%s\": "
					       "nodeLabels: %s=%s conflicts with %s from "
					       "%s", fv[i]->name, l->key, l->value,
					       json_object_get_string(old), o < nown ?
					       "the job's features (-C, --gres type)" :
					       "another flavor of the admission");
				json_object_put(sel);
				return r;
			}
			put_s(sel, l->key, l->value);
		}
	if (json_object_object_length(sel) > 0)
		put(spec, "nodeSelector", sel);
	else
		json_object_put(sel);
	return 0;
}

static void add_toleration(json_object *a, const char *key, const char *op,
			   const char *value, const char *effect)
{
	json_object *t = json_object_new_object();
	const char *text;
	size_t i;

	if (key != NULL && *key)
		put_s(t, "key", key);
	put_s(t, "operator", op != NULL && *op ? op : "Equal");
	if (value != NULL && *value)
		put_s(t, "value", value);
	if (effect != NULL && *effect)
		put_s(t, "effect", effect);
	text = json_object_to_json_string(t);
	for (i = 0; i < json_object_array_length(a); i++)
		if (strcmp(json_object_to_json_string(json_object_array_get_idx(a, i)), text) == 0)
			break;
	if (i < json_object_array_length(a))
		json_object_put(t);
	else
		json_object_array_add(a, t);
}

/* The flavors' own tolerations, then one per nodeTaint: a taint only gates
 * admission in Kueue, but the pods must still land on those nodes. */
static void tolerations(const struct sl_render_ctx *c, json_object *spec)
{
	const struct sl_kq_flavor *fv[16];
	size_t n = flavors(c->in, fv, 16), i, k;
	json_object *a = json_object_new_array();

	for (i = 0; i < n; i++) {
		for (k = 0; k < fv[i]->ntols; k++) {
			const struct sl_kq_toleration *t = &fv[i]->tols[k];

			add_toleration(a, t->key, t->op, t->value, t->effect);
		}
		for (k = 0; k < fv[i]->ntaints; k++) {
			const struct sl_kq_taint *t = &fv[i]->taints[k];
			int has_value = t->value != NULL && *t->value;

			add_toleration(a, t->key, has_value ? "Equal" : "Exists", t->value,
				       t->effect);
		}
	}
	if (json_object_array_length(a) > 0)
		put(spec, "tolerations", a);
	else
		json_object_put(a);
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return x < y ? -1 : x > y;
}

static json_object *security(const struct sl_render_ctx *c)
{
	const struct sl_render_in *in = c->in;
	json_object *s = json_object_new_object(), *g = json_object_new_array();
	gid_t *v;
	int n = 64;
	size_t i, cnt;

	if (in->groups != NULL) {
		cnt = in->ngroups;
		v = sl_xcalloc(cnt + 1, sizeof(*v));
		memcpy(v, in->groups, cnt * sizeof(*v));
	} else {
		v = sl_xcalloc((size_t)n, sizeof(*v));
		if (in->job->user == NULL ||
		    getgrouplist(in->job->user, in->job->gid, v, &n) < 0) {
			n = n > 0 && n <= GROUPS_MAX ? n : 1;
			v = sl_xrealloc(v, (size_t)n * sizeof(*v));
			if (in->job->user == NULL ||
			    getgrouplist(in->job->user, in->job->gid, v, &n) < 0) {
				v[0] = in->job->gid;
				n = 1;
			}
		}
		cnt = (size_t)n;
	}
	qsort(v, cnt, sizeof(*v), cmp_gid);
	put(s, "runAsUser", json_object_new_int64((int64_t)in->job->uid));
	put(s, "runAsGroup", json_object_new_int64((int64_t)in->job->gid));
	for (i = 0; i < cnt; i++)
		if (i == 0 || v[i] != v[i - 1])
			json_object_array_add(g, json_object_new_int64((int64_t)v[i]));
	put(s, "supplementalGroups", g);
	free(v);
	return s;
}

/* ---- volumes ------------------------------------------------------------ */

static json_object *json_list(const char *text)
{
	json_object *a = text ? json_tokener_parse(text) : NULL;

	return a != NULL ? a : json_object_new_array();
}

static json_object *script_volume(void)
{
	json_object *v = json_object_new_object(), *d = json_object_new_object();
	json_object *items = json_object_new_array(), *it = json_object_new_object();
	json_object *ref = json_object_new_object();

	put_s(ref, "fieldPath", "metadata.annotations['" SCRIPT_ANNOTATION "']");
	put_s(it, "path", "slurm_script"); /* $0 as slurmd names it */
	put(it, "fieldRef", ref);
	json_object_array_add(items, it);
	put(d, "defaultMode", json_object_new_int(0755));
	put(d, "items", items);
	put_s(v, "name", "sluice-script");
	put(v, "downwardAPI", d);
	return v;
}

static void volumes(const struct sl_render_ctx *c, const struct sl_render_pod *p,
		    json_object *spec, json_object *ctr)
{
	json_object *vols = json_list(c->part ? c->part->volumes_json : NULL);
	json_object *mnts = json_list(c->part ? c->part->volume_mounts_json : NULL);

	if (p->role != SL_ROLE_WORKER) {
		json_object *m = json_object_new_object();

		json_object_array_add(vols, script_volume());
		put_s(m, "name", "sluice-script");
		put_s(m, "mountPath", SCRIPT_DIR);
		put(m, "readOnly", json_object_new_boolean(1));
		json_object_array_add(mnts, m);
	}
	if (json_object_array_length(mnts) > 0)
		put(ctr, "volumeMounts", mnts);
	else
		json_object_put(mnts);
	if (json_object_array_length(vols) > 0)
		put(spec, "volumes", vols);
	else
		json_object_put(vols);
}

/* ---- the pod template --------------------------------------------------- */

static json_object *container(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	json_object *k = json_object_new_object();

	put_s(k, "name", p->container);
	put_s(k, "image", c->image);
	if (c->part != NULL)
		put_s(k, "imagePullPolicy", c->part->image_pull_policy);
	put(k, "command", command(c, p));
	if (p->role != SL_ROLE_WORKER) {
		put_s(k, "workingDir", c->spec->work_dir);
		put(k, "env", environment(c, p));
	}
	put(k, "resources", resources(c, p));
	return k;
}

static json_object *pod_metadata(const struct sl_render_ctx *c, const struct sl_render_pod *p)
{
	json_object *m = json_object_new_object(), *a;

	put(m, "labels", labels(c));
	if (p->role != SL_ROLE_WORKER) {
		a = json_object_new_object();
		put_s(a, SCRIPT_ANNOTATION, c->spec->script);
		put(m, "annotations", a);
	}
	return m;
}

/* --exclusive: no other Sluice pod on the node, this job's others
 * included (Slurm never gives a job one node twice). Required pod
 * anti-affinity is checked both ways by the scheduler, so pods that come
 * later keep off too. Pods that are not Sluice's are not kept off, and the
 * quota is charged for what the job asked, not for the node. */
static void exclusive(const struct sl_render_ctx *c, json_object *spec)
{
	json_object *aff, *anti, *terms, *term, *sel, *exprs, *expr;

	if (c->spec->shared != SL_SHARED_EXCLUSIVE)
		return;
	expr = json_object_new_object();
	put_s(expr, "key", "sluice.io/job-id");
	put_s(expr, "operator", "Exists");
	exprs = json_object_new_array();
	json_object_array_add(exprs, expr);
	sel = json_object_new_object();
	put(sel, "matchExpressions", exprs);
	term = json_object_new_object();
	put(term, "labelSelector", sel);
	put_s(term, "topologyKey", "kubernetes.io/hostname");
	terms = json_object_new_array();
	json_object_array_add(terms, term);
	anti = json_object_new_object();
	put(anti, "requiredDuringSchedulingIgnoredDuringExecution", terms);
	aff = json_object_new_object();
	put(aff, "podAntiAffinity", anti);
	put(spec, "affinity", aff);
}

int sl_render_pod_template(const struct sl_render_ctx *c, const struct sl_render_pod *p,
			   json_object **out, struct sl_err *err)
{
	json_object *t = json_object_new_object(), *s = json_object_new_object();
	json_object *ctr, *dns = json_object_new_object(), *search = json_object_new_array();
	char *domain, ns[SL_K8S_NAME_MAX];
	int r;

	put(t, "metadata", pod_metadata(c, p));
	put(t, "spec", s);
	put_s(s, "restartPolicy", "Never");
	/* SLURM_JOB_NODELIST holds short names: make them resolve through the
	 * headless Service (cluster domain assumed to be cluster.local). */
	domain = sl_xasprintf("%s.%s.svc.cluster.local", c->name,
			      sl_conf_k8s_name(c->spec->account, ns) == 0 ? ns : c->spec->account);
	json_object_array_add(search, json_object_new_string(domain));
	free(domain);
	put(dns, "searches", search);
	put(s, "dnsConfig", dns);
	put(s, "enableServiceLinks", json_object_new_boolean(0));
	put(s, "terminationGracePeriodSeconds", json_object_new_int(c->in->kill_wait));
	if (c->part != NULL && c->part->service_account != NULL)
		put_s(s, "serviceAccountName", c->part->service_account);
	else
		put(s, "automountServiceAccountToken", json_object_new_boolean(0));
	if (c->part != NULL)
		put_s(s, "priorityClassName", c->part->priority_class);
	put(s, "securityContext", security(c));
	if ((r = node_selector(c, s, err)) != 0) {
		json_object_put(t);
		return r;
	}
	tolerations(c, s);
	exclusive(c, s);
	sl_render_topology(c, json_object_object_get(t, "metadata"), s);
	ctr = container(c, p);
	volumes(c, p, s, ctr);
	put(s, "containers", json_object_new_array());
	json_object_array_add(json_object_object_get(s, "containers"), ctr);
	*out = t;
	return 0;
}

/* ---- the context -------------------------------------------------------- */

const char *sl_render_mpi(const struct sl_render_in *in)
{
	const struct sl_jobspec *s = &in->job->spec;
	const struct sl_kube_partition *p = sl_kubeconf_partition(in->kube, s->partition);
	const char *m = s->mpi != NULL ? s->mpi : p != NULL ? p->mpi : NULL;

	return m != NULL && strcmp(m, "none") != 0 ? m : NULL;
}

int sl_render_shared_fs(const struct sl_kubeconf *kube, const char *partition)
{
	const struct sl_kube_partition *p = sl_kubeconf_partition(kube, partition);

	return p != NULL && p->volume_mounts_json != NULL &&
	       strcmp(p->volume_mounts_json, "[]") != 0;
}

int sl_render_check(const struct sl_kubeconf *kube, const struct sl_jobspec *s,
		    struct sl_err *err)
{
	/* -e apart travels in the pod log (podlog.h); an input file cannot
	 * travel the other way, and /dev/null in its place would be silent. */
	if (s->std_in == NULL || strcmp(s->std_in, "/dev/null") == 0 ||
	    sl_render_shared_fs(kube, s->partition))
		return 0;
	return sl_err_set(err, SL_EUNSUPP,
			  "--input is not supported by Sluice on partition %s: it has no shared "
			  "filesystem (kubernetes.partitions.%s.volumeMounts), so the pod cannot "
			  "read %s", s->partition, s->partition, s->std_in);
}

/* The resource name of the GPUs: the one the admission covers, so a flavor
 * of amd.com/gpu gets amd.com/gpu. */
static const char *gpu_resource(const struct sl_render_in *in)
{
	size_t i, n;

	for (i = 0; i < in->nflavors; i++) {
		n = strlen(in->flavors[i].resource);
		if (n > 4 && strcmp(in->flavors[i].resource + n - 4, "/gpu") == 0)
			return in->flavors[i].resource;
	}
	return "nvidia.com/gpu";
}

int sl_render_ctx_init(const struct sl_render_in *in, struct sl_render_ctx *c,
		       struct sl_err *err)
{
	const struct sl_jobspec *s = &in->job->spec;
	size_t ann;

	memset(c, 0, sizeof(*c));
	c->in = in;
	c->spec = s;
	sl_job_shape(in->job, &c->shape);
	c->part = sl_kubeconf_partition(in->kube, s->partition);
	c->image = s->container_image ? s->container_image
		 : c->part && c->part->image ? c->part->image
		 : in->kube ? in->kube->image : NULL;
	c->mpi = sl_render_mpi(in);
	c->gpu_resource = gpu_resource(in);
	c->shared_fs = sl_render_shared_fs(in->kube, s->partition);
	c->name = sl_render_name(in->job->id, in->attempt);
	if (c->image == NULL)
		return sl_err_set(err, SL_ECONFIG, "no container image for partition %s: "
				  "set kubernetes.image or kubernetes.partitions.%s.image, "
				  "or use --container-image", s->partition, s->partition);
	if (s->account == NULL || s->partition == NULL || s->work_dir == NULL ||
	    s->script == NULL)
		return sl_err_set(err, SL_EINTERNAL, "job %llu: account, partition, "
				  "working directory and script must be resolved",
				  (unsigned long long)in->job->id);
	ann = strlen(SCRIPT_ANNOTATION) + strlen(s->script);
	if (ann > ANNOTATIONS_MAX)
		return sl_err_set(err, SL_ETOOBIG, "batch script is %zu bytes; the Kubernetes "
				  "executor carries it in an annotation of at most %d bytes",
				  strlen(s->script), ANNOTATIONS_MAX - (int)strlen(SCRIPT_ANNOTATION));
	return sl_render_check_name("object name", c->name, err);
}
