/* fuzz_script.c - batch scripts (compat/script.c): Slurm's checks, the
 * #SBATCH and #PBS directive lines split into words, and then the whole
 * script submitted as `sbatch FILE` would read it, so that its directives
 * go through the option table. */
#include "fuzz.h"

#include "job.h"
#include "script.h"
#include "slurm_opt.h"
#include "xalloc.h"

static void directives(const char *text, size_t len, const char *magic)
{
	struct sl_err err = SL_ERR_INIT;
	char **argv = NULL;
	int argc = 0;

	if (sl_script_directives(text, len, magic, "sbatch", &argv, &argc, &err) == 0 &&
	    (argv == NULL || argc < 1 || argv[argc] != NULL))
		abort();
	sl_strv_free(argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[] = {"sbatch", NULL, NULL}, *envp[] = {"PATH=/usr/bin:/bin", NULL};
	struct sl_sbatch_flags fl;
	struct sl_jobspec spec;
	struct sl_err err = SL_ERR_INIT;

	if (size > FZ_MAX_INPUT)
		return 0;
	text = fz_str(data, size);
	(void)sl_script_check(text, size, &err);
	directives(text, size, "#SBATCH");
	directives(text, size, "#PBS");
	free(text);
	argv[1] = (char *)fz_file(data, size);
	err = (struct sl_err)SL_ERR_INIT;
	(void)sl_sbatch_parse(2, argv, envp, &spec, &fl, &err);
	sl_jobspec_clear(&spec); /* as sbatch does, whatever the outcome */
	sl_sbatch_flags_clear(&fl);
	return 0;
}
