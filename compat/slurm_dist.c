/* slurm_dist.c - Slurm's -m/--distribution values (slurm_dist.h), from
 * Slurm 22.05's verify_dist_type: up to three levels (nodes, sockets,
 * cores) of block, cyclic or fcyclic (not for nodes), "*" for the default
 * of each, then ",Pack" or ",NoPack". */
#include "slurm_dist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

static int dist_word(const char *w, int level)
{
	return strcmp(w, "*") == 0 || strcasecmp(w, "block") == 0 || strcasecmp(w, "cyclic") == 0 ||
	       (level > 0 && strcasecmp(w, "fcyclic") == 0);
}

int sl_slurm_dist_parse(const char *arg, char *text, size_t len, int *cyclic)
{
	char *dup = sl_xstrdup(arg), *save = NULL, *flags = strchr(dup, ','), sock[16] = "";
	int level = 0, r = 0;
	size_t used = 0;

	*cyclic = 0;
	if (len > 0)
		text[0] = '\0';
	if (flags != NULL)
		*flags++ = '\0';
	if (strncasecmp(arg, "plane", 5) == 0 || strcasecmp(dup, "arbitrary") == 0 ||
	    strcasecmp(dup, "hostfile") == 0 || (flags != NULL && *flags != '\0')) {
		r = -SL_EUNSUPP;
		goto out;
	}
	for (char *w = strtok_r(dup, ":", &save); w != NULL; w = strtok_r(NULL, ":", &save), level++) {
		if (level > 2 || !dist_word(w, level)) {
			r = -SL_EINVAL;
			goto out;
		}
		/* "*": block for the nodes, cyclic for the sockets, the
		 * sockets' for the cores */
		const char *word = strcmp(w, "*") != 0 ? w : level == 0 ? "block" :
				   level == 1 ? "cyclic" : sock;
		if (level == 0)
			*cyclic = strcasecmp(word, "cyclic") == 0;
		if (level == 1)
			snprintf(sock, sizeof(sock), "%s", word);
		if (used < len)
			used += (size_t)snprintf(text + used, len - used, "%s%s", level ? ":" : "", word);
	}
	if (level == 0)
		r = -SL_EINVAL;
	for (size_t i = 0; i < len && text[i]; i++)
		text[i] = (char)tolower((unsigned char)text[i]);
out:
	free(dup);
	return r;
}
