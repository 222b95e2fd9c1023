/* fuzz_jobs.h - for the format harnesses: the input's first lines are
 * options, the rest job records one per line (tests/data/output's .jsonl),
 * read as the jobs reply the commands receive. */
#ifndef SL_FUZZ_JOBS_H
#define SL_FUZZ_JOBS_H

#include "fuzz.h"

#include "buf.h"
#include "job.h"
#include "xalloc.h"

/* The next line of *p (NUL-terminated copy; caller frees); *p moves on. */
static inline char *fz_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	const char *stop = nl ? nl : end;
	char *line = sl_xstrndup(*p, (size_t)(stop - *p));

	*p = nl ? nl + 1 : end;
	return line;
}

/* The records of [p, end), one per non-empty line, as {"jobs":[...]}.
 * NULL when they do not read (a command would print the error). */
static inline struct sl_job **fz_jobs(const char *p, const char *end, size_t *n)
{
	struct sl_buf *b = sl_buf_new(FZ_MAX_INPUT * 2);
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	int first = 1;

	sl_buf_addstr(b, "{\"jobs\":[");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *stop = nl ? nl : end;

		if (stop > p) {
			if (!first)
				sl_buf_addc(b, ',');
			sl_buf_add(b, p, (size_t)(stop - p));
			first = 0;
		}
		p = nl ? nl + 1 : end;
	}
	sl_buf_addstr(b, "]}");
	if (sl_job_list_parse(sl_buf_str(b), sl_buf_len(b), &v, n, &err) != 0)
		v = NULL;
	sl_buf_free(b);
	return v;
}

#endif
