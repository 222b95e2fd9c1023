/* rlimit.c - the submitting shell's resource limits, recorded and applied. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rlimit.h"
#include "buf.h"
#include "xalloc.h"

static const struct {
	const char *name;
	int resource;
} names[SL_RLIMIT_MAX] = {
	{"CPU", RLIMIT_CPU}, {"FSIZE", RLIMIT_FSIZE}, {"DATA", RLIMIT_DATA},
	{"STACK", RLIMIT_STACK}, {"CORE", RLIMIT_CORE}, {"RSS", RLIMIT_RSS},
	{"NPROC", RLIMIT_NPROC}, {"NOFILE", RLIMIT_NOFILE}, {"MEMLOCK", RLIMIT_MEMLOCK},
	{"AS", RLIMIT_AS},
};

static int name_index(const char *s, size_t len)
{
	for (int i = 0; i < SL_RLIMIT_MAX; i++)
		if (strlen(names[i].name) == len && strncasecmp(names[i].name, s, len) == 0)
			return i;
	return -1;
}

int sl_rlimit_capture(const char *which, char **out, struct sl_err *err)
{
	int want[SL_RLIMIT_MAX] = {0};
	*out = NULL;
	if (which == NULL || strcasecmp(which, "ALL") == 0 || *which == '\0') {
		for (int i = 0; i < SL_RLIMIT_MAX; i++)
			want[i] = 1;
	} else if (strcasecmp(which, "NONE") == 0) {
		return 0;
	} else {
		for (const char *p = which; *p;) {
			size_t len = strcspn(p, ",");
			int i = name_index(p, len);
			if (i < 0)
				return sl_err_set(err, SL_EINVAL, "Bad rlimit name: %.*s\n"
						  "--propagate=%s is not valid.", (int)len, p, which);
			want[i] = 1;
			p += len + (p[len] == ',');
		}
	}
	struct sl_buf *b = sl_buf_new(1024);
	for (int i = 0; i < SL_RLIMIT_MAX; i++) {
		struct rlimit rl;
		if (!want[i] || getrlimit(names[i].resource, &rl) != 0)
			continue;
		if (rl.rlim_cur == RLIM_INFINITY)
			sl_buf_addf(b, "%s%s=inf", sl_buf_len(b) ? "," : "", names[i].name);
		else
			sl_buf_addf(b, "%s%s=%llu", sl_buf_len(b) ? "," : "", names[i].name,
				    (unsigned long long)rl.rlim_cur);
	}
	*out = sl_buf_len(b) ? sl_buf_steal(b) : NULL;
	sl_buf_free(b);
	return 0;
}

int sl_rlimit_parse(const char *text, struct sl_rlimit_set *out, struct sl_err *err)
{
	memset(out, 0, sizeof(*out));
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, ","), nl = strcspn(p, "=");
		int i = nl < len ? name_index(p, nl) : -1;
		char *end;
		unsigned long long v = 0;
		if (i < 0 || out->n == SL_RLIMIT_MAX)
			return sl_err_set(err, SL_EINVAL, "resource limits: bad entry \"%.*s\"", (int)len, p);
		if (len - nl - 1 == 3 && strncmp(p + nl + 1, "inf", 3) == 0) {
			out->value[out->n] = RLIM_INFINITY;
		} else {
			errno = 0;
			v = strtoull(p + nl + 1, &end, 10);
			if (errno || end != p + len || end == p + nl + 1)
				return sl_err_set(err, SL_EINVAL, "resource limits: bad entry \"%.*s\"",
						  (int)len, p);
			out->value[out->n] = (rlim_t)v;
		}
		out->resource[out->n++] = names[i].resource;
		p += len + (p[len] == ',');
	}
	return 0;
}

void sl_rlimit_apply(const struct sl_rlimit_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct rlimit rl;
		if (getrlimit(s->resource[i], &rl) != 0)
			continue;
		rl.rlim_cur = s->value[i] > rl.rlim_max ? rl.rlim_max : s->value[i];
		(void)setrlimit(s->resource[i], &rl);
	}
}
