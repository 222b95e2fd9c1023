/* qalter.c - PBS's qalter, refused: a job's attributes cannot be changed
 * in Sluice yet (scontrol update is another change of this round). The
 * usage is OpenPBS's (src/cmds/qalter.c); every other call names what it
 * would have changed and exits 1, so a script learns it did not happen. */
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: qalter [-a date_time] [-A account_string] [-c interval] [-e path]\n"
	"\t[-h hold_list] [-j y|n] [-k keep] [-l resource_list] [-m mail_options]\n"
	"\t[-M user_list] [-N jobname] [-o path] [-p priority] [-P project] [-r y|n] [-S path]\n"
	"\t[-u user_list] [-W dependency_list] [-Wsandbox=val] job_identifier...\n"
	"       qalter --version\n";

int main(int argc, char **argv)
{
	if (argc < 3 || argv[1][0] != '-' || strcmp(argv[1], "--") == 0) {
		fputs(usage, stderr);
		return 2;
	}
	if (argv[1][1] != '\0' && argv[1][1] != '-')
		fprintf(stderr, "qalter: -%c is not supported by Sluice (a job's attributes "
				"cannot be changed yet)\n", argv[1][1]);
	else
		fprintf(stderr, "qalter: %s is not supported by Sluice\n", argv[1]);
	return 1;
}
