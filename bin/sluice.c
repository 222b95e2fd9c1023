/* sluice - site administration tool. For now one command:
 *   sluice simulate FILE.yaml [--json]
 * runs the Kueue admission engine over a scenario and prints the end state.
 * Exit: 0 expectations hold, 1 they do not (diff on stderr), 2 bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "sim.h"

static int usage(FILE *f)
{
	fprintf(f, "Usage: sluice simulate FILE.yaml [--json]\n"
		   "  Run Kueue admission over the scenario in FILE.yaml until nothing\n"
		   "  changes; print admitted, preempted and pending workloads.\n"
		   "  Exit 0 when the file's expect block holds, 1 when not, 2 on bad input.\n");
	return f == stdout ? 0 : 2;
}

static int simulate(int argc, char **argv)
{
	const char *file = NULL;
	int json = 0;
	for (int i = 0; i < argc; i++) {
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
	if (strcmp(argv[1], "simulate") == 0)
		return simulate(argc - 2, argv + 2);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return usage(stdout);
	fprintf(stderr, "sluice: error: unknown command \"%s\"\n", argv[1]);
	return usage(stderr);
}
