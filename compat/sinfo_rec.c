/* sinfo_rec.c - how sinfo turns partitions and nodes into lines (sinfo.c's
 * _build_sinfo_data): every partition gets a line even without nodes when
 * the format names partitions; a node joins the first line of its
 * partition whose fields it shares (the format's fields decide which), or
 * starts one. Then the default sort ("#P,-t": partition order, states in
 * descending value; "N" for -N), the -t filter and the printing. */
#include "sinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "hostlist.h"
#include "xalloc.h"

/* ---- -t: node state names (opts.c _node_state_id) ---- */

/* Flags beyond DRAIN, with Slurm's values: no Sluice node has them (but a
 * Kubernetes node's NO_RESPOND), so asking for them selects nothing, as on
 * a cluster where none has them. */
enum {
	ST_NET = 0x10, ST_RES = 0x20, ST_CLOUD = 0x80, ST_COMPLETING = 0x400,
	ST_NO_RESPOND = SL_NODE_NO_RESPOND, ST_POWERED_DOWN = 0x1000, ST_FAIL = 0x2000,
	ST_POWERING_UP = 0x4000, ST_MAINT = 0x8000, ST_REBOOT = 0x10000,
	ST_POWERING_DOWN = 0x40000, ST_REBOOT_ISSUED = 0x100000, ST_PLANNED = 0x200000,
	ST_POWER_DOWN = 0x800000, ST_FLAGS = 0xfffffff0u,
};

static const struct {
	const char *compact, *name;
	unsigned id;
} state_names[] = {
	{"UNK", "UNKNOWN", SL_NODE_UNKNOWN}, {"DOWN", "DOWN", SL_NODE_DOWN},
	{"IDLE", "IDLE", SL_NODE_IDLE}, {"ALLOC", "ALLOCATED", SL_NODE_ALLOCATED},
	{"?", "?", SL_NODE_ERROR}, {"MIX", "MIXED", SL_NODE_MIXED},
	{"FUTR", "FUTURE", SL_NODE_FUTURE},
	{"PLND", "PLANNED", ST_PLANNED}, {"DRAIN", "DRAIN", SL_NODE_DRAIN},
	{"DRAINED", "DRAINED", SL_NODE_DRAIN | SL_NODE_IDLE},
	{"RESV", "RESERVED", ST_RES}, {"NPC", "PERFCTRS", ST_NET},
	{"DRNG", "DRAINING", SL_NODE_DRAIN | SL_NODE_ALLOCATED},
	{"COMP", "COMPLETING", ST_COMPLETING}, {"NO_RESPOND", "NO_RESPOND", ST_NO_RESPOND},
	{"POWRING_DN", "POWERING_DOWN", ST_POWERING_DOWN},
	{"POWERED_DN", "POWERED_DOWN", ST_POWERED_DOWN},
	{"POW_DN", "POWER_DOWN", ST_POWER_DOWN}, {"POWERING_UP", "POWERING_UP", ST_POWERING_UP},
	{"FAIL", "FAIL", ST_FAIL}, {"MAINT", "MAINT", ST_MAINT},
	{"BOOT", "REBOOT", ST_REBOOT}, {"BOOT^", "REBOOT^", ST_REBOOT_ISSUED},
	{"CLOUD", "CLOUD", ST_CLOUD},
};

/* What sinfo lists after "valid states:". */
static const char valid_states[] =
	"unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond,"
	"reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,"
	"powering_up,fail,maint,reboot,reboot^,unknown";

/* A word matches a name it begins (case aside), short or long. */
static int state_id(const char *w, unsigned *id)
{
	size_t n = strlen(w);
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
		if (strncasecmp(state_names[i].compact, w, n) == 0 ||
		    strncasecmp(state_names[i].name, w, n) == 0) {
			*id = state_names[i].id;
			return 0;
		}
	return -1;
}

int sinfo_states_parse(struct sl_sinfo_fmt *f, const char *list, struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL, *w;
	size_t cap = 0;
	int r = 0;

	f->states_and = strchr(list, '&') != NULL;
	if (strcasecmp(list, "all") == 0) { /* every base state: every node */
		f->states = sl_xcalloc(SL_NODE_END, sizeof(*f->states));
		for (unsigned i = 0; i < SL_NODE_END; i++)
			f->states[f->nstates++] = i;
		f->states_and = 0;
		free(copy);
		return 0;
	}
	for (w = strtok_r(copy, ",&", &save); w; w = strtok_r(NULL, ",&", &save)) {
		unsigned id;
		if (state_id(w, &id) != 0) {
			r = sl_err_set(err, SL_EINVAL,
				       "Bad state string: \"%s\"\nvalid states: %s", w, valid_states);
			break;
		}
		f->states = sl_xgrow(f->states, &cap, f->nstates + 1, sizeof(*f->states));
		f->states[f->nstates++] = id;
	}
	free(copy);
	return r;
}

static int node_draining(unsigned s)
{
	unsigned b = s & SL_NODE_BASE;
	return (s & SL_NODE_DRAIN) && (b == SL_NODE_ALLOCATED || b == SL_NODE_MIXED);
}

static int state_matches(unsigned want, const struct sl_sinfo_node *n)
{
	if (want == SL_NODE_DRAIN)
		return (n->state & SL_NODE_DRAIN) != 0;
	if (want == (SL_NODE_DRAIN | SL_NODE_ALLOCATED))
		return node_draining(n->state);
	if (want == (SL_NODE_DRAIN | SL_NODE_IDLE))
		return (n->state & SL_NODE_DRAIN) && !node_draining(n->state);
	if (want & ST_FLAGS)
		return (want & n->state) != 0;
	if (want == SL_NODE_ALLOCATED)
		return n->cpus_alloc > 0;
	return (n->state & SL_NODE_BASE) == want;
}

/* sinfo.c _filter_out(): a node is shown when one state matches (all, with &). */
static int node_shown(const struct sl_sinfo_fmt *f, const struct sl_sinfo_node *n)
{
	int match = 0, dead = (n->state & SL_NODE_NO_RESPOND) != 0;
	if ((f->o.responding && dead) || (f->o.dead && !dead))
		return 0;
	if (f->o.nodes != NULL) { /* -n */
		char *const *k = f->o.nodes;
		while (*k && strcmp(*k, n->name) != 0)
			k++;
		if (*k == NULL)
			return 0;
	}
	if (f->states == NULL)
		return 1;
	for (size_t i = 0; i < f->nstates; i++) {
		match = state_matches(f->states[i], n);
		if (f->states_and ? !match : match)
			break;
	}
	return match;
}

static int part_listed(const struct sl_sinfo_fmt *f, const struct sl_sinfo_part *p)
{
	if (f->o.parts == NULL)
		return 1;
	for (char *const *n = f->o.parts; *n; n++)
		if (strcmp(*n, p->name) == 0)
			return 1;
	return 0;
}

/* ---- records ---- */

struct recs {
	struct rec **v;
	size_t n, cap;
};

static struct rec *rec_new(struct recs *rs, const struct sl_sinfo_part *p, size_t inx)
{
	struct rec *r = sl_xcalloc(1, sizeof(*r));
	r->part = p;
	r->part_inx = inx;
	r->features = p->features;
	r->reason_uid = 0; /* Slurm's empty record: uid 0, printed as root */
	r->reason_user = "root";
	rs->v = sl_xgrow(rs->v, &rs->cap, rs->n + 1, sizeof(*rs->v));
	rs->v[rs->n++] = r;
	return r;
}

static int has_node(const struct rec *r, const char *name)
{
	for (size_t i = 0; i < r->nnodes; i++)
		if (strcmp(r->nodes[i]->name, name) == 0)
			return 1;
	return 0;
}

static int same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* _match_node_data(): does node n share the line's fields? */
static int match_node(const struct sl_sinfo_fmt *f, const struct rec *r,
		      const struct sl_sinfo_node *n)
{
	unsigned m = f->match;
	if (f->o.node_flag)
		return 0;
	if ((m & M_HOSTNAMES) && !has_node(r, n->name))
		return 0;
	if (((m & (M_FEATURES | M_FEATURES_ACT)) && !same(n->features, r->features)) ||
	    ((m & M_GRES) && !same(n->gres, r->gres)) ||
	    ((m & M_GRES_USED) && !same(n->gres_used, r->gres_used)) ||
	    ((m & M_REASON) && !same(n->reason, r->reason)) ||
	    ((m & M_REASON_TIME) && n->reason_time != r->reason_time) ||
	    ((m & M_REASON_USER) && n->reason_uid != r->reason_uid))
		return 0;
	if ((m & M_STATE) &&
	    strcmp(sinfo_state_name(n->state, 0), sinfo_state_name(r->state, 0)) != 0)
		return 0;
	/* -e: a size that would print as "N+" splits the line instead */
	if (f->o.exact && (n->cpus != r->min_cpus || n->mem != r->min_mem))
		return 0;
	return !((m & M_ALLOCMEM) && n->mem_alloc != r->alloc_mem);
}

/* _match_part_data(). */
static int match_part(const struct sl_sinfo_fmt *f, const struct rec *r,
		      const struct sl_sinfo_part *p)
{
	unsigned m = f->match;
	if (f->o.list_reasons || r->part == p)
		return 1;
	return !(((m & M_PART) && strcmp(p->name, r->part->name) != 0) ||
		 ((m & M_AVAIL) && p->avail != r->part->avail) ||
		 ((m & M_JOBSIZE) && p->max_nodes != r->part->max_nodes) ||
		 ((m & M_DEFTIME) && p->default_time != r->part->default_time) ||
		 ((m & M_MAXTIME) && p->max_time != r->part->max_time));
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* _update_sinfo(): the first node gives the line its data; others widen
 * the ranges; every node counts once. */
static void rec_add(struct rec *r, const struct sl_sinfo_node *n)
{
	unsigned b = n->state & SL_NODE_BASE;
	int other = (n->state & SL_NODE_DRAIN) || b == SL_NODE_DOWN;

	if (r->nodes_total == 0) {
		r->state = n->state;
		r->features = n->features;
		r->gres = n->gres;
		r->gres_used = n->gres_used;
		r->reason = n->reason;
		r->reason_time = n->reason_time;
		r->reason_uid = n->reason_uid;
		r->reason_user = n->reason_user;
		r->min_cpus = r->max_cpus = n->cpus;
		r->min_mem = r->max_mem = n->mem;
		r->min_free = r->max_free = n->free_mem;
		r->min_disk = r->max_disk = n->tmp_disk;
		r->min_load = r->max_load = n->cpu_load;
	} else if (has_node(r, n->name)) {
		return;
	} else {
		r->min_cpus = MIN(r->min_cpus, n->cpus);
		r->max_cpus = MAX(r->max_cpus, n->cpus);
		r->min_mem = MIN(r->min_mem, n->mem);
		r->max_mem = MAX(r->max_mem, n->mem);
		r->min_free = MIN(r->min_free, n->free_mem);
		r->max_free = MAX(r->max_free, n->free_mem);
		r->min_disk = MIN(r->min_disk, n->tmp_disk);
		r->max_disk = MAX(r->max_disk, n->tmp_disk);
		r->min_load = MIN(r->min_load, n->cpu_load);
		r->max_load = MAX(r->max_load, n->cpu_load);
	}
	r->nodes = sl_xgrow(r->nodes, &r->capnodes, r->nnodes + 1, sizeof(*r->nodes));
	r->nodes[r->nnodes++] = n;
	if (b == SL_NODE_ALLOCATED || b == SL_NODE_MIXED)
		r->nodes_alloc++;
	else if (other)
		r->nodes_other++;
	else
		r->nodes_idle++;
	r->nodes_total++;
	r->cpus_alloc += n->cpus_alloc;
	r->cpus_total += n->cpus;
	if (other)
		r->cpus_other += n->cpus - n->cpus_alloc;
	else
		r->cpus_idle += n->cpus - n->cpus_alloc;
	r->alloc_mem = n->mem_alloc;
}

static void insert(const struct sl_sinfo_fmt *f, struct recs *rs, const struct sl_sinfo_part *p,
		   size_t inx, const struct sl_sinfo_node *n)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct rec *r = rs->v[i];
		if (!match_part(f, r, p) || (r->nodes_total && !match_node(f, r, n)))
			continue;
		rec_add(r, n);
		return;
	}
	rec_add(rec_new(rs, p, inx), n);
}

static void build(const struct sl_sinfo_fmt *f, const struct sl_sinfo_view *v, struct recs *rs)
{
	if (!f->o.node_flag && (f->match & M_PART))
		for (size_t j = 0; j < v->nparts; j++)
			if (part_listed(f, &v->parts[j]))
				rec_new(rs, &v->parts[j], j);
	for (size_t j = 0; j < v->nparts; j++) {
		const struct sl_sinfo_part *p = &v->parts[j];
		if (!part_listed(f, p))
			continue;
		for (size_t k = 0; k < p->nnodes; k++)
			if (node_shown(f, &p->nodes[k]))
				insert(f, rs, p, j, &p->nodes[k]);
	}
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i]->nodes);
		free(rs->v[i]->nodelist);
		free(rs->v[i]);
	}
	free(rs->v);
}

/* ---- sort: each key a stable pass, the last key first ---- */

/* hostlist_cmp_first(): prefix, then the number after it. */
static int node_cmp(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), pa = la, pb = lb;
	int d;
	while (pa > 0 && a[pa - 1] >= '0' && a[pa - 1] <= '9')
		pa--;
	while (pb > 0 && b[pb - 1] >= '0' && b[pb - 1] <= '9')
		pb--;
	if (pa != pb || (d = strncmp(a, b, pa)) != 0)
		return strcmp(a, b);
	unsigned long long x = strtoull(a + pa, NULL, 10), y = strtoull(b + pb, NULL, 10);
	return x < y ? -1 : x > y ? 1 : strcmp(a, b);
}

static int key_cmp(char key, const struct rec *a, const struct rec *b)
{
	switch (key) {
	case 't': /* -t: descending */
		return a->state < b->state ? 1 : a->state > b->state ? -1 : 0;
	case 'P':
		return a->part_inx < b->part_inx ? -1 : a->part_inx > b->part_inx;
	default: /* 'N' */
		return node_cmp(a->nnodes ? a->nodes[0]->name : "",
				b->nnodes ? b->nodes[0]->name : "");
	}
}

/* Stable insertion sort: lines are few (partitions x nodes). */
static void sort_pass(struct recs *rs, char key)
{
	for (size_t i = 1; i < rs->n; i++) {
		struct rec *x = rs->v[i];
		size_t j = i;
		while (j > 0 && key_cmp(key, rs->v[j - 1], x) > 0) {
			rs->v[j] = rs->v[j - 1];
			j--;
		}
		rs->v[j] = x;
	}
}

/* ---- printing ---- */

static int render(const struct sl_sinfo_fmt *f, const struct rec *r, int pw, int nw,
		  struct sl_buf *b)
{
	char val[8192];
	int rc = sl_buf_addstr(b, f->prefix);

	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		const struct item *it = &f->items[i];
		int width = it->width, cut = 1;
		if (it->f == NULL) {
			rc = sl_buf_addstr(b, it->suffix);
			continue;
		}
		if ((it->f->flags & F_PARTWIDTH) && pw)
			width = pw;
		if ((it->f->flags & F_NODEWIDTH) && nw)
			width = nw;
		if (r == NULL) {
			snprintf(val, sizeof(val), "%s", it->f->header);
			cut = !(it->f->flags & F_HEADER_NOCUT);
		} else {
			it->f->print(r, val, sizeof(val));
			if ((it->f->flags & F_STAR) && r->part->is_default) {
				size_t l = strlen(val);
				if (width == 0 || (int)l < width) {
					if (l + 1 < sizeof(val))
						memcpy(val + l, "*", 2);
				} else {
					val[width - 1] = '*';
				}
			}
		}
		rc = sinfo_cell(b, val, width, it->right, cut);
		if (rc == 0)
			rc = sl_buf_addstr(b, it->suffix);
	}
	return rc ? rc : sl_buf_addc(b, '\n');
}

int sl_sinfo_print(const struct sl_sinfo_fmt *f, const struct sl_sinfo_view *v, int64_t now,
		   struct sl_buf *out)
{
	struct recs rs = {0};
	int pw = 0, nw = 0, r = 0;

	build(f, v, &rs);
	if (f->o.node_flag) {
		sort_pass(&rs, 'N');
	} else {
		sort_pass(&rs, 't');
		sort_pass(&rs, 'P');
	}
	for (size_t i = 0; i < rs.n; i++) {
		struct rec *x = rs.v[i];
		const char **names = sl_xcalloc(x->nnodes + 1, sizeof(*names));
		for (size_t k = 0; k < x->nnodes; k++)
			names[k] = x->nodes[k]->name;
		x->nodelist = x->nnodes ? sl_hostlist_compress((char *const *)names, x->nnodes)
					: sl_xstrdup("");
		free(names);
		pw = MAX(pw, (int)(strlen(x->part->name) + (x->part->is_default ? 1 : 0)));
		nw = MAX(nw, (int)strlen(x->nodelist));
	}
	pw = f->part_width ? MAX(pw, 9) : 0;
	nw = f->node_width ? MAX(nw, 9) : 0;
	if ((f->o.long_output || f->o.iterate) && !f->o.no_header) {
		time_t t = (time_t)now;
		char tb[64];
		r = sl_buf_addstr(out, ctime_r(&t, tb));
	}
	if (r == 0 && f->o.cluster != NULL && !f->o.no_header)
		r = sl_buf_addf(out, "CLUSTER: %s\n", f->o.cluster);
	if (r == 0 && !f->o.no_header)
		r = render(f, NULL, pw, nw, out);
	for (size_t i = 0; r == 0 && i < rs.n; i++)
		r = render(f, rs.v[i], pw, nw, out);
	recs_free(&rs);
	return r;
}
