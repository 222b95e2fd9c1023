/* fdpass.h - one message with descriptors attached (SCM_RIGHTS), on a
 * SOCK_SEQPACKET socket: how sluiced hands a job's lock to the supervisors'
 * fork server, the server hands back the supervisor's pidfd and the job's
 * end pipe, and the server hands a job to a supervisor it keeps. */
#ifndef SL_FDPASS_H
#define SL_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

#define SL_FD_MAX 4               /* descriptors in one message, at most */

/* Send data with the n descriptors of fds attached (n <= SL_FD_MAX). 0, or
 * -1 with errno. */
int sl_fd_sendv(int sock, const void *data, size_t len, const int *fds, size_t n);

/* Receive one message into buf. Returns its length (0 at EOF), or -1 with
 * errno. fds[0..*n) are the attached descriptors, close-on-exec, and the
 * rest of fds[0..max) are -1. A message longer than cap, or with more than
 * max descriptors, is an error (EMSGSIZE), and nothing it carried stays
 * open. */
ssize_t sl_fd_recvv(int sock, void *buf, size_t cap, int *fds, size_t max, size_t *n);

/* The same with one descriptor (fd < 0: none; *fd -1 when none came). */
int sl_fd_send(int sock, const void *data, size_t len, int fd);
ssize_t sl_fd_recv(int sock, void *buf, size_t cap, int *fd);

#endif
