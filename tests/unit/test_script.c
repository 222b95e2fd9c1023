/* test_script.c - batch script reading, Slurm's checks, --wrap and the
 * extraction of #SBATCH directive words. */
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

#include "err.h"
#include "script.h"
#include "xalloc.h"

static int check(const char *text, size_t len, char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_script_check(text, len, &err);
	strcpy(msg, err.msg);
	return r;
}

static void test_check(void **state)
{
	char m[SL_ERR_MSG_MAX];
	(void)state;

	assert_int_equal(check("#!/bin/sh\necho hi\n", 18, m), 0);
	assert_int_equal(check("", 0, m), -SL_EINVAL);
	assert_string_equal(m, "Batch script is empty!");
	assert_int_equal(check(" \n\t\n", 4, m), -SL_EINVAL);
	assert_string_equal(m, "Batch script contains only whitespace!");
	assert_int_equal(check("echo hi\n", 8, m), -SL_EINVAL);
	assert_string_equal(m, "This does not look like a batch script.  The first\n"
			       "line must start with #! followed by the path to an interpreter.\n"
			       "For instance: #!/bin/sh");
	assert_int_equal(check("#!/bin/sh\r\necho\r\n", 17, m), -SL_EINVAL);
	assert_string_equal(m, "Batch script contains DOS line breaks (\\r\\n)\n"
			       "instead of expected UNIX line breaks (\\n).");
	assert_int_equal(check("#!/bin/sh\necho\0x\n", 17, m), -SL_EINVAL);
	assert_string_equal(m, "The Slurm controller does not allow scripts that\n"
			       "contain a NULL character '\\0'.");
}

static void test_wrap(void **state)
{
	char *s = sl_script_wrap("echo wrapped; hostname");
	(void)state;
	assert_string_equal(s, "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n"
			       "echo wrapped; hostname\n");
	free(s);
	s = sl_script_wrap("");
	assert_string_equal(s, "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n\n");
	free(s);
}

static char *joined(const char *text, int *rc, char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL, buf[2048] = "";
	int n = 0, i;

	*rc = sl_script_directives(text, strlen(text), "#SBATCH", "sbatch", &v, &n, &err);
	strcpy(msg, err.msg);
	if (*rc != 0)
		return NULL;
	assert_string_equal(v[0], "sbatch");
	assert_null(v[n]);
	for (i = 1; i < n; i++) {
		strcat(buf, i > 1 ? "|" : "");
		strcat(buf, v[i]);
	}
	sl_strv_free(v);
	return sl_xstrdup(buf);
}

#define DIRS(text, want)                                \
	do {                                            \
		int rc_;                                \
		char m_[SL_ERR_MSG_MAX];                \
		char *g_ = joined(text, &rc_, m_);      \
		assert_int_equal(rc_, 0);               \
		assert_string_equal(g_, want);          \
		free(g_);                               \
	} while (0)

/* sbatch's: #SLURM lines count (and are reported), in order with #SBATCH. */
static void test_sbatch_legacy_magic(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL;
	int n = 0, legacy = 0;
	const char *t = "#!/bin/sh\n#SBATCH -J a\n#SLURM -J b -t 4\necho\n#SLURM -n 2\n";
	(void)state;

	assert_int_equal(sl_script_sbatch_directives(t, strlen(t), &v, &n, &legacy, &err), 0);
	assert_int_equal(legacy, 1);
	assert_int_equal(n, 7);
	assert_string_equal(v[3], "-J");
	assert_string_equal(v[4], "b");
	sl_strv_free(v);
	t = "#!/bin/sh\n#SBATCH -J a\n";
	assert_int_equal(sl_script_sbatch_directives(t, strlen(t), &v, &n, &legacy, &err), 0);
	assert_int_equal(legacy, 0);
	sl_strv_free(v);
}

static void test_directives(void **state)
{
	int rc;
	char m[SL_ERR_MSG_MAX];
	(void)state;

	DIRS("#!/bin/bash\n#SBATCH -J manyopts\n#SBATCH -p gpu\n#SBATCH --nodes 2\necho\n",
	     "-J|manyopts|-p|gpu|--nodes|2");
	/* comments and blank lines do not stop the scan; a command does */
	DIRS("#!/bin/sh\n\n# comment\n   \n#SBATCH -N2\nhostname\n#SBATCH -n 4\n", "-N2");
	/* an indented comment is a comment too (22.05's _opt_batch_script
	 * looks past blanks for '#'); an indented #SBATCH is one */
	DIRS("#!/bin/sh\n  # indented\n#SBATCH -N2\n\t#SBATCH -n 3\n#SBATCH -t 1\n", "-N2|-t|1");
	/* quotes, escapes and trailing comments */
	DIRS("#!/bin/sh\n#SBATCH --comment=\"a comment\" # why\n", "--comment=a comment");
	/* as in Slurm, a backslash does not protect a blank */
	DIRS("#!/bin/sh\n#SBATCH -J 'it''s' --wrap=a\\ b -o x\\y\n", "-J|its|--wrap=a|b|-o|xy");
	DIRS("#!/bin/sh\n#SBATCH -J a#b\n", "-J|a");
	/* an empty word ends its line (a trailing backslash, "") */
	DIRS("#!/bin/sh\n#SBATCH -J cont \\\n#SBATCH -t 4\n", "-J|cont|-t|4");
	DIRS("#!/bin/sh\n#SBATCH -J a \"\" -t 5\n", "-J|a");
	DIRS("#!/bin/sh\n#SBATCH -J \"a#b\"\n", "-J|a#b");
	/* case and column matter */
	DIRS("#!/bin/sh\n#sbatch -N 2\n #SBATCH -N 3\n", "");
	DIRS("#!/bin/sh\n#SBATCH", "");
	DIRS("#!/bin/sh\n#SBATCH -t 1 -N 1", "-t|1|-N|1");
	DIRS("", "");
	assert_null(joined("#!/bin/sh\n#SBATCH -J \"open\n", &rc, m));
	assert_int_equal(rc, -SL_EINVAL);
	assert_string_equal(m, "line 2: Unmatched `\"` in directive");
}

static const char *tmpdir(void)
{
	static char dir[64];
	if (!dir[0]) {
		strcpy(dir, "/tmp/sl_test_script.XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	return dir;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void test_read(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char *path = sl_xasprintf("%s/job.sh", tmpdir()), *text = NULL, *big;
	size_t len = 0;
	(void)state;

	write_file(path, "#!/bin/sh\necho\n", 15);
	assert_int_equal(sl_script_read(path, "job.sh", &text, &len, &err), 0);
	assert_int_equal(len, 15);
	assert_string_equal(text, "#!/bin/sh\necho\n");
	free(text);

	assert_int_equal(sl_script_read("/nonexistent/x.sh", "nosuchfile.sh", &text, &len, &err),
			 -SL_ENOENT);
	assert_string_equal(err.msg, "Unable to open file nosuchfile.sh");
	sl_err_clear(&err);
	/* a directory reads as nothing, as Slurm's read: "Batch script is empty!" */
	assert_int_equal(sl_script_read(tmpdir(), "dir", &text, &len, &err), 0);
	assert_int_equal(len, 0);
	free(text);

	big = sl_xmalloc(SL_SCRIPT_MAX + 1);
	memset(big, 'x', SL_SCRIPT_MAX + 1);
	write_file(path, big, SL_SCRIPT_MAX);
	assert_int_equal(sl_script_read(path, NULL, &text, &len, &err), 0);
	assert_int_equal(len, SL_SCRIPT_MAX);
	free(text);
	write_file(path, big, SL_SCRIPT_MAX + 1);
	assert_int_equal(sl_script_read(path, NULL, &text, &len, &err), -SL_ETOOBIG);
	assert_string_equal(err.msg, "Batch script is too large (4194305 bytes > 4194304)");
	free(big);
	unlink(path);
	free(path);
}

static void test_resolve(void **state)
{
	char *bin = sl_xasprintf("%s/bin", tmpdir()), *tool = sl_xasprintf("%s/tool.sh", bin);
	char *pathenv = sl_xasprintf("/nonexistent:%s", bin), *r;
	(void)state;

	mkdir(bin, 0700);
	write_file(tool, "#!/bin/sh\n", 10);
	r = sl_script_resolve("tool.sh", "/nonexistent", pathenv);
	assert_string_equal(r, tool);
	free(r);
	r = sl_script_resolve("./tool.sh", bin, pathenv); /* "." means the cwd only */
	assert_string_equal(r, "./tool.sh");
	free(r);
	r = sl_script_resolve("missing.sh", bin, pathenv);
	assert_string_equal(r, "missing.sh");
	free(r);
	r = sl_script_resolve("tool.sh", "/nonexistent", NULL);
	assert_string_equal(r, "tool.sh");
	free(r);
	r = sl_script_resolve("tool.sh", bin, NULL); /* the directory first, whole */
	assert_string_equal(r, tool);
	free(r);
	r = sl_script_resolve("bin", tmpdir(), pathenv); /* a directory is not a script */
	assert_string_equal(r, "bin");
	free(r);
	char *argv[] = {"a1", "b 2", NULL};
	r = sl_script_command_line("./tool.sh", argv);
	assert_string_equal(r, "./tool.sh a1 b 2");
	free(r);
	unlink(tool);
	rmdir(bin);
	rmdir(tmpdir());
	free(bin);
	free(tool);
	free(pathenv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),   cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_directives), cmocka_unit_test(test_read),
		cmocka_unit_test(test_sbatch_legacy_magic),
		cmocka_unit_test(test_resolve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
