/* err.c - error codes, their texts, and the first-error-wins carrier. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	const char *text;
} codes[SL_ECODE_MAX] = {
	[SL_EOK] = {"OK", "Success"},
	[SL_EINTERNAL] = {"EINTERNAL", "Internal error"},
	[SL_ENOMEM] = {"ENOMEM", "Out of memory"},
	[SL_EINVAL] = {"EINVAL", "Invalid argument"},
	[SL_ECONFIG] = {"ECONFIG", "Configuration error"},
	[SL_EIO] = {"EIO", "Input/output error"},
	[SL_EPROTO] = {"EPROTO", "Protocol error"},
	[SL_ETOOBIG] = {"ETOOBIG", "Message too large"},
	[SL_ENOENT] = {"ENOENT", "Invalid job id specified"},
	[SL_EPERM] = {"EPERM", "Access/permission denied"},
	[SL_EEXIST] = {"EEXIST", "Already exists"},
	[SL_ECONNECT] = {"ECONNECT", "Unable to contact slurm controller (connect failure)"},
	[SL_EDB] = {"EDB", "Database error"},
	[SL_EUNSUPP] = {"EUNSUPP", "Not supported by Sluice"},
	[SL_EPARTITION] = {"EPARTITION", "Invalid partition name specified"},
	[SL_EACCOUNT] = {"EACCOUNT", "Invalid account or account/partition combination specified"},
	[SL_ENOFIT] = {"ENOFIT", "Requested node configuration is not available"},
	[SL_EBUSY] = {"EBUSY", "Resource temporarily unavailable"},
	[SL_ESTATE] = {"ESTATE", "Job is in an invalid state for this operation"},
	[SL_EAUTH] = {"EAUTH", "Protocol authentication error"},
	[SL_EPOLICY] = {"EPOLICY", "Job violates accounting/QOS policy (job submit limit, user's size "
				   "and/or time limits)"},
	[SL_EDEPEND] = {"EDEPEND", "Job dependency problem"},
	[SL_EPARTUNAVAIL] = {"EPARTUNAVAIL", "Required partition not available (inactive or drain)"},
};

static int norm(int code)
{
	if (code < 0)
		code = -code;
	if (code >= SL_ECODE_MAX)
		code = SL_EINTERNAL;
	return code;
}

int sl_err_set(struct sl_err *err, int code, const char *fmt, ...)
{
	code = norm(code);
	if (code == 0)
		code = SL_EINTERNAL;
	if (err != NULL && err->code == 0) {
		va_list ap;
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void sl_err_prefix(struct sl_err *err, const char *fmt, ...)
{
	char old[SL_ERR_MSG_MAX];
	size_t n;
	va_list ap;

	if (err == NULL || err->code == 0)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	/* Truncation keeps the prefix: it names where the error is. */
	if (n + 3 < sizeof(err->msg)) {
		size_t k = strnlen(old, sizeof(err->msg) - n - 3);
		memcpy(err->msg + n, ": ", 2);
		memcpy(err->msg + n + 2, old, k);
		err->msg[n + 2 + k] = '\0';
	}
}

void sl_err_clear(struct sl_err *err)
{
	if (err != NULL) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

const char *sl_strerror(int code)
{
	return codes[norm(code)].text;
}

const char *sl_errname(int code)
{
	return codes[norm(code)].name;
}

int sl_errcode_from_name(const char *name)
{
	for (int i = 0; i < SL_ECODE_MAX; i++)
		if (name != NULL && strcmp(codes[i].name, name) == 0)
			return i;
	return SL_EINTERNAL;
}

void sl_err_reprefix(struct sl_err *err, const char *from, const char *to)
{
	char out[SL_ERR_MSG_MAX];
	size_t o = 0, nf = strlen(from);

	for (const char *p = err->msg; *p && o + 1 < sizeof(out);) {
		size_t k = strcspn(p, "\n");
		int own = strncmp(p, from, nf) == 0 && k >= nf;
		int w = snprintf(out + o, sizeof(out) - o, "%s%.*s%s", own ? to : "",
				 (int)(own ? k - nf : k), own ? p + nf : p, p[k] ? "\n" : "");
		o = w < 0 ? o : o + (size_t)w < sizeof(out) ? o + (size_t)w : sizeof(out) - 1;
		p += k + (p[k] != '\0');
	}
	out[o] = '\0';
	memcpy(err->msg, out, o + 1);
}
