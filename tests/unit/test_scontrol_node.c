/* test_scontrol_node.c - `scontrol update`'s entity (Slurm's _update_it:
 * a job first, then a reservation, a node, a partition) and `update
 * NodeName=...`'s words as update_node.c reads them: shortest prefixes,
 * the reason's quotes, DOWN and DRAIN only with a reason, host lists and
 * ALL, and the texts scontrol prints for each refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "scontrol_node.h"

static enum sl_update_entity entity(const char *a, const char *b)
{
	char *argv[] = {(char *)a, (char *)b, NULL};
	return sl_scontrol_update_entity(b ? 2 : 1, argv);
}

static void test_entity(void **state)
{
	(void)state;
	assert_int_equal(entity("NodeName=n1", "State=DRAIN"), SL_UPD_NODE);
	assert_int_equal(entity("nodename=n1", NULL), SL_UPD_NODE);
	assert_int_equal(entity("Nod=n1", NULL), SL_UPD_NODE);
	assert_int_equal(entity("No=n1", NULL), SL_UPD_NONE); /* NodeName needs 3 */
	/* a job's update may name a partition: the job wins */
	assert_int_equal(entity("PartitionName=debug", "JobId=5"), SL_UPD_JOB);
	assert_int_equal(entity("JobName=x", NULL), SL_UPD_JOB);
	assert_int_equal(entity("PartitionName=debug", "State=DOWN"), SL_UPD_PARTITION);
	assert_int_equal(entity("Reservation=r", "PartitionName=p"), SL_UPD_RESERVATION);
	assert_int_equal(entity("StepId=5.0", NULL), SL_UPD_STEP);
	/* "TAG VALUE": the value is not read as a tag */
	assert_int_equal(entity("Reason", "NodeName=x"), SL_UPD_NONE);
	assert_int_equal(entity("NodeName", "vm"), SL_UPD_NODE);
	assert_int_equal(entity("TimeLimit=5", NULL), SL_UPD_NONE);
}

static int parse(struct sl_node_update *u, struct sl_err *err, const char *a, const char *b,
		 const char *c)
{
	char *argv[] = {(char *)a, (char *)b, (char *)c, NULL};
	int argc = c ? 3 : b ? 2 : 1;
	sl_err_clear(err);
	return sl_scontrol_node_update_parse(argc, argv, u, err);
}

static void test_states(void **state)
{
	struct sl_node_update u;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=drain", "Reason=\"disk swap\""), 0);
	assert_string_equal(u.names[0], "vm");
	assert_null(u.names[1]);
	assert_string_equal(u.state, "DRAIN");
	assert_string_equal(u.reason, "disk swap");
	sl_node_update_clear(&u);
	/* shortest prefixes: S=, R=, N= and the states' three letters */
	assert_int_equal(parse(&u, &err, "N=vm", "S=res", NULL), 0);
	assert_string_equal(u.state, "RESUME");
	sl_node_update_clear(&u);
	assert_int_equal(parse(&u, &err, "N=vm", "S=und", NULL), 0);
	assert_string_equal(u.state, "UNDRAIN");
	sl_node_update_clear(&u);
	assert_int_equal(parse(&u, &err, "N=vm", "S=idle", NULL), 0);
	assert_string_equal(u.state, "IDLE");
	sl_node_update_clear(&u);
	assert_int_equal(parse(&u, &err, "N=vm", "S=DOWN", "R=psu"), 0);
	assert_string_equal(u.state, "DOWN");
	sl_node_update_clear(&u);
	/* a reason alone is a change */
	assert_int_equal(parse(&u, &err, "NodeName=vm", "Reason=note", NULL), 0);
	assert_null(u.state);
	sl_node_update_clear(&u);
	/* host lists and ALL */
	assert_int_equal(parse(&u, &err, "NodeName=n[1-2]", "State=UNDRAIN", NULL), 0);
	assert_string_equal(u.names[1], "n2");
	sl_node_update_clear(&u);
	assert_int_equal(parse(&u, &err, "NodeName=all", "State=UNDRAIN", NULL), 0);
	assert_string_equal(u.names[0], "ALL");
	sl_node_update_clear(&u);
}

static void test_refusals(void **state)
{
	struct sl_node_update u;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=DRAIN", NULL), -SL_EINVAL);
	assert_string_equal(err.msg, "You must specify a reason when DOWNING or DRAINING a node. "
			    "Request denied");
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=DOWN", "Reason="), -SL_EINVAL);
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=dr", "Reason=x"), -SL_EINVAL);
	assert_non_null(strstr(err.msg, "Invalid input: State=dr\nRequest aborted\n"));
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=FAIL", "Reason=x"), -SL_EUNSUPP);
	assert_string_equal(err.msg, "scontrol: error: State=FAIL is not supported by Sluice");
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=POWER_DOWN", NULL), -SL_EUNSUPP);
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State=MIXED", NULL), -SL_ESTATE);
	assert_string_equal(err.msg, "slurm_update error: Invalid node state specified");
	assert_int_equal(parse(&u, &err, "NodeName=vm", NULL, NULL), -SL_EINVAL);
	assert_string_equal(err.msg, "No changes specified");
	assert_int_equal(parse(&u, &err, "State=RESUME", NULL, NULL), -SL_ENOENT);
	assert_string_equal(err.msg, "slurm_update error: Invalid node name specified");
	assert_int_equal(parse(&u, &err, "NodeName=vm", "Bogus=1", NULL), -SL_EINVAL);
	assert_string_equal(err.msg, "Update of this parameter is not supported: Bogus=1\n"
			    "Request aborted");
	assert_int_equal(parse(&u, &err, "NodeName=vm", "Gres=gpu:1", NULL), -SL_EUNSUPP);
	assert_string_equal(err.msg, "scontrol: error: update NodeName Gres= is not supported "
			    "by Sluice");
	assert_int_equal(parse(&u, &err, "NodeName=vm", "State", "DRAIN"), -SL_EINVAL);
	assert_string_equal(err.msg, "scontrol: error: Invalid input: State  Request aborted");
	assert_null(u.names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entity),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
