/* yaml.h - libyaml -> a small generic tree that remembers file and line, so
 * every config error can name "file:line: object: key.path". Anchors,
 * aliases and merge keys (`<<: *x`) are expanded into plain copies, so
 * readers never see them; what the copies add is capped (an alias bomb is
 * refused with SL_ETOOBIG). */
#ifndef SL_YAML_H
#define SL_YAML_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

enum sl_ynode_type { SL_Y_SCALAR, SL_Y_MAP, SL_Y_SEQ };

struct sl_ynode {
	enum sl_ynode_type type;
	int line;              /* 1-based line of the node's start */
	char *scalar;          /* SL_Y_SCALAR: the text (never NULL) */
	int quoted;            /* SL_Y_SCALAR: was written in quotes */
	size_t n;              /* MAP: number of pairs; SEQ: number of items */
	char **keys;           /* MAP: keys[i] (scalar keys only) */
	int *key_lines;        /* MAP: line of keys[i] */
	struct sl_ynode **vals;/* MAP: value of keys[i]; SEQ: items */
};

/* One YAML stream = several documents. */
struct sl_ydocs {
	char *file;             /* name used in messages (basename of the path) */
	size_t n;
	struct sl_ynode **docs; /* NULL entries for empty documents are skipped */
};

/* Parse a file or a buffer. Caller frees with sl_ydocs_free(). Errors read
 * "file:line: <libyaml problem>". `name` labels messages for buffers. */
int sl_yaml_load_file(const char *path, struct sl_ydocs **out, struct sl_err *err);
int sl_yaml_load_buf(const char *name, const char *data, size_t len,
		     struct sl_ydocs **out, struct sl_err *err);
/* As sl_yaml_load_file, but stop reading after the first document for which
 * stop() returns nonzero (later documents are not even parsed): commands
 * that only need the socket skip the queue definitions. */
int sl_yaml_load_file_until(const char *path, int (*stop)(const struct sl_ynode *doc),
			    struct sl_ydocs **out, struct sl_err *err);
void sl_ydocs_free(struct sl_ydocs *d);

/* Borrowed lookups; NULL if absent or if n is not a map. */
struct sl_ynode *sl_ymap_get(const struct sl_ynode *map, const char *key);
/* Line of `key` in map, or the map's own line when absent. */
int sl_ymap_key_line(const struct sl_ynode *map, const char *key);

/* Scalar conversions: 0 or -SL_EINVAL (no message; callers add the path). */
int sl_yscalar_bool(const struct sl_ynode *n, int *out);
int sl_yscalar_int64(const struct sl_ynode *n, int64_t *out);
/* True when the scalar is YAML null: "", "~", "null" unquoted. */
int sl_yscalar_is_null(const struct sl_ynode *n);

/* Set err (first error wins) to "FILE:LINE: KIND \"NAME\": PATH: message".
 * KIND/NAME/PATH parts are left out when NULL. Returns -code. This is the one
 * spelling of config errors: conf.c and the Kueue object parser both use it. */
int sl_yerr(struct sl_err *err, int code, const char *file, int line,
	    const char *kind, const char *name, const char *path,
	    const char *fmt, ...) __attribute__((format(printf, 8, 9)));

#endif
