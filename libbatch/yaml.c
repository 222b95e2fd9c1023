/* yaml.c - libyaml event stream -> struct sl_ynode trees, one per document,
 * with the line of every node and key. Non-scalar keys and duplicate keys
 * are refused. Anchors (&x) and aliases (*x) are expanded while the tree is
 * built: an alias becomes a copy of the node its anchor names (lines
 * included, so an error in it points at where it was written), and a merge
 * key (`<<: *x`, or a list of them) adds the keys its mappings have and the
 * mapping lacks, earlier mappings first. Copies are what makes an alias bomb
 * (billion laughs) dangerous, so what they add is counted and capped
 * (YAML_MAX_EXPANDED). Anchors live for their document, as YAML scopes them;
 * on mapping keys they are refused. Input size and nesting depth are capped
 * before anything grows with them. */
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
/* What aliases and merges may add to one load, in bytes of tree (ynode_size,
 * malloc's overhead aside): four times the input cap, so a real config that
 * reuses a block a hundred times passes, and a billion laughs stops within
 * a few hundred MiB and a second. */
#define YAML_MAX_EXPANDED ((size_t)YAML_MAX_BYTES * 4)

struct yanchor {
	char *name;
	const struct sl_ynode *node; /* borrowed from the tree; NULL while open */
	size_t size;                 /* ynode_size(node) */
	int height;                  /* levels below node */
};

struct yctx {
	int (*stop)(const struct sl_ynode *doc); /* stop after a doc it accepts */
	yaml_parser_t parser;
	const char *file;
	struct sl_err *err;
	struct yanchor *anchors;     /* this document's, in order of definition */
	size_t nanchors, capanchors;
	struct sl_ynode **merged;    /* merge sources, kept until the document
	                                ends since anchors may point into them */
	size_t nmerged, capmerged;
	size_t expanded;             /* what copies have added so far */
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

/* A mapping key is a plain scalar: anchors and aliases there are refused. */
static int check_key(struct yctx *c, const yaml_event_t *ev)
{
	const char *what = NULL;

	if (ev->type == YAML_ALIAS_EVENT)
		what = "aliases";
	else if (ev->type == YAML_SCALAR_EVENT && ev->data.scalar.anchor != NULL)
		what = "anchors";
	else if (ev->type != YAML_SCALAR_EVENT)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark),
			       NULL, NULL, NULL, "mapping keys must be scalars");
	if (what != NULL)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark),
			       NULL, NULL, NULL, "YAML %s on mapping keys are not supported",
			       what);
	return 0;
}

/* ---- anchors and aliases ---- */

static const char *anchor_of(const yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT)
		return (const char *)ev->data.scalar.anchor;
	if (ev->type == YAML_MAPPING_START_EVENT)
		return (const char *)ev->data.mapping_start.anchor;
	if (ev->type == YAML_SEQUENCE_START_EVENT)
		return (const char *)ev->data.sequence_start.anchor;
	return NULL;
}

/* The bytes a copy of the tree allocates (malloc's own overhead aside). */
static size_t ynode_size(const struct sl_ynode *n)
{
	size_t s = sizeof(*n);

	if (n == NULL)
		return 0;
	if (n->scalar != NULL)
		s += strlen(n->scalar) + 1;
	for (size_t i = 0; i < n->n; i++) {
		s += sizeof(*n->vals) + ynode_size(n->vals[i]);
		if (n->keys != NULL)
			s += sizeof(*n->keys) + sizeof(*n->key_lines) + strlen(n->keys[i]) + 1;
	}
	return s;
}

static int ynode_height(const struct sl_ynode *n)
{
	int h = 0;

	for (size_t i = 0; n != NULL && i < n->n; i++) {
		int k = 1 + ynode_height(n->vals[i]);
		if (k > h)
			h = k;
	}
	return h;
}

static struct sl_ynode *ynode_copy(const struct sl_ynode *n)
{
	struct sl_ynode *m = sl_xcalloc(1, sizeof(*m));

	*m = *n;
	m->scalar = n->scalar ? sl_xstrdup(n->scalar) : NULL;
	m->keys = NULL;
	m->key_lines = NULL;
	m->vals = n->n ? sl_xcalloc(n->n, sizeof(*m->vals)) : NULL;
	if (n->keys != NULL) {
		m->keys = sl_xcalloc(n->n, sizeof(*m->keys));
		m->key_lines = sl_xcalloc(n->n, sizeof(*m->key_lines));
	}
	for (size_t i = 0; i < n->n; i++) {
		if (n->keys != NULL) {
			m->keys[i] = sl_xstrdup(n->keys[i]);
			m->key_lines[i] = n->key_lines[i];
		}
		m->vals[i] = ynode_copy(n->vals[i]);
	}
	return m;
}

/* The latest definition of name, or NULL. */
static struct yanchor *anchor_find(struct yctx *c, const char *name)
{
	for (size_t i = c->nanchors; i > 0; i--)
		if (strcmp(c->anchors[i - 1].name, name) == 0)
			return &c->anchors[i - 1];
	return NULL;
}

/* Defined at the node's start (so that an alias inside it is caught as
 * recursive), usable once the node is complete: anchor_close. */
static size_t anchor_open(struct yctx *c, const char *name)
{
	c->anchors = sl_xgrow(c->anchors, &c->capanchors, c->nanchors + 1, sizeof(*c->anchors));
	c->anchors[c->nanchors] = (struct yanchor){sl_xstrdup(name), NULL, 0, 0};
	return c->nanchors++;
}

static void anchor_close(struct yctx *c, size_t i, const struct sl_ynode *node)
{
	c->anchors[i].node = node;
	c->anchors[i].size = ynode_size(node);
	c->anchors[i].height = ynode_height(node);
}

/* What the document's anchors and merges held, let go at its end. */
static void doc_scope_end(struct yctx *c)
{
	for (size_t i = 0; i < c->nanchors; i++)
		free(c->anchors[i].name);
	c->nanchors = 0;
	for (size_t i = 0; i < c->nmerged; i++)
		ynode_free(c->merged[i]);
	c->nmerged = 0;
}

static int expand(struct yctx *c, size_t size, const yaml_event_t *ev, const char *name)
{
	if (size > YAML_MAX_EXPANDED - c->expanded)
		return sl_yerr(c->err, SL_ETOOBIG, c->file, line_of(&ev->start_mark), NULL, NULL,
			       NULL, "YAML alias *%s: aliases expand the input past %zu MiB "
			       "(an alias bomb?)", name, YAML_MAX_EXPANDED >> 20);
	c->expanded += size;
	return 0;
}

/* *out: a copy of the node the alias names, at depth (which the copy's
 * own levels must not take past the cap: aliases of aliases nest). */
static int resolve_alias(struct yctx *c, const yaml_event_t *ev, int depth,
			 struct sl_ynode **out)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct yanchor *a = anchor_find(c, name);
	int r;

	if (a == NULL)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark), NULL, NULL,
			       NULL, "YAML alias *%s: no anchor &%s before it in this document",
			       name, name);
	if (a->node == NULL)
		return sl_yerr(c->err, SL_EINVAL, c->file, line_of(&ev->start_mark), NULL, NULL,
			       NULL, "YAML alias *%s is inside the node &%s names (a recursive "
			       "alias)", name, name);
	if (depth + a->height > YAML_MAX_DEPTH)
		return sl_yerr(c->err, SL_ETOOBIG, c->file, line_of(&ev->start_mark), NULL, NULL,
			       NULL, "YAML alias *%s: nested deeper than %d levels", name,
			       YAML_MAX_DEPTH);
	if ((r = expand(c, a->size, ev, name)) != 0)
		return r;
	*out = ynode_copy(a->node);
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

	if ((r = check_key(c, kev)) == 0 && (i = key_index(map, key)) >= 0)
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

/* `<<` written plain is YAML's merge key; quoted it is an ordinary key. */
static int is_merge_key(const yaml_event_t *ev)
{
	return ev->type == YAML_SCALAR_EVENT && ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       ev->data.scalar.length == 2 && memcmp(ev->data.scalar.value, "<<", 2) == 0;
}

/* The value of a merge key: a mapping, or a list of mappings; consumes m
 * (kept in c->merged until the document ends). */
static int merge_add(struct yctx *c, struct sl_ynode *m)
{
	int r = 0;

	c->merged = sl_xgrow(c->merged, &c->capmerged, c->nmerged + 1, sizeof(*c->merged));
	c->merged[c->nmerged++] = m;
	if (m->type == SL_Y_SEQ)
		for (size_t i = 0; i < m->n && r == 0; i++)
			if (m->vals[i]->type != SL_Y_MAP)
				r = -1;
	if (m->type == SL_Y_SCALAR || r != 0)
		return sl_yerr(c->err, SL_EINVAL, c->file, m->line, NULL, NULL, NULL,
			       "the merge key << takes a mapping or a list of mappings");
	return 0;
}

/* Merge src's keys that map lacks (copies: anchors may point into src). */
static int merge_one(struct yctx *c, struct sl_ynode *map, size_t *cap,
		     const struct sl_ynode *src, const yaml_event_t *ev)
{
	int r;

	for (size_t i = 0; i < src->n; i++) {
		if (key_index(map, src->keys[i]) >= 0)
			continue;
		if ((r = expand(c, sizeof(char *) + sizeof(int) + strlen(src->keys[i]) + 1 +
					   sizeof(*map->vals) + ynode_size(src->vals[i]), ev, "<<")) != 0)
			return r;
		map->vals = sl_xgrow(map->vals, cap, map->n + 1, sizeof(*map->vals));
		map->keys = sl_xrealloc(map->keys, *cap * sizeof(*map->keys));
		map->key_lines = sl_xrealloc(map->key_lines, *cap * sizeof(int));
		map->keys[map->n] = sl_xstrdup(src->keys[i]);
		map->key_lines[map->n] = src->key_lines[i];
		map->vals[map->n++] = ynode_copy(src->vals[i]);
	}
	return 0;
}

/* At the mapping's end, so that its own keys win wherever they are written;
 * of the merged mappings, the first that has a key gives it. */
static int merge_all(struct yctx *c, struct sl_ynode *map, size_t *cap,
		     struct sl_ynode *const *from, size_t n, const yaml_event_t *ev)
{
	int r = 0;

	for (size_t k = 0; k < n && r == 0; k++) {
		const struct sl_ynode *m = from[k];
		if (m->type == SL_Y_MAP)
			r = merge_one(c, map, cap, m, ev);
		for (size_t i = 0; m->type == SL_Y_SEQ && i < m->n && r == 0; i++)
			r = merge_one(c, map, cap, m->vals[i], ev);
	}
	return r;
}

/* A merge key's value, the key event consumed: added to the mapping's
 * list *v (borrowed from c->merged). */
static int parse_merge(struct yctx *c, int depth, struct sl_ynode ***v, size_t *n, size_t *cap)
{
	struct sl_ynode *m = NULL;
	yaml_event_t ev;
	int r;

	if ((r = next_event(c, &ev)) != 0)
		return r;
	if ((r = parse_node(c, &ev, depth + 1, &m)) != 0) {
		ynode_free(m);
		return r;
	}
	*v = sl_xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = m;
	return merge_add(c, m);
}

/* The items of a sequence or a mapping, up to its end event. */
static int parse_items(struct yctx *c, struct sl_ynode *n, int depth)
{
	yaml_event_type_t end = n->type == SL_Y_MAP ? YAML_MAPPING_END_EVENT
						    : YAML_SEQUENCE_END_EVENT;
	struct sl_ynode **merges = NULL; /* this mapping's merge sources */
	size_t cap = 0, nmerges = 0, capmerges = 0;
	yaml_event_t ev;
	int r;

	for (;;) {
		if ((r = next_event(c, &ev)) != 0)
			break;
		if (ev.type == end) {
			r = merge_all(c, n, &cap, merges, nmerges, &ev);
			yaml_event_delete(&ev);
			break;
		}
		if (n->type == SL_Y_MAP && is_merge_key(&ev)) {
			yaml_event_delete(&ev);
			if ((r = parse_merge(c, depth, &merges, &nmerges, &capmerges)) != 0)
				break;
			continue;
		}
		if (n->type == SL_Y_MAP) {
			if ((r = map_add_key(c, n, &cap, &ev)) != 0 ||
			    (r = next_event(c, &ev)) != 0)
				break;
		} else {
			n->vals = sl_xgrow(n->vals, &cap, n->n + 1, sizeof(*n->vals));
			n->vals[n->n++] = NULL; /* counted now so free() sees a partial item */
		}
		if ((r = parse_node(c, &ev, depth + 1, &n->vals[n->n - 1])) != 0)
			break;
	}
	free(merges);
	return r;
}

/* Consumes *ev. On error *out may hold a partial tree (the caller frees). */
static int parse_node(struct yctx *c, yaml_event_t *ev, int depth,
		      struct sl_ynode **out)
{
	const char *anchor = anchor_of(ev);
	size_t a = 0;
	int r = 0;

	if (depth > YAML_MAX_DEPTH) {
		r = sl_yerr(c->err, SL_ETOOBIG, c->file, line_of(&ev->start_mark),
			    NULL, NULL, NULL, "nested deeper than %d levels",
			    YAML_MAX_DEPTH);
		goto out;
	}
	if (anchor != NULL)
		a = anchor_open(c, anchor);
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		r = resolve_alias(c, ev, depth, out);
		break;
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
	if (r == 0 && anchor != NULL)
		anchor_close(c, a, *out);
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
	doc_scope_end(c);
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
	doc_scope_end(&c);
	free(c.anchors);
	free(c.merged);
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
