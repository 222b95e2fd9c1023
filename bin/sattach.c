/* sattach.c - Slurm's sattach, refused by name: a local step's streams go
 * to its srun alone (bin/srun_io.c), with nothing to attach a second
 * reader to. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0) {
			printf("slurm 22.05.8\n");
			return 0;
		}
	fprintf(stderr, "sattach: error: sattach is not supported by Sluice\n");
	return 1;
}
