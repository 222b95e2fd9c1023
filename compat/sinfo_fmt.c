/* sinfo_fmt.c - sinfo's field table and its printers, and the parsing of
 * its formats: -o "%P %.5a ..." (through the generic slurm_fmt.c parser),
 * -O "partition:9 ,available:.5 ..." and the defaults, which Slurm writes
 * in the -O syntax. Values a Sluice partition or node has no counterpart
 * for print what Slurm prints for them unset, so scripts keep parsing. */
#include "sinfo_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "slurm_fmt.h"
#include "slurm_time.h"
#include "slurm_tres.h"
#include "xalloc.h"

#define INFINITE32 0xffffffffu

/* ---- numbers as sinfo prints them ---- */

/* sinfo prints a zero as "0", never "0.00". */
static void num_unit(double num, char *buf, size_t len)
{
	if ((int64_t)num == 0)
		snprintf(buf, len, "0");
	else
		sl_slurm_num_unit(num, 0, 6, buf, len);
}

/* _build_min_max_32_string(): "64", "8+" (min of several), "1-infinite". */
static void min_max(char *buf, size_t len, uint64_t min, uint64_t max, int range, int suffix)
{
	char a[32], b[32];

	if (suffix) {
		num_unit((double)min, a, sizeof(a));
		num_unit((double)max, b, sizeof(b));
	} else {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)min);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)max);
	}
	if (max == min)
		snprintf(buf, len, "%s", b);
	else if (range && max == INFINITE32)
		snprintf(buf, len, "%s-infinite", a);
	else if (range)
		snprintf(buf, len, "%s-%s", a, b);
	else
		snprintf(buf, len, "%s+", a);
}

/* _print_secs(): "30:00", "1:00:00", "7-00:00:00". */
static void minutes(char *buf, size_t len, int64_t min)
{
	sl_slurm_time_fmt_elapsed(min * 60, buf, len);
}

/* ---- node states (node_state_string and _compact, lower-cased) ---- */

static const char *const base_long[SL_NODE_END] = {"unknown", "down", "idle", "allocated",
						    "?", "mixed", "future"};
static const char *const base_compact[SL_NODE_END] = {"unk", "down", "idle", "alloc",
						       "?", "mix", "futr"};
/* ... not responding: Slurm adds '*' to each (returned whole: callers
 * compare two names in one expression, so no shared buffer). */
static const char *const base_long_nr[SL_NODE_END] = {"unknown*", "down*", "idle*",
						       "allocated*", "?", "mixed*", "future*"};
static const char *const base_compact_nr[SL_NODE_END] = {"unk*", "down*", "idle*", "alloc*",
							  "?", "mix*", "futr*"};

static int draining(unsigned s)
{
	unsigned b = s & SL_NODE_BASE;
	return (s & SL_NODE_DRAIN) && (b == SL_NODE_ALLOCATED || b == SL_NODE_MIXED);
}

const char *sinfo_state_name(unsigned s, int compact)
{
	static const char *const drain[2][2][2] = {
		{{"drained", "drained*"}, {"draining", "draining*"}},
		{{"drain", "drain*"}, {"drng", "drng*"}},
	};
	unsigned b = s & SL_NODE_BASE;
	int nr = (s & SL_NODE_NO_RESPOND) != 0;
	if (s & SL_NODE_DRAIN)
		return drain[compact != 0][draining(s)][nr];
	if (b >= SL_NODE_END)
		return "?";
	return compact ? (nr ? base_compact_nr : base_compact)[b] : (nr ? base_long_nr : base_long)[b];
}

/* ---- printers ---- */

#define P(name) static void name(const struct rec *r, char *buf, size_t len)
#define S(expr) snprintf(buf, len, "%s", (expr))

static const char *nul(const char *s)
{
	return s ? s : "(null)";
}

P(p_avail)
{
	static const char *const n[] = {"up", "down", "inactive", "drain"};
	S(r->part->avail <= SL_PART_DRAIN ? n[r->part->avail] : "unknown");
}
P(p_all) { (void)r; S("all"); }
P(p_no) { (void)r; S("no"); }
P(p_NO) { (void)r; S("NO"); }
P(p_one) { (void)r; S("1"); }
P(p_off) { (void)r; S("OFF"); }
P(p_na) { (void)r; S("N/A"); }
P(p_null) { (void)r; S("(null)"); }
P(p_unlimited) { (void)r; S("UNLIMITED"); }
P(p_features) { S(nul(r->features)); }
P(p_gres) { S(nul(r->gres)); }
P(p_gres_used) { S(nul(r->gres_used)); }
P(p_nodelist) { S(r->nodelist ? r->nodelist : ""); }
P(p_part) { S(r->part->name); }
P(p_nodes) { snprintf(buf, len, "%u", r->nodes_total); }
P(p_nodes_ai) { snprintf(buf, len, "%u/%u", r->nodes_alloc, r->nodes_idle); }
P(p_alloc_mem) { snprintf(buf, len, "%llu", (unsigned long long)r->alloc_mem); }
P(p_cpus) { min_max(buf, len, r->min_cpus, r->max_cpus, 0, 1); }
P(p_memory) { min_max(buf, len, r->min_mem, r->max_mem, 0, 0); }
P(p_free_mem) { min_max(buf, len, r->min_free, r->max_free, 1, 0); }
P(p_disk) { min_max(buf, len, r->min_disk, r->max_disk, 0, 0); }
P(p_per_node) { S(r->nodes_total ? "1" : "0"); } /* cores, threads, weight */
P(p_sockets) { min_max(buf, len, r->min_cpus, r->max_cpus, 0, 1); }
P(p_port) { snprintf(buf, len, "%u", r->nnodes ? r->nodes[0]->port : 0u); }

P(p_nodes_aiot)
{
	snprintf(buf, len, "%u/%u/%u/%u", r->nodes_alloc, r->nodes_idle, r->nodes_other,
		 r->nodes_total);
}

P(p_cpus_aiot)
{
	snprintf(buf, len, "%u/%u/%u/%u", r->cpus_alloc, r->cpus_idle, r->cpus_other,
		 r->cpus_total);
}

P(p_sct)
{
	char s[32], one[32];
	min_max(s, sizeof(s), r->min_cpus, r->max_cpus, 0, 1);
	snprintf(one, sizeof(one), "%s", r->nodes_total ? "1" : "0");
	snprintf(buf, len, "%s:%s:%s", s, one, one);
}

P(p_cpu_load)
{
	if (r->min_load == r->max_load)
		snprintf(buf, len, "%.2f", r->max_load / 100.0);
	else
		snprintf(buf, len, "%.2f-%.2f", r->min_load / 100.0, r->max_load / 100.0);
}

P(p_reason)
{
	S(r->reason && strncmp(r->reason, "(null)", 6) != 0 ? r->reason : "none");
}

P(p_timestamp)
{
	if (r->reason_time)
		sl_slurm_time_fmt_ts(r->reason_time, buf, len);
	else
		S("Unknown");
}

P(p_user)
{
	if (r->reason_uid == SL_SINFO_NO_VAL)
		S("Unknown");
	else if (r->reason_user)
		S(r->reason_user);
	else
		snprintf(buf, len, "Unk(%u)", r->reason_uid);
}

P(p_user_long)
{
	if (r->reason_uid == SL_SINFO_NO_VAL)
		S("Unknown");
	else if (r->reason_user)
		snprintf(buf, len, "%s(%u)", r->reason_user, r->reason_uid);
	else
		snprintf(buf, len, "Unk(%u)", r->reason_uid);
}

P(p_state_compact) { S(r->nodes_total ? sinfo_state_name(r->state, 1) : "n/a"); }
P(p_state_long) { S(r->nodes_total ? sinfo_state_name(r->state, 0) : "n/a"); }

P(p_state_complete)
{
	unsigned b = r->state & SL_NODE_BASE;
	if (!r->nodes_total)
		S("n/a");
	else
		snprintf(buf, len, "%s%s%s", b < SL_NODE_END ? base_long[b] : "?",
			 (r->state & SL_NODE_DRAIN) ? "+drain" : "",
			 (r->state & SL_NODE_NO_RESPOND) ? "+not_responding" : "");
}

P(p_time)
{
	if (r->part->max_time == SL_SINFO_INFINITE)
		S("infinite");
	else
		minutes(buf, len, r->part->max_time);
}

P(p_default_time)
{
	if (r->part->default_time == SL_SINFO_UNSET)
		S("n/a");
	else if (r->part->default_time == SL_SINFO_INFINITE)
		S("infinite");
	else
		minutes(buf, len, r->part->default_time);
}

P(p_size)
{
	min_max(buf, len, 1, r->part->max_nodes ? r->part->max_nodes : INFINITE32, 1, 1);
}

P(p_version)
{
	/* slurmd's version, as scontrol show node gives it (Version=) */
	S(r->nnodes && r->nodes[0]->version ? r->nodes[0]->version : r->nnodes ? "22.05.8" : "N/A");
}

/* The nodes' addresses (or names) as a host list. */
P(p_node_addr)
{
	const char **v = sl_xcalloc(r->nnodes + 1, sizeof(*v));
	for (size_t i = 0; i < r->nnodes; i++)
		v[i] = r->nodes[i]->addr ? r->nodes[i]->addr : r->nodes[i]->name;
	char *s = sl_hostlist_compress((char *const *)v, r->nnodes);
	S(s);
	free(s);
	free(v);
}
#undef P
#undef S

/* sinfo 22.05's fields: -o letter, -O name, header (print.c). */
static const struct field table[] = {
	{'a', "available", "AVAIL", M_AVAIL, 0, p_avail},
	{'A', "nodeai", "NODES(A/I)", 0, 0, p_nodes_ai},
	{'b', "features_act", "ACTIVE_FEATURES", M_FEATURES_ACT, 0, p_features},
	{'B', "maxcpuspernode", "MAX_CPUS_PER_NODE", 0, 0, p_unlimited},
	{'c', "cpus", "CPUS", 0, 0, p_cpus},
	{'C', "cpusstate", "CPUS(A/I/O/T)", 0, 0, p_cpus_aiot},
	{'d', "disk", "TMP_DISK", 0, 0, p_disk},
	{'D', "nodes", "NODES", 0, 0, p_nodes},
	{'e', "freemem", "FREE_MEM", 0, 0, p_free_mem},
	{'E', "reason", "REASON", M_REASON, 0, p_reason},
	{'f', "features", "AVAIL_FEATURES", M_FEATURES, 0, p_features},
	{'F', "nodeaiot", "NODES(A/I/O/T)", 0, 0, p_nodes_aiot},
	{'g', "groups", "GROUPS", 0, 0, p_all},
	{'G', "gres", "GRES", M_GRES, 0, p_gres},
	{'h', "oversubscribe", "OVERSUBSCRIBE", 0, 0, p_NO},
	{'H', "timestamp", "TIMESTAMP", M_REASON_TIME, 0, p_timestamp},
	{'I', "priorityjobfactor", "PRIO_JOB_FACTOR", 0, 0, p_one},
	{'l', "time", "TIMELIMIT", M_MAXTIME, 0, p_time},
	{'L', "defaulttime", "DEFAULTTIME", M_DEFTIME, 0, p_default_time},
	{'m', "memory", "MEMORY", 0, 0, p_memory},
	{'M', "preemptmode", "PREEMPT_MODE", 0, 0, p_off},
	{'n', "nodehost", "HOSTNAMES", M_HOSTNAMES, F_HEADER_NOCUT | F_NODEWIDTH, p_nodelist},
	{'N', "nodelist", "NODELIST", 0, F_HEADER_NOCUT | F_NODEWIDTH, p_nodelist},
	{'o', "nodeaddr", "NODE_ADDR", M_HOSTNAMES, F_HEADER_NOCUT, p_node_addr},
	{'O', "cpusload", "CPU_LOAD", 0, 0, p_cpu_load},
	{'p', "prioritytier", "PRIO_TIER", 0, 0, p_one},
	{'P', "partition", "PARTITION", M_PART, F_PARTWIDTH | F_STAR, p_part},
	{'r', "root", "ROOT", 0, 0, p_no},
	{'R', "partitionname", "PARTITION", M_PART, F_PARTWIDTH, p_part},
	{'s', "size", "JOB_SIZE", M_JOBSIZE, 0, p_size},
	{'S', "allocnodes", "ALLOCNODES", 0, 0, p_all},
	{'t', "statecompact", "STATE", M_STATE, 0, p_state_compact},
	{'T', "statelong", "STATE", M_STATE, 0, p_state_long},
	{'u', "user", "USER", M_REASON_USER, 0, p_user},
	{'U', "userlong", "USER", M_REASON_USER, 0, p_user_long},
	{'v', "version", "VERSION", 0, 0, p_version},
	{'V', "cluster", "CLUSTER", 0, 0, p_na},
	{'w', "weight", "WEIGHT", 0, 0, p_per_node},
	{'X', "sockets", "SOCKETS", 0, 0, p_sockets},
	{'Y', "cores", "CORES", 0, 0, p_per_node},
	{'Z', "threads", "THREADS", 0, 0, p_per_node},
	{'z', "socketcorethread", "S:C:T", 0, 0, p_sct},
	{0, "allocmem", "ALLOCMEM", M_ALLOCMEM, 0, p_alloc_mem},
	{0, "comment", "COMMENT", 0, 0, p_null},
	{0, "extra", "EXTRA", 0, 0, p_null},
	{0, "gresused", "GRES_USED", M_GRES_USED, 0, p_gres_used},
	{0, "port", "PORT", 0, 0, p_port},
	{0, "share", "OVERSUBSCRIBE", 0, 0, p_NO},
	{0, "statecomplete", "STATECOMPLETE", M_STATE, 0, p_state_complete},
};

const struct field *sinfo_field_code(char code)
{
	for (size_t i = 0; code && i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

const struct field *sinfo_field_name(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcasecmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/* _print_str(): right-justified "%*s" then cut to the width (unless the
 * header is exempt); left-justified "%.*s", which always cuts, then pad. */
int sinfo_cell(struct sl_buf *b, const char *val, int width, int right, int cut)
{
	return sl_fmt_cell(b, val, width, right, right ? cut : 1);
}

/* ---- formats ---- */

static struct item *add_item(struct sl_sinfo_fmt *f, const struct field *fd, int width,
			     int right, char *suffix)
{
	struct item *it;
	f->items = sl_xgrow(f->items, &f->cap, f->n + 1, sizeof(*f->items));
	it = &f->items[f->n++];
	it->f = fd;
	it->width = width;
	it->right = right;
	it->suffix = suffix ? suffix : sl_xstrdup("");
	if (fd)
		f->match |= fd->match;
	return it;
}

/* -o: unknown letters print "%" and the rest of their token, after the
 * warning sinfo writes on stderr without its name. sinfo splits the format
 * with strtok(fmt, "%"), so "%%" is one '%' and a trailing '%' is nothing. */
static int parse_percent(struct sl_sinfo_fmt *f, const char *fmt, struct sl_buf *warn,
			 struct sl_err *err)
{
	struct sl_fmt *pf = NULL;
	char *norm = sl_xstrdup(fmt), *q = norm;
	int r;

	for (const char *p = fmt; *p; p++)
		if (*p != '%' || (p[1] != '%' && p[1] != '\0'))
			*q++ = *p;
	*q = '\0';
	r = sl_fmt_parse_percent(norm, &pf, err);
	free(norm);
	if (r != 0)
		return r;
	f->prefix = sl_xstrdup(sl_fmt_prefix(pf));
	for (size_t i = 0; i < sl_fmt_count(pf); i++) {
		const struct sl_fmt_item *it = sl_fmt_item(pf, i);
		const struct field *fd = sinfo_field_code(it->code);
		char w[16] = "";
		if (fd) {
			add_item(f, fd, it->width, it->right, sl_xstrdup(it->suffix));
			continue;
		}
		sl_buf_addf(warn, "Invalid node format specification: %c\n", it->code);
		if (it->width_set)
			snprintf(w, sizeof(w), "%d", it->width);
		add_item(f, NULL, 0, 0, sl_xasprintf("%%%s%s%c%s", it->right ? "." : "", w,
						      it->code, it->suffix));
	}
	sl_fmt_free(pf);
	return 0;
}

/* -O: "name[:[.]width[suffix]]" separated by commas; a name alone is 20
 * columns, left-justified. */
static void parse_long(struct sl_sinfo_fmt *f, const char *fmt, struct sl_buf *warn)
{
	char *copy = sl_xstrdup(fmt), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end = NULL, *suffix = NULL;
		int width = 20, right = 0;
		const struct field *fd;
		if (colon) {
			*colon++ = '\0';
			if (*colon == '.') {
				right = 1;
				colon++;
			}
			long w = strtol(colon, &end, 10);
			width = w < 0 ? 0 : w > 4096 ? 4096 : (int)w;
			if (*end)
				suffix = sl_xstrdup(end);
		}
		if ((fd = sinfo_field_name(tok)) == NULL)
			sl_buf_addf(warn, "sinfo: error: Invalid job format specification: %s\n",
				    tok);
		add_item(f, fd, width, right, suffix);
	}
	free(copy);
}

/* The defaults of sinfo's opts.c, in its -O syntax. */
#define DEF_SUMMARIZE "partition:9 ,available:.5 ,time:.10 ,nodeaiot:.16 ,nodelist:0"
#define DEF_NODE "nodelist:0 ,nodes:.6 ,partition:.9 ,statecompact:6"
#define DEF_NODE_LONG "nodelist:0 ,nodes:.6 ,partition:.9 ,statelong:.11 ,cpus:4 ," \
	"socketcorethread:.8 ,memory:.6 ,disk:.8 ,weight:.6 ,features:.8 ,reason:20"
#define DEF_REASONS "reason:20 ,user:9 ,timestamp:19 ,nodelist:0"
#define DEF_REASONS_LONG "reason:20 ,userlong:12 ,timestamp:19 ,statecompact:6 ,nodelist:0"
#define DEF_PART "partition:9 ,available:.5 ,time:.10 ,nodes:.6 ,statecompact:.6 ,nodelist:0"
#define DEF_PART_LONG "partition:9 ,available:.5 ,time:.10 ,size:.10 ,root:.4 ," \
	"oversubscribe:.8 ,groups:.10 ,nodes:.6 ,statelong:.11 ,nodelist:0"

static int parse_format(struct sl_sinfo_fmt *f, struct sl_buf *warn, struct sl_err *err)
{
	const struct sl_sinfo_opts *o = &f->o;

	if (o->format)
		return o->format_is_long ? (parse_long(f, o->format, warn), 0)
					 : parse_percent(f, o->format, warn, err);
	if (o->summarize) {
		f->part_width = 1;
		parse_long(f, DEF_SUMMARIZE, warn);
	} else if (o->node_flag) {
		f->part_width = f->node_width = 1;
		parse_long(f, o->long_output ? DEF_NODE_LONG : DEF_NODE, warn);
	} else if (o->list_reasons) {
		parse_long(f, o->long_output ? DEF_REASONS_LONG : DEF_REASONS, warn);
	} else if (o->env_format) {
		return parse_percent(f, o->env_format, warn, err);
	} else {
		f->part_width = 1;
		parse_long(f, o->long_output ? DEF_PART_LONG : DEF_PART, warn);
	}
	return 0;
}

int sl_sinfo_fmt_new(const struct sl_sinfo_opts *o, struct sl_sinfo_fmt **out,
		     struct sl_buf *warn, struct sl_err *err)
{
	struct sl_sinfo_fmt *f = sl_xcalloc(1, sizeof(*f));
	int r;

	*out = NULL;
	f->o = *o;
	f->prefix = NULL;
	if (o->long_output && o->format) {
		r = sl_err_set(err, SL_EINVAL, "Options -o(--format) and -l(--long) are mutually "
			       "exclusive. Please remove one and retry.");
		goto out;
	}
	if ((r = parse_format(f, warn, err)) != 0)
		goto out;
	if (f->prefix == NULL)
		f->prefix = sl_xstrdup("");
	if (o->states)
		r = sinfo_states_parse(f, o->states, err);
	else if (o->list_reasons)
		r = sinfo_states_parse(f, "down,fail,drain", err);
	if (r != 0)
		goto out;
	*out = f;
	f = NULL;
out:
	sl_sinfo_fmt_free(f);
	return r;
}

void sl_sinfo_fmt_free(struct sl_sinfo_fmt *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->items[i].suffix);
	free(f->items);
	free(f->prefix);
	free(f->states);
	free(f);
}
