/* pbs_out.h - qstat's attribute lists (-f) in its three output formats,
 * as OpenPBS's prt_attr() writes them (src/cmds/qstat.c:452), and
 * pbsnodes' (kind "Node": prt_node(), src/cmds/pbsnodes.c:650, below): the default
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

#include <stddef.h>
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

/* One object: kind "Job Id", "Queue", "Server" or "Node" (its json
 * section is "Jobs", "Queue", "Server", "nodes"), then its attributes (res
 * NULL unless a resource of name; NULL values are left out), then its end.
 * A node is written as pbsnodes writes it: its name alone on a line, then
 * "     name.res = value" never wrapped, control characters as ^X
 * (show_nonprint_chars()), last_state_change_time and last_used_time
 * (epoch seconds) as ctime(); dsv "Name=N|name.res=value|..." with nothing
 * escaped and the jobs' blanks dropped; json as encode_to_json()
 * (pbsnodes.c:195): resources_assigned without its zeros ("0kb" too), jobs
 * an array of the job ids. */
void sl_pbs_out_begin(struct sl_pbs_out *o, const char *kind, const char *id);
void sl_pbs_out_attr(struct sl_pbs_out *o, const char *name, const char *res, const char *value);
void sl_pbs_out_end(struct sl_pbs_out *o);

/* json: the kind's section, opened now rather than with its first object
 * (pbsnodes' prologue makes "nodes" even when it lists none). Other
 * formats: nothing. */
void sl_pbs_out_section(struct sl_pbs_out *o, const char *kind);

/* show_nonprint_chars() (src/lib/Libutil/misc_utils.c:1571), as pbsnodes
 * prints values: s with each control character other than tab and newline
 * written ^X (^M for a carriage return), into b. */
void sl_pbs_out_shown(struct sl_buf *b, const char *s);

/* json only (other formats: nothing), members of the open object whatever
 * their text looks like: a string (pbs_json_insert_string()), a number
 * (pbs_json_insert_number()), an array of n strings (one line, "[a, b]"). */
void sl_pbs_out_str(struct sl_pbs_out *o, const char *key, const char *value);
void sl_pbs_out_num(struct sl_pbs_out *o, const char *key, double value);
void sl_pbs_out_strv(struct sl_pbs_out *o, const char *key, char *const *v, size_t n);

/* The end of the listing (json: the document's closing braces). 0, or
 * -SL_ETOOBIG when the buffer filled up. */
int sl_pbs_out_finish(struct sl_pbs_out *o);

#endif
