/* render_mpijob.c - a job as an MPIJob: a launcher that runs the batch
 * script (mpirun inside it reaches the workers through the operator's
 * hostfile and ssh) and one worker per node with the job's per-node shape.
 *
 * mpi-operator stores an MPIJob that breaks its rules and then never runs
 * it (only a Warning event says why), so its ValidateMPIJob rules are
 * checked here, before anything is sent. */
#include "render_int.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const struct {
	const char *sluice, *operator;
} impls[] = {
	{"openmpi", "OpenMPI"},
	{"intel", "Intel"},
	{"mpich", "MPICH"},
};

static const char *implementation(const char *mpi)
{
	size_t i;

	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
		if (strcmp(impls[i].sluice, mpi) == 0)
			return impls[i].operator;
	return NULL;
}

/* The operator mounts its generated key pair here; it must be the user's
 * ~/.ssh for ssh to find it without options (root: /root/.ssh). */
static char *ssh_dir(const struct sl_render_ctx *c)
{
	const struct sl_job *j = c->in->job;
	size_t i;

	if (j->uid == 0)
		return sl_xstrdup("/root/.ssh");
	for (i = 0; c->spec->env != NULL && c->spec->env[i] != NULL; i++)
		if (strncmp(c->spec->env[i], "HOME=/", 6) == 0)
			return sl_xasprintf("%s/.ssh", c->spec->env[i] + 5);
	return sl_xasprintf("/home/%s/.ssh", j->user ? j->user : "nobody");
}

static int validate(const struct sl_render_ctx *c, struct sl_err *err)
{
	char *worker = sl_xasprintf("%s-worker-%d", c->name, c->shape.nodes - 1);
	char *launcher = sl_xasprintf("%s-launcher", c->name);
	int r;

	if ((r = sl_render_check_name("MPIJob worker name", worker, err)) == 0 &&
	    (r = sl_render_check_name("MPIJob launcher name", launcher, err)) == 0 &&
	    strlen(launcher) + SL_RENDER_POD_SUFFIX > 63)
		r = sl_err_set(err, SL_EINVAL, "MPIJob %s: launcher pod names would be %zu "
			       "characters long (at most 63)", c->name,
			       strlen(launcher) + SL_RENDER_POD_SUFFIX);
	free(worker);
	free(launcher);
	if (r != 0)
		return r;
	if (implementation(c->mpi) == NULL)
		return sl_err_set(err, SL_EINVAL, "MPIJob %s: unknown MPI implementation "
				  "\"%s\" (openmpi, intel or mpich)", c->name, c->mpi);
	if (c->shape.nodes < 1 || c->shape.tasks_per_node < 1 || c->shape.cpus_per_node < 1)
		return sl_err_set(err, SL_EINVAL, "MPIJob %s: workers, slots per worker and "
				  "CPUs must be at least 1", c->name);
	return 0;
}

static json_object *replica(int replicas, json_object *tmpl)
{
	json_object *r = json_object_new_object();

	json_object_object_add(r, "replicas", json_object_new_int(replicas));
	/* At the replica level: the operator overrides the pod's own. */
	json_object_object_add(r, "restartPolicy", json_object_new_string("Never"));
	json_object_object_add(r, "template", tmpl);
	return r;
}

static json_object *run_policy(const struct sl_render_ctx *c)
{
	json_object *p = json_object_new_object();
	int64_t deadline = sl_render_deadline(c);

	/* Go defaulting says None: idle sshd workers would keep their GPUs. */
	json_object_object_add(p, "cleanPodPolicy", json_object_new_string("Running"));
	json_object_object_add(p, "backoffLimit", json_object_new_int(0));
	if (deadline > 0)
		json_object_object_add(p, "activeDeadlineSeconds", json_object_new_int64(deadline));
	json_object_object_add(p, "suspend", json_object_new_boolean(0));
	return p;
}

static int templates(const struct sl_render_ctx *c, json_object **launcher,
		     json_object **worker, struct sl_err *err)
{
	/* Worker pods are <name>-worker-<i> (hostname = pod name). */
	char *list = sl_render_nodelist(c, "worker"), *host = sl_xasprintf("%s-launcher", c->name);
	struct sl_render_pod lp = {SL_ROLE_LAUNCHER, "launcher", list, host};
	struct sl_render_pod wp = {SL_ROLE_WORKER, "worker", list, NULL};
	int r;

	*launcher = *worker = NULL;
	r = sl_render_pod_template(c, &lp, launcher, err);
	if (r == 0)
		r = sl_render_pod_template(c, &wp, worker, err);
	free(list);
	free(host);
	if (r != 0) {
		json_object_put(*launcher);
		*launcher = NULL;
	}
	return r;
}

int sl_render_mpijob(const struct sl_render_ctx *c, json_object *o, struct sl_err *err)
{
	json_object *spec, *specs, *lt, *wt;
	char *ssh;
	int r;

	if ((r = validate(c, err)) != 0 || (r = templates(c, &lt, &wt, err)) != 0)
		return r;
	spec = json_object_new_object();
	json_object_object_add(spec, "slotsPerWorker", json_object_new_int(c->shape.tasks_per_node));
	json_object_object_add(spec, "mpiImplementation",
			       json_object_new_string(implementation(c->mpi)));
	ssh = ssh_dir(c);
	json_object_object_add(spec, "sshAuthMountPath", json_object_new_string(ssh));
	free(ssh);
	/* Workers first: the launcher's ssh would race their sshd otherwise. */
	json_object_object_add(spec, "launcherCreationPolicy",
			       json_object_new_string("WaitForWorkersReady"));
	json_object_object_add(spec, "runPolicy", run_policy(c));
	specs = json_object_new_object();
	json_object_object_add(specs, "Launcher", replica(1, lt));
	json_object_object_add(specs, "Worker", replica(c->shape.nodes, wt));
	json_object_object_add(spec, "mpiReplicaSpecs", specs);
	json_object_object_add(o, "spec", spec);
	return 0;
}
