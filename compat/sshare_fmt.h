/* sshare_fmt.h - sshare's association tree and columns, as Slurm 22.05's
 * sshare prints them (print_fields: widths, '+' for a cut value, -p/-P),
 * over the rows of SL_MSG_SHARES. The normalized values are computed here
 * (README, "sshare"): NormShares among siblings, EffectvUsage and
 * NormUsage as a part of all usage, a user's FairShare by Slurm's classic
 * formula 2^(-EffectvUsage/NormShares) with NormShares taken down the tree,
 * LevelFS as NormShares over the part of its siblings' usage. Pure. */
#ifndef SL_SSHARE_FMT_H
#define SL_SSHARE_FMT_H

#include <stddef.h>
#include "buf.h"
#include "client.h"
#include "err.h"

struct sl_sshare_opts {
	int all;          /* -a: every user, not only `users` */
	int long_list;    /* -l */
	int partitions;   /* -m: the Partition column */
	int users_only;   /* -U */
	int noheader;     /* -n, -h */
	int parsable;     /* 1: -p ('|' after every field), 2: -P (not after the last) */
	const char *format; /* -o: "A,User,...", names in any case, NAME%WIDTH */
	char **users;     /* NULL-terminated; without -a: whose rows to show */
	char **accounts;  /* NULL-terminated or NULL: -A */
};

/* Append sshare's output for rows to b. -SL_EINVAL with Slurm's text
 * (`Invalid field requested: "x"`) for an unknown -o name, -SL_EUNSUPP
 * ("F is not supported by Sluice") for one Sluice has no value for. */
int sl_sshare_print(const struct sl_share_row *rows, size_t n, const struct sl_sshare_opts *o,
		    struct sl_buf *b, struct sl_err *err);

#endif
