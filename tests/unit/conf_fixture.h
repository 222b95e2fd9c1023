/* conf_fixture.h - the shared fixture of test_conf and test_conf_sections:
 * a temporary directory holding sluice.yaml, loading it (which must work or
 * must fail with exactly one error), and the shipped test data. */
#ifndef CONF_FIXTURE_H
#define CONF_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf.h"
#include "err.h"
#include "xalloc.h"

static char tmpdir[] = "/tmp/test_conf_XXXXXX";
static char *realtmp; /* realpath of tmpdir: what resolved paths start with */

static inline const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s != NULL && *s != '\0' ? s : ".";
}

static inline char *data_path(const char *rel)
{
	return sl_xasprintf("%s/tests/data/conf/%s", srcdir(), rel);
}

/* Writes `text` to TMP/sluice.yaml and returns that path (caller frees). */
static inline char *write_conf(const char *text)
{
	char *path = sl_xasprintf("%s/sluice.yaml", tmpdir);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static inline struct sl_conf *load_ok(const char *path)
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
static inline struct sl_conf *load_text(const char *text)
{
	char *path = write_conf(text);
	struct sl_conf *c = load_ok(path);

	free(path);
	return c;
}

#define HEAD "apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"

/* Loads `text` from TMP/sluice.yaml and expects exactly this error. */
static inline void conf_fails(const char *text, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = (void *)1;
	char *path = write_conf(text);

	assert_int_equal(sl_conf_load(path, &c, &err), -code);
	assert_null(c);
	assert_string_equal(err.msg, msg);
	free(path);
}

static inline int setup(void **state)
{
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	realtmp = realpath(tmpdir, NULL);
	return realtmp == NULL ? -1 : 0;
}

static inline int teardown(void **state)
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
static inline void want_settings(const struct sl_conf *c, const char *socket,
				 const char *state_dir, const char *partition,
				 const char *cluster, int kill_wait, int min_job_age)
{
	assert_string_equal(sl_conf_socket(c), socket);
	assert_string_equal(sl_conf_state_dir(c), state_dir);
	assert_string_equal(sl_conf_default_partition(c), partition);
	assert_string_equal(sl_conf_cluster_name(c), cluster);
	assert_int_equal(sl_conf_kill_wait(c), kill_wait);
	assert_int_equal(sl_conf_min_job_age(c), min_job_age);
}

/* Collects sl_conf_show's "key=value" lines into *arg (a malloc'd string);
 * stops at stopHere. */
static inline int show_cb(const char *key, const char *value, const char *help, void *arg)
{
	char **out = arg, *t = sl_xasprintf("%s%s=%s\n", *out, key, value);

	assert_non_null(help);
	assert_true(strlen(help) > 10);
	free(*out);
	*out = t;
	return strcmp(key, "stopHere") == 0 ? 7 : 0;
}

#endif
