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

/* ---- timestamps: Slurm 22.05's parse_time(s, past) ----
 *
 * One reader for sacct -S/-E (past), sbatch --begin/--deadline and
 * scontrol's StartTime= (ahead), written after parse_time and checked form
 * by form against the real one: keywords and numbers in any order, with
 * blanks, '-' and 'T' between them. `pos` is where Slurm reports the fault. */

static int64_t local_mktime(struct tm *tm)
{
	tm->tm_isdst = -1;
	return (int64_t)mktime(tm);
}

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
static int get_time(const char *s, int *pos, struct when *w)
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
static int get_md(const char *s, int *o, int *mon, int *day, int month_checked)
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
static int get_date(const char *s, int *pos, struct when *w)
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
	if (get_md(s, &o, &mon, &day, iso) != 0)
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

/* parse_time's _get_delta: "[ ]N[ ][unit]" after the sign at s + *pos;
 * *pos ends on its last char. Reads stop at len: Slurm's can run past the
 * text (see get_now), where this one sees its end. Slurm's count wraps
 * past a long; this one refuses a count past 10^11 instead. */
static int get_delta(const char *s, size_t len, int *pos, int64_t *delta)
{
	static const struct { const char *name; int64_t mult; } units[] = {
		{"seconds", 1}, {"second", 1}, {"minutes", 60}, {"minute", 60},
		{"hours", 3600}, {"hour", 3600}, {"days", 86400}, {"day", 86400},
		{"weeks", 604800}, {"week", 604800},
	};
	int o, digits = 0;
	int64_t n = 0;

	for (o = *pos + 1; (size_t)o < len && s[o] != '\n'; o++) {
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
	if (digits == 0) /* *pos stays on the sign */
		return -1;
	*pos = o - 1;
	*delta = n;
	return 0;
}

/* "now[ ][+|-]..." at s + *pos. Slurm adds the sign's index to *pos, not
 * its distance from "now": the same when "now" starts the text, and twice
 * the offset when not, so "today now5" is refused at 15. That arithmetic
 * is kept for the positions it prints; where it then reads past the text
 * (" now", " now+1"), what Slurm finds is whatever memory follows, and
 * here it is the end of the text. */
static int get_now(const char *s, size_t len, int *pos, int64_t *delta)
{
	*delta = 0;
	for (int i = *pos + 3;; i++) {
		if (s[i] == '+' || s[i] == '-') {
			*pos += i;
			if (get_delta(s, len, pos, delta) != 0)
				return -1;
			if (s[i] == '-')
				*delta = -*delta;
			return 0;
		}
		if (isblank((unsigned char)s[i]))
			continue;
		if (s[i] == '\0' || s[i] == '\n') {
			*pos += i - 1;
			return 0;
		}
		*pos += i;
		return -1;
	}
}

/* The fields w leaves open, as parse_time fills them. Ahead: the soonest
 * such time. Back (past): a time of day is today's even when still to
 * come, and a date without a year is this year's unless its month is
 * later than this one (a later day of this month stays this year's). */
static int64_t resolve(struct when *w, const struct tm *nt, int64_t now, int past)
{
	struct tm tm;

	if (w->hour < 0) {
		w->hour = w->min = 0;
	} else if (w->mon < 0) {
		int later = w->hour > nt->tm_hour || (w->hour == nt->tm_hour && w->min > nt->tm_min);
		set_date(w, past || later ? now : now + 86400);
	}
	if (w->year < 0 && past) {
		w->year = nt->tm_year - (w->mon > nt->tm_mon);
	} else if (w->year < 0) {
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

/* In parse_time's order; a prefix is enough ("noonx" fails at the 'x'). */
static const struct {
	const char *word;
	int hour;     /* -1: a day, not a time */
	int day_add;
} words[] = {
	{"today", -1, 0}, {"tomorrow", -1, 1}, {"midnight", 0, 0},
	{"noon", 12, 0}, {"fika", 15, 0}, {"teatime", 16, 0},
};

/* A keyword at s + *pos ("today", "noon", ...) into w; 1 when there was
 * one (*pos at its last char), 0 when not. */
static int get_word(const char *s, int *pos, int64_t now, struct when *w)
{
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t len = strlen(words[i].word);
		if (strncasecmp(s + *pos, words[i].word, len) != 0)
			continue;
		if (words[i].hour < 0) {
			set_date(w, now + words[i].day_add * 86400);
		} else {
			w->hour = words[i].hour;
			w->min = w->sec = 0;
		}
		*pos += (int)len - 1;
		return 1;
	}
	return 0;
}

/* One item at s + *pos into w; *pos ends on its last char, or on the
 * fault. 'T' is skipped before any keyword is tried, so "Today" fails at
 * 'o' as in Slurm. */
static int get_item(const char *s, size_t len, int *pos, int64_t now, struct when *w)
{
	const char *p = s + *pos;
	int64_t delta;

	if (isblank((unsigned char)*p) || *p == '-' || *p == 'T' || get_word(s, pos, now, w))
		return 0;
	if (strncasecmp(p, "now", 3) == 0) {
		time_t tt;
		struct tm tm;
		if (get_now(s, len, pos, &delta) != 0)
			return -1;
		tt = (time_t)(now + delta);
		localtime_r(&tt, &tm);
		*w = (struct when){tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_mon, tm.tm_mday,
				   tm.tm_year};
		return 0;
	}
	if (!digit(*p))
		return -1;
	if (p[1] == ':' || (p[1] != '\0' && p[2] == ':'))
		return get_time(s, pos, w);
	return get_date(s, pos, w);
}

int sl_slurm_time_parse(const char *s, int64_t now, int past, int64_t *out, int *errpos)
{
	struct when w = {-1, -1, 0, -1, -1, -1};
	time_t tnow = (time_t)now;
	struct tm nt;
	size_t len;
	int pos, ignore;

	if (errpos == NULL)
		errpos = &ignore;
	*errpos = 0;
	if (s == NULL) {
		*errpos = SL_TIME_NO_POS;
		return -SL_EINVAL;
	}
	if (strncasecmp(s, "uts", 3) == 0) {
		char *end = NULL;
		long long v = strtoll(s + 3, &end, 10);
		if (v < 1000000 || v == LLONG_MAX || *end != '\0')
			return -SL_EINVAL;
		*out = v;
		return 0;
	}
	len = strlen(s);
	localtime_r(&tnow, &nt);
	for (pos = 0; (size_t)pos < len && s[pos] != '\n'; pos++)
		if (get_item(s, len, &pos, now, &w) != 0)
			goto bad;
	if (w.hour < 0 && w.mon < 0) {
		*errpos = SL_TIME_NO_POS; /* nothing at all: parse_time's 0, and no line */
		return -SL_EINVAL;
	}
	if ((*out = resolve(&w, &nt, now, past)) == -1)
		goto bad;
	return 0;
bad:
	*errpos = pos;
	return -SL_EINVAL;
}
