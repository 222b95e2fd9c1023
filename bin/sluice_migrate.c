/* sluice_migrate.c - `sluice migrate slurm.conf [--sacctmgr FILE]... [-o DIR]`:
 * reads the inputs (compat/slurm_conf.c, compat/sacctmgr_*.c), maps them
 * (compat/migrate.c) and writes DIR/sluice.yaml, DIR/limits.yaml (QOS and
 * Account objects with Slurm's limits), DIR/partitions.yaml (partition
 * defaults) and DIR/migrate-report.txt; sluiced reads neither of the two
 * middle ones yet. Without -o: the config on stdout, the report on
 * stderr. Exit 0, 1 when an input cannot be read or mapped, 2 on usage. */
#include "sluice_migrate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "migrate.h"
#include "sacctmgr.h"
#include "slurm_conf.h"
#include "xalloc.h"

#define SACCTMGR_FILES_MAX 16

void sl_cmd_migrate_usage(FILE *f)
{
	fprintf(f, "Usage: sluice migrate slurm.conf [--sacctmgr FILE]... [-o DIR]\n"
		   "  Write the Sluice config that slurm.conf (and `sacctmgr dump CLUSTER` or\n"
		   "  `sacctmgr -P show qos|assoc` output) becomes, with a report of what became\n"
		   "  of every line: mapped, approximated (how) or dropped (why). With -o: DIR/\n"
		   "  sluice.yaml, limits.yaml, partitions.yaml and migrate-report.txt; else the\n"
		   "  config on stdout\n"
		   "  and the report on stderr.\n");
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char *path = sl_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok)
		fprintf(stderr, "sluice: error: %s: %s\n", path, strerror(errno));
	free(path);
	return ok ? 0 : 1;
}

static int emit(const char *dir, const struct sl_migrate_out *o)
{
	static const char limits_head[] =
		"# QOS and Account objects from Slurm, with Slurm's limit names. sluiced\n"
		"# reads them beside sluice.yaml in the config directory (README,\n"
		"# Limits): its jobs are then held to them.\n",
			  parts_head[] =
		"# Partition settings from Slurm (MaxTime, DefaultTime, memory, node\n"
		"# counts). sluiced reads them beside sluice.yaml in the config directory.\n";
	if (!dir) {
		fputs(o->config, stdout);
		fputs(o->report, stderr);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "sluice: error: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char *limits = sl_xasprintf("%s%s", limits_head, o->limits ? o->limits : "");
	char *parts = sl_xasprintf("%s%s", parts_head, o->partitions ? o->partitions : "");
	int r = write_file(dir, "sluice.yaml", o->config) | write_file(dir, "limits.yaml", limits) |
		write_file(dir, "partitions.yaml", parts) |
		write_file(dir, "migrate-report.txt", o->report);
	free(limits);
	free(parts);
	if (r == 0) /* the report's first line counts what became of the lines */
		printf("wrote %s/sluice.yaml, %s/limits.yaml, %s/partitions.yaml, "
		       "%s/migrate-report.txt\n%.*s\n", dir, dir, dir, dir,
		       (int)strcspn(o->report, "\n"), o->report);
	return r;
}

int sl_cmd_migrate(int argc, char **argv)
{
	const char *conf = NULL, *dir = NULL, *acct[SACCTMGR_FILES_MAX];
	size_t nacct = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			sl_cmd_migrate_usage(stdout);
			return 0;
		} else if ((strcmp(argv[i], "--sacctmgr") == 0 || strcmp(argv[i], "-o") == 0) &&
			   i + 1 < argc) {
			if (argv[i][1] == 'o')
				dir = argv[++i];
			else if (nacct < SACCTMGR_FILES_MAX)
				acct[nacct++] = argv[++i];
			else {
				fprintf(stderr, "sluice: error: at most %d --sacctmgr files\n",
					SACCTMGR_FILES_MAX);
				return 2;
			}
		} else if (!conf && argv[i][0] != '-') {
			conf = argv[i];
		} else {
			sl_cmd_migrate_usage(stderr);
			return 2;
		}
	}
	if (!conf) {
		sl_cmd_migrate_usage(stderr);
		return 2;
	}
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_conf *c = NULL;
	struct sl_acctdb *db = nacct ? sl_acctdb_new() : NULL;
	struct sl_migrate_out o = {0};
	int r = 1;
	if (sl_slurm_conf_load(conf, &c, &err) != 0)
		goto out;
	for (size_t i = 0; i < nacct; i++)
		if (sl_acctdb_load(db, acct[i], &err) != 0)
			goto out;
	if (sl_migrate(c, db, &o, &err) != 0)
		goto out;
	r = emit(dir, &o);
out:
	if (err.code)
		fprintf(stderr, "sluice: error: %s\n", err.msg);
	sl_migrate_out_clear(&o);
	sl_acctdb_free(db);
	sl_slurm_conf_free(c);
	return r;
}
