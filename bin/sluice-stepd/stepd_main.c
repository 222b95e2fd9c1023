/* stepd_main.c - `sluice-stepd [-D] JOBDIR`: the supervisor of one job
 * (stepd.c); `sluice-stepd [-D] --server JOBSDIR`: sluiced's fork server of
 * supervisors (stepd_server.c). */
#include "stepd.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int fg = argc > 1 && strcmp(argv[1], "-D") == 0;
	if (argc == 3 + fg && strcmp(argv[1 + fg], "--server") == 0)
		return stepd_server(fg, argv[2 + fg], argv, argc);
	if (argc != 2 + fg) {
		fprintf(stderr, "usage: sluice-stepd [-D] JOBDIR\n"
				"       sluice-stepd [-D] --server JOBSDIR   (sluiced's fork server)\n");
		return 2;
	}
	return stepd_run(fg, argv[1 + fg], 0);
}
