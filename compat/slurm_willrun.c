/* slurm_willrun.c - --test-only's answer (slurm_willrun.h). */
#include "slurm_willrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "slurm_time.h"

/* Each line of msg before end as "PROG: error: LINE". */
static void error_lines(const char *prog, const char *msg, const char *end)
{
	for (const char *p = msg; end != NULL && p <= end; p += strcspn(p, "\n") + 1)
		fprintf(stderr, "%s: error: %.*s\n", prog, (int)strcspn(p, "\n"), p);
}

/* A refusal: the hint lines before its last as errors, the last as
 * slurm_perror("allocation failure") words it. */
const char *sl_slurm_hint_lines(const char *prog, const char *msg)
{
	const char *last = strrchr(msg, '\n');

	error_lines(prog, msg, last);
	return last ? last + 1 : msg;
}

/* slurm_job_will_run() shows none of slurmctld's reasons why no node can
 * hold the job (its resources, --exclude): slurm_perror's line alone,
 * which a script reads first, so Sluice's reason comes after it. Other
 * refusals (an unknown partition) Slurm prints as sbatch's error lines
 * before it, and so does Sluice. */
static void refused(const char *prog, int r, const char *msg)
{
	const char *last = strrchr(msg, '\n');

	if (r != -SL_ENOFIT) {
		fprintf(stderr, "allocation failure: %s\n", sl_slurm_hint_lines(prog, msg));
		return;
	}
	fprintf(stderr, "allocation failure: %s\n", last ? last + 1 : msg);
	error_lines(prog, msg, last);
}

int sl_willrun_report(const char *prog, const struct sl_jobspec *spec, int quiet)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_willrun w;
	char when[64];
	int r = sl_client_test_only(spec, &w, &err);

	if (r != 0) {
		refused(prog, r, err.msg[0] ? err.msg : sl_strerror(r));
		return 1;
	}
	sl_slurm_time_fmt_ts(w.start, when, sizeof(when));
	if (!quiet)
		fprintf(stderr, "%s: Job %llu to start at %s using %d processors on nodes %s "
			"in partition %s\n", prog, (unsigned long long)w.id, when, w.cpus, w.nodes,
			w.partition);
	if (!quiet && w.shorter_time > 0) { /* Sluice's: backfill would start it now */
		char lim[32];
		sl_slurm_time_fmt_limit(w.shorter_time, lim, sizeof(lim));
		sl_slurm_time_fmt_ts(time(NULL), when, sizeof(when));
		fprintf(stderr, "%s: --time=%s would start at %s\n", prog, lim, when);
	}
	if (!quiet && w.other_partition != NULL) { /* Sluice's: another partition */
		sl_slurm_time_fmt_ts(w.other_start, when, sizeof(when));
		fprintf(stderr, "%s: --partition=%s would start at %s\n", prog, w.other_partition,
			when);
	}
	free(w.other_partition);
	free(w.nodes);
	free(w.partition);
	return 0;
}
