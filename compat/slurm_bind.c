/* slurm_bind.c - the binding options' values (slurm_bind.h). Words and
 * messages are Slurm 22.05's (src/common/proc_args.c). */
#include "slurm_bind.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

const char sl_slurm_mem_bind_help[] =
	"Memory bind options:\n"
	"    --mem-bind=         Bind memory to locality domains (ldom)\n"
	"        nosort          avoid sorting pages at startup\n"
	"        sort            sort pages at startup\n"
	"        q[uiet]         quietly bind before task runs (default)\n"
	"        v[erbose]       verbosely report binding before task runs\n"
	"        no[ne]          don't bind tasks to memory (default)\n"
	"        rank            bind by task rank\n"
	"        local           bind to memory local to processor\n"
	"        map_mem:<list>  specify a memory binding for each task\n"
	"                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>\n"
	"        mask_mem:<list> specify a memory binding mask for each tasks\n"
	"                        where <list> is <mask1>,<mask2>,...<maskN>\n"
	"        help            show this help message\n";

static const char *const cpu_words[] = {"q", "quiet", "v", "verbose", "no", "none", "rank",
					"rank_ldom", "sockets", "cores", "threads", "ldoms",
					"boards", NULL};
static const char *const mem_words[] = {"nosort", "sort", "q", "quiet", "v", "verbose", "no",
					"none", "rank", "local", NULL};

static int is_word(const char *const *words, const char *w)
{
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(words[i], w) == 0)
			return 1;
	return 0;
}

/* A list's items: decimal (map_*) or hexadecimal (mask_*), each with an
 * optional "*count" repeat. Slurm names the first character it cannot
 * take. */
static int list_ok(const char *list, int hex, const char *opt, struct sl_err *err)
{
	char *dup = sl_xstrdup(list), *save = NULL;
	int r = 0;
	if (*list == '\0')
		r = sl_err_set(err, SL_EINVAL, "missing list for \"%s<list>\"", opt);
	for (char *t = strtok_r(dup, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		char *p = t, *star = strchr(t, '*');
		if (hex && (strncasecmp(p, "0x", 2) == 0))
			p += 2;
		for (; *p && p != star && r == 0; p++)
			if (hex ? !isxdigit((unsigned char)*p) : !isdigit((unsigned char)*p))
				r = sl_err_set(err, SL_EINVAL, "Failed to validate number: %s, "
					       "the offending character is %c", t, *p);
		for (p = star ? star + 1 : p; star && *p && r == 0; p++)
			if (!isdigit((unsigned char)*p))
				r = sl_err_set(err, SL_EINVAL, "Failed to validate number: %s, "
					       "the offending character is %c", t, *p);
	}
	free(dup);
	return r;
}

static int prefixed(const char *w, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	if (strncasecmp(w, prefix, n) != 0)
		return 0;
	*rest = w + n;
	return 1;
}

static int check_cpu(const char *w, struct sl_err *err)
{
	const char *rest;
	if (is_word(cpu_words, w))
		return 0;
	if (prefixed(w, "map_cpu:", &rest))
		return list_ok(rest, 0, "--cpu-bind=map_cpu:", err);
	if (prefixed(w, "map_ldom:", &rest))
		return list_ok(rest, 0, "--cpu-bind=map_ldom:", err);
	if (prefixed(w, "mask_cpu:", &rest))
		return list_ok(rest, 1, "--cpu-bind=mask_cpu:", err);
	if (prefixed(w, "mask_ldom:", &rest))
		return list_ok(rest, 1, "--cpu-bind=mask_ldom:", err);
	return sl_err_set(err, SL_EINVAL, "unrecognized --cpu-bind argument \"%s\"", w);
}

static int check_mem(const char *w, struct sl_err *err)
{
	const char *rest;
	if (is_word(mem_words, w))
		return 0;
	if (prefixed(w, "map_mem:", &rest))
		return list_ok(rest, 0, "--mem-bind=map_mem:", err);
	if (prefixed(w, "mask_mem:", &rest))
		return list_ok(rest, 1, "--mem-bind=mask_mem:", err);
	return sl_err_set(err, SL_EINVAL, "unrecognized --mem-bind argument \"%s\"", w);
}

/* [verbose,]closest|none|map_gpu:L|mask_gpu:L|per_task:N|single:N */
static int check_gpu(const char *arg, struct sl_err *err)
{
	struct sl_err list = SL_ERR_INIT; /* a list's own message gives way to the option's */
	const char *v = arg, *rest;
	if (strncasecmp(v, "verbose,", 8) == 0)
		v += 8;
	if (strcasecmp(v, "closest") == 0 || strcasecmp(v, "none") == 0)
		return 0;
	if ((prefixed(v, "map_gpu:", &rest) && list_ok(rest, 0, "", &list) == 0) ||
	    (prefixed(v, "mask_gpu:", &rest) && list_ok(rest, 1, "", &list) == 0))
		return 0;
	if ((prefixed(v, "per_task:", &rest) || prefixed(v, "single:", &rest)) && *rest &&
	    strspn(rest, "0123456789") == strlen(rest))
		return 0;
	return sl_err_set(err, SL_EINVAL, "Invalid --gpu-bind argument: gpu:%s", v);
}

/* Words are ","-separated; a map or mask takes the rest of the value as
 * its list (its items are ","-separated too), as Slurm reads it. */
int sl_slurm_bind_check(enum sl_bind_kind kind, const char *arg, struct sl_err *err)
{
	const char *p = arg;
	int r = 0;
	if (kind == SL_BIND_GPU)
		return check_gpu(arg, err);
	while (r == 0 && *p) {
		size_t n = strcspn(p, ",");
		char *w = strncasecmp(p, "map_", 4) == 0 || strncasecmp(p, "mask_", 5) == 0
				  ? sl_xstrdup(p) : sl_xstrndup(p, n);
		if (strcasecmp(w, "help") == 0)
			r = 1;
		else
			r = kind == SL_BIND_CPU ? check_cpu(w, err) : check_mem(w, err);
		p += strlen(w);
		p += *p == ',';
		free(w);
	}
	return r;
}
