/* conf_int.h - private to conf.c (files, documents, getters) and
 * conf_keys.c (the SluiceConfiguration's key table and parsers): the loaded
 * configuration itself. */
#ifndef SL_CONF_INT_H
#define SL_CONF_INT_H

#include "partdef.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include "conf.h"
#include "yaml.h"

#define CONF_API "sluice.io/v1alpha1"
#define CONF_KIND "SluiceConfiguration"
#define SOCKET_MAX (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

struct key;

struct acct_entry {
	char *user;  /* a user name, or "*" for everyone else */
	char **list; /* NULL-terminated, never empty */
};

struct sl_conf {
	char *path;
	char *dir;  /* absolute: relative paths in the config resolve from here */
	/* settings, filled through the key table */
	char *socket, *state_dir, *executor, *auth, *default_partition, *cluster_name;
	char *durability;
	char *kill_invalid_depend; /* "no", "yes" */
	char *mpi_default; /* "none", "pmix" */
	char **listen, *controller, *munge_socket; /* NULL: none, none, munge's default */
	char *pam_service; /* NULL: no PAM (no `pam:`) */
	char *metrics_listen; /* NULL: no metrics (no `metrics:`) */
	char *pbs_server;  /* NULL: the short host name */
	char *mail_prog;
	char *pbs_tmp_dir;
	int64_t kill_wait, min_job_age;
	int64_t tmp_disk; /* MB */
	int64_t max_array_size;
	char **operators;
	struct acct_entry *accounts;
	size_t naccounts;
	struct sl_kubeconf *kube; /* NULL: no kubernetes: section */
	struct sl_features *features; /* NULL: no features: map */
	/* An enum value that names a section ("executor: kubernetes") is only
	 * supported once that section is there; checked after the document. */
	const struct key *needs_section;
	int needs_line;
	/* where the SluiceConfiguration was, to report a second one */
	const char *settings_file;
	int settings_line;
	struct sl_ydocs **files; /* kept alive: kueue.c may borrow nodes and names */
	size_t nfiles;
	struct sl_kueue *kueue;  /* NULL when only peeking */
	struct sl_limits *limits; /* QOS and Account objects; NULL when only peeking */
	struct sl_partdefs partdefs; /* kind: Partition objects */
	char *default_qos;
};

/* Every key at its default (conf_keys.c). */
void sl_conf_keys_defaults(struct sl_conf *c);
/* The SluiceConfiguration document doc of file into c, through the key
 * table; a second one is an error. */
int sl_conf_keys_load(struct sl_conf *c, const char *file, const struct sl_ynode *doc,
		      struct sl_err *err);

#endif
