/* fuzz_job_parse.c - the job codec's reader (libbatch/job_parse.c): a jobs
 * reply, a stored spec and a submit request, each as the daemon or a
 * command reads it. What reads must write back (job_text.c) to text that
 * reads again, and its shape and workload must be computed without
 * overflow: a submitted spec's numbers are anyone's. */
#include "fuzz.h"

#include "buf.h"
#include "job.h"
#include "workload.h"

static struct sl_buf *buf(void)
{
	return sl_buf_new(FZ_MAX_INPUT * 8);
}

static void spec_again(const struct sl_jobspec *s)
{
	struct sl_buf *b = buf();
	struct sl_jobspec back;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobshape sh;

	if (sl_jobspec_text_append(b, s) != 0 ||
	    sl_jobspec_parse(sl_buf_str(b), sl_buf_len(b), &back, &err) != 0)
		abort();
	sl_jobspec_clear(&back);
	sl_buf_free(b);
	sl_jobspec_shape(s, &sh);
	err = (struct sl_err)SL_ERR_INIT;
	(void)sl_jobspec_shape_check(s, &sh, &err);
}

static void jobs(const char *text, size_t len)
{
	struct sl_job **v = NULL, **back = NULL;
	struct sl_err err = SL_ERR_INIT;
	size_t n = 0, m = 0;
	struct sl_buf *b;

	if (sl_job_list_parse(text, len, &v, &n, &err) != 0)
		return;
	b = buf();
	sl_buf_addstr(b, "{\"jobs\":[");
	for (size_t i = 0; i < n; i++) {
		struct sl_jobshape sh;
		struct sl_job_wl wl;
		struct sl_err e2 = SL_ERR_INIT;

		if ((i > 0 && sl_buf_addc(b, ',') != 0) ||
		    sl_job_listing_append_view(b, v[i], i % 2 ? SL_VIEW_OTHERS : SL_VIEW_OWNER) != 0)
			abort();
		sl_job_shape(v[i], &sh);
		(void)sl_job_workload(v[i], NULL, &wl, &e2);
	}
	sl_buf_addstr(b, "]}");
	err = (struct sl_err)SL_ERR_INIT;
	if (sl_job_list_parse(sl_buf_str(b), sl_buf_len(b), &back, &m, &err) != 0 || m != n)
		abort();
	sl_job_free_array(back, m);
	sl_job_free_array(v, n);
	sl_buf_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;

	if (size > FZ_MAX_INPUT)
		return 0;
	jobs(text, size);
	if (sl_jobspec_parse(text, size, &s, &err) == 0) {
		spec_again(&s);
		sl_jobspec_clear(&s);
	}
	err = (struct sl_err)SL_ERR_INIT;
	if (sl_jobspec_parse_request(text, size, &s, &err) == 0) {
		spec_again(&s);
		sl_jobspec_clear(&s);
	}
	return 0;
}
