/* sigpipe.c - the self-pipe of srun's and pbsdsh's loops (sigpipe.h). */
#include "sigpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int fds[2] = {-1, -1};

int sigpipe_open(void)
{
	return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
}

void sigpipe_handler(int sig, siginfo_t *si, void *ctx)
{
	int e = errno, m[2] = {sig, si && si->si_code == SI_QUEUE ? si->si_value.sival_int : 0};
	(void)ctx;
	(void)!write(fds[1], m, sizeof(m));
	errno = e;
}

int sigpipe_rfd(void)
{
	return fds[0];
}

int sigpipe_wfd(void)
{
	return fds[1];
}

int sigpipe_read(int m[2])
{
	return read(fds[0], m, 2 * sizeof(int)) == (ssize_t)(2 * sizeof(int));
}
