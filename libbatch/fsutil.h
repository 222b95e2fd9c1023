/* fsutil.h - small file-system helpers shared by the daemon and tools. */
#ifndef SL_FSUTIL_H
#define SL_FSUTIL_H

#include <sys/types.h>
#include "err.h"

/* mkdir -p: create path and missing parents with mode (existing ones are
 * left as they are). 0 or -SL_EIO with the failing directory in err. */
int sl_mkdirs(const char *path, mode_t mode, struct sl_err *err);

#endif
