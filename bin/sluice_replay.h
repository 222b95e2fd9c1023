/* sluice_replay.h - `sluice replay`: a job trace through the engine under
 * one or two configs (and FCFS), beside the trace's own history. */
#ifndef SL_SLUICE_REPLAY_H
#define SL_SLUICE_REPLAY_H

#include <stdio.h>

int sl_cmd_replay(int argc, char **argv);
void sl_cmd_replay_usage(FILE *f);

#endif
