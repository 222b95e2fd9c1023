/* stepd_decoy.c - sluice-stepd for the tests of a reused pid: the program
 * itself, linked with --wrap=sl_pidfd_open. With $SL_TEST_DECOY set (a file
 * name), the fork server's first pidfd_open(pid) first makes that pid a
 * reused one: it kills the child the pid names (the kernel reaps it at
 * once), then starts a decoy with the same pid that is not the server's
 * child, as a pid taken by another process would be; only then does it
 * open. The decoy comes a clock tick (10 ms) after the child at least, or
 * it would have the child's start time: /proc counts in ticks, and a pid
 * handed out again takes a full turn of pid_max, never within a tick. The file gets "<pid>\n", or "skip <errno>\n" when the decoy could
 * not be had (decoy.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decoy.h"

int __real_sl_pidfd_open(pid_t pid);
int __wrap_sl_pidfd_open(pid_t pid);

/* In a child of the server, so that the decoy, once that child is gone,
 * is not the server's: a decoy at `pid`; the result to `mark`. */
static void decoy(pid_t pid, const char *mark)
{
	pid_t got = decoy_start(pid, 0);
	int e = errno;
	int fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (got > 0)
			dprintf(fd, "%d\n", (int)got);
		else
			dprintf(fd, "skip %d\n", e);
		close(fd);
	}
	_exit(0);
}

int __wrap_sl_pidfd_open(pid_t pid)
{
	static int done;
	const char *mark = getenv("SL_TEST_DECOY");
	if (mark == NULL || done++)
		return __real_sl_pidfd_open(pid);
	(void)kill(pid, SIGKILL);
	for (int i = 0; i < 2000 && kill(pid, 0) == 0; i++) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	struct timespec tick = {0, 30000000};
	nanosleep(&tick, NULL);
	pid_t h = fork();
	if (h == 0)
		decoy(pid, mark);
	/* SIGCHLD is ignored here: this returns (ECHILD) once it has exited */
	if (h > 0)
		(void)waitpid(h, NULL, 0);
	return __real_sl_pidfd_open(pid);
}
