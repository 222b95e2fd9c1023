/* stepd_decoy.c - sluice-stepd for the tests of a reused pid: the program
 * itself, linked with --wrap=sl_pidfd_open. With $SL_TEST_DECOY set (a file
 * name), the fork server's first pidfd_open(pid) first makes that pid a
 * reused one: it kills the child the pid names (the kernel reaps it at
 * once), then starts a decoy with the same pid that is not the server's
 * child, as a pid taken by another process would be; only then does it
 * open. The file gets "<pid>\n", or "skip <errno>\n" when the decoy could
 * not be had (clone3's set_tid needs CAP_SYS_ADMIN and Linux 5.5). The
 * decoy holds none of the server's descriptors and waits for a signal
 * (SIGALRM after 30 s at the latest). */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int __real_sl_pidfd_open(pid_t pid);
int __wrap_sl_pidfd_open(pid_t pid);

/* In a child of the server, so that the decoy, once that child is gone,
 * is not the server's: `pid` itself for a decoy; the result to `mark`. */
static void decoy(pid_t pid, const char *mark)
{
	pid_t want = pid;
	struct clone_args ca;
	int e = 0;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	ca.set_tid = (uint64_t)(uintptr_t)&want;
	ca.set_tid_size = 1;
	long got = syscall(SYS_clone3, &ca, sizeof(ca));
	if (got == 0) {
		/* the server's descriptors, the job's end pipe among them, are
		 * not a stranger's to hold */
		(void)close_range(3, ~0U, 0);
		alarm(30);
		for (;;)
			pause();
	}
	e = got < 0 ? errno : 0;
	int fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (got > 0)
			dprintf(fd, "%ld\n", got);
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
	pid_t h = fork();
	if (h == 0)
		decoy(pid, mark);
	/* SIGCHLD is ignored here: this returns (ECHILD) once it has exited */
	if (h > 0)
		(void)waitpid(h, NULL, 0);
	return __real_sl_pidfd_open(pid);
}
