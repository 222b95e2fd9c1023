/* srun_files.h - the files a step's tasks read and write: -o/-e/-i
 * patterns expanded per task (%j %s %t %n %N ...), opened before any task
 * starts (one that cannot ends the step, as Slurm's does), and each task's
 * stdin and stdout/stderr descriptors. */
#ifndef SRUN_FILES_H
#define SRUN_FILES_H

#include "srun_io.h"
#include "srun_layout.h"
#include "srun_opt.h"

/* Every -o/-e file of every task opened (kept in io, where
 * srun_files_sink() finds them) and every -i file readable: 0, or -1 after
 * Slurm's "srun: error: Could not open stdout file: ..." line. */
int srun_files_open(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		    struct srun_io *io);

/* Where task t's stdout (err 0) or stderr goes: srun's own, or -o/-e's
 * file (stderr follows -o when -e is not given, as in Slurm), which
 * srun_files_open() opened. */
int srun_files_sink(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		    struct srun_io *io, int t, int err);

/* Task t's stdin: a pipe fed from srun's (-i all, the default, or -i t),
 * with *feed its write end; /dev/null (-i none, or another task's
 * number), or -i's file (*feed -1). -1 on failure. */
int srun_files_stdin(const struct sl_srun_opts *o, const struct sl_srun_layout *l, int t,
		     int *feed);

#endif
