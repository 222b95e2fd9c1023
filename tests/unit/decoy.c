/* decoy.c - a process at a chosen pid (decoy.h). clone3's set_tid asks the
 * kernel for that pid; glibc 2.36 has no wrapper, and the child only makes
 * plain system calls before it waits. */
#include "decoy.h"

#include <errno.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t decoy_start(pid_t pid, int lead)
{
	pid_t want = pid;
	struct clone_args ca;
	int ready[2];
	char c;
	if (pipe(ready) != 0)
		return -1;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	ca.set_tid = (uint64_t)(uintptr_t)&want;
	ca.set_tid_size = 1;
	long got = syscall(SYS_clone3, &ca, sizeof(ca));
	if (got == 0) {
		if (lead)
			(void)setpgid(0, 0);
		/* a stranger holds none of its parent's pipes or locks; `ready`
		 * goes with them, which says it is done */
		(void)close_range(3, ~0U, 0);
		alarm(30);
		for (;;)
			pause();
	}
	int e = errno;
	close(ready[1]);
	while (got > 0 && read(ready[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	errno = e;
	return got < 0 ? -1 : (pid_t)got;
}
