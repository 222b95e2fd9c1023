/* test_slurm_opt.c - sbatch option parsing into a job spec: precedence,
 * Slurm's error texts and exit codes, --export, constraints, the gates.
 * The golden cases of tests/data/sbatch are test_sbatch_golden.c's. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "buf.h"
#include "err.h"
#include "job.h"
#include "slurm_opt.h"
#include "xalloc.h"

#include "sbatch_testlib.h"

static char tmpdir[64];

/* Every unit test runs in a private directory holding job.sh. */
static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/sl_test_opt.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	assert_int_equal(chdir(tmpdir), 0);
	write_file("job.sh", "#!/bin/sh\n#SBATCH -J scriptname\n#SBATCH -p scriptpart\n"
			     "#SBATCH -t 10\n#SBATCH --mem=1G\nhostname\n");
	return 0;
}

static int teardown(void **state)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			unlink(e->d_name);
	closedir(d);
	assert_int_equal(chdir("/"), 0);
	rmdir(tmpdir);
	return 0;
}

static void test_precedence(void **state)
{
	struct res r;
	char *env[] = {"SBATCH_JOB_NAME=envname", "SBATCH_TIMELIMIT=5", NULL};

	RUN(&r, base_env, "job.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "scriptname");
	assert_string_equal(r.spec.partition, "scriptpart");
	assert_int_equal(r.spec.time_limit, 10);
	assert_int_equal(r.spec.mem_per_node, 1024);
	done(&r);

	RUN(&r, env, "job.sh");
	assert_string_equal(r.spec.name, "envname");
	assert_int_equal(r.spec.time_limit, 5);
	assert_string_equal(r.spec.partition, "scriptpart");
	done(&r);

	RUN(&r, env, "-J", "cli", "--time=1:00:00", "--mem-per-cpu=100", "job.sh");
	assert_string_equal(r.spec.name, "cli");
	assert_int_equal(r.spec.time_limit, 60);
	/* --mem-per-cpu on the command line beats --mem in the script */
	assert_int_equal(r.spec.mem_per_cpu, 100);
	assert_int_equal(r.spec.mem_per_node, SL_NO_VAL);
	done(&r);
}

static void test_defaults(void **state)
{
	struct res r;
	char cwd[4096];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	write_file("plain.sh", "#!/bin/sh\ntrue\n");
	RUN(&r, base_env, "plain.sh", "a", "b c");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "plain.sh");
	assert_null(r.spec.partition);
	assert_int_equal(r.spec.nodes, SL_NO_VAL);
	assert_int_equal(r.spec.time_limit, SL_TIME_UNSET);
	assert_string_equal(r.spec.work_dir, cwd);
	assert_string_equal(r.spec.submit_dir, cwd);
	assert_true(strlen(r.spec.script_path) > strlen(cwd));
	assert_string_equal(r.spec.script_path + strlen(cwd), "/plain.sh");
	assert_string_equal(r.spec.script, "#!/bin/sh\ntrue\n");
	assert_int_equal(sl_strv_len(r.spec.argv), 2);
	assert_string_equal(r.spec.argv[1], "b c");
	assert_null(strchr(r.spec.submit_host, '.'));
	assert_int_equal(r.spec.submit_sid, getsid(0)); /* AllocNode:Sid */
	assert_int_equal(sl_strv_len(r.spec.env), 3);
	assert_null(r.spec.export_spec);
	assert_int_equal(r.spec.requeue, 1);
	assert_int_equal(r.spec.wrapped, 0);
	done(&r);
}

static void test_stdin(void **state)
{
	struct res r;
	int saved = dup(0), fd;

	write_file("in.sh", "#!/bin/bash\n#SBATCH -N 3\necho from stdin\n");
	fd = open("in.sh", O_RDONLY);
	dup2(fd, 0);
	close(fd);
	RUN(&r, base_env, "-n", "2");
	dup2(saved, 0);
	close(saved);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "sbatch");
	assert_null(r.spec.script_path);
	assert_null(r.spec.argv);
	/* more nodes than tasks: brought down, with sbatch's warning */
	assert_int_equal(r.spec.nodes, 2);
	assert_int_equal(r.spec.ntasks, 2);
	assert_string_equal(r.fl.warn, "sbatch: Warning: can't run 2 processes on 3 nodes, "
				       "setting nnodes to 2\n");
	assert_string_equal(r.spec.script, "#!/bin/bash\n#SBATCH -N 3\necho from stdin\n");
	done(&r);
}

/* exit code, whether it is a usage error, and the message */
static void expect_fail(struct res *r, int code, int usage, const char *msg)
{
	assert_int_not_equal(r->rc, 0);
	assert_int_equal(r->fl.exit_code, code);
	assert_int_equal(r->fl.usage_error, usage);
	assert_string_equal(r->err.msg, msg);
	done(r);
}

static void test_errors(void **state)
{
	struct res r;
	char *env_bad[] = {"SBATCH_TIMELIMIT=abc", NULL};
	char *env_unsupp[] = {"SBATCH_EXCLUSIVE=user", NULL};

	RUN(&r, base_env, "--foo", "job.sh");
	expect_fail(&r, 255, 1, "unrecognized option '--foo'");
	RUN(&r, base_env, "-t", "abc", "job.sh");
	expect_fail(&r, 255, 0, "Invalid --time specification");
	RUN(&r, base_env, "--mem=abc", "job.sh");
	expect_fail(&r, 255, 0, "Invalid --mem specification");
	RUN(&r, base_env, "-N", "abc", "job.sh");
	expect_fail(&r, 255, 0, "\"abc\" is not a valid node count");
	RUN(&r, base_env, "-N", "4-2", "job.sh");
	expect_fail(&r, 255, 0, "Maximum node count 2 is less than minimum node count 4");
	RUN(&r, base_env, "-n", "0", "job.sh");
	expect_fail(&r, 1, 0, "Invalid numeric value \"0\" for --ntasks.");
	RUN(&r, base_env, "--gres=foo:1", "job.sh");
	expect_fail(&r, 1, 0, "Invalid generic resource (gres) specification");
	/* --gpus-per-task needs a task count: -n, --ntasks-per-node, -G, or
	 * -N K (not a range) without -c (the reference cluster's sbatch) */
	RUN(&r, base_env, "--gpus-per-task=1", "-N", "1-2", "job.sh");
	expect_fail(&r, 1, 0, "Failed to validate job spec. --gpus-per-task used without either "
		    "--gpus or -n/--ntasks is not allowed.\nInvalid generic resource (gres) "
		    "specification");
	RUN(&r, base_env, "--gpus-per-task=1", "-N", "2", "-c", "2", "job.sh");
	assert_int_equal(r.rc, -SL_EINVAL);
	done(&r);
	RUN(&r, base_env, "--gpus-per-task=1", "-N", "2", "job.sh");
	assert_int_equal(r.rc, 0);
	done(&r);
	RUN(&r, base_env, "--profile=task", "job.sh");
	expect_fail(&r, 1, 0, "--profile=task is not supported by Sluice: it gathers no HDF5 "
		    "profiles (sstat and sacct have the job's use)");
	RUN(&r, base_env, "-L", "lic", "job.sh");
	expect_fail(&r, 1, 0, "--licenses is not supported by Sluice");
	RUN(&r, base_env, "-F", "/nonexistent/hosts.txt", "job.sh");
	expect_fail(&r, 255, 0, "slurm_allocate_resources error opening file "
		    "/nonexistent/hosts.txt, No such file or directory\nInvalid --nodefile node file");
	/* -x's file is read before -F's (sbatch's _opt_verify): its error, exit 1 */
	RUN(&r, base_env, "-F", "/nonexistent/hosts.txt", "-x", "/nonexistent/x", "job.sh");
	expect_fail(&r, 1, 0, "slurm_allocate_resources error opening file /nonexistent/x, No "
		    "such file or directory");
	RUN(&r, base_env, "--open-mode=x", "job.sh");
	expect_fail(&r, 255, 0, "Invalid --open-mode specification");
	RUN(&r, base_env, "--get-user-env=5X", "job.sh");
	expect_fail(&r, 255, 0, "Invalid --get-user-env specification");
	RUN(&r, base_env, "--get-user-env=10LS", "job.sh"); /* past the letter: unread */
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.get_user_env, 10);
	assert_int_equal(r.spec.get_user_env_mode, 2);
	done(&r);
	RUN(&r, base_env, "--get-user-env", "job.sh");
	assert_int_equal(r.spec.get_user_env, 8);
	assert_int_equal(r.spec.get_user_env_mode, 0);
	done(&r);
	RUN(&r, base_env, "--get-user-env=S", "job.sh");
	assert_int_equal(r.spec.get_user_env, 8);
	assert_int_equal(r.spec.get_user_env_mode, 1);
	done(&r);
	RUN(&r, base_env, "--nice=3000000000", "job.sh");
	expect_fail(&r, 255, 0, "Nice value out of range (+/- 2147483645). Value ignored");
	RUN(&r, base_env, "--priority=-1", "job.sh");
	expect_fail(&r, 255, 0, "Priority must be >= 0");
	RUN(&r, env_bad, "job.sh");
	expect_fail(&r, 255, 0, "Invalid --time specification");
	RUN(&r, env_unsupp, "job.sh");
	expect_fail(&r, 1, 0, "--exclusive=user is not supported by Sluice");
	RUN(&r, base_env, "nosuchfile.sh");
	expect_fail(&r, 1, 0, "Unable to open file nosuchfile.sh");
	/* the script is read before command-line values are checked, as in Slurm */
	RUN(&r, base_env, "-t", "abc", "nosuchfile.sh");
	expect_fail(&r, 1, 0, "Unable to open file nosuchfile.sh");
	RUN(&r, base_env, "--wrap", "true", "job.sh");
	expect_fail(&r, 1, 0, "Script arguments not permitted with --wrap option");
	RUN(&r, base_env, "--mem=1G", "--mem-per-cpu=1G", "job.sh");
	assert_int_equal(r.fl.fatal, 1);
	expect_fail(&r, 1, 0, "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
	/* a directive is the command line's too (Slurm's set_by_cli) */
	write_file("mem.sh", "#!/bin/sh\n#SBATCH --mem=1G\n#SBATCH --mem-per-cpu=100M\ntrue\n");
	RUN(&r, base_env, "mem.sh");
	expect_fail(&r, 1, 0, "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
	/* the command line's own options do nothing in a script (early pass) */
	write_file("early.sh", "#!/bin/sh\n#SBATCH --version\n#SBATCH -Q\n#SBATCH --wrap=x\n"
		   "#SBATCH -J kept\ntrue\n");
	RUN(&r, base_env, "early.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.fl.version, 0);
	assert_int_equal(r.fl.quiet, 0);
	assert_int_equal(r.spec.wrapped, 0);
	assert_string_equal(r.spec.name, "kept");
	done(&r);
	write_file("het.sh", "#!/bin/sh\n#SBATCH -n 1\n#SBATCH hetjob\n#SBATCH -n 2\ntrue\n");
	RUN(&r, base_env, "het.sh");
	expect_fail(&r, 1, 0, "heterogeneous jobs (#SBATCH hetjob) are not supported by Sluice");
	RUN(&r, base_env, "--uid=bob", "--wrap", "true");
	if (getuid() == 0)
		expect_fail(&r, 1, 0, "--uid is not supported by Sluice");
	else
		expect_fail(&r, 255, 0, "--uid only permitted by root user");
	RUN(&r, base_env, "-n1", ":", "-n1", "het.sh");
	expect_fail(&r, 1, 0, "heterogeneous jobs (sbatch ... : ...) are not supported by Sluice");
	write_file("mem.sh", "#!/bin/sh\n#SBATCH --mem=1G\ntrue\n");
	RUN(&r, base_env, "--mem-per-cpu=100M", "mem.sh");
	expect_fail(&r, 1, 0, "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");

	write_file("bad.sh", "#!/bin/sh\n#SBATCH --bogus-option\ntrue\n");
	RUN(&r, base_env, "bad.sh");
	expect_fail(&r, 255, 1, "unrecognized option '--bogus-option'");
	write_file("bad.sh", "#!/bin/sh\n#SBATCH -N 2 extra\ntrue\n");
	RUN(&r, base_env, "bad.sh");
	expect_fail(&r, 255, 0, "Invalid directive found in batch script: extra");
	write_file("bad.sh", "#!/bin/sh\n#SBATCH --bb=x\ntrue\n");
	RUN(&r, base_env, "bad.sh");
	expect_fail(&r, 1, 0, "--bb is not supported by Sluice");
	write_file("bad.sh", "");
	RUN(&r, base_env, "bad.sh");
	expect_fail(&r, 1, 0, "Batch script is empty!");
	write_file("bad.sh", "echo\n");
	RUN(&r, base_env, "bad.sh");
	expect_fail(&r, 1, 0, "This does not look like a batch script.  The first\n"
			      "line must start with #! followed by the path to an interpreter.\n"
			      "For instance: #!/bin/sh");
}

static void test_flags(void **state)
{
	struct res r;
	char *env[] = {"SBATCH_DEBUG=1", NULL};

	RUN(&r, base_env, "--help", "job.sh", "--foo-is-a-script-arg");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.fl.help, 1);
	assert_null(r.spec.script);
	done(&r);
	RUN(&r, base_env, "-V");
	assert_int_equal(r.fl.version, 1);
	done(&r);
	RUN(&r, base_env, "--usage");
	assert_int_equal(r.fl.usage, 1);
	done(&r);
	RUN(&r, env, "-vv", "--parsable", "-Q", "-H", "--nice", "-p", "a", "-p", "b", "job.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.fl.verbose, 3);
	assert_int_equal(r.fl.parsable, 1);
	assert_int_equal(r.fl.quiet, 1);
	assert_int_equal(r.spec.hold, 1);
	assert_int_equal(r.spec.nice, 100);
	assert_string_equal(r.spec.partition, "b");
	assert_non_null(r.fl.defined);
	assert_string_equal(r.fl.defined[0], "verbose             : 3");
	assert_string_equal(r.fl.defined[1], "parsable            : set");
	/* script values are shown, then replaced by the command line's */
	assert_string_equal(r.fl.defined[2], "quiet               : set");
	assert_string_equal(r.fl.defined[3], "job-name            : scriptname");
	assert_string_equal(r.fl.defined[4], "partition           : b");
	assert_string_equal(r.fl.defined[5], "time                : 10");
	assert_string_equal(r.fl.defined[6], "mem                 : 1G");
	assert_string_equal(r.fl.defined[7], "hold                : set");
	assert_string_equal(r.fl.defined[8], "nice                : set");
	assert_null(r.fl.defined[9]);
	done(&r);
}

static void test_values(void **state)
{
	struct res r;

	RUN(&r, base_env, "-N3", "--ntasks", "6", "-c2", "--ntasks-per-node=2", "--mem", "512K",
	    "-t", "0", "--open-mode=append", "--gres=gpu:tesla:2", "--gpus=5",
	    "--priority=7", "--no-requeue", "-o", "none", "-e", "e-%j", "-i", "in.txt",
	    "-D", "/tmp", "-q", "high", "-A", "acct", "job.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.nodes, 3);
	assert_int_equal(r.spec.nodes_max, 3);
	assert_int_equal(r.spec.ntasks, 6);
	assert_int_equal(r.spec.cpus_per_task, 2);
	assert_int_equal(r.spec.ntasks_per_node, 2);
	assert_int_equal(r.spec.mem_per_node, 1);
	assert_int_equal(r.spec.time_limit, SL_TIME_INFINITE);
	assert_int_equal(r.spec.open_mode, SL_OPEN_APPEND);
	assert_int_equal(r.spec.gpus_per_node, 2);
	assert_int_equal(r.spec.gpus_per_node_opt, 0); /* --gres's, not --gpus-per-node's */
	assert_int_equal(r.spec.gpus, 5);
	assert_string_equal(r.spec.gpu_type, "tesla");
	assert_int_equal(r.spec.priority, 7);
	assert_int_equal(r.spec.requeue, 0);
	assert_string_equal(r.spec.std_out, "/dev/null");
	assert_string_equal(r.spec.std_err, "e-%j");
	assert_string_equal(r.spec.std_in, "in.txt");
	assert_string_equal(r.spec.work_dir, "/tmp");
	assert_string_equal(r.spec.qos, "high");
	assert_string_equal(r.spec.account, "acct");
	done(&r);
}


/* The gates: -d is passed on as written (the daemon judges it), --begin
 * becomes an absolute time, --kill-on-invalid-dep yes|no; directives too. */
static void test_gates(void **state)
{
	struct res r;
	int64_t t0 = (int64_t)time(NULL);

	RUN(&r, base_env, "-d", "afterok:12?singleton", "--begin=now+1hour",
	    "--kill-on-invalid-dep=YES", "job.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_string_equal(r.spec.dependency, "afterok:12?singleton");
	assert_in_range(r.spec.begin_time, t0 + 3600, t0 + 3602);
	assert_int_equal(r.spec.kill_invalid_dep, 1);
	done(&r);
	RUN(&r, base_env, "job.sh");
	assert_null(r.spec.dependency);
	assert_int_equal(r.spec.begin_time, 0);
	assert_int_equal(r.spec.kill_invalid_dep, SL_NO_VAL);
	done(&r);
	write_file("gated.sh", "#!/bin/sh\n#SBATCH --dependency=afterany:3\n#SBATCH -b now+60\n"
		   "#SBATCH --kill-on-invalid-dep=no\ntrue\n");
	RUN(&r, base_env, "gated.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.dependency, "afterany:3");
	assert_in_range(r.spec.begin_time, t0 + 60, t0 + 62);
	assert_int_equal(r.spec.kill_invalid_dep, 0);
	done(&r);
	RUN(&r, base_env, "--begin=garbage", "job.sh");
	assert_int_equal(r.fl.raw_lines, 1); /* parse_time's own line, bare */
	expect_fail(&r, 255, 0, "Invalid time specification (pos=0): garbage\n"
				 "Invalid --begin specification");
	RUN(&r, base_env, "--begin=", "job.sh");
	assert_int_equal(r.fl.raw_lines, 0);
	expect_fail(&r, 255, 0, "Invalid --begin specification");
	RUN(&r, base_env, "--kill-on-invalid-dep=bogus", "job.sh");
	expect_fail(&r, 255, 0, "Invalid --kill-on-invalid-dep specification");
}

static void test_parsers(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	int64_t m;
	int lo, hi, n;
	char *type;

	assert_int_equal(sl_slurm_parse_mem("100", &m), 0);
	assert_int_equal(m, 100);
	assert_int_equal(sl_slurm_parse_mem("1g", &m), 0);
	assert_int_equal(m, 1024);
	assert_int_equal(sl_slurm_parse_mem("4GB", &m), 0);
	assert_int_equal(m, 4096);
	assert_int_equal(sl_slurm_parse_mem("2T", &m), 0);
	assert_int_equal(m, 2 * 1024 * 1024);
	assert_int_equal(sl_slurm_parse_mem("1025K", &m), 0);
	assert_int_equal(m, 2);
	assert_int_equal(sl_slurm_parse_mem("0", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(sl_slurm_parse_mem("1X", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_mem("1GX", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_mem("-1", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_mem("", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_mem("99999999999999999999", &m), -SL_EINVAL);

	/* --exclusive's words, sbatch's and srun's */
	assert_int_equal(sl_slurm_parse_exclusive(NULL), SL_EXCL_EXCLUSIVE);
	assert_int_equal(sl_slurm_parse_exclusive("Exclusive"), SL_EXCL_EXCLUSIVE);
	assert_int_equal(sl_slurm_parse_exclusive("OVERSUBSCRIBE"), SL_EXCL_OVERSUBSCRIBE);
	assert_int_equal(sl_slurm_parse_exclusive("user"), SL_EXCL_USER);
	assert_int_equal(sl_slurm_parse_exclusive("mcs"), SL_EXCL_MCS);
	assert_int_equal(sl_slurm_parse_exclusive(""), -1);
	assert_int_equal(sl_slurm_parse_exclusive("exclusiv"), -1);
	assert_int_equal(sl_slurm_parse_exclusive("bogus"), -1);

	assert_int_equal(sl_slurm_parse_nodes("2-4", &lo, &hi, &err), 0);
	assert_int_equal(lo, 2);
	assert_int_equal(hi, 4);
	assert_int_equal(sl_slurm_parse_nodes("1k", &lo, &hi, &err), 0);
	assert_int_equal(lo, 1024);
	assert_int_equal(sl_slurm_parse_nodes("2-x", &lo, &hi, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "\"x\" is not a valid node count");

	assert_int_equal(sl_slurm_parse_gres("gpu", &n, &type, &err), 0);
	assert_int_equal(n, 1);
	assert_null(type);
	assert_int_equal(sl_slurm_parse_gres("gpu:a100", &n, &type, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(type, "a100");
	free(type);
	assert_int_equal(sl_slurm_parse_gres("gres:gpu:3", &n, &type, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(sl_slurm_parse_gres("none", &n, &type, &err), 0);
	assert_int_equal(n, -1);
	sl_err_clear(&err);
	assert_int_equal(sl_slurm_parse_gres("gpux:1", &n, &type, &err), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_gres("gpu:a:b", &n, &type, &err), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_gres("gpu:2,foo:1", &n, &type, &err), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_gpus("v100:2", &n, &type, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(type, "v100");
	free(type);
	assert_int_equal(sl_slurm_parse_gpus(":2", &n, &type, &err), -SL_EINVAL);
	assert_int_equal(sl_slurm_parse_gpus("abc", &n, &type, &err), -SL_EINVAL);
}

static char *joined(char **v)
{
	char buf[2048] = "";
	for (; v && *v; v++) {
		strcat(buf, buf[0] ? " " : "");
		strcat(buf, *v);
	}
	return sl_xstrdup(buf);
}

/* -C: "a&b" only; every other Slurm constraint form is refused (exit 1). */
static void expect_features(char **v, const char *want)
{
	char *j = joined(v);
	assert_string_equal(j, want);
	free(j);
}

static void test_constraint(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL;
	struct res r;
	char *env_c[] = {"SBATCH_CONSTRAINT=ib", NULL};
	static const char *bad[] = {"a|b", "[a|b]", "a*2", "a,b", "(a&b)", "a&&b", "&a",
				    "a&", "a b", "a:1", NULL};

	assert_int_equal(sl_slurm_parse_constraint("h100", &v, &err), 0);
	expect_features(v, "h100");
	sl_strv_free(v);
	assert_int_equal(sl_slurm_parse_constraint("h100&ib&a.b-c_d", &v, &err), 0);
	expect_features(v, "h100 ib a.b-c_d");
	assert_int_equal(sl_strv_len(v), 3);
	sl_strv_free(v);
	assert_int_equal(sl_slurm_parse_constraint("", &v, &err), 0);
	assert_null(v);
	for (size_t i = 0; bad[i] != NULL; i++) {
		char want[256];

		sl_err_clear(&err);
		v = (char **)1;
		assert_int_equal(sl_slurm_parse_constraint(bad[i], &v, &err), -SL_EINVAL);
		assert_null(v);
		snprintf(want, sizeof(want), "--constraint=%s: only features joined with & are "
			 "supported by Sluice", bad[i]);
		assert_string_equal(err.msg, want);
	}

	RUN(&r, base_env, "-C", "h100&ib", "job.sh");
	assert_int_equal(r.rc, 0);
	expect_features(r.spec.features, "h100 ib");
	done(&r);
	RUN(&r, base_env, "--constraint=a|b", "job.sh");
	expect_fail(&r, 1, 0, "--constraint=a|b: only features joined with & are supported "
		    "by Sluice");
	/* precedence: command line over SBATCH_CONSTRAINT over #SBATCH */
	write_file("c.sh", "#!/bin/sh\n#SBATCH -C h100\ntrue\n");
	RUN(&r, base_env, "c.sh");
	assert_int_equal(r.rc, 0);
	expect_features(r.spec.features, "h100");
	done(&r);
	RUN(&r, env_c, "c.sh");
	assert_int_equal(r.rc, 0);
	expect_features(r.spec.features, "ib");
	done(&r);
	RUN(&r, env_c, "--constraint=x&y", "c.sh");
	assert_int_equal(r.rc, 0);
	expect_features(r.spec.features, "x y");
	done(&r);
	write_file("c.sh", "#!/bin/sh\n#SBATCH -C [a|b]\ntrue\n");
	RUN(&r, base_env, "c.sh");
	expect_fail(&r, 1, 0, "--constraint=[a|b]: only features joined with & are "
		    "supported by Sluice");
	/* --gres and --gpus keep the type apart from the features */
	RUN(&r, base_env, "--gres=gpu:h100:2", "job.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.gpu_type, "h100");
	assert_null(r.spec.features);
	done(&r);
}

#define EXPORT(spec, want)                                        \
	do {                                                      \
		char **v_ = sl_slurm_export_env(spec, envp);      \
		char *j_ = joined(v_);                            \
		assert_string_equal(j_, want);                    \
		free(j_);                                         \
		sl_strv_free(v_);                                 \
	} while (0)

static void test_export(void **state)
{
	char *envp[] = {"A=1", "SLURM_X=y", "B=2", NULL};

	EXPORT(NULL, "A=1 SLURM_X=y B=2");
	EXPORT("ALL", "A=1 SLURM_X=y B=2");
	EXPORT("NONE", "SLURM_X=y");
	EXPORT("none", "SLURM_X=y");
	EXPORT("B", "B=2 SLURM_X=y");
	EXPORT("B,C=3,MISSING", "B=2 C=3 SLURM_X=y");
	EXPORT("ALL,A=9", "A=9 SLURM_X=y B=2");
	EXPORT("X=\"a,b\",B", "X=\"a,b\" B=2 SLURM_X=y");
	EXPORT("SLURM_X=z", "SLURM_X=y");
	EXPORT("A=9,ALL", "A=1 SLURM_X=y B=2"); /* ALL after an item replaces it */
}

/* ALL passes the environment on as it is, a duplicate name included. */
static void test_export_duplicates(void **state)
{
	char *envp[] = {"A=1", "B=2", "A=3", NULL};

	EXPORT("ALL", "A=1 B=2 A=3");
	EXPORT("ALL,A=9", "A=9 B=2 A=3");
}

/* --export-file: NUL-ended entries up to an empty one, Slurm's three
 * dropped names, entries without '=' or with a long name passed over,
 * what --export made over them; a descriptor by number. */
static void test_export_file(void **state)
{
	static const char data[] = "A=1\0DISPLAY=:0\0NOEQ\0B=x y\0A=2\0HOSTNAME=h\0\0C=3\0";
	char path[] = "/tmp/test_export_file.XXXXXX", *over[] = {"B=9", NULL}, **env = NULL;
	char name[300], num[16];
	struct sl_err err = SL_ERR_INIT;
	int fd = mkstemp(path);
	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, sizeof(data) - 1), (ssize_t)(sizeof(data) - 1));
	memset(name, 'N', 256);
	snprintf(name + 256, sizeof(name) - 256, "=long");
	assert_int_equal(write(fd, name, strlen(name) + 1), (ssize_t)strlen(name) + 1);
	assert_int_equal(sl_slurm_export_file(path, over, &env, &err), 0);
	char *j = joined(env);
	assert_string_equal(j, "A=2 B=9");
	free(j);
	sl_strv_free(env);
	/* the open descriptor, read from where it stands */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	snprintf(num, sizeof(num), "%d", fd);
	assert_int_equal(sl_slurm_export_file(num, NULL, &env, &err), 0);
	assert_string_equal(env[0], "A=2");
	sl_strv_free(env);
	unlink(path);
	assert_int_equal(sl_slurm_export_file(path, NULL, &env, &err), -SL_ENOENT);
	assert_null(env);
	assert_string_equal(err.msg + strlen(err.msg) - strlen(path), path);
	assert_true(strncmp(err.msg, "Could not open user environment file ", 37) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_precedence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stdin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values, setup, teardown),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_export_duplicates),
		cmocka_unit_test(test_export_file),
		cmocka_unit_test_setup_teardown(test_constraint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gates, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
