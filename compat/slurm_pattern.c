/* slurm_pattern.c - Slurm 22.05's batch-step file name expansion
 * (src/slurmd/common/fname.c), rewritten: same quirks, one table. */
#include "slurm_pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

#define PAT_MAX_WIDTH 10
#define PAT_BUF_CAP (1u << 20) /* patterns come from a capped job spec */

enum pat_kind { PAT_NUM, PAT_STR };

struct pat_conv {
	char c;
	enum pat_kind kind;
};

/* Conversions Slurm's batch step knows; %s is the step, "batch" there
 * (srun's steps have theirs put in first, sl_srun_pattern_step). */
static const struct pat_conv pat_convs[] = {
	{'a', PAT_NUM}, {'A', PAT_NUM}, {'j', PAT_NUM}, {'J', PAT_NUM},
	{'n', PAT_NUM}, {'t', PAT_NUM}, {'N', PAT_STR}, {'u', PAT_STR},
	{'x', PAT_STR}, {'s', PAT_STR},
};

static const struct pat_conv *pat_find(char c)
{
	for (size_t i = 0; i < sizeof(pat_convs) / sizeof(pat_convs[0]); i++)
		if (pat_convs[i].c == c)
			return &pat_convs[i];
	return NULL;
}

static uint64_t pat_num(char c, const struct sl_pattern_ctx *x)
{
	switch (c) {
	case 'a':
		return x->array_task_id;
	case 'A': /* the array's id, also for its pending remainder */
		return x->array_job_id != 0 ? x->array_job_id : x->job_id;
	case 'n':
		return x->node_id;
	case 't':
		return x->task_id;
	default: /* j, J */
		return x->job_id;
	}
}

static const char *pat_str(char c, const struct sl_pattern_ctx *x)
{
	const char *s = c == 'N' ? x->host : c == 'u' ? x->user : c == 's' ? "batch" : x->job_name;
	return s ? s : "(null)";
}

static void pat_emit(struct sl_buf *b, const struct pat_conv *pc, unsigned wid,
		     const struct sl_pattern_ctx *x)
{
	if (pc->kind == PAT_STR)
		(void)sl_buf_addstr(b, pat_str(pc->c, x));
	else
		(void)sl_buf_addf(b, "%0*llu", (int)wid, (unsigned long long)pat_num(pc->c, x));
}

/* Slurm's remove_path_slashes: NULL when `p` has no backslash. */
static char *pat_unescape(const char *p)
{
	if (strchr(p, '\\') == NULL)
		return NULL;
	char *out = sl_xmalloc(strlen(p) + 1), *o = out;
	while (*p) {
		if (p[0] == '\\' && p[1] == '\\') {
			*o++ = '\\';
			p += 2;
		} else if (*p == '\\') {
			p++;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* The scan of _create_batch_fname: `q` marks text not yet copied. An unknown
 * conversion is copied as written, except that after a width only the last
 * width digit survives ("%5z" -> "5z"): Slurm does that and we keep it. */
static void pat_scan(struct sl_buf *b, const char *path, const struct sl_pattern_ctx *x)
{
	const char *p = path, *q = path;
	while (*p) {
		if (*p != '%') {
			p++;
			continue;
		}
		if (p[1] == '%') {
			(void)sl_buf_add(b, q, (size_t)(p + 1 - q));
			p += 2;
			q = p;
			continue;
		}
		unsigned wid = 0;
		p++;
		if (isdigit((unsigned char)*p)) {
			(void)sl_buf_add(b, q, (size_t)(p - 1 - q));
			char *end;
			unsigned long w = strtoul(p, &end, 10);
			wid = w > PAT_MAX_WIDTH ? PAT_MAX_WIDTH : (unsigned)w;
			p = end;
			q = p - 1;
			if (*p == '\0')
				break;
		}
		const struct pat_conv *pc = pat_find(*p);
		if (pc != NULL) {
			(void)sl_buf_add(b, q, (size_t)(p - 1 - q));
			pat_emit(b, pc, wid, x);
			q = ++p;
		}
	}
	if (q != p)
		(void)sl_buf_add(b, q, (size_t)(p - q));
}

static int pat_single_task(const char *pat, unsigned task_id)
{
	char *end;
	unsigned long id = strtoul(pat, &end, 10);
	if (*end != '\0')
		return 1; /* not a task selector */
	return id == task_id;
}

char *sl_slurm_pattern_expand(const char *pat, const struct sl_pattern_ctx *x)
{
	if (pat == NULL)
		pat = "";
	if (!pat_single_task(pat, x->task_id))
		return sl_xstrdup("/dev/null");
	struct sl_buf *b = sl_buf_new(PAT_BUF_CAP);
	if (pat[0] != '/' && x->work_dir != NULL && x->work_dir[0] != '\0') {
		(void)sl_buf_addstr(b, x->work_dir);
		size_t n = strlen(x->work_dir);
		if (x->work_dir[n - 1] != '/')
			(void)sl_buf_addc(b, '/');
	}
	char *esc = pat_unescape(pat);
	if (esc != NULL)
		(void)sl_buf_addstr(b, esc);
	else
		pat_scan(b, pat, x);
	free(esc);
	char *out = sl_buf_steal(b);
	sl_buf_free(b);
	return out;
}

/* Replace every `key` (two bytes) in *s by `val`, as xstrsubstituteall. */
static void subst_all(char **s, const char *key, const char *val)
{
	char *p;
	size_t off = 0;

	while ((p = strstr(*s + off, key)) != NULL) {
		size_t at = (size_t)(p - *s);
		char *t = sl_xasprintf("%.*s%s%s", (int)at, *s, val, p + 2);
		free(*s);
		*s = t;
		off = at + strlen(val);
	}
}

char *sl_slurm_pattern_scontrol(const char *pat, const struct sl_pattern_ctx *x)
{
	char *s = sl_xstrdup(pat ? pat : ""), *out, num[24];

	/* _fname_format's order: %A, %a, %j, %u, then %x; each replaced from
	 * the left, again and again, so "%%j" becomes "%<id>" */
	snprintf(num, sizeof(num), "%llu", (unsigned long long)pat_num('A', x));
	subst_all(&s, "%A", num);
	snprintf(num, sizeof(num), "%lu", (unsigned long)x->array_task_id);
	subst_all(&s, "%a", num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)x->job_id);
	subst_all(&s, "%j", num);
	subst_all(&s, "%u", x->user ? x->user : "(null)");
	subst_all(&s, "%x", x->job_name ? x->job_name : "(null)");
	if (s[0] == '/' || x->work_dir == NULL)
		return s;
	out = sl_xasprintf("%s/%s", x->work_dir, s);
	free(s);
	return out;
}
