/* pmi2_map.c - PMI_process_mapping as Slurm's mpi/pmi2 plugin writes it
 * (pmi2.h): the ranks' nodes, in runs, by the step's distribution. MPICH
 * reads it to learn which ranks share a node (and so shared memory). */
#include "pmi2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* -m cyclic: from the lowest rank not yet placed, a run of nodes each
 * holding the next rank, "(start,nodes,1)"; again until all are placed. */
static void map_cyclic(char *s, size_t cap, int nnodes, int ntasks, int *const *tid,
		       const int *cnt)
{
	int *round = sl_xcalloc((size_t)nnodes + 1, sizeof(int)), mapped = 0;
	size_t len = strlen(s);
	while (mapped < ntasks) {
		int before = mapped;
		for (int start = 0; start < nnodes;) {
			while (start < nnodes &&
			       (round[start] >= cnt[start] || tid[start][round[start]] != mapped))
				start++;
			if (start >= nnodes)
				break;
			int end = start;
			while (end < nnodes && round[end] < cnt[end] &&
			       tid[end][round[end]] == mapped) {
				round[end]++;
				mapped++;
				end++;
			}
			len += (size_t)snprintf(s + len, cap - len, ",(%d,%d,1)", start,
						end - start);
			start = end;
		}
		if (mapped == before)
			break; /* a rank on no node: nothing more can be placed */
	}
	free(round);
}

/* Block (anything else): runs of nodes with as many ranks each,
 * "(start,nodes,ranks)". */
static void map_block(char *s, size_t cap, int nnodes, const int *cnt)
{
	size_t len = strlen(s);
	int start = 0;
	for (int i = 1; i <= nnodes; i++)
		if (i == nnodes || cnt[i] != cnt[start]) {
			len += (size_t)snprintf(s + len, cap - len, ",(%d,%d,%d)", start,
						i - start, cnt[start]);
			start = i;
		}
}

char *sl_pmi2_proc_map(int nnodes, int ntasks, const int *node, int cyclic)
{
	int *cnt = sl_xcalloc((size_t)nnodes + 1, sizeof(int));
	int **tid = sl_xcalloc((size_t)nnodes + 1, sizeof(int *));
	size_t cap = 32 + (size_t)(ntasks + nnodes) * 40;
	char *s = sl_xmalloc(cap);

	for (int t = 0; t < ntasks; t++) {
		int n = node[t];
		if (n < 0 || n >= nnodes)
			continue;
		tid[n] = sl_xrealloc(tid[n], (size_t)(cnt[n] + 1) * sizeof(int));
		tid[n][cnt[n]++] = t;
	}
	snprintf(s, cap, "(vector");
	if (cyclic)
		map_cyclic(s, cap, nnodes, ntasks, tid, cnt);
	else if (nnodes > 0)
		map_block(s, cap, nnodes, cnt);
	snprintf(s + strlen(s), cap - strlen(s), ")");
	for (int i = 0; i < nnodes; i++)
		free(tid[i]);
	free(tid);
	free(cnt);
	return s;
}
