/* fuzz_squeue_fmt.c - squeue's -o formats and -S sort keys (compat/
 * squeue_fmt.c over slurm_fmt.c's generic %.10i parsing) on job records.
 * Line 1: the format; line 2: the sort keys; then records. */
#include "fuzz_jobs.h"

#include "squeue_fmt.h"

#define NOW 1795260000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct sl_squeue_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	char *fmt, *sort;
	size_t n = 0;

	if (size > FZ_MAX_INPUT)
		return 0;
	fmt = fz_line(&p, end);
	sort = fz_line(&p, end);
	v = fz_jobs(p, end, &n);
	if (sl_squeue_fmt_new(fmt, &f, &err) == 0) {
		struct sl_buf *b = sl_buf_new(1u << 26);
		(void)sl_squeue_fmt_header(f, b);
		if (v != NULL && sl_squeue_sort(v, n, *sort ? sort : NULL, NOW, &err) == 0)
			for (size_t i = 0; i < n; i++) {
				(void)sl_squeue_fmt_job(f, v[i], NOW, b);
				(void)sl_squeue_time_used(v[i], NOW);
			}
		sl_buf_free(b);
		sl_squeue_fmt_free(f);
	}
	sl_job_free_array(v, n);
	free(fmt);
	free(sort);
	return 0;
}
