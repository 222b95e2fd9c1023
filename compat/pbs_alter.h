/* pbs_alter.h - qalter's and qmove's options into the daemon's UPDATE
 * fields (PROTOCOL.md, UPDATE) and hold requests: what `scontrol update`
 * may change, in PBS's words. OpenPBS's letters and usage
 * (src/cmds/qalter.c:190 GETOPT_ARGS, usage at 74); the attributes the
 * job record cannot change (join, keep, shell, user, checkpoint) are
 * refused by name ("qalter: -S is not supported by Sluice", exit 1). */
#ifndef SL_PBS_ALTER_H
#define SL_PBS_ALTER_H

#include <stddef.h>
#include "client.h"
#include "err.h"
#include "pbs_qopt.h"

struct sl_qalter_req {
	struct sl_update_field *f; /* in the order given; strings owned here */
	size_t n;
	int hold, release;         /* -h u|o: set; -h n: release the user hold */
	int operator_hold;         /* -h o */
	char **ids;                /* operands, borrowed from argv */
	int n_ids;
	char **owned;              /* what f's strings point into */
	size_t n_owned, cap_owned;
};

extern const char sl_qalter_usage[];

/* argv of qalter; server names this server's job ids (-W depend). 0, or
 * -SL_E* with err->msg the text after "qalter: " and *f the exit status
 * and usage flag. Clear with sl_qalter_req_clear() either way. */
int sl_qalter_parse(int argc, char **argv, const char *server, struct sl_qalter_req *q,
		    struct sl_pbs_failure *f, struct sl_err *err);
void sl_qalter_req_clear(struct sl_qalter_req *q);
/* The PBS attribute a running job refused (OpenPBS's reply_badattr names
 * the first one not ATR_DFLAG_ALTRUN): the first of q's fields that
 * changes only while a job is queued ("Execution_Time",
 * "Resource_List.select", ...), else the first field's. */
const char *sl_qalter_running_attr(const struct sl_qalter_req *q);

/* qmove DESTINATION JOB...: "queue", "queue@server" of this server, or
 * "@server" (the default queue: refused, Sluice has no server default to
 * move to). 0 with *queue borrowed from argv's copy (caller frees), or as
 * above. */
int sl_qmove_parse(int argc, char **argv, const char *server, char **queue, char ***ids,
		   int *n_ids, struct sl_pbs_failure *f, struct sl_err *err);
extern const char sl_qmove_usage[];

#endif
