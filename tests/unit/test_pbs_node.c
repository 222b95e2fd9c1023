/* test_pbs_node.c - what pbsnodes prints (compat/pbs_node.c,
 * pbs_node_sum.c, pbs_out.c's "Node"): the node of the cluster in
 * pbs_testlib.h with jobs 101 and 106 of tests/data/pbs/jobs.jsonl on it,
 * listed (-a, -v, hosts, -H, -l) and summarized (-S, -Sj, -L) in each
 * format, against tests/data/pbs/pbsnodes_*.out (README: the OpenPBS lines
 * each follows); the memory columns' scaling, and the complaints and exit
 * statuses of names the server does not know. SL_GOLDEN_UPDATE=1 rewrites
 * the golden files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pbs_testlib.h"
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "pbs_node.h"
#include "xalloc.h"

TL_PBS_FIXTURE("jobs.jsonl")

/* The node: the cluster's, with job 101 (2 CPUs) and job 106 (8 of its 16,
 * on two nodes) running there. */
static struct sl_pbs_node *node(void)
{
	struct sl_job *j106 = jobs[5];
	char *was = j106->nodelist, *list;
	struct sl_pbs_node *nd;

	assert_int_equal(j106->id, 106);
	j106->nodelist = "vm,vm-1";
	list = sl_pbs_node_jobs("vm", jobs, njobs, "vm");
	j106->nodelist = was;
	nd = sl_pbs_node_of(tl_pbs_cluster(), list);
	free(list);
	return nd;
}

struct run {
	char *out, *errs;
	int rc;
};

/* pbsnodes ARGS... on nd; caller frees r->out and r->errs. */
static struct run list(const struct sl_pbs_node *nd, const char *const *args)
{
	struct sl_pbsnodes_opts o;
	struct sl_pbs_failure f;
	struct sl_err err = SL_ERR_INIT;
	char *argv[16] = {"pbsnodes"};
	int argc = 1;
	struct sl_buf *out = sl_buf_new(1 << 20), *errs = sl_buf_new(1 << 16);
	struct run r;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	assert_int_equal(sl_pbsnodes_parse(argc, argv, &o, &f, &err), 0);
	r.rc = sl_pbsnodes_list(out, errs, &o, nd, "vm", TL_PBS_NOW, "22.05");
	r.out = tl_take(out);
	r.errs = tl_take(errs);
	return r;
}

/* pbsnodes ARGS... printing golden file name, no complaint, exit 0. */
static void golden(const struct sl_pbs_node *nd, const char *name, const char *const *args)
{
	struct run r = list(nd, args);

	assert_string_equal(r.errs, "");
	assert_int_equal(r.rc, 0);
	free(r.errs);
	tl_pbs_golden(name, r.out);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_jobs_attr(void **state)
{
	size_t n;
	struct sl_job **arr = tl_pbs_jobs("arrays.jsonl", &n);
	char *s;
	(void)state;

	/* a running subjob is "N[I].server"; ended and pending jobs hold none */
	s = sl_pbs_node_jobs("vm", arr, n, "vm");
	assert_string_equal(s, "150.vm/0, 200[3].vm/1, 200[5].vm/2");
	free(s);
	assert_null(sl_pbs_node_jobs("other", arr, n, "vm"));
	sl_job_free_array(arr, n);
	/* 106 has 16 CPUs over 2 nodes, 8 of them on vm-0 */
	s = sl_pbs_node_jobs("vm-0", jobs, njobs, "srv");
	assert_string_equal(s, "106.srv/0, 106.srv/1, 106.srv/2, 106.srv/3, 106.srv/4, "
			       "106.srv/5, 106.srv/6, 106.srv/7");
	free(s);
}

static void test_attrs(void **state)
{
	struct sl_pbs_node *nd = node();
	(void)state;

	golden(nd, "pbsnodes_a.out", ARGS("-a"));
	golden(nd, "pbsnodes_a_dsv.out", ARGS("-a", "-F", "dsv"));
	golden(nd, "pbsnodes_a_json.out", ARGS("-av", "-F", "json"));
	/* a host named, its vnode named (-v), a host's vnodes (-H): the same node */
	golden(nd, "pbsnodes_a.out", ARGS("VM"));
	golden(nd, "pbsnodes_a.out", ARGS("-v", "vm"));
	golden(nd, "pbsnodes_a.out", ARGS("-H", "vm"));
	golden(nd, "pbsnodes_a_dsv.out", ARGS("-F", "DSV", "vm"));
	sl_pbs_node_free(nd);
}

static void test_summaries(void **state)
{
	struct sl_pbs_node *nd = node();
	(void)state;

	golden(nd, "pbsnodes_S.out", ARGS("-aS"));
	golden(nd, "pbsnodes_Sj.out", ARGS("-aSj"));
	golden(nd, "pbsnodes_S_dsv.out", ARGS("-aS", "-F", "dsv", "-D", ","));
	golden(nd, "pbsnodes_Sj_dsv.out", ARGS("-aSj", "-F", "dsv"));
	golden(nd, "pbsnodes_S_json.out", ARGS("-aS", "-F", "json"));
	golden(nd, "pbsnodes_Sj_json.out", ARGS("-aSj", "-F", "json"));
	golden(nd, "pbsnodes_Sj.out", ARGS("-Sj", "vm"));
	golden(nd, "pbsnodes_Sj.out", ARGS("-HSj", "vm"));
	sl_pbs_node_free(nd);
}

/* Long values: cut to their columns, whole with -L (the state too, all
 * of it); a comment's control characters as ^X. */
static void test_long(void **state)
{
	struct sl_pbs_node *nd = sl_pbs_node_new("node-with-a-long-name");
	(void)state;

	sl_pbs_node_add(nd, "state", NULL, "offline,job-busy");
	sl_pbs_node_add(nd, "jobs", NULL, "1234567.vm/0, 1234567.vm/1, 77.other/2");
	sl_pbs_node_add(nd, "resources_available", "host", "host-with-a-long-name");
	sl_pbs_node_add(nd, "resources_available", "mem", "1500mb");
	sl_pbs_node_add(nd, "resources_available", "ncpus", "1024");
	sl_pbs_node_add(nd, "resources_assigned", "mem", "1048576kb");
	sl_pbs_node_add(nd, "resources_assigned", "ncpus", "1000");
	sl_pbs_node_add(nd, "queue", NULL, "a-queue-named-at-length");
	sl_pbs_node_add(nd, "comment", NULL, "disk\rfailed");
	golden(nd, "pbsnodes_S_long.out", ARGS("-aS"));
	golden(nd, "pbsnodes_SL_long.out", ARGS("-aSL"));
	golden(nd, "pbsnodes_Sj_long.out", ARGS("-aSj"));
	golden(nd, "pbsnodes_SjL_long.out", ARGS("-aSjL"));
	sl_pbs_node_free(nd);
}

/* prt_node_summary()'s memory: the assigned size in the total's unit,
 * each side scaled to at most three digits. */
static void test_mem(void **state)
{
	static const struct {
		const char *total, *assigned, *s, *sj;
	} cases[] = {
		{"32gb", "1gb", "32gb", "31gb/32gb"},
		{"32gb", "0kb", "32gb", "32gb/32gb"},
		{"32gb", NULL, "32gb", "0gb/32gb"}, /* nothing assigned: nothing free */
		{"1500mb", "1048576kb", "1gb", "476mb/1gb"},
		{"999kb", "1kb", "999kb", "998kb/999kb"},
		{"1000kb", "1mb", "1mb", "-24kb/1mb"}, /* over-assigned: negative */
		{"2048mb", "1500kb", "2gb", "2gb/2gb"}, /* 1500kb is 1mb: 2047mb */
		{"4tb", "3gb", "4tb", "4tb/4tb"},
		{"512b", "0b", "512 b", "512 b/512 b"},
		{"1024", "1", "1kb", "1kb/1kb"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_pbs_node *nd = sl_pbs_node_new("n");
		char want[128];
		struct run r;
		sl_pbs_node_add(nd, "resources_available", "mem", cases[i].total);
		if (cases[i].assigned)
			sl_pbs_node_add(nd, "resources_assigned", "mem", cases[i].assigned);
		r = list(nd, ARGS("-aS", "-F", "dsv"));
		snprintf(want, sizeof(want), "vnode=n|state=--|OS=--|hardware=--|host=--|queue=--|"
			 "mem=%s|ncpus=0|nmics=0|ngpus=0|comment=--\n", cases[i].s);
		assert_string_equal(r.out, want);
		free(r.out);
		free(r.errs);
		r = list(nd, ARGS("-aSj", "-F", "dsv"));
		snprintf(want, sizeof(want), "vnode=n|state=--|njobs=0|run=0|susp=0|mem(f/t)=%s|"
			 "ncpus(f/t)=0/0|nmics(f/t)=0/0|ngpus(f/t)=0/0|jobs=--\n", cases[i].sj);
		assert_string_equal(r.out, want);
		free(r.out);
		free(r.errs);
		sl_pbs_node_free(nd);
	}
}

/* Names the server does not know: "Node: H,  Error: Unknown node ", exit
 * 1, the known ones listed all the same; in json an object of the name's
 * own, exit 0. */
static void test_unknown(void **state)
{
	struct sl_pbs_node *nd = node();
	struct run r;
	(void)state;

	r = list(nd, ARGS("-S", "nosuch", "vm", "other"));
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.errs, "Node: nosuch,  Error: Unknown node \n"
				    "Node: other,  Error: Unknown node \n");
	assert_non_null(strstr(r.out, "\nvm              free            --"));
	free(r.out);
	free(r.errs);
	r = list(nd, ARGS("-v", "VM")); /* a vnode's name is exact */
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "");
	assert_string_equal(r.errs, "Node: VM,  Error: Unknown node \n");
	free(r.out);
	free(r.errs);
	r = list(nd, ARGS("-H", "nosuch"));
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "");
	assert_string_equal(r.errs, "Node: nosuch,  Error: Unknown node \n");
	free(r.out);
	free(r.errs);
	sl_pbs_node_free(nd);
	nd = node();
	golden(nd, "pbsnodes_unknown_json.out", ARGS("-Sj", "-F", "json", "nosuch"));
	sl_pbs_node_free(nd);
}

/* No node at all (the Kubernetes executor's): what stats every node says
 * so and exits 0; hosts named are not found, silently (pbs_errno 0). */
static void test_none(void **state)
{
	const char *const *const every[] = {
		ARGS("-a"), ARGS("-l"), ARGS("-H", "vm"), ARGS("-v", "vm"), ARGS("-aSj", "-F", "json"),
	};
	struct run r;
	(void)state;

	for (size_t i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
		r = list(NULL, every[i]);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out, "");
		assert_string_equal(r.errs, "pbsnodes: No nodes found\n");
		free(r.out);
		free(r.errs);
	}
	r = list(NULL, ARGS("-S", "vm"));
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.errs, "");
	free(r.out);
	free(r.errs);
}

/* -l: the nodes down or offline, their whole state and comment. */
static void test_marked(void **state)
{
	struct sl_clusterinfo *ci = tl_pbs_cluster();
	struct sl_pbs_node *nd;
	struct run r;
	(void)state;

	nd = sl_pbs_node_of(ci, NULL);
	r = list(nd, ARGS("-l"));
	assert_string_equal(r.out, "");
	free(r.out);
	free(r.errs);
	sl_pbs_node_free(nd);
	/* an operator's DRAIN is offline, DOWN down (scontrol update NodeName) */
	for (int down = 0; down <= 1; down++) {
		ci->node->drain = 1;
		ci->node->down = down;
		ci->node->reason = "bad\tdisk\x01";
		nd = sl_pbs_node_of(ci, NULL);
		r = list(nd, ARGS("-l"));
		assert_string_equal(r.out, down ? "vm                   down bad\tdisk^A\n"
						: "vm                   offline bad\tdisk^A\n");
		free(r.out);
		free(r.errs);
		r = list(nd, ARGS("-a"));
		assert_non_null(strstr(r.out, "\n     comment = bad\tdisk^A\n"));
		free(r.out);
		free(r.errs);
		sl_pbs_node_free(nd);
	}
	ci->node->drain = ci->node->down = 0;
	ci->node->reason = NULL;
	/* the Kubernetes executor's nodes are not known */
	ci->node = NULL;
	assert_null(sl_pbs_node_of(ci, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_attr),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_marked),
	};
	return cmocka_run_group_tests(tests, pbs_setup, pbs_teardown);
}
