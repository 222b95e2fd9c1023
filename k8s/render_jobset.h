/* render_jobset.h - a job as a JobSet (jobset.x-k8s.io/v1alpha2). */
#ifndef SL_RENDER_JOBSET_H
#define SL_RENDER_JOBSET_H

#include "render.h"

/* Build and validate the JobSet for c (render.c calls it). *out is a new
 * json-c object; the caller puts it. */
int sl_render_jobset(const struct sl_render_ctx *c, struct json_object **out,
		     struct sl_err *err);

#endif
