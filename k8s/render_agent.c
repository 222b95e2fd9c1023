/* render_agent.c - srun's step agent in a JobSet's pods (render_int.h),
 * when kubernetes.agentImage is set:
 *  - an init container of that image runs `sluice-agent --install` to copy
 *    the agent (static: bin/sluice-stepd/agent_main.c) into an emptyDir, so
 *    the job's image needs nothing of ours;
 *  - the main container's command runs under `sluice-agent --agent --`,
 *    which starts srun's tasks beside it and exits with it;
 *  - SLUICE_JOB_SECRET comes from the job's Secret (same name as the
 *    JobSet, made by the executor once the JobSet exists and owned by it,
 *    so it goes with it), SLUICE_AGENT_PORT says srun where agents listen.
 * The init container gets the main container's resources, so the pod's
 * QoS class and what Kueue counts are unchanged. */
#include "render_int.h"

#include "conf_kube.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#define AGENT_DIR "/sluice-agent"
#define AGENT_VOLUME "sluice-agent"
#define AGENT_IN_IMAGE "/usr/local/bin/sluice-agent"

static json_object *strs(const char *const *v)
{
	json_object *a = json_object_new_array();
	for (; *v; v++)
		json_object_array_add(a, json_object_new_string(*v));
	return a;
}

static json_object *mount(int ro)
{
	json_object *m = json_object_new_object();
	json_object_object_add(m, "name", json_object_new_string(AGENT_VOLUME));
	json_object_object_add(m, "mountPath", json_object_new_string(AGENT_DIR));
	if (ro)
		json_object_object_add(m, "readOnly", json_object_new_boolean(1));
	return m;
}

static json_object *array_of(json_object *o, const char *key)
{
	json_object *a;
	if (!json_object_object_get_ex(o, key, &a)) {
		a = json_object_new_array();
		json_object_object_add(o, key, a);
	}
	return a;
}

static json_object *env_value(const char *name, const char *value)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "value", json_object_new_string(value));
	return e;
}

static json_object *env_secret(const char *name, const char *secret)
{
	json_object *e = json_object_new_object(), *from = json_object_new_object();
	json_object *ref = json_object_new_object();
	json_object_object_add(ref, "name", json_object_new_string(secret));
	json_object_object_add(ref, "key", json_object_new_string(SL_RENDER_SECRET_KEY));
	json_object_object_add(from, "secretKeyRef", ref);
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "valueFrom", from);
	return e;
}

static json_object *init_container(const struct sl_render_ctx *c, json_object *main_ctr)
{
	static const char *const cmd[] = {AGENT_IN_IMAGE, "--install", AGENT_DIR "/sluice-agent",
					  NULL};
	json_object *k = json_object_new_object(), *res, *mounts = json_object_new_array();
	json_object_object_add(k, "name", json_object_new_string(AGENT_VOLUME));
	json_object_object_add(k, "image",
			       json_object_new_string(c->in->kube->agent_image));
	json_object_object_add(k, "command", strs(cmd));
	if (json_object_object_get_ex(main_ctr, "resources", &res))
		json_object_object_add(k, "resources", json_object_get(res));
	json_object_array_add(mounts, mount(0));
	json_object_object_add(k, "volumeMounts", mounts);
	return k;
}

/* The main container's command, its env and mount, for the agent. */
static void wrap(const struct sl_render_ctx *c, json_object *ctr)
{
	static const char *const pre[] = {AGENT_DIR "/sluice-agent", "--agent", "--", NULL};
	json_object *cmd = strs(pre), *old, *env = array_of(ctr, "env");
	char port[16];

	if (json_object_object_get_ex(ctr, "command", &old))
		for (size_t i = 0; i < json_object_array_length(old); i++)
			json_object_array_add(cmd, json_object_get(json_object_array_get_idx(old, i)));
	json_object_object_add(ctr, "command", cmd);
	snprintf(port, sizeof(port), "%d", SL_RENDER_AGENT_PORT);
	json_object_array_add(env, env_value("SLUICE_AGENT_PORT", port));
	json_object_array_add(env, env_secret("SLUICE_JOB_SECRET", c->name));
	json_object_array_add(array_of(ctr, "volumeMounts"), mount(1));
}

void sl_render_agent(const struct sl_render_ctx *c, json_object *tmpl)
{
	json_object *spec, *ctrs, *vol, *inits;
	if (c->in->kube == NULL || c->in->kube->agent_image == NULL ||
	    !json_object_object_get_ex(tmpl, "spec", &spec) ||
	    !json_object_object_get_ex(spec, "containers", &ctrs) ||
	    json_object_array_length(ctrs) < 1)
		return;
	wrap(c, json_object_array_get_idx(ctrs, 0));
	inits = array_of(spec, "initContainers");
	json_object_array_add(inits, init_container(c, json_object_array_get_idx(ctrs, 0)));
	vol = json_object_new_object();
	json_object_object_add(vol, "name", json_object_new_string(AGENT_VOLUME));
	json_object_object_add(vol, "emptyDir", json_object_new_object());
	json_object_array_add(array_of(spec, "volumes"), vol);
}
