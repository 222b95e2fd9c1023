/* slurm_time.c - Slurm's time syntaxes: parsing -t limits and sacct/--begin
 * timestamps, and printing durations and timestamps the way squeue and sacct
 * print them (Slurm's secs2time_str, mins2time_str and parse_time). */
#include "slurm_time.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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
			if (s[1] == '\0') /* "1-": days alone, as Slurm's sscanf leaves the rest 0 */
				return n;
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

/* SLURM_TIME_FORMAT, read once as Slurm's slurm_make_time_str reads it:
 * unset, empty or "standard" is ISO, "relative" is relative to today, any
 * other text with a '%' and under 32 bytes a strftime format. */
static struct {
	int read;
	int relative;
	char fmt[32];
} tfmt;

void sl_slurm_time_format_reset(void)
{
	tfmt.read = 0;
}

static void format_read(void)
{
	const char *f = getenv("SLURM_TIME_FORMAT");

	tfmt.read = 1;
	tfmt.relative = 0;
	snprintf(tfmt.fmt, sizeof(tfmt.fmt), "%%FT%%T");
	if (f == NULL || *f == '\0' || strcmp(f, "standard") == 0)
		return;
	if (strcmp(f, "relative") == 0)
		tfmt.relative = 1;
	else if (strchr(f, '%') == NULL || strlen(f) >= sizeof(tfmt.fmt))
		fprintf(stderr, "%s: error: invalid SLURM_TIME_FORMAT = '%s'\n",
			program_invocation_short_name, f);
	else
		snprintf(tfmt.fmt, sizeof(tfmt.fmt), "%s", f);
}

/* Slurm's _relative_date_fmt: the nearer the day, the less it says. */
static const char *relative_fmt(const struct tm *when)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	int distance = 1000 * (when->tm_year + 1900) + when->tm_yday -
		       (1000 * (tm.tm_year + 1900) + tm.tm_yday);

	if (distance == -1)
		return "Ystday %H:%M";
	if (distance == 0)
		return "%H:%M:%S";
	if (distance == 1)
		return "Tomorr %H:%M";
	if (distance < -365 || distance > 365)
		return "%-d %b %Y";
	if (distance < -1 || distance > 6)
		return "%-d %b %H:%M";
	return "%a %H:%M";
}

void sl_slurm_time_fmt_ts(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char tmp[256];

	if (t == 0 || localtime_r(&tt, &tm) == NULL) {
		snprintf(buf, len, "Unknown");
		return;
	}
	if (!tfmt.read)
		format_read();
	if (len == 0)
		return;
	/* slurm_strftime: what does not fit is all '#' */
	if (strftime(tmp, sizeof(tmp), tfmt.relative ? relative_fmt(&tm) : tfmt.fmt, &tm) == 0 ||
	    strlen(tmp) >= len) {
		size_t n = len - 1 < sizeof(tmp) - 1 ? len - 1 : sizeof(tmp) - 1;
		memset(tmp, '#', n);
		tmp[n] = '\0';
	}
	snprintf(buf, len, "%s", tmp);
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

/* Named times of day; a past "noon" or "teatime" means tomorrow's, and
 * "midnight" the coming one, unless looking back (past), where each is
 * today's. */
static int parse_word(const char *s, const struct tm *today, int64_t now, int past,
		      int64_t *out)
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
		if (!past || strcasecmp(s, "tomorrow") == 0)
			tm.tm_mday += words[i].day_add;
		t = local_mktime(&tm);
		if (words[i].roll && t < now && !past) {
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
	if (*p != 'T' && *p != ' ') /* Slurm's parse_time takes a blank for the T */
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

static int parse_ts(const char *s, int64_t now, int past, int64_t *out)
{
	time_t tnow = (time_t)now;
	struct tm today, tm;

	if (s == NULL || localtime_r(&tnow, &today) == NULL)
		return -SL_EINVAL;
	if (strncasecmp(s, "now", 3) == 0)
		return parse_now(s + 3, now, out);
	if (isalpha((unsigned char)*s))
		return parse_word(s, &today, now, past, out);
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
	} else if (past && tm.tm_year == today.tm_year && tm.tm_mon > today.tm_mon &&
		   strlen(s) < 6 + (s[2] == '/' || s[2] == '.')) {
		tm.tm_year--; /* no year given: the last such date */
	}
	*out = local_mktime(&tm);
	return 0;
}

int sl_slurm_time_parse_ts(const char *s, int64_t now, int64_t *out)
{
	return parse_ts(s, now, 0, out);
}

int sl_slurm_time_parse_past(const char *s, int64_t now, int64_t *out, int *errpos)
{
	int64_t ignore;
	int r = parse_ts(s, now, 1, out);

	/* Slurm's parse_time says where it stopped; this reader goes form by
	 * form, so the position is the forward reader's, which stops at the
	 * same place in the same text. Only a refused time reads twice. */
	*errpos = 0;
	if (r != 0 && s != NULL &&
	    (sl_slurm_time_parse_begin(s, now, &ignore, errpos) == 0 || *errpos == SL_TIME_NO_POS))
		*errpos = 0;
	return r;
}

/* ---- --begin and scontrol's StartTime: Slurm's parse_time(s, past = 0) ----
 *
 * Written from Slurm 22.05's behaviour (every form below was tried on the
 * real one): keywords and numbers in any order, blanks, '-' and 'T' between
 * them; a time with no date is the next such time, a date with no year the
 * next such date. `pos` is where Slurm reports the fault. */

struct when {
	int hour, min, sec;  /* -1: not given */
	int mon, mday, year; /* tm's origins; -1: not given */
};

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

static void set_date(struct when *w, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	localtime_r(&tt, &tm);
	w->mon = tm.tm_mon;
	w->mday = tm.tm_mday;
	w->year = tm.tm_year;
}

/* An "AM" or "PM" at s + *o applied to hour *h (*o past it). */
static int am_pm(const char *s, int *o, int *h)
{
	if (strncasecmp(s + *o, "pm", 2) == 0) {
		*h += 12;
		if (*h == 24) /* 12 PM is noon */
			*h = 12;
		else if (*h > 23)
			return -1;
		*o += 2;
	} else if (strncasecmp(s + *o, "am", 2) == 0) {
		if (*h == 12) /* 12 AM is midnight */
			*h = 0;
		else if (*h > 11)
			return -1;
		*o += 2;
	}
	return 0;
}

/* "H[H]:MM[:SS][ ][AM|PM]" at s + *pos; on success *pos is its last char. */
static int begin_hms(const char *s, int *pos, struct when *w)
{
	int o = *pos, h, m, sec = 0;

	if (!digit(s[o]))
		goto bad;
	h = s[o++] - '0';
	if (s[o] != ':') {
		if (!digit(s[o]))
			goto bad;
		h = h * 10 + s[o++] - '0';
	}
	if (h > 23) {
		o -= 2;
		goto bad;
	}
	if (s[o++] != ':') {
		o--;
		goto bad;
	}
	if (!digit(s[o]) || !digit(s[o + 1])) {
		o += digit(s[o]);
		goto bad;
	}
	m = (s[o] - '0') * 10 + s[o + 1] - '0';
	o += 2;
	if (m > 59) {
		o -= 2;
		goto bad;
	}
	if (s[o] == ':') {
		o++;
		if (!digit(s[o]) || !digit(s[o + 1])) {
			o += digit(s[o]);
			goto bad;
		}
		sec = (s[o] - '0') * 10 + s[o + 1] - '0';
		o += 2;
		if (sec > 59) {
			o -= 2;
			goto bad;
		}
	}
	while (isspace((unsigned char)s[o]))
		o++;
	if (am_pm(s, &o, &h) != 0)
		goto bad;
	*pos = o - 1;
	w->hour = h;
	w->min = m;
	w->sec = sec;
	return 0;
bad:
	*pos = o;
	return -1;
}

/* "M[M]" then a day: the month (1..12) and the day (1..31) of a date. */
static int begin_md(const char *s, int *o, int *mon, int *day, int month_checked)
{
	*mon = s[(*o)++] - '0';
	if (digit(s[*o]))
		*mon = *mon * 10 + s[(*o)++] - '0';
	if (*mon < 1 || *mon > 12) {
		*o -= 2;
		return -1;
	}
	if (month_checked) /* the ISO form: the '-' is skipped unseen */
		(*o)++;
	else if (s[*o] == '.' || s[*o] == '/')
		(*o)++;
	if (!digit(s[*o]))
		return -1;
	*day = s[(*o)++] - '0';
	if (digit(s[*o]))
		*day = *day * 10 + s[(*o)++] - '0';
	if (*day < 1 || *day > 31) {
		*o -= 2;
		return -1;
	}
	return 0;
}

/* "YYYY-M[M]-D[D]", or "M[M][./]D[D][[./]YY]", at s + *pos. A two-digit
 * year "00" counts as none, as in Slurm. */
static int begin_date(const char *s, int *pos, struct when *w)
{
	int o = *pos, mon, day, yr = 0;
	size_t len = strlen(s);
	int iso = len >= (size_t)o + 7 && s[o + 4] == '-' && s[o + 7] == '-';

	if (iso) {
		for (; o < *pos + 4; o++) {
			if (!digit(s[o]))
				goto bad;
			yr = yr * 10 + s[o] - '0';
		}
		o++;
	}
	if (begin_md(s, &o, &mon, &day, iso) != 0)
		goto bad;
	if (!iso && (s[o] == '.' || s[o] == '/'))
		o++;
	if (!iso && digit(s[o])) {
		yr = s[o++] - '0';
		if (!digit(s[o]))
			goto bad;
		yr = yr * 10 + s[o++] - '0';
	}
	*pos = o - 1;
	w->mon = mon - 1;
	w->mday = day;
	if (iso)
		w->year = yr - 1900;
	else if (yr > 0)
		w->year = yr + 100;
	return 0;
bad:
	*pos = o;
	return -1;
}

/* "now[ ][+|-][ ]N[ ][unit]": *t = now + delta; *pos at its last char. */
static int begin_now(const char *s, int *pos, int64_t now, int64_t *t)
{
	static const struct { const char *name; int64_t mult; } units[] = {
		{"seconds", 1}, {"second", 1}, {"minutes", 60}, {"minute", 60},
		{"hours", 3600}, {"hour", 3600}, {"days", 86400}, {"day", 86400},
		{"weeks", 604800}, {"week", 604800},
	};
	int i = *pos + 3, o, digits = 0, sign;
	int64_t n = 0;

	while (isblank((unsigned char)s[i]))
		i++;
	if (s[i] == '\0' || s[i] == '\n') {
		*pos = i - 1;
		*t = now;
		return 0;
	}
	*pos = i; /* where Slurm reports a missing sign or number */
	if (s[i] != '+' && s[i] != '-')
		return -1;
	sign = s[i] == '-' ? -1 : 1;
	for (o = i + 1; s[o] != '\0' && s[o] != '\n'; o++) {
		size_t u, k = sizeof(units) / sizeof(units[0]);
		if (isspace((unsigned char)s[o]))
			continue;
		for (u = 0; u < k; u++)
			if (strncasecmp(s + o, units[u].name, strlen(units[u].name)) == 0)
				break;
		if (u < k) {
			o += (int)strlen(units[u].name);
			n *= units[u].mult;
			break;
		}
		if (!digit(s[o]) || n > 100000000000LL) {
			*pos = o - 1;
			return -1;
		}
		n = n * 10 + s[o] - '0';
		digits++;
	}
	if (digits == 0)
		return -1;
	*pos = o - 1;
	*t = now + sign * n;
	return 0;
}

/* The fields w leaves open, as Slurm fills them: the soonest such time. */
static int64_t begin_resolve(struct when *w, const struct tm *nt, int64_t now)
{
	struct tm tm;

	if (w->hour < 0) {
		w->hour = w->min = 0;
		w->sec = 0;
	} else if (w->mon < 0) {
		if (w->hour > nt->tm_hour || (w->hour == nt->tm_hour && w->min > nt->tm_min))
			set_date(w, now);
		else
			set_date(w, now + 86400);
	}
	if (w->year < 0) {
		int later = w->mon > nt->tm_mon ||
			    (w->mon == nt->tm_mon && w->mday > nt->tm_mday) ||
			    (w->mon == nt->tm_mon && w->mday == nt->tm_mday &&
			     (w->hour > nt->tm_hour ||
			      (w->hour == nt->tm_hour && w->min > nt->tm_min)));
		w->year = nt->tm_year + (later ? 0 : 1);
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_sec = w->sec;
	tm.tm_min = w->min;
	tm.tm_hour = w->hour;
	tm.tm_mday = w->mday;
	tm.tm_mon = w->mon;
	tm.tm_year = w->year;
	return local_mktime(&tm);
}

static const struct {
	const char *word;
	int hour;     /* -1: a day, not a time */
	int day_add;
} begin_words[] = {
	{"today", -1, 0}, {"tomorrow", -1, 1}, {"midnight", 0, 0},
	{"noon", 12, 0}, {"fika", 15, 0}, {"teatime", 16, 0},
};

/* A keyword at s + *pos ("today", "noon", ...) into w; 1 when there was
 * one (*pos at its last char), 0 when not. */
static int begin_word(const char *s, int *pos, int64_t now, struct when *w)
{
	for (size_t i = 0; i < sizeof(begin_words) / sizeof(begin_words[0]); i++) {
		size_t len = strlen(begin_words[i].word);
		if (strncasecmp(s + *pos, begin_words[i].word, len) != 0)
			continue;
		if (begin_words[i].hour < 0) {
			set_date(w, now + begin_words[i].day_add * 86400);
		} else {
			w->hour = begin_words[i].hour;
			w->min = w->sec = 0;
		}
		*pos += (int)len - 1;
		return 1;
	}
	return 0;
}

int sl_slurm_time_parse_begin(const char *s, int64_t now, int64_t *out, int *errpos)
{
	struct when w = {-1, -1, 0, -1, -1, -1};
	time_t tnow = (time_t)now;
	struct tm nt;
	int pos;

	*errpos = 0;
	if (strncasecmp(s, "uts", 3) == 0) {
		char *end = NULL;
		long long v = strtoll(s + 3, &end, 10);
		if (v < 1000000 || v == LLONG_MAX || *end != '\0')
			return -SL_EINVAL;
		*out = v;
		return 0;
	}
	localtime_r(&tnow, &nt);
	for (pos = 0; s[pos] != '\0' && s[pos] != '\n'; pos++) {
		if (isblank((unsigned char)s[pos]) || s[pos] == '-' || s[pos] == 'T' ||
		    begin_word(s, &pos, now, &w))
			continue;
		if (strncasecmp(s + pos, "now", 3) == 0) {
			int64_t t;
			time_t tt;
			struct tm tm;
			if (begin_now(s, &pos, now, &t) != 0)
				goto bad;
			tt = (time_t)t;
			localtime_r(&tt, &tm);
			w = (struct when){tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_mon, tm.tm_mday,
					  tm.tm_year};
		} else if (!digit(s[pos])) {
			goto bad;
		} else if (s[pos + 1] == ':' || (s[pos + 1] != '\0' && s[pos + 2] == ':')) {
			if (begin_hms(s, &pos, &w) != 0)
				goto bad;
		} else if (begin_date(s, &pos, &w) != 0) {
			goto bad;
		}
	}
	if (w.hour < 0 && w.mon < 0) {
		*errpos = SL_TIME_NO_POS; /* nothing at all: Slurm prints no line */
		return -SL_EINVAL;
	}
	if ((*out = begin_resolve(&w, &nt, now)) == -1)
		goto bad;
	return 0;
bad:
	*errpos = pos;
	return -SL_EINVAL;
}
