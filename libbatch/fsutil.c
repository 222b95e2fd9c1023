/* fsutil.c - file-system helpers. */
#include "fsutil.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int sl_mkdirs(const char *path, mode_t mode, struct sl_err *err)
{
	char *p = sl_xstrdup(path);
	int r = 0;

	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, mode) != 0 && errno != EEXIST) {
			r = sl_err_set(err, SL_EIO, "cannot create directory %s: %s", p,
				       strerror(errno));
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return r;
}
