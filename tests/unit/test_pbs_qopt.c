/* test_pbs_qopt.c - the query and control commands' options
 * (compat/pbs_qopt.c): qstat's -F and -D and the conflicts of
 * qstat.c:2776-2856, qdel's -W, the hold lists of qhold and qrls, as a
 * table of command lines and what each makes or refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pbs_qopt.h"

static int argv_of(const char *const *words, char **argv)
{
	int argc = 1;

	argv[0] = "qstat";
	for (; words[argc - 1]; argc++)
		argv[argc] = (char *)words[argc - 1];
	argv[argc] = NULL;
	return argc;
}

static void test_qstat(void **state)
{
	static const struct {
		const char *argv[7];
		int status, usage;   /* 0: accepted */
		const char *msg;     /* refused: err.msg */
		int full, format;
		const char *delim;
	} cases[] = {
		{{"-f", "-F", "json", NULL}, 0, 0, NULL, 1, 2, NULL},
		{{"-f", "-F", "JSON", NULL}, 0, 0, NULL, 1, 2, NULL},
		{{"-f", "-F", "dsv", "-D", "#", NULL}, 0, 0, NULL, 1, 1, "#"},
		{{"-Q", "-f", "-F", "json", NULL}, 0, 0, NULL, 1, 2, NULL},
		{{"-f", "-F", "default", "-w", NULL}, 0, 0, NULL, 1, 0, NULL},
		{{"-F", "json", NULL}, 2, 1, "conflicting options.", 0, 0, NULL},
		{{"-a", "-f", "-F", "dsv", NULL}, 2, 1, "conflicting options.", 0, 0, NULL},
		{{"-f", "-F", "json", "-w", NULL}, 2, 1,
		 "conflicting options.\nqstat: option w cannot be used with -F", 0, 0, NULL},
		{{"-f", "-D", ",", "-F", "dsv", NULL}, 2, 1, "", 0, 0, NULL}, /* -D before -F */
		{{"-f", "-F", "xml", NULL}, 2, 1, "", 0, 0, NULL},
		{{"-f", "-F", NULL}, 2, 1, "option requires an argument -- 'F'", 0, 0, NULL},
		{{"-t", "-J", "-x", NULL}, 0, 0, NULL, 0, 0, NULL},
		{{"-f", "-1", NULL}, 0, 0, NULL, 1, 0, NULL}, /* Torque's: unfolded */
		{{"-1", NULL}, 2, 1, "conflicting options.", 0, 0, NULL},
		{{"-T", NULL}, 1, 0, "-T is not supported by Sluice", 0, 0, NULL},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8];
		int argc = argv_of(cases[i].argv, argv);
		struct sl_qstat_opts o;
		struct sl_pbs_failure f;
		struct sl_err err = SL_ERR_INIT;
		int r = sl_qstat_parse(argc, argv, &o, &f, &err);

		if (cases[i].status == 0) {
			if (r != 0)
				fail_msg("case %zu: %s", i, err.msg);
			assert_int_equal(o.full, cases[i].full);
			assert_int_equal(o.format, cases[i].format);
			if (cases[i].delim)
				assert_string_equal(o.delim, cases[i].delim);
			if (strcmp(cases[i].argv[0], "-t") == 0) /* -t subjobs, -J arrays */
				assert_true(o.subjobs && o.arrays_only && o.history);
			continue;
		}
		if (r == 0 || f.status != cases[i].status || f.usage != cases[i].usage ||
		    strcmp(err.msg, cases[i].msg) != 0)
			fail_msg("case %zu: %d %d %d \"%s\"", i, r, f.status, f.usage, err.msg);
	}
}

/* pbsnodes' operations and OpenPBS's rules of which option may follow
 * which (pbsnodes.c:924-1052): any other mix is its usage, exit 1. */
static void test_pbsnodes(void **state)
{
	static const struct {
		const char *argv[7];
		int status;
		enum sl_pbsnodes_oper oper;
		const char *comment;
		const char *flags;   /* of -v -S -j -L, those set */
		int format;
		const char *delim;
	} cases[] = {
		{{"-a", NULL}, 0, SL_PBSNODES_ALL, NULL, "", 0, NULL},
		{{"-a", "vm", NULL}, 0, SL_PBSNODES_ALL, NULL, "", 0, NULL}, /* passed over */
		{{"vm", NULL}, 0, SL_PBSNODES_LIST, NULL, "", 0, NULL},
		{{"-l", NULL}, 0, SL_PBSNODES_LISTMARKED, NULL, "", 0, NULL},
		{{"-o", "vm", NULL}, 0, SL_PBSNODES_OFFLINE, NULL, "", 0, NULL},
		{{"-o", "-C", "disk", "vm", NULL}, 0, SL_PBSNODES_OFFLINE, "disk", "", 0, NULL},
		{{"-C", "disk", "-o", "vm", NULL}, 0, SL_PBSNODES_OFFLINE, "disk", "", 0, NULL},
		{{"-r", "vm", NULL}, 0, SL_PBSNODES_RESET, NULL, "", 0, NULL},
		{{"-c", "vm", NULL}, 0, SL_PBSNODES_CLEAR, NULL, "", 0, NULL},
		{{"-C", "note", "vm", NULL}, 0, SL_PBSNODES_COMMENT, "note", "", 0, NULL},
		{{"-aSj", "-F", "json", NULL}, 0, SL_PBSNODES_ALL, NULL, "Sj", 2, NULL},
		{{"-F", "json", "-aSj", NULL}, 0, SL_PBSNODES_ALL, NULL, "Sj", 2, NULL},
		{{"-avSjL", "-F", "DSV", "-D", ",", NULL}, 0, SL_PBSNODES_ALL, NULL, "vSjL", 1, ","},
		{{"-S", "-D", ";", "vm", NULL}, 0, SL_PBSNODES_LIST, NULL, "S", 0, ";"},
		{{"-HSj", "vm", NULL}, 0, SL_PBSNODES_HOSTS, NULL, "Sj", 0, NULL},
		{{"-v", "vm", NULL}, 0, SL_PBSNODES_LIST, NULL, "v", 0, NULL},
		{{"-j", "-a", NULL}, 0, SL_PBSNODES_ALL, NULL, "j", 0, NULL}, /* -j without -S */
		{{"-F", "json", "-o", "vm", NULL}, 0, SL_PBSNODES_OFFLINE, NULL, "", 2, NULL},
		{{"-v", "-o", "vm", NULL}, 0, SL_PBSNODES_OFFLINE, NULL, "v", 0, NULL},
		{{"-av", "-l", NULL}, 0, SL_PBSNODES_LISTMARKED, NULL, "v", 0, NULL},
		{{"-o", "-r", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-o", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-l", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-c", "-C", "x", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-a", "-o", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-S", NULL}, 1, 0, NULL, NULL, 0, NULL},        /* no host */
		{{"-H", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-a", "-H", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-S", "-o", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL}, /* -S, then not a listing */
		{{"-o", "-S", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-o", "-D", ",", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-l", "-j", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-H", "-v", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-a", "-F", "xml", NULL}, 1, 0, NULL, NULL, 0, NULL},
		{{"-d", "vm", NULL}, 1, 0, NULL, NULL, 0, NULL},   /* refused by name */
		{{"-s", "srv", "-a", NULL}, 1, 0, NULL, NULL, 0, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8];
		struct sl_pbsnodes_opts o;
		struct sl_pbs_failure f;
		struct sl_err err = SL_ERR_INIT;
		int argc = argv_of(cases[i].argv, argv);
		int r = sl_pbsnodes_parse(argc, argv, &o, &f, &err);
		char flags[8];
		if ((r == 0 ? 0 : f.status) != cases[i].status)
			fail_msg("case %zu: %d %d \"%s\"", i, r, f.status, err.msg);
		if (r != 0)
			continue;
		assert_int_equal(o.oper, cases[i].oper);
		if (cases[i].comment)
			assert_string_equal(o.comment, cases[i].comment);
		else
			assert_null(o.comment);
		snprintf(flags, sizeof(flags), "%s%s%s%s", o.vnodes ? "v" : "", o.summary ? "S" : "",
			 o.jobs ? "j" : "", o.wide ? "L" : "");
		assert_string_equal(flags, cases[i].flags);
		assert_int_equal(o.format, cases[i].format);
		if (cases[i].delim)
			assert_string_equal(o.delim, cases[i].delim);
		else
			assert_null(o.delim);
	}
}

static void test_qctl(void **state)
{
	static const struct {
		enum sl_qctl_cmd cmd;
		const char *argv[5];
		int status;          /* 0: accepted */
		const char *msg;
		int user_hold, operator_hold;
	} cases[] = {
		{SL_QDEL, {"-W", "force", "1", NULL}, 0, NULL, 1, 0},
		{SL_QDEL, {"-W", "suppress_email=10", "-x", "1", NULL}, 0, NULL, 1, 0},
		{SL_QDEL, {"-W", "later", "1", NULL}, 2, "illegal -W value", 0, 0},
		{SL_QDEL, {"-x", NULL}, 2, "", 0, 0},
		{SL_QHOLD, {"-h", "uo", "1", NULL}, 0, NULL, 1, 1},
		{SL_QRLS, {"-h", "o", "1", NULL}, 0, NULL, 0, 1},
		{SL_QRLS, {"-h", "un", "1", NULL}, 2, "illegal -h value", 0, 0},
		{SL_QHOLD, {"-h", "s", "1", NULL}, 1, "-h s is not supported by Sluice (system holds)",
		 0, 0},
		{SL_QSIG, {"-s", "suspend", "1", NULL}, 1, "-s suspend is not supported by Sluice", 0,
		 0},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6];
		int argc = argv_of(cases[i].argv, argv);
		struct sl_qctl_opts o;
		struct sl_pbs_failure f;
		struct sl_err err = SL_ERR_INIT;
		int r = sl_qctl_parse(cases[i].cmd, argc, argv, &o, &f, &err);

		if (cases[i].status == 0) {
			if (r != 0)
				fail_msg("case %zu: %s", i, err.msg);
			assert_int_equal(o.user_hold, cases[i].user_hold);
			assert_int_equal(o.operator_hold, cases[i].operator_hold);
			continue;
		}
		if (r == 0 || f.status != cases[i].status || strcmp(err.msg, cases[i].msg) != 0)
			fail_msg("case %zu: %d %d \"%s\"", i, r, f.status, err.msg);
	}
}

/* Every one of these commands scans with plain getopt(), which glibc
 * permutes: an option after an operand counts, "--" still ends them.
 * HyperQueue runs "qstat -f ID1 -f ID2 -F json -x" (the -x was dropped). */
static void test_permuted(void **state)
{
	char *argv[10];
	struct sl_qstat_opts q;
	struct sl_qselect_opts s;
	struct sl_qctl_opts c;
	struct sl_pbsnodes_opts p;
	struct sl_pbs_failure f;
	struct sl_err err = SL_ERR_INIT;
	int argc;
	(void)state;

	argc = argv_of((const char *[]){"-f", "1.s", "-f", "2.s", "-F", "json", "-x", NULL}, argv);
	assert_int_equal(sl_qstat_parse(argc, argv, &q, &f, &err), 0);
	assert_true(q.full && q.history && q.format == 2);
	assert_int_equal(q.n_operands, 2);
	assert_string_equal(q.operands[0], "1.s");
	assert_string_equal(q.operands[1], "2.s");
	/* "--": what follows is an operand, "-x" a (bad) job id */
	argc = argv_of((const char *[]){"-f", "1.s", "--", "-x", NULL}, argv);
	assert_int_equal(sl_qstat_parse(argc, argv, &q, &f, &err), 0);
	assert_false(q.history);
	assert_int_equal(q.n_operands, 2);
	assert_string_equal(q.operands[1], "-x");
	/* a refusal or conflict after an operand is not passed over */
	argc = argv_of((const char *[]){"1.s", "-T", NULL}, argv);
	assert_int_equal(sl_qstat_parse(argc, argv, &q, &f, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "-T is not supported by Sluice");
	sl_err_clear(&err);
	argc = argv_of((const char *[]){"1.s", "-F", "json", NULL}, argv);
	assert_int_equal(sl_qstat_parse(argc, argv, &q, &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "conflicting options.");
	sl_err_clear(&err);
	argc = argv_of((const char *[]){"1.s", "--x", NULL}, argv);
	assert_int_equal(sl_qstat_parse(argc, argv, &q, &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "invalid option -- '-'");
	sl_err_clear(&err);

	argc = argv_of((const char *[]){"5", "-x", "6", "-W", "force", NULL}, argv);
	assert_int_equal(sl_qctl_parse(SL_QDEL, argc, argv, &c, &f, &err), 0);
	assert_true(c.history);
	assert_int_equal(c.n_ids, 2);
	assert_string_equal(c.ids[0], "5");
	assert_string_equal(c.ids[1], "6");
	argc = argv_of((const char *[]){"5", "-s", "KILL", NULL}, argv);
	assert_int_equal(sl_qctl_parse(SL_QSIG, argc, argv, &c, &f, &err), 0);
	assert_int_equal(c.signal, 9);
	assert_int_equal(c.n_ids, 1);
	argc = argv_of((const char *[]){"5", "-h", "o", NULL}, argv);
	assert_int_equal(sl_qctl_parse(SL_QRLS, argc, argv, &c, &f, &err), 0);
	assert_true(c.operator_hold && !c.user_hold);
	/* qhold's "h:-:": "--x" is its option '-', an error told by the usage alone */
	argc = argv_of((const char *[]){"5", "--x", NULL}, argv);
	assert_int_equal(sl_qctl_parse(SL_QHOLD, argc, argv, &c, &f, &err), -SL_EINVAL);
	assert_true(f.status == 2 && f.usage && err.msg[0] == '\0');
	sl_err_clear(&err);
	argc = argv_of((const char *[]){"5", "--x", NULL}, argv);
	assert_int_equal(sl_qctl_parse(SL_QRLS, argc, argv, &c, &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "invalid option -- '-'");
	sl_err_clear(&err);

	/* pbsnodes "vm -o" marks vm offline (it listed a node named "-o") */
	argc = argv_of((const char *[]){"vm", "-o", "-C", "disk", NULL}, argv);
	assert_int_equal(sl_pbsnodes_parse(argc, argv, &p, &f, &err), 0);
	assert_int_equal(p.oper, SL_PBSNODES_OFFLINE);
	assert_string_equal(p.comment, "disk");
	assert_int_equal(p.n_hosts, 1);
	assert_string_equal(p.hosts[0], "vm");
	/* qselect takes no operand, wherever the options are */
	argc = argv_of((const char *[]){"x", "-u", "alice", NULL}, argv);
	assert_int_equal(sl_qselect_parse(argc, argv, &s, &f, &err), -SL_EINVAL);
	assert_true(f.status == 2 && f.usage);
	argc = argv_of((const char *[]){"-x", "-u", "alice", NULL}, argv);
	assert_int_equal(sl_qselect_parse(argc, argv, &s, &f, &err), 0);
	assert_string_equal(s.users, "alice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qstat),
		cmocka_unit_test(test_qctl),
		cmocka_unit_test(test_pbsnodes),
		cmocka_unit_test(test_permuted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
