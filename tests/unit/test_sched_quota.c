/* test_sched_quota.c - Kueue resource-node arithmetic (sched/quota.c):
 * lending limits, borrowing limits, cohort quota, usage bubbling and the
 * borrowing height. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"
#include "sched/sched_int.h"

static const char *tree =
	TL_FLAVOR("default")
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: root}\nspec:\n"
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
	"      resources:\n      - {name: cpu, nominalQuota: 4}\n---\n"
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: child}\nspec: {parentName: root}\n---\n"
	TL_CQ("lender", "  cohort: child\n", "nominalQuota: 10, lendingLimit: 5")
	TL_CQ("borrower", "  cohort: child\n", "nominalQuota: 5, borrowingLimit: 3")
	TL_CQ("alone", "", "nominalQuota: 6")
	TL_LQ("ns", "q", "lender");

static void test_quota_tree(void **state)
{
	struct sl_sched *s = tl_sched(tree);
	int fr = sq_fr(s, sq_flavor_index(s, "default"), sq_res_index(s, "cpu", false));
	int lender = 0, borrower = 1, alone = 2, child = -1;
	for (int i = s->ncq; i < s->nnode; i++)
		if (strcmp(s->node[i].name, "child") == 0)
			child = i;
	assert_true(child >= 0);
	/* child subtree = (10 - 5 local) + 5 = 10; root = 4 + 10 = 14 */
	assert_int_equal(sq_cell(s, child, fr)->subtree, 10000);
	assert_int_equal(sq_local_quota(s, lender, fr), 5000);
	assert_int_equal(sq_potential_available(s, lender, fr), 5000 + 14000);
	assert_int_equal(sq_potential_available(s, borrower, fr), 8000); /* capped by BL */
	assert_int_equal(sq_potential_available(s, alone, fr), 6000);
	assert_int_equal(sq_available(s, borrower, fr), 8000);
	/* lender uses 7: 5 stay local, 2 bubble to child and root */
	sq_add_usage(s, lender, fr, 7000);
	assert_int_equal(sq_cell(s, child, fr)->usage, 2000);
	assert_int_equal(sq_available(s, borrower, fr), 8000);
	assert_int_equal(sq_available(s, lender, fr), 14000 - 2000);
	assert_false(sq_borrowing_with(s, lender, fr, 3000));
	assert_true(sq_borrowing_with(s, lender, fr, 3001));
	/* borrower needs 6: borrows within child (height 1) */
	bool reclaim = false;
	assert_int_equal(sq_height_lowest_fit(s, borrower, fr, 6000, &reclaim), 1);
	assert_true(reclaim);
	assert_int_equal(sq_height_lowest_fit(s, borrower, fr, 4000, &reclaim), 0);
	sq_add_usage(s, borrower, fr, 8000);
	assert_int_equal(sq_available(s, borrower, fr), 0);
	sq_remove_usage(s, borrower, fr, 8000);
	sq_remove_usage(s, lender, fr, 7000);
	assert_int_equal(sq_cell(s, child, fr)->usage, 0);
	assert_int_equal(sq_cell(s, lender, fr)->usage, 0);
	sl_sched_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quota_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
