/* test_slurm_state.c - job ids as Slurm's commands read them: the strict
 * reading (scontrol's verbs, sstat, squeue -s), scontrol show job's "N_",
 * and the strtol reading of squeue -j and sacct -j's array elements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "slurm_state.h"

struct want {
	const char *in;
	int ok;
	uint64_t id;
	long task;
};

static void check(unsigned how, const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t id = 12345;
		long task = 99;
		int r = sl_slurm_jobid_read(w[i].in, how, &id, &task);
		if (!w[i].ok) {
			if (r != -SL_EINVAL)
				fail_msg("how %u: \"%s\" read (%d)", how, w[i].in, r);
			continue;
		}
		if (r != 0 || id != w[i].id || task != w[i].task)
			fail_msg("how %u: \"%s\": got %d %llu_%ld, want %llu_%ld", how, w[i].in, r,
				 (unsigned long long)id, task, (unsigned long long)w[i].id,
				 w[i].task);
	}
}

#define CHECK(how, ...)                                                                 \
	do {                                                                            \
		static const struct want w_[] = {__VA_ARGS__};                          \
		check(how, w_, sizeof(w_) / sizeof(w_[0]));                             \
	} while (0)

static void test_strict(void **state)
{
	uint64_t id;
	long task;
	(void)state;
	CHECK(0, {"5", 1, 5, -1}, {"5_3", 1, 5, 3}, {"007_0", 1, 7, 0},
	      {"5_2147483647", 1, 5, 2147483647}, {"0", 0, 0, 0}, {"", 0, 0, 0}, {"5_", 0, 0, 0},
	      {"5x", 0, 0, 0}, {"5_2147483648", 0, 0, 0}, {"5_[1-3]", 0, 0, 0}, {"5+0", 0, 0, 0},
	      {"-5", 0, 0, 0}, {" 5", 0, 0, 0}, {"99999999999999999999", 0, 0, 0}, {"_3", 0, 0, 0});
	/* sl_slurm_jobid_parse is this reading */
	assert_int_equal(sl_slurm_jobid_parse("5_3", &id, &task), 0);
	assert_int_equal(id, 5);
	assert_int_equal(task, 3);
	assert_int_equal(sl_slurm_jobid_parse("5_", &id, &task), -SL_EINVAL);
}

/* scontrol show job: "N_" is N's task 0; nothing else more. */
static void test_bare_task(void **state)
{
	(void)state;
	CHECK(SL_JOBID_BARE_TASK, {"5_", 1, 5, 0}, {"5", 1, 5, -1}, {"5_3", 1, 5, 3},
	      {"_", 0, 0, 0}, {"0_", 0, 0, 0}, {"5__", 0, 0, 0}, {"5_x", 0, 0, 0}, {"5x", 0, 0, 0});
}

/* squeue -j: strtol's reading, whatever follows the numbers. */
static void test_strtol(void **state)
{
	(void)state;
	CHECK(SL_JOBID_STRTOL, {"5", 1, 5, -1}, {"5_3", 1, 5, 3}, {"5x", 1, 5, -1},
	      {"123+0", 1, 123, -1}, {"123_[1-3]", 1, 123, 0}, {"5_", 1, 5, 0}, {"5_-3", 1, 5, 0},
	      {"5_ 3", 1, 5, 3}, {"5_1x", 1, 5, 1}, {"0", 1, 0, -1},
	      {"5_99999999999", 1, 5, 99999999999L},
	      {"99999999999999999999", 1, UINT64_MAX, -1}, {"abc", 0, 0, 0}, {"", 0, 0, 0},
	      {"+5", 0, 0, 0}, {" 5", 0, 0, 0}, {"_3", 0, 0, 0});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_bare_task),
		cmocka_unit_test(test_strtol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
