/* executors.c - the table of executors: a new one is one row here and its
 * own room under bin/exec/. */
#include "executors.h"

#include <string.h>

static const struct sl_executor *const all[] = {&sl_executor_local, &sl_executor_k8s};

const struct sl_executor *sl_executor_find(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}
