/* migrate_int.h - shared state of `sluice migrate`'s mapper: the inputs,
 * the three outputs being written, one note list per input line, and the
 * flavors and accounts derived on the way. Private to compat/migrate*.c. */
#ifndef SL_MIGRATE_INT_H
#define SL_MIGRATE_INT_H

#include <stdint.h>
#include "buf.h"
#include "migrate.h"
#include "sacctmgr.h"
#include "slurm_conf.h"

#define MIG_OUT_MAX (64u << 20) /* each output document */

enum mig_status { MIG_MAPPED, MIG_APPROX, MIG_DROPPED };
enum mig_src { MIG_CONF, MIG_ACCT };

struct mig_notes {
	struct sl_buf *text; /* "  mapped: ...\n" lines */
};

struct mig_flavor {
	char *name;
	char *sig;        /* sorted features + "|" + GPU type: nodes alike */
	char *gpu_type;   /* NULL: no typed GPU */
	char **features;  /* borrowed from its first node */
};

struct mig_account {
	char *name; /* Slurm's, lowercased */
	char ns[64];
	char *parent;
	int64_t share; /* Fairshare=; -1 "parent" */
	size_t ent;    /* its sacctmgr entry */
	int has_users;
	double weight; /* normalised down the tree, for fairSharing */
};

struct mig_user {
	char *name;
	char **accounts; /* default first */
	int admin;
};

struct mig {
	const struct sl_slurm_conf *c;
	const struct sl_slurm_nodes *nodes;
	const struct sl_acctdb *db;
	struct mig_notes *conf_notes, *acct_notes;
	struct sl_buf *cfg, *kueue, *limits, *parts; /* parts: partitions.yaml */
	size_t nflavors, naccounts, nusers;
	struct mig_flavor *flavors;
	size_t *node_flavor;
	struct mig_account *accounts;
	struct mig_user *users;
	int has_gpu;   /* some node has gres/gpu: queues cover nvidia.com/gpu */
	int count_mem; /* SelectTypeParameters counts memory */
	int fair;      /* admission fair sharing from the accounts' shares */
	unsigned char *overlap; /* partitions x partitions: 1 where they share a node */
	char cluster[64];
};

void mig_note(struct mig *m, enum mig_src src, size_t idx, enum mig_status st, const char *fmt,
	      ...) __attribute__((format(printf, 5, 6)));
/* Output appends; the cap (MIG_OUT_MAX) is far past any config. */
void mig_out(struct sl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A YAML double-quoted string of s. Returns a static-free copy: caller frees. */
char *mig_q(const char *s);

/* migrate_keys.c: slurm.conf's global settings, one table row each. */
void mig_keys(struct mig *m);
/* migrate_flavors.c: nodes -> flavors (and the NodeName lines' notes);
 * then the features: map and the ResourceFlavor objects. */
void mig_flavors(struct mig *m);
void mig_flavor_docs(struct mig *m);
/* migrate_queues.c: ClusterQueues, LocalQueues, partition defaults. */
void mig_queues(struct mig *m);
/* migrate_acct.c: accounts, users, QOS. */
void mig_accounts(struct mig *m);
void mig_qos(struct mig *m);
void mig_accounts_map(struct mig *m);
/* "cpu=10,mem=20G,gres/gpu=4" -> "{cpu: \"10\", memory: \"20Gi\", ...}";
 * what has no Kueue resource is named in *dropped (caller frees). */
char *mig_tres(const char *tres, char **dropped);
/* A Slurm value of a key, case-insensitive, on the line; for the tables. */
const char *mig_global(const struct mig *m, const char *key);

#endif
