/* scontrol_node.c - which entity an `update` names, and the words of
 * `update NodeName=...` and `update PartitionName=...`, as Slurm 22.05's
 * scontrol reads them (scontrol.c's _update_it, update_node.c,
 * update_part.c): keys and state names by their shortest prefixes, the
 * reason's quotes dropped, DOWN and DRAIN refused without a reason. The
 * states Sluice's node has (DRAIN, UNDRAIN, RESUME, DOWN, IDLE) and a
 * partition's State= go to the daemon; the other keys and states are named
 * as unsupported. */
#include "scontrol_node.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "xalloc.h"

/* Slurm's xstrncasecmp(tag, key, MAX(len, min)): a prefix of at least min. */
static int is_key(const char *tag, size_t len, const char *key, size_t min)
{
	return len <= strlen(key) && len >= min && strncasecmp(tag, key, len) == 0;
}

enum sl_update_entity sl_scontrol_update_entity(int argc, char **argv)
{
	static const struct {
		const char *key;
		size_t min;
		enum sl_update_entity e;
	} tags[] = {
		{"NodeName", 3, SL_UPD_NODE},        {"PartitionName", 3, SL_UPD_PARTITION},
		{"JobId", 3, SL_UPD_JOB},            {"JobNAME", 3, SL_UPD_JOB},
		{"StepId", 4, SL_UPD_STEP},          {"FrontendName", 2, SL_UPD_FRONTEND},
		{"ReservationName", 3, SL_UPD_RESERVATION}, {"SlurmctldDebug", 2, SL_UPD_DEBUG},
	};
	unsigned seen = 0;

	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++)
			if (is_key(argv[i], len, tags[t].key, tags[t].min))
				seen |= 1u << tags[t].e;
		i += eq == NULL; /* "TAG VALUE": the value is not a tag */
	}
	/* Slurm's order: a job's update may name a partition or a
	 * reservation, a reservation's a partition */
	static const enum sl_update_entity order[] = {
		SL_UPD_JOB, SL_UPD_STEP, SL_UPD_RESERVATION, SL_UPD_NODE,
		SL_UPD_FRONTEND, SL_UPD_PARTITION, SL_UPD_DEBUG,
	};
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (seen & (1u << order[k]))
			return order[k];
	return SL_UPD_NONE;
}

/* State= values by Slurm's prefixes, in its order of tests: 0 for the
 * ones Sluice's node has, 1 for a state Sluice does not support, 2 for a
 * base state slurmctld refuses as a request (ALLOCATED, MIXED, ...). */
static const struct {
	const char *name;
	size_t min;
	int kind;
	const char *sent;
} states[] = {
	{"NoResp", 3, 1, NULL},        {"CANCEL_REBOOT", 3, 1, NULL},
	{"DRAIN", 3, 0, "DRAIN"},      {"FAIL", 3, 1, NULL},
	{"FUTURE", 3, 1, NULL},        {"RESUME", 3, 0, "RESUME"},
	{"POWER_DOWN_ASAP", 12, 1, NULL}, {"POWER_DOWN_FORCE", 12, 1, NULL},
	{"POWER_DOWN", 7, 1, NULL},    {"POWER_UP", 7, 1, NULL},
	{"UNDRAIN", 3, 0, "UNDRAIN"},
	/* node_state_string() of the base states, NODE_STATE_END's order */
	{"UNKNOWN", 3, 2, NULL},       {"DOWN", 3, 0, "DOWN"},
	{"IDLE", 3, 0, "IDLE"},        {"ALLOCATED", 3, 2, NULL},
	{"ERROR", 3, 2, NULL},         {"MIXED", 3, 2, NULL},
};

static int k_state(struct sl_node_update *u, const char *word, const char *v, struct sl_err *err)
{
	size_t len = strlen(v);
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		/* Slurm compares MAX(len, min) characters: shorter never matches */
		if (len < states[i].min || len > strlen(states[i].name) ||
		    strncasecmp(v, states[i].name, len) != 0)
			continue;
		if (states[i].kind == 1)
			return sl_err_set(err, SL_EUNSUPP, "scontrol: error: State=%s is not "
					  "supported by Sluice", states[i].name);
		if (states[i].kind == 2)
			return sl_err_set(err, SL_ESTATE, "slurm_update error: Invalid node "
					  "state specified");
		u->state = states[i].sent;
		return 0;
	}
	return sl_err_set(err, SL_EINVAL, "Invalid input: %s\nRequest aborted\nValid states are: "
			  "NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n"
			  "Not all states are valid given a node's prior state", word);
}

static int k_reason(struct sl_node_update *u, const char *v)
{
	size_t len;
	free(u->reason);
	u->reason = sl_xstrdup(*v == '"' ? v + 1 : v);
	len = strlen(u->reason);
	if (len > 0 && u->reason[len - 1] == '"')
		u->reason[len - 1] = '\0';
	return 0;
}

int sl_scontrol_node_update_parse(int argc, char **argv, struct sl_node_update *u,
				  struct sl_err *err)
{
	/* update_node.c's keys in its order */
	static const struct {
		const char *key;
		size_t min;
		int what; /* 0 NodeName, 1 State, 2 Reason, 3 unsupported */
	} keys[] = {
		{"NodeAddr", 5, 3},       {"NodeHostName", 5, 3}, {"NodeName", 1, 0},
		{"ActiveFeatures", 3, 3}, {"CpuBind", 7, 3},      {"Extra", 1, 3},
		{"Features", 1, 3},       {"AvailableFeatures", 3, 3}, {"Gres", 1, 3},
		{"Weight", 1, 3},         {"Comment", 2, 3},      {"Reason", 1, 2},
		{"State", 1, 1},
	};
	const char *names = NULL;
	int r = 0, changes = 0;

	memset(u, 0, sizeof(*u));
	for (int i = 0; i < argc && r == 0; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t k, len;
		if (eq == NULL) {
			r = sl_err_set(err, SL_EINVAL, "scontrol: error: Invalid input: %s  Request "
				       "aborted", argv[i]);
			break;
		}
		len = (size_t)(eq - argv[i]);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (is_key(argv[i], len, keys[k].key, keys[k].min))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			r = sl_err_set(err, SL_EINVAL, "Update of this parameter is not supported: "
				       "%s\nRequest aborted", argv[i]);
		else if (keys[k].what == 0)
			names = eq + 1;
		else if (keys[k].what == 1 && (r = k_state(u, argv[i], eq + 1, err)) == 0)
			changes++;
		else if (keys[k].what == 2 && (r = k_reason(u, eq + 1)) == 0)
			changes++;
		else if (keys[k].what == 3)
			r = sl_err_set(err, SL_EUNSUPP, "scontrol: error: update NodeName %s= is not "
				       "supported by Sluice", keys[k].key);
	}
	if (r == 0 && u->state != NULL &&
	    (strcmp(u->state, "DRAIN") == 0 || strcmp(u->state, "DOWN") == 0) &&
	    (u->reason == NULL || *u->reason == '\0'))
		r = sl_err_set(err, SL_EINVAL, "You must specify a reason when DOWNING or DRAINING "
			       "a node. Request denied");
	if (r == 0 && changes == 0)
		r = sl_err_set(err, SL_EINVAL, "No changes specified");
	/* slurmctld's nodespec_to_hostlist: ALL, or a host list */
	if (r == 0 && names != NULL && strcasecmp(names, "ALL") == 0) {
		u->names = sl_xcalloc(2, sizeof(*u->names));
		u->names[0] = sl_xstrdup("ALL");
	} else if (r == 0 && names != NULL) {
		size_t n;
		struct sl_err e = SL_ERR_INIT;
		if (sl_hostlist_expand(names, &u->names, &n, &e) != 0 || n == 0)
			r = sl_err_set(err, SL_ENOENT, "slurm_update error: Invalid node name "
				       "specified");
	} else if (r == 0) {
		r = sl_err_set(err, SL_ENOENT, "slurm_update error: Invalid node name specified");
	}
	if (r != 0)
		sl_node_update_clear(u);
	return r;
}

void sl_node_update_clear(struct sl_node_update *u)
{
	sl_strv_free(u->names);
	free(u->reason);
	memset(u, 0, sizeof(*u));
}

/* update_part.c's keys but PartitionName and State, with their shortest
 * prefixes: Slurm's, not Sluice's (a partition's limits are its config). */
static const struct {
	const char *key;
	size_t min;
} part_keys[] = {
	{"MaxTime", 4},       {"CpuBind", 7},       {"DefaultTime", 8}, {"MaxCPUsPerNode", 4},
	{"MaxNodes", 4},      {"MinNodes", 2},      {"Default", 7},     {"DisableRootJobs", 1},
	{"ExclusiveUser", 1}, {"Hidden", 1},        {"LLN", 1},         {"RootOnly", 3},
	{"ReqResv", 3},       {"OverSubscribe", 5}, {"Shared", 2},      {"OverTimeLimit", 5},
	{"PreemptMode", 3},   {"Priority", 3},      {"PriorityJobFactor", 3},
	{"PriorityTier", 3},  {"Nodes", 1},         {"AllowGroups", 6}, {"AllowAccounts", 6},
	{"AllowQos", 6},      {"DenyAccounts", 5},  {"DenyQos", 5},     {"AllocNodes", 6},
	{"Alternate", 3},     {"GraceTime", 5},     {"DefMemPerCPU", 10},
	{"DefMemPerNode", 10}, {"MaxMemPerCPU", 10}, {"MaxMemPerNode", 10}, {"QoS", 3},
	{"JobDefaults", 4},   {"TresBillingWeights", 1},
};

/* State=: INACTIVE, DOWN, UP, DRAIN by their first letters, in that order. */
static const char *part_state(const char *v)
{
	static const char *const names[] = {"INACTIVE", "DOWN", "UP", "DRAIN"};
	size_t len = strlen(v);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len >= 1 && len <= strlen(names[i]) && strncasecmp(v, names[i], len) == 0)
			return names[i];
	return NULL;
}

int sl_scontrol_part_update_parse(int argc, char **argv, const char **name, const char **state,
				  struct sl_err *err)
{
	*name = *state = NULL;
	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t k, len;
		if (eq == NULL)
			return sl_err_set(err, SL_EINVAL, "scontrol: error: Invalid input: %s  Request "
					  "aborted", argv[i]);
		len = (size_t)(eq - argv[i]);
		if (is_key(argv[i], len, "PartitionName", 2)) {
			*name = eq + 1;
			continue;
		}
		if (is_key(argv[i], len, "State", 2)) {
			if ((*state = part_state(eq + 1)) == NULL)
				return sl_err_set(err, SL_EINVAL, "scontrol: error: Invalid input: %s\n"
						  "scontrol: error: Acceptable State values are UP, "
						  "DOWN, DRAIN and INACTIVE", argv[i]);
			continue;
		}
		for (k = 0; k < sizeof(part_keys) / sizeof(part_keys[0]); k++)
			if (is_key(argv[i], len, part_keys[k].key, part_keys[k].min))
				return sl_err_set(err, SL_EUNSUPP, "scontrol: error: update PartitionName "
						  "%s= is not supported by Sluice: a partition's "
						  "settings are its config's", part_keys[k].key);
		return sl_err_set(err, SL_EINVAL, "scontrol: error: Update of this parameter is not "
				  "supported: %s\n\nscontrol: error: Request aborted", argv[i]);
	}
	if (*name == NULL)
		return sl_err_set(err, SL_EINVAL, "scontrol: error: PartitionName must be given.");
	if (*state == NULL)
		return sl_err_set(err, SL_EINVAL, "scontrol: error: No changes specified");
	return 0;
}
