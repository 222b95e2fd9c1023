/* strigger.c - Slurm's event triggers are not supported by Sluice: the
 * command is here so that scripts get Slurm's "not supported" line and
 * exit 1, never a silent success or "command not found". */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argc, (void)argv;
	fprintf(stderr, "strigger: error: strigger is not supported by Sluice\n");
	return 1;
}
