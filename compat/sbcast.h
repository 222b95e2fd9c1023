/* sbcast.h - sbcast's copy of a file to a job's nodes, on the local
 * executor: every node of a local job is this host, so one copy puts the
 * file on all of them. What slurmd does with REQUEST_FILE_BCAST, as the
 * job's user (the command runs as that user): the destination opened with
 * O_EXCL (O_TRUNC with --force) and mode 0700, the data, then the source's
 * permission bits, and with --preserve its access and modification times. */
#ifndef SL_SBCAST_H
#define SL_SBCAST_H

#include <stdio.h>
#include <sys/stat.h>

#include "err.h"

struct sl_sbcast {
	const char *src, *dst;    /* dst relative: to the working directory */
	int force, preserve;
	int verbose;              /* -v: the source's state, as sbcast prints it */
	int fd;                   /* the source, open (sl_sbcast_source) */
	struct stat st;
};

/* Open and stat o->src first, as Slurm reads the source before it asks
 * for the job: 0, or -SL_EIO with Slurm's "Can't open `SRC`: ..." (sbcast
 * exits 255). -v's lines on the source go to log (NULL: none). */
int sl_sbcast_source(struct sl_sbcast *o, FILE *log, struct sl_err *err);
/* Then copy it to o->dst and close it: 0 (err->msg holds Slurm's warning
 * when the source was empty), or -SL_EIO with strerror() of *dst_errno,
 * which sbcast reports per node as REQUEST_FILE_BCAST(NODE) and exits with. */
int sl_sbcast_copy(struct sl_sbcast *o, int *dst_errno, struct sl_err *err);
/* The source closed without a copy. */
void sl_sbcast_close(struct sl_sbcast *o);

#endif
