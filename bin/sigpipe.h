/* sigpipe.h - the self-pipe of srun's and pbsdsh's loops: a caught
 * signal and its queued value (0 unless sigqueue(3)'d) become two ints on
 * a non-blocking pipe that the loop polls and reads. */
#ifndef SL_SIGPIPE_H
#define SL_SIGPIPE_H

#include <signal.h>

/* Make the pipe (close-on-exec): 0, or -1 with errno. */
int sigpipe_open(void);
/* The handler to install (SA_SIGINFO): it only writes to the pipe. */
void sigpipe_handler(int sig, siginfo_t *si, void *ctx);
int sigpipe_rfd(void);
int sigpipe_wfd(void);
/* The next signal and its value off the pipe: 1, or 0 when it is empty. */
int sigpipe_read(int m[2]);

#endif
