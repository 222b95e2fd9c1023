/* executors.h - the executors sluiced is built with, by their config name. */
#ifndef SL_EXECUTORS_H
#define SL_EXECUTORS_H

#include "exec.h"

extern const struct sl_executor sl_executor_local;
extern const struct sl_executor sl_executor_k8s;

/* The executor named `name` (config `executor:`), or NULL. */
const struct sl_executor *sl_executor_find(const char *name);

#endif
