/* slurm_export_file.c - sbatch --export-file=FILE|FD as Slurm 22.05's
 * env_array_from_file reads it: NAME=value entries each ended by a NUL
 * (a file without NULs is one entry), up to the first empty one; an entry
 * without '=' or with a name of 256 bytes or more is passed over, and
 * DISPLAY, ENVIRONMENT and HOSTNAME are dropped. A number from 3 up that
 * names an open descriptor is read as that descriptor. */
#include "slurm_opt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define NAME_MAX_LEN 255
#define VALUE_MAX_LEN (256 * 1024) /* Slurm's ENV_BUFSIZE, the NUL included */
#define FILE_MAX (64u << 20)

static int discarded(const char *kv, size_t nlen)
{
	static const char *const drop[] = {"DISPLAY", "ENVIRONMENT", "HOSTNAME"};
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		if (nlen == strlen(drop[i]) && strncmp(kv, drop[i], nlen) == 0)
			return 1;
	return 0;
}

/* Replace NAME's entry in v (n of them) or add one. */
static void put(char ***v, size_t *n, const char *kv)
{
	size_t klen = strcspn(kv, "=");
	for (size_t i = 0; i < *n; i++)
		if (strncmp((*v)[i], kv, klen) == 0 && (*v)[i][klen] == '=') {
			free((*v)[i]);
			(*v)[i] = sl_xstrdup(kv);
			return;
		}
	*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = sl_xstrdup(kv);
	(*v)[*n] = NULL;
}

static int open_source(const char *name)
{
	char *end;
	long fd = strtol(name, &end, 10);
	if (*end == '\0' && end != name && fd >= 3 && fd <= sysconf(_SC_OPEN_MAX) &&
	    fcntl((int)fd, F_GETFL) >= 0)
		return (int)fd;
	return open(name, O_RDONLY | O_CLOEXEC);
}

int sl_slurm_export_file(const char *name, char *const *exported, char ***env,
			 struct sl_err *err)
{
	char *buf = NULL, **v = NULL;
	size_t len = 0, cap = 0, n = 0;
	int fd = open_source(name);

	*env = NULL;
	if (fd < 0)
		return sl_err_set(err, SL_ENOENT, "Could not open user environment file %s", name);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = sl_xrealloc(buf, cap);
		}
		ssize_t k = read(fd, buf + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		len += (size_t)k;
		if (len > FILE_MAX) {
			close(fd);
			free(buf);
			return sl_err_set(err, SL_ETOOBIG, "user environment file %s is larger than "
					  "%u MiB", name, FILE_MAX >> 20);
		}
	}
	close(fd);
	if (buf == NULL)
		buf = sl_xcalloc(1, 1);
	buf[len] = '\0';
	v = sl_xcalloc(1, sizeof(*v));
	for (const char *p = buf; p < buf + len && *p != '\0'; p += strlen(p) + 1) {
		const char *eq = strchr(p, '=');
		size_t nlen = eq ? (size_t)(eq - p) : 0;
		if (eq == NULL || nlen == 0 || nlen > NAME_MAX_LEN || strlen(eq + 1) + 1 > VALUE_MAX_LEN ||
		    discarded(p, nlen))
			continue;
		put(&v, &n, p);
	}
	free(buf);
	for (char *const *e = exported; e && *e; e++)
		put(&v, &n, *e);
	*env = v;
	return 0;
}
