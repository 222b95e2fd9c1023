/* test_conf.c - the Sluice configuration: defaults, every key, path
 * resolution, directories, and exact errors for settings and documents.
 * The sections (listen/controller/munge, pbsServer, kubernetes:, features:,
 * pam:) are in test_conf_sections.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf.h"
#include "conf_kube.h"
#include "err.h"
#include "features.h"
#include "kueue.h"
#include "xalloc.h"
#include "conf_fixture.h"

static void test_defaults(void **state)
{
	char *path = write_conf(HEAD);
	struct sl_conf *c = load_ok(path);

	assert_string_equal(sl_conf_path(c), path);
	want_settings(c, "/run/sluice/sluiced.sock", "/var/lib/sluice", "batch", "sluice", 30, 300);
	assert_string_equal(sl_conf_executor(c), "local");
	assert_string_equal(sl_conf_auth(c), "none");
	assert_true(sl_conf_is_operator(c, "root", 0));
	assert_true(sl_conf_is_operator(c, "anyname", 0));
	assert_false(sl_conf_is_operator(c, "root", 1000));
	assert_null(sl_conf_accounts(c, "alice"));
	assert_false(sl_conf_account_allowed(c, "alice", "general"));
	assert_non_null(sl_conf_kueue(c));
	assert_int_equal(sl_conf_kueue(c)->ncqs, 0);
	sl_conf_free(c);
	sl_conf_free(NULL);
	free(path);

	/* "key:" with no value keeps the default */
	c = load_text(HEAD "killWait:\nsocket: ~\noperators:\n");
	assert_int_equal(sl_conf_kill_wait(c), 30);
	assert_string_equal(sl_conf_socket(c), "/run/sluice/sluiced.sock");
	sl_conf_free(c);
}

static void test_full(void **state)
{
	char *path = data_path("full.yaml"), *dir = data_path(""), *rdir, *want;
	struct sl_conf *c = load_ok(path);
	const char *const *a;

	rdir = realpath(dir, NULL);
	assert_non_null(rdir);
	want = sl_xasprintf("%s/sock/sluiced.sock", rdir);
	want_settings(c, want, "/var/tmp/sluice-state", "short", "testcluster", 5, 0);
	assert_true(sl_conf_is_operator(c, "alice", 1001));
	assert_true(sl_conf_is_operator(c, "bob.smith", 1002));
	assert_false(sl_conf_is_operator(c, "bob", 1003));
	assert_false(sl_conf_is_operator(c, NULL, 1003));
	a = sl_conf_accounts(c, "alice");
	assert_non_null(a);
	assert_string_equal(a[0], "physics");
	assert_string_equal(a[1], "general");
	assert_null(a[2]);
	a = sl_conf_accounts(c, "dave"); /* falls back to "*" */
	assert_string_equal(a[0], "general");
	assert_null(a[1]);
	a = sl_conf_accounts(c, "carol"); /* own entry only, no "*" merge */
	assert_string_equal(a[0], "chem");
	assert_null(a[1]);
	assert_true(sl_conf_account_allowed(c, "alice", "physics"));
	assert_true(sl_conf_account_allowed(c, "dave", "general"));
	assert_false(sl_conf_account_allowed(c, "dave", "physics"));
	assert_false(sl_conf_account_allowed(c, "carol", "general"));
	assert_false(sl_conf_account_allowed(c, "alice", NULL));
	assert_int_equal(sl_conf_kueue(c)->nflavors, 1);
	assert_int_equal(sl_conf_kueue(c)->ncqs, 1);
	assert_int_equal(sl_conf_kueue(c)->nlqs, 2);
	assert_int_equal(sl_conf_kueue(c)->nwpcs, 1);
	assert_true(sl_conf_kueue(c)->finalized);
	sl_conf_free(c);
	free(want);
	free(rdir);
	free(dir);
	free(path);
}

static void test_show(void **state)
{
	char *path = data_path("full.yaml"), *out = sl_xstrdup(""), *want;
	struct sl_conf *c = load_ok(path);

	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	want = sl_xasprintf("socket=%s\nstateDir=/var/tmp/sluice-state\n"
			    "executor=local\nauth=none\nlisten=\ncontroller=\nmunge=\n"
			    "defaultPartition=short\ndefaultQOS=normal\n"
			    "clusterName=testcluster\nkillWait=5\ndurability=process\nminJobAge=0\n"
			    "maxArraySize=1001\n"
			    "killInvalidDepend=no\n"
			    "tmpDisk=0\n"
			    "mpiDefault=none\n"
			    "operators=alice,bob.smith\n"
			    "accounts=alice:physics,general *:general carol:chem\n"
			    "features=\nmailProg=/usr/bin/mail\npam=\npbsTmpDir=/var/tmp\npbsServer=\n"
			    "metrics=\nnodes=\n",
			    sl_conf_socket(c));
	assert_string_equal(out, want);
	sl_conf_free(c);
	free(want);
	free(out);
	free(path);
}

/* The shipped etc/sluice.yaml loads, and documents every key of the table. */
static void test_etc_default(void **state)
{
	char *path = sl_xasprintf("%s/etc/sluice.yaml", srcdir());
	char *etc = sl_xasprintf("%s/etc", srcdir()), *retc = realpath(etc, NULL);
	char *out = sl_xstrdup(""), *want, *text, *line, *save = NULL;
	struct sl_conf *c = load_ok(path);
	FILE *f;
	long n;

	assert_non_null(retc);
	*strrchr(retc, '/') = '\0'; /* socket: ../run/sluiced.sock */
	want = sl_xasprintf("%s/run/sluiced.sock", retc);
	assert_string_equal(sl_conf_socket(c), want);
	free(want);
	want = sl_xasprintf("%s/run/state", retc);
	assert_string_equal(sl_conf_state_dir(c), want);
	free(want);
	assert_string_equal(sl_conf_default_partition(c), "batch");
	assert_string_equal(sl_conf_accounts(c, "anyone")[0], "general");
	assert_int_equal(sl_conf_kueue(c)->nflavors, 1);
	assert_int_equal(sl_conf_kueue(c)->ncqs, 1);
	assert_int_equal(sl_conf_kueue(c)->nlqs, 1);

	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = sl_xcalloc(1, (size_t)n + 1);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	sl_conf_show(c, show_cb, &out);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *key = sl_xasprintf("\n%.*s:", (int)(strchr(line, '=') - line), line);
		if (strstr(text, key) == NULL)
			fail_msg("etc/sluice.yaml does not document %s", key + 1);
		free(key);
	}
	/* Installed (etc.mk: an absolute socket), every sbatch reads it: it
	 * must take conf_peek.c's fast path. */
	{
		char *at = strstr(text, "\nsocket: ../run/sluiced.sock\n"), *inst, *ipath;
		struct sl_conf_peek p;

		assert_non_null(at);
		inst = sl_xasprintf("%.*s\nsocket: /run/sluice/sluiced.sock\n%s", (int)(at - text),
				    text, at + strlen("\nsocket: ../run/sluiced.sock\n"));
		ipath = write_conf(inst);
		assert_int_equal(sl_conf_peek_fast(ipath, &p), 1);
		assert_string_equal(p.socket, "/run/sluice/sluiced.sock");
		assert_null(p.controller);
		assert_int_equal(p.munge, 0);
		sl_conf_peek_clear(&p);
		free(ipath);
		free(inst);
	}
	free(text);
	free(out);
	sl_conf_free(c);
	free(retc);
	free(etc);
	free(path);
}

static void test_directory(void **state)
{
	char *dir = data_path("dir"), *rdir = realpath(dir, NULL), *want, *sock = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = load_ok(dir);

	assert_non_null(rdir);
	*strrchr(rdir, '/') = '\0';
	*strrchr(rdir, '/') = '\0';
	want = sl_xasprintf("%s/run/dir.sock", rdir); /* ../../run from dir/ */
	assert_string_equal(sl_conf_socket(c), want);
	assert_int_equal(sl_conf_kueue(c)->nflavors, 1);
	assert_int_equal(sl_conf_kueue(c)->ncqs, 1);
	assert_int_equal(sl_conf_kueue(c)->nlqs, 1);
	sl_conf_free(c);
	assert_int_equal(sl_conf_peek_socket(dir, &sock, &err), 0);
	assert_string_equal(sock, want);
	free(sock);
	free(want);
	free(rdir);
	free(dir);

	dir = sl_xasprintf("%s/empty", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	sl_err_clear(&err);
	assert_int_equal(sl_conf_load(dir, &c, &err), -SL_ECONFIG);
	want = sl_xasprintf("%s: no *.yaml files", dir);
	assert_string_equal(err.msg, want);
	rmdir(dir);
	free(want);
	free(dir);
}

/* A relative config path resolves from the cwd at load time; the result is
 * absolute so a later chdir() does not move the socket. */
static void test_relative(void **state)
{
	char *path = write_conf(HEAD "socket: s.sock\nstateDir: ./a/../b/./c//\n");
	char cwd[4096], *want, *sock = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmpdir), 0);
	c = load_ok("sluice.yaml");
	assert_int_equal(sl_conf_peek_socket("sluice.yaml", &sock, &err), 0);
	assert_int_equal(chdir(cwd), 0);
	want = sl_xasprintf("%s/s.sock", realtmp);
	assert_string_equal(sl_conf_socket(c), want);
	assert_string_equal(sock, want);
	free(want);
	want = sl_xasprintf("%s/b/c", realtmp);
	assert_string_equal(sl_conf_state_dir(c), want);
	free(want);
	sl_conf_free(c);
	free(sock);
	free(path);

	c = load_text(HEAD "stateDir: ../../../../../../../../../../..\n");
	assert_string_equal(sl_conf_state_dir(c), "/");
	sl_conf_free(c);
}

/* peek skips Kueue objects entirely, even broken or unknown ones. */
static void test_peek(void **state)
{
	char *path = write_conf("apiVersion: x/v1\nkind: Foo\n---\n" HEAD
				"socket: /tmp/x.sock\n");
	struct sl_err err = SL_ERR_INIT;
	char *sock = (void *)1;

	assert_int_equal(sl_conf_peek_socket(path, &sock, &err), 0);
	assert_string_equal(sock, "/tmp/x.sock");
	free(sock);
	free(path);
	path = write_conf(HEAD "socket: 5\nexecutor: kubernetes\n");
	assert_int_equal(sl_conf_peek_socket(path, &sock, &err), -SL_EUNSUPP);
	assert_null(sock);
	assert_string_equal(err.msg, "sluice.yaml:4: SluiceConfiguration: executor "
			    "\"kubernetes\" is not supported by Sluice yet");
	free(path);
}

static void test_setting_errors(void **state)
{
	char xs[108], long_sock[300], want[400];

	conf_fails(HEAD "executor: foo\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: executor: \"foo\" is not one "
		   "of local, kubernetes");
	conf_fails(HEAD "executor: kubernetes\n", SL_EUNSUPP,
		   "sluice.yaml:3: SluiceConfiguration: executor \"kubernetes\" is not "
		   "supported by Sluice yet");
	conf_fails(HEAD "auth: kerberos\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: auth: \"kerberos\" is not one "
		   "of none, munge");
	conf_fails(HEAD "executor: loc\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: executor: \"loc\" is not one "
		   "of local, kubernetes");
	conf_fails(HEAD "socket: /s\n\n\n\nbogusKey: 1\n", SL_ECONFIG,
		   "sluice.yaml:7: SluiceConfiguration: bogusKey: unknown key");
	conf_fails(HEAD "spec:\n  socket: /s\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: spec: unknown key");
	conf_fails(HEAD "killWait: abc\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: killWait: \"abc\" is not an "
		   "integer");
	conf_fails(HEAD "killWait: \"30\"\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: killWait: \"30\" is not an "
		   "integer");
	conf_fails(HEAD "killWait: 86401\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: killWait: 86401 is out of "
		   "range (0..86400)");
	conf_fails(HEAD "minJobAge: -1\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: minJobAge: -1 is out of "
		   "range (0..31536000)");
	conf_fails(HEAD "killWait: [1]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: killWait: must be a string");
	/* An empty enum value once hung the loader (and SIGHUP) for good. */
	conf_fails(HEAD "durability: \"\"\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: durability: \"\" is not one "
		   "of process, power");
	conf_fails(HEAD "auth: ''\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: auth: \"\" is not one of none, munge");
	conf_fails(HEAD "executor: \"\"\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: executor: \"\" is not one "
		   "of local, kubernetes");
	conf_fails(HEAD "socket: \"\"\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: socket: must not be empty");
	memset(xs, 'x', 107);
	xs[107] = '\0';
	snprintf(long_sock, sizeof(long_sock), HEAD "socket: /%s\n", xs);
	snprintf(want, sizeof(want), "sluice.yaml:3: SluiceConfiguration: socket: "
		 "\"/%s\" is longer than 107 bytes", xs);
	conf_fails(long_sock, SL_ECONFIG, want);
	conf_fails(HEAD "defaultPartition: Gpu_Large_\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: defaultPartition: \"Gpu_Large_\" "
		   "is not a valid name (letters, digits, '_', '.' and '-', at most 63 "
		   "characters, a letter or digit at both ends)");
	conf_fails(HEAD "clusterName: -x\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: clusterName: \"-x\" is not a "
		   "valid name (lowercase letters, digits and '-', at most 63 "
		   "characters)");
}

static void test_list_errors(void **state)
{
	conf_fails(HEAD "operators: alice\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: operators: must be a list of "
		   "user names");
	conf_fails(HEAD "operators:\n- alice\n- bad user\n", SL_ECONFIG,
		   "sluice.yaml:5: SluiceConfiguration: operators[1]: \"bad user\" is "
		   "not a valid user name");
	conf_fails(HEAD "operators: [alice, {x: 1}]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: operators[1]: \"(not a string)\" "
		   "is not a valid user name");
	conf_fails(HEAD "accounts: [general]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: accounts: must map user names "
		   "(or \"*\") to lists of accounts");
	conf_fails(HEAD "accounts:\n  alice: []\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: accounts.alice: must list at "
		   "least one account");
	conf_fails(HEAD "accounts:\n  alice: general\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: accounts.alice: must be a list "
		   "of account names");
	conf_fails(HEAD "accounts:\n  alice:\n  - general\n  - Phys ics\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: accounts.alice[1]: \"Phys ics\" "
		   "is not a valid account name");
	conf_fails(HEAD "accounts:\n  \"a b\": [x]\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: accounts.a b: \"a b\" is not a "
		   "valid user name");
}

static void test_document_errors(void **state)
{
	conf_fails("socket: /x\n", SL_ECONFIG, "sluice.yaml:1: object has no apiVersion");
	conf_fails("apiVersion: sluice.io/v1alpha1\n", SL_ECONFIG,
		   "sluice.yaml:1: object has no kind");
	conf_fails(HEAD "---\n- a\n- b\n", SL_ECONFIG,
		   "sluice.yaml:4: document is not a map (an object with apiVersion "
		   "and kind)");
	conf_fails("apiVersion: [a]\nkind: X\n", SL_ECONFIG,
		   "sluice.yaml:1: apiVersion: must be a non-empty string");
	conf_fails(HEAD "---\n# nothing\n---\n" HEAD, SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: a second one (the first is at "
		   "sluice.yaml:1); there must be exactly one");
	conf_fails(HEAD "---\napiVersion: sluice.io/v1\nkind: SluiceConfiguration\n",
		   SL_ECONFIG,
		   "sluice.yaml:5: unknown kind \"SluiceConfiguration\" (apiVersion "
		   "\"sluice.io/v1\")");
	conf_fails(HEAD "a: [\n", SL_EINVAL,
		   "sluice.yaml:4: did not find expected node content (while parsing "
		   "a flow node)");
}

static void test_missing_and_unknown(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = (void *)1;
	char *path = data_path("unknown-kind.yaml"), *want;

	assert_int_equal(sl_conf_load(path, &c, &err), -SL_ECONFIG);
	assert_null(c);
	assert_string_equal(err.msg,
			    "unknown-kind.yaml:11: unknown kind \"Foo\" (apiVersion \"x/v1\")");
	free(path);

	sl_err_clear(&err);
	assert_int_equal(sl_conf_load("/nonexistent/sluice.yaml", &c, &err), -SL_ENOENT);
	assert_string_equal(err.msg, "/nonexistent/sluice.yaml: No such file or directory");

	sl_err_clear(&err);
	path = write_conf("# nothing but a comment\n");
	assert_int_equal(sl_conf_load(path, &c, &err), -SL_ECONFIG);
	want = sl_xasprintf("%s: no SluiceConfiguration (apiVersion: sluice.io/v1alpha1) "
			    "document", path);
	assert_string_equal(err.msg, want);
	free(want);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_etc_default),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_setting_errors),
		cmocka_unit_test(test_list_errors),
		cmocka_unit_test(test_document_errors),
		cmocka_unit_test(test_missing_and_unknown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
