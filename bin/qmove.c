/* qmove.c - PBS's qmove, refused: a job stays in the queue (partition) it
 * was submitted to, whose LocalQueue and ClusterQueue admit it. The usage
 * is OpenPBS's (src/cmds/qmove.c:79). */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc < 3) {
		fputs("usage: qmove destination job_identifier...\n"
		      "       qmove --version\n", stderr);
		return 2;
	}
	fputs("qmove: moving jobs between queues is not supported by Sluice\n", stderr);
	return 1;
}
