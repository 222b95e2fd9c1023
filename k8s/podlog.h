/* podlog.h - stdout and stderr through one pod log. Without a shared
 * filesystem the pod log is a job's only output, and the log merges the
 * container's two streams. When -e names a file apart from -o, the pod runs
 * the batch script with its stderr in a file and, when the script ends,
 * prints a boundary line and that file after stdout; sluiced splits the log
 * it fetches at the last boundary. Both halves of that protocol live here so
 * they cannot drift apart.
 *
 * The boundary holds the job id, the attempt and a fixed random constant: no
 * output reaches it by accident, a requeued attempt's differs from the
 * first's, and `sluice render` still prints the same bytes for the same job
 * (no random token, no clock). */
#ifndef SL_PODLOG_H
#define SL_PODLOG_H

#include <stddef.h>
#include <stdint.h>

/* The boundary line of job id's attempt, without its newlines. Caller frees. */
char *sl_podlog_boundary(uint64_t id, int attempt);

/* The shell lines (POSIX sh, each ending in '\n') that run `script "$@"`
 * with stdin from /dev/null and stdout to the log, then print "\n", the
 * boundary, "\n" and the script's stderr (and the shell's own, e.g. "not
 * found"), and exit with the script's status. SIGTERM is passed on to the
 * script. Caller frees. */
char *sl_podlog_run(const char *script, uint64_t id, int attempt);

/* A pod log split back into the script's streams; pointers into the log. */
struct sl_podlog_parts {
	const char *out;
	size_t out_len;
	const char *err; /* NULL when the boundary is missing */
	size_t err_len;
};

/* Split log (len bytes, may hold NULs) at the last "\n<boundary>\n" of job
 * id's attempt: stdout before it (the "\n" the wrapper added removed), stderr
 * after it. Returns 1 when found; 0 when not (the container was killed before
 * its wrapper printed stderr), with the whole log as stdout and err NULL. */
int sl_podlog_split(const char *log, size_t len, uint64_t id, int attempt,
		    struct sl_podlog_parts *parts);

#endif
