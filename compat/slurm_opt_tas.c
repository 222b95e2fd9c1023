/* slurm_opt_tas.c - sbatch's topology options: Slurm's --switches=N[@TIME]
 * and Sluice's --topology (Kueue's pod set constraints; the grammar and
 * the mapping are libbatch/sched/tas_req.c, which checks the text here so
 * a bad spelling fails at submit, in sbatch). */
#include "slurm_opt_int.h"

#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "slurm_time.h"
#include "xalloc.h"

/* Slurm's leaf-switch count and Kueue's levels say the same thing twice. */
static int exclusive(void *c, struct sl_err *e)
{
	CTX(c)->status = 1;
	return sl_err_set(e, SL_EINVAL, "--switches and --topology are mutually exclusive");
}

int sl_sbopt_switches(void *c, const char *a, struct sl_err *e)
{
	const char *at = strchr(a, '@');
	size_t n = at ? (size_t)(at - a) : strlen(a);
	char num[24], *end;
	int64_t min;
	long v = 0;

	if (n > 0 && n < sizeof(num)) {
		memcpy(num, a, n);
		num[n] = '\0';
		v = strtol(num, &end, 10);
		if (*end != '\0')
			v = 0;
	}
	if (v <= 0 || v > 65535) {
		CTX(c)->status = 1;
		/* Slurm's parse_int(): the whole argument, as given */
		char *q = sl_xstrndup(a, n);
		int r = sl_err_set(e, SL_EINVAL, "Invalid numeric value \"%s\" for --switches.", q);
		free(q);
		return r;
	}
	if (CTX(c)->spec->topology)
		return exclusive(c, e);
	CTX(c)->spec->switches = (int)v;
	/* time_str2secs(): an unreadable time is no wait, silently */
	CTX(c)->spec->wait4switch = at && sl_slurm_time_parse_limit(at + 1, &min) == 0 && min > 0 ?
					    min * 60 : 0;
	return 0;
}

int sl_sbopt_topology(void *c, const char *a, struct sl_err *e)
{
	struct sl_sched_topo_req t;
	struct sl_sched_topo_layer layers[4];  /* as many as the workload keeps */
	char buf[256];
	int r = sl_sched_topo_parse(a, 0, 0, &t, layers, 4, buf, sizeof(buf), e);

	if (CTX(c)->spec->switches > 0)
		return exclusive(c, e);
	if (r != 0) {
		CTX(c)->status = 1;
		return r < 0 ? r : sl_err_set(e, SL_EINVAL, "Invalid --topology specification");
	}
	free(CTX(c)->spec->topology);
	CTX(c)->spec->topology = sl_xstrdup(a);
	return 0;
}
