/* sdiag_fmt.c - sdiag's report (sdiag_fmt.h). sluiced's requests are not
 * slurmctld's RPCs: the by-type table names them REQUEST_<NAME> after
 * Sluice's protocol (PROTOCOL.md), with Sluice's type numbers. */
#include "sdiag_fmt.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "xalloc.h"

#define TEXT_MAX (1u << 20)

struct row {
	uint32_t id;
	const char *name;
	uint64_t count, total, ave;
	size_t seq; /* the daemon's order: ties keep it */
};

static int64_t num(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static json_object *sub(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* slurm_ctime2: ctime(3) without its newline. */
static void ctime2(int64_t t, char *out, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (localtime_r(&tt, &tm) == NULL || strftime(out, n, "%a %b %d %H:%M:%S %Y", &tm) == 0)
		snprintf(out, n, "%lld", (long long)t);
}

static enum sl_sdiag_sort sort_key;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	uint64_t x = 0, y = 0;
	switch (sort_key) {
	case SL_SDIAG_BY_ID: /* ascending */
		if (a->id != b->id)
			return a->id < b->id ? -1 : 1;
		break;
	case SL_SDIAG_BY_TIME:
		x = a->total, y = b->total;
		break;
	case SL_SDIAG_BY_AVE:
		x = a->ave, y = b->ave;
		break;
	default:
		x = a->count, y = b->count;
		break;
	}
	if (x != y)
		return x > y ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static struct row *rows_of(json_object *a, const char *idkey, enum sl_sdiag_sort sort, size_t *n)
{
	size_t len = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	struct row *v = sl_xcalloc(len ? len : 1, sizeof(*v));
	for (size_t i = 0; i < len; i++) {
		json_object *r = json_object_array_get_idx(a, i), *nm = sub(r, "name");
		v[i].id = (uint32_t)num(r, idkey);
		v[i].name = nm ? json_object_get_string(nm) : NULL;
		v[i].count = (uint64_t)num(r, "count");
		v[i].total = (uint64_t)num(r, "time");
		v[i].ave = v[i].count ? v[i].total / v[i].count : 0;
		v[i].seq = i;
	}
	sort_key = sort;
	qsort(v, len, sizeof(*v), cmp_rows);
	*n = len;
	return v;
}

static void header(struct sl_buf *b, json_object *rep)
{
	char now[64], since[64], ts[64];
	int64_t t = num(rep, "now"), s = num(rep, "since");
	json_object *j = sub(rep, "jobs");

	ctime2(t, now, sizeof(now));
	ctime2(s, since, sizeof(since));
	ctime2(t, ts, sizeof(ts));
	sl_buf_addf(b, "*******************************************************\n"
		       "sdiag output at %s (%lld)\n"
		       "Data since      %s (%lld)\n"
		       "*******************************************************\n",
		    now, (long long)t, since, (long long)s);
	sl_buf_addf(b, "Server thread count:  %d\nAgent queue size:     0\n"
		       "Agent count:          0\nAgent thread count:   0\n"
		       "DBD Agent queue size: %d\n\n",
		    (int)num(rep, "threads"), (int)num(rep, "dbd_queue"));
	sl_buf_addf(b, "Jobs submitted: %d\nJobs started:   %d\nJobs completed: %d\n"
		       "Jobs canceled:  %d\nJobs failed:    %d\n\n",
		    (int)num(j, "submitted"), (int)num(j, "started"), (int)num(j, "completed"),
		    (int)num(j, "canceled"), (int)num(j, "failed"));
	sl_buf_addf(b, "Job states ts:  %s (%lld)\nJobs pending:   %d\nJobs running:   %d\n", ts,
		    (long long)t, (int)num(rep, "pending"), (int)num(rep, "running"));
}

static void main_sched(struct sl_buf *b, json_object *rep)
{
	json_object *m = sub(rep, "sched");
	int64_t cycles = num(m, "cycles"), span = num(rep, "now") - num(rep, "since");

	sl_buf_addf(b, "\nMain schedule statistics (microseconds):\n"
		       "\tLast cycle:   %u\n\tMax cycle:    %u\n\tTotal cycles: %u\n",
		    (unsigned)num(m, "last"), (unsigned)num(m, "max"), (unsigned)cycles);
	if (cycles > 0)
		sl_buf_addf(b, "\tMean cycle:   %u\n\tMean depth cycle:  %u\n",
			    (unsigned)(num(m, "sum") / cycles), (unsigned)(num(m, "depth") / cycles));
	if (span > 60)
		sl_buf_addf(b, "\tCycles per minute: %u\n", (unsigned)(cycles / (span / 60)));
	sl_buf_addf(b, "\tLast queue length: %u\n", (unsigned)num(m, "queue_len"));
}

static void backfill(struct sl_buf *b, json_object *rep)
{
	json_object *f = sub(rep, "backfill");
	int64_t cycles = num(f, "cycles"), when = num(f, "when");
	char w[64];

	sl_buf_addf(b, "\nBackfilling stats\n"
		       "\tTotal backfilled jobs (since last slurm start): %u\n"
		       "\tTotal backfilled jobs (since last stats cycle start): %u\n"
		       "\tTotal backfilled heterogeneous job components: 0\n"
		       "\tTotal cycles: %u\n",
		    (unsigned)num(f, "backfilled"), (unsigned)num(f, "backfilled"), (unsigned)cycles);
	if (when > 0) {
		ctime2(when, w, sizeof(w));
		sl_buf_addf(b, "\tLast cycle when: %s (%lld)\n", w, (long long)when);
	} else {
		sl_buf_addf(b, "\tLast cycle when: N/A\n");
	}
	sl_buf_addf(b, "\tLast cycle: %u\n\tMax cycle:  %u\n", (unsigned)num(f, "last"),
		    (unsigned)num(f, "max"));
	if (cycles > 0)
		sl_buf_addf(b, "\tMean cycle: %" PRIu64 "\n", (uint64_t)(num(f, "sum") / cycles));
	/* try-sched depth: every candidate backfill tests is tried at once */
	sl_buf_addf(b, "\tLast depth cycle: %u\n\tLast depth cycle (try sched): %u\n",
		    (unsigned)num(f, "last_depth"), (unsigned)num(f, "last_depth"));
	if (cycles > 0)
		sl_buf_addf(b, "\tDepth Mean: %u\n\tDepth Mean (try depth): %u\n",
			    (unsigned)(num(f, "depth_sum") / cycles),
			    (unsigned)(num(f, "depth_sum") / cycles));
	sl_buf_addf(b, "\tLast queue length: %u\n", (unsigned)num(f, "queue_len"));
	if (cycles > 0)
		sl_buf_addf(b, "\tQueue length mean: %u\n", (unsigned)(num(f, "queue_sum") / cycles));
	/* the table of planned starts is the queue itself (estimate.c) */
	sl_buf_addf(b, "\tLast table size: %u\n", (unsigned)num(f, "queue_len"));
	if (cycles > 0)
		sl_buf_addf(b, "\tMean table size: %u\n", (unsigned)(num(f, "queue_sum") / cycles));
}

static void rpc_tables(struct sl_buf *b, json_object *rep, enum sl_sdiag_sort sort,
		       sl_sdiag_user_fn user, void *arg)
{
	size_t n;
	struct row *v = rows_of(sub(rep, "rpc_types"), "type", sort, &n);

	sl_buf_addf(b, "\nRemote Procedure Call statistics by message type\n");
	for (size_t i = 0; i < n; i++) {
		char name[64] = "REQUEST_";
		size_t k = strlen(name);
		for (const char *p = v[i].name ? v[i].name : "UNKNOWN"; *p && k + 1 < sizeof(name);)
			name[k++] = (char)toupper((unsigned char)*p++);
		name[k] = '\0';
		sl_buf_addf(b, "\t%-40s(%5u) count:%-6u ave_time:%-6u total_time:%" PRIu64 "\n", name,
			    v[i].id, (unsigned)v[i].count, (unsigned)v[i].ave, v[i].total);
	}
	free(v);
	v = rows_of(sub(rep, "rpc_users"), "uid", sort, &n);
	sl_buf_addf(b, "\nRemote Procedure Call statistics by user\n");
	for (size_t i = 0; i < n; i++) {
		const char *u = user ? user(v[i].id, arg) : NULL;
		char id[16];
		snprintf(id, sizeof(id), "%u", v[i].id);
		sl_buf_addf(b, "\t%-16s(%8u) count:%-6u ave_time:%-6u total_time:%" PRIu64 "\n",
			    u ? u : id, v[i].id, (unsigned)v[i].count, (unsigned)v[i].ave, v[i].total);
	}
	free(v);
	/* a request is served whole in the loop turn that reads it */
	sl_buf_addf(b, "\nPending RPC statistics\n\tNo pending RPCs\n");
}

char *sl_sdiag_text(json_object *rep, enum sl_sdiag_sort sort, sl_sdiag_user_fn user, void *arg)
{
	struct sl_buf *b = sl_buf_new(TEXT_MAX);
	char *t;

	header(b, rep);
	main_sched(b, rep);
	backfill(b, rep);
	sl_buf_addf(b, "\nLatency for 1000 calls to gettimeofday(): %d microseconds\n",
		    (int)num(rep, "latency"));
	rpc_tables(b, rep, sort, user, arg);
	t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}
