/* render_jobset.c - a job as a JobSet: one replicatedJob "node" of one
 * Indexed Job with one pod per node, the script on index 0 (render.h). */
#include "render_jobset.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "xalloc.h"

#define RJOB "node"
#define INDEXED_MAX 100000 /* batch/v1: completions of an Indexed Job */

/* Pod hostnames <js>-node-0-<i>: known before any pod exists. */
static char *nodelist(const struct sl_render_ctx *c, char **batch_host)
{
	int n = c->shape.nodes, i;
	char **v = sl_xcalloc((size_t)n + 1, sizeof(*v)), *list;

	for (i = 0; i < n; i++)
		v[i] = sl_xasprintf("%s-" RJOB "-0-%d", c->name, i);
	list = sl_hostlist_compress(v, (size_t)n);
	*batch_host = sl_xstrdup(v[0]);
	sl_strv_free(v);
	return list;
}

/* The JobSet webhook's name rules, which the API server's CRD schema does
 * not check: a bad name would only fail later, in the controller. */
static int validate(const struct sl_render_ctx *c, struct sl_err *err)
{
	char *job = sl_xasprintf("%s-" RJOB "-0", c->name);
	char last[32];
	size_t pod;
	int r;

	snprintf(last, sizeof(last), "%d", c->shape.nodes - 1);
	pod = strlen(job) + 1 + strlen(last) + SL_RENDER_POD_SUFFIX;
	r = sl_render_check_name("Job name", job, err);
	free(job);
	if (r != 0)
		return r;
	if (c->shape.nodes < 1 || c->shape.nodes > INDEXED_MAX)
		return sl_err_set(err, SL_EINVAL, "JobSet %s: %d nodes: an Indexed Job has "
				  "1..%d pods", c->name, c->shape.nodes, INDEXED_MAX);
	if (pod > 63)
		return sl_err_set(err, SL_EINVAL, "JobSet %s: pod names would be %zu "
				  "characters long (at most 63)", c->name, pod);
	if (c->shape.cpus_per_node < 1)
		return sl_err_set(err, SL_EINVAL, "JobSet %s: no CPU requested", c->name);
	return 0;
}

static json_object *job_spec(const struct sl_render_ctx *c, json_object *pod)
{
	json_object *s = json_object_new_object();
	int64_t deadline = sl_render_deadline(c);

	json_object_object_add(s, "parallelism", json_object_new_int(c->shape.nodes));
	json_object_object_add(s, "completions", json_object_new_int(c->shape.nodes));
	json_object_object_add(s, "completionMode", json_object_new_string("Indexed"));
	json_object_object_add(s, "backoffLimit", json_object_new_int(0));
	if (deadline > 0)
		json_object_object_add(s, "activeDeadlineSeconds",
				       json_object_new_int64(deadline));
	if (c->shape.nodes > 1) {
		/* The job is done when the batch script (index 0) is: the idle
		 * indices are then stopped, as Slurm ends an allocation. */
		json_object *sp = json_object_new_object(), *rules = json_object_new_array();
		json_object *rule = json_object_new_object();

		json_object_object_add(rule, "succeededIndexes", json_object_new_string("0"));
		json_object_array_add(rules, rule);
		json_object_object_add(sp, "rules", rules);
		json_object_object_add(s, "successPolicy", sp);
	}
	json_object_object_add(s, "template", pod);
	return s;
}

int sl_render_jobset(const struct sl_render_ctx *c, json_object **out, struct sl_err *err)
{
	json_object *o, *spec, *net, *rjs, *rj, *tmpl, *pod = NULL;
	char *batch = NULL, *list;
	struct sl_render_pod p = {SL_ROLE_NODE, "batch", NULL, NULL};
	int r;

	*out = NULL;
	if ((r = validate(c, err)) != 0)
		return r;
	list = nodelist(c, &batch);
	p.nodelist = list;
	p.batch_host = batch;
	r = sl_render_pod_template(c, &p, &pod, err);
	free(list);
	free(batch);
	if (r != 0)
		return r;
	o = json_object_new_object();
	json_object_object_add(o, "apiVersion", json_object_new_string("jobset.x-k8s.io/v1alpha2"));
	json_object_object_add(o, "kind", json_object_new_string("JobSet"));
	json_object_object_add(o, "metadata", sl_render_metadata(c));
	spec = json_object_new_object();
	net = json_object_new_object();
	json_object_object_add(net, "enableDNSHostnames", json_object_new_boolean(1));
	json_object_object_add(net, "subdomain", json_object_new_string(c->name));
	json_object_object_add(net, "publishNotReadyAddresses", json_object_new_boolean(1));
	json_object_object_add(spec, "network", net);
	rj = json_object_new_object();
	json_object_object_add(rj, "name", json_object_new_string(RJOB));
	json_object_object_add(rj, "replicas", json_object_new_int(1));
	tmpl = json_object_new_object();
	json_object_object_add(tmpl, "spec", job_spec(c, pod));
	json_object_object_add(rj, "template", tmpl);
	rjs = json_object_new_array();
	json_object_array_add(rjs, rj);
	json_object_object_add(spec, "replicatedJobs", rjs);
	json_object_object_add(o, "spec", spec);
	*out = o;
	return 0;
}
