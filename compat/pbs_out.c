/* pbs_out.c - qstat -f's writer in its default, dsv and json formats
 * (pbs_out.h). json is written as it goes, in cJSON_Print()'s layout:
 * "{\n", members "<tabs>\"key\":\tvalue" joined by ",\n", then "\n<tabs>}"
 * (an empty object "{\n<tabs>}"). */
#include "pbs_out.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xalloc.h"

#define LINE_LIMIT 78 /* CHAR_LINE_LIMIT */
#define DEPTH_MAX 4   /* root, section, object, resource group */

struct sl_pbs_out {
	struct sl_buf *b;
	enum sl_pbs_outfmt fmt;
	char *delim;
	size_t width;           /* where a value wraps: LINE_LIMIT, or none (-1) */
	int attrs;              /* attributes of the current object so far */
	/* json */
	int depth;              /* open objects */
	int members[DEPTH_MAX]; /* members written in each */
	char *section;          /* the open section's name */
	char *group;            /* the open resource group's attribute name */
};

static void json_string(struct sl_buf *b, const char *s)
{
	sl_buf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *esc = *p == '"' ? "\\\"" : *p == '\\' ? "\\\\" : *p == '\b' ? "\\b"
				: *p == '\f' ? "\\f" : *p == '\n' ? "\\n" : *p == '\r' ? "\\r"
				: *p == '\t' ? "\\t" : NULL;
		if (esc)
			sl_buf_addstr(b, esc);
		else if (*p < 32)
			sl_buf_addf(b, "\\u%04x", *p);
		else
			sl_buf_addc(b, (char)*p);
	}
	sl_buf_addc(b, '"');
}

/* A value as pbs_json_insert_parsed() stores it: what cJSON parses as a
 * number (its digits, signs, '.', e and E taken whole by strtod) is one,
 * printed as an integer when it is one ("077" is 77), else "%1.15g";
 * true, false and null are JSON's. (Quoted strings, arrays and objects,
 * which cJSON would parse too, stay strings: no attribute holds one.) */
static void json_value(struct sl_buf *b, const char *v)
{
	char *end;
	double d;

	if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0 || strcmp(v, "null") == 0) {
		sl_buf_addstr(b, v); /* cJSON parses them too */
		return;
	}
	if (*v != '\0' && (*v == '-' || (*v >= '0' && *v <= '9')) &&
	    strspn(v, "0123456789+-.eE") == strlen(v)) {
		d = strtod(v, &end);
		if (*end == '\0') {
			char num[64];
			/* print_number(): valueint is d saturated to an int */
			if (d > -2147483648.0 && d < 2147483647.0 && d == (double)(int)d) {
				sl_buf_addf(b, "%d", (int)d);
				return;
			}
			snprintf(num, sizeof(num), "%1.15g", d);
			if (strtod(num, NULL) != d)
				snprintf(num, sizeof(num), "%1.17g", d);
			sl_buf_addstr(b, num);
			return;
		}
	}
	json_string(b, v);
}

static void tabs(struct sl_buf *b, int n)
{
	for (int i = 0; i < n; i++)
		sl_buf_addc(b, '\t');
}

/* "key":\t at the current depth, after the previous member's ",\n". */
static void json_key(struct sl_pbs_out *o, const char *key)
{
	if (o->members[o->depth - 1]++ > 0)
		sl_buf_addstr(o->b, ",\n");
	tabs(o->b, o->depth);
	json_string(o->b, key);
	sl_buf_addstr(o->b, ":\t");
}

static void json_open(struct sl_pbs_out *o, const char *key)
{
	json_key(o, key);
	sl_buf_addstr(o->b, "{\n");
	o->members[o->depth++] = 0;
}

static void json_close(struct sl_pbs_out *o)
{
	o->depth--;
	if (o->members[o->depth] > 0)
		sl_buf_addc(o->b, '\n');
	tabs(o->b, o->depth);
	sl_buf_addc(o->b, '}');
}

static void close_group(struct sl_pbs_out *o)
{
	if (o->group) {
		json_close(o);
		free(o->group);
		o->group = NULL;
	}
}

struct sl_pbs_out *sl_pbs_out_new(struct sl_buf *b, enum sl_pbs_outfmt fmt, const char *delim,
				  int64_t now, const char *version, const char *server)
{
	struct sl_pbs_out *o = sl_xcalloc(1, sizeof(*o));
	char t[32];

	o->b = b;
	o->fmt = fmt;
	o->delim = sl_xstrdup(delim ? delim : "|");
	o->width = LINE_LIMIT;
	if (fmt == SL_PBS_OUT_JSON) { /* qstat.c:2889, the document's prologue */
		sl_buf_addstr(b, "{\n");
		o->depth = 1;
		json_key(o, "timestamp");
		snprintf(t, sizeof(t), "%lld", (long long)now);
		json_value(b, t);
		json_key(o, "pbs_version");
		json_string(b, version);
		json_key(o, "pbs_server");
		json_string(b, server);
	}
	return o;
}

void sl_pbs_out_unfolded(struct sl_pbs_out *o)
{
	o->width = SIZE_MAX;
}

void sl_pbs_out_free(struct sl_pbs_out *o)
{
	if (o == NULL)
		return;
	free(o->delim);
	free(o->section);
	free(o->group);
	free(o);
}

void sl_pbs_out_begin(struct sl_pbs_out *o, const char *kind, const char *id)
{
	const char *section = strcmp(kind, "Job Id") == 0 ? "Jobs" : kind;

	o->attrs = 0;
	if (o->fmt != SL_PBS_OUT_JSON) {
		sl_buf_addf(o->b, "%s: %s%s", kind, id, o->fmt == SL_PBS_OUT_DSV ? o->delim : "\n");
		return;
	}
	if (o->section == NULL || strcmp(o->section, section) != 0) {
		if (o->section)
			json_close(o);
		free(o->section);
		o->section = sl_xstrdup(section);
		json_open(o, section);
	}
	json_open(o, id);
}

/* prt_attr()'s default layout: split at commas, wrapped with "\n\t"; on
 * one line (-w, -1) line and form feeds written \n and \f, as
 * convert_feed_chars() writes them (a -V job's exported shell function). */
static void attr_default(struct sl_buf *b, size_t width, const char *name, const char *res,
			 const char *value)
{
	size_t start = strlen(name) + 7 + (res ? strlen(res) + 1 : 0);
	char *copy, *save = NULL, *tok;
	int first = 1;

	sl_buf_addf(b, "    %s%s%s = ", name, res ? "." : "", res ? res : "");
	if (width == SIZE_MAX) {
		for (const char *p = value; *p; p++)
			if (*p == '\n' || *p == '\f')
				sl_buf_addstr(b, *p == '\n' ? "\\n" : "\\f");
			else
				sl_buf_addc(b, *p);
		sl_buf_addc(b, '\n');
		return;
	}
	copy = sl_xstrdup(value);
	tok = strtok_r(copy, ",", &save);
	while (tok) {
		size_t len = strlen(tok);
		if (len + start < width) {
			sl_buf_addstr(b, tok);
			start += len;
		} else {
			if (!first) {
				sl_buf_addstr(b, "\n\t");
				start = 9;
			}
			for (const char *p = tok; *p; p++) {
				sl_buf_addc(b, *p);
				if (++start > width) {
					start = 8;
					sl_buf_addstr(b, "\n\t");
				}
			}
		}
		if ((tok = strtok_r(NULL, ",", &save)) != NULL) {
			first = 0;
			sl_buf_addc(b, ',');
		}
	}
	free(copy);
	sl_buf_addc(b, '\n');
}

/* dsv: the delimiter (and a lone '\') escaped with '\' (escape_delimiter(),
 * src/lib/Libutil/misc_utils.c:902), line and form feeds as \n and \f
 * (convert_feed_chars(), qstat.c:397). */
static void attr_dsv(struct sl_pbs_out *o, const char *name, const char *res, const char *value)
{
	size_t dl = strlen(o->delim);

	if (o->attrs > 0)
		sl_buf_addstr(o->b, o->delim);
	sl_buf_addf(o->b, "%s%s%s=", name, res ? "." : "", res ? res : "");
	for (const char *p = value; *p; p++) {
		if (*p == '\\' && !(p[1] && strchr("'\",", p[1]))) {
			sl_buf_addstr(o->b, "\\\\");
		} else if (*p == '\n' || *p == '\f') {
			sl_buf_addstr(o->b, *p == '\n' ? "\\n" : "\\f");
		} else if (dl > 0 && strncmp(p, o->delim, dl) == 0) {
			sl_buf_addc(o->b, '\\');
			sl_buf_add(o->b, p, dl);
			p += dl - 1;
		} else {
			sl_buf_addc(o->b, *p);
		}
	}
}

/* Variable_List in json: an object of its variables (qstat.c:471), split
 * at the commas not escaped, an escaped comma kept without its backslash
 * (other escapes stay), the value after the first '='. */
static void json_vlist(struct sl_pbs_out *o, const char *v)
{
	char *item = sl_xmalloc(strlen(v) + 1);

	close_group(o);
	json_open(o, "Variable_List");
	while (*v) {
		char *w = item, *val = NULL;
		for (; *v && *v != ','; v++) {
			if (*v == '\\' && v[1] == ',')
				v++;
			if (val == NULL && *v == '=') {
				*w++ = '\0';
				val = w;
			} else {
				*w++ = *v;
			}
		}
		*w = '\0';
		json_key(o, item);
		if (val)
			json_value(o->b, val);
		else /* cJSON_CreateString(NULL) fails: qstat says "json error" */
			sl_buf_addstr(o->b, "null");
		if (*v)
			v++;
	}
	json_close(o);
	free(item);
}

void sl_pbs_out_attr(struct sl_pbs_out *o, const char *name, const char *res, const char *value)
{
	if (value == NULL)
		return;
	if (o->fmt == SL_PBS_OUT_DEFAULT)
		attr_default(o->b, o->width, name, res, value);
	else if (o->fmt == SL_PBS_OUT_DSV)
		attr_dsv(o, name, res, value);
	else if (res == NULL && strcmp(name, "Variable_List") == 0)
		json_vlist(o, value);
	else if (res == NULL) {
		close_group(o);
		json_key(o, name);
		/* Job_Name, project and Account_Name stay strings (qstat.c:177) */
		if (strcmp(name, "Job_Name") == 0 || strcmp(name, "project") == 0 ||
		    strcmp(name, "Account_Name") == 0)
			json_string(o->b, value);
		else
			json_value(o->b, value);
	} else {
		if (o->group == NULL || strcmp(o->group, name) != 0) {
			close_group(o);
			o->group = sl_xstrdup(name);
			json_open(o, name);
		}
		json_key(o, res);
		json_value(o->b, value);
	}
	o->attrs++;
}

void sl_pbs_out_end(struct sl_pbs_out *o)
{
	if (o->fmt != SL_PBS_OUT_JSON) {
		sl_buf_addc(o->b, '\n');
		return;
	}
	close_group(o);
	json_close(o);
}

int sl_pbs_out_finish(struct sl_pbs_out *o)
{
	if (o->fmt == SL_PBS_OUT_JSON) {
		if (o->section)
			json_close(o);
		json_close(o);
		sl_buf_addc(o->b, '\n');
	}
	/* a full buffer refuses every append: one more tells */
	return sl_buf_addstr(o->b, "") == 0 ? 0 : -SL_ETOOBIG;
}
