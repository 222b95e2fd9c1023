/* yaml.c - libyaml event stream -> struct sl_ynode trees, one per document,
 * with the line of every node and key. Anchors, aliases, non-scalar keys and
 * duplicate keys are refused: a config never needs them, and refusing them
 * keeps "what you read is what the daemon runs" true. Input size and nesting
 * depth are capped before anything grows with them. */
#include "yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* libbatch/yaml.h shadows libyaml's <yaml.h> on the -I path (-I libbatch),
 * so reach libyaml's header through its include directory's parent. Works for
 * any PREFIX/include install; the clean fix is -iquote for libbatch/. */
#include <yaml.h>

#include "xalloc.h"

#define YAML_MAX_BYTES (16u << 20)  /* 16 MiB: far above any real config */
#define YAML_MAX_DEPTH 64

struct yctx {
	int (*stop)(const struct sl_ynode *doc); /* stop after a doc it accepts */
	yaml_parser_t parser;
	const char *file;
	struct sl_err *err;
};

static void ynode_free(struct sl_ynode *n)
{
	size_t i;

	if (n == NULL)
		return;
	for (i = 0; i < n->n; i++) {
		if (n->keys != NULL)
			free(n->keys[i]);
		ynode_free(n->vals[i]);
	}
	free(n->keys);
	free(n->key_lines);
	free(n->vals);
	free(n->scalar);
	free(n);
}

void sl_ydocs_free(struct sl_ydocs *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++)
		ynode_free(d->docs[i]);
	free(d->docs);
	free(d->file);
	free(d);
}

/* Index of key in map (not a map: none), or -1. */
static ptrdiff_t key_index(const struct sl_ynode *map, const char *key)
{
	size_t i;

	for (i = 0; map != NULL && map->type == SL_Y_MAP && i < map->n; i++)
		if (strcmp(map->keys[i], key) == 0)
			return (ptrdiff_t)i;
	return -1;
}

static int line_of(const yaml_mark_t *m)
{
	return m->line >= (size_t)INT_MAX ? INT_MAX : (int)m->line + 1;
}

/* libyaml's own diagnosis, e.g. "did not find expected key (while parsing a
 * block mapping)", at the line where it noticed the problem. */
static int parser_error(struct yctx *c)
{
	yaml_parser_t *p = &c->parser;
	const char *problem = p->problem ? p->problem : "invalid YAML";

	if (p->context != NULL)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&p->problem_mark),
			       NULL, NULL, NULL, "%s (%s)", problem, p->context);
	return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&p->problem_mark),
		       NULL, NULL, NULL, "%s", problem);
}

static int next_event(struct yctx *c, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&c->parser, ev))
		return parser_error(c);
	return 0;
}

static int check_anchor(struct yctx *c, const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL;

	if (ev->type == YAML_ALIAS_EVENT)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark),
			       NULL, NULL, NULL,
			       "YAML aliases (*%s) are not supported",
			       (const char *)ev->data.alias.anchor);
	if (ev->type == YAML_SCALAR_EVENT)
		anchor = ev->data.scalar.anchor;
	else if (ev->type == YAML_MAPPING_START_EVENT)
		anchor = ev->data.mapping_start.anchor;
	else if (ev->type == YAML_SEQUENCE_START_EVENT)
		anchor = ev->data.sequence_start.anchor;
	if (anchor != NULL)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark),
			       NULL, NULL, NULL,
			       "YAML anchors (&%s) are not supported",
			       (const char *)anchor);
	return 0;
}

static struct sl_ynode *node_new(enum sl_ynode_type type, const yaml_event_t *ev)
{
	struct sl_ynode *n = sl_xcalloc(1, sizeof(*n));

	n->type = type;
	n->line = line_of(&ev->start_mark);
	return n;
}

static struct sl_ynode *scalar_new(const yaml_event_t *ev)
{
	struct sl_ynode *n = node_new(SL_Y_SCALAR, ev);

	n->scalar = sl_xstrndup((const char *)ev->data.scalar.value,
				ev->data.scalar.length);
	n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	return n;
}

static int parse_node(struct yctx *c, yaml_event_t *ev, int depth,
		      struct sl_ynode **out);

/* Add one mapping key; consumes *kev. The caller parses the value into
 * vals[n - 1]: the key is counted even if the value fails, so free() sees it. */
static int map_add_key(struct yctx *c, struct sl_ynode *map, size_t *cap, yaml_event_t *kev)
{
	const char *key = (const char *)kev->data.scalar.value;
	ptrdiff_t i;
	int r;

	if ((r = check_anchor(c, kev)) == 0 && kev->type != YAML_SCALAR_EVENT)
		r = sl_yerr(c->err, SL_EINVAL, c->file, line_of(&kev->start_mark),
			    NULL, NULL, NULL, "mapping keys must be scalars");
	if (r == 0 && (i = key_index(map, key)) >= 0)
		r = sl_yerr(c->err, SL_EINVAL, c->file, line_of(&kev->start_mark), NULL, NULL,
			    NULL, "duplicate key \"%s\" (first on line %d)", key,
			    map->key_lines[i]);
	if (r == 0) {
		map->vals = sl_xgrow(map->vals, cap, map->n + 1, sizeof(*map->vals));
		map->keys = sl_xrealloc(map->keys, *cap * sizeof(*map->keys));
		map->key_lines = sl_xrealloc(map->key_lines, *cap * sizeof(int));
		map->keys[map->n] = sl_xstrndup(key, kev->data.scalar.length);
		map->key_lines[map->n] = line_of(&kev->start_mark);
		map->vals[map->n++] = NULL;
	}
	yaml_event_delete(kev);
	return r;
}

/* The items of a sequence or a mapping, up to its end event. */
static int parse_items(struct yctx *c, struct sl_ynode *n, int depth)
{
	yaml_event_type_t end = n->type == SL_Y_MAP ? YAML_MAPPING_END_EVENT
						    : YAML_SEQUENCE_END_EVENT;
	size_t cap = 0;
	yaml_event_t ev;
	int r;

	for (;;) {
		if ((r = next_event(c, &ev)) != 0)
			return r;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (n->type == SL_Y_MAP) {
			if ((r = map_add_key(c, n, &cap, &ev)) != 0 ||
			    (r = next_event(c, &ev)) != 0)
				return r;
		} else {
			n->vals = sl_xgrow(n->vals, &cap, n->n + 1, sizeof(*n->vals));
			n->vals[n->n++] = NULL; /* counted now so free() sees a partial item */
		}
		if ((r = parse_node(c, &ev, depth + 1, &n->vals[n->n - 1])) != 0)
			return r;
	}
}

/* Consumes *ev. On error *out may hold a partial tree (the caller frees). */
static int parse_node(struct yctx *c, yaml_event_t *ev, int depth,
		      struct sl_ynode **out)
{
	int r;

	if ((r = check_anchor(c, ev)) != 0)
		goto out;
	if (depth > YAML_MAX_DEPTH) {
		r = sl_yerr(c->err, SL_ETOOBIG, c->file, line_of(&ev->start_mark),
			    NULL, NULL, NULL, "nested deeper than %d levels",
			    YAML_MAX_DEPTH);
		goto out;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		*out = scalar_new(ev);
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		*out = node_new(ev->type == YAML_MAPPING_START_EVENT ? SL_Y_MAP : SL_Y_SEQ, ev);
		r = parse_items(c, *out, depth);
		break;
	default:
		r = sl_yerr(c->err, SL_EINTERNAL, c->file, line_of(&ev->start_mark),
			    NULL, NULL, NULL, "unexpected YAML event %d", ev->type);
	}
out:
	yaml_event_delete(ev);
	return r;
}

/* One document: DOCUMENT-START already consumed; reads root and DOCUMENT-END. */
static int parse_doc(struct yctx *c, struct sl_ydocs *d, size_t *cap)
{
	struct sl_ynode *root = NULL;
	yaml_event_t ev;
	int r;

	if ((r = next_event(c, &ev)) != 0)
		return r;
	if ((r = parse_node(c, &ev, 1, &root)) != 0)
		goto out;
	if ((r = next_event(c, &ev)) != 0)
		goto out;
	yaml_event_delete(&ev); /* DOCUMENT-END: libyaml guarantees it here */
	if (root->type == SL_Y_SCALAR && sl_yscalar_is_null(root))
		goto out;
	d->docs = sl_xgrow(d->docs, cap, d->n + 1, sizeof(*d->docs));
	d->docs[d->n++] = root;
	root = NULL;
	if (c->stop != NULL && c->stop(d->docs[d->n - 1]))
		r = 1; /* enough: the caller found what it looks for */
out:
	ynode_free(root);
	return r;
}

static int parse_stream(struct yctx *c, struct sl_ydocs *d)
{
	size_t cap = 0;
	yaml_event_t ev;
	int r, type;

	if ((r = next_event(c, &ev)) != 0)
		return r;
	yaml_event_delete(&ev); /* STREAM-START */
	for (;;) {
		if ((r = next_event(c, &ev)) != 0)
			return r;
		type = ev.type;
		yaml_event_delete(&ev);
		if (type == YAML_STREAM_END_EVENT)
			return 0;
		if (type != YAML_DOCUMENT_START_EVENT)
			return sl_yerr(c->err, SL_EINTERNAL, c->file, 0, NULL, NULL,
				       NULL, "unexpected YAML event %d", type);
		if ((r = parse_doc(c, d, &cap)) != 0)
			return r > 0 ? 0 : r;
	}
}

static int load_buf(const char *name, const char *data, size_t len,
		    int (*stop)(const struct sl_ynode *), struct sl_ydocs **out,
		    struct sl_err *err)
{
	struct sl_ydocs *d = sl_xcalloc(1, sizeof(*d));
	struct yctx c;
	int r;

	*out = NULL;
	d->file = sl_xstrdup(name ? name : "<buffer>");
	if (len > YAML_MAX_BYTES) {
		r = sl_yerr(err, SL_ETOOBIG, d->file, 0, NULL, NULL, NULL,
			    "larger than %u MiB", YAML_MAX_BYTES >> 20);
		goto out;
	}
	memset(&c, 0, sizeof(c));
	c.file = d->file;
	c.err = err;
	c.stop = stop;
	if (!yaml_parser_initialize(&c.parser)) {
		r = sl_yerr(err, SL_EINTERNAL, d->file, 0, NULL, NULL, NULL,
			    "cannot initialize the YAML parser");
		goto out;
	}
	yaml_parser_set_input_string(&c.parser, (const unsigned char *)data, len);
	r = parse_stream(&c, d);
	yaml_parser_delete(&c.parser);
out:
	if (r != 0)
		sl_ydocs_free(d);
	else
		*out = d;
	return r;
}

/* Reads at most cap+1 bytes, so a huge or endless file (a FIFO, /dev/zero)
 * is refused without being slurped. */
static int read_capped(const char *path, char **data, size_t *len,
		       struct sl_err *err)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	ssize_t got;
	int fd, r = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return sl_err_set(err, errno == ENOENT ? SL_ENOENT : SL_EIO,
				  "%s: %s", path, strerror(errno));
	for (;;) {
		buf = sl_xgrow(buf, &cap, n + 65536, 1);
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > YAML_MAX_BYTES) {
			r = sl_err_set(err, SL_ETOOBIG, "%s: larger than %u MiB",
				       path, YAML_MAX_BYTES >> 20);
			break;
		}
	}
	close(fd);
	if (r != 0) {
		free(buf);
		return r;
	}
	*data = buf;
	*len = n;
	return 0;
}

int sl_yaml_load_buf(const char *name, const char *data, size_t len,
		     struct sl_ydocs **out, struct sl_err *err)
{
	return load_buf(name, data, len, NULL, out, err);
}

int sl_yaml_load_file_until(const char *path, int (*stop)(const struct sl_ynode *doc),
			    struct sl_ydocs **out, struct sl_err *err)
{
	const char *base = strrchr(path, '/');
	char *data = NULL;
	size_t len = 0;
	int r;

	*out = NULL;
	if ((r = read_capped(path, &data, &len, err)) != 0)
		return r;
	r = load_buf(base ? base + 1 : path, data, len, stop, out, err);
	free(data);
	return r;
}

int sl_yaml_load_file(const char *path, struct sl_ydocs **out, struct sl_err *err)
{
	return sl_yaml_load_file_until(path, NULL, out, err);
}

struct sl_ynode *sl_ymap_get(const struct sl_ynode *map, const char *key)
{
	ptrdiff_t i = key_index(map, key);

	return i < 0 ? NULL : map->vals[i];
}

int sl_ymap_key_line(const struct sl_ynode *map, const char *key)
{
	ptrdiff_t i = key_index(map, key);

	if (map == NULL)
		return 0;
	return i < 0 ? map->line : map->key_lines[i];
}

/* Quoted scalars are strings in YAML, so "true" and "5" in quotes are not
 * bools or ints: the same strictness Kubernetes applies. */
int sl_yscalar_bool(const struct sl_ynode *n, int *out)
{
	static const char *const words[] = {"false", "False", "FALSE", "true", "True", "TRUE"};
	size_t i;

	if (n == NULL || n->type != SL_Y_SCALAR || n->quoted)
		return -SL_EINVAL;
	for (i = 0; i < 6; i++)
		if (strcmp(n->scalar, words[i]) == 0) {
			*out = i >= 3;
			return 0;
		}
	return -SL_EINVAL;
}

int sl_yscalar_int64(const struct sl_ynode *n, int64_t *out)
{
	const char *s;
	char *end;
	long long v;

	if (n == NULL || n->type != SL_Y_SCALAR || n->quoted)
		return -SL_EINVAL;
	s = n->scalar;
	if (*s == '+' || *s == '-')
		s++;
	if (*s < '0' || *s > '9')
		return -SL_EINVAL;
	errno = 0;
	v = strtoll(n->scalar, &end, 10);
	if (errno != 0 || *end != '\0')
		return -SL_EINVAL;
	*out = (int64_t)v;
	return 0;
}

int sl_yscalar_is_null(const struct sl_ynode *n)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
	size_t i;

	if (n == NULL || n->type != SL_Y_SCALAR || n->quoted)
		return 0;
	for (i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (strcmp(n->scalar, nulls[i]) == 0)
			return 1;
	return 0;
}

int sl_yerr(struct sl_err *err, int code, const char *file, int line,
	    const char *kind, const char *name, const char *path,
	    const char *fmt, ...)
{
	char pre[SL_ERR_MSG_MAX], msg[SL_ERR_MSG_MAX];
	size_t o = 0;
	va_list ap;

	pre[0] = '\0';
#define PRE(...) \
	o += (size_t)snprintf(pre + o, o < sizeof(pre) ? sizeof(pre) - o : 0, __VA_ARGS__)
	if (file != NULL && line > 0)
		PRE("%s:%d: ", file, line);
	else if (file != NULL)
		PRE("%s: ", file);
	if (kind != NULL && name != NULL)
		PRE("%s \"%s\": ", kind, name);
	else if (kind != NULL)
		PRE("%s: ", kind);
	else if (name != NULL)
		PRE("\"%s\": ", name);
	if (path != NULL && *path != '\0')
		PRE("%s: ", path);
#undef PRE
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sl_err_set(err, code, "%s%s", pre, msg);
}
