/* slurm_freq.c - --cpu-freq and --gpu-freq as Slurm 22.05 reads and
 * prints them (slurm_freq.h). */
#include "slurm_freq.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Slurm's default CpuFreqGovernors. */
#define GOVS_ALLOWED (SL_CPU_FREQ_ONDEMAND | SL_CPU_FREQ_PERFORMANCE | SL_CPU_FREQ_USERSPACE)

static const struct {
	const char *prefix; /* matched case-insensitively on its length, as Slurm */
	uint32_t value;
} govs[] = {
	{"co", SL_CPU_FREQ_CONSERVATIVE}, {"perf", SL_CPU_FREQ_PERFORMANCE},
	{"pow", SL_CPU_FREQ_POWERSAVE},   {"user", SL_CPU_FREQ_USERSPACE},
	{"onde", SL_CPU_FREQ_ONDEMAND},   {"sche", SL_CPU_FREQ_SCHEDUTIL},
}, freqs[] = {
	{"lo", SL_CPU_FREQ_LOW},        {"him1", SL_CPU_FREQ_HIGHM1},
	{"highm1", SL_CPU_FREQ_HIGHM1}, {"hi", SL_CPU_FREQ_HIGH},
	{"med", SL_CPU_FREQ_MEDIUM},
};

static const struct {
	uint32_t value;
	const char *name;
} names[] = {
	{SL_CPU_FREQ_LOW, "Low"},
	{SL_CPU_FREQ_MEDIUM, "Medium"},
	{SL_CPU_FREQ_HIGHM1, "Highm1"},
	{SL_CPU_FREQ_HIGH, "High"},
	{SL_CPU_FREQ_CONSERVATIVE, "Conservative"},
	{SL_CPU_FREQ_PERFORMANCE, "Performance"},
	{SL_CPU_FREQ_POWERSAVE, "PowerSave"},
	{SL_CPU_FREQ_USERSPACE, "UserSpace"},
	{SL_CPU_FREQ_ONDEMAND, "OnDemand"},
	{SL_CPU_FREQ_SCHEDUTIL, "SchedUtil"},
};

static uint32_t check_gov(const char *a)
{
	for (size_t i = 0; i < sizeof(govs) / sizeof(govs[0]); i++)
		if (strncasecmp(a, govs[i].prefix, strlen(govs[i].prefix)) == 0)
			return govs[i].value;
	return 0;
}

/* A frequency in kHz or a name; 0 (with Slurm's line) for neither. Slurm
 * reads the number with strtoul and takes what leads ("12abc" is 12). */
static uint32_t check_freq(const char *a, struct sl_err *err)
{
	for (size_t i = 0; i < sizeof(freqs) / sizeof(freqs[0]); i++)
		if (strncasecmp(a, freqs[i].prefix, strlen(freqs[i].prefix)) == 0)
			return freqs[i].value;
	unsigned long v = strtoul(a, NULL, 10);
	if (v != 0)
		return (uint32_t)v;
	sl_err_set(err, SL_EINVAL, "unrecognized --cpu-freq argument \"%s\"", a);
	return 0;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int sl_slurm_cpu_freq_parse(const char *arg, struct sl_cpu_freq *f, struct sl_err *err)
{
	const char *colon = strchr(arg, ':'), *dash = strchr(arg, '-');
	char *p1, *p2 = NULL, *p3 = colon ? strdup(colon + 1) : NULL;
	uint32_t v;
	int r = -SL_EINVAL;

	*f = (struct sl_cpu_freq){0, 0, 0};
	if (dash != NULL) {
		p1 = dup_n(arg, (size_t)(dash - arg));
		p2 = colon && colon > dash ? dup_n(dash + 1, (size_t)(colon - dash - 1))
					   : strdup(dash + 1);
	} else {
		p1 = colon ? dup_n(arg, (size_t)(colon - arg)) : strdup(arg);
	}
	if (p1 == NULL || (dash && p2 == NULL) || (colon && p3 == NULL)) {
		r = sl_err_set(err, SL_ENOMEM, "out of memory");
		goto out;
	}
	int p1_gov = 0;
	if ((v = check_gov(p1)) != 0) {
		p1_gov = 1;
		if (p3 != NULL) {
			sl_err_set(err, SL_EINVAL, "governor cannot be specified twice %s{-}:%s in "
				   "--cpu-freq", p1, p3);
			goto out;
		}
		f->gov = v;
	} else {
		if ((f->max = check_freq(p1, err)) == 0)
			goto out;
	}
	if (p2 != NULL) {
		if ((v = check_freq(p2, err)) == 0)
			goto out;
		f->min = f->max;
		f->max = v;
		/* a governor first leaves Slurm's maximum at NO_VAL: always above */
		if (f->max < f->min || p1_gov) {
			sl_err_set(err, SL_EINVAL, "min cpu-frec (%s) must be < max cpu-freq (%s)", p1,
				   p2);
			goto out;
		}
	}
	if (p3 != NULL) {
		if (p2 == NULL) {
			sl_err_set(err, SL_EINVAL, "gov on cpu-frec (%s) illegal without max", p3);
			goto out;
		}
		if ((f->gov = check_gov(p3)) == 0) {
			sl_err_set(err, SL_EINVAL, "illegal governor: %s on --cpu-freq", p3);
			goto out;
		}
	}
	r = 0;
out:
	/* Slurm checks the governor against CpuFreqGovernors whatever went
	 * before, and that line is the one left */
	if (f->gov != 0 && (f->gov & GOVS_ALLOWED & ~SL_CPU_FREQ_RANGE_FLAG) == 0) {
		if (r != 0 && err != NULL && err->msg[0] != '\0') {
			char first[sizeof(err->msg)];
			snprintf(first, sizeof(first), "%s", err->msg);
			err->code = 0; /* sl_err_set keeps a first error */
			sl_err_set(err, SL_EINVAL, "%s\ngovernor of %s is not allowed in slurm.conf",
				   first, arg);
		} else {
			sl_err_set(err, SL_EINVAL, "governor of %s is not allowed in slurm.conf", arg);
		}
		r = -SL_EINVAL;
		f->gov = 0;
	}
	free(p1);
	free(p2);
	free(p3);
	return r;
}

static void name(uint32_t v, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].value == v) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	if (v & SL_CPU_FREQ_RANGE_FLAG)
		snprintf(buf, len, "Unknown");
	else
		snprintf(buf, len, "%u", v);
}

void sl_slurm_cpu_freq_value(uint32_t v, char *buf, size_t len)
{
	static const char units[] = "KMGTP";
	double num = v;
	int u = 0;

	if (v == 0) {
		snprintf(buf, len, "Unknown");
		return;
	}
	if (v & SL_CPU_FREQ_RANGE_FLAG) {
		name(v, buf, len);
		return;
	}
	while (num >= 1000 && u < 4) { /* convert_num_unit2, divisor 1000, from kHz */
		num /= 1000;
		u++;
	}
	if (num == (double)(uint64_t)num)
		snprintf(buf, len, "%llu%c", (unsigned long long)num, units[u]);
	else
		snprintf(buf, len, "%.2f%c", num, units[u]);
}

void sl_slurm_cpu_freq_cmdline(const struct sl_cpu_freq *f, char *buf, size_t len)
{
	char mn[32], mx[32], gv[32];
	name(f->min, mn, sizeof(mn));
	name(f->max, mx, sizeof(mx));
	name(f->gov, gv, sizeof(gv));
	if (f->min && f->max && f->gov)
		snprintf(buf, len, "%s-%s:%s", mn, mx, gv);
	else if (f->min && f->max)
		snprintf(buf, len, "%s-%s", mn, mx);
	else if (f->max)
		snprintf(buf, len, "%s", mx);
	else if (f->gov)
		snprintf(buf, len, "%s", gv);
	else if (len > 0)
		buf[0] = '\0';
}

/* cpu_freq_debug without a current frequency: each part followed by its
 * separator when the next part's own value is set, as Slurm's sep2 and
 * sep3 fall (so a lone maximum keeps a trailing space). */
void sl_slurm_cpu_freq_show(const struct sl_cpu_freq *f, char *buf, size_t len)
{
	char mn[48] = "", mx[48] = "", gv[48] = "", v[32];
	if (f->min) {
		name(f->min, v, sizeof(v));
		snprintf(mn, sizeof(mn), "CPU_min_freq=%s", v);
	}
	if (f->max) {
		name(f->max, v, sizeof(v));
		snprintf(mx, sizeof(mx), "CPU_max_freq=%s", v);
	}
	if (f->gov) {
		name(f->gov, v, sizeof(v));
		snprintf(gv, sizeof(gv), "Governor=%s", v);
	}
	if (!f->min && !f->max && !f->gov) {
		if (len > 0)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s", mn, f->min ? " " : "", mx, f->max ? " " : "", gv);
}

static int gpu_value(const char *a)
{
	if (*a >= '0' && *a <= '9') {
		char *end;
		long v = strtol(a, &end, 10);
		return v == LONG_MAX || v < 0 || *end != '\0' ? -SL_EINVAL : 0;
	}
	return strcmp(a, "low") && strcmp(a, "medium") && strcmp(a, "high") && strcmp(a, "highm1")
		       ? -SL_EINVAL : 0;
}

int sl_slurm_gpu_freq_check(const char *arg)
{
	char *tmp, *save = NULL;
	int r = 0;

	if (arg == NULL || *arg == '\0' || (tmp = strdup(arg)) == NULL)
		return -SL_EINVAL;
	for (char *tok = strtok_r(tmp, ",", &save); tok && r == 0; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (eq == NULL) {
			r = gpu_value(tok);
			if (r != 0 && strcmp(tok, "verbose") == 0)
				r = 0;
		} else {
			*eq = '\0';
			r = strcmp(tok, "memory") == 0 ? gpu_value(eq + 1) : -SL_EINVAL;
		}
	}
	free(tmp);
	return r; /* no token at all (",") passes, as Slurm's _valid_gpu_freq lets it */
}
