/* test_slurm_pattern.c - file name patterns against Slurm 22.05's output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "slurm_pattern.h"

static struct sl_pattern_ctx ctx(void)
{
	struct sl_pattern_ctx c = {
		.job_id = 13, .array_job_id = 0, .array_task_id = SL_PATTERN_NO_TASK,
		.job_name = "pat", .user = "alice", .host = "vm",
		.node_id = 0, .task_id = 0, .work_dir = "/home/alice/ref",
	};
	return c;
}

static void expect(const struct sl_pattern_ctx *c, const char *pat, const char *want)
{
	char *got = sl_slurm_pattern_expand(pat, c);
	assert_string_equal(got, want);
	free(got);
}

/* The exact file name real Slurm created (reference Part 2, job 13). */
static void test_reference(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "pat-%j-%x-%u-%N-%n-%t-%%-%A-%a.out",
	       "/home/alice/ref/pat-13-pat-alice-vm-0-0-%-13-4294967294.out");
}

static void test_default_and_absolute(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "slurm-%j.out", "/home/alice/ref/slurm-13.out");
	expect(&c, "/tmp/o-%j", "/tmp/o-13");
	c.work_dir = "/home/alice/ref/";
	expect(&c, "x", "/home/alice/ref/x");
	c.work_dir = NULL;
	expect(&c, "x-%j", "x-13");
}

static void test_array(void **state)
{
	struct sl_pattern_ctx c = ctx();
	c.job_id = 24;
	c.array_job_id = 22;
	c.array_task_id = 1;
	expect(&c, "slurm-%A_%a.out", "/home/alice/ref/slurm-22_1.out");
	expect(&c, "%j", "/home/alice/ref/24");
}

static void test_width(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "/o-%5j", "/o-00013");
	expect(&c, "/o-%3t-%2n", "/o-000-00");
	expect(&c, "/o-%12j", "/o-0000000013"); /* capped at 10 */
	expect(&c, "/o-%4x", "/o-pat");         /* no width for strings */
	expect(&c, "/o-%5z", "/o-5z");          /* Slurm keeps the last digit */
	expect(&c, "/o-%5", "/o-5");
}

static void test_literal_and_unknown(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "/a%%j", "/a%j");
	expect(&c, "/a%%%j", "/a%13");
	expect(&c, "/a%z%q", "/a%z%q");
	expect(&c, "/a%", "/a%");
	expect(&c, "/%j%j%J", "/131313");
	expect(&c, "/end%x", "/endpat");
	expect(&c, "/q-%8j-%s", "/q-00000013-batch"); /* the batch step's %s */
}

static void test_escape(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "/o\\-%j", "/o-%j");
	expect(&c, "/o\\\\%j", "/o\\%j");
	expect(&c, "o\\%x", "/home/alice/ref/o%x");
}

static void test_single_task(void **state)
{
	struct sl_pattern_ctx c = ctx();
	expect(&c, "3", "/dev/null");
	expect(&c, "0", "/home/alice/ref/0");
}

static void test_null_strings(void **state)
{
	struct sl_pattern_ctx c = ctx();
	c.job_name = NULL;
	expect(&c, "/%x", "/(null)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_default_and_absolute),
		cmocka_unit_test(test_array),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_literal_and_unknown),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_single_task),
		cmocka_unit_test(test_null_strings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
