/* sinfo_int.h - shared by compat/sinfo_*.c only: sinfo's records (one
 * output line: a partition and the nodes that group with it), its field
 * table and the parsed format. */
#ifndef SL_SINFO_INT_H
#define SL_SINFO_INT_H

#include <stddef.h>
#include <stdint.h>
#include "sinfo_fmt.h"

/* What makes two nodes or partitions fall on different lines: the fields
 * of the format set these (Slurm's match_flags). */
enum {
	M_PART = 1u << 0, M_AVAIL = 1u << 1, M_JOBSIZE = 1u << 2, M_DEFTIME = 1u << 3,
	M_MAXTIME = 1u << 4, M_HOSTNAMES = 1u << 5, M_FEATURES = 1u << 6,
	M_FEATURES_ACT = 1u << 7, M_GRES = 1u << 8, M_GRES_USED = 1u << 9,
	M_REASON = 1u << 10, M_REASON_TIME = 1u << 11, M_REASON_USER = 1u << 12,
	M_STATE = 1u << 13, M_ALLOCMEM = 1u << 14,
};

struct rec {
	const struct sl_sinfo_part *part;
	size_t part_inx;
	const struct sl_sinfo_node **nodes; /* the first one gave the data below */
	size_t nnodes, capnodes;
	char *nodelist;                     /* compressed, set before printing */
	unsigned state;
	uint32_t nodes_alloc, nodes_idle, nodes_other, nodes_total;
	uint32_t cpus_alloc, cpus_idle, cpus_other, cpus_total;
	uint32_t min_cpus, max_cpus, min_load, max_load;
	uint64_t min_mem, max_mem, min_free, max_free, alloc_mem;
	uint64_t min_disk, max_disk;
	const char *features, *gres, *gres_used, *reason, *reason_user;
	uint32_t reason_uid;
	int64_t reason_time;
};

typedef void (*sinfo_printer)(const struct rec *r, char *buf, size_t len);

struct field {
	char code;          /* -o letter; 0: -O only */
	const char *name;   /* -O name; NULL: -o only */
	const char *header;
	unsigned match;     /* M_* */
	unsigned flags;     /* F_* */
	sinfo_printer print;
};

enum {
	F_HEADER_NOCUT = 1u << 0, /* the header is not cut when right-justified */
	F_PARTWIDTH = 1u << 1,    /* takes the computed partition width */
	F_NODEWIDTH = 1u << 2,    /* takes the computed node-list width */
	F_STAR = 1u << 3,         /* the default partition gets its '*' */
};

struct item {
	const struct field *f; /* NULL: invalid, prints its suffix only */
	int width, right;
	char *suffix;
};

struct sl_sinfo_fmt {
	struct item *items;
	size_t n, cap;
	char *prefix;       /* text before the first -o field */
	unsigned match;
	int part_width, node_width; /* compute the widths from the data */
	struct sl_sinfo_opts o;
	unsigned *states;   /* -t, as Slurm's state ids */
	size_t nstates;
	int states_and;     /* -t a&b */
};

/* sinfo_fmt.c: the field table. */
const struct field *sinfo_field_code(char code);
const struct field *sinfo_field_name(const char *name);
/* Cut and pad as sinfo's _print_str() does. */
int sinfo_cell(struct sl_buf *b, const char *val, int width, int right, int cut);

/* Slurm's node_state_string(), lower case, or its _compact() form. */
const char *sinfo_state_name(unsigned state, int compact);

/* sinfo_rec.c: -t. */
int sinfo_states_parse(struct sl_sinfo_fmt *f, const char *list, struct sl_err *err);

#endif
