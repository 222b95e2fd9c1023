/* render_jobset.c - a job as a JobSet: one replicatedJob "node" of one
 * Indexed Job with one pod per node, the script on index 0 (render.h), built
 * from render.c's pod template. */
#include "render_int.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define RJOB "node"
#define INDEXED_MAX 100000 /* batch/v1: completions of an Indexed Job */

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

int sl_render_jobset(const struct sl_render_ctx *c, json_object *o, struct sl_err *err)
{
	json_object *spec, *net, *rjs, *rj, *tmpl, *pod = NULL;
	char *batch, *list;
	struct sl_render_pod p = {SL_ROLE_NODE, "batch", NULL, NULL};
	int r;

	if ((r = validate(c, err)) != 0)
		return r;
	/* Pod hostnames <js>-node-0-<i>; the script runs on index 0. */
	list = sl_render_nodelist(c, RJOB "-0");
	batch = sl_xasprintf("%s-" RJOB "-0-0", c->name);
	p.nodelist = list;
	p.batch_host = batch;
	r = sl_render_pod_template(c, &p, &pod, err);
	free(list);
	free(batch);
	if (r != 0)
		return r;
	sl_render_agent(c, pod);
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
	return 0;
}
