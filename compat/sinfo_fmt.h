/* sinfo_fmt.h - Slurm 22.05's sinfo over a neutral view of partitions and
 * their nodes: the field table (-o %codes and -O names), how lines group
 * partitions and nodes, the default sort, the state filter (-t) and the
 * printers, byte for byte. Also the view Sluice builds from the daemon's
 * answer (sinfo_view.c), the --quota table and --json (sinfo_json.c).
 * Pure functions: data and `now` in, text out (the command writes it). */
#ifndef SL_SINFO_FMT_H
#define SL_SINFO_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "client.h"
#include "err.h"

/* Slurm's base node states (enum node_states) and its DRAIN flag. */
enum sl_node_base {
	SL_NODE_UNKNOWN, SL_NODE_DOWN, SL_NODE_IDLE, SL_NODE_ALLOCATED, SL_NODE_ERROR,
	SL_NODE_MIXED, SL_NODE_FUTURE, SL_NODE_END
};
#define SL_NODE_BASE 0xfu
#define SL_NODE_DRAIN 0x200u
#define SL_NODE_NO_RESPOND 0x800u     /* "down*": its daemon stopped answering */
#define SL_SINFO_NO_VAL 0xfffffffeu   /* Slurm's NO_VAL: unset uid */
#define SL_SINFO_INFINITE (-1)        /* a time limit without end */
#define SL_SINFO_UNSET (-2)           /* DefaultTime not set: "n/a" */

/* A node as one partition sees it (and, in sl_sinfo_view.nodes, as a whole
 * for --json). Strings are borrowed; NULL means "not set". */
struct sl_sinfo_node {
	const char *name;
	unsigned state;               /* enum sl_node_base | SL_NODE_DRAIN, NO_RESPOND */
	uint32_t cpus, cpus_alloc;
	uint64_t mem, mem_alloc;      /* MiB */
	uint64_t free_mem;            /* MiB */
	uint64_t tmp_disk;            /* MB */
	uint32_t cpu_load;            /* load average x 100 */
	const char *features;         /* "a,b" */
	const char *gres, *gres_used; /* "gpu:8", "gpu:2" */
	const char *reason, *reason_user;
	uint32_t reason_uid;          /* SL_SINFO_NO_VAL when no reason */
	int64_t reason_time;
	/* what --json shows besides */
	const char *addr, *arch, *os, *version;
	uint32_t port;
	int64_t boot_time, start_time, last_busy;
	const char *const *partitions; /* NULL-terminated */
};

struct sl_sinfo_part {
	const char *name;
	int is_default;
	enum sl_part_avail avail;
	int64_t max_time, default_time; /* minutes, SL_SINFO_INFINITE, SL_SINFO_UNSET */
	uint32_t max_nodes;             /* 0: no limit */
	const char *features;           /* shown when it has no nodes (Kubernetes) */
	size_t nnodes;
	const struct sl_sinfo_node *nodes;
	uint32_t min_nodes;
	int64_t def_mem, max_mem;       /* MiB; -1: UNLIMITED */
	int def_mem_per_cpu, max_mem_per_cpu; /* 1: per CPU, 0: per node */
};

struct sl_sinfo_view {
	size_t nparts;
	const struct sl_sinfo_part *parts;
	size_t nnodes;                  /* the distinct nodes, for --json */
	const struct sl_sinfo_node *nodes;
};

/* What the command line asked for. */
struct sl_sinfo_opts {
	int node_flag;       /* -N */
	int exact;           /* -e: nodes of other CPU or memory sizes on lines of their own */
	int summarize;       /* -s */
	int long_output;     /* -l */
	int list_reasons;    /* -R */
	int no_header;       /* -h */
	const char *format;  /* -o or -O (last one), else NULL */
	int format_is_long;  /* -O was given: `format` is a field-name list */
	const char *env_format; /* $SINFO_FORMAT, used only for the default */
	const char *states;  /* -t */
	char *const *parts;  /* -p, NULL-terminated; NULL: every partition */
	char *const *nodes;  /* -n, names expanded, NULL-terminated; NULL: every node */
	int responding;      /* -r: responding nodes only */
	int dead;            /* -d: nodes not responding only */
	int iterate;         /* -i: seconds between reports, each dated (0: one) */
	const char *cluster; /* -M: "CLUSTER: name" after the date, before the header */
};

struct sl_sinfo_fmt;

/* Parse the format (given, or the default for -s/-N/-R/-l) and the states.
 * Invalid fields are not errors in Slurm: their text lands in *warn, one
 * line each, as sinfo prints it on stderr, and the field prints its own
 * text. Errors: SL_EINVAL "Options -o(--format) and -l(--long) are
 * mutually exclusive. ..." (Slurm's fatal), "Bad state string: \"X\"\n
 * valid states: ..." (two lines). Caller frees with sl_sinfo_fmt_free(). */
int sl_sinfo_fmt_new(const struct sl_sinfo_opts *o, struct sl_sinfo_fmt **out,
		     struct sl_buf *warn, struct sl_err *err);
void sl_sinfo_fmt_free(struct sl_sinfo_fmt *f);

/* The whole output for view v: the date line (-l), the header (unless -h),
 * one line per record. -SL_ETOOBIG when out is full. */
int sl_sinfo_print(const struct sl_sinfo_fmt *f, const struct sl_sinfo_view *v, int64_t now,
		   struct sl_buf *out);

/* ---- sinfo_view.c: what Sluice's daemon answered, as sinfo's view ---- */

struct sl_sinfo_built;
/* One node per partition when the daemon names its node (local executor):
 * its CPUs, memory and GPUs are the partition's ClusterQueue quota, its
 * state comes from their usage (idle: nothing admitted; mixed: some used;
 * allocated: every CPU of the quota used), drained when a stop policy holds
 * the partition, down when its ClusterQueue is inactive. An executor's own
 * nodes (ci->knodes, Kubernetes) each in the partitions they name: idle,
 * mixed or allocated from what their pods request, drained when cordoned,
 * down when not Ready. No nodes when the daemon knows none: the partition
 * carries its flavors' node labels as features. Borrows from ci; caller frees with
 * sl_sinfo_built_free() (which does not free ci). */
struct sl_sinfo_built *sl_sinfo_build(const struct sl_clusterinfo *ci);
const struct sl_sinfo_view *sl_sinfo_built_view(const struct sl_sinfo_built *b);
void sl_sinfo_built_free(struct sl_sinfo_built *b);

/* sinfo --quota: PARTITION CLUSTERQUEUE FLAVOR RESOURCE NOMINAL BORROWED
 * LENT USED PENDING, quantities as Kubernetes writes them, columns as wide
 * as their widest cell. parts: NULL-terminated filter, or NULL. */
int sl_sinfo_quota(const struct sl_clusterinfo *ci, char *const *parts, int no_header,
		   struct sl_buf *out);

/* ---- sinfo_json.c: sinfo --json, Slurm 22.05's openapi/v0.0.38 nodes
 * document (that release dumps every node, whatever the options). */
int sl_sinfo_json(const struct sl_sinfo_view *v, struct sl_buf *out);

#endif
