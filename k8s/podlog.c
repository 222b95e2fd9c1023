/* podlog.c - stdout and stderr through one pod log: the pod's wrapper and
 * sluiced's split (see podlog.h for the protocol and its reasons). */
#include "podlog.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Random once, fixed forever: pod logs of running jobs depend on it. */
#define BOUNDARY_KEY "5f0c9a7e3b1d48e2a6c4f8b0d2e97153"
#define STDERR_FILE "/tmp/sluice-stderr"

char *sl_podlog_boundary(uint64_t id, int attempt)
{
	return sl_xasprintf("--- sluice: stderr of job %llu attempt %d follows (" BOUNDARY_KEY
			    ") ---", (unsigned long long)id, attempt);
}

/* Why a wrapper and not `exec script`: the pod log merges the streams, so
 * stderr waits in a file until the script ends. The wrapper's own stderr
 * goes there too (a missing script, say), so nothing but stdout and the
 * boundary reaches the log first; `wait 2>/dev/null` keeps out busybox's
 * "Terminated" job report. The costs: sh stays as the container's PID 1, so
 * it passes SIGTERM on itself (a PID 1 without a handler never sees it), and
 * `wait` returns early when the trap runs, so it waits again for the real
 * status (128+signal when the script dies of it). The script runs in the
 * background for the trap to run at once, so sh starts it with SIGINT and
 * SIGQUIT ignored, which Kubernetes never sends. An unwritable /tmp fails
 * the job at once (exit 2, the reason in the log). A SIGKILL (the grace
 * period over) loses stderr: sluiced then says so in the -e file. */
char *sl_podlog_run(const char *script, uint64_t id, int attempt)
{
	char *b = sl_podlog_boundary(id, attempt);
	char *t = sl_xasprintf("exec 2>" STDERR_FILE "\n"
			       "%s \"$@\" </dev/null &\n"
			       "pid=$!\n"
			       "trap 'kill -TERM $pid 2>/dev/null && again=1' TERM\n"
			       "again=1\n"
			       "while [ \"$again\" ]; do again=; wait $pid 2>/dev/null; rc=$?; done\n"
			       "printf '\\n%%s\\n' '%s'\n"
			       "cat " STDERR_FILE "\n"
			       "exit $rc\n",
			       script, b);

	free(b);
	return t;
}

/* The last occurrence of needle (n > 0 bytes) in hay, or NULL. */
static const char *last_mem(const char *hay, size_t len, const char *needle, size_t n)
{
	size_t i;

	if (n > len)
		return NULL;
	for (i = len - n + 1; i-- > 0;)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

int sl_podlog_split(const char *log, size_t len, uint64_t id, int attempt,
		    struct sl_podlog_parts *parts)
{
	char *b = sl_podlog_boundary(id, attempt);
	char *line = sl_xasprintf("\n%s\n", b);
	size_t n = strlen(line);
	const char *at = last_mem(log, len, line, n);

	parts->out = log;
	parts->out_len = at != NULL ? (size_t)(at - log) : len;
	parts->err = at != NULL ? at + n : NULL;
	parts->err_len = at != NULL ? len - (size_t)(at + n - log) : 0;
	free(b);
	free(line);
	return at != NULL;
}
