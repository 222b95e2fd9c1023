/* fuzz_hostlist.c - Slurm hostlists ("n[1-4,7]", compat/hostlist.c): what
 * expands compresses to a list that expands again, and compressing that
 * gives the same text. */
#include "fuzz.h"

#include "hostlist.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_str(data, size > 4096 ? 4096 : size), *c1 = NULL, *c2 = NULL;
	char **names = NULL, **again = NULL;
	struct sl_err err = SL_ERR_INIT;
	size_t n = 0, m = 0;

	if (sl_hostlist_expand(s, &names, &n, &err) == 0) {
		c1 = sl_hostlist_compress(names, n);
		if (sl_hostlist_expand(c1, &again, &m, &err) != 0)
			abort();
		c2 = sl_hostlist_compress(again, m);
		if (strcmp(c1, c2) != 0)
			abort();
	}
	sl_strv_free(names);
	sl_strv_free(again);
	free(c1);
	free(c2);
	free(s);
	return 0;
}
