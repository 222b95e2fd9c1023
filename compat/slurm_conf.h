/* slurm_conf.h - slurm.conf as slurmctld reads it: logical lines (comments
 * stripped, '\' continuations joined, Include files inlined where they
 * stand), each a list of KEY=VALUE pairs; then the nodes and partitions
 * those lines describe (slurm_nodes.c). Read-only: `sluice migrate` maps
 * it, nothing in Sluice runs on it. */
#ifndef SL_SLURM_CONF_H
#define SL_SLURM_CONF_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

#define SL_SCONF_LINES_MAX 100000 /* a site's slurm.conf, not a data set */
#define SL_SCONF_INCLUDE_DEPTH 8

struct sl_sconf_kv {
	char *key;   /* as written ("NodeName"); compare with strcasecmp */
	char *value; /* quotes removed */
};

/* One logical line. The first pair names what it is: NodeName=,
 * PartitionName=, NodeSet=, DownNodes= start an entity whose other pairs
 * are its parameters; any other line is one or more global settings. */
struct sl_sconf_line {
	char *file; /* the file it came from (slurm.conf or an Include) */
	int line;   /* its first physical line */
	char *text; /* the logical line as read, for the report */
	size_t nkv;
	struct sl_sconf_kv *kv;
};

struct sl_slurm_conf;

/* Read PATH and what it Includes (relative names: from PATH's directory).
 * Caller frees with sl_slurm_conf_free(). Errors name file:line: unreadable
 * files, an Include loop or depth past SL_SCONF_INCLUDE_DEPTH, a token that
 * is not KEY=VALUE, an unterminated quote. */
int sl_slurm_conf_load(const char *path, struct sl_slurm_conf **out, struct sl_err *err);
void sl_slurm_conf_free(struct sl_slurm_conf *c);

/* Lines in file order (Includes where they stand); borrowed. Include lines
 * themselves are kept too, so the report can say what became of them. */
size_t sl_slurm_conf_nlines(const struct sl_slurm_conf *c);
const struct sl_sconf_line *sl_slurm_conf_line(const struct sl_slurm_conf *c, size_t i);

/* A global setting's value (case-insensitive key; the last one wins, as in
 * slurmctld), or NULL. Borrowed. */
const char *sl_slurm_conf_get(const struct sl_slurm_conf *c, const char *key);
/* A pair's value in one line, or NULL. */
const char *sl_sconf_line_get(const struct sl_sconf_line *l, const char *key);

/* ---- nodes and partitions (slurm_nodes.c) ------------------------------ */

struct sl_sgres {
	char *name;    /* "gpu" */
	char *type;    /* "a100", or NULL */
	int64_t count; /* 4 */
};

struct sl_snode {
	char *name;
	int64_t cpus;   /* CPUs=, else Boards*Sockets*CoresPerSocket*ThreadsPerCore */
	int64_t mem_mb; /* RealMemory= (MB); 1 when unset, as Slurm */
	char **features; /* Features= (AvailableFeatures), NULL-terminated */
	size_t ngres;
	struct sl_sgres *gres;
	size_t line; /* index of its NodeName line */
	int future;  /* State=FUTURE: defined, not in service */
};

struct sl_spart {
	char *name;
	size_t nnodes, capnodes;
	size_t *nodes;     /* indexes into the node list, each once */
	size_t line;       /* index of its PartitionName line */
	int is_default;    /* Default=YES */
	const struct sl_sconf_line *params; /* its line; DEFAULT lines merged by get */
};

struct sl_slurm_nodes;

/* Nodes (NodeName= lines, hostlists expanded, NodeName=DEFAULT applied)
 * and partitions (PartitionName= lines, Nodes= resolved through hostlists,
 * NodeSets and ALL). Caller frees with sl_slurm_nodes_free(). Errors: a bad
 * hostlist or number, a partition naming a node that no NodeName defines. */
int sl_slurm_nodes_resolve(const struct sl_slurm_conf *c, struct sl_slurm_nodes **out,
			   struct sl_err *err);
void sl_slurm_nodes_free(struct sl_slurm_nodes *n);
size_t sl_slurm_nodes_count(const struct sl_slurm_nodes *n);
const struct sl_snode *sl_slurm_node(const struct sl_slurm_nodes *n, size_t i);
size_t sl_slurm_parts_count(const struct sl_slurm_nodes *n);
const struct sl_spart *sl_slurm_part(const struct sl_slurm_nodes *n, size_t i);
/* A partition parameter: its own line, else the last PartitionName=DEFAULT
 * before it, else NULL. Borrowed. */
const char *sl_spart_get(const struct sl_slurm_nodes *n, const struct sl_spart *p,
			 const char *key);

/* "gpu:a100:4,gpu:2,mps:100(S:0)" -> entries; counts take K/M/G. 0 or
 * -SL_EINVAL. *out: caller frees with sl_sgres_free(). */
int sl_sgres_parse(const char *s, struct sl_sgres **out, size_t *n, struct sl_err *err);
void sl_sgres_free(struct sl_sgres *g, size_t n);

#endif
