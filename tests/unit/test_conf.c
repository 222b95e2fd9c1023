/* test_conf.c - the Sluice configuration: defaults, every key, path
 * resolution, directories, routing of Kueue objects, and exact errors. */
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

static char tmpdir[] = "/tmp/test_conf_XXXXXX";
static char *realtmp; /* realpath of tmpdir: what resolved paths start with */

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s != NULL && *s != '\0' ? s : ".";
}

static char *data_path(const char *rel)
{
	return sl_xasprintf("%s/tests/data/conf/%s", srcdir(), rel);
}

/* Writes `text` to TMP/sluice.yaml and returns that path (caller frees). */
static char *write_conf(const char *text)
{
	char *path = sl_xasprintf("%s/sluice.yaml", tmpdir);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static struct sl_conf *load_ok(const char *path)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = NULL;
	int r = sl_conf_load(path, &c, &err);

	if (r != 0)
		fail_msg("%s: unexpected error: %s", path, err.msg);
	assert_non_null(c);
	return c;
}

/* Loads `text` from TMP/sluice.yaml, which must load. */
static struct sl_conf *load_text(const char *text)
{
	char *path = write_conf(text);
	struct sl_conf *c = load_ok(path);

	free(path);
	return c;
}

#define HEAD "apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"

/* Loads `text` from TMP/sluice.yaml and expects exactly this error. */
static void conf_fails(const char *text, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = (void *)1;
	char *path = write_conf(text);

	assert_int_equal(sl_conf_load(path, &c, &err), -code);
	assert_null(c);
	assert_string_equal(err.msg, msg);
	free(path);
}

static int setup(void **state)
{
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	realtmp = realpath(tmpdir, NULL);
	return realtmp == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	char *p = sl_xasprintf("%s/sluice.yaml", tmpdir);

	unlink(p);
	free(p);
	rmdir(tmpdir);
	free(realtmp);
	return 0;
}

/* The plain settings: socket, stateDir, defaultPartition, clusterName,
 * killWait, minJobAge. */
static void want_settings(const struct sl_conf *c, const char *socket, const char *state_dir,
			  const char *partition, const char *cluster, int kill_wait,
			  int min_job_age)
{
	assert_string_equal(sl_conf_socket(c), socket);
	assert_string_equal(sl_conf_state_dir(c), state_dir);
	assert_string_equal(sl_conf_default_partition(c), partition);
	assert_string_equal(sl_conf_cluster_name(c), cluster);
	assert_int_equal(sl_conf_kill_wait(c), kill_wait);
	assert_int_equal(sl_conf_min_job_age(c), min_job_age);
}

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

static int show_cb(const char *key, const char *value, const char *help, void *arg)
{
	char **out = arg, *t = sl_xasprintf("%s%s=%s\n", *out, key, value);

	assert_non_null(help);
	assert_true(strlen(help) > 10);
	free(*out);
	*out = t;
	return strcmp(key, "stopHere") == 0 ? 7 : 0;
}

static void test_show(void **state)
{
	char *path = data_path("full.yaml"), *out = sl_xstrdup(""), *want;
	struct sl_conf *c = load_ok(path);

	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	want = sl_xasprintf("socket=%s\nstateDir=/var/tmp/sluice-state\n"
			    "executor=local\nauth=none\nlisten=\ncontroller=\nmunge=\n"
			    "defaultPartition=short\n"
			    "clusterName=testcluster\nkillWait=5\ndurability=process\nminJobAge=0\n"
			    "killInvalidDepend=no\n"
			    "operators=alice,bob.smith\n"
			    "accounts=alice:physics,general *:general carol:chem\n"
			    "features=\nmailProg=/usr/bin/mail\npam=\npbsServer=\n",
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

/* The fast peek (conf_peek.c) answers only for the simple shape and agrees
 * with the full parse; anything else is left to it (0). */
static void expect_fast(const char *text, const char *want)
{
	char *path = write_conf(text), *full = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf_peek p;

	assert_int_equal(sl_conf_peek_fast(path, &p), want != NULL);
	if (want != NULL) {
		assert_string_equal(p.socket, want);
		assert_null(p.controller);
		assert_int_equal(sl_conf_peek_socket(path, &full, &err), 0);
		assert_string_equal(full, want);
	} else {
		assert_null(p.socket);
	}
	sl_conf_peek_clear(&p);
	free(full);
	free(path);
}

/* Where a login node's command goes: the fast peek's answer, and the same
 * from the whole loader (text must load). */
static void expect_peek_tcp(const char *text, const char *sock, const char *ctl,
			    const char *msock, int munge)
{
	char *path = write_conf(text);
	struct sl_conf_peek p;
	struct sl_conf *c;

	assert_int_equal(sl_conf_peek_fast(path, &p), 1);
	assert_string_equal(p.socket, sock);
	if (ctl == NULL)
		assert_null(p.controller);
	else
		assert_string_equal(p.controller, ctl);
	if (msock == NULL)
		assert_null(p.munge_socket);
	else
		assert_string_equal(p.munge_socket, msock);
	assert_int_equal(p.munge, munge);
	c = load_ok(path);
	assert_string_equal(sl_conf_socket(c), sock);
	assert_true(ctl ? strcmp(sl_conf_controller(c), ctl) == 0 : sl_conf_controller(c) == NULL);
	assert_true(msock ? strcmp(sl_conf_munge_socket(c), msock) == 0
			  : sl_conf_munge_socket(c) == NULL);
	assert_string_equal(sl_conf_auth(c), munge ? "munge" : "none");
	sl_conf_free(c);
	sl_conf_peek_clear(&p);
	free(path);
}

static void test_peek_fast(void **state)
{
	expect_fast("# site config\n---\n" HEAD "socket: /run/s.sock   # here\n"
		    "accounts:\n  \"*\": [general]\n---\nkind: ClusterQueue\nsocket: /x\n",
		    "/run/s.sock");
	expect_fast("kind: SluiceConfiguration\nsocket: \"/a/../b/s.sock\"\n"
		    "apiVersion: sluice.io/v1alpha1\n", "/b/s.sock");
	expect_fast(HEAD "socket: '/q s.sock'\n", "/q s.sock");
	expect_fast(HEAD "stateDir: /var\n", NULL);                 /* default: parse */
	expect_fast(HEAD "socket: s.sock\n", NULL);                 /* relative */
	expect_fast(HEAD "socket: \"/a\\tb\"\n", NULL);             /* escape */
	expect_fast(HEAD "socket: /a\nsocket: /b\n", NULL);         /* twice */
	expect_fast(HEAD "socket: &x /a\n", NULL);                  /* anchor */
	expect_fast(HEAD "socket: /a: b\n", NULL);                  /* a mapping */
	expect_fast("{apiVersion: sluice.io/v1alpha1}\n", NULL);    /* flow */
	expect_fast("apiVersion: x/v1\nkind: Foo\n---\n" HEAD "socket: /s\n", NULL);
	expect_fast(HEAD "\tsocket: /s\n", NULL);                   /* tab */
	expect_fast("%YAML 1.2\n---\n" HEAD "socket: /s\n", NULL);

	/* login nodes: controller, auth and munge's socket */
	expect_peek_tcp(HEAD "controller: head1:6820\nauth: munge\n", SL_CONF_DEFAULT_SOCKET,
			"head1:6820", NULL, 1);
	expect_peek_tcp(HEAD "controller: 'head1:6820'  # the controller\nauth: munge\n"
			"munge:\n  socket: /run/m.sock  # here\n", SL_CONF_DEFAULT_SOCKET,
			"head1:6820", "/run/m.sock", 1);
	expect_peek_tcp(HEAD "auth: munge\nmunge:\n# a comment\n  socket: \"/a/../m.sock\"\n"
			"socket: /s\n", "/s", NULL, "/m.sock", 1);
	expect_peek_tcp(HEAD "controller: \"[::1]:6820\"\nauth: munge\nmunge:\n",
			SL_CONF_DEFAULT_SOCKET, "[::1]:6820", NULL, 1);
	expect_peek_tcp(HEAD "socket: /s\nauth: none\n", "/s", NULL, NULL, 0);
	expect_peek_tcp(HEAD "socket: /s\nauth: none\nlisten: []\ncontroller:\nmunge:\n"
			"#  socket: /m\n", "/s", NULL, NULL, 0); /* as etc/sluice.yaml */
	expect_peek_tcp(HEAD "socket: /s\nauth: munge\nlisten: [\"0.0.0.0:6820\"]\n", "/s", NULL,
			NULL, 1);
	expect_fast(HEAD "controller: head1:6820\n", NULL);          /* TCP without munge */
	expect_fast(HEAD "controller: head1\nauth: munge\n", NULL);  /* no port */
	expect_fast(HEAD "controller: [::1]:6820\nauth: munge\n", NULL); /* a flow list */
	expect_fast(HEAD "socket: /s\nauth: munge\nauth: none\n", NULL);
	expect_fast(HEAD "socket: /s\nauth: kerberos\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge: {socket: /m}\n", NULL);  /* flow */
	expect_fast(HEAD "socket: /s\nmunge:\n  socket: m.sock\n", NULL); /* relative */
	expect_fast(HEAD "socket: /s\nmunge:\n  sockets: /m\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge:\n  socket:\n    /m\n", NULL);
	expect_fast(HEAD "socket: /s\nmunge:\n  socket: /m\n  socket: /n\n", NULL);
}

/* pbsServer: a host name, for the daemon and, through the peek, for the
 * PBS commands of this host or a login node. */
static void test_pbs_server(void **state)
{
	char *path = write_conf(HEAD "socket: /s\npbsServer: head1.example.org\n");
	struct sl_conf_peek p;
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = load_ok(path);

	assert_string_equal(sl_conf_pbs_server(c), "head1.example.org");
	sl_conf_free(c);
	assert_int_equal(sl_conf_peek_fast(path, &p), 1);
	assert_string_equal(p.pbs_server, "head1.example.org");
	sl_conf_peek_clear(&p);
	free(path);
	path = write_conf(HEAD "stateDir: /var\npbsServer: pbs1\n"); /* the full parse */
	assert_int_equal(sl_conf_peek(path, &p, &err), 0);
	assert_string_equal(p.pbs_server, "pbs1");
	sl_conf_peek_clear(&p);
	free(path);
	path = write_conf(HEAD "socket: /s\n");
	c = load_ok(path);
	assert_null(sl_conf_pbs_server(c)); /* the short host name */
	sl_conf_free(c);
	free(path);
	expect_fast(HEAD "socket: /s\npbsServer: -bad-\n", NULL); /* the parser says why */
	conf_fails(HEAD "pbsServer: -bad-\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pbsServer: \"-bad-\" is not a valid "
		   "host name");
	conf_fails(HEAD "pbsServer: a..b\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pbsServer: \"a..b\" is not a valid "
		   "host name");
}

/* listen, controller and munge: TCP for login nodes, only with munge. */
static void test_tcp(void **state)
{
	char *path = write_conf(HEAD "auth: munge\nlisten: [\"127.0.0.1:6820\", \"[::]:6820\", "
				"head1.example.org:7000]\ncontroller: head1:6820\n"
				"munge: {socket: m/../munge.sock}\n");
	struct sl_conf *c = load_ok(path);
	const char *const *l = sl_conf_listen(c);
	char *want = sl_xasprintf("%s/munge.sock", realtmp);

	assert_non_null(l);
	assert_string_equal(l[0], "127.0.0.1:6820");
	assert_string_equal(l[1], "[::]:6820");
	assert_string_equal(l[2], "head1.example.org:7000");
	assert_null(l[3]);
	assert_string_equal(sl_conf_controller(c), "head1:6820");
	assert_string_equal(sl_conf_munge_socket(c), want);
	assert_string_equal(sl_conf_auth(c), "munge");
	sl_conf_free(c);
	free(want);
	free(path);
	c = load_text(HEAD "listen: []\n");
	assert_null(sl_conf_listen(c));
	assert_null(sl_conf_controller(c));
	assert_null(sl_conf_munge_socket(c));
	sl_conf_free(c);

	conf_fails(HEAD "listen: [\"0.0.0.0:6820\"]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: listen: needs auth: munge (over TCP "
		   "only a munge credential says who asks)");
	conf_fails(HEAD "auth: none\ncontroller: head1:6820\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: needs auth: munge (over TCP "
		   "only a munge credential says who asks)");
	conf_fails(HEAD "auth: munge\nlisten:\n- 127.0.0.1:1\n- 0.0.0.0\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: listen[1]: \"0.0.0.0\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\nlisten: [\"::1:6820\"]\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen[0]: \"::1:6820\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\nlisten: h:1\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen: must be a list of HOST:PORT");
	conf_fails(HEAD "auth: munge\nlisten: [[h:1]]\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: listen[0]: must be a string");
	conf_fails(HEAD "auth: munge\ncontroller: h:0\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"h:0\" is not HOST:PORT "
		   "with a port of 1-65535");
	conf_fails(HEAD "auth: munge\ncontroller: \"[::1]:65536\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"[::1]:65536\" is not "
		   "HOST:PORT with a port of 1-65535");
	conf_fails(HEAD "auth: munge\ncontroller: \"[::1]6820\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \"[::1]6820\" is not HOST:PORT "
		   "(an IPv6 address is written [ADDR]:PORT)");
	conf_fails(HEAD "auth: munge\ncontroller: \":6820\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: controller: \":6820\" is not HOST:PORT "
		   "with a port of 1-65535");
	conf_fails(HEAD "munge: {sockets: /x}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge.sockets: unknown key");
	conf_fails(HEAD "munge: /x\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge: must be a map (socket: PATH)");
	conf_fails(HEAD "munge: {socket: \"\"}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: munge.socket: must not be empty");
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

#define LQ_GPU "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n" \
	"metadata: {name: f}\n---\napiVersion: kueue.x-k8s.io/v1beta1\n" \
	"kind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n" \
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" \
	"    - name: f\n      resources: [{name: cpu, nominalQuota: 1}]\n---\n" \
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n" \
	"metadata: {namespace: ns, name: gpu}\nspec: {clusterQueue: cq}\n"

/* The kubernetes: section: the spellings, defaults, and that it is
 * what makes `executor: kubernetes` valid. */
static void test_kubernetes(void **state)
{
	char *path = write_conf(HEAD "executor: kubernetes\nkubernetes:\n"
				"  kubeconfig: kube/config\n  context: prod\n  burst: 200\n"
				"  image: ubuntu:24.04\n  partitions:\n    gpu:\n"
				"      imagePullPolicy: Never\n      mpi: intel\n"
				"      volumes: [{name: home, hostPath: {path: /home}},"
				" {name: cfg, configMap: {name: c, defaultMode: 0644}}]\n"
				"      volumeMounts: [{name: home, mountPath: /home,"
				" readOnly: true}]\n" LQ_GPU);
	struct sl_conf *c = load_ok(path);
	const struct sl_kubeconf *k = sl_conf_kubernetes(c);
	const struct sl_kube_partition *p;
	char *want = sl_xasprintf("%s/kube/config", realtmp);

	assert_string_equal(sl_conf_executor(c), "kubernetes");
	assert_non_null(k);
	assert_string_equal(k->kubeconfig, want);
	assert_string_equal(k->context, "prod");
	assert_int_equal(k->in_cluster, 0);
	assert_int_equal(k->qps, 50);
	assert_int_equal(k->burst, 200);
	assert_string_equal(k->image, "ubuntu:24.04");
	p = sl_kubeconf_partition(k, "gpu");
	assert_non_null(p);
	assert_null(sl_kubeconf_partition(k, "cpu"));
	assert_null(p->image);
	assert_string_equal(p->image_pull_policy, "Never");
	assert_string_equal(p->mpi, "intel");
	assert_string_equal(p->volumes_json, "[{\"name\":\"home\",\"hostPath\":{\"path\":"
			    "\"/home\"}},{\"name\":\"cfg\",\"configMap\":{\"name\":\"c\","
			    "\"defaultMode\":420}}]");
	assert_string_equal(p->volume_mounts_json, "[{\"name\":\"home\",\"mountPath\":"
			    "\"/home\",\"readOnly\":true}]");
	sl_conf_free(c);
	free(path);
	free(want);
	c = load_text(HEAD "kubernetes: {inCluster: true}\n");
	assert_string_equal(sl_conf_executor(c), "local");
	assert_int_equal(sl_conf_kubernetes(c)->in_cluster, 1);
	assert_int_equal(sl_conf_kubernetes(c)->burst, 100);
	sl_conf_free(c);
}

static void test_kubernetes_errors(void **state)
{
	conf_fails(HEAD "kubernetes:\n  qps: 0\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.qps: 0 is out of "
		   "range (1..100000)");
	conf_fails(HEAD "kubernetes:\n  qps: 20\n  burst: 10\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.burst: must be at "
		   "least qps");
	conf_fails(HEAD "kubernetes:\n  images: x\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.images: unknown key");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu: {imagePullPolicy: Sometimes}\n",
		   SL_ECONFIG, "sluice.yaml:5: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.imagePullPolicy: \"Sometimes\" is not one of "
		   "Always, IfNotPresent, Never");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu: {mpi: lam}\n", SL_ECONFIG,
		   "sluice.yaml:5: SluiceConfiguration: kubernetes.partitions.gpu.mpi: "
		   "\"lam\" is not one of openmpi, intel, mpich");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumeMounts: [{name: home, mountPath: /home}]\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumeMounts[0].name: no volume named "
		   "\"home\" in volumes");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumes: [{name: sluice-x, emptyDir: {}}]\n", SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumes[0].name: \"sluice-x\": names "
		   "starting with \"sluice-\" are reserved");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpu:\n"
		   "      volumes: [{name: h, emptyDir: {}}]\n"
		   "      volumeMounts: [{name: h, mountPath: home}]\n", SL_ECONFIG,
		   "sluice.yaml:7: SluiceConfiguration: "
		   "kubernetes.partitions.gpu.volumeMounts[0].mountPath: must be an "
		   "absolute path");
	conf_fails(HEAD "kubernetes:\n  image: \"a b\"\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: kubernetes.image: \"a b\" is not a "
		   "container image reference");
	conf_fails(HEAD "kubernetes:\n  partitions:\n    gpuu: {}\n" LQ_GPU, SL_ECONFIG,
		   "sluice.yaml:1: SluiceConfiguration: kubernetes.partitions: \"gpuu\" is "
		   "not a partition (no LocalQueue has that name)");
	/* the section decides, wherever it is written */
	conf_fails(HEAD "executor: kubernetes\nkubernetes:\n", SL_EUNSUPP,
		   "sluice.yaml:3: SluiceConfiguration: executor \"kubernetes\" is not "
		   "supported by Sluice yet");
}

/* features: name -> node labels; keys and values checked as Kubernetes
 * labels, errors at file:line with the key path. */
static void test_features(void **state)
{
	char *path = write_conf(HEAD "features:\n"
				"  h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}\n"
				"  ib:\n    example.com/network: infiniband\n    rack: \"\"\n");
	struct sl_conf *c = load_ok(path);
	const struct sl_feature_label *l;
	char *out = sl_xstrdup("");
	size_t n = 99;

	l = sl_features_get(sl_conf_features(c), "h100", &n);
	assert_non_null(l);
	assert_int_equal(n, 1);
	assert_string_equal(l[0].key, "nvidia.com/gpu.product");
	assert_string_equal(l[0].value, "NVIDIA-H100-80GB-HBM3");
	l = sl_features_get(sl_conf_features(c), "ib", &n);
	assert_int_equal(n, 2);
	assert_string_equal(l[1].key, "rack");
	assert_string_equal(l[1].value, "");
	assert_null(sl_features_get(sl_conf_features(c), "a100", &n));
	assert_int_equal(n, 0);
	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	assert_non_null(strstr(out, "\nfeatures=h100:nvidia.com/gpu.product=NVIDIA-H100-80GB-"
			       "HBM3 ib:example.com/network=infiniband,rack=\n"));
	free(out);
	sl_conf_free(c);
	free(path);
	c = load_text(HEAD "socket: /tmp/x.sock\n");
	assert_null(sl_conf_features(c));
	assert_null(sl_features_get(NULL, "h100", &n));
	sl_conf_free(c);

	assert_int_equal(sl_label_key_ok("a.b-c.example/x_y.z"), 1);
	assert_int_equal(sl_label_key_ok("Bad.Prefix/x"), 0);
	assert_int_equal(sl_label_key_ok("/x"), 0);
	assert_int_equal(sl_label_key_ok("a/"), 0);
	assert_int_equal(sl_label_key_ok("-x"), 0);
	assert_int_equal(sl_label_value_ok(""), 1);
	assert_int_equal(sl_label_value_ok("a b"), 0);
}

static void test_features_errors(void **state)
{
	conf_fails(HEAD "features: [h100]\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: features: must map feature names "
		   "to maps of node labels");
	conf_fails(HEAD "features:\n  h100: NVIDIA\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100: must map node label "
		   "keys to values, e.g. {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}");
	conf_fails(HEAD "features:\n  \"a|b\": {x: y}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features: \"a|b\" is not a valid "
		   "feature name (at most 63 characters [A-Za-z0-9._-])");
	conf_fails(HEAD "features:\n  h100:\n    ok: yes\n    Bad_Prefix.io/x: y\n",
		   SL_ECONFIG,
		   "sluice.yaml:6: SluiceConfiguration: features.h100.Bad_Prefix.io/x: "
		   "\"Bad_Prefix.io/x\" is not a valid Kubernetes label key (an optional "
		   "DNS subdomain prefix and '/', then at most 63 characters [A-Za-z0-9._-] "
		   "starting and ending with a letter or digit)");
	conf_fails(HEAD "features:\n  h100: {gpu: \"NVIDIA H100\"}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100.gpu: \"NVIDIA H100\" "
		   "is not a valid Kubernetes label value (at most 63 characters "
		   "[A-Za-z0-9._-] starting and ending with a letter or digit)");
	conf_fails(HEAD "features:\n  h100: {gpu: [a]}\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: features.h100.gpu: \"(not a string)\" "
		   "is not a valid Kubernetes label value (at most 63 characters "
		   "[A-Za-z0-9._-] starting and ending with a letter or digit)");
	conf_fails(HEAD "feature:\n  h100: {gpu: h100}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: feature: unknown key");
}

/* pam: {service: NAME} names the PAM service; without it there is no PAM. */
static void test_pam(void **state)
{
	char *path = write_conf(HEAD "pam: {service: sluice-batch_1.x}\n"), *out = sl_xstrdup("");
	struct sl_conf *c = load_ok(path);

	assert_string_equal(sl_conf_pam_service(c), "sluice-batch_1.x");
	assert_int_equal(sl_conf_show(c, show_cb, &out), 0);
	assert_non_null(strstr(out, "\npam=sluice-batch_1.x\n"));
	sl_conf_free(c);
	free(path);
	free(out);
	c = load_text(HEAD "pam:\n");
	assert_null(sl_conf_pam_service(c));
	sl_conf_free(c);

	conf_fails(HEAD "pam: sluice\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam: {}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam: {service: sluice, debug: 1}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam: must be {service: NAME}");
	conf_fails(HEAD "pam:\n  service: ../shadow\n", SL_ECONFIG,
		   "sluice.yaml:4: SluiceConfiguration: pam.service: \"../shadow\" is not a PAM "
		   "service name (at most 64 characters [A-Za-z0-9._-], not starting with '.')");
	conf_fails(HEAD "pam: {service: \"\"}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam.service: \"\" is not a PAM "
		   "service name (at most 64 characters [A-Za-z0-9._-], not starting with '.')");
	conf_fails(HEAD "pam: {service: [a]}\n", SL_ECONFIG,
		   "sluice.yaml:3: SluiceConfiguration: pam.service: \"(not a string)\" is not "
		   "a PAM service name (at most 64 characters [A-Za-z0-9._-], not starting "
		   "with '.')");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_etc_default),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_peek_fast),
		cmocka_unit_test(test_pbs_server),
		cmocka_unit_test(test_setting_errors),
		cmocka_unit_test(test_list_errors),
		cmocka_unit_test(test_document_errors),
		cmocka_unit_test(test_missing_and_unknown),
		cmocka_unit_test(test_kubernetes),
		cmocka_unit_test(test_kubernetes_errors),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_features_errors),
		cmocka_unit_test(test_pam),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
