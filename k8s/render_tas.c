/* render_tas.c - a Kueue TAS admission in the pods: required node
 * affinity to the domains of the topology assignment (the job record's
 * topo_assign, sched.h sl_sched_topo_text).
 * Why not Kueue's way: Kueue gates each pod (kueue.x-k8s.io/topology
 * scheduling gate) and its ungater gives every pod the nodeSelector of its
 * domain, one pod at a time, as the pods appear; that needs a controller
 * watching pods, which Sluice does not run. One pod template cannot say
 * "index i on node n" either. So the pods may go only to the assigned
 * domains (a host list, or per domain its level labels), which keeps what
 * the request guarantees (one rack, one block, those hosts), and the
 * scheduler fills the hosts: the admission checked they hold the pods.
 * The per-domain counts are in the pod annotation
 * sluice.io/topology-assignment for who wants to check. The label
 * sluice.io/tas (Kueue's kueue.x-k8s.io/tas) tells the node feed that the
 * engine charges these pods itself (bin/exec/k8s/exec_k8s_nodes.c). */
#include "render_int.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "xalloc.h"

#define TAS_ANNOTATION "sluice.io/topology-assignment"
#define TAS_LABEL "sluice.io/tas"
#define HOSTNAME "kubernetes.io/hostname"
#define MAX_LEVELS 16

static json_object *expr(const char *key, json_object *values)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "key", json_object_new_string(key));
	json_object_object_add(e, "operator", json_object_new_string("In"));
	json_object_object_add(e, "values", values);
	return e;
}

static json_object *term(json_object *exprs)
{
	json_object *t = json_object_new_object();
	json_object_object_add(t, "matchExpressions", exprs);
	return t;
}

/* "main@FLAVOR@L1,L2@v1,v2=N@..." -> nodeSelectorTerms, or NULL. */
static json_object *terms_of(char *ps)
{
	char *save = NULL, *flavor, *levels, *dom, *lv[MAX_LEVELS];
	int nl = 0;
	if (!strtok_r(ps, "@", &save) || !(flavor = strtok_r(NULL, "@", &save)) ||
	    !(levels = strtok_r(NULL, "@", &save)))
		return NULL;
	for (char *s2 = NULL, *l = strtok_r(levels, ",", &s2); l && nl < MAX_LEVELS;
	     l = strtok_r(NULL, ",", &s2))
		lv[nl++] = l;
	json_object *terms = json_object_new_array(), *hosts = NULL;
	if (nl == 1 && strcmp(lv[0], HOSTNAME) == 0) {
		hosts = json_object_new_array();
		json_object *e = json_object_new_array();
		json_object_array_add(e, expr(HOSTNAME, hosts));
		json_object_array_add(terms, term(e));
	}
	while ((dom = strtok_r(NULL, "@", &save)) != NULL) {
		char *eq = strrchr(dom, '=');
		if (eq)
			*eq = '\0';
		if (hosts) {
			json_object_array_add(hosts, json_object_new_string(dom));
			continue;
		}
		json_object *e = json_object_new_array();
		int i = 0;
		for (char *s3 = NULL, *v = strtok_r(dom, ",", &s3); v && i < nl;
		     v = strtok_r(NULL, ",", &s3), i++) {
			json_object *vals = json_object_new_array();
			json_object_array_add(vals, json_object_new_string(v));
			json_object_array_add(e, expr(lv[i], vals));
		}
		json_object_array_add(terms, term(e));
	}
	if (json_object_array_length(terms) == 0 ||
	    (hosts && json_object_array_length(hosts) == 0)) {
		json_object_put(terms);
		return NULL;
	}
	return terms;
}

void sl_render_topology(const struct sl_render_ctx *c, json_object *meta, json_object *spec)
{
	const char *text = c->in->job ? c->in->job->topo_assign : NULL;
	json_object *terms = NULL, *aff, *na, *req, *ann, *lab;
	if (!text || !*text)
		return;
	/* a job is one pod set, "main": its entry */
	char *copy = sl_xstrdup(text), *save = NULL;
	for (char *ps = strtok_r(copy, ";", &save); ps && !terms; ps = strtok_r(NULL, ";", &save))
		if (strncmp(ps, "main@", 5) == 0)
			terms = terms_of(ps);
	free(copy);
	if (!terms)
		return;
	if (!json_object_object_get_ex(meta, "annotations", &ann)) {
		ann = json_object_new_object();
		json_object_object_add(meta, "annotations", ann);
	}
	json_object_object_add(ann, TAS_ANNOTATION, json_object_new_string(text));
	if (!json_object_object_get_ex(meta, "labels", &lab)) {
		lab = json_object_new_object();
		json_object_object_add(meta, "labels", lab);
	}
	json_object_object_add(lab, TAS_LABEL, json_object_new_string("true"));
	req = json_object_new_object();
	json_object_object_add(req, "nodeSelectorTerms", terms);
	na = json_object_new_object();
	json_object_object_add(na, "requiredDuringSchedulingIgnoredDuringExecution", req);
	if (!json_object_object_get_ex(spec, "affinity", &aff)) {
		aff = json_object_new_object();
		json_object_object_add(spec, "affinity", aff);
	}
	json_object_object_add(aff, "nodeAffinity", na);
}
