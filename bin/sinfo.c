/* sinfo.c - partitions and nodes, as Slurm 22.05's sinfo prints them, plus
 * Sluice's --quota (each partition's quota per flavor). Parse options with
 * compat's option table, one sl_client_partitions() call, print through
 * compat/sinfo_fmt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "hostlist.h"
#include "client.h"
#include "optable.h"
#include "sinfo_fmt.h"
#include "slurm_clusters.h"
#include "slurm_state.h"
#include "xalloc.h"

#define OUT_CAP (64u << 20)

struct opts {
	struct sl_sinfo_opts o;
	char **parts, **nodes;
	char *clusters; /* -M: "CLUSTER: name" before each report */
	int json, quota, help, usage, version;
};

static int set_flag(int *f)
{
	*f = 1;
	return 0;
}

#define FLAG(fn, field) \
	static int fn(void *c, const char *a, struct sl_err *e) \
	{ \
		(void)a; \
		(void)e; \
		return set_flag(&((struct opts *)c)->field); \
	}
FLAG(set_noheader, o.no_header)
FLAG(set_long, o.long_output)
FLAG(set_node, o.node_flag)
FLAG(set_exact, o.exact)
FLAG(set_reasons, o.list_reasons)
FLAG(set_summarize, o.summarize)
FLAG(set_json, json)
FLAG(set_quota, quota)
FLAG(set_help, help)
FLAG(set_usage, usage)
FLAG(set_version, version)
FLAG(set_responding, o.responding)
FLAG(set_dead, o.dead)

/* -n: a host list, expanded; a name no node has matches nothing. */
static int set_nodes(void *c, const char *a, struct sl_err *e)
{
	struct opts *o = c;
	size_t n = 0;
	sl_strv_free(o->nodes);
	o->nodes = NULL;
	if (sl_hostlist_expand(a, &o->nodes, &n, e) != 0 || o->nodes == NULL) {
		sl_strv_free(o->nodes);
		o->nodes = sl_xcalloc(1, sizeof(char *));
	}
	sl_err_clear(e);
	return 0;
}

/* -i: whole seconds above 0 (sinfo's opts.c). */
static int set_iterate(void *c, const char *a, struct sl_err *e)
{
	char *end;
	long v = strtol(a, &end, 10);
	if (*a == '\0' || *end != '\0' || v <= 0 || v > 86400 * 365)
		return sl_err_set(e, SL_EINVAL, "sinfo: error: Error: invalid entry for "
				  "--iterate=%s", a);
	((struct opts *)c)->o.iterate = (int)v;
	return 0;
}

static int set_none(void *c, const char *a, struct sl_err *e)
{
	(void)c, (void)a, (void)e; /* -a, --hide, -v: nothing hidden, nothing to tell */
	return 0;
}

static int set_format(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	((struct opts *)c)->o.format = a; /* -O before -o keeps the -O syntax, as in Slurm */
	return 0;
}

static int set_format_long(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	((struct opts *)c)->o.format = a;
	((struct opts *)c)->o.format_is_long = 1;
	return 0;
}

static int set_clusters(void *c, const char *a, struct sl_err *e)
{
	struct opts *o = c;
	(void)e;
	free(o->clusters);
	o->clusters = sl_xstrdup(a);
	return 0;
}

static void set_parts_list(struct opts *o, const char *a)
{
	size_t n = 0;
	sl_strv_free(o->parts);
	o->parts = NULL;
	sl_slurm_list_append(&o->parts, &n, a);
	if (o->parts == NULL)
		o->parts = sl_xcalloc(1, sizeof(char *));
}

static int set_parts(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	set_parts_list(c, a);
	return 0;
}

static int set_states(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	((struct opts *)c)->o.states = a;
	return 0;
}

#define UNSUPP(name, key, arg) {name, key, arg, {NULL, NULL}, SL_OPTF_UNSUPP, NULL}
static const struct sl_opt table[] = {
	{"all", 'a', SL_OPT_NOARG, {NULL, NULL}, 0, set_none},
	{"hide", 0, SL_OPT_NOARG, {NULL, NULL}, 0, set_none},
	{"noheader", 'h', SL_OPT_NOARG, {NULL, NULL}, 0, set_noheader},
	{"long", 'l', SL_OPT_NOARG, {NULL, NULL}, 0, set_long},
	{"Node", 'N', SL_OPT_NOARG, {NULL, NULL}, 0, set_node},
	{"format", 'o', SL_OPT_REQ, {NULL, NULL}, 0, set_format},
	{"Format", 'O', SL_OPT_REQ, {NULL, NULL}, 0, set_format_long},
	{"partition", 'p', SL_OPT_REQ, {NULL, NULL}, 0, set_parts},
	{"list-reasons", 'R', SL_OPT_NOARG, {NULL, NULL}, 0, set_reasons},
	{"summarize", 's', SL_OPT_NOARG, {NULL, NULL}, 0, set_summarize},
	{"states", 't', SL_OPT_REQ, {NULL, NULL}, 0, set_states},
	{"verbose", 'v', SL_OPT_NOARG, {NULL, NULL}, 0, set_none},
	{"version", 'V', SL_OPT_NOARG, {NULL, NULL}, 0, set_version},
	{"help", 0, SL_OPT_NOARG, {NULL, NULL}, 0, set_help},
	{"usage", 0, SL_OPT_NOARG, {NULL, NULL}, 0, set_usage},
	{"json", 0, SL_OPT_NOARG, {NULL, NULL}, 0, set_json},
	{"quota", 0, SL_OPT_NOARG, {NULL, NULL}, 0, set_quota},
	{"dead", 'd', SL_OPT_NOARG, {NULL, NULL}, 0, set_dead},
	{"exact", 'e', SL_OPT_NOARG, {NULL, NULL}, 0, set_exact},
	UNSUPP("federation", 0, SL_OPT_NOARG),
	{"iterate", 'i', SL_OPT_REQ, {NULL, NULL}, 0, set_iterate},
	UNSUPP("local", 0, SL_OPT_NOARG),
	{"cluster", 'M', SL_OPT_REQ, {NULL, NULL}, 0, set_clusters},
	{"clusters", 'M', SL_OPT_REQ, {NULL, NULL}, 0, set_clusters},
	{"nodes", 'n', SL_OPT_REQ, {NULL, NULL}, 0, set_nodes},
	UNSUPP("noconvert", 0, SL_OPT_NOARG),
	{"responding", 'r', SL_OPT_NOARG, {NULL, NULL}, 0, set_responding},
	UNSUPP("sort", 'S', SL_OPT_REQ),
	UNSUPP("reservation", 'T', SL_OPT_NOARG),
	UNSUPP("yaml", 0, SL_OPT_NOARG),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

static const char usage_text[] =
	"Usage: sinfo [-o format] [-O format] [-p partition] [-t states] [-n nodes]\n"
	"             [-i seconds] [-M clusters] [-adhlNrRsv]\n"
	"             [--json] [--quota]\n";

static const char help_text[] =
	"Usage: sinfo [OPTIONS]\n"
	"  -a, --all                  show all partitions (Sluice hides none)\n"
	"  -d, --dead                 show only non-responding nodes\n"
	"  -h, --noheader             no headers on output\n"
	"  -i, --iterate=seconds      specify an iteration period\n"
	"  -l, --long                 long output - displays more information\n"
	"  -M, --clusters=names       clusters to issue commands to (Sluice's own,\n"
	"                             or all)\n"
	"  -n, --nodes=NODES          report on specific node(s)\n"
	"  -N, --Node                 Node-centric format\n"
	"  -o, --format=format        format specification\n"
	"  -O, --Format=format        long format specification\n"
	"  -p, --partition=PARTITION  report on specific partition\n"
	"  -r, --responding           report only responding nodes\n"
	"  -R, --list-reasons         list reason nodes are down or drained\n"
	"  -s, --summarize            report state summary only\n"
	"  -t, --states=node_state    specify the what states of nodes to view\n"
	"  -v, --verbose              verbosity level\n"
	"  -V, --version              output version information and exit\n"
	"      --json                 Slurm 22.05's JSON nodes document\n"
	"      --quota                each partition's quota per ClusterQueue, flavor\n"
	"                             and resource: nominal, borrowed, lent, used, and\n"
	"                             the partition's pending jobs (Sluice only)\n"
	"\nHelp options:\n"
	"  --help                     show this help message\n"
	"  --usage                    display brief usage message\n"
	"\nOther sinfo options are recognised and refused: Sluice does not\n"
	"support them yet.\n";

/* Exits on a bad option, as sinfo does. Words that are not options are
 * ignored, as getopt's permutation leaves them to a sinfo that reads none. */
static void parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	int start = 1, next;

	if (getenv("SINFO_PARTITION") && *getenv("SINFO_PARTITION"))
		set_parts_list(o, getenv("SINFO_PARTITION"));
	o->o.env_format = getenv("SINFO_FORMAT");
	while (start < argc) {
		struct sl_optval *v = NULL;
		size_t n = 0;
		int r = sl_opt_scan(table, argc, argv, start, &v, &n, &next, &err);
		for (size_t i = 0; r == 0 && i < n; i++)
			r = sl_opt_apply_one(&v[i], o, &err);
		free(v);
		if (r == -SL_EUNSUPP) {
			fprintf(stderr, "sinfo: error: %s\n", err.msg);
			exit(1);
		} else if (r != 0 && strncmp(err.msg, "sinfo: ", 7) == 0) { /* a value's own line */
			fprintf(stderr, "%s\n", err.msg);
			exit(1);
		} else if (r != 0) {
			fprintf(stderr, "sinfo: %s\nTry \"sinfo --help\" for more information\n",
				err.msg);
			exit(1);
		}
		if (next > 1 && strcmp(argv[next - 1], "--") == 0)
			break;
		start = next + 1;
	}
	o->o.parts = o->parts;
	o->o.nodes = o->nodes;
}

/* Each line of msg with the prefix. */
static void print_lines(const char *prefix, const char *msg)
{
	for (const char *p = msg;;) {
		size_t n = strcspn(p, "\n");
		fprintf(stderr, "%s%.*s\n", prefix, (int)n, p);
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
}

static int fetch(struct sl_clusterinfo **ci)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_client_partitions(ci, &err);

	if (r == -SL_ECONNECT)
		fprintf(stderr, "slurm_load_partitions: Unable to contact slurm controller "
				"(connect failure)\n");
	else if (r != 0)
		fprintf(stderr, "slurm_load_partitions: %s\n", err.msg);
	return r;
}

static int report(const struct opts *o, const struct sl_sinfo_fmt *f,
		  const struct sl_clusterinfo *ci, struct sl_buf *b)
{
	struct sl_sinfo_built *v = sl_sinfo_build(ci);
	int r;

	if (o->json)
		r = sl_sinfo_json(sl_sinfo_built_view(v), b);
	else if (o->quota)
		r = sl_sinfo_quota(ci, o->parts, o->o.no_header, b);
	else
		r = sl_sinfo_print(f, sl_sinfo_built_view(v), (int64_t)time(NULL), b);
	sl_sinfo_built_free(v);
	return r;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct sl_sinfo_fmt *f = NULL;
	struct sl_clusterinfo *ci = NULL;
	struct sl_err err = SL_ERR_INIT;
	char *cluster = NULL;
	struct sl_buf *warn = sl_buf_new(1u << 20), *out = sl_buf_new(OUT_CAP);
	int rc = 1;

	parse(argc, argv, &o);
	if (o.help || o.usage || o.version) {
		fputs(o.help ? help_text : o.usage ? usage_text : "slurm 22.05.8\n", stdout);
		rc = 0;
		goto out;
	}
	/* 22.05 prints --json before it looks at -M: no CLUSTER line there */
	cluster = sl_slurm_clusters_or_exit("sinfo", o.clusters);
	o.o.cluster = o.json ? NULL : cluster;
	if (!o.json && !o.quota && sl_sinfo_fmt_new(&o.o, &f, warn, &err) != 0) {
		print_lines(o.o.long_output && o.o.format ? "sinfo: fatal: " : "sinfo: error: ",
			    err.msg);
		goto out;
	}
	fwrite(sl_buf_str(warn), 1, sl_buf_len(warn), stderr);
	for (;;) {
		if ((rc = fetch(&ci) != 0) == 0) {
			/* over the output cap: print what fits */
			(void)report(&o, f, ci, out);
			fwrite(sl_buf_str(out), 1, sl_buf_len(out), stdout);
			rc = fflush(stdout) == 0 ? 0 : 1;
		}
		if (o.o.iterate == 0)
			break;
		/* -i: a blank line after each report, until interrupted */
		sl_clusterinfo_free(ci);
		ci = NULL;
		sl_buf_reset(out);
		putchar('\n');
		if (fflush(stdout) != 0)
			break;
		sleep((unsigned)o.o.iterate);
	}
out:
	free(cluster);
	free(o.clusters);
	sl_clusterinfo_free(ci);
	sl_sinfo_fmt_free(f);
	sl_strv_free(o.parts);
	sl_strv_free(o.nodes);
	sl_buf_free(warn);
	sl_buf_free(out);
	return rc;
}
