/* stepd_window.c - hooks of sluice-stepd-hooked on a supervisor's birth
 * (stepd_decoy.c has its other one), each inert until its variable is set:
 *
 * SL_TEST_WINDOW=DIR: a new supervisor holds open the time between its
 * birth (the fork server's fork, or sluiced's exec) and the moment it takes
 * over its signals (stepd.c: detach), which is otherwise microseconds, or an
 * exec and a program start. It writes DIR/<pid> and waits until the test
 * removes that file, 10 s at most, so a signal sent meanwhile lands where
 * one from sluiced can land by chance. The hold is in sl_log_open(), a
 * supervisor's first call; the fork server's own call is let through.
 *
 * SL_TEST_NOFORK (any value): the fork server's forks fail (EAGAIN), and
 * sluiced exec's each supervisor itself (exec_local.c's fallback). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

void __real_sl_log_open(const char *ident, int to_stderr, enum sl_loglevel max);
void __wrap_sl_log_open(const char *ident, int to_stderr, enum sl_loglevel max);
int __real_stepd_server(int fg, int keep, const char *jobs_dir, char **argv, int argc);
int __wrap_stepd_server(int fg, int keep, const char *jobs_dir, char **argv, int argc);
pid_t __real_fork(void);
pid_t __wrap_fork(void);

/* The fork server's pid, in it and in the supervisors it forks; 0 in one
 * that sluiced exec'd. */
static pid_t server;

int __wrap_stepd_server(int fg, int keep, const char *jobs_dir, char **argv, int argc)
{
	server = getpid();
	return __real_stepd_server(fg, keep, jobs_dir, argv, argc);
}

pid_t __wrap_fork(void)
{
	if (server != 0 && getpid() == server && getenv("SL_TEST_NOFORK") != NULL) {
		errno = EAGAIN;
		return -1;
	}
	return __real_fork();
}

void __wrap_sl_log_open(const char *ident, int to_stderr, enum sl_loglevel max)
{
	const char *dir = getenv("SL_TEST_WINDOW");
	char path[4096];
	int fd;
	if (dir != NULL && getpid() != server) {
		snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0) {
			close(fd);
			for (int i = 0; i < 1000 && access(path, F_OK) == 0; i++) {
				struct timespec ts = {0, 10 * 1000000};
				nanosleep(&ts, NULL);
			}
		}
	}
	__real_sl_log_open(ident, to_stderr, max);
}
