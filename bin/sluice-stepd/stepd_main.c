/* stepd_main.c - `sluice-stepd [-D] JOBDIR`: the supervisor of one job
 * (stepd.c); `sluice-stepd [-D] --server [--keep] JOBSDIR`: sluiced's fork
 * server of supervisors (stepd_server.c); `sluice-stepd --agent -- COMMAND...`: the
 * step agent of a Kubernetes pod, and `--install DEST` its init container's
 * copy (agent.h). */
#include "agent.h"
#include "stepd.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int fg = argc > 1 && strcmp(argv[1], "-D") == 0;
	if (argc > 1 && strcmp(argv[1], "--agent") == 0)
		return agent_main(argc - 2, argv + 2);
	if (argc == 3 && strcmp(argv[1], "--install") == 0)
		return agent_install(argv[2]);
	if (argc == 3 + fg && strcmp(argv[1 + fg], "--server") == 0)
		return stepd_server(fg, 0, argv[2 + fg], argv, argc);
	if (argc == 4 + fg && strcmp(argv[1 + fg], "--server") == 0 &&
	    strcmp(argv[2 + fg], "--keep") == 0)
		return stepd_server(fg, 1, argv[3 + fg], argv, argc);
	if (argc != 2 + fg) {
		fprintf(stderr, "usage: sluice-stepd [-D] JOBDIR\n"
				"       sluice-stepd [-D] --server [--keep] JOBSDIR   (sluiced's fork server)\n"
				"       sluice-stepd --agent [--] COMMAND...  (a pod's step agent)\n"
				"       sluice-stepd --install DEST         (copy it for a pod)\n");
		return 2;
	}
	return stepd_run(fg, argv[1 + fg], 0);
}
