/* lim_json.h - a QOS or Account object's limits (qos_limits.h's
 * sl_lim_set) on the wire: the shares reply carries them (sluiced writes,
 * sacctmgr reads). One table of keys for both directions. */
#ifndef SL_LIM_JSON_H
#define SL_LIM_JSON_H

#include <json-c/json.h>
#include "qos_limits.h"

/* The limits that are set, as an object: counts and minutes as numbers,
 * TRES as [cpu, MiB, nodes, GPUs] with -1 for a part not set. Caller puts. */
json_object *sl_lim_set_to_json(const struct sl_lim_set *s);
/* Back from such an object (NULL or absent keys: not set). */
void sl_lim_set_from_json(json_object *o, struct sl_lim_set *s);

#endif
