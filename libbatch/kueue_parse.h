/* kueue_parse.h - field helpers shared by the Kueue manifest parsers
 * (kueue.c, kueue_parse.c). Internal to libbatch. They track the YAML path
 * ("spec.resourceGroups[0].flavors[1]") so every error names FILE:LINE,
 * the object and the field. */
#ifndef SL_KUEUE_PARSE_H
#define SL_KUEUE_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "kueue.h"
#include "yaml.h"

struct kp {
	struct sl_err *err;
	const char *file;
	int line;
	const char *kind;
	const char *name;
	char path[512];
	size_t mark[32];
	int depth;
};

struct kp_enum {
	const char *name;
	int value;
};

void kp_push(struct kp *p, const char *seg);
void kp_pushi(struct kp *p, size_t i);
void kp_pop(struct kp *p);
/* Error at map[key] (or map itself when key is NULL); returns -SL_EINVAL. */
int kp_err(struct kp *p, const struct sl_ynode *map, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int kp_keys(struct kp *p, const struct sl_ynode *map, const char *const *allowed);
int kp_map(struct kp *p, const struct sl_ynode *parent, const char *key);
int kp_str(struct kp *p, const struct sl_ynode *map, const char *key, char **out, bool required);
int kp_strv(struct kp *p, const struct sl_ynode *map, const char *key, char ***out, size_t *n,
	    bool required);
int kp_seq(struct kp *p, const struct sl_ynode *map, const char *key,
	   const struct sl_ynode **out, bool required);
int kp_qty(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out, int *has,
	   bool required);
int kp_int(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out, int *has);
int kp_bool(struct kp *p, const struct sl_ynode *map, const char *key, int *out);
int kp_dur(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out);
int kp_enumv(struct kp *p, const struct sl_ynode *map, const char *key,
	     const struct kp_enum *tab, int *out, int dflt);
int kp_selector(struct kp *p, const struct sl_ynode *map, const char *key, struct sl_kq_selector *out);
int kp_weight(struct kp *p, const struct sl_ynode *spec, int64_t *out);
int kp_meta(struct kp *p, const struct sl_ynode *doc, const char **ns);
int kp_flavor(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec);
int kp_topology(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec);
int kp_taints(struct kp *p, const struct sl_ynode *spec, struct sl_kq_taint **out, size_t *n);
int kp_kv_map(struct kp *p, const struct sl_ynode *map, const char *key, struct sl_kq_kv **out,
	      size_t *nout);
void sl_kueue_topo_free(struct sl_kueue *k);
int kp_config(struct kp *p, struct sl_kq_config *c, const struct sl_ynode *doc);

#endif
