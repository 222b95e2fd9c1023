/* replay_trace.c - the trace a replay runs: jobs and the names they use,
 * interned once so that a million jobs by a few hundred users stay small. */
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "xalloc.h"

struct sl_replay_trace *sl_replay_trace_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_replay_trace));
}

void sl_replay_trace_free(struct sl_replay_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
	free(t->hash);
	free(t->jobs);
	free(t->first_skip);
	free(t);
}

static size_t hash_of(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void rehash(struct sl_replay_trace *t)
{
	free(t->hash);
	t->hcap = t->hcap ? 2 * t->hcap : 256;
	t->hash = sl_xcalloc(t->hcap, sizeof(*t->hash));
	for (size_t i = 0; i < t->nnames; i++) {
		size_t h = hash_of(t->names[i]) & (t->hcap - 1);
		while (t->hash[h])
			h = (h + 1) & (t->hcap - 1);
		t->hash[h] = (uint32_t)i + 1;
	}
}

uint32_t sl_replay_trace_name(struct sl_replay_trace *t, const char *name)
{
	if (2 * (t->nnames + 1) > t->hcap)
		rehash(t);
	size_t h = hash_of(name) & (t->hcap - 1);
	while (t->hash[h]) {
		if (strcmp(t->names[t->hash[h] - 1], name) == 0)
			return t->hash[h] - 1;
		h = (h + 1) & (t->hcap - 1);
	}
	if (t->nnames == t->capnames) {
		t->capnames = t->capnames ? 2 * t->capnames : 64;
		t->names = sl_xrealloc(t->names, t->capnames * sizeof(*t->names));
	}
	t->names[t->nnames] = sl_xstrdup(name);
	t->hash[h] = (uint32_t)t->nnames + 1;
	return (uint32_t)t->nnames++;
}

void sl_replay_trace_add(struct sl_replay_trace *t, const struct sl_replay_job *j)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->jobs = sl_xrealloc(t->jobs, t->cap * sizeof(*t->jobs));
	}
	t->jobs[t->n++] = *j;
}
