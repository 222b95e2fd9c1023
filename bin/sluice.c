/* sluice - site administration tool, one subcommand per table row:
 *   sluice simulate FILE.yaml [--json]
 *     runs the Kueue admission engine over a scenario and prints the end
 *     state. Exit: 0 expectations hold, 1 they do not (diff on stderr), 2
 *     bad input.
 *   sluice render [-f CONFIG] [--flavor NAME] [sbatch options] SCRIPT
 *     prints the Kubernetes object a job would become (sluice_render.c).
 *   sluice replay TRACE --config FILE [...]
 *     replays a job trace through the engine (sluice_replay.c).
 *   sluice options
 *     prints README's table of sbatch options from the option table.
 *   sluice migrate slurm.conf [--sacctmgr FILE]... [-o DIR]
 *     the Sluice config a Slurm cluster becomes (sluice_migrate.c).
 *   sluice top [-d SECONDS] [-n FRAMES]
 *     a live view of the ClusterQueues (sluice_top.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "sim.h"
#include "slurm_opt.h"
#include "sluice_render.h"
#include "sluice_migrate.h"
#include "sluice_top.h"
#include "sluice_replay.h"

static void simulate_usage(FILE *f)
{
	fprintf(f, "Usage: sluice simulate FILE.yaml [--json]\n"
		   "  Run Kueue admission over the scenario in FILE.yaml until nothing\n"
		   "  changes; print admitted, preempted and pending workloads.\n"
		   "  Exit 0 when the file's expect block holds, 1 when not, 2 on bad input.\n");
}

static int simulate(int argc, char **argv);

static void options_usage(FILE *f)
{
	fprintf(f, "Usage: sluice options\n"
		   "  Print the table of sbatch options (Markdown) that README.md holds:\n"
		   "  each option, its variables, and what Sluice does with it.\n");
}

static int options(int argc, char **argv)
{
	char *t;

	if (argc > 1) {
		options_usage(stderr);
		return 2;
	}
	t = sl_sbatch_options_markdown();
	fputs(t, stdout);
	free(t);
	return fflush(stdout) == 0 ? 0 : 1;
}

static const struct cmd {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
	void (*usage)(FILE *f);
} cmds[] = {
	{"simulate", simulate, simulate_usage},
	{"render", sl_cmd_render, sl_cmd_render_usage},
	{"options", options, options_usage},
	{"migrate", sl_cmd_migrate, sl_cmd_migrate_usage},
	{"top", sl_cmd_top, sl_cmd_top_usage},
	{"replay", sl_cmd_replay, sl_cmd_replay_usage},
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static int usage(FILE *f)
{
	for (size_t i = 0; i < NCMDS; i++)
		cmds[i].usage(f);
	return f == stdout ? 0 : 2;
}

static int simulate(int argc, char **argv)
{
	const char *file = NULL;
	int json = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return usage(stdout);
		else if (!file && argv[i][0] != '-')
			file = argv[i];
		else
			return usage(stderr);
	}
	if (!file)
		return usage(stderr);
	struct sl_err err = SL_ERR_INIT;
	struct sl_sim *sim;
	if (sl_sim_load(file, &sim, &err) != 0) {
		fprintf(stderr, "sluice: error: %s\n", err.msg);
		return 2;
	}
	sl_sim_run(sim);
	char *rep = sl_sim_report(sim, json), *diff = NULL;
	fputs(rep, stdout);
	free(rep);
	int bad = sl_sim_verify(sim, &diff);
	if (bad) {
		fprintf(stderr, "sluice: %s: end state differs from expect:\n%s", file, diff);
		free(diff);
	} else if (!json) {
		printf("\nexpect: holds\n");
	}
	sl_sim_free(sim);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	for (size_t i = 0; i < NCMDS; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return usage(stdout);
	fprintf(stderr, "sluice: error: unknown command \"%s\"\n", argv[1]);
	return usage(stderr);
}
