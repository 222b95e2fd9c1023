/* fuzz_sacct_fmt.c - sacct's -o field lists ("JobID,JobName%30", compat/
 * sacct_fmt.c over slurm_fmt.c) on job records, in every output mode, with
 * and without the batch step. Line 1: the fields; then records. */
#include "fuzz_jobs.h"

#include "sacct_fmt.h"

#define NOW 1795260000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum sl_sacct_mode modes[] = {SL_SACCT_TABLE, SL_SACCT_PARSABLE,
						   SL_SACCT_PARSABLE2};
	const char *p = (const char *)data, *end = p + size;
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	char *fields;
	size_t n = 0;

	if (size > FZ_MAX_INPUT)
		return 0;
	fields = fz_line(&p, end);
	v = fz_jobs(p, end, &n);
	if (sl_sacct_fmt_new(fields, &f, &err) == 0) {
		struct sl_buf *b = sl_buf_new(1u << 26);
		for (size_t m = 0; m < 3; m++) {
			(void)sl_sacct_fmt_header(f, modes[m], b);
			for (size_t i = 0; v != NULL && i < n; i++) {
				(void)sl_sacct_fmt_job(f, v[i], modes[m], 1, NOW, b);
				(void)sl_sacct_batch_state(v[i]);
			}
		}
		sl_buf_free(b);
		sl_sacct_fmt_free(f);
	}
	sl_job_free_array(v, n);
	free(fields);
	return 0;
}
