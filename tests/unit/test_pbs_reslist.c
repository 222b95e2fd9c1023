/* test_pbs_reslist.c - a qsub job's Resource_List (compat/pbs_reslist.c):
 * what qsub keeps of its -l (select, nodes, place, pmem, pvmem as PBS's
 * server holds them) and the entries qstat -f lists from it and from the
 * job's shape, the derived ones again once the shape is no longer the
 * kept select's.
 * The expected texts are what OpenPBS's server makes (pbs_reslist.h cites
 * its lines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "err.h"
#include "job.h"
#include "pbs_reslist.h"
#include "pbs_resource.h"
#include "xalloc.h"

/* A queued qsub job of -l list, as qsub makes it. Caller frees. */
static struct sl_job *qsub_job(const char *list)
{
	struct sl_job *j = sl_xcalloc(1, sizeof(*j));
	struct sl_pbs_res r;
	struct sl_err err = SL_ERR_INIT;
	int st = 0;

	sl_jobspec_init(&j->spec);
	sl_pbs_res_init(&r);
	if (sl_pbs_res_parse(&r, list, &st, &err) != 0 ||
	    sl_pbs_res_apply(&r, &j->spec, &st, &err) != 0)
		fail_msg("-l %s: %s", list, err.msg);
	j->spec.pbs = 1;
	j->spec.pbs_resources = sl_pbs_reslist_make(&r);
	sl_pbs_res_clear(&r);
	j->state = SL_JOB_PENDING;
	return j;
}

static void job_free(struct sl_job *j)
{
	sl_jobspec_clear(&j->spec);
	free(j);
}

/* The entries as qstat -f prints them, "name = value" lines. Caller frees. */
static char *listed(const struct sl_job *j)
{
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_resc *v;
	size_t n = sl_pbs_reslist(j, &v);
	char *t;

	for (size_t i = 0; i < n; i++)
		sl_buf_addf(b, "%s = %s\n", v[i].name, v[i].value);
	sl_pbs_reslist_free(v, n);
	t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

static void expect_list(const char *l, const char *kept, const char *want)
{
	struct sl_job *j = qsub_job(l);
	char *got = listed(j);

	if (kept == NULL)
		assert_null(j->spec.pbs_resources);
	else
		assert_string_equal(j->spec.pbs_resources, kept);
	assert_string_equal(got, want);
	free(got);
	job_free(j);
}

/* Torque's nodes=: kept beside the select PBS converts it into
 * (cvt_nodespec_to_select()), placed scatter; mem is the job's, spread in
 * KB over the nodes, and the sum written back in kb. */
static void test_nodes(void **state)
{
	(void)state;
	expect_list("nodes=2:ppn=4", "nodes=2:ppn=4,place=scatter,select=2:ncpus=4:mpiprocs=4",
		    "mpiprocs = 8\nncpus = 8\nnodect = 2\nnodes = 2:ppn=4\nplace = scatter\n"
		    "select = 2:ncpus=4:mpiprocs=4\n");
	expect_list("nodes=2:ppn=4,mem=4gb,walltime=1:00:00",
		    "nodes=2:ppn=4,place=scatter,select=2:ncpus=4:mem=2097152KB:mpiprocs=4",
		    "mem = 4194304kb\nmpiprocs = 8\nncpus = 8\nnodect = 2\nnodes = 2:ppn=4\n"
		    "place = scatter\nselect = 2:ncpus=4:mem=2097152KB:mpiprocs=4\n"
		    "walltime = 01:00:00\n");
	/* one process a node: no mpiprocs (nr_ppn != 1 alone adds it) */
	expect_list("nodes=3", "nodes=3,place=scatter,select=3:ncpus=1",
		    "ncpus = 3\nnodect = 3\nnodes = 3\nplace = scatter\nselect = 3:ncpus=1\n");
	/* a place given stays */
	expect_list("nodes=1:ppn=2,place=excl",
		    "nodes=1:ppn=2,place=excl,select=1:ncpus=2:mpiprocs=2",
		    "mpiprocs = 2\nncpus = 2\nnodect = 1\nnodes = 1:ppn=2\nplace = excl\n"
		    "select = 1:ncpus=2:mpiprocs=2\n");
}

/* A select is kept as written (decode_select() stores the string), place
 * free unless given; the sums come from its chunks, mem in their unit. */
static void test_select_as_given(void **state)
{
	(void)state;
	expect_list("select=1:ncpus=2:mem=4096mb", "place=free,select=1:ncpus=2:mem=4096mb",
		    "mem = 4096mb\nncpus = 2\nnodect = 1\nplace = free\n"
		    "select = 1:ncpus=2:mem=4096mb\n");
	expect_list("select=2:mem=3000MB:mpiprocs=2:ncpus=4",
		    "place=free,select=2:mem=3000MB:mpiprocs=2:ncpus=4",
		    "mem = 6000mb\nmpiprocs = 4\nncpus = 8\nnodect = 2\nplace = free\n"
		    "select = 2:mem=3000MB:mpiprocs=2:ncpus=4\n");
	/* no count: one chunk; mpiprocs=1 is summed where the chunk has it */
	expect_list("select=ncpus=2:mpiprocs=1", "place=free,select=ncpus=2:mpiprocs=1",
		    "mpiprocs = 1\nncpus = 2\nnodect = 1\nplace = free\n"
		    "select = ncpus=2:mpiprocs=1\n");
	/* pack: the chunks on one host, still two chunks */
	expect_list("select=2:ncpus=2:mem=1gb,place=pack", "place=pack,select=2:ncpus=2:mem=1gb",
		    "mem = 2gb\nncpus = 4\nnodect = 2\nplace = pack\nselect = 2:ncpus=2:mem=1gb\n");
	/* mixed units: summed in the smaller one (normalize_size()) */
	expect_list("select=1:ncpus=1:mem=1gb+1:ncpus=1:mem=1024mb",
		    "place=free,select=1:ncpus=1:mem=1gb+1:ncpus=1:mem=1024mb",
		    "mem = 2048mb\nncpus = 2\nnodect = 2\nplace = free\n"
		    "select = 1:ncpus=1:mem=1gb+1:ncpus=1:mem=1024mb\n");
}

/* Job-wide resources: the server's select of them ("1" and each one, by
 * name, as encoded), placed pack. */
static void test_jobwide(void **state)
{
	(void)state;
	expect_list("ncpus=2,mem=4096MB", "place=pack,select=1:mem=4096mb:ncpus=2",
		    "mem = 4096mb\nncpus = 2\nnodect = 1\nplace = pack\n"
		    "select = 1:mem=4096mb:ncpus=2\n");
	expect_list("ompthreads=2", "place=pack,select=1:ompthreads=2",
		    "ncpus = 1\nnodect = 1\nompthreads = 2\nplace = pack\n"
		    "select = 1:ompthreads=2\n");
	/* nothing that goes into a chunk: the shape's select */
	expect_list("walltime=10:00", "place=pack",
		    "ncpus = 1\nnodect = 1\nplace = pack\nselect = 1:ncpus=1\n"
		    "walltime = 00:10:00\n");
	/* Torque's procs: no PBS select or place says it; the shape's */
	expect_list("procs=3", NULL,
		    "mpiprocs = 3\nncpus = 3\nnodect = 1\nplace = free\nprocs = 3\n"
		    "select = 1:ncpus=3:mpiprocs=3\n");
}

/* pmem and pvmem are kept as the server writes sizes back; pmem is no
 * chunk resource, so no mem sum comes of it beside a select. */
static void test_pmem_pvmem(void **state)
{
	(void)state;
	expect_list("pvmem=1GB", "place=pack,pvmem=1gb",
		    "ncpus = 1\nnodect = 1\nplace = pack\npvmem = 1gb\nselect = 1:ncpus=1\n");
	expect_list("select=1:ncpus=2,pmem=512MB", "place=free,pmem=512mb,select=1:ncpus=2",
		    "ncpus = 2\nnodect = 1\nplace = free\npmem = 512mb\nselect = 1:ncpus=2\n");
	expect_list("nodes=2:ppn=2,pmem=100mb,pvmem=2gb",
		    "nodes=2:ppn=2,place=scatter,pmem=100mb,pvmem=2gb,"
		    "select=2:ncpus=2:mpiprocs=2",
		    "mpiprocs = 4\nncpus = 4\nnodect = 2\nnodes = 2:ppn=2\nplace = scatter\n"
		    "pmem = 100mb\npvmem = 2gb\nselect = 2:ncpus=2:mpiprocs=2\n");
}

/* A shape changed after qsub (scontrol update, qalter -l select, excl's
 * whole node): the derived select and sums, the kept nodes and place. */
static void test_shape_changed(void **state)
{
	struct sl_job *j = qsub_job("nodes=2:ppn=4,mem=4gb");
	char *got;
	(void)state;

	j->spec.nodes = 3;
	got = listed(j);
	assert_string_equal(got, "mem = 6gb\nmpiprocs = 12\nncpus = 12\nnodect = 3\n"
				 "nodes = 2:ppn=4\nplace = scatter\n"
				 "select = 3:ncpus=4:mem=2gb:mpiprocs=4\n");
	free(got);
	job_free(j);
	j = qsub_job("select=1:ncpus=2,place=excl");
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	j->spec.node_cpus = 16;
	got = listed(j);
	assert_string_equal(got, "ncpus = 16\nnodect = 1\nplace = excl\nselect = 1:ncpus=16\n");
	free(got);
	job_free(j);
	/* Torque's -n beside a select: excl added to the place */
	j = qsub_job("select=1:ncpus=2");
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	got = listed(j);
	assert_string_equal(got, "ncpus = 2\nnodect = 1\nplace = free:excl\nselect = 1:ncpus=2\n");
	free(got);
	job_free(j);
}

/* sbatch's jobs and older records keep nothing: all derived. */
static void test_nothing_kept(void **state)
{
	struct sl_job *j = qsub_job("select=2:ncpus=4:mem=2gb");
	char *got;
	(void)state;

	free(j->spec.pbs_resources);
	j->spec.pbs_resources = NULL;
	got = listed(j);
	assert_string_equal(got, "mem = 4gb\nncpus = 8\nnodect = 2\nplace = scatter\n"
				 "select = 2:ncpus=4:mem=2gb\n");
	free(got);
	job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_select_as_given),
		cmocka_unit_test(test_jobwide),
		cmocka_unit_test(test_pmem_pvmem),
		cmocka_unit_test(test_shape_changed),
		cmocka_unit_test(test_nothing_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
