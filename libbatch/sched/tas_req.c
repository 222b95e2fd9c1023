/* tas_req.c - a job's topology request in Slurm's spelling, onto Kueue's
 * pod set constraints (pure: no I/O).
 *   --topology=LEVEL | required:LEVEL | preferred:LEVEL | unconstrained
 *              [,slice:LEVEL:SIZE]...  (more slices: Kueue's multi-layer
 *              constraints, each inside the one before)
 *   --switches=N[@TIME]
 * Slurm's --switches counts leaf switches; the leaf switch of a Kueue
 * topology is its lowest level above the hosts. One switch without a wait
 * is Kueue's required, anything looser (more switches, or a time after
 * which Slurm gives up on the count) is preferred: Kueue packs a preferred
 * pod set into as few domains as it can and never waits for a better one,
 * so a wait time is not kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched.h"

static int bad(struct sl_err *err)
{
	return sl_err_set(err, SL_EINVAL, "Invalid --topology specification");
}

/* Copy s[0..n) into buf at *used; NULL when it does not fit or is empty. */
static const char *keep(const char *s, size_t n, char *buf, size_t cap, size_t *used)
{
	if (n == 0 || *used + n + 1 > cap)
		return NULL;
	char *d = buf + *used;
	memcpy(d, s, n);
	d[n] = '\0';
	*used += n + 1;
	return d;
}

static int slice(const char *s, size_t n, struct sl_sched_topo_req *t, char *buf, size_t cap,
		 size_t *used, struct sl_err *err)
{
	const char *c = memchr(s, ':', n);
	if (!c)
		return bad(err);
	char num[16], *end;
	size_t ln = (size_t)(s + n - c - 1);
	if (ln == 0 || ln >= sizeof(num))
		return bad(err);
	memcpy(num, c + 1, ln);
	num[ln] = '\0';
	long v = strtol(num, &end, 10);
	if (*end || v < 1 || v > 1000000)
		return bad(err);
	t->slice_size = (int32_t)v;
	if (!(t->slice_level = keep(s, (size_t)(c - s), buf, cap, used)))
		return bad(err);
	return 0;
}

/* A slice after the first: an inner layer (in layers[], maxl at most). */
static int more_slice(const char *s, size_t n, struct sl_sched_topo_req *t,
		      struct sl_sched_topo_layer *layers, size_t maxl, char *buf, size_t cap,
		      size_t *used, struct sl_err *err)
{
	if (!t->slice_level)
		return slice(s, n, t, buf, cap, used, err);
	if (!layers || t->nlayers >= maxl)
		return bad(err);
	struct sl_sched_topo_req in = {0};
	int r = slice(s, n, &in, buf, cap, used, err);
	if (r)
		return r;
	layers[t->nlayers++] = (struct sl_sched_topo_layer){in.slice_level, in.slice_size};
	t->layers = layers;
	return 0;
}

int sl_sched_topo_parse(const char *spec, int switches, int64_t wait4switch,
			struct sl_sched_topo_req *out, struct sl_sched_topo_layer *layers, size_t maxl,
			char *buf, size_t cap, struct sl_err *err)
{
	size_t used = 0;
	memset(out, 0, sizeof(*out));
	if ((!spec || !*spec) && switches <= 0)
		return 1;
	if (spec && *spec && switches > 0)
		return sl_err_set(err, SL_EINVAL, "--switches and --topology are mutually exclusive");
	if (switches > 0) {
		/* level NULL: the leaf switch level of the flavor's topology */
		out->mode = switches == 1 && wait4switch <= 0 ? SL_TOPO_REQUIRED : SL_TOPO_PREFERRED;
		return 0;
	}
	for (const char *p = spec; *p;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int r = 0;
		if (p != spec) {
			if (n < 6 || strncmp(p, "slice:", 6) != 0)
				return bad(err);
			r = more_slice(p + 6, n - 6, out, layers, maxl, buf, cap, &used, err);
		} else if (n == 13 && strncmp(p, "unconstrained", 13) == 0) {
			out->mode = SL_TOPO_UNCONSTRAINED;
		} else if (n > 9 && strncmp(p, "required:", 9) == 0) {
			out->mode = SL_TOPO_REQUIRED;
			r = (out->level = keep(p + 9, n - 9, buf, cap, &used)) ? 0 : bad(err);
		} else if (n > 10 && strncmp(p, "preferred:", 10) == 0) {
			out->mode = SL_TOPO_PREFERRED;
			r = (out->level = keep(p + 10, n - 10, buf, cap, &used)) ? 0 : bad(err);
		} else if (n > 6 && strncmp(p, "slice:", 6) == 0) {
			r = slice(p + 6, n - 6, out, buf, cap, &used, err);
		} else {
			out->mode = SL_TOPO_REQUIRED;
			r = n && !memchr(p, ':', n) && (out->level = keep(p, n, buf, cap, &used))
				    ? 0 : bad(err);
		}
		if (r)
			return r;
		p += n + (e != NULL);
		if (e && !*p)
			return bad(err);
	}
	return 0;
}
