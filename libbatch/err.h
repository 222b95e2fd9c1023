/* err.h - error codes and the error carrier every fallible call fills.
 *
 * Functions return 0 or a negative SL_E* code. The first error set in a
 * struct sl_err wins: later calls to sl_err_set() on the same carrier are
 * ignored, so the innermost (most specific) reason reaches the user. */
#ifndef SL_ERR_H
#define SL_ERR_H

#include <stddef.h>

enum sl_errcode {
	SL_EOK = 0,
	SL_EINTERNAL = 1, /* a bug or an impossible state */
	SL_ENOMEM,        /* never returned: allocation failure is fatal */
	SL_EINVAL,        /* bad input from a user or a file */
	SL_ECONFIG,       /* configuration error */
	SL_EIO,           /* read/write/socket failure */
	SL_EPROTO,        /* malformed frame or message */
	SL_ETOOBIG,       /* over a size cap */
	SL_ENOENT,        /* no such job, file, queue, ... */
	SL_EPERM,         /* access/permission denied */
	SL_EEXIST,        /* already exists */
	SL_ECONNECT,      /* cannot reach sluiced */
	SL_EDB,           /* SQLite failure */
	SL_EUNSUPP,       /* not supported by Sluice */
	SL_EPARTITION,    /* invalid partition name specified */
	SL_EACCOUNT,      /* invalid account */
	SL_ENOFIT,        /* can never fit: node configuration not available */
	SL_EBUSY,         /* temporarily refused, try again */
	SL_ESTATE,        /* operation not valid in the job's state */
	SL_EAUTH,         /* the request's credential was refused (munge) */
	SL_EPOLICY,       /* a QOS or association submit limit (qos_limits.h) */
	SL_EDEPEND,       /* a dependency that is malformed or names no job */
	SL_EPARTUNAVAIL,  /* a partition an operator drained or made inactive */
	SL_ECODE_MAX
};

#define SL_ERR_MSG_MAX 1024

struct sl_err {
	int code;                  /* 0 while unset */
	char msg[SL_ERR_MSG_MAX];  /* human text; empty while unset */
};

#define SL_ERR_INIT {0, {0}}

/* Record an error unless one is already recorded. Returns -code so callers can
 * write `return sl_err_set(err, SL_EINVAL, "...")`. err may be NULL. */
int sl_err_set(struct sl_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the recorded message ("ctx: old message"), e.g. with a file name. */
void sl_err_prefix(struct sl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Each line of err's message that begins with `from` begins with `to`
 * instead (a command's words under another's name: "srun: " as
 * "salloc: "); the code is kept. */
void sl_err_reprefix(struct sl_err *err, const char *from, const char *to);

void sl_err_clear(struct sl_err *err);

/* Static text for a code (never NULL). Accepts negative or positive codes. */
const char *sl_strerror(int code);

/* Stable identifiers used on the wire ("EINVAL", ...) and back. */
const char *sl_errname(int code);
int sl_errcode_from_name(const char *name);

#endif
