/* qos_limits_int.h - the parsed limits, shared by qos_limits.c (parsing) and
 * qos_limits_check.c (usage and reasons). Internal to libbatch. */
#ifndef SL_QOS_LIMITS_INT_H
#define SL_QOS_LIMITS_INT_H

#include "qos_limits.h"

#define LIM_NONE SL_LIM_NONE

struct lim_obj {
	char *name, *parent, *pclass; /* pclass: QOS priorityClass */
	char *file;
	int line, parent_line;
	struct sl_lim_set set;
	char **users;                 /* accounts: spec.users, NULL-terminated */
	int parent_ix;                /* accounts: index of the parent, -1 none */
};

struct sl_limits {
	struct lim_obj *qos, *acct;
	size_t nqos, nacct;
};

#endif
