/* script.c - reading and checking batch scripts and extracting their
 * directive lines, with Slurm's rules and error texts. */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "job.h"
#include "xalloc.h"

char *sl_script_resolve(const char *name, const char *dir, const char *path_env)
{
	struct stat st;
	char *found;

	if (name[0] == '/' || name[0] == '.')
		return sl_xstrdup(name);
	found = sl_xasprintf("%s/%s", dir, name);
	if (stat(found, &st) == 0 && !S_ISDIR(st.st_mode))
		return found;
	free(found);
	found = path_env && *path_env ? sl_path_search(path_env, name, F_OK) : NULL;
	return found ? found : sl_xstrdup(name);
}

char *sl_script_command_line(const char *path, char *const *argv)
{
	size_t len = strlen(path) + 1;
	for (char *const *a = argv; a && *a; a++)
		len += strlen(*a) + 1;
	char *c = sl_xmalloc(len), *p = c;
	p = stpcpy(p, path);
	for (char *const *a = argv; a && *a; a++) {
		*p++ = ' ';
		p = stpcpy(p, *a);
	}
	return c;
}

char *sl_script_command(const struct sl_jobspec *s)
{
	const char *sp = s->script_path;
	if (s->wrapped || sp == NULL)
		return NULL;
	if (s->command != NULL)
		return sl_xstrdup(s->command);
	if (sp[0] == '/' || s->submit_dir == NULL)
		return sl_xstrdup(sp);
	return sl_xasprintf("%s/%s", s->submit_dir, sp);
}

/* Read fd to EOF, refusing more than SL_SCRIPT_MAX bytes. */
static int read_all(int fd, char **text, size_t *len, struct sl_err *err)
{
	size_t cap = 4096, n = 0;
	char *buf = sl_xmalloc(cap + 1);

	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > SL_SCRIPT_MAX) {
				free(buf);
				return sl_err_set(err, SL_ETOOBIG,
						  "Batch script is too large (over %u bytes)",
						  SL_SCRIPT_MAX);
			}
			cap *= 2;
			buf = sl_xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			return sl_err_set(err, SL_EIO, "Unable to read batch script: %s",
					  strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > SL_SCRIPT_MAX) {
		free(buf);
		return sl_err_set(err, SL_ETOOBIG, "Batch script is too large (%zu bytes > %u)",
				  n, SL_SCRIPT_MAX);
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int sl_script_read(const char *path, const char *shown_name, char **text, size_t *len,
		   struct sl_err *err)
{
	int fd = 0, r;
	struct stat st;

	if (path != NULL) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			if (fd >= 0)
				close(fd);
			return sl_err_set(err, SL_ENOENT, "Unable to open file %s",
					  shown_name ? shown_name : path);
		}
		if (S_ISDIR(st.st_mode)) { /* Slurm's read of it gets nothing: "empty" */
			close(fd);
			*text = sl_xcalloc(1, 1);
			*len = 0;
			return 0;
		}
	}
	r = read_all(fd, text, len, err);
	if (path != NULL)
		close(fd);
	return r;
}

static int only_space(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

int sl_script_check(const char *text, size_t len, struct sl_err *err)
{
	if (len == 0)
		return sl_err_set(err, SL_EINVAL, "Batch script is empty!");
	if (only_space(text, len))
		return sl_err_set(err, SL_EINVAL, "Batch script contains only whitespace!");
	if (len < 2 || text[0] != '#' || text[1] != '!')
		return sl_err_set(err, SL_EINVAL,
				  "This does not look like a batch script.  The first\n"
				  "line must start with #! followed by the path to an interpreter.\n"
				  "For instance: #!/bin/sh");
	if (memmem(text, len, "\r\n", 2) != NULL)
		return sl_err_set(err, SL_EINVAL,
				  "Batch script contains DOS line breaks (\\r\\n)\n"
				  "instead of expected UNIX line breaks (\\n).");
	if (memchr(text, '\0', len) != NULL)
		return sl_err_set(err, SL_EINVAL,
				  "The Slurm controller does not allow scripts that\n"
				  "contain a NULL character '\\0'.");
	return 0;
}

char *sl_script_wrap(const char *cmd)
{
	return sl_xasprintf("#!/bin/sh\n# This script was created by sbatch --wrap.\n\n%s\n",
			    cmd);
}

struct words {
	char **v;
	size_t n, cap;
};

static void words_push(struct words *w, char *s)
{
	w->v = sl_xgrow(w->v, &w->cap, w->n + 2, sizeof(*w->v));
	w->v[w->n++] = s;
	w->v[w->n] = NULL;
}

/* Split one directive line (after the magic word) into words, as Slurm's
 * _get_argument does. */
static int split_line(const char *p, const char *end, struct words *w, int lineno,
		      struct sl_err *err)
{
	char *buf = sl_xmalloc((size_t)(end - p) + 1);

	for (;;) {
		size_t n = 0;
		char quote = 0;
		int esc = 0;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end || *p == '#')
			break;
		for (; p < end && (quote || !isspace((unsigned char)*p)); p++) {
			if (esc) {
				esc = 0;
			} else if (*p == '\\') {
				esc = 1;
				continue;
			} else if (quote) {
				if (*p == quote) {
					quote = 0;
					continue;
				}
			} else if (*p == '"' || *p == '\'') {
				quote = *p;
				continue;
			} else if (*p == '#') {
				break;
			}
			buf[n++] = *p;
		}
		if (quote) {
			free(buf);
			return sl_err_set(err, SL_EINVAL, "line %d: Unmatched `%c` in directive",
					  lineno, quote);
		}
		/* a word with nothing in it ("", '', a trailing backslash) ends
		 * the line: _get_argument returns no argument for it */
		if (n == 0)
			break;
		words_push(w, sl_xstrndup(buf, n));
		if (p < end && *p == '#')
			break;
	}
	free(buf);
	return 0;
}

/* stop_at: 0 for #SBATCH (the first command ends them), else how many
 * lines not starting with '#' may go by (#PBS). */
/* The first character of [p, eol) that is not blank, or '\0'. */
static char first_char(const char *p, const char *eol)
{
	while (p < eol && isspace((unsigned char)*p))
		p++;
	return p < eol ? *p : '\0';
}

static int starts(const char *p, const char *eol, const char *magic, size_t mlen)
{
	return magic != NULL && (size_t)(eol - p) >= mlen && memcmp(p, magic, mlen) == 0;
}

/* alt: a second magic word (sbatch's legacy "#SLURM"), *alt_seen set when
 * a line used it. */
static int directives(const char *text, size_t len, const char *magic, const char *alt,
		      int *alt_seen, const char *progname, int stop_at, char ***argv,
		      int *argc, struct sl_err *err)
{
	struct words w = {NULL, 0, 0};
	size_t mlen = strlen(magic), alen = alt ? strlen(alt) : 0;
	const char *p = text, *end = text + len;
	int lineno = 0, r = 0, others = 0;

	words_push(&w, sl_xstrdup(progname));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		lineno++;
		if (starts(p, eol, magic, mlen)) {
			if ((r = split_line(p + mlen, eol, &w, lineno, err)) != 0)
				break;
		} else if (starts(p, eol, alt, alen)) {
			*alt_seen = 1;
			if ((r = split_line(p + alen, eol, &w, lineno, err)) != 0)
				break;
		} else if (stop_at == 0 && first_char(p, eol) != '#' &&
			   !only_space(p, (size_t)(eol - p))) {
			/* the first command (an indented comment is none):
			 * Slurm reads no further */
			break;
		} else if (stop_at > 0 && *p != '#' && ++others > stop_at) {
			break;
		}
		p = nl ? nl + 1 : end;
	}
	if (r != 0) {
		sl_strv_free(w.v);
		return r;
	}
	*argv = w.v;
	*argc = (int)w.n;
	return 0;
}

/* ---- PBS directives ------------------------------------------------------ */

/* make_argv(): blanks split, quotes group, a backslash takes the next
 * character as it is. */
static int pbs_words(const char *p, const char *end, const char *progname,
		     struct sl_qsub_directive *d, struct sl_err *err)
{
	struct words w = {NULL, 0, 0};
	char *buf = sl_xmalloc((size_t)(end - p) + 1);

	words_push(&w, sl_xstrdup(progname));
	for (;;) {
		size_t n = 0;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end)
			break;
		while (p < end && !isspace((unsigned char)*p)) {
			if (*p == '"' || *p == '\'') {
				char q = *p++;
				while (p < end && *p != q)
					buf[n++] = *p++;
				if (p == end) {
					free(buf);
					sl_strv_free(w.v);
					return sl_err_set(err, SL_EINVAL, "unmatched %c", q);
				}
				p++;
			} else if (*p == '\\' && p + 1 < end) {
				buf[n++] = p[1];
				p += 2;
			} else {
				buf[n++] = *p++;
			}
		}
		words_push(&w, sl_xstrndup(buf, n));
	}
	free(buf);
	d->argv = w.v;
	d->argc = (int)w.n;
	return 0;
}

static int pbs_executable(const char *p, const char *eol)
{
	if (p < eol && (*p == ':' || (*p == '#' && p + 1 < eol && p[1] == '!')))
		return 0;
	while (p < eol && isspace((unsigned char)*p))
		p++;
	return p < eol && *p != '#';
}

void sl_qsub_directives_free(struct sl_qsub_directive *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sl_strv_free(v[i].argv);
	free(v);
}

int sl_script_qsub_directives(const char *text, size_t len, const char *prefix,
			     const char *progname, struct sl_qsub_directive **out, size_t *n,
			     int *crlf, struct sl_err *err)
{
	const char *p = text, *end = text + len;
	size_t plen = strlen(prefix), cap = 0;
	int lineno = 0, exec = 0, r = 0;
	struct sl_qsub_directive *v = NULL;

	*out = NULL;
	*n = 0;
	*crlf = 0;
	while (p < end && r == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *s = p;
		int first = ++lineno;

		if (nl && eol > p && eol[-1] == '\r' && *crlf == 0)
			*crlf = lineno;
		while (s < eol && isspace((unsigned char)*s))
			s++;
		if (!exec && plen > 0 && (size_t)(eol - s) >= plen && memcmp(s, prefix, plen) == 0) {
			/* a directive; "\" at its end (blanks after it allowed) joins the next line */
			char *joined = sl_xstrndup(s + plen, (size_t)(eol - s - plen));
			size_t jl = strlen(joined);
			while (jl > 0 && isspace((unsigned char)joined[jl - 1]))
				jl--;
			while (jl > 0 && joined[jl - 1] == '\\' && nl != NULL) {
				const char *nx = nl + 1, *nnl = memchr(nx, '\n', (size_t)(end - nx));
				const char *neol = nnl ? nnl : end;
				char *t = sl_xasprintf("%.*s%.*s", (int)(jl - 1), joined,
						       (int)(neol - nx), nx);
				free(joined);
				joined = t;
				jl = strlen(joined);
				while (jl > 0 && isspace((unsigned char)joined[jl - 1]))
					jl--;
				nl = nnl;
				eol = neol;
				lineno++;
			}
			v = sl_xgrow(v, &cap, *n + 1, sizeof(*v));
			v[*n].line = first;
			r = pbs_words(joined, joined + jl, progname, &v[*n], err);
			if (r == 0)
				(*n)++;
			free(joined);
		} else if (!exec && pbs_executable(p, eol)) {
			exec = 1; /* qsub still reads on, for the CR check */
		}
		p = nl ? nl + 1 : end;
	}
	if (r != 0) {
		sl_qsub_directives_free(v, *n);
		*n = 0;
		return r;
	}
	*out = v;
	return 0;
}

int sl_script_directives(const char *text, size_t len, const char *magic,
			 const char *progname, char ***argv, int *argc, struct sl_err *err)
{
	return directives(text, len, magic, NULL, NULL, progname, 0, argv, argc, err);
}

int sl_script_sbatch_directives(const char *text, size_t len, char ***argv, int *argc,
				int *legacy, struct sl_err *err)
{
	*legacy = 0;
	return directives(text, len, "#SBATCH", "#SLURM", legacy, "sbatch", 0, argv, argc, err);
}

int sl_script_pbs_directives(const char *text, size_t len, char ***argv, int *argc,
			     struct sl_err *err)
{
	return directives(text, len, "#PBS", NULL, NULL, "sbatch", 100, argv, argc, err);
}
