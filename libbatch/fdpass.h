/* fdpass.h - one message with one descriptor attached (SCM_RIGHTS), on a
 * SOCK_SEQPACKET socket: how sluiced hands a job's lock to the supervisors'
 * fork server, and the server hands back the supervisor's pidfd. */
#ifndef SL_FDPASS_H
#define SL_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* Send data with fd attached (fd < 0: none). 0, or -1 with errno. */
int sl_fd_send(int sock, const void *data, size_t len, int fd);

/* Receive one message into buf. Returns its length (0 at EOF), or -1 with
 * errno. *fd is the attached descriptor, close-on-exec, or -1. A message
 * longer than cap, or with more than one descriptor, is an error (EMSGSIZE),
 * and nothing it carried stays open. */
ssize_t sl_fd_recv(int sock, void *buf, size_t cap, int *fd);

#endif
