/* test_slurm_freq.c - --cpu-freq and --gpu-freq values, each case as the
 * reference Slurm 22.05's sbatch answered it: the message (its first
 * lines, before "Invalid --cpu-freq argument"), SLURM_CPU_FREQ_REQ as the
 * job saw it, and scontrol show job's line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "slurm_freq.h"

static const struct {
	const char *arg;
	const char *msg;  /* refused: the message; taken: NULL */
	const char *env;  /* SLURM_CPU_FREQ_REQ */
	const char *show; /* scontrol's line */
} cpu[] = {
	{"High", NULL, "High", "CPU_max_freq=High "},
	{"performance", NULL, "Performance", "Governor=Performance"},
	{"userspace", NULL, "UserSpace", "Governor=UserSpace"},
	{"2000000", NULL, "2000000", "CPU_max_freq=2000000 "},
	{"1000-2000:performance", NULL, "1000-2000:Performance",
	 "CPU_min_freq=1000 CPU_max_freq=2000 Governor=Performance"},
	{"Low-Medium", NULL, "Low-Medium", "CPU_min_freq=Low CPU_max_freq=Medium "},
	{"medium", NULL, "Medium", "CPU_max_freq=Medium "},
	{"highm1", NULL, "Highm1", "CPU_max_freq=Highm1 "},
	{"him1", NULL, "Highm1", "CPU_max_freq=Highm1 "},
	{"lowest", NULL, "Low", "CPU_max_freq=Low "},
	{"12abc", NULL, "12", "CPU_max_freq=12 "},
	{"foo", "unrecognized --cpu-freq argument \"foo\"", NULL, NULL},
	{"", "unrecognized --cpu-freq argument \"\"", NULL, NULL},
	{"0", "unrecognized --cpu-freq argument \"0\"", NULL, NULL},
	{"1000-", "unrecognized --cpu-freq argument \"\"", NULL, NULL},
	{"-1000", "unrecognized --cpu-freq argument \"\"", NULL, NULL},
	{"abc-2000", "unrecognized --cpu-freq argument \"abc\"", NULL, NULL},
	{"1000-abc", "unrecognized --cpu-freq argument \"abc\"", NULL, NULL},
	{"High-Low", "min cpu-frec (High) must be < max cpu-freq (Low)", NULL, NULL},
	{"High-Low:perf", "min cpu-frec (High) must be < max cpu-freq (Low)", NULL, NULL},
	{"Low:OnDemand", "gov on cpu-frec (OnDemand) illegal without max", NULL, NULL},
	{"perf:perf", "governor cannot be specified twice perf{-}:perf in --cpu-freq", NULL, NULL},
	{"1000-2000:bogus", "illegal governor: bogus on --cpu-freq", NULL, NULL},
	{"powersave", "governor of powersave is not allowed in slurm.conf", NULL, NULL},
	{"low-high:conservative", "governor of low-high:conservative is not allowed in slurm.conf",
	 NULL, NULL},
	/* two of Slurm's lines, the governor's last */
	{"pow:pow", "governor cannot be specified twice pow{-}:pow in --cpu-freq", NULL, NULL},
	/* a governor first, then a frequency: Slurm's maximum stays NO_VAL */
	{"performance-2000", "min cpu-frec (performance) must be < max cpu-freq (2000)", NULL,
	 NULL},
	{"pow-abc", "unrecognized --cpu-freq argument \"abc\"\n"
		    "governor of pow-abc is not allowed in slurm.conf", NULL, NULL},
};

static void test_cpu_freq(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cpu) / sizeof(cpu[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_cpu_freq f;
		char buf[160];
		int r = sl_slurm_cpu_freq_parse(cpu[i].arg, &f, &err);
		if (cpu[i].msg != NULL) {
			assert_int_equal(r, -SL_EINVAL);
			assert_string_equal(err.msg, cpu[i].msg);
			continue;
		}
		assert_int_equal(r, 0);
		sl_slurm_cpu_freq_cmdline(&f, buf, sizeof(buf));
		assert_string_equal(buf, cpu[i].env);
		sl_slurm_cpu_freq_show(&f, buf, sizeof(buf));
		assert_string_equal(buf, cpu[i].show);
		/* what the job keeps reads back the same */
		struct sl_cpu_freq g;
		sl_slurm_cpu_freq_cmdline(&f, buf, sizeof(buf));
		assert_int_equal(sl_slurm_cpu_freq_parse(buf, &g, NULL), 0);
		assert_memory_equal(&f, &g, sizeof(f));
	}
}

static void test_gpu_freq(void **state)
{
	static const struct {
		const char *arg;
		int ok;
	} gpu[] = {
		{"450", 1}, {"memory=5,low", 1}, {"medium,memory=low,verbose", 1}, {"verbose", 1},
		{"highm1", 1}, {"high", 1}, {"", 0}, {"High", 0}, {"low,foo=1", 0}, {"-5", 0},
		{"foo", 0}, {"12abc", 0}, {"memory=", 0}, {",", 1}, {",,", 1},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(gpu) / sizeof(gpu[0]); i++)
		assert_int_equal(sl_slurm_gpu_freq_check(gpu[i].arg), gpu[i].ok ? 0 : -SL_EINVAL);
}

/* sacct's ReqCPUFreq* values, as the reference cluster printed them. */
static void test_value(void **state)
{
	static const struct {
		uint32_t v;
		const char *text;
	} vals[] = {
		{0, "Unknown"}, {2000000, "2G"}, {1000, "1M"}, {1500, "1.50M"}, {2000, "2M"},
		{SL_CPU_FREQ_LOW, "Low"}, {SL_CPU_FREQ_PERFORMANCE, "Performance"}, {12, "12K"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		char buf[32];
		sl_slurm_cpu_freq_value(vals[i].v, buf, sizeof(buf));
		assert_string_equal(buf, vals[i].text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_freq),
		cmocka_unit_test(test_gpu_freq),
		cmocka_unit_test(test_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
