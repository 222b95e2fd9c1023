/* conf_peek.c - the socket path of a config file, found without parsing it.
 *
 * Every sbatch reads the config only to find the socket (an installed
 * system has $sysconfdir/sluice/sluice.yaml). The YAML parser and the
 * settings table cost a third of a call's CPU and 35 page faults, so the
 * common shape is read by hand: a first document with `apiVersion:
 * sluice.io/v1alpha1`, `kind: SluiceConfiguration` and an absolute
 * `socket:` as plain or simply quoted scalars at the left margin. Anything
 * else (flow style, escapes, a relative path, a directory, ...) returns 0
 * and sl_conf_peek_socket() parses the file properly, errors included. */
#include "conf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

#define PEEK_MAX 65536
#define SOCKET_PATH_MAX 107 /* sun_path less its NUL */

/* The scalar after "key:" on one line, or NULL when not a simple one. */
static char *scalar(const char *v, const char *end)
{
	const char *e;

	while (v < end && *v == ' ')
		v++;
	if (v == end)
		return NULL;
	if (*v == '"' || *v == '\'') {
		e = memchr(v + 1, *v, (size_t)(end - v - 1));
		if (e == NULL || memchr(v + 1, '\\', (size_t)(e - v - 1)) != NULL ||
		    (e + 1 < end && e[1] == *v))
			return NULL;
		const char *after = e + 1;
		while (after < end && *after == ' ')
			after++;
		if (after < end && *after != '#')
			return NULL;
		return sl_xstrndup(v + 1, (size_t)(e - v - 1));
	}
	if (strchr("-?:,[]{}#&*!|>%@`", *v) != NULL)
		return NULL;
	for (e = v; e < end && !(*e == '#' && e[-1] == ' '); e++)
		if (*e == ':' && (e + 1 == end || e[1] == ' '))
			return NULL;
	while (e > v && e[-1] == ' ')
		e--;
	return sl_xstrndup(v, (size_t)(e - v));
}

struct peek {
	int api, kind, bad;
	char *socket;
};

/* One line at the left margin of the first document. */
static void line(struct peek *p, const char *s, const char *end)
{
	const char *colon = s;
	char *v;

	while (colon < end && (*colon == '_' || (*colon >= 'a' && *colon <= 'z') ||
			       (*colon >= 'A' && *colon <= 'Z') || (*colon >= '0' && *colon <= '9')))
		colon++;
	if (colon == s || colon == end || *colon != ':' ||
	    (colon + 1 < end && colon[1] != ' ')) {
		p->bad = 1;
		return;
	}
	v = scalar(colon + 1, end);
	if (colon - s == 6 && memcmp(s, "socket", 6) == 0) {
		if (v == NULL || p->socket != NULL || v[0] != '/')
			p->bad = 1;
		free(p->socket);
		p->socket = v;
		return;
	}
	if (colon - s == 10 && memcmp(s, "apiVersion", 10) == 0)
		p->api = v != NULL && strcmp(v, "sluice.io/v1alpha1") == 0;
	else if (colon - s == 4 && memcmp(s, "kind", 4) == 0)
		p->kind = v != NULL && strcmp(v, "SluiceConfiguration") == 0;
	free(v);
}

static void scan(struct peek *p, const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	int keys = 0;

	while (s < end && !p->bad) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		const char *t = e;

		while (t > s && (t[-1] == ' ' || t[-1] == '\r' || t[-1] == '\t'))
			t--;
		if (t - s >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0)) {
			if (keys > 0 || t - s > 3)
				break; /* the first document is over */
		} else if (t > s && *s != ' ' && *s != '#') {
			line(p, s, t); /* a tab or anything odd at the margin: bad */
			keys++;
		}
		s = nl ? nl + 1 : end;
	}
}

int sl_conf_peek_socket_fast(const char *path, char **socket)
{
	struct peek p = {0};
	struct stat st;
	char *text = NULL;
	ssize_t n = -1;
	int fd;

	*socket = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    st.st_size <= PEEK_MAX) {
		text = sl_xmalloc((size_t)st.st_size);
		n = read(fd, text, (size_t)st.st_size);
	}
	close(fd);
	if (n == st.st_size && n > 0)
		scan(&p, text, (size_t)n);
	free(text);
	if (p.bad || !p.api || !p.kind || p.socket == NULL) {
		free(p.socket);
		return 0;
	}
	sl_path_normalize(p.socket);
	if (strlen(p.socket) > SOCKET_PATH_MAX) {
		free(p.socket);
		return 0;
	}
	*socket = p.socket;
	return 1;
}
