/* agent_main.c - `sluice-agent`: the step agent alone (agent.h), linked
 * statically, for the agent image: its init container copies it into a
 * pod whose image may lack the libraries sluice-stepd needs (PAM, json-c),
 * so it must run on any Linux with nothing beside it. The same code is
 * `sluice-stepd --agent`; this program has no supervisor and no PAM. */
#include "agent.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--agent") == 0)
		return agent_main(argc - 2, argv + 2);
	if (argc == 3 && strcmp(argv[1], "--install") == 0)
		return agent_install(argv[2]);
	fprintf(stderr, "usage: sluice-agent --agent [--] COMMAND [ARG...]\n"
			"       sluice-agent --install DEST\n");
	return 2;
}
