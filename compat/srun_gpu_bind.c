/* srun_gpu_bind.c - a task's GPUs under --gpu-bind (srun_gpu_bind.h).
 *
 * slurmstepd reads the value once per task: "verbose," asks for a line
 * naming the task's GPUs; single:N gives each N tasks (in SLURM_LOCALID
 * order) the next of the GPUs near its CPUs; closest all of those;
 * map_gpu and mask_gpu name the node's device numbers per task (a list
 * that repeats when the tasks outnumber it, "V*K" for K tasks); per_task:N
 * N GPUs of its own. Sluice knows no topology, so every GPU of the step
 * counts as near (as on Slurm nodes whose gres.conf names no Cores). A
 * list naming none of the step's GPUs binds the task to the first. */
#include "srun_gpu_bind.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "xalloc.h"

/* map_gpu/mask_gpu: the entry of task `local`, the list read round again
 * until it reaches it (gres.c _get_usable_gres_map_or_mask). */
static void map_or_mask(const char *list, int is_map, const int *idx, int on, int local,
			int *use, struct sl_buf *msg, const char *host)
{
	int offset = 0;

	if (*list == '\0')
		return;
	for (;;) {
		for (const char *tok = list; *tok; tok += strcspn(tok, ",") + (tok[strcspn(tok, ",")] != '\0')) {
			const char *star = memchr(tok, '*', strcspn(tok, ","));
			int mult = star ? atoi(star + 1) : 1;
			if (mult == 0) {
				sl_buf_addf(msg, "slurmstepd-%s: error: Repetition count of 0 not "
					    "allowed in --gpu-bind=mask_gpu, using 1 instead\n", host);
				mult = 1;
			}
			if (local < offset || local > offset + mult - 1) {
				offset += mult;
				continue;
			}
			/* "3" or "0x3" in either list, as slurmstepd reads them */
			unsigned long long v = strtoull(tok, NULL, 0);
			for (int i = 0; i < on; i++)
				use[i] = is_map ? (unsigned long long)idx[i] == v
						: idx[i] < 64 && ((v >> idx[i]) & 1ULL);
			return;
		}
	}
}

/* per_task:N: the N after the first local*N (gres.c _filter_gres_per_task). */
static void per_task(int n, int on, int local, int *use, struct sl_buf *msg, const char *host)
{
	int skip = local * n;
	for (int i = 0; i < on; i++) {
		use[i] = skip == 0 && n > 0;
		if (skip > 0)
			skip--;
		else if (n > 0)
			n--;
	}
	if (n > 0)
		sl_buf_addf(msg, "slurmstepd-%s: error: Not enough gpus to bind for gpus per task\n",
			    host);
}

static char *hexmask(const int *idx, const int *set, int on)
{
	unsigned long long m = 0;
	for (int i = 0; i < on; i++)
		if ((set == NULL || set[i]) && idx[i] < 64)
			m |= 1ULL << idx[i];
	return sl_xasprintf("0x%llx", m);
}

int sl_srun_gpu_bind(const char *bind, const int *idx, int on, int local, const char *host,
		     int *use, char **msg)
{
	struct sl_buf *b = sl_buf_new(1 << 16); /* a task's few lines */
	const char *v = bind;
	int verbose = 0, known = 1, any = 0;

	*msg = NULL;
	if (strncasecmp(v, "verbose,", 8) == 0) {
		verbose = 1;
		v += 8;
	}
	for (int i = 0; i < on; i++)
		use[i] = 1;
	if (strncasecmp(v, "single:", 7) == 0) {
		long per = strtol(v + 7, NULL, 0);
		if (per <= 0 || per > 4294967295L) {
			sl_buf_addf(b, "slurmstepd-%s: error: _parse_tres_bind: single:%s does not "
				    "specify a valid number. Defaulting to 1.\n", host, v + 7);
			per = 1;
		}
		if (on > 1) { /* one of those near the task's CPUs: all, here */
			int n = (int)((local / per) % on);
			for (int i = 0; i < on; i++)
				use[i] = i == n;
		}
	} else if (strncasecmp(v, "closest", 7) == 0) {
		/* all of them */
	} else if (strncasecmp(v, "map_gpu:", 8) == 0 || strncasecmp(v, "mask_gpu:", 9) == 0) {
		int is_map = v[2] == 'p' || v[2] == 'P';
		memset(use, 0, (size_t)on * sizeof(*use));
		map_or_mask(strchr(v, ':') + 1, is_map, idx, on, local, use, b, host);
	} else if (strncasecmp(v, "per_task:", 9) == 0) {
		per_task((int)strtoul(v + 9, NULL, 10), on, local, use, b, host);
	} else {
		known = 0;
	}
	for (int i = 0; known && i < on; i++)
		any |= use[i];
	if (known && !any && on > 0) {
		sl_buf_addf(b, "slurmstepd-%s: error: Bind request gpu:%s does not specify any "
			    "devices within the allocation for task %d. Binding to the first device "
			    "in the allocation instead.\n", host, bind, local);
		use[0] = 1;
	}
	if (known && verbose && on > 0) {
		char *u = hexmask(idx, use, on), *a = hexmask(idx, NULL, on);
		struct sl_buf *l = sl_buf_new(4096);
		for (int i = 0; i < on; i++)
			if (use[i])
				sl_buf_addf(l, "%s%d", sl_buf_len(l) ? "," : "", idx[i]);
		sl_buf_addf(b, "gpu-bind: usable_gres=%s; bit_alloc=%s; local_inx=0; global_list=%s; "
			    "local_list=%s\n", u, a, sl_buf_str(l), sl_buf_str(l));
		sl_buf_free(l);
		free(u);
		free(a);
	}
	if (sl_buf_len(b) > 0)
		*msg = sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	return known;
}
