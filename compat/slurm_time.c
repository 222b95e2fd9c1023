/* slurm_time.c - Slurm's time syntaxes: parsing -t limits and sacct/--begin
 * timestamps, and printing durations and timestamps the way squeue and sacct
 * print them (Slurm's secs2time_str, mins2time_str and parse_time). */
#include "slurm_time.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "err.h"
#include "job.h"

/* Read an unsigned decimal field; *p advances. Caps the value so that a
 * string of nines cannot overflow the sums below. */
static int read_num(const char **p, int64_t *out)
{
	int64_t v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		if (v > 100000000000LL)
			return -1;
		v = v * 10 + (*s - '0');
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

/* Split "a[-b][:c[:d]]" into up to 4 numbers; returns the counts of dashes
 * and colons, or -1 on anything but digits and separators. */
static int split_fields(const char *s, int64_t f[4], int *dashes, int *colons)
{
	int n = 0;

	*dashes = *colons = 0;
	for (;;) {
		if (n == 4 || read_num(&s, &f[n]) != 0)
			return -1;
		n++;
		if (*s == '\0')
			return n;
		if (*s == '-') {
			if (*colons > 0 || *dashes > 0)
				return -1;
			(*dashes)++;
		} else if (*s == ':') {
			if (++(*colons) > 2)
				return -1;
		} else {
			return -1;
		}
		s++;
	}
}

/* Seconds of a limit string, following Slurm's _get_time(): with a dash the
 * fields are D-H[:M[:S]]; without, M, M:S or H:M:S. */
static int limit_secs(const char *s, int64_t *secs)
{
	int64_t f[4] = {0, 0, 0, 0};
	int dashes, colons;
	int n = split_fields(s, f, &dashes, &colons);

	if (n < 0)
		return -1;
	if (dashes) {
		*secs = f[0] * 86400 + f[1] * 3600 + f[2] * 60 + f[3];
	} else if (colons == 2) {
		*secs = f[0] * 3600 + f[1] * 60 + f[2];
	} else {
		*secs = f[0] * 60 + f[1];
	}
	return 0;
}

int sl_slurm_time_parse_limit(const char *s, int64_t *minutes)
{
	int64_t secs;

	if (s == NULL)
		return -SL_EINVAL;
	if (strcmp(s, "-1") == 0 || strcasecmp(s, "INFINITE") == 0 ||
	    strcasecmp(s, "UNLIMITED") == 0) {
		*minutes = SL_TIME_INFINITE;
		return 0;
	}
	if (limit_secs(s, &secs) != 0)
		return -SL_EINVAL;
	*minutes = (secs + 59) / 60;
	return 0;
}

/* Slurm's secs2time_str: "M:SS", "H:MM:SS", "D-HH:MM:SS"; sacct's form
 * (sacct != 0) always has hours, two digits wide: "HH:MM:SS". */
static void fmt_dur(int64_t secs, int sacct, char *buf, size_t len)
{
	long long d, h, m, s;

	if (secs < 0)
		secs = 0;
	d = secs / 86400;
	h = (secs / 3600) % 24;
	m = (secs / 60) % 60;
	s = secs % 60;
	if (d > 0)
		snprintf(buf, len, "%lld-%2.2lld:%2.2lld:%2.2lld", d, h, m, s);
	else if (h > 0 || sacct)
		snprintf(buf, len, "%.*lld:%2.2lld:%2.2lld", sacct ? 2 : 1, h, m, s);
	else
		snprintf(buf, len, "%lld:%2.2lld", m, s);
}

/* Past Slurm's largest limit (a record from before sbatch and the submit
 * policy checked it) is no limit, as the local executor runs it; its
 * seconds would not fit an int64 either. */
void sl_slurm_time_fmt_limit(int64_t minutes, char *buf, size_t len)
{
	if (minutes == SL_TIME_INFINITE || minutes == SL_TIME_UNSET || minutes < 0 ||
	    minutes > SL_TIME_MAX)
		snprintf(buf, len, "UNLIMITED");
	else
		fmt_dur(minutes * 60, 0, buf, len);
}

void sl_slurm_time_fmt_limit_sacct(int64_t minutes, char *buf, size_t len)
{
	/* sacct prints "Partition_Limit" for a job that asked for no limit;
	 * Sluice resolves the partition default at submit, so this is rare. */
	if (minutes == SL_TIME_UNSET)
		snprintf(buf, len, "Partition_Limit");
	else if (minutes == SL_TIME_INFINITE || minutes < 0 || minutes > SL_TIME_MAX)
		snprintf(buf, len, "UNLIMITED");
	else
		fmt_dur(minutes * 60, 1, buf, len);
}

void sl_slurm_time_fmt_elapsed(int64_t secs, char *buf, size_t len)
{
	fmt_dur(secs, 0, buf, len);
}

void sl_slurm_time_fmt_elapsed_sacct(int64_t secs, char *buf, size_t len)
{
	fmt_dur(secs, 1, buf, len);
}

void sl_slurm_time_fmt_ts(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0 || localtime_r(&tt, &tm) == NULL) {
		snprintf(buf, len, "Unknown");
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* ---- timestamps (sacct -S/-E, --begin): Slurm's parse_time() ---- */

static int64_t local_mktime(struct tm *tm)
{
	tm->tm_isdst = -1;
	return (int64_t)mktime(tm);
}

/* "now+N[unit]": unit names as Slurm spells them, singular or plural. */
static int parse_now(const char *s, int64_t now, int64_t *out)
{
	static const struct { const char *name; int64_t mult; } units[] = {
		{"", 1}, {"second", 1}, {"seconds", 1}, {"minute", 60},
		{"minutes", 60}, {"hour", 3600}, {"hours", 3600},
		{"day", 86400}, {"days", 86400}, {"week", 604800}, {"weeks", 604800},
	};
	int64_t n, sign;
	size_t i;

	if (*s == '\0') {
		*out = now;
		return 0;
	}
	if (*s != '+' && *s != '-')
		return -SL_EINVAL;
	sign = *s == '-' ? -1 : 1;
	s++;
	if (read_num(&s, &n) != 0)
		return -SL_EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(s, units[i].name) == 0) {
			*out = now + sign * n * units[i].mult;
			return 0;
		}
	}
	return -SL_EINVAL;
}

/* Named times of day; a past "noon" or "teatime" means tomorrow's. */
static int parse_word(const char *s, const struct tm *today, int64_t now, int64_t *out)
{
	static const struct { const char *name; int hour; int day_add; int roll; } words[] = {
		{"today", 0, 0, 0}, {"midnight", 0, 1, 0}, {"tomorrow", 0, 1, 0},
		{"noon", 12, 0, 1}, {"fika", 15, 0, 1}, {"teatime", 16, 0, 1},
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct tm tm = *today;
		int64_t t;

		if (strcasecmp(s, words[i].name) != 0)
			continue;
		tm.tm_hour = words[i].hour;
		tm.tm_min = tm.tm_sec = 0;
		tm.tm_mday += words[i].day_add;
		t = local_mktime(&tm);
		if (words[i].roll && t < now) {
			tm = *today;
			tm.tm_hour = words[i].hour;
			tm.tm_min = tm.tm_sec = 0;
			tm.tm_mday++;
			t = local_mktime(&tm);
		}
		*out = t;
		return 0;
	}
	return -SL_EINVAL;
}

/* Exactly `digits` decimal digits into *v. */
static int fixed_num(const char **p, int digits, int *v)
{
	int i, n = 0;

	for (i = 0; i < digits; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		n = n * 10 + ((*p)[i] - '0');
	}
	*p += digits;
	*v = n;
	return 0;
}

/* "HH:MM[:SS]" at *p; the rest must be empty. */
static int parse_hms(const char *p, struct tm *tm)
{
	int h, m, sec = 0;

	if (fixed_num(&p, 2, &h) != 0 || *p++ != ':' || fixed_num(&p, 2, &m) != 0)
		return -1;
	if (*p == ':') {
		p++;
		if (fixed_num(&p, 2, &sec) != 0)
			return -1;
	}
	if (*p != '\0' || h > 23 || m > 59 || sec > 60)
		return -1;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = sec;
	return 0;
}

/* "YYYY-MM-DD[THH:MM[:SS]]" */
static int parse_iso(const char *p, struct tm *tm)
{
	int y, mo, d;

	if (fixed_num(&p, 4, &y) != 0 || *p++ != '-' || fixed_num(&p, 2, &mo) != 0 ||
	    *p++ != '-' || fixed_num(&p, 2, &d) != 0)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31)
		return -1;
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
	if (*p == '\0')
		return 0;
	if (*p != 'T')
		return -1;
	return parse_hms(p + 1, tm);
}

/* "MMDD[YY]", "MM/DD[/YY]", "MM.DD[.YY]": midnight of that day. */
static int parse_mmdd(const char *p, struct tm *tm)
{
	int mo, d, y = -1;
	char sep = 0;

	if (fixed_num(&p, 2, &mo) != 0)
		return -1;
	if (*p == '/' || *p == '.')
		sep = *p++;
	if (fixed_num(&p, 2, &d) != 0)
		return -1;
	if (*p != '\0') {
		if (sep && *p++ != sep)
			return -1;
		if (fixed_num(&p, 2, &y) != 0 || *p != '\0')
			return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31)
		return -1;
	if (y >= 0)
		tm->tm_year = y + 100;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
	return 0;
}

int sl_slurm_time_parse_ts(const char *s, int64_t now, int64_t *out)
{
	time_t tnow = (time_t)now;
	struct tm today, tm;

	if (s == NULL || localtime_r(&tnow, &today) == NULL)
		return -SL_EINVAL;
	if (strncasecmp(s, "now", 3) == 0)
		return parse_now(s + 3, now, out);
	if (isalpha((unsigned char)*s))
		return parse_word(s, &today, now, out);
	tm = today;
	/* A bare time of day means today's, as sacct -S needs; Slurm's --begin
	 * would roll a past time to tomorrow, which Sluice does not support. */
	if (strlen(s) >= 5 && s[2] == ':') {
		if (parse_hms(s, &tm) != 0)
			return -SL_EINVAL;
	} else if (strlen(s) >= 10 && s[4] == '-') {
		if (parse_iso(s, &tm) != 0)
			return -SL_EINVAL;
	} else if (parse_mmdd(s, &tm) != 0) {
		return -SL_EINVAL;
	}
	*out = local_mktime(&tm);
	return 0;
}
