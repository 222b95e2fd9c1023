/* fuzz_sbatch_opt.c - sbatch's option values through its one option table
 * (compat/slurm_opt.c, slurm_optval.c, optable.c): each input line is an
 * argument, or with "env:" before it an SBATCH_* (or any) variable. A
 * --wrap script comes first so that nothing is read from a file or stdin;
 * what parses has its shape checked as the submit policy checks it. */
#include "fuzz.h"

#include "job.h"
#include "slurm_opt.h"
#include "xalloc.h"

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 3] = {"sbatch", "--wrap=true"}, *envp[MAX_WORDS + 1];
	char *s, *line, *save = NULL;
	int argc = 2, envc = 0;
	struct sl_sbatch_flags fl;
	struct sl_jobspec spec;
	struct sl_err err = SL_ERR_INIT;

	if (size > 65536)
		return 0;
	s = fz_str(data, size);
	for (line = strtok_r(s, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "env:", 4) == 0 && envc < MAX_WORDS)
			envp[envc++] = line + 4;
		else if (strncmp(line, "env:", 4) != 0 && argc < MAX_WORDS + 2)
			argv[argc++] = line;
	}
	argv[argc] = NULL;
	envp[envc] = NULL;
	if (sl_sbatch_parse(argc, argv, envp, &spec, &fl, &err) == 0) {
		struct sl_jobshape sh;
		struct sl_err e2 = SL_ERR_INIT;
		(void)sl_jobspec_shape_check(&spec, &sh, &e2);
	}
	sl_jobspec_clear(&spec); /* as sbatch does, whatever the outcome */
	sl_sbatch_flags_clear(&fl);
	free(s);
	return 0;
}
