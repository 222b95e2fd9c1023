/* conf_peek.c - where sluiced is and how to reach it, read from a config
 * file without parsing it.
 *
 * Every sbatch reads the config only for that (an installed system has
 * $sysconfdir/sluice/sluice.yaml). The YAML parser and the settings table
 * cost a third of a call's CPU and 35 page faults, so the common shape is
 * read by hand: a first document with `apiVersion: sluice.io/v1alpha1`,
 * `kind: SluiceConfiguration`, an absolute `socket:` or a `controller:`,
 * maybe `auth:`, as plain or simply quoted scalars at the left margin, and
 * maybe a block `munge:` whose only key is an absolute `socket:`. Anything
 * else (flow style, escapes, a relative path, a directory, a value the
 * loader would refuse, ...) returns 0 and sl_conf_peek() parses the file
 * properly, errors included. */
#include "conf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "netaddr.h"
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
	int api, kind, bad, auth, in_munge;
	struct sl_conf_peek out;
};

/* An absolute path into *slot, once; anything else is for the parser. */
static void path_once(struct peek *p, char **slot, char *v)
{
	if (v == NULL || *slot != NULL || v[0] != '/')
		p->bad = 1;
	free(*slot);
	*slot = v;
}

/* "key:" at s, or NULL (bad). *v is its simple scalar or NULL; *empty
 * says nothing follows the colon (a block value such as munge's). */
static const char *key_of(struct peek *p, const char *s, const char *end, char **v, int *empty)
{
	const char *colon = s, *t;

	while (colon < end && (*colon == '_' || (*colon >= 'a' && *colon <= 'z') ||
			       (*colon >= 'A' && *colon <= 'Z') || (*colon >= '0' && *colon <= '9')))
		colon++;
	if (colon == s || colon == end || *colon != ':' ||
	    (colon + 1 < end && colon[1] != ' ')) {
		p->bad = 1;
		return NULL;
	}
	for (t = colon + 1; t < end && *t == ' '; t++)
		;
	*empty = t == end || *t == '#';
	*v = scalar(colon + 1, end);
	return colon;
}

#define IS(key) (colon - s == (long)sizeof(key) - 1 && memcmp(s, key, sizeof(key) - 1) == 0)

/* An indented line: only "socket:" under a block munge: is understood. */
static void munge_line(struct peek *p, const char *s, const char *end)
{
	const char *colon;
	char *v;
	int empty;

	while (s < end && *s == ' ')
		s++;
	if (s == end || *s == '#')
		return;
	if ((colon = key_of(p, s, end, &v, &empty)) == NULL)
		return;
	if (IS("socket")) {
		path_once(p, &p->out.munge_socket, v);
	} else {
		p->bad = 1;
		free(v);
	}
}

/* One line at the left margin of the first document. */
static void line(struct peek *p, const char *s, const char *end)
{
	const char *colon;
	char *v;
	int empty;

	p->in_munge = 0;
	if ((colon = key_of(p, s, end, &v, &empty)) == NULL)
		return;
	if (IS("socket")) {
		path_once(p, &p->out.socket, v);
		return;
	}
	if (IS("controller") && !empty) { /* "controller:" alone: none, as the shipped file has */
		if (v == NULL || p->out.controller != NULL || sl_hostport_split(v, NULL, NULL, NULL))
			p->bad = 1;
		free(p->out.controller);
		p->out.controller = v;
		return;
	}
	if (IS("pbsServer") && !empty) {
		p->bad |= v == NULL || p->out.pbs_server != NULL || !sl_host_name_ok(v);
		free(p->out.pbs_server);
		p->out.pbs_server = v;
		return;
	}
	if (IS("apiVersion")) {
		p->api = v != NULL && strcmp(v, "sluice.io/v1alpha1") == 0;
	} else if (IS("kind")) {
		p->kind = v != NULL && strcmp(v, "SluiceConfiguration") == 0;
	} else if (IS("auth")) {
		p->auth++;
		p->out.munge = v != NULL && strcmp(v, "munge") == 0;
		p->bad |= v == NULL || (!p->out.munge && strcmp(v, "none") != 0);
	} else if (IS("munge")) {
		p->in_munge = empty; /* a block may follow; a value on this line is the parser's */
		p->bad |= !empty;
	}
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
		} else if (t > s && *s == ' ' && p->in_munge) {
			munge_line(p, s, t);
		}
		s = nl ? nl + 1 : end;
	}
}

int sl_conf_peek_fast(const char *path, struct sl_conf_peek *out)
{
	struct peek p = {0};
	struct stat st;
	char *text = NULL;
	ssize_t n = -1;
	int fd;

	memset(out, 0, sizeof(*out));
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
	/* Without socket or controller the default socket is the loader's
	 * business; TCP without munge is a config error it words. */
	if (p.bad || !p.api || !p.kind || p.auth > 1 ||
	    (p.out.socket == NULL && p.out.controller == NULL) ||
	    (p.out.controller != NULL && !p.out.munge))
		goto parse;
	if (p.out.socket == NULL)
		p.out.socket = sl_xstrdup(SL_CONF_DEFAULT_SOCKET);
	sl_path_normalize(p.out.socket);
	if (p.out.munge_socket != NULL)
		sl_path_normalize(p.out.munge_socket);
	if (strlen(p.out.socket) > SOCKET_PATH_MAX ||
	    (p.out.munge_socket != NULL && strlen(p.out.munge_socket) > SOCKET_PATH_MAX))
		goto parse;
	*out = p.out;
	return 1;
parse:
	sl_conf_peek_clear(&p.out);
	return 0;
}
