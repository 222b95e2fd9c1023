/* fuzz_scontrol_update.c - `scontrol update`'s words (compat/scontrol_update.c):
 * each input line is one argument after "update", as the shell would pass
 * it; what parses has its JobId list read as scontrol reads it. */
#include "fuzz.h"

#include "buf.h"
#include "scontrol_fmt.h"
#include "xalloc.h"

#define MAX_WORDS 64
#define NOW 1795257000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 1], *s, *line, *save = NULL, **ids = NULL;
	struct sl_update_field *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *notes;
	const char *jobs = NULL;
	size_t n = 0, nids = 0;
	int argc = 0, rc;

	if (size > 65536)
		return 0;
	s = fz_str(data, size);
	for (line = strtok_r(s, "\n", &save); line != NULL && argc < MAX_WORDS;
	     line = strtok_r(NULL, "\n", &save))
		argv[argc++] = line;
	argv[argc] = NULL;
	notes = sl_buf_new(1 << 16);
	if (sl_scontrol_update_parse(argc, argv, NOW, &jobs, &f, &n, &rc, notes, &err) == 0 &&
	    jobs != NULL && sl_scontrol_job_list(jobs, &ids, &nids) == 0)
		sl_strv_free(ids);
	free(f);
	sl_buf_free(notes);
	free(s);
	return 0;
}
