/* scontrol_cmd.c - scontrol's words: the verbs and `show` entities it
 * knows (Slurm's abbreviations: case does not matter, a prefix of a
 * minimum length will do), the wording of a refused verb on a job, and the
 * host lists of `show hostnames|hostlist|hostlistsorted`, which need no
 * daemon. bin/scontrol.c makes the calls. */
#include "scontrol_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "xalloc.h"

static const struct sl_scontrol_verb verbs[] = {
	{"show", 3, SL_SC_SHOW, 0, 0},
	{"hold", 4, SL_SC_CONTROL, SL_CTL_HOLD, 1},
	{"uhold", 5, SL_SC_CONTROL, SL_CTL_UHOLD, 1},
	{"release", 7, SL_SC_CONTROL, SL_CTL_RELEASE, 1},
	{"requeue", 7, SL_SC_CONTROL, SL_CTL_REQUEUE, 0},
	{"requeuehold", 11, SL_SC_CONTROL, SL_CTL_REQUEUE_HOLD, 0},
	{"top", 3, SL_SC_CONTROL, SL_CTL_TOP, 0},
	{"suspend", 7, SL_SC_CONTROL, SL_CTL_SUSPEND, 0},
	{"resume", 6, SL_SC_CONTROL, SL_CTL_RESUME, 0},
	{"update", 1, SL_SC_UPDATE, 0, 0},
	{"ping", 2, SL_SC_PING, 0, 0},
	{"reconfigure", 3, SL_SC_RECONFIGURE, 0, 0},
	{"version", 4, SL_SC_VERSION, 0, 0},
	{"write", 5, SL_SC_WRITE, 0, 0},
};

static const struct {
	const char *name;
	size_t min;
	enum sl_scontrol_entity e;
} entities[] = {
	{"jobs", 1, SL_SC_JOB}, {"jobid", 4, SL_SC_JOB}, {"partitions", 1, SL_SC_PARTITION},
	{"nodes", 1, SL_SC_NODE}, {"config", 1, SL_SC_CONFIG}, {"hostnames", 5, SL_SC_HOSTNAMES},
	{"hostlist", 8, SL_SC_HOSTLIST}, {"hostlistsorted", 14, SL_SC_HOSTLIST_SORTED},
	{"steps", 2, SL_SC_STEP},
};

/* word is name, or a prefix of it at least min long, in any case. */
static int is(const char *word, const char *name, size_t min)
{
	size_t n = strlen(word);
	return n >= min && n <= strlen(name) && strncasecmp(word, name, n) == 0;
}

const struct sl_scontrol_verb *sl_scontrol_verb(const char *word)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (is(word, verbs[i].name, verbs[i].min))
			return &verbs[i];
	return NULL;
}

enum sl_scontrol_entity sl_scontrol_entity(const char *word)
{
	for (size_t i = 0; i < sizeof(entities) / sizeof(entities[0]); i++)
		if (is(word, entities[i].name, entities[i].min))
			return entities[i].e;
	return SL_SC_NO_ENTITY;
}

const char *sl_scontrol_reason(const char *msg, char *buf, size_t len)
{
	const char *last = strrchr(msg, '\n');
	char *p;
	snprintf(buf, len, "%s", last ? last + 1 : msg);
	if ((p = strstr(buf, " for job ")) != NULL)
		*p = '\0';
	return buf;
}

void sl_scontrol_why(const struct sl_scontrol_verb *v, int rc, const struct sl_err *err,
		     char *why, size_t len)
{
	if (rc == -SL_ENOENT) /* Slurm's words for suspend and resume are odd, and its */
		snprintf(why, len, "%s", v->op == SL_CTL_SUSPEND || v->op == SL_CTL_RESUME
			 ? "Unexpected message received" : "Invalid job id specified");
	else
		sl_scontrol_reason(err->msg, why, len);
}

int sl_scontrol_hosts(enum sl_scontrol_entity e, const char *list, struct sl_buf *out,
		      struct sl_err *err)
{
	char **names = NULL, *s;
	size_t n = 0;
	int r;

	if (list == NULL || *list == '\0')
		return sl_err_set(err, SL_EINVAL, "host list is empty");
	if ((r = sl_hostlist_expand(list, &names, &n, err)) != 0)
		return r;
	if (e == SL_SC_HOSTNAMES) {
		for (size_t i = 0; i < n; i++)
			sl_buf_addf(out, "%s\n", names[i]);
	} else {
		s = e == SL_SC_HOSTLIST ? sl_hostlist_compress_ordered(names, n)
					: sl_hostlist_compress(names, n);
		sl_buf_addf(out, "%s\n", s);
		free(s);
	}
	sl_strv_free(names);
	return 0;
}
