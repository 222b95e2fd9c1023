/* fuzz_slurm_time.c - Slurm's time syntaxes (compat/slurm_time.c): -t
 * limits and parse_time's timestamps (ahead and back) parsed, and every
 * printer given the parsed values and the input's first bytes as a raw
 * number. */
#include "fuzz.h"

#include "slurm_time.h"

static void print_all(int64_t v)
{
	char buf[64];

	sl_slurm_time_fmt_limit(v, buf, sizeof(buf));
	sl_slurm_time_fmt_limit_sacct(v, buf, sizeof(buf));
	sl_slurm_time_fmt_elapsed(v, buf, sizeof(buf));
	sl_slurm_time_fmt_elapsed_sacct(v, buf, sizeof(buf));
	sl_slurm_time_fmt_ts(v, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_str(data, size > 256 ? 256 : size);
	int64_t v = 0;
	int pos;

	if (sl_slurm_time_parse_limit(s, &v) == 0)
		print_all(v);
	for (int past = 0; past < 2; past++)
		if (sl_slurm_time_parse(s, 1700000000, past, &v, &pos) == 0)
			print_all(v);
	if (size >= sizeof(v)) {
		memcpy(&v, data, sizeof(v));
		print_all(v);
	}
	free(s);
	return 0;
}
