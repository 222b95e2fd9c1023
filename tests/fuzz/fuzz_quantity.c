/* fuzz_quantity.c - Kubernetes quantities ("500m", "32Gi", "1e3") as the
 * config's quotas are written (libbatch/quantity.c). Whatever parses must
 * print back to a text that parses to the same value. */
#include "fuzz.h"

#include "quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_str(data, size > 256 ? 256 : size), buf[64];
	int64_t v, w;

	if (sl_quantity_parse(s, &v) == 0) {
		sl_quantity_format(v, buf, sizeof(buf));
		if (sl_quantity_parse(buf, &w) != 0 || w != v)
			abort();
	}
	free(s);
	return 0;
}
