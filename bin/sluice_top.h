/* sluice_top.h - `sluice top`: a live view of the ClusterQueues
 * (bin/sluice_top.c). */
#ifndef SL_SLUICE_TOP_H
#define SL_SLUICE_TOP_H

#include <stdio.h>

/* argv[0] is "top". Returns the exit status. */
int sl_cmd_top(int argc, char **argv);
void sl_cmd_top_usage(FILE *f);

#endif
