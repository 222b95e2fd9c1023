/* pbs_out.c - qstat -f's and pbsnodes' writer in the default, dsv and
 * json formats (pbs_out.h). json is written as it goes, in cJSON_Print()'s
 * layout: "{\n", members "<tabs>\"key\":\tvalue" joined by ",\n", then
 * "\n<tabs>}" (an empty object "{\n<tabs>}"); an array on one line,
 * "[a, b]" (print_array()). */
#include "pbs_out.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "pbs_job.h"
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
	int node;               /* the open object is a node: prt_node()'s rules */
};

/* Each kind of object: its json section, and whether pbsnodes prints it
 * (prt_node(), src/cmds/pbsnodes.c:650: the name alone, "     name = value"
 * never wrapped, control characters as ^X, times as ctime(); in dsv
 * "Name=N" first, nothing escaped; encode_to_json() in json). */
static const struct kind {
	const char *kind, *section;
	int node;
} kinds[] = {
	{"Job Id", "Jobs", 0},
	{"Queue", "Queue", 0},
	{"Server", "Server", 0},
	{"Node", "nodes", 1},
};

static const struct kind *kind_of(const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].kind, kind) == 0)
			return &kinds[i];
	return &kinds[0];
}

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

/* What cJSON_ParseWithOpts() makes of v: 1 a number (*d), 2 true, false
 * or null, 0 none (pbs_json_insert_parsed() then stores v as a string). A
 * number is what cJSON parses as one: its digits, signs, '.', e and E
 * taken whole by strtod. (Quoted strings, arrays and objects, which cJSON
 * would parse too, stay strings: only a node's comment could hold one,
 * pbsnodes -C '"x"', which cJSON would print as "x", and this as "\"x\"".
 * Nor are blanks around a number passed over, as cJSON passes them.) */
static int json_parsed(const char *v, double *d)
{
	char *end;

	if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0 || strcmp(v, "null") == 0)
		return 2;
	if (*v != '\0' && (*v == '-' || (*v >= '0' && *v <= '9')) &&
	    strspn(v, "0123456789+-.eE") == strlen(v)) {
		*d = strtod(v, &end);
		return *end == '\0';
	}
	return 0;
}

/* A number as print_number() prints it: an integer when it is one (its
 * valueint is d saturated to an int), else "%1.15g", "%1.17g" when that
 * does not read back. */
static void json_number(struct sl_buf *b, double d)
{
	char num[64];

	if (d > -2147483648.0 && d < 2147483647.0 && d == (double)(int)d) {
		sl_buf_addf(b, "%d", (int)d);
		return;
	}
	snprintf(num, sizeof(num), "%1.15g", d);
	if (strtod(num, NULL) != d)
		snprintf(num, sizeof(num), "%1.17g", d);
	sl_buf_addstr(b, num);
}

/* A value as pbs_json_insert_parsed() stores it ("077" is 77). */
static void json_value(struct sl_buf *b, const char *v)
{
	double d = 0;

	switch (json_parsed(v, &d)) {
	case 1: json_number(b, d); break;
	case 2: sl_buf_addstr(b, v); break;
	default: json_string(b, v); break;
	}
}

/* pbs_json_insert_parsed()'s ignore_empty (a node's resources_assigned):
 * a zero, or a string beginning with '0' ("0kb"), is left out. */
static int json_empty(const char *v)
{
	double d = 0;
	int k = json_parsed(v, &d);

	return (k == 1 && d == 0) || (k == 0 && v[0] == '0');
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

/* The kind's json section, opened unless it is the open one. */
static void open_section(struct sl_pbs_out *o, const struct kind *k)
{
	if (o->section != NULL && strcmp(o->section, k->section) == 0)
		return;
	if (o->section)
		json_close(o);
	free(o->section);
	o->section = sl_xstrdup(k->section);
	json_open(o, k->section);
}

void sl_pbs_out_section(struct sl_pbs_out *o, const char *kind)
{
	if (o->fmt == SL_PBS_OUT_JSON)
		open_section(o, kind_of(kind));
}

void sl_pbs_out_begin(struct sl_pbs_out *o, const char *kind, const char *id)
{
	const struct kind *k = kind_of(kind);

	o->attrs = 0;
	o->node = k->node;
	if (o->fmt == SL_PBS_OUT_DEFAULT)
		sl_buf_addf(o->b, "%s%s%s\n", k->node ? "" : kind, k->node ? "" : ": ", id);
	else if (o->fmt == SL_PBS_OUT_DSV && k->node)
		sl_buf_addf(o->b, "Name=%s%s", id, o->delim);
	else if (o->fmt == SL_PBS_OUT_DSV)
		sl_buf_addf(o->b, "%s: %s%s", kind, id, o->delim);
	if (o->fmt != SL_PBS_OUT_JSON)
		return;
	open_section(o, k);
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

/* sl_pbs_out_shown(); nospace: blanks dropped (prt_node()'s jobs in dsv). */
static void add_shown(struct sl_buf *b, const char *v, int nospace)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (nospace && *p == ' ')
			continue;
		if (*p < 32 && *p != '\n' && *p != '\t') {
			sl_buf_addc(b, '^');
			sl_buf_addc(b, (char)(*p + 64));
		} else {
			sl_buf_addc(b, (char)*p);
		}
	}
}

void sl_pbs_out_shown(struct sl_buf *b, const char *s)
{
	add_shown(b, s, 0);
}

/* prt_node()'s line: the server sends its times as epoch seconds, which
 * pbsnodes writes with ctime(). */
static void node_default(struct sl_buf *b, const char *name, const char *res, const char *value)
{
	sl_buf_addf(b, "     %s%s%s = ", name, res ? "." : "", res ? res : "");
	if (strcmp(name, "last_state_change_time") == 0 || strcmp(name, "last_used_time") == 0) {
		char t[64];
		sl_pbs_fmt_ctime(strtoll(value, NULL, 10), t, sizeof(t));
		sl_buf_addstr(b, t);
	} else {
		add_shown(b, value, 0);
	}
	sl_buf_addc(b, '\n');
}

/* encode_to_json()'s jobs: "ID/CPU, ..." as an array of the ids, a job
 * named once for its run of CPUs. */
static void json_jobs(struct sl_pbs_out *o, const char *v)
{
	char *copy = sl_xstrdup(v), *w = copy, *save = NULL, *prev = "";

	for (const char *p = v; *p; p++)
		if (*p != ' ')
			*w++ = *p;
	*w = '\0';
	json_key(o, "jobs");
	sl_buf_addc(o->b, '[');
	for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		id[strcspn(id, "/")] = '\0';
		if (strcmp(id, prev) != 0) {
			sl_buf_addstr(o->b, *prev ? ", " : "");
			json_string(o->b, id);
		}
		prev = id;
	}
	sl_buf_addc(o->b, ']');
	free(copy);
}

static void attr_json(struct sl_pbs_out *o, const char *name, const char *res, const char *value)
{
	if (res != NULL) {
		if (o->group == NULL || strcmp(o->group, name) != 0) {
			close_group(o);
			o->group = sl_xstrdup(name);
			json_open(o, name);
		}
		if (o->node && strcmp(name, "resources_assigned") == 0 && json_empty(value))
			return;
		json_key(o, res);
		json_value(o->b, value);
		return;
	}
	close_group(o);
	if (o->node && strcmp(name, "jobs") == 0) {
		json_jobs(o, value);
		return;
	}
	if (!o->node && strcmp(name, "Variable_List") == 0) {
		json_vlist(o, value);
		return;
	}
	json_key(o, name);
	/* Job_Name, project and Account_Name stay strings (qstat.c:177) */
	if (!o->node && (strcmp(name, "Job_Name") == 0 || strcmp(name, "project") == 0 ||
			 strcmp(name, "Account_Name") == 0))
		json_string(o->b, value);
	else
		json_value(o->b, value);
}

void sl_pbs_out_attr(struct sl_pbs_out *o, const char *name, const char *res, const char *value)
{
	if (value == NULL)
		return;
	if (o->fmt == SL_PBS_OUT_JSON) {
		attr_json(o, name, res, value);
	} else if (o->node && o->fmt == SL_PBS_OUT_DEFAULT) {
		node_default(o->b, name, res, value);
	} else if (o->node) {
		if (o->attrs > 0)
			sl_buf_addstr(o->b, o->delim);
		sl_buf_addf(o->b, "%s%s%s=", name, res ? "." : "", res ? res : "");
		add_shown(o->b, value, res == NULL && strcmp(name, "jobs") == 0);
	} else if (o->fmt == SL_PBS_OUT_DEFAULT) {
		attr_default(o->b, o->width, name, res, value);
	} else {
		attr_dsv(o, name, res, value);
	}
	o->attrs++;
}

void sl_pbs_out_str(struct sl_pbs_out *o, const char *key, const char *value)
{
	if (o->fmt != SL_PBS_OUT_JSON)
		return;
	close_group(o);
	json_key(o, key);
	json_string(o->b, value);
}

void sl_pbs_out_num(struct sl_pbs_out *o, const char *key, double value)
{
	if (o->fmt != SL_PBS_OUT_JSON)
		return;
	close_group(o);
	json_key(o, key);
	json_number(o->b, value);
}

void sl_pbs_out_strv(struct sl_pbs_out *o, const char *key, char *const *v, size_t n)
{
	if (o->fmt != SL_PBS_OUT_JSON)
		return;
	close_group(o);
	json_key(o, key);
	sl_buf_addc(o->b, '[');
	for (size_t i = 0; i < n; i++) {
		sl_buf_addstr(o->b, i ? ", " : "");
		json_string(o->b, v[i]);
	}
	sl_buf_addc(o->b, ']');
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
