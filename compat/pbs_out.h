/* pbs_out.h - qstat's attribute lists (-f) in its three output formats,
 * as OpenPBS's prt_attr() writes them (src/cmds/qstat.c:452): the default
 * ("    name.res = value" lines wrapped at commas past 78 columns, a blank
 * line after each object), dsv ("Job Id: ID|name=value|..." on one line,
 * the delimiter in a value escaped with '\', qstat.c:537) and json (one
 * document: timestamp, pbs_version, pbs_server, then "Jobs", "Queue" or
 * "Server" objects; resources grouped per attribute, values that parse as
 * JSON numbers printed as numbers, the rest as strings; cJSON_Print()'s
 * layout, tab-indented, as pbs_json_print() prints it,
 * src/lib/Libjson/cJSON/pbs_cjson.c:215). */
#ifndef SL_PBS_OUT_H
#define SL_PBS_OUT_H

#include <stdint.h>
#include "buf.h"

enum sl_pbs_outfmt { SL_PBS_OUT_DEFAULT = 0, SL_PBS_OUT_DSV, SL_PBS_OUT_JSON };

struct sl_pbs_out;

/* A writer appending to b (borrowed). delim: dsv's delimiter ("|" when
 * NULL). For json the document starts with the timestamp (now), version
 * and server. Caller frees with sl_pbs_out_free(). */
struct sl_pbs_out *sl_pbs_out_new(struct sl_buf *b, enum sl_pbs_outfmt fmt, const char *delim,
				  int64_t now, const char *version, const char *server);
void sl_pbs_out_free(struct sl_pbs_out *o);

/* Values on one line, never wrapped: Torque's qstat -f -1 (its qstat.c
 * sets linesize to maxlinesize), which tools parse line by line. */
void sl_pbs_out_unfolded(struct sl_pbs_out *o);

/* One object: kind "Job Id", "Queue" or "Server" (its json section is
 * "Jobs", "Queue", "Server"), then its attributes (res NULL unless a
 * resource of name; NULL values are left out), then its end. */
void sl_pbs_out_begin(struct sl_pbs_out *o, const char *kind, const char *id);
void sl_pbs_out_attr(struct sl_pbs_out *o, const char *name, const char *res, const char *value);
void sl_pbs_out_end(struct sl_pbs_out *o);

/* The end of the listing (json: the document's closing braces). 0, or
 * -SL_ETOOBIG when the buffer filled up. */
int sl_pbs_out_finish(struct sl_pbs_out *o);

#endif
