/* sdiag_fmt.h - sdiag's report, as Slurm 22.05's sdiag prints it (its
 * _print_stats), from the DIAG reply (PROTOCOL.md). */
#ifndef SL_SDIAG_FMT_H
#define SL_SDIAG_FMT_H

#include <json-c/json.h>
#include <stdint.h>

/* The RPC tables' order: -i, -t, -T, else by count. */
enum sl_sdiag_sort { SL_SDIAG_BY_COUNT, SL_SDIAG_BY_ID, SL_SDIAG_BY_TIME, SL_SDIAG_BY_AVE };

/* A user's name for the by-user table; NULL: its number is shown. */
typedef const char *(*sl_sdiag_user_fn)(uint32_t uid, void *arg);

/* The report; caller frees. Times in the local zone, as ctime(3). */
char *sl_sdiag_text(json_object *rep, enum sl_sdiag_sort sort, sl_sdiag_user_fn user, void *arg);

#endif
