/* render_mpijob.h - a job as an MPIJob (kubeflow.org/v2beta1). */
#ifndef SL_RENDER_MPIJOB_H
#define SL_RENDER_MPIJOB_H

#include "render.h"

/* Build and validate the MPIJob for c (render.c calls it). *out is a new
 * json-c object; the caller puts it. */
int sl_render_mpijob(const struct sl_render_ctx *c, struct json_object **out,
		     struct sl_err *err);

#endif
