/* test_pbs_opt.c - qsub's option table (compat/pbs_opt.c): what a command
 * line and #PBS directives make of the spec, their precedence, PBS's texts
 * and exit statuses for bad input, and Sluice's refusals (the -l parser's
 * own cases are test_pbs_resource.c's). Texts and statuses come from OpenPBS's qsub.c,
 * qsub_sup.c and pbs_messages.c (cited beside each case). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "job.h"
#include "pbs_env.h"
#include "pbs_job.h"
#include "pbs_opt.h"
#include "pbs_resource.h"
#include "script.h"
#include "tmpdir_testlib.h"
#include "xalloc.h"

#include "qsub_testlib.h"

/* ---- directives ------------------------------------------------------------ */

static void test_directive_lines(void **state)
{
	const char *text = "#!/bin/sh\n"
			   "#PBS -N one\n"
			   "  #PBS -l walltime=1:00 \\\n"
			   "   -j oe\n"
			   "# a comment\n"
			   ":\n"
			   "#PBS -v 'A=x y',B=\"q r\" -j oe\n"
			   "echo hi\n"
			   "#PBS -N late\n";
	struct sl_qsub_directive *d = NULL;
	size_t n = 0;
	int crlf = 0;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(sl_script_qsub_directives(text, strlen(text), "#PBS", "qsub", &d, &n,
						  &crlf, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(crlf, 0);
	assert_int_equal(d[0].argc, 3);
	assert_string_equal(d[0].argv[2], "one");
	assert_int_equal(d[1].line, 3);
	assert_int_equal(d[1].argc, 5); /* the next line continues it */
	assert_string_equal(d[1].argv[2], "walltime=1:00");
	assert_string_equal(d[1].argv[4], "oe");
	assert_string_equal(d[2].argv[2], "A=x y,B=q r");
	assert_string_equal(d[2].argv[4], "oe");
	sl_qsub_directives_free(d, n);
	/* an empty prefix reads none; an unmatched quote is an error */
	assert_int_equal(sl_script_qsub_directives(text, strlen(text), "", "qsub", &d, &n, &crlf,
						  &err), 0);
	assert_int_equal(n, 0);
	sl_qsub_directives_free(d, n);
	assert_int_not_equal(sl_script_qsub_directives("#PBS -N 'x\n", 11, "#PBS", "qsub", &d, &n,
						      &crlf, &err), 0);
	assert_string_equal(err.msg, "unmatched '");
}

static void test_script_spec(void **state)
{
	struct res r;
	(void)state;

	write_file("job.sh", "#!/bin/bash\n#PBS -N fromdir\n#PBS -q gpu\n"
			     "#PBS -l select=2:ncpus=2:mem=1gb\n#PBS -l walltime=00:10:00\n"
			     "#PBS -j oe\n#PBS -A physics\necho hi\n");
	RUN(&r, base_env, "job.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_string_equal(r.spec.name, "fromdir");
	assert_string_equal(r.spec.partition, "gpu");
	assert_string_equal(r.spec.account, "physics");
	assert_int_equal(r.spec.nodes, 2);
	assert_int_equal(r.spec.cpus_per_task, 2);
	assert_int_equal(r.spec.mem_per_node, 1024);
	assert_int_equal(r.spec.time_limit, 10);
	assert_int_equal(r.spec.pbs, 1);
	assert_int_equal(r.spec.umask, 077); /* PBS's default umask */
	/* NAME.oSEQ in the submit directory, stderr joined (-j oe) */
	char *want = sl_xasprintf("%s/fromdir.o%%j", r.spec.submit_dir);
	assert_string_equal(r.spec.std_out, want);
	assert_null(r.spec.std_err);
	free(want);
	/* the job starts in $HOME (the passwd entry's) */
	assert_non_null(r.spec.work_dir);
	/* PBS_O_* as qsub sends them; no -V: nothing else of the environment */
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_HOME"), "/home/alice");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_LOGNAME"), "alice");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_SHELL"), "/bin/bash");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_WORKDIR"), r.spec.submit_dir);
	assert_null(sl_pbs_env_get(r.spec.env, "FOO"));
	assert_string_equal(r.spec.export_spec, "NONE");
	assert_string_equal(r.spec.script, "#!/bin/bash\n#PBS -N fromdir\n#PBS -q gpu\n"
					   "#PBS -l select=2:ncpus=2:mem=1gb\n#PBS -l walltime=00:10:00\n"
					   "#PBS -j oe\n#PBS -A physics\necho hi\n");
	done(&r);

	/* the command line over directives; -l per resource */
	RUN(&r, base_env, "-N", "cli", "-l", "select=1:ncpus=1", "-q", "batch", "-j", "n", "job.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "cli");
	assert_string_equal(r.spec.partition, "batch");
	assert_int_equal(r.spec.nodes, 1);
	assert_int_equal(r.spec.cpus_per_task, 1);
	assert_int_equal(r.spec.mem_per_node, SL_NO_VAL);
	assert_int_equal(r.spec.time_limit, 10); /* the directive's walltime stays */
	want = sl_xasprintf("%s/cli.e%%j", r.spec.submit_dir);
	assert_string_equal(r.spec.std_err, want);
	free(want);
	done(&r);

	/* a resource two directives give: the first's (set_resources() adds a
	 * directive's only when absent); another option: the last directive's;
	 * the command line's over both */
	write_file("dup.sh", "#!/bin/sh\n#PBS -N first\n#PBS -l walltime=02:00:00\n"
			     "#PBS -l select=1:ncpus=1:mem=100mb\n#PBS -N second\n"
			     "#PBS -l walltime=01:00:00,place=pack\n"
			     "#PBS -l select=1:ncpus=2:mem=200mb\ntrue\n");
	RUN(&r, base_env, "dup.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_string_equal(r.spec.name, "second");
	assert_int_equal(r.spec.time_limit, 120);
	assert_int_equal(r.spec.cpus_per_task, 1);
	assert_int_equal(r.spec.mem_per_node, 100);
	done(&r);
	RUN(&r, base_env, "-l", "walltime=30:00", "dup.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.time_limit, 30);
	done(&r);
}

static void test_prefix(void **state)
{
	struct res r;
	char *env[] = {"HOME=/home/alice", "PBS_DPREFIX=#MY", NULL};
	(void)state;

	write_file("pfx.sh", "#!/bin/sh\n#PBS -N pbsname\n#MY -N myname\n#X -N xname\ntrue\n");
	RUN(&r, base_env, "pfx.sh");
	assert_string_equal(r.spec.name, "pbsname");
	done(&r);
	RUN(&r, env, "pfx.sh");
	assert_string_equal(r.spec.name, "myname");
	done(&r);
	RUN(&r, env, "-C", "#X", "pfx.sh"); /* -C over PBS_DPREFIX */
	assert_string_equal(r.spec.name, "xname");
	done(&r);
	RUN(&r, env, "-C", "", "pfx.sh"); /* an empty prefix: no directives */
	assert_string_equal(r.spec.name, "pfx.sh");
	done(&r);
}

static void test_shell_and_stdin(void **state)
{
	struct res r;
	(void)state;

	/* no "#!": the login shell runs it; -S always */
	write_file("noshebang.sh", "echo hi\n");
	RUN(&r, base_env, "-S", "/bin/zsh", "noshebang.sh");
	assert_string_equal(r.spec.script, "#!/bin/zsh\necho hi\n");
	done(&r);
	RUN(&r, base_env, "noshebang.sh");
	assert_int_equal(strncmp(r.spec.script, "#!/", 3), 0);
	assert_non_null(strstr(r.spec.script, "\necho hi\n"));
	done(&r);
	/* "-- command args": a script that execs them, named STDIN */
	RUN(&r, base_env, "--", "/bin/echo", "a b", "it's");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "STDIN");
	assert_non_null(strstr(r.spec.script, "exec '/bin/echo' 'a b' 'it'\\''s'\n"));
	done(&r);
	/* getopt() permutes (qsub.c:1048): options after the script count */
	RUN(&r, base_env, "noshebang.sh", "-N", "late", "-S", "/bin/zsh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "late");
	assert_string_equal(r.spec.script, "#!/bin/zsh\necho hi\n");
	done(&r);
	/* one script only: a second operand is the usage, exit 2 */
	RUN(&r, base_env, "noshebang.sh", "-N", "x", "arg");
	assert_int_equal(r.rc, -SL_EINVAL);
	assert_true(r.fl.exit_code == 2 && r.fl.usage);
	done(&r);
	/* operands before "--" join its command, as glibc moves them there */
	RUN(&r, base_env, "/bin/echo", "-N", "cmd", "--", "a");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "cmd");
	assert_non_null(strstr(r.spec.script, "exec '/bin/echo' 'a'\n"));
	done(&r);
	/* "--" as an option's value is no end of the options */
	RUN(&r, base_env, "-N", "--", "noshebang.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.name, "--");
	done(&r);
	RUN(&r, base_env, "-N", "x", "--");
	assert_true(r.rc != 0 && r.fl.exit_code == 2 && r.fl.usage);
	done(&r);
}

static void test_paths(void **state)
{
	struct res r;
	(void)state;

	mkdir("outdir", 0755);
	write_file("p.sh", "#!/bin/sh\ntrue\n");
	RUN(&r, base_env, "-o", "outdir", "-e", "err%file", "p.sh");
	assert_int_equal(r.rc, 0);
	/* a directory: MOM's spool name, JOBID.OU */
	char *o = sl_xasprintf("%s/outdir/%%j.head1.OU", r.spec.submit_dir);
	char *e = sl_xasprintf("%s/err%%%%file", r.spec.submit_dir); /* literal: % doubled */
	assert_string_equal(r.spec.std_out, o);
	assert_string_equal(r.spec.std_err, e);
	free(o);
	free(e);
	done(&r);
	RUN(&r, base_env, "-j", "eo", "-e", "/tmp/both", "p.sh");
	assert_string_equal(r.spec.std_out, "/tmp/both");
	assert_null(r.spec.std_err);
	done(&r);
	RUN(&r, base_env, "-k", "oe", "p.sh"); /* kept in the home directory */
	assert_int_equal(strncmp(r.spec.std_out, r.spec.work_dir, strlen(r.spec.work_dir)), 0);
	done(&r);
	RUN(&r, base_env, "-d", "sub", "p.sh"); /* Torque's working directory */
	o = sl_xasprintf("%s/sub", r.spec.submit_dir);
	assert_string_equal(r.spec.work_dir, o);
	free(o);
	done(&r);
	/* Torque's -n, node_exclusive (psij's pbs_classic "#PBS -n"): --exclusive */
	write_file("n.sh", "#!/bin/sh\n#PBS -l nodes=1:ppn=2\n#PBS -n\ntrue\n");
	RUN(&r, base_env, "n.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.shared, SL_SHARED_EXCLUSIVE);
	assert_int_equal(r.spec.ntasks_per_node, 2);
	done(&r);
	RUN(&r, base_env, "p.sh");
	assert_int_not_equal(r.spec.shared, SL_SHARED_EXCLUSIVE);
	done(&r);
	/* Torque's Moab extension for a whole node (BLAH's pbs_submit.sh,
	 * wholenodes): the same --exclusive, several ';'-joined too */
	write_file("x.sh", "#!/bin/sh\n#PBS -l nodes=1:ppn=2\n"
		   "#PBS -W x=NACCESSPOLICY:SINGLEJOB\ntrue\n");
	RUN(&r, base_env, "x.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.shared, SL_SHARED_EXCLUSIVE);
	assert_int_equal(r.spec.ntasks_per_node, 2);
	done(&r);
	write_file("x2.sh", "#!/bin/sh\n#PBS -W x=naccesspolicy:singlejob;NACCESSPOLICY:SINGLEJOB\ntrue\n");
	RUN(&r, base_env, "x2.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.shared, SL_SHARED_EXCLUSIVE);
	done(&r);
}

static void test_environment(void **state)
{
	struct res r;
	(void)state;

	write_file("e.sh", "#!/bin/sh\ntrue\n");
	RUN(&r, base_env, "-v", "A=1,B='x,y',FOO", "e.sh");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "A"), "1");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "B"), "x,y");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "FOO"), "foo value");
	assert_null(sl_pbs_env_get(r.spec.env, "PATH"));
	assert_string_equal(r.spec.export_spec, "A=1,B='x,y',FOO");
	done(&r);
	RUN(&r, base_env, "-V", "e.sh");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PATH"), "/usr/bin:/bin");
	assert_null(r.spec.export_spec);
	done(&r);
	/* -v's first, then -V's (set_job_env()'s order), -v's value winning;
	 * PBS_O_HOME "/" without a HOME (qsub.c:2012) */
	char *no_home[] = {"PATH=/bin", "FOO=env", "BAR=b", NULL};
	RUN(&r, no_home, "-V", "-v", "FOO=v,Z=z", "e.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.env[0], "FOO=v");
	assert_string_equal(r.spec.env[1], "Z=z");
	assert_string_equal(r.spec.env[2], "PATH=/bin");
	assert_string_equal(r.spec.env[3], "BAR=b");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_HOME"), "/");
	done(&r);
}

static void test_values(void **state)
{
	struct res r;
	(void)state;

	write_file("v.sh", "#!/bin/sh\ntrue\n");
	RUN(&r, base_env, "-p", "10", "-r", "n", "-h", "-W", "umask=022", "-m", "n", "-c", "n",
	    "-f", "-z", "v.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.nice, -10); /* higher PBS priority, lower nice */
	assert_int_equal(r.spec.requeue, 0);
	assert_int_equal(r.spec.hold, 1);
	assert_int_equal(r.spec.umask, 022);
	assert_int_equal(r.fl.quiet, 1);
	done(&r);
	/* -m/-M onto --mail-type/--mail-user: a is FAIL, b BEGIN, e END */
	RUN(&r, base_env, "-m", "ae", "-M", "alice@example.org", "v.sh");
	assert_int_equal(r.spec.mail_type, SL_MAIL_FAIL | SL_MAIL_END);
	assert_string_equal(r.spec.mail_user, "alice@example.org");
	done(&r);
	RUN(&r, base_env, "v.sh"); /* no mail unless asked: PBS's "a" is not Slurm's FAIL */
	assert_int_equal(r.spec.mail_type, 0);
	done(&r);
	/* a project is free text, the job's wckey (Slurm's qsub.pl: --wckey) */
	RUN(&r, base_env, "-P", "proj", "-A", "acct", "v.sh");
	assert_string_equal(r.spec.wckey, "proj");
	assert_string_equal(r.spec.account, "acct");
	done(&r);
	RUN(&r, base_env, "-P", "proj", "v.sh");
	assert_null(r.spec.account);
	done(&r);
	/* -a: the begin time (cvtdate()); -W depend onto --dependency; block */
	RUN(&r, base_env, "-a", "203701021530.45", "-W", "depend=afterok:12.head1:13,afterany:14",
	    "-W", "block=True", "v.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	struct tm tm = {.tm_year = 137, .tm_mon = 0, .tm_mday = 2, .tm_hour = 15, .tm_min = 30,
			.tm_sec = 45, .tm_isdst = -1};
	assert_int_equal(r.spec.begin_time, (int64_t)mktime(&tm));
	assert_string_equal(r.spec.dependency, "afterok:12:13,afterany:14");
	assert_int_equal(r.fl.block, 1);
	done(&r);
	/* the command line's -W over a directive's, per attribute */
	write_file("w.sh", "#!/bin/sh\n#PBS -W depend=afterany:5\n#PBS -W block=true\ntrue\n");
	RUN(&r, base_env, "-W", "depend=after:6", "w.sh");
	assert_string_equal(r.spec.dependency, "after:6");
	assert_int_equal(r.fl.block, 1);
	done(&r);
	/* -W interactive=true is -I: known before the script, so standard input
	 * stays the shell's; in a directive too; false is a batch job */
	RUN(&r, base_env, "-W", "interactive=TRUE");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_int_equal(r.fl.interactive, 1);
	assert_string_equal(r.spec.script, "#!/bin/sh\n");
	done(&r);
	write_file("i.sh", "#!/bin/sh\n#PBS -W interactive=true\ntrue\n");
	RUN(&r, base_env, "i.sh");
	assert_int_equal(r.fl.interactive, 1);
	done(&r);
	RUN(&r, base_env, "-W", "interactive=false", "v.sh");
	assert_int_equal(r.fl.interactive, 0);
	done(&r);
}

/* qsub command lines refused, with the text after "qsub: " and the exit
 * status: ECL's "illegal -X value" with the usage, 2 (qsub.c:2815);
 * getopt's, 2; script problems, 1; Sluice's refusals, 1; process_opts()
 * errors in a directive name it (do_dir(), qsub.c:1753), 1. script (when
 * not NULL) is written to t.sh first, else t.sh is "#!/bin/sh\ntrue\n". */
static const struct qsub_reject {
	const char *argv[7];
	const char *script;
	int status;
	const char *msg;
} rejects[] = {
	{{"-p", "2000", "t.sh"}, NULL, 2, "illegal -p value"},
	{{"-r", "x", "t.sh"}, NULL, 2, "illegal -r value"},
	{{"-j", "xy", "t.sh"}, NULL, 2, "illegal -j value"},
	{{"-N", "bad name", "t.sh"}, NULL, 2, "illegal -N value"},
	{{"-k", "x", "t.sh"}, NULL, 2, "illegal -k value"},
	{{"-m", "z", "t.sh"}, NULL, 2, "illegal -m value"},
	{{"-a", "2561", "t.sh"}, NULL, 2, "illegal -a value"},       /* hh 25 */
	{{"-a", "12345", "t.sh"}, NULL, 2, "illegal -a value"},      /* no such length */
	{{"-a", "1200.5", "t.sh"}, NULL, 2, "illegal -a value"},     /* .SS is two digits */
	{{"-a", "11321200", "t.sh"}, NULL, 2, "illegal -a value"},   /* DD 32 */
	{{"-W", "block=maybe", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=afterok", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=afterok:", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=sometime:1", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=afterok:x1", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=afterok:1,", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "=x", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-Y", "t.sh"}, NULL, 2, "invalid option -- 'Y'"},
	{{"--bogus", "t.sh"}, NULL, 2, "invalid option -- '-'"},
	{{"t.sh", "extra"}, NULL, 2, ""},
	{{"nosuch.sh"}, NULL, 1, "script file:: No such file or directory"},
	{{"."}, NULL, 1, "script not a file"},
	{{"-v", "NOTSET", "t.sh"}, NULL, 1, "cannot send environment with the job"},
	{{"-o", "elsewhere.example.org:/x", "t.sh"}, NULL, 1,
	 "-o HOST:PATH on another host is not supported by Sluice"},
	/* arrays: chk_Jrange() (src/lib/Libcmds/chk_Jrange.c:65), NO_RERUN_ARRAY
	 * (qsub.c:154, its two blanks), max_run_subjobs a number */
	{{"-J", "3-1", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "3-3", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "5", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1,3", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1-9:0", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1-9:", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "-1-3", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1-3%", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1-3%-1", "t.sh"}, NULL, 2, "illegal -J value"},
	{{"-J", "1-3", "-r", "n", "t.sh"}, NULL, 2, " cannot submit non-rerunable Array Job"},
	{{"-r", "n", "-J", "1-3", "t.sh"}, NULL, 2, " cannot submit non-rerunable Array Job"},
	{{"-t", "3-1", "t.sh"}, NULL, 2, "illegal -t value"},
	{{"-t", "x", "t.sh"}, NULL, 2, "illegal -t value"},
	/* Sluice's refusals */
	{{"-X", "t.sh"}, NULL, 1, "-X is not supported by Sluice"},
	{{"-W", "interactive=maybe", "t.sh"}, NULL, 2, "illegal -W value"},
	{{"-W", "depend=beforeok:1", "t.sh"}, NULL, 1,
	 "-W depend=beforeok is not supported by Sluice (only after, afterok, afternotok and "
	 "afterany)"},
	{{"-W", "depend=runone:1", "t.sh"}, NULL, 1,
	 "-W depend=runone is not supported by Sluice (only after, afterok, afternotok and "
	 "afterany)"},
	{{"-W", "depend=afterok:1.other", "t.sh"}, NULL, 1,
	 "-W depend on 1.other, a job of another server, is not supported by Sluice"},
	{{"-W", "x=nmatchpolicy:exactnode", "t.sh"}, NULL, 1, "-W x is not supported by Sluice"},
	{{"-W", "x=NACCESSPOLICY:SINGLEJOB;nmatchpolicy:exactnode", "t.sh"}, NULL, 1, "-W x is not supported by Sluice"},
	{{"-W", "x=NACCESSPOLICY:SINGLEUSER", "t.sh"}, NULL, 1, "-W x is not supported by Sluice"},
	{{"-W", "stagein=a@h:b", "t.sh"}, NULL, 1, "-W stagein is not supported by Sluice"},
	{{"-m", "j", "t.sh"}, NULL, 1, "mail option 'j' can not be used without array job"},
	{{"-c", "s", "t.sh"}, NULL, 1, "-c (checkpoints) is not supported by Sluice"},
	{{"-q", "batch@otherserver", "t.sh"}, NULL, 1,
	 "-q naming another server is not supported by Sluice"},
	{{"-h", "-u", "bob", "t.sh"}, NULL, 1, "-u is not supported by Sluice"},
	/* in directives */
	{{"t.sh"}, "#!/bin/sh\n#PBS -r x\ntrue\n", 1, "illegal -r value\ndirective error: -r x "},
	{{"t.sh"}, "#!/bin/sh\n#PBS -Y\ntrue\n", 1, "invalid option -- 'Y'\ndirective error: -Y "},
	{{"t.sh"}, "#!/bin/sh\n#PBS -N x # comment\ntrue\n", 1, "directive error: -N x # comment "},
	{{"t.sh"}, "#!/bin/sh\n#PBS -W block=maybe\ntrue\n", 1,
	 "illegal -W value\ndirective error: -W block=maybe "},
	/* -J's range is the attribute verifier's (verify_value_jrange()), after
	 * every directive: no "directive error" */
	{{"t.sh"}, "#!/bin/sh\n#PBS -J 2-1\ntrue\n", 2, "illegal -J value"},
	{{"t.sh"}, "#!/bin/sh\r\n#PBS -N x\r\ntrue\r\n", 1, "script contains cr, lf"},
};

static void test_rejected(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		const struct qsub_reject *c = &rejects[i];
		char *argv[9] = {"qsub"};
		int argc = 1;
		struct res r;

		write_file("t.sh", c->script ? c->script : "#!/bin/sh\ntrue\n");
		for (; c->argv[argc - 1]; argc++)
			argv[argc] = (char *)c->argv[argc - 1];
		run(&r, base_env, argc, argv);
		if (r.rc == 0 || strcmp(r.err.msg, c->msg) != 0 || r.fl.exit_code != c->status)
			fail_msg("qsub %s %s: %d %d \"%s\"", argv[1], argc > 2 ? argv[2] : "", r.rc,
				 r.fl.exit_code, r.err.msg);
		done(&r);
	}
}

static void test_directive_errors(void **state)
{
	struct res r;
	(void)state;

	/* an option the command line gives is not read from directives at all
	 * (process_opts()'s if_cmd_line), bad values included */
	write_file("d6.sh", "#!/bin/sh\n#PBS -r x\n#PBS -N 'bad name'\ntrue\n");
	RUN(&r, base_env, "-r", "y", "-N", "good", "d6.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_string_equal(r.spec.name, "good");
	done(&r);
}

/* -J and -t onto the spec's --array; a subjob's files are NAME.oN.I */
static void test_arrays(void **state)
{
	static const struct {
		const char *opt, *value, *array;
	} ok[] = {
		{"-J", "1-4", "1-4"}, {"-J", "0-20:5", "0-20:5"}, {"-J", "1-10%2", "1-10%2"},
		{"-J", "1-10:3%0", "1-10:3"}, {"-t", "1-10%2", "1-10%2"}, {"-t", "1,3,5", "1,3,5"},
		{"-t", "7", "7"},
	};
	struct res r;
	(void)state;

	write_file("a.sh", "#!/bin/sh\ntrue\n");
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		RUN(&r, base_env, (char *)ok[i].opt, (char *)ok[i].value, "a.sh");
		if (r.rc != 0 || r.spec.array == NULL || strcmp(r.spec.array, ok[i].array) != 0)
			fail_msg("%s %s: %d %s", ok[i].opt, ok[i].value, r.rc,
				 r.spec.array ? r.spec.array : r.err.msg);
		done(&r);
	}
	write_file("a2.sh", "#!/bin/sh\n#PBS -N arr\n#PBS -J 1-4\n#PBS -m abj\ntrue\n");
	RUN(&r, base_env, "-o", "out.^array_index^.log", "a2.sh");
	if (r.rc != 0)
		fail_msg("%s", r.err.msg);
	assert_string_equal(r.spec.array, "1-4");
	assert_true(r.spec.mail_type & SL_MAIL_ARRAY_TASKS);
	assert_non_null(strstr(r.spec.std_out, "/out.%a.log"));
	assert_non_null(strstr(r.spec.std_err, "/arr.e%A.%a"));
	done(&r);
	/* the command line's -J wins over the directive's */
	RUN(&r, base_env, "-J", "2-3", "-j", "oe", "a2.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.array, "2-3");
	assert_non_null(strstr(r.spec.std_out, "/arr.o%A.%a"));
	assert_null(r.spec.std_err);
	assert_int_equal(r.spec.torque_array, 0);
	done(&r);
}

/* ---- ids and errors ---------------------------------------------------------- */

static void test_ids(void **state)
{
	uint64_t id = 0;
	char *shown;
	(void)state;

	assert_int_equal(sl_pbs_parse_jobid("12", "head1", &id), 0);
	assert_int_equal(id, 12);
	assert_int_equal(sl_pbs_parse_jobid("12.head1.example.org", "head1", &id), 0);
	assert_int_equal(sl_pbs_parse_jobid("12.other", "head1", &id), 1);
	assert_int_equal(sl_pbs_parse_jobid("12[]", "head1", &id), -1);
	assert_int_equal(sl_pbs_parse_jobid("x12", "head1", &id), -1);
	assert_int_equal(sl_pbs_operand("7", "head1", &id, &shown), 0);
	assert_string_equal(shown, "7.head1");
	free(shown);
	/* array operands: "N[]", "N[I]", "N[A-B]" (qdel's ranges) */
	struct sl_pbs_sel sel;
	assert_int_equal(sl_pbs_operand_sel("12[]", "head1", &sel, &shown), 0);
	assert_int_equal(sel.type, SL_PBS_SEL_ARRAY);
	assert_int_equal(sel.id, 12);
	assert_string_equal(shown, "12[].head1");
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12[3].head1.example.org", "head1", &sel, &shown), 0);
	assert_int_equal(sel.type, SL_PBS_SEL_SUBJOBS);
	assert_int_equal(sel.lo, 3);
	assert_int_equal(sel.hi, 3);
	assert_string_equal(shown, "12[3].head1.example.org");
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12[2-5]", "head1", &sel, &shown), 0);
	assert_true(sel.lo == 2 && sel.hi == 5);
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12[].other", "head1", &sel, &shown), 1);
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12", "head1", &sel, &shown), 0);
	assert_int_equal(sel.type, SL_PBS_SEL_JOB);
	free(shown);
	/* "ID@SERVER" (PBS 13's qstat and qdel, Cylc's pbs_multi_cluster):
	 * our server's is the job, named without "@server" */
	assert_int_equal(sl_pbs_operand_sel("12.head1@head1", "head1", &sel, &shown), 0);
	assert_int_equal(sel.id, 12);
	assert_int_equal(sel.type, SL_PBS_SEL_JOB);
	assert_string_equal(shown, "12.head1");
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12[3]@head1.example.org", "head1", &sel, &shown), 0);
	assert_true(sel.type == SL_PBS_SEL_SUBJOBS && sel.lo == 3);
	assert_string_equal(shown, "12[3].head1");
	free(shown);
	assert_int_equal(sl_pbs_operand_sel("12.head1@other", "head1", &sel, &shown), 1);
	free(shown);
	static const char *const bad[] = {"12[", "12[x]", "12[5-2]", "12[1]x", "[1]", "12[1].",
					  "12[-1]", "12@", "@head1", "12@head1@head1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (sl_pbs_operand_sel(bad[i], "head1", &sel, &shown) != -1)
			fail_msg("%s is not a job id", bad[i]);
		free(shown);
	}
	shown = sl_pbs_array_jobid(12, 4, "head1");
	assert_string_equal(shown, "12[4].head1");
	free(shown);
	assert_int_equal(sl_pbse_status(SL_PBSE_MAXARRAYSIZE), 3);
	/* exit statuses: the error number's low byte */
	assert_int_equal(sl_pbse_status(SL_PBSE_UNKJOBID), 153);
	assert_int_equal(sl_pbse_status(SL_PBSE_PERM), 159);
	assert_int_equal(sl_pbse_status(SL_PBSE_HISTJOBID), 35);
	assert_int_equal(sl_pbse_status(SL_PBSE_UNKQUE), 170);
	assert_string_equal(sl_pbse_text(SL_PBSE_PERM), "Unauthorized Request ");
	assert_int_equal(sl_pbse_of(-SL_EPARTITION), SL_PBSE_UNKQUE);
	assert_int_equal(sl_pbse_of(-SL_EDEPEND), SL_PBSE_BADDEPEND);
	assert_int_equal(sl_pbse_of(-SL_EPARTUNAVAIL), SL_PBSE_QUNOENB);
	assert_int_equal(sl_pbse_status(SL_PBSE_BADDEPEND), 206);
	assert_string_equal(sl_pbse_text(SL_PBSE_BADDEPEND), "Invalid Job Dependency");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directive_lines),
		cmocka_unit_test(test_script_spec),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_shell_and_stdin),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_directive_errors),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_ids),
	};
	setenv("PBS_SERVER", "head1", 1);
	return cmocka_run_group_tests(tests, qsub_setup, qsub_teardown);
}
