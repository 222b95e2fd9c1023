/* decoy.h - a process at a pid of the test's choosing, as one that took a
 * reused pid would be: for the tests of pid reuse (stepd_decoy.c,
 * test_stepd.c). */
#ifndef SL_TEST_DECOY_H
#define SL_TEST_DECOY_H

#include <sys/types.h>

/* A child at `pid`, which must be free, holding no descriptor but 0-2 by
 * the time this returns, waiting for a signal (SIGALRM after 30 s at the latest); with lead, the
 * leader of its own process group. Its pid, or -1 with errno: EPERM without
 * CAP_SYS_ADMIN, ENOSYS before Linux 5.5 (clone3's set_tid), EEXIST when
 * the pid is taken. */
pid_t decoy_start(pid_t pid, int lead);

#endif
