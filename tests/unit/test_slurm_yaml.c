/* test_slurm_yaml.c - the --yaml and --json serializers (slurm_yaml.c,
 * slurm_json.c's sl_json_emit) against real Slurm 22.05: documents that
 * squeue, sacct and sinfo printed with --json and, at the same moment,
 * --yaml (tests/data/json/{squeue,sacct,sinfo}_pair.*, times masked alike). The JSON
 * read back and written again is the same bytes; written as YAML it is
 * what --yaml printed: tags, quoting, line breaks, and slurmctld's empty
 * strings as null where slurmdbd's stay strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "slurm_json.h"
#include "xalloc.h"

/* tests/data/json/NAME (tl_output() reads tests/data/output/). */
static char *slurp(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "../json/%s", name);
	return tl_output(path);
}

static void pair(const char *json_file, const char *yaml_file, int empty_null)
{
	char *json = slurp(json_file), *yaml = slurp(yaml_file);
	struct sl_buf *b = sl_buf_new(1 << 24);

	assert_int_equal(sl_json_emit(json_tokener_parse(json), b), 0);
	assert_string_equal(sl_buf_str(b), json);
	sl_buf_reset(b);
	assert_int_equal(sl_yaml_emit(json_tokener_parse(json), empty_null, b), 0);
	assert_string_equal(sl_buf_str(b), yaml);
	sl_buf_free(b);
	free(json);
	free(yaml);
}

static void test_squeue_pair(void **state)
{
	(void)state;
	pair("squeue_pair.json", "squeue_pair.yaml", 1);
}

static void test_sacct_pair(void **state)
{
	(void)state;
	pair("sacct_pair.json", "sacct_pair.yaml", 0);
}

static void test_sinfo_pair(void **state)
{
	(void)state;
	pair("sinfo_pair.json", "sinfo_pair.yaml", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_squeue_pair),
		cmocka_unit_test(test_sacct_pair),
		cmocka_unit_test(test_sinfo_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
