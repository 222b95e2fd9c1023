/* conf_testlib.h - a loaded configuration from YAML text, for unit tests:
 * the text goes through a temporary file (the loader reads files), which is
 * gone again by the time it returns. */
#ifndef CONF_TESTLIB_H
#define CONF_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "conf.h"

/* The config, or NULL after printing the loader's error. */
static inline struct sl_conf *tl_conf(const char *text)
{
	char path[] = "/tmp/sl-unit-conf-XXXXXX";
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = NULL;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (f == NULL)
		return NULL;
	fputs(text, f);
	fclose(f);
	if (sl_conf_load(path, &c, &err) != 0)
		fprintf(stderr, "%s\n", err.msg);
	unlink(path);
	return c;
}

#endif
