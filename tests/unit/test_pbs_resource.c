/* test_pbs_resource.c - qsub's -l parser (compat/pbs_resource.c): what one
 * -l (and a second, later one) makes of the spec, the values it refuses
 * with PBS's texts and statuses (pbs_messages.c, cited beside each case),
 * and its sizes and times (to_size(), decode_time()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "job.h"
#include "pbs_job.h"
#include "pbs_resource.h"

static int res_apply(const char *l1, const char *l2, struct sl_jobspec *s, int *status,
		     struct sl_err *err)
{
	struct sl_pbs_res r;
	int rc;

	sl_pbs_res_init(&r);
	sl_jobspec_init(s);
	if ((rc = sl_pbs_res_parse(&r, l1, status, err)) == 0 &&
	    (l2 == NULL || (rc = sl_pbs_res_parse(&r, l2, status, err)) == 0))
		rc = sl_pbs_res_apply(&r, s, status, err);
	sl_pbs_res_clear(&r);
	return rc;
}

/* What one -l (and a second, later one) makes of the spec. */
static const struct shape_case {
	const char *l1, *l2;
	int nodes, tpn, cpt;
	int64_t mem;
	int gpus;
	int64_t minutes;
	int shared;
} shapes[] = {
	/* a chunk is a node; ncpus shared out among mpiprocs (default 1) */
	{"select=2:ncpus=4:mem=2gb", NULL, 2, 1, 4, 2048, SL_NO_VAL, SL_TIME_UNSET, 0},
	{"select=2:ncpus=4:mpiprocs=4", NULL, 2, 4, 1, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET, 0},
	{"select=1:ncpus=8:mpiprocs=2:ngpus=2", NULL, 1, 2, 4, SL_NO_VAL, 2, SL_TIME_UNSET, 0},
	/* alike chunks joined by + are summed */
	{"select=2:ncpus=2:mem=1gb+1:ncpus=2:mem=1gb", NULL, 3, 1, 2, 1024, SL_NO_VAL,
	 SL_TIME_UNSET, 0},
	/* ncpus defaults to 1 (default_chunk); a bare count */
	{"select=3", NULL, 3, 1, 1, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET, 0},
	/* pack: every chunk on one host */
	{"select=2:ncpus=2:mem=1gb", "place=pack", 1, 2, 2, 2048, SL_NO_VAL, SL_TIME_UNSET, 0},
	{"select=2:ncpus=2", "place=scatter", 2, 1, 2, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET, 0},
	/* excl and exclhost: the hosts are the job's alone (--exclusive) */
	{"select=2:ncpus=2", "place=scatter:excl", 2, 1, 2, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET,
	 SL_SHARED_EXCLUSIVE},
	{"select=1:ncpus=2", "place=exclhost", 1, 1, 2, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET,
	 SL_SHARED_EXCLUSIVE},
	/* walltime rounds up to minutes, Sluice's unit */
	{"select=1:ncpus=1,walltime=01:30:00", NULL, 1, 1, 1, SL_NO_VAL, SL_NO_VAL, 90, 0},
	{"walltime=61", NULL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, 2, 0},
	/* job-wide resources without select are one chunk (PBS converts them) */
	{"ncpus=4,mem=500mb", NULL, 1, 1, 4, 500, SL_NO_VAL, SL_TIME_UNSET, 0},
	/* a later value replaces an earlier one of the same resource only */
	{"select=1:ncpus=2,walltime=10:00", "select=2:ncpus=1", 2, 1, 1, SL_NO_VAL, SL_NO_VAL, 10,
	 0},
	/* Torque: nodes=N:ppn=M is select=N:ncpus=M:mpiprocs=M */
	{"nodes=2:ppn=4", NULL, 2, 4, 1, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET, 0},
	{"nodes=1:ppn=2:gpus=1", NULL, 1, 2, 1, SL_NO_VAL, 1, SL_TIME_UNSET, 0},
	{"nodes=2", NULL, 2, 1, 1, SL_NO_VAL, SL_NO_VAL, SL_TIME_UNSET, 0},
	/* Torque's mem is the job's: spread over the nodes, rounded up */
	{"nodes=2:ppn=1,mem=3gb", NULL, 2, 1, 1, 1536, SL_NO_VAL, SL_TIME_UNSET, 0},
	/* pmem, a process's real memory (FireWorks' PBS template): without
	 * mem, each node holds it for each of its processes; mem wins */
	{"nodes=1:ppn=4", "pmem=1gb", 1, 4, 1, 4096, SL_NO_VAL, SL_TIME_UNSET, 0},
	{"select=2:ncpus=4:mpiprocs=2,pmem=100mb", NULL, 2, 2, 2, 200, SL_NO_VAL,
	 SL_TIME_UNSET, 0},
	{"select=1:ncpus=2:mem=1gb,pmem=100mb", NULL, 1, 1, 2, 1024, SL_NO_VAL, SL_TIME_UNSET,
	 0},
	{"pmem=300mb", NULL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, 300, SL_NO_VAL, SL_TIME_UNSET, 0},
};

static void test_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape_case *c = &shapes[i];
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		int st = 0;

		if (res_apply(c->l1, c->l2, &s, &st, &err) != 0)
			fail_msg("-l %s: %s", c->l1, err.msg);
		if (s.nodes != c->nodes || s.ntasks_per_node != c->tpn || s.cpus_per_task != c->cpt ||
		    s.mem_per_node != c->mem || s.gpus_per_node != c->gpus ||
		    s.time_limit != c->minutes || s.shared != c->shared)
			fail_msg("-l %s %s: nodes %d tpn %d cpt %d mem %lld gpus %d min %lld shared %d",
				 c->l1, c->l2 ? c->l2 : "", s.nodes, s.ntasks_per_node,
				 s.cpus_per_task, (long long)s.mem_per_node, s.gpus_per_node,
				 (long long)s.time_limit, s.shared);
		sl_jobspec_clear(&s);
	}
}

/* -l values refused: PBS's texts (pbs_messages.c) and statuses (error
 * number & 0xff), or Sluice's refusals (1). */
static const struct res_reject {
	const char *l1, *l2;
	int status;
	const char *msg;
} res_rejects[] = {
	{"foo=1", NULL, 187, "Unknown resource: foo"},
	{"walltime=bogus", NULL, 166, "Illegal attribute or resource value"},
	{"walltime=1:2:3:4", NULL, 166, "Illegal attribute or resource value"},
	{"mem=12q", NULL, 166, "Illegal attribute or resource value"},
	{"select=1:ncpus=x", NULL, 166, "Illegal attribute or resource value"},
	{"select=1:walltime=10", NULL, 4, "Resource invalid in \"select\" specification: walltime"},
	/* job-wide alone (no ATR_DFLAG_CVTSLT): not in a chunk */
	{"select=1:pmem=1gb", NULL, 4, "Resource invalid in \"select\" specification: pmem"},
	{"select=1:pvmem=1gb", NULL, 4, "Resource invalid in \"select\" specification: pvmem"},
	{"select=1:foo=2", NULL, 187, "Unknown resource: foo"},
	{"select=2:ncpus=2", "ncpus=4", 5,
	 "\"-lresource=\" cannot be used with \"select\" or \"place\", resource is: ncpus"},
	{"select=2:ncpus=2", "mem=1gb", 5,
	 "\"-lresource=\" cannot be used with \"select\" or \"place\", resource is: mem"},
	/* set_resources(): a name without a value */
	{"walltime", NULL, 2, "illegal -l value"},
	{"select=1:ncpus=4+2:ncpus=2", NULL, 1,
	 "-l select=1:ncpus=4+2:ncpus=2 (chunks that differ: every chunk must ask for the same "
	 "resources) is not supported by Sluice"},
	{"select=1:ncpus=6:mpiprocs=4", NULL, 1,
	 "-l select with ncpus=6 over mpiprocs=4 (each MPI process gets the same whole CPUs) is "
	 "not supported by Sluice"},
	{"vmem=1gb", NULL, 1, "-l vmem (Sluice limits real memory: use mem, or pvmem for each process's virtual "
	 "memory) is not supported by Sluice"},
	{"pmem=0", NULL, 166, "Illegal attribute or resource value"},
	{"storage=gdata/ab12+scratch/ab12", NULL, 1,
	 "-l storage (Sluice mounts no file systems per job) is not supported by Sluice"},
	{"jobfs=10GB", NULL, 1,
	 "-l jobfs (Sluice reserves no local disk per job) is not supported by Sluice"},
	{"select=1:ncpus=1:host=n1", NULL, 1, "-l host is not supported by Sluice"},
	{"place=group=switch", NULL, 1, "-l place=group is not supported by Sluice"},
	{"cput=10:00", NULL, 1, "-l cput is not supported by Sluice"},
	{"nodes=n1:ppn=2", NULL, 1, "-l nodes naming hosts is not supported by Sluice"},
	{"nodes=2:ppn=2:ib", NULL, 1, "-l nodes with the property \"ib\" is not supported by Sluice"},
	{"nodes=2:ppn=4+1:ppn=2", NULL, 1,
	 "-l nodes=2:ppn=4+1:ppn=2 (chunks that differ: every chunk must ask for the same "
	 "resources) is not supported by Sluice"},
};

/* Each of the n cases refused with its text and status. */
static void refused(const struct res_reject *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct res_reject *c = &v[i];
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		int st = 0;

		if (res_apply(c->l1, c->l2, &s, &st, &err) == 0)
			fail_msg("-l %s accepted", c->l1);
		if (strcmp(err.msg, c->msg) != 0 || st != c->status)
			fail_msg("-l %s: %d \"%s\"", c->l1, st, err.msg);
		sl_jobspec_clear(&s);
	}
}

static void test_resource_errors(void **state)
{
	(void)state;
	refused(res_rejects, sizeof(res_rejects) / sizeof(res_rejects[0]));
}

/* ompthreads (an OpenPBS built-in, master_resc_def_all.xml): the job's
 * OMP_NUM_THREADS and NCPUS (MOM's vn_threads), never its CPUs, which stay
 * the chunk's ncpus. CIME on NCAR's machines asks it in each chunk. */
static void test_ompthreads(void **state)
{
	static const struct {
		const char *l1, *l2;
		int nodes, tpn, cpt, threads;
		int job; /* omp_threads_job: job-wide, so in Resource_List too */
	} ok[] = {
		{"select=2:ncpus=36:mpiprocs=36:ompthreads=1:mem=100GB", NULL, 2, 36, 1, 1, 0},
		{"select=1:ncpus=8:mpiprocs=2:ompthreads=4", NULL, 1, 2, 4, 4, 0},
		{"select=2:ncpus=4:ompthreads=2+1:ncpus=4:ompthreads=2", NULL, 3, 1, 4, 2, 0},
		{"select=1:ncpus=4", NULL, 1, 1, 4, SL_NO_VAL, 0},
		/* job-wide without a select: the chunk's (ATR_DFLAG_CVTSLT) */
		{"ompthreads=3", NULL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, 3, 1},
		{"ncpus=6", "ompthreads=0", 1, 1, 6, 0, 1}, /* zero_or_positive */
		/* a later select replaces the earlier one, its ompthreads too */
		{"select=1:ncpus=2:ompthreads=2", "select=1:ncpus=2", 1, 1, 2, SL_NO_VAL, 0},
	};
	static const struct res_reject bad[] = {
		{"select=1:ncpus=2:ompthreads=x", NULL, 166, "Illegal attribute or resource value"},
		{"ompthreads=-1", NULL, 166, "Illegal attribute or resource value"},
		{"select=1:ncpus=2", "ompthreads=2", 5,
		 "\"-lresource=\" cannot be used with \"select\" or \"place\", resource is: "
		 "ompthreads"},
		{"select=1:ncpus=2:ompthreads=1+1:ncpus=2:ompthreads=2", NULL, 1,
		 "-l select=1:ncpus=2:ompthreads=1+1:ncpus=2:ompthreads=2 (chunks that differ: "
		 "every chunk must ask for the same resources) is not supported by Sluice"},
		{"nodes=1:ppn=2:ompthreads=2", NULL, 1,
		 "-l nodes with \"ompthreads=2\" is not supported by Sluice"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		int st = 0;
		if (res_apply(ok[i].l1, ok[i].l2, &s, &st, &err) != 0)
			fail_msg("-l %s: %s", ok[i].l1, err.msg);
		if (s.nodes != ok[i].nodes || s.ntasks_per_node != ok[i].tpn ||
		    s.cpus_per_task != ok[i].cpt || s.omp_threads != ok[i].threads ||
		    s.omp_threads_job != ok[i].job)
			fail_msg("-l %s: nodes %d tpn %d cpt %d threads %d (job-wide %d)", ok[i].l1,
				 s.nodes, s.ntasks_per_node, s.cpus_per_task, s.omp_threads,
				 s.omp_threads_job);
		sl_jobspec_clear(&s);
	}
	refused(bad, sizeof(bad) / sizeof(bad[0]));
}

/* Torque's procs=N (signac-flow's default template): N tasks of one CPU,
 * the nodes the scheduler's (sbatch -n N); its mem is the job's, each
 * task's share unless pmem is larger (complete_req.cpp). */
static void test_procs(void **state)
{
	static const struct {
		const char *l1, *l2;
		int ntasks;
		int64_t mem_per_cpu, minutes;
	} ok[] = {
		{"procs=4", NULL, 4, SL_NO_VAL, SL_TIME_UNSET},
		{"procs=4,walltime=1:00:00", NULL, 4, SL_NO_VAL, 60},
		{"procs=4,mem=1gb", NULL, 4, 256, SL_TIME_UNSET},
		{"procs=3,mem=1000mb", NULL, 3, 334, SL_TIME_UNSET},
		{"procs=4,mem=1gb", "pmem=512mb", 4, 512, SL_TIME_UNSET},
		{"procs=4,pmem=100mb", NULL, 4, 100, SL_TIME_UNSET},
		{"procs=2,place=excl", NULL, 2, SL_NO_VAL, SL_TIME_UNSET},
	};
	static const struct res_reject bad[] = {
		{"procs=0", NULL, 166, "Illegal attribute or resource value"},
		{"procs=x", NULL, 166, "Illegal attribute or resource value"},
		{"nodes=2:ppn=2,procs=4", NULL, 1, "-l procs with nodes is not supported by Sluice"},
		{"select=1:ncpus=2", "procs=2", 1, "-l procs with select is not supported by Sluice"},
		{"ncpus=2,procs=2", NULL, 1, "-l procs with ncpus is not supported by Sluice"},
		{"procs=2,place=scatter", NULL, 1,
		 "-l procs with place=scatter or pack is not supported by Sluice"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		int st = 0;
		if (res_apply(ok[i].l1, ok[i].l2, &s, &st, &err) != 0)
			fail_msg("-l %s: %s", ok[i].l1, err.msg);
		if (s.nodes != SL_NO_VAL || s.ntasks != ok[i].ntasks ||
		    s.ntasks_per_node != SL_NO_VAL || s.cpus_per_task != 1 ||
		    s.mem_per_node != SL_NO_VAL || s.mem_per_cpu != ok[i].mem_per_cpu ||
		    s.time_limit != ok[i].minutes)
			fail_msg("-l %s: nodes %d ntasks %d tpn %d cpt %d mem %lld/%lld min %lld",
				 ok[i].l1, s.nodes, s.ntasks, s.ntasks_per_node, s.cpus_per_task,
				 (long long)s.mem_per_node, (long long)s.mem_per_cpu,
				 (long long)s.time_limit);
		sl_jobspec_clear(&s);
	}
	refused(bad, sizeof(bad) / sizeof(bad[0]));
}

/* to_size(): no suffix is bytes; k m g t p; b or w after (-1: refused);
 * from_size() writes it back with its unit in lower case, then b or w. */
static const struct {
	const char *text;
	int64_t mib;
	const char *encoded;
} sizes[] = {
	{"2gb", 2048, "2gb"}, {"2G", 2048, "2gb"}, {"1500mb", 1500, "1500mb"},
	{"1048576", 1, "1048576b"}, {"1048577b", 2, "1048577b"}, {"1kw", 1, "1kw"},
	{"1tb", 1048576, "1tb"}, {"0040MB", 40, "40mb"}, {"3MW", 24, "3mw"},
	{"gb", -1, NULL}, {"1gbb", -1, NULL}, {"1bw", -1, NULL},
};

/* decode_time(): [[HH:]MM:]SS[.mmm], .500 rounds up (-1: refused). */
static const struct {
	const char *text;
	int64_t secs;
} times[] = {
	{"01:02:03", 3723}, {"90:00", 5400}, {"7200", 7200}, {"10.5", 11}, {"10.4", 10},
	{":10", -1}, {"1:x", -1},
};

static void test_sizes_times(void **state)
{
	int64_t v = 0;
	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int r = sl_pbs_parse_size(sizes[i].text, &v);
		if (sizes[i].mib < 0 ? r == 0 : (r != 0 || v != sizes[i].mib))
			fail_msg("size %s: %d %lld", sizes[i].text, r, (long long)v);
		char enc[32] = "";
		r = sl_pbs_size_encode(sizes[i].text, enc, sizeof(enc));
		if (sizes[i].encoded ? r != 0 || strcmp(enc, sizes[i].encoded) != 0 : r == 0)
			fail_msg("size %s written back: %d %s", sizes[i].text, r, enc);
	}
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		int r = sl_pbs_parse_time(times[i].text, &v);
		if (times[i].secs < 0 ? r == 0 : (r != 0 || v != times[i].secs))
			fail_msg("time %s: %d %lld", times[i].text, r, (long long)v);
	}
}

/* walltime to the second, as MOM enforces it: Slurm's minutes (rounded up,
 * what squeue and sacct show) beside the seconds when they are no whole
 * minute; a whole minute is the minutes alone. */
static void test_walltime_secs(void **state)
{
	static const struct {
		const char *l;
		int64_t minutes, secs, limit;
	} cases[] = {
		{"walltime=45", 1, 45, 45},           {"walltime=00:00:05", 1, 5, 5},
		{"walltime=1:30", 2, 90, 90},         {"walltime=61", 2, 61, 61},
		{"walltime=01:30:00", 90, 0, 5400},   {"walltime=60", 1, 0, 60},
		{"walltime=00:00:59.5", 1, 0, 60}, /* decode_time: .5 rounds up */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_jobspec s;
		struct sl_err err = SL_ERR_INIT;
		int st = 0;
		if (res_apply(cases[i].l, NULL, &s, &st, &err) != 0)
			fail_msg("-l %s: %s", cases[i].l, err.msg);
		if (s.time_limit != cases[i].minutes || s.time_limit_secs != cases[i].secs ||
		    sl_jobspec_limit_secs(&s) != cases[i].limit)
			fail_msg("-l %s: %lld min, %lld s, limit %lld s", cases[i].l,
				 (long long)s.time_limit, (long long)s.time_limit_secs,
				 (long long)sl_jobspec_limit_secs(&s));
		sl_jobspec_clear(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_resource_errors),
		cmocka_unit_test(test_sizes_times),
		cmocka_unit_test(test_ompthreads),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_walltime_secs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
