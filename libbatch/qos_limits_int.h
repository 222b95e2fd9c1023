/* qos_limits_int.h - the parsed limits, shared by qos_limits.c (parsing) and
 * qos_limits_check.c (usage and reasons). Internal to libbatch. */
#ifndef SL_QOS_LIMITS_INT_H
#define SL_QOS_LIMITS_INT_H

#include "qos_limits.h"

#define LIM_NONE (-1) /* a limit not set */

struct lim_set {
	int64_t max_jobs_pu, max_submit_pu, grp_jobs, grp_submit, max_wall;
	int64_t max_tres_pu[SL_TRES_N], max_tres_pj[SL_TRES_N], min_tres_pj[SL_TRES_N],
		grp_tres[SL_TRES_N];
};

struct lim_obj {
	char *name, *parent, *pclass; /* pclass: QOS priorityClass */
	char *file;
	int line, parent_line;
	struct lim_set set;
	char **users;                 /* accounts: spec.users, NULL-terminated */
	int parent_ix;                /* accounts: index of the parent, -1 none */
};

struct sl_limits {
	struct lim_obj *qos, *acct;
	size_t nqos, nacct;
};

#endif
