/* test_sinfo_fmt.c - sinfo's layouts against what real Slurm 22.05 printed
 * (tests/data/output/sinfo_*.out, captured on the reference cluster of
 * ../shared/slurm with n1 mixed, n2 allocated, n3 draining, n4 drained,
 * partition gpu down and an inactive partition zz without nodes), fed the
 * same cluster as a view; then the view Sluice builds from its daemon's
 * answer (states from quota usage, stop policies, Kubernetes without
 * nodes), --quota, and the errors and warnings of bad options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "sinfo_fmt.h"
#include "xalloc.h"

#define SHOT 1795646890      /* when the -l captures were taken (UTC) */
#define SHOT_R 1795646891    /* ... the -R -l and -t drng -l ones */
#define DRAINED 1795646885   /* 2026-11-25T22:48:05, when n3 and n4 were drained */
#define MIB1000 (1000LL * 1024 * 1024) /* one MiB in quota milli-units */

/* ---- the reference cluster ---- */

#define NODE(nm, st, alloc, memused, why, when) \
	{.name = nm, .state = (st), .cpus = 64, .cpus_alloc = (alloc), .mem = 256000, \
	 .mem_alloc = (memused), .gres = "gpu:8", .gres_used = "gpu:0", .reason = why, \
	 .reason_user = (why) ? "root" : NULL, .reason_uid = (why) ? 0 : SL_SINFO_NO_VAL, \
	 .reason_time = (when)}

static const struct sl_sinfo_node ref_nodes[] = {
	NODE("n1", SL_NODE_MIXED, 1, 4000, NULL, 0),
	NODE("n2", SL_NODE_ALLOCATED, 64, 256000, NULL, 0),
	NODE("n3", SL_NODE_ALLOCATED | SL_NODE_DRAIN, 64, 256000, "maint3", DRAINED),
	NODE("n4", SL_NODE_IDLE | SL_NODE_DRAIN, 0, 0, "maintenance", DRAINED),
};

#define CPU {"cpu", 1, SL_PART_UP, SL_SINFO_INFINITE, SL_SINFO_UNSET, 0, NULL, 4, ref_nodes, 0, -1, -1, 0, 0}
#define GPU {"gpu", 0, SL_PART_DOWN, 7 * 24 * 60, 60, 0, NULL, 4, ref_nodes, 0, -1, -1, 0, 0}
#define DEBUG {"debug", 0, SL_PART_UP, 30, SL_SINFO_UNSET, 1, NULL, 1, ref_nodes, 0, -1, -1, 0, 0}
#define ZZ {"zz", 0, SL_PART_INACTIVE, SL_SINFO_INFINITE, SL_SINFO_UNSET, 0, NULL, 0, NULL, 0, -1, -1, 0, 0}

static const struct sl_sinfo_part ref_parts[] = {CPU, GPU, DEBUG, ZZ};
static const struct sl_sinfo_view ref = {4, ref_parts, 0, NULL};
/* slurmctld's threads add the partitions of a node in no fixed order; for
 * -N this capture had them as gpu, debug, cpu. */
static const struct sl_sinfo_part ref_parts_n[] = {GPU, DEBUG, CPU, ZZ};
static const struct sl_sinfo_view ref_n = {4, ref_parts_n, 0, NULL};

static char *render(const struct sl_sinfo_view *v, const struct sl_sinfo_opts *o, int64_t now,
		    char **warnings)
{
	struct sl_sinfo_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1u << 20), *w = sl_buf_new(1u << 16);
	char *s;

	if (sl_sinfo_fmt_new(o, &f, w, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(sl_sinfo_print(f, v, now, b), 0);
	sl_sinfo_fmt_free(f);
	s = sl_xstrdup(sl_buf_str(b));
	if (warnings)
		*warnings = sl_xstrdup(sl_buf_str(w));
	else
		assert_string_equal(sl_buf_str(w), "");
	sl_buf_free(b);
	sl_buf_free(w);
	return s;
}

static void golden(const char *name, const struct sl_sinfo_view *v, const struct sl_sinfo_opts *o,
		   int64_t now)
{
	char file[128], *want, *got = render(v, o, now, NULL);
	snprintf(file, sizeof(file), "sinfo_%s.out", name);
	want = tl_output(file);
	if (strcmp(want, got) != 0)
		fail_msg("%s:\n--- want\n%s--- got\n%s", file, want, got);
	free(want);
	free(got);
}

static char *const debug_zz[] = {"debug", "zz", NULL};
static char *const gpu_zz[] = {"gpu", "zz", NULL};
static char *const debug_only[] = {"debug", NULL};

static void test_defaults(void **state)
{
	golden("default", &ref, &(struct sl_sinfo_opts){0}, SHOT);
	golden("noheader", &ref, &(struct sl_sinfo_opts){.no_header = 1}, SHOT);
	golden("summarize", &ref, &(struct sl_sinfo_opts){.summarize = 1}, SHOT);
	golden("summarize_noheader", &ref, &(struct sl_sinfo_opts){.summarize = 1, .no_header = 1},
	       SHOT);
	golden("long", &ref, &(struct sl_sinfo_opts){.long_output = 1}, SHOT);
	golden("reasons", &ref, &(struct sl_sinfo_opts){.list_reasons = 1}, SHOT);
	golden("reasons_long", &ref, &(struct sl_sinfo_opts){.list_reasons = 1, .long_output = 1},
	       SHOT_R);
}

static void test_node_oriented(void **state)
{
	golden("node", &ref_n, &(struct sl_sinfo_opts){.node_flag = 1}, SHOT);
	golden("node_long", &ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .long_output = 1}, SHOT);
	golden("node_debug", &ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .parts = debug_only},
	       SHOT);
	golden("node_states", &ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .states = "drain"},
	       SHOT);
}

static void test_formats(void **state)
{
	golden("fmt_basic", &ref, &(struct sl_sinfo_opts){.format = "%P %a %l %D %t %N"}, SHOT);
	golden("fmt_widths", &ref, &(struct sl_sinfo_opts){.format = "%20N %10c %10m %25G %10T"},
	       SHOT);
	golden("fmt_many", &ref,
	       &(struct sl_sinfo_opts){.format = "%P|%C|%A|%F|%T|%t|%c|%m|%z|%E|%s|%L|%R|%g|%h|%r|"
						 "%X|%Y|%Z|%d|%w|%f|%b|%G|%p|%I|%M|%B|%S|%H|%u|"},
	       SHOT);
	golden("fmt_right", &ref,
	       &(struct sl_sinfo_opts){.format = "%.12P %.3a %.4t %5D %.20N|%.5l|"}, SHOT);
	golden("fmt_long", &ref,
	       &(struct sl_sinfo_opts){.format = "Partition:12,StateLong:.10,CPUsState,NodeList",
				       .format_is_long = 1},
	       SHOT);
	golden("fmt_long2", &ref,
	       &(struct sl_sinfo_opts){.format = "partitionname,available:.7 |,nodeaiot:.20,"
						 "statecompact:8,reason",
				       .format_is_long = 1},
	       SHOT);
	/* $SINFO_FORMAT stands in for the default only */
	golden("fmt_basic", &ref, &(struct sl_sinfo_opts){.env_format = "%P %a %l %D %t %N"}, SHOT);
	golden("summarize", &ref,
	       &(struct sl_sinfo_opts){.summarize = 1, .env_format = "%P %a %l %D %t %N"}, SHOT);
}

/* -n, -r, -d filter nodes as -t does (sinfo.c _filter_out); -i dates each
 * report, as -l does. */
static void test_node_filters(void **state)
{
	static char *const n2[] = {"n2", "n9", NULL};
	char *got = render(&ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .nodes = n2}, SHOT, NULL);
	assert_string_equal(got, "NODELIST   NODES PARTITION STATE \n"
				 "n2             1       gpu alloc \n"
				 "n2             1      cpu* alloc \n");
	free(got);
	got = render(&ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .dead = 1}, SHOT, NULL);
	assert_string_equal(got, "NODELIST   NODES PARTITION STATE \n"); /* all respond */
	free(got);
	char *all = render(&ref_n, &(struct sl_sinfo_opts){.node_flag = 1}, SHOT, NULL);
	got = render(&ref_n, &(struct sl_sinfo_opts){.node_flag = 1, .responding = 1}, SHOT, NULL);
	assert_string_equal(got, all);
	free(got);
	free(all);
	/* one that stopped answering: -r drops it, -d keeps it alone */
	static const struct sl_sinfo_node quiet[] = {
		NODE("n1", SL_NODE_IDLE, 0, 0, NULL, 0),
		NODE("n5", SL_NODE_IDLE | SL_NODE_NO_RESPOND, 0, 0, NULL, 0),
	};
	static const struct sl_sinfo_part qp[] = {
		{"cpu", 1, SL_PART_UP, SL_SINFO_INFINITE, SL_SINFO_UNSET, 0, NULL, 2, quiet, 0, -1, -1, 0, 0}};
	static const struct sl_sinfo_view qv = {1, qp, 0, NULL};
	got = render(&qv, &(struct sl_sinfo_opts){.node_flag = 1, .responding = 1}, SHOT, NULL);
	assert_non_null(strstr(got, "n1 "));
	assert_null(strstr(got, "n5"));
	free(got);
	got = render(&qv, &(struct sl_sinfo_opts){.node_flag = 1, .dead = 1}, SHOT, NULL);
	assert_non_null(strstr(got, "n5 "));
	assert_null(strstr(got, "n1 "));
	free(got);
	got = render(&ref_n, &(struct sl_sinfo_opts){.iterate = 5}, SHOT, NULL);
	assert_int_not_equal(strncmp(got, "PARTITION", 9), 0); /* the date line first */
	assert_non_null(strstr(got, "\nPARTITION"));
	free(got);
	got = render(&ref_n, &(struct sl_sinfo_opts){.iterate = 5, .no_header = 1}, SHOT, NULL);
	assert_null(strstr(got, "PARTITION"));
	free(got);
	(void)state;
}

static void test_states_and_partitions(void **state)
{
	golden("states_mix", &ref, &(struct sl_sinfo_opts){.states = "mix"}, SHOT);
	golden("states_drain", &ref, &(struct sl_sinfo_opts){.states = "drain"}, SHOT);
	golden("states_alloc", &ref, &(struct sl_sinfo_opts){.states = "alloc"}, SHOT);
	golden("states_idle", &ref, &(struct sl_sinfo_opts){.states = "idle"}, SHOT);
	golden("states_and", &ref, &(struct sl_sinfo_opts){.states = "drain&alloc"}, SHOT);
	golden("states_drng_long", &ref, &(struct sl_sinfo_opts){.states = "drng", .long_output = 1},
	       SHOT_R);
	golden("parts", &ref, &(struct sl_sinfo_opts){.parts = gpu_zz}, SHOT);
	golden("parts_summarize", &ref, &(struct sl_sinfo_opts){.summarize = 1, .parts = debug_zz},
	       SHOT);
	/* an unknown partition: the header alone, as sinfo -p nosuch */
	char *const nosuch[] = {"nosuch", NULL};
	char *s = render(&ref, &(struct sl_sinfo_opts){.parts = nosuch}, SHOT, NULL);
	assert_string_equal(s, "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n");
	free(s);
	/* all states: every node */
	golden("default", &ref, &(struct sl_sinfo_opts){.states = "ALL"}, SHOT);
}

static void test_errors(void **state)
{
	struct sl_sinfo_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *w = sl_buf_new(4096);

	assert_int_equal(sl_sinfo_fmt_new(&(struct sl_sinfo_opts){.states = "foo"}, &f, w, &err),
			 -SL_EINVAL);
	assert_null(f);
	assert_string_equal(err.msg,
			    "Bad state string: \"foo\"\nvalid states: unknown,down,idle,allocated,?,"
			    "mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,"
			    "completing,powering_down,powered_down,power_down,powering_up,fail,maint,"
			    "reboot,reboot^,unknown");
	sl_err_clear(&err);
	assert_int_equal(sl_sinfo_fmt_new(&(struct sl_sinfo_opts){.long_output = 1, .format = "%P"},
					  &f, w, &err),
			 -SL_EINVAL);
	assert_string_equal(err.msg, "Options -o(--format) and -l(--long) are mutually exclusive. "
				     "Please remove one and retry.");
	assert_string_equal(sl_buf_str(w), "");
	sl_buf_free(w);
}

/* Unknown fields are warnings; the field prints its own text (sinfo -o %Q
 * merges everything into one line, having no field to tell lines apart). */
static void test_invalid_fields(void **state)
{
	char *warn = NULL, *s = render(&ref, &(struct sl_sinfo_opts){.format = "%Q"}, SHOT, &warn);
	assert_string_equal(warn, "Invalid node format specification: Q\n");
	assert_string_equal(s, "%Q\n%Q\n");
	free(s);
	free(warn);
	s = render(&ref, &(struct sl_sinfo_opts){.format = "foo", .format_is_long = 1}, SHOT, &warn);
	assert_string_equal(warn, "sinfo: error: Invalid job format specification: foo\n");
	assert_string_equal(s, "\n\n");
	free(s);
	free(warn);
	s = render(&ref, &(struct sl_sinfo_opts){.format = "x%.5Q|%P", .parts = debug_only}, SHOT,
		   &warn);
	assert_string_equal(s, "x%.5Q|PARTITION\nx%.5Q|debug\n");
	free(s);
	free(warn);
	/* strtok(fmt, "%"): runs of '%' are one, a trailing one is dropped */
	s = render(&ref, &(struct sl_sinfo_opts){.format = "%%P|%%%t%", .parts = debug_only}, SHOT,
		   NULL);
	assert_string_equal(s, "PARTITION|STATE\ndebug|mix\n");
	free(s);
}

/* ---- what Sluice's daemon answers ---- */

static struct sl_quota_row row(const char *cq, const char *flv, const char *res, int64_t nom,
			       int64_t used)
{
	return (struct sl_quota_row){(char *)cq, (char *)flv, (char *)res, nom,
				     used > nom ? used - nom : 0, 0, used, 0};
}

static struct sl_nodeinfo host = {.name = "vm", .arch = "x86_64", .os = "Linux 6.1 #1",
				  .boot_time = 1000, .start_time = 2000, .cpu_load = 150,
				  .free_mem = 3000};
static char *no_features[] = {NULL};
static char *gpu_features[] = {"nvidia.com/gpu.product=H100", "example.com/net=ib", NULL};

static struct sl_partinfo part(const char *name, int def, enum sl_part_avail avail,
			       int64_t admitted, struct sl_quota_row *q, size_t nq)
{
	struct sl_partinfo p = {(char *)name, def, avail, NULL, NULL, SL_SINFO_NO_VAL, 0,
				admitted, no_features, nq, q, -1, -1, -1, -1, -1, -1, -1, -1,
				SL_PART_UP};
	if (avail != SL_PART_UP) {
		p.reason = avail == SL_PART_DOWN ? "Hold: cq main"
						 : "ClusterQueue x is inactive";
		p.reason_user = "root";
		p.reason_uid = 0;
		p.reason_time = DRAINED;
	}
	return p;
}

static char *sluice(struct sl_clusterinfo *ci, const struct sl_sinfo_opts *o)
{
	struct sl_sinfo_built *b = sl_sinfo_build(ci);
	char *s = render(sl_sinfo_built_view(b), o, SHOT, NULL);
	sl_sinfo_built_free(b);
	return s;
}

static void expect(struct sl_clusterinfo *ci, const struct sl_sinfo_opts *o, const char *text)
{
	char *got = sluice(ci, o);
	assert_string_equal(got, text);
	free(got);
}

/* Eight CPUs and 32Gi of quota: idle, mixed as jobs are admitted,
 * allocated when every CPU is used, whatever the memory. */
static void test_local_states(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 0),
				   row("main", "default", "memory", 32 * 1024 * MIB1000, 0)};
	struct sl_partinfo p = part("batch", 1, SL_PART_UP, 0, q, 2);
	struct sl_clusterinfo ci = {SHOT, &host, 1, &p, 0, NULL};
	const struct sl_sinfo_opts cm = {.format = "%P %t %c %m %C %e %O %z"};

	expect(&ci, &(struct sl_sinfo_opts){0},
	       "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
	       "batch*       up   infinite      1   idle vm\n");
	expect(&ci, &cm, "PARTITION STATE CPUS MEMORY CPUS(A/I/O/T) FREE_MEM CPU_LOAD S:C:T\n"
			 "batch* idle 8 32768 0/8/0/8 3000 1.50 8:1:1\n");
	q[0].used = 2000, q[1].used = 4 * 1024 * MIB1000, p.admitted = 1;
	expect(&ci, &cm, "PARTITION STATE CPUS MEMORY CPUS(A/I/O/T) FREE_MEM CPU_LOAD S:C:T\n"
			 "batch* mix 8 32768 2/6/0/8 3000 1.50 8:1:1\n");
	q[0].used = 8000, p.admitted = 4;
	expect(&ci, &cm, "PARTITION STATE CPUS MEMORY CPUS(A/I/O/T) FREE_MEM CPU_LOAD S:C:T\n"
			 "batch* alloc 8 32768 8/0/0/8 3000 1.50 8:1:1\n");
	/* memory used up, CPUs free: mixed, as Slurm says of such a node */
	q[0].used = 1000, q[1].used = 32 * 1024 * MIB1000;
	expect(&ci, &(struct sl_sinfo_opts){.summarize = 1},
	       "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n"
	       "batch*       up   infinite          1/0/0/1 vm\n");
	expect(&ci, &(struct sl_sinfo_opts){.states = "mix", .no_header = 1},
	       "batch*       up   infinite      1    mix vm\n");
	expect(&ci, &(struct sl_sinfo_opts){.states = "idle", .no_header = 1},
	       "batch*       up   infinite      0    n/a \n");
	/* borrowing past the quota: the node grows with it */
	q[0].used = 10000, q[0].borrowed = 2000;
	expect(&ci, &(struct sl_sinfo_opts){.format = "%C %t"}, "CPUS(A/I/O/T) STATE\n10/0/0/10 alloc\n");
}

/* An operator's State= of a partition: its AVAIL, whatever its node. */
static void test_part_admin(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 2000)};
	struct sl_partinfo p = part("batch", 1, SL_PART_UP, 1, q, 1);
	struct sl_clusterinfo ci = {SHOT, &host, 1, &p, 0, NULL};
	static const struct {
		enum sl_part_avail admin;
		const char *want;
	} cases[] = {
		{SL_PART_DOWN, "down mix\n"}, {SL_PART_DRAIN, "drain mix\n"},
		{SL_PART_INACTIVE, "inactive mix\n"}, {SL_PART_UP, "up mix\n"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p.admin = cases[i].admin;
		expect(&ci, &(struct sl_sinfo_opts){.no_header = 1, .format = "%a %t"},
		       cases[i].want);
	}
}

/* An operator's DRAIN (drng while jobs run) and DOWN of the host, with its
 * reason and who, over the partition's own state. */
static void test_local_admin(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 2000)};
	struct sl_partinfo p = part("batch", 1, SL_PART_UP, 1, q, 1);
	struct sl_nodeinfo h = host;
	struct sl_clusterinfo ci = {SHOT, &h, 1, &p, 0, NULL};

	h.drain = 1;
	h.reason = "disk swap";
	h.reason_user = "root";
	h.reason_time = SHOT;
	expect(&ci, &(struct sl_sinfo_opts){.no_header = 1},
	       "batch*       up   infinite      1   drng vm\n");
	expect(&ci, &(struct sl_sinfo_opts){.list_reasons = 1, .format = "%E|%u|%t"},
	       "REASON|USER|STATE\ndisk swap|root|drng\n");
	q[0].used = 0, p.admitted = 0;
	expect(&ci, &(struct sl_sinfo_opts){.no_header = 1},
	       "batch*       up   infinite      1  drain vm\n");
	h.drain = 0, h.down = 1;
	expect(&ci, &(struct sl_sinfo_opts){.no_header = 1},
	       "batch*       up   infinite      1   down vm\n");
	h.drain = 1; /* a down node keeps its drain flag: drained, as Slurm prints it */
	expect(&ci, &(struct sl_sinfo_opts){.no_header = 1, .format = "%T"}, "drained\n");
}

/* A stop policy: AVAIL down, the node drained (draining while jobs run),
 * with the reason in -R. An inactive queue: inact, node down. */
static void test_local_stopped(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 2000)};
	struct sl_quota_row q2[] = {row("x", "default", "cpu", 4000, 0)};
	struct sl_partinfo p[] = {part("batch", 1, SL_PART_DOWN, 1, q, 1),
				  part("other", 0, SL_PART_INACTIVE, 0, q2, 1)};
	struct sl_clusterinfo ci = {SHOT, &host, 2, p, 0, NULL};

	expect(&ci, &(struct sl_sinfo_opts){0},
	       "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
	       "batch*     down   infinite      1   drng vm\n"
	       "other     inact   infinite      1   down vm\n");
	expect(&ci, &(struct sl_sinfo_opts){.list_reasons = 1},
	       "REASON               USER      TIMESTAMP           NODELIST\n"
	       "Hold: cq main        root      2026-11-25T22:48:05 vm\n"
	       "ClusterQueue x is in root      2026-11-25T22:48:05 vm\n");
	expect(&ci, &(struct sl_sinfo_opts){.format = "%50E|%T", .list_reasons = 1,
					   .no_header = 1},
	       "Hold: cq main                                     |draining\n"
	       "ClusterQueue x is inactive                        |down\n");
	q[0].used = 0, p[0].admitted = 0;
	expect(&ci, &(struct sl_sinfo_opts){.states = "drain", .no_header = 1, .parts = NULL},
	       "batch*     down   infinite      1  drain vm\n"
	       "other     inact   infinite      0    n/a \n");
}

/* Kubernetes: the nodes are not known; no line pretends one. The
 * partition shows its flavors' labels as features. */
static void test_kubernetes(void **state)
{
	struct sl_quota_row q[] = {row("gpu", "h100", "nvidia.com/gpu", 16000, 8000)};
	struct sl_partinfo p = part("gpu", 1, SL_PART_UP, 1, q, 1);
	struct sl_clusterinfo ci = {SHOT, NULL, 1, &p, 0, NULL};
	p.features = gpu_features;

	expect(&ci, &(struct sl_sinfo_opts){0},
	       "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
	       "gpu*         up   infinite      0    n/a \n");
	expect(&ci, &(struct sl_sinfo_opts){.format = "%P %D %f", .no_header = 1},
	       "gpu* 0 nvidia.com/gpu.product=H100,example.com/net=ib\n");
	expect(&ci, &(struct sl_sinfo_opts){.node_flag = 1},
	       "NODELIST   NODES PARTITION STATE \n");
}

/* Kubernetes with the cluster's Nodes: each in the partitions the daemon
 * names; idle / mix / alloc from what its pods request, drain when
 * cordoned (draining with pods), down when not Ready, reasons for -R. */
static char *batch_only[] = {"batch", NULL};
static char *both[] = {"batch", "gpu", NULL};

static struct sl_knodeinfo knode(char *name, int64_t cpus, int64_t alloc, int ready,
				 int cordoned, char **parts)
{
	struct sl_knodeinfo k = {.name = name, .arch = "amd64", .os = "Ubuntu", .version = "v1.31",
				 .cpus = cpus, .cpus_alloc = alloc, .mem = 32768,
				 .mem_alloc = alloc * 1024, .ready = ready,
				 .unschedulable = cordoned, .partitions = parts};
	if (!ready || cordoned) {
		k.reason = ready ? "Cordoned" : "Kubelet stopped posting node status.";
		k.reason_user = "root";
		k.reason_time = DRAINED;
	}
	return k;
}

static void test_kubernetes_nodes(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 32000, 0)};
	struct sl_quota_row q2[] = {row("gpuq", "a100", "cpu", 16000, 0)};
	struct sl_partinfo p[] = {part("batch", 1, SL_PART_UP, 0, q, 1),
				  part("gpu", 0, SL_PART_UP, 0, q2, 1)};
	struct sl_knodeinfo k[] = {knode("k-0", 8, 0, 1, 0, batch_only),
				   knode("k-1", 8, 2, 1, 0, batch_only),
				   knode("k-2", 8, 8, 1, 1, batch_only),
				   knode("k-3", 16, 0, 0, 0, both)};
	struct sl_clusterinfo ci = {SHOT, NULL, 2, p, 4, k};

	k[3].no_respond = 1; /* the kubelet went silent: down* */

	expect(&ci, &(struct sl_sinfo_opts){0},
	       "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
	       "batch*       up   infinite      1  down* k-3\n"
	       "batch*       up   infinite      1   drng k-2\n"
	       "batch*       up   infinite      1    mix k-1\n"
	       "batch*       up   infinite      1   idle k-0\n"
	       "gpu          up   infinite      1  down* k-3\n");
	expect(&ci, &(struct sl_sinfo_opts){.node_flag = 1, .format = "%N %P %T %C %m %e"},
	       "NODELIST PARTITION STATE CPUS(A/I/O/T) MEMORY FREE_MEM\n"
	       "k-0 batch* idle 0/8/0/8 32768 32768\n"
	       "k-1 batch* mixed 2/6/0/8 32768 30720\n"
	       "k-2 batch* draining 8/0/0/8 32768 24576\n"
	       "k-3 batch* down* 0/0/16/16 32768 32768\n"
	       "k-3 gpu down* 0/0/16/16 32768 32768\n");
	k[3].no_respond = 0; /* the kubelet says NotReady: down */
	expect(&ci, &(struct sl_sinfo_opts){.node_flag = 1, .format = "%N %t %T",
					    .parts = both + 1, .no_header = 1},
	       "k-3 down down\n");
	k[3].no_respond = 1;
	expect(&ci, &(struct sl_sinfo_opts){.list_reasons = 1},
	       "REASON               USER      TIMESTAMP           NODELIST\n"
	       "Kubelet stopped post root      2026-11-25T22:48:05 k-3\n"
	       "Cordoned             root      2026-11-25T22:48:05 k-2\n");
	expect(&ci, &(struct sl_sinfo_opts){.summarize = 1},
	       "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n"
	       "batch*       up   infinite          2/1/1/4 k-[0-3]\n"
	       "gpu          up   infinite          0/0/1/1 k-3\n");
	expect(&ci, &(struct sl_sinfo_opts){.states = "alloc", .no_header = 1, .node_flag = 1},
	       "k-1            1    batch* mix   \n"
	       "k-2            1    batch* drng  \n");
	/* -e: nodes of other sizes on their own lines, not "8+" */
	k[3].no_respond = 0;
	k[3].ready = 1;
	k[3].reason = NULL;
	expect(&ci, &(struct sl_sinfo_opts){.summarize = 1, .format = "%P %c %D %N"},
	       "PARTITION CPUS NODES NODELIST\nbatch* 8+ 4 k-[0-3]\ngpu 16 1 k-3\n");
	expect(&ci, &(struct sl_sinfo_opts){.summarize = 1, .exact = 1, .format = "%P %c %D %N"},
	       "PARTITION CPUS NODES NODELIST\nbatch* 8 3 k-[0-2]\nbatch* 16 1 k-3\n"
	       "gpu 16 1 k-3\n");
}

static void test_gpus_and_features(void **state)
{
	struct sl_quota_row q[] = {row("gpu", "h100", "cpu", 64000, 8000),
				   row("gpu", "h100", "memory", 256 * 1024 * MIB1000, 0),
				   row("gpu", "h100", "nvidia.com/gpu", 8000, 2000)};
	struct sl_partinfo p = part("gpu", 0, SL_PART_UP, 1, q, 3);
	struct sl_clusterinfo ci = {SHOT, &host, 1, &p, 0, NULL};
	p.features = gpu_features;

	expect(&ci, &(struct sl_sinfo_opts){.format = "%P %G %f %m", .no_header = 1},
	       "gpu gpu:8 nvidia.com/gpu.product=H100,example.com/net=ib 262144\n");
	expect(&ci, &(struct sl_sinfo_opts){.format = "gresused,allocmem", .format_is_long = 1,
					   .no_header = 1},
	       "gpu:2               0                   \n");
}

static void test_quota(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 2500),
				   row("main", "default", "memory", 32 * 1024 * MIB1000, 0)};
	struct sl_quota_row q2[] = {row("spot", "default", "cpu", 0, 500)};
	struct sl_partinfo p[] = {part("batch", 1, SL_PART_UP, 1, q, 2),
				  part("spot", 0, SL_PART_UP, 1, q2, 1)};
	struct sl_clusterinfo ci = {SHOT, &host, 2, p, 0, NULL};
	struct sl_buf *b = sl_buf_new(1 << 16);
	char *const spot[] = {"spot", NULL};
	q[0].lent = 500;
	q[0].pending = q[1].pending = 3;

	assert_int_equal(sl_sinfo_quota(&ci, NULL, 0, b), 0);
	assert_string_equal(sl_buf_str(b),
		"PARTITION   CLUSTERQUEUE   FLAVOR    RESOURCE   NOMINAL   BORROWED   LENT   USED    PENDING\n"
		"batch       main           default   cpu        8         0          500m   2500m   3\n"
		"batch       main           default   memory     32Gi      0          0      0       3\n"
		"spot        spot           default   cpu        0         500m       0      500m    0\n");
	sl_buf_free(b);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_sinfo_quota(&ci, spot, 1, b), 0);
	assert_string_equal(sl_buf_str(b), "spot   spot   default   cpu   0   500m   0   500m   0\n");
	sl_buf_free(b);
}

/* ---- --json ---- */

static const char *const parts3[] = {"cpu", "gpu", "debug", NULL};
static const char *const parts2[] = {"cpu", "gpu", NULL};
#define OS "Linux 6.18.44-fc-v669 #1 SMP PREEMPT_DYNAMIC @0"
#define JNODE(nm, freemem, portno, parts) \
	{.name = nm, .state = SL_NODE_IDLE, .cpus = 64, .mem = 256000, .free_mem = (freemem), \
	 .cpu_load = 112, .gres = "gpu:8", .gres_used = "gpu:0", .reason_uid = SL_SINFO_NO_VAL, \
	 .addr = "127.0.0.1", .arch = "x86_64", .os = OS, .version = "22.05.8", .port = (portno), \
	 .boot_time = 1795643918, .start_time = 1795646629, .last_busy = 1795646629, \
	 .partitions = (parts)}

/* What real sinfo --json printed for the idle reference cluster. */
static void test_json(void **state)
{
	static const struct sl_sinfo_node nodes[] = {
		JNODE("n1", 22597, 17001, parts3), JNODE("n2", 22603, 17002, parts2),
		JNODE("n3", 22603, 17003, parts2), JNODE("n4", 22603, 17004, parts2)};
	struct sl_sinfo_view v = {0, NULL, 4, nodes};
	struct sl_buf *b = sl_buf_new(1 << 20);
	char *want = tl_output("sinfo_json.out");

	assert_int_equal(sl_sinfo_json(&v, b), 0);
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
}

/* Sluice's one node: the sum of every queue's quota, all partitions. */
static void test_json_sluice(void **state)
{
	struct sl_quota_row q[] = {row("main", "default", "cpu", 8000, 2000),
				   row("main", "default", "memory", 32 * 1024 * MIB1000, 1024 * MIB1000)};
	struct sl_partinfo p[] = {part("batch", 1, SL_PART_UP, 1, q, 2),
				  part("debug", 0, SL_PART_DOWN, 1, q, 2)};
	struct sl_clusterinfo ci = {SHOT, &host, 2, p, 0, NULL};
	struct sl_sinfo_built *bv = sl_sinfo_build(&ci);
	struct sl_buf *b = sl_buf_new(1 << 20);

	assert_int_equal(sl_sinfo_json(sl_sinfo_built_view(bv), b), 0);
	const char *s = sl_buf_str(b);
	assert_non_null(strstr(s, "\"cpus\": 8,"));
	assert_non_null(strstr(s, "\"name\": \"vm\","));
	assert_non_null(strstr(s, "\"state\": \"mixed\",\n      \"state_flags\": [\n      ],"));
	assert_non_null(strstr(s, "\"partitions\": [\n        \"batch\",\n        \"debug\"\n      ],"));
	assert_non_null(strstr(s, "\"real_memory\": 32768,"));
	assert_non_null(strstr(s, "\"tres\": \"cpu=8,mem=32G,billing=8\","));
	assert_non_null(strstr(s, "\"alloc_cpus\": 2,\n      \"idle_cpus\": 6,"));
	assert_non_null(strstr(s, "\"tres_used\": \"cpu=2,mem=1G\","));
	assert_non_null(strstr(s, "\"operating_system\": \"Linux 6.1 #1\","));
	sl_sinfo_built_free(bv);
	sl_buf_free(b);
	/* no node known (Kubernetes): an empty list */
	ci.node = NULL;
	bv = sl_sinfo_build(&ci);
	b = sl_buf_new(1 << 20);
	assert_int_equal(sl_sinfo_json(sl_sinfo_built_view(bv), b), 0);
	assert_non_null(strstr(sl_buf_str(b), "\"nodes\": [\n  ]\n}"));
	sl_sinfo_built_free(bv);
	sl_buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_node_oriented),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_states_and_partitions),
		cmocka_unit_test(test_node_filters),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_invalid_fields),
		cmocka_unit_test(test_local_states),
		cmocka_unit_test(test_local_stopped),
		cmocka_unit_test(test_local_admin),
		cmocka_unit_test(test_part_admin),
		cmocka_unit_test(test_kubernetes),
		cmocka_unit_test(test_kubernetes_nodes),
		cmocka_unit_test(test_gpus_and_features),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_sluice),
	};
	/* the captures' times are UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
