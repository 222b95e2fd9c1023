/* slurm_json.h - the documents of Slurm 22.05's --json and --yaml options
 * (squeue, sacct, sinfo; scontrol's in 23.02's manner): the openapi v0.0.38
 * plugin's envelope (meta, errors, then the listing) through json-c's
 * pretty, spaced serializer, which is what Slurm's own serializer plugin
 * calls, so slashes print escaped ("openapi\/v0.0.38") and an empty array
 * as "[\n  ]" as Slurm prints them. Members go in the order they are added. */
#ifndef SL_SLURM_JSON_H
#define SL_SLURM_JSON_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* A new document {"meta": {...}, "errors": []}; the caller adds its list
 * and hands it to sl_json_emit(). */
json_object *sl_json_doc(void);
/* Serialize doc into out and free it: 0 or -SL_ETOOBIG. */
int sl_json_emit(json_object *doc, struct sl_buf *out);
/* The same tree as --yaml prints it (slurm_yaml.c): libyaml's emitter,
 * every tag explicit. empty_null: "" is null (slurmctld's documents). */
int sl_yaml_emit(json_object *doc, int empty_null, struct sl_buf *out);
enum sl_doc_form { SL_DOC_JSON = 0, SL_DOC_YAML };

/* Members: a string (NULL prints ""), an integer, null, a boolean, a
 * double, or an integer that is null when v is "unset" (`set` false). */
void sl_json_str(json_object *o, const char *key, const char *v);
void sl_json_int(json_object *o, const char *key, int64_t v);
void sl_json_null(json_object *o, const char *key);
void sl_json_bool(json_object *o, const char *key, int v);
void sl_json_double(json_object *o, const char *key, double v);
void sl_json_int_or_null(json_object *o, const char *key, int set, int64_t v);
/* An array of strings from a NULL-terminated list. */
void sl_json_strv(json_object *o, const char *key, const char *const *v);

struct sl_job;
/* The wait status slurmctld keeps for a job: its code << 8, or its
 * signal. */
int64_t sl_json_exit_status(const struct sl_job *j);

/* squeue --json (and scontrol --json show job): the /jobs/ document,
 * every record of v in its order. cluster: the config's clusterName. */
int sl_squeue_json(struct sl_job *const *v, size_t n, const char *cluster, int64_t now,
		   enum sl_doc_form form, struct sl_buf *out);
/* sacct --json: the slurmdbd /jobs/ document, each job with its batch
 * step when it ran one and its srun steps (steps, sorted by job and step;
 * none with allocs, sacct -X); no job is slurmdbd's "Nothing found" error. */
struct sl_step;
int sl_sacct_json(struct sl_job *const *v, size_t n, const struct sl_step *steps, size_t ns,
		  int allocs, const char *cluster, int64_t now, enum sl_doc_form form,
		  struct sl_buf *out);

/* sinfo --json's /nodes/ document (sinfo_json.c, sl_sinfo_json()) as
 * --yaml prints it. */
struct sl_sinfo_view;
int sl_sinfo_yaml(const struct sl_sinfo_view *v, struct sl_buf *out);

#endif
