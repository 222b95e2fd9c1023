/* sluice_render.h - `sluice render`: print the Kubernetes object a job would
 * become if admitted now on an empty cluster (bin/sluice_render.c). */
#ifndef SL_SLUICE_RENDER_H
#define SL_SLUICE_RENDER_H

/* argv[0] is "render". Returns the exit status. */
int sl_cmd_render(int argc, char **argv);
void sl_cmd_render_usage(FILE *f);

#endif
