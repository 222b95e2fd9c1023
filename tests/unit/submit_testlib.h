/* submit_testlib.h - the fixture of the submit-policy tests: the config
 * loaded from the includer's conf_text (declare it before including this)
 * and the engine built from its model as `sluice render` builds it, once
 * per group (setup, teardown); alice, who submits; and her job. */
#ifndef SUBMIT_TESTLIB_H
#define SUBMIT_TESTLIB_H

#include "authz.h"
#include "conf.h"
#include "conf_testlib.h"
#include "job.h"
#include "sched/sched.h"
#include "xalloc.h"

static struct sl_conf *conf;
static struct sl_sched *engine;
static const struct sl_peer alice = {.uid = 1000, .gid = 100, .user = "alice", .group = "users"};

static int setup(void **state)
{
	(void)state;
	if ((conf = tl_conf(conf_text)) == NULL)
		return -1;
	engine = sl_sched_new(sl_conf_kueue(conf));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sl_sched_free(engine);
	sl_conf_free(conf);
	return 0;
}

/* A job as sbatch parses a script in /home/alice; script_path may be NULL
 * (none recorded). */
static inline struct sl_job *tl_submit_job(const char *script_path)
{
	struct sl_job *j = sl_job_new();

	j->spec.script = sl_xstrdup("#!/bin/sh\ntrue\n");
	if (script_path != NULL)
		j->spec.script_path = sl_xstrdup(script_path);
	j->spec.work_dir = sl_xstrdup("/home/alice");
	return j;
}

#endif
